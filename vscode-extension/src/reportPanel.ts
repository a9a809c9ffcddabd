// The energy report: `greenlint calls --format html` for the active file (or the workspace
// folder) in a webview beside the editor, made again when a file it covers is saved; a click on a
// row's location opens that line (or a notebook cell's line).

import { execFile } from "node:child_process";
import * as path from "node:path";
import * as vscode from "vscode";
import { reportArgs, target, webviewHtml, type Location } from "./report";
import { errorMessage, type Found } from "./server";

export type ReportScope = "file" | "workspace";

/** Where the extension's greenlint is, for the report's `greenlint calls` run (undefined: none, already said). */
export type Locate = () => Promise<Found | undefined>;

/** The Python file or notebook open in the active editor, saved on disk; null for anything else. */
export function activeFile(): string | null {
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  if (notebook && notebook.uri.scheme === "file") {
    return notebook.uri.fsPath;
  }
  const document = vscode.window.activeTextEditor?.document;
  return document && document.uri.scheme === "file" && document.languageId === "python" ? document.uri.fsPath : null;
}

/** A workspace folder: the active editor's, else the first one. */
export function activeFolder(): vscode.WorkspaceFolder | undefined {
  const editor = vscode.window.activeTextEditor;
  return (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) || vscode.workspace.workspaceFolders?.[0];
}

export class EnergyReport implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private panelListener: vscode.Disposable | undefined; // the panel's message handler, for the directory of its report
  private subject: { scope: ReportScope; file: string | null } | undefined; // what the open report is about

  constructor(private readonly locate: Locate, private readonly output: vscode.OutputChannel) {}

  /** A saved Python file or notebook that the open report covers: show the report again. */
  refresh(document: { uri: vscode.Uri }): void {
    const saved = document.uri.fsPath;
    const subject = this.subject;
    const covered = subject?.file ? saved === subject.file : saved.endsWith(".py") || saved.endsWith(".ipynb");
    if (this.panel && subject && covered) {
      void this.show(subject.scope, subject.file ?? undefined);
    }
  }

  /** The report for the active file (`file` scope; `reportOf`: that file) or the workspace folder. */
  async show(scope: ReportScope, reportOf?: string): Promise<void> {
    const found = await this.locate();
    if (!found) {
      return;
    }
    const file = scope === "workspace" ? null : reportOf ?? activeFile();
    const where = (file && vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))) || activeFolder();
    const cwd = where?.uri.fsPath ?? (file ? path.dirname(file) : undefined);
    if (!cwd) {
      void vscode.window.showWarningMessage("greenlint: open a Python file or a folder for the energy report.");
      return;
    }
    const subject = file ? path.relative(cwd, file) || file : ".";
    const title = file ? `Energy: ${path.basename(file)}` : `Energy: ${where?.name ?? path.basename(cwd)}`;
    let html: string;
    try {
      html = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: "greenlint: energy report" },
        () => this.reportHtml(found, subject, cwd),
      );
    } catch (error) {
      const text = errorMessage(error);
      this.output.appendLine(`energy report: ${text}`);
      void vscode.window.showErrorMessage(`greenlint: the energy report failed: ${text.split("\n")[0]}`, "Show Output")
        .then((choice) => choice && this.output.show());
      return;
    }
    const panel = this.panel ?? this.createPanel(title);
    panel.title = title;
    panel.webview.html = webviewHtml(html);
    this.subject = { scope: file ? "file" : "workspace", file };
    this.panelListener?.dispose();
    this.panelListener = panel.webview.onDidReceiveMessage((message: unknown) => this.open(target(message, cwd)));
    panel.reveal(panel.viewColumn ?? vscode.ViewColumn.Beside, true);
  }

  private createPanel(title: string): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel("greenlint.report", title, vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [],
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.subject = undefined;
      this.panelListener?.dispose();
    });
    this.panel = panel;
    return panel;
  }

  /** `greenlint calls --format html SUBJECT` (a file or folder), run in `cwd`. */
  private reportHtml(found: Found, subject: string, cwd: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const args = reportArgs(found.args, subject);
      execFile(found.command, args, { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 300000 }, (error, stdout, stderr) => {
        // exit code 2 with a report: some files could not be analysed (named on stderr)
        if (stdout.includes("</html>")) {
          if (stderr.trim()) {
            this.output.appendLine(stderr.trim());
          }
          resolve(stdout);
        } else {
          reject(new Error((stderr || error?.message || "no output").trim()));
        }
      });
    });
  }

  private async open(where: Location | null): Promise<void> {
    if (!where) {
      return;
    }
    const uri = vscode.Uri.file(where.file);
    const position = new vscode.Position(where.line, where.column);
    const selection = new vscode.Range(position, position);
    if (where.cell === null) {
      await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One, selection });
      return;
    }
    const notebook = await vscode.workspace.openNotebookDocument(uri);
    const cells = notebook.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
    const cell = cells[where.cell - 1];
    const editor = await vscode.window.showNotebookDocument(notebook, { viewColumn: vscode.ViewColumn.One });
    if (cell) {
      editor.revealRange(new vscode.NotebookRange(cell.index, cell.index + 1));
      await vscode.window.showTextDocument(cell.document, { viewColumn: editor.viewColumn, selection });
    }
  }

  dispose(): void {
    this.panelListener?.dispose();
    this.panel?.dispose();
  }
}
