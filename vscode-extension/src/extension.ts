// greenlint for VS Code: a thin client that runs `greenlint lsp` over stdio. Diagnostics, hovers,
// inlay hints, quick fixes and code lenses come from the server; the extension finds the server
// (server.ts), starts it, and adds a status-bar item, an energy report webview and commands, all
// held by one GreenlintExtension object per activation (greenlintExtension.ts).

import type * as vscode from "vscode";
import { GreenlintExtension } from "./greenlintExtension";

export async function activate(context: vscode.ExtensionContext): Promise<GreenlintExtension> {
  const extension = new GreenlintExtension();
  context.subscriptions.push(extension);
  await extension.activate();
  return extension;
}
