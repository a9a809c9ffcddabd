// The status-bar item: the active file's (or notebook's) predicted total and basis, from the
// server's `greenlint/fileTotal` request; a click opens the energy report.

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { errorMessage } from "./server";

/** greenlint's own request: a document's total (lsp_server/features/file_total.py). */
export const FILE_TOTAL = "greenlint/fileTotal";

/** What the server answers: null when the document has no TF/Keras call with an estimate. */
export interface FileTotal {
  label: string; // "34 kJ in this file (14 TF/Keras calls: 3 from data, 6 bounded, 5 predicted)"
  short?: string; // the figure alone, "34 kJ" or "264 J – 940 MJ": what the status bar shows
  joules: number;
  calls: number;
}

/** The status bar's text (short: it must fit beside the others) and its tooltip (the whole label). */
export function statusText(total: FileTotal): { text: string; tooltip: string } {
  return {
    text: `$(zap) ${total.short ?? total.label}`,
    tooltip: `greenlint: ${total.label}. Click for the energy report.`,
  };
}

const DEBOUNCE_MS = 300;

export class EnergyStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("greenlint.status", vscode.StatusBarAlignment.Right, 100);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly client: () => LanguageClient | undefined, private readonly output: vscode.OutputChannel) {
    this.item.name = "greenlint energy";
    this.item.command = "greenlint.showReport";
    this.item.tooltip = "greenlint: the predicted energy of this file. Click for the energy report.";
  }

  /** Asks the server again once things have been quiet for a moment (editor switches, new diagnostics). */
  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), DEBOUNCE_MS);
  }

  hide(): void {
    clearTimeout(this.timer);
    this.item.hide();
  }

  private async update(): Promise<void> {
    const client = this.client();
    const document = vscode.window.activeTextEditor?.document;
    if (!client || !document || document.languageId !== "python") {
      this.item.hide();
      return;
    }
    try {
      const total = await client.sendRequest<FileTotal | null>(FILE_TOTAL, { textDocument: { uri: document.uri.toString() } });
      if (!total) {
        this.item.hide();
        return;
      }
      const shown = statusText(total);
      this.item.text = shown.text;
      this.item.tooltip = shown.tooltip;
      this.item.show();
    } catch (error) {
      this.output.appendLine(`status bar: ${errorMessage(error)}`);
      this.item.hide();
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
  }
}
