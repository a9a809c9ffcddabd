// The extension's state, held by one object per activation: the output channel, the language
// client of `greenlint lsp` (started over stdio, restarted when a setting it cannot take
// changes), the status bar, the energy report and the commands that run greenlint in a terminal.

import * as os from "node:os";
import * as vscode from "vscode";
import { LanguageClient, RevealOutputChannelOn, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { PythonInterpreters } from "./python";
import { activeFile, activeFolder, EnergyReport } from "./reportPanel";
import { errorMessage, findServer, type Found, type Missing } from "./server";
import { EnergyStatusBar } from "./statusBar";

/** The files whose change the server is told of: the configuration, project markers and pin files. */
export const WATCHED_FILES =
  "**/{pyproject.toml,setup.py,setup.cfg,.git,requirements*.txt,environment.yml,environment.yaml}";
/** Settings that need a new server process; the others reach the running server. */
const RESTART_SETTINGS = ["greenlint.enable", "greenlint.path", "greenlint.interpreter", "greenlint.args"];

function settings(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration("greenlint");
}

export class GreenlintExtension implements vscode.Disposable {
  private readonly output = vscode.window.createOutputChannel("greenlint");
  private readonly interpreters = new PythonInterpreters(this.output);
  private readonly status = new EnergyStatusBar(() => this.client, this.output);
  private readonly report = new EnergyReport(() => this.server(), this.output);
  private readonly disposables: vscode.Disposable[] = [this.output, this.interpreters, this.status, this.report];
  private client: LanguageClient | undefined;
  private found: Found | undefined; // the greenlint the running server was started from
  private missingShown = false;

  /** Registers the commands and listeners, then starts the server. */
  async activate(): Promise<void> {
    const command = (name: string, run: () => unknown) => vscode.commands.registerCommand(name, run);
    this.disposables.push(
      command("greenlint.restart", () => this.restart()),
      command("greenlint.showOutput", () => this.output.show()),
      command("greenlint.calibrate", () => this.runInTerminal("calibrate", ["calibrate"])),
      command("greenlint.measure", () => this.measureScript()),
      command("greenlint.showReport", () => this.report.show("file")),
      command("greenlint.showWorkspaceReport", () => this.report.show("workspace")),
      vscode.workspace.onDidChangeConfiguration((event) =>
        RESTART_SETTINGS.some((name) => event.affectsConfiguration(name)) ? this.restart() : undefined),
      this.interpreters.onDidChange(() => this.restart()),
      vscode.window.onDidChangeActiveTextEditor(() => this.status.refresh()),
      vscode.workspace.onDidSaveTextDocument((document) => this.report.refresh(document)),
      vscode.workspace.onDidSaveNotebookDocument((notebook) => this.report.refresh(notebook)),
      vscode.languages.onDidChangeDiagnostics(() => this.status.refresh()), // a new analysis landed
    );
    await this.start();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private async start(): Promise<void> {
    if (!settings().get<boolean>("enable", true)) {
      return;
    }
    const found = await this.locate();
    if (found.missing) {
      this.found = undefined;
      await this.showMissing(found);
      return;
    }
    this.found = found;
    this.output.appendLine(`Starting ${found.describe} lsp (found through ${found.source}).`);
    const client = this.makeClient(found);
    try {
      await client.start();
      this.client = client;
      this.missingShown = false;
      this.status.refresh();
    } catch (error) {
      const text = `greenlint: \`${found.describe} lsp\` did not start (${errorMessage(error)}). See the greenlint output.`;
      this.output.appendLine(text);
      void vscode.window.showErrorMessage(text, "Show Output").then((choice) => choice && this.output.show());
    }
  }

  private async stop(): Promise<void> {
    const running = this.client;
    this.client = undefined;
    this.status.hide();
    if (running?.isRunning()) {
      await running.stop();
    }
  }

  private async locate(): Promise<Found | Missing> {
    const folder = activeFolder();
    return findServer({
      setting: settings().get<string>("path", ""),
      interpreter: await this.interpreters.forFolder(folder),
      folder: folder?.uri.fsPath,
      home: os.homedir(),
      envPath: process.env.PATH,
    });
  }

  /** The greenlint of the running server, else found again; undefined (and said once) when there is none. */
  private async server(): Promise<Found | undefined> {
    const found = this.found ?? (await this.locate());
    if (found.missing) {
      await this.showMissing(found);
      return undefined;
    }
    return found;
  }

  private makeClient(found: Found): LanguageClient {
    const serverOptions: ServerOptions = {
      command: found.command,
      args: [...found.args, "lsp", ...settings().get<string[]>("args", [])],
      transport: TransportKind.stdio,
      options: { cwd: activeFolder()?.uri.fsPath },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "python" },
        { scheme: "untitled", language: "python" },
        // Jupyter cells: the server asks for notebook sync and checks each notebook as one module
        { scheme: "vscode-notebook-cell", language: "python" },
      ],
      synchronize: {
        // `[tool.greenlint]` lives in pyproject.toml; project markers decide where imports are
        // looked up, pin files the TensorFlow targeted: re-check open files when one changes
        fileEvents: vscode.workspace.createFileSystemWatcher(WATCHED_FILES),
        // editor settings reach the running server (workspace/didChangeConfiguration): no restart
        configurationSection: "greenlint",
      },
      initializationOptions: JSON.parse(JSON.stringify(settings())) as unknown,
      outputChannel: this.output,
      // one message of our own when the server cannot start, not the client library's as well
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
    };
    // id "greenlint": the client library reads `greenlint.trace.server` for the message trace
    return new LanguageClient("greenlint", "greenlint", serverOptions, clientOptions);
  }

  private async showMissing(found: Missing): Promise<void> {
    this.output.appendLine(found.message);
    if (this.missingShown) {
      return;
    }
    this.missingShown = true;
    const choice = await vscode.window.showErrorMessage(found.message, "Install", "Show Output");
    if (choice === "Install") {
      const terminal = vscode.window.createTerminal("greenlint install");
      terminal.show();
      terminal.sendText(found.install);
    } else if (choice === "Show Output") {
      this.output.show();
    }
  }

  /** Runs `greenlint <args>` as a task in a terminal; restarts the server when it succeeds (a new calibration or profile). */
  private async runInTerminal(name: string, args: string[]): Promise<void> {
    const found = await this.server();
    if (!found) {
      return;
    }
    const folder = activeFolder();
    const task = new vscode.Task(
      { type: "greenlint", command: name },
      folder ?? vscode.TaskScope.Workspace,
      name,
      "greenlint",
      new vscode.ProcessExecution(found.command, [...found.args, ...args], { cwd: folder?.uri.fsPath }),
    );
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated };
    const execution = await vscode.tasks.executeTask(task);
    const done = vscode.tasks.onDidEndTaskProcess((event) => {
      if (event.execution === execution) {
        done.dispose();
        if (event.exitCode === 0) {
          void this.restart(); // the server reads the calibration and profiles when it starts
        }
      }
    });
  }

  private async measureScript(): Promise<void> {
    const file = activeFile();
    if (!file) {
      void vscode.window.showWarningMessage("greenlint: open the Python script or notebook to measure first.");
      return;
    }
    await vscode.workspace.saveAll(false);
    await this.runInTerminal("measure", ["measure", file]);
  }

  /** Disposes of everything registered and stops the server (VS Code calls it on deactivation: a subscription). */
  async dispose(): Promise<void> {
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
    await this.stop();
  }
}
