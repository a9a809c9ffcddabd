// greenlint for VS Code: a thin client that runs `greenlint lsp` over stdio.
// Everything (diagnostics, hovers, inlay hints, quick fixes) comes from the server.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client = null;

/** `greenlint.path` with `${workspaceFolder}` replaced by the first workspace folder. */
function command(config) {
  const path = config.get("path", "greenlint") || "greenlint";
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
  return path.replace(/\$\{workspaceFolder\}/g, folder);
}

function makeClient() {
  const config = vscode.workspace.getConfiguration("greenlint");
  const serverOptions = {
    command: command(config),
    args: ["lsp", ...config.get("args", [])],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
      // Jupyter cells: the server asks for notebook sync and checks each notebook as one module
      { scheme: "vscode-notebook-cell", language: "python" },
    ],
    synchronize: {
      // `[tool.greenlint]` lives in pyproject.toml: re-check open files when one changes
      fileEvents: vscode.workspace.createFileSystemWatcher("**/pyproject.toml"),
    },
    outputChannelName: "greenlint",
  };
  return new LanguageClient("greenlint", "greenlint", serverOptions, clientOptions);
}

async function start() {
  if (!vscode.workspace.getConfiguration("greenlint").get("enable", true)) {
    return;
  }
  client = makeClient();
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `greenlint: cannot start \`${command(vscode.workspace.getConfiguration("greenlint"))} lsp\` ` +
        `(${error.message || error}). Install greenlint with the lsp extra or set greenlint.path.`
    );
  }
}

async function stop() {
  if (client) {
    const running = client;
    client = null;
    if (running.isRunning()) {
      await running.stop();
    }
  }
}

async function restart() {
  await stop();
  await start();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("greenlint.restart", restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("greenlint")) {
        return restart();
      }
      return undefined;
    })
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
