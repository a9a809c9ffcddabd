// The Python interpreter greenlint may run in: the `greenlint.interpreter` setting, else the one
// the Python extension has selected for a folder (its public API, `@vscode/python-extension`),
// else none (then greenlint.path and PATH are used).

import * as os from "node:os";
import { PythonExtension } from "@vscode/python-extension";
import * as vscode from "vscode";
import { errorMessage, expand, type Interpreter } from "./server";

export class PythonInterpreters implements vscode.Disposable {
  private api: PythonExtension | undefined;
  private asked = false;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Fires when the Python extension selects another interpreter. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly output: vscode.OutputChannel) {}

  /** The interpreter for `folder`: greenlint.interpreter when set, else the Python extension's, else undefined. */
  async forFolder(folder: vscode.WorkspaceFolder | undefined): Promise<Interpreter | undefined> {
    const setting = vscode.workspace.getConfiguration("greenlint", folder?.uri).get<string>("interpreter", "");
    const configured = expand(setting, folder?.uri.fsPath, os.homedir());
    if (configured) {
      return { path: configured, source: "greenlint.interpreter" };
    }
    const api = await this.pythonExtension();
    if (!api) {
      return undefined;
    }
    const environment = await api.environments.resolveEnvironment(api.environments.getActiveEnvironmentPath(folder?.uri));
    const executable = environment?.executable.uri?.fsPath;
    return executable ? { path: executable, source: "Python extension" } : undefined;
  }

  /** The Python extension's API, or undefined when it is not installed; asked for once. */
  private async pythonExtension(): Promise<PythonExtension | undefined> {
    if (!this.asked && vscode.extensions.getExtension("ms-python.python")) {
      this.asked = true;
      try {
        this.api = await PythonExtension.api();
        this.disposables.push(this.api.environments.onDidChangeActiveEnvironmentPath(() => this.changed.fire()));
      } catch (error) {
        this.output.appendLine(`The Python extension's API is not available: ${errorMessage(error)}`);
      }
    }
    return this.api;
  }

  dispose(): void {
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }
}
