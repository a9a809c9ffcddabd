// Offline checks of the extension (`npm test`, no VS Code): package.json declares the settings the
// server reads (docs/editor.md) and the commands; the extension finds greenlint (greenlint.path,
// then greenlint.interpreter or the Python extension's interpreter, then PATH), starts `... lsp`
// over stdio, shows one message when greenlint is missing, restarts only for settings the running
// server cannot take, and shows the server's `greenlint/fileTotal` in the status bar.
// `vscode`, `vscode-languageclient/node` and `@vscode/python-extension` are stubbed.
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access,
   @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-explicit-any,
   @typescript-eslint/no-unsafe-argument -- the stubs play untyped parts of the VS Code API */

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { after, test, type TestContext } from "node:test";

const root = path.resolve(__dirname, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const settings = manifest.contributes.configuration.properties;
const FILE_TOTAL = "greenlint/fileTotal";

test("package.json declares that the extension waits for a trusted workspace", () => {
  // it starts an interpreter the workspace may choose (its .venv) and settings it may set (greenlint.path)
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, false);
  assert.match(manifest.capabilities.untrustedWorkspaces.description, /trust/);
});

test("package.json declares the server's settings, with docs/editor.md's names and defaults", () => {
  assert.ok(manifest.activationEvents.includes("onLanguage:python"));
  assert.ok(manifest.activationEvents.includes("onNotebook:jupyter-notebook"));
  assert.equal(manifest.main, "./dist/extension.js"); // the bundle: `npm run bundle`, or vsce's vscode:prepublish
  const editorDoc = fs.readFileSync(path.join(root, "..", "docs", "editor.md"), "utf8");
  const section = editorDoc.split("\n## Editor settings", 2)[1].split("\n## ")[0];
  const documented = [...section.matchAll(/^\| `(greenlint\.[\w.]+)` \| ((?:[^|\\]|\\\|)+) \|/gm)];
  assert.ok(documented.length >= 8, "docs/editor.md has no settings table");
  for (const [, name, typeAndDefault] of documented) {
    assert.ok(name in settings, `${name} is documented but not contributed`);
    const fallback = /, `([^`]*)`\s*$/.exec(typeAndDefault.trim())?.[1];
    assert.equal(JSON.stringify(settings[name].default), fallback === undefined ? undefined : normalise(fallback), name);
    const choices = [...typeAndDefault.matchAll(/`"(\w+)"`/g)].map((m) => m[1]);
    if (settings[name].enum) {
      assert.deepEqual(settings[name].enum, choices.slice(0, settings[name].enum.length), name);
    }
  }
  // the extension's own settings: in docs/editor.md's VS Code table, with their defaults
  const vscodeSection = editorDoc.split("\n## VS Code", 2)[1].split("\n## ")[0];
  const own = Object.fromEntries([...vscodeSection.matchAll(/^\| `(greenlint\.[\w.]+)` \| `([^`]*)` \|/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.keys(own).sort(), ["greenlint.args", "greenlint.enable", "greenlint.interpreter", "greenlint.path"]);
  for (const [name, fallback] of Object.entries(own)) {
    assert.equal(JSON.stringify(settings[name].default), normalise(fallback), name);
  }
  for (const name of ["greenlint.select", "greenlint.ignore", "greenlint.hotspotThresholdJ", "greenlint.inlayHints.enabled",
    "greenlint.inlayHints.minJoules", "greenlint.unit", "greenlint.configurationPreference", "greenlint.trace.server"]) {
    assert.ok(name in settings, `${name} is not contributed`);
  }
  const commands = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(commands, ["greenlint.calibrate", "greenlint.measure", "greenlint.restart", "greenlint.showOutput",
    "greenlint.showReport", "greenlint.showWorkspaceReport"]);
  for (const dependency of ["vscode-languageclient", "@vscode/python-extension"]) {
    assert.ok(manifest.dependencies[dependency], dependency);
  }
  for (const tool of ["@vscode/vsce", "esbuild", "eslint", "typescript", "typescript-eslint"]) {
    assert.ok(manifest.devDependencies[tool], tool);
  }
  assert.ok(fs.existsSync(path.join(root, "package-lock.json")), "package-lock.json is missing");
});

/** `"editorFirst"` in the doc's default column is the JSON string; `null`, `true`, `0`, `[]` are JSON. */
function normalise(text: string): string {
  return /^"/.test(text) || /^(null|true|false|\[\]|-?\d+(\.\d+)?)$/.test(text) ? text : JSON.stringify(text);
}

function executableFile(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

interface Options {
  python?: string; // the Python extension's selected interpreter; undefined: the extension is not installed
  editor?: any;
  folderPath?: string;
  totals?: Record<string, unknown>; // the server's fileTotal answer per document URI
}

/** Loads the extension (out/src/extension.js) with stubs; `user` plays the greenlint.* settings. */
function loadExtension(user: Record<string, unknown>, { python, editor, folderPath = "/home/me/project", totals = {} }: Options = {}) {
  const started: any[] = [];
  const panels: any[] = [];
  const shown: any[] = [];
  const tasks: any[] = [];
  const executions: any[] = [];
  const taskListeners: any[] = [];
  const registered = new Map<string, (...args: unknown[]) => unknown>();
  const messages: any[] = [];
  const configListeners: any[] = [];
  const saveListeners: any[] = [];
  const interpreterListeners: any[] = [];
  const requests: any[] = [];
  class LanguageClient {
    running = false;
    constructor(public id: string, public name: string, public serverOptions: any, public clientOptions: any) {}
    start() {
      this.running = true;
      started.push(this);
      return Promise.resolve();
    }
    isRunning() {
      return this.running;
    }
    stop() {
      this.running = false;
      return Promise.resolve();
    }
    sendRequest(method: string, params: any) {
      requests.push([method, params]);
      assert.equal(method, FILE_TOTAL);
      return Promise.resolve(totals[params.textDocument.uri] ?? null);
    }
  }
  class EventEmitter {
    listeners: any[] = [];
    event = (listener: any) => this.listeners.push(listener) && disposable;
    fire() {
      this.listeners.forEach((listener) => listener());
    }
    dispose() {}
  }
  const disposable = { dispose() {} };
  const event = () => disposable;
  const folder = { uri: { fsPath: folderPath }, name: "project" };
  let status: any = null;
  const vscode: any = {
    workspace: {
      workspaceFolders: [folder],
      getWorkspaceFolder: () => folder,
      getConfiguration: (section: string) => {
        assert.equal(section, "greenlint");
        return { ...user, get: (key: string, fallback: unknown) => (key in user ? user[key] : fallback) };
      },
      createFileSystemWatcher: (glob: string) => ({ glob }),
      onDidChangeConfiguration: (listener: any) => configListeners.push(listener) && disposable,
      onDidSaveTextDocument: (listener: any) => saveListeners.push(listener) && disposable,
      onDidSaveNotebookDocument: event,
      saveAll: () => Promise.resolve(true),
    },
    extensions: { getExtension: (id: string) => (python && id === "ms-python.python" ? { id } : undefined) },
    commands: { registerCommand: (name: string, fn: any) => registered.set(name, fn) && disposable },
    languages: { onDidChangeDiagnostics: event },
    window: {
      activeTextEditor: editor,
      activeNotebookEditor: undefined,
      createOutputChannel: () => ({ appendLine() {}, show() {}, dispose() {} }),
      createStatusBarItem: () => (status = { visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} }),
      createWebviewPanel: (viewType: string, title: string, _column: number, options: any) => {
        const panel: any = { viewType, title, options, webview: { html: "" }, onDidDispose: () => disposable, reveals: 0,
          reveal() { this.reveals += 1; }, dispose() {} };
        panel.webview.onDidReceiveMessage = (handler: any) => (panel.handler = handler) && disposable;
        panels.push(panel);
        return panel;
      },
      withProgress: (_options: unknown, task: () => unknown) => task(),
      showTextDocument: (uri: unknown, options: unknown) => Promise.resolve(shown.push({ uri, options })),
      showWarningMessage: (message: string) => Promise.resolve(messages.push({ message })),
      onDidChangeActiveTextEditor: event,
      showErrorMessage: (message: string, ...buttons: string[]) => Promise.resolve(messages.push({ message, buttons }) && undefined),
    },
    EventEmitter,
    StatusBarAlignment: { Right: 2 },
    ViewColumn: { One: 1, Beside: -2 },
    ProgressLocation: { Window: 10 },
    Uri: { file: (fsPath: string) => ({ fsPath, scheme: "file" }) },
    Position: class { constructor(public line: number, public character: number) {} },
    Range: class { constructor(public start: unknown, public end: unknown) {} },
    Task: class { constructor(public definition: unknown, public scope: unknown, public name: string, public source: string, public execution: any) {} },
    ProcessExecution: class { constructor(public process: string, public args: string[], public options: any) {} },
    TaskScope: { Workspace: 2 },
    TaskRevealKind: { Always: 1 },
    TaskPanelKind: { Dedicated: 2 },
    tasks: {
      executeTask: (task: any) => {
        tasks.push(task);
        executions.push({ task }); // a TaskExecution
        return Promise.resolve(executions.at(-1));
      },
      onDidEndTaskProcess: (listener: any) => taskListeners.push(listener) && disposable,
    },
  };
  const pythonExtension = {
    PythonExtension: {
      api: () => Promise.resolve({
        environments: {
          getActiveEnvironmentPath: () => ({ path: python }),
          resolveEnvironment: () => Promise.resolve({ executable: { uri: { fsPath: python } } }),
          onDidChangeActiveEnvironmentPath: (listener: any) => interpreterListeners.push(listener) && disposable,
        },
      }),
    },
  };
  const stubs: Record<string, unknown> = {
    vscode,
    "vscode-languageclient/node": { LanguageClient, TransportKind: { stdio: 0 }, RevealOutputChannelOn: { Never: 4 } },
    "@vscode/python-extension": pythonExtension,
  };
  const modules = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = modules._load;
  modules._load = function (request: string, ...rest: unknown[]) {
    return request in stubs ? stubs[request] : load.call(this, request, ...rest);
  };
  try {
    const out = path.join(root, "out", "src");
    for (const file of Object.keys(require.cache).filter((f) => f.startsWith(out))) {
      delete require.cache[file];
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded afresh, with the stubs, for each test
    const extension = require(path.join(out, "extension.js")) as { activate: (context: unknown) => Promise<{ dispose(): Promise<void> }> };
    return { extension, started, registered, messages, configListeners, saveListeners, interpreterListeners, panels, shown, tasks,
      executions, taskListeners, requests, status: () => status };
  } finally {
    modules._load = load;
  }
}

const context = () => ({ subscriptions: [] as unknown[] });
/** One folder for every test's scratch files, removed when the file's tests end: a run leaves nothing in the
 * system's temporary folder. */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "greenlint-ext-"));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
const tmp = () => fs.mkdtempSync(path.join(scratch, "t-"));
const noPath = (t: TestContext) => {
  const saved = process.env.PATH;
  process.env.PATH = tmp();
  t.after(() => (process.env.PATH = saved));
};
/** Waits until `condition()` holds, checking between turns of the event loop: what the extension does
 * after an event (a restart, a debounced refresh, a report that runs greenlint) takes as long as it takes
 * on a loaded machine. The timeout only bounds a hang: the condition failing is the test failing. */
async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      assert.fail(`waited ${timeoutMs} ms for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("without the Python extension: greenlint.path, started as `<path> lsp <args>` over stdio", async (t) => {
  noPath(t);
  const greenlint = executableFile(tmp(), "greenlint", "exit 0");
  const { extension, started, registered, messages } = loadExtension({ path: greenlint, args: ["--isolated"], unit: "Wh" });
  const ctx = context();
  const running = await extension.activate(ctx);
  assert.deepEqual(ctx.subscriptions, [running]); // VS Code disposes of it (stopping the server) on deactivation
  assert.deepEqual(messages, []);
  assert.equal(started.length, 1);
  const [client] = started;
  assert.equal(client.id, "greenlint"); // the client library reads greenlint.trace.server by this id
  assert.deepEqual(client.serverOptions, {
    command: greenlint, args: ["lsp", "--isolated"], transport: 0, options: { cwd: "/home/me/project" },
  });
  assert.deepEqual(client.clientOptions.documentSelector, [
    { scheme: "file", language: "python" },
    { scheme: "untitled", language: "python" },
    { scheme: "vscode-notebook-cell", language: "python" },
  ]);
  assert.deepEqual(client.clientOptions.synchronize.fileEvents, {
    glob: "**/{pyproject.toml,setup.py,setup.cfg,.git,requirements*.txt,environment.yml,environment.yaml}",
  });
  assert.equal(client.clientOptions.synchronize.configurationSection, "greenlint");
  assert.equal(client.clientOptions.initializationOptions.unit, "Wh");
  assert.deepEqual([...registered.keys()].sort(), manifest.contributes.commands.map((c: { command: string }) => c.command).sort());
  await running.dispose();
  assert.equal(client.isRunning(), false);
});

test("greenlint.path wins over the Python extension's interpreter, even one where greenlint imports", async (t) => {
  noPath(t);
  const python = executableFile(tmp(), "python", "echo 1"); // the import check succeeds, on Python 3.11+
  const greenlint = executableFile(tmp(), "greenlint", "exit 0");
  const { extension, started } = loadExtension({ path: greenlint }, { python });
  await extension.activate(context());
  assert.deepEqual([started[0].serverOptions.command, started[0].serverOptions.args], [greenlint, ["lsp"]]);
});

test("with no greenlint.path, the Python extension's interpreter runs `python -P -m greenlint lsp`; selecting another restarts", async (t) => {
  noPath(t);
  const python = executableFile(tmp(), "python", "echo 1");
  const { extension, started, interpreterListeners } = loadExtension({}, { python });
  await extension.activate(context());
  assert.deepEqual([started[0].serverOptions.command, started[0].serverOptions.args], [python, ["-P", "-m", "greenlint", "lsp"]]);
  interpreterListeners.forEach((listener) => listener());
  await until(() => started.length >= 2, "the restart");
  assert.equal(started.length, 2);
  assert.equal(started[0].isRunning(), false);
});

test("greenlint.interpreter: without the Python extension, or over its selection", async (t) => {
  noPath(t);
  const mine = executableFile(tmp(), "python", "echo 1");
  let { extension, started } = loadExtension({ interpreter: mine });
  await extension.activate(context());
  assert.deepEqual([started[0].serverOptions.command, started[0].serverOptions.args], [mine, ["-P", "-m", "greenlint", "lsp"]]);
  const selected = executableFile(tmp(), "python", "echo 1");
  ({ extension, started } = loadExtension({ interpreter: mine }, { python: selected }));
  await extension.activate(context());
  assert.equal(started[0].serverOptions.command, mine);
});

test("greenlint nowhere: one message with the install command, no client; a restart does not repeat it", async (t) => {
  noPath(t);
  const python = executableFile(tmp(), "python", "exit 1");
  const { extension, started, messages, registered } = loadExtension({ path: "/nowhere/greenlint" }, { python });
  await extension.activate(context());
  await registered.get("greenlint.restart")!();
  assert.equal(started.length, 0);
  assert.equal(messages.length, 1);
  const [{ message, buttons }] = messages;
  assert.match(message, /greenlint\.path "\/nowhere\/greenlint" is not an executable file/);
  assert.match(message, /not installed in the selected interpreter/);
  assert.ok(message.includes(`${python} -m pip install "greenlint[lsp]"`), message);
  assert.deepEqual(buttons, ["Install", "Show Output"]);
});

test("settings the server reads reach it without a restart; path, interpreter, args and enable restart it", async (t) => {
  noPath(t);
  const { extension, started, configListeners } = loadExtension({ path: executableFile(tmp(), "greenlint", "exit 0") });
  await extension.activate(context());
  const change = (name: string) => ({ affectsConfiguration: (section: string) => section === name || name.startsWith(`${section}.`) });
  await configListeners[0](change("greenlint.inlayHints.minJoules"));
  await configListeners[0](change("greenlint.unit"));
  assert.equal(started.length, 1);
  await configListeners[0](change("greenlint.args"));
  await configListeners[0](change("greenlint.interpreter"));
  assert.equal(started.length, 3);
  assert.equal(started[0].isRunning(), false);
});

test("greenlint.enable = false starts nothing", async () => {
  const { extension, started } = loadExtension({ enable: false });
  await extension.activate(context());
  assert.equal(started.length, 0);
});

test("the status bar shows the server's greenlint/fileTotal label, and hides when there is none", async (t) => {
  noPath(t);
  const file = "/home/me/project/train.py";
  const document = { uri: { fsPath: file, scheme: "file", toString: () => `file://${file}` }, languageId: "python" };
  const label = "34 kJ in this file (14 TF/Keras calls: 3 from data, 6 bounded, 5 predicted)";
  const totals = { [`file://${file}`]: { label, joules: 34000, calls: 14 } };
  const greenlint = executableFile(tmp(), "greenlint", "exit 0");
  const loaded = loadExtension({ path: greenlint }, { editor: { document }, totals });
  let { extension, status } = loaded;
  await extension.activate(context());
  await until(() => status()?.visible === true, "the status bar's debounced refresh");
  assert.deepEqual(loaded.requests, [[FILE_TOTAL, { textDocument: { uri: `file://${file}` } }]]);
  assert.equal(status().text, `$(zap) ${label}`);
  assert.equal(status().command, "greenlint.showReport");
  assert.ok(status().visible);

  const blank = loadExtension({ path: greenlint }, { editor: { document } }); // a file without TF/Keras calls: null
  ({ extension, status } = blank);
  await extension.activate(context());
  await until(() => blank.requests.length > 0, "the status bar's debounced refresh");
  assert.deepEqual(blank.requests, [[FILE_TOTAL, { textDocument: { uri: `file://${file}` } }]]);
  assert.equal(status().visible, false); // the answer (null) has been handled: the request's turn of the event loop is over
});

test("Show Energy Report runs `calls --format html`, rows open their line, a save shows it again", async (t) => {
  noPath(t);
  const dir = tmp();
  // a greenlint that prints a report for `calls --format html -- FILE` (and records its arguments)
  const report = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `</head><body><a data-path="src/train.py" data-line=19 data-column=5>x</a></body></html>`;
  const greenlint = executableFile(dir, "greenlint", `echo "$@" >> "${dir}/args"; /bin/cat <<'EOF'\n${report}\nEOF`);
  const project = tmp();
  const file = path.join(project, "src", "train.py");
  const document = { uri: { fsPath: file, scheme: "file", toString: () => `file://${file}` }, languageId: "python" };
  const { extension, registered, panels, shown, messages, saveListeners } = loadExtension({ path: greenlint },
    { editor: { document }, folderPath: project });
  const running = await extension.activate(context());
  await registered.get("greenlint.showReport")!();
  assert.equal(fs.readFileSync(path.join(dir, "args"), "utf8").trim(), "calls --format html -- src/train.py");
  assert.deepEqual(messages, []);
  assert.equal(panels.length, 1);
  const [panel] = panels;
  assert.deepEqual(panel.options, { enableScripts: true, localResourceRoots: [] });
  assert.equal(panel.title, "Energy: train.py");
  assert.match(panel.webview.html, /script-src 'nonce-[^']+'/);
  await panel.handler({ path: "src/train.py", line: 19, column: 5, cell: null });
  assert.equal(shown.length, 1);
  assert.equal(shown[0].uri.fsPath, file);
  assert.deepEqual([shown[0].options.selection.start.line, shown[0].options.selection.start.character], [18, 4]);

  // saving the file shows its report again, in the same panel; saving another file does not
  saveListeners.forEach((listener) => listener({ uri: { fsPath: path.join(project, "other.py") } }));
  saveListeners.forEach((listener) => listener(document));
  await until(() => panels.reduce((sum, p) => sum + p.reveals, 0) >= 2, "the report shown again after the save");
  assert.deepEqual(fs.readFileSync(path.join(dir, "args"), "utf8").trim().split("\n"),
    ["calls --format html -- src/train.py", "calls --format html -- src/train.py"]);
  assert.equal(panels.length, 1);
  await running.dispose();
});

test("Measure This Script and Calibrate This Machine run greenlint in a terminal; success restarts the server", async (t) => {
  noPath(t);
  const python = executableFile(tmp(), "python", "echo 1");
  const file = "/home/me/project/train.py";
  const document = { uri: { fsPath: file, scheme: "file", toString: () => `file://${file}` }, languageId: "python" };
  const { extension, registered, tasks, executions, taskListeners, started } = loadExtension({}, { python, editor: { document } });
  const running = await extension.activate(context());
  await registered.get("greenlint.measure")!();
  await registered.get("greenlint.calibrate")!();
  assert.deepEqual(tasks.map((task) => [task.name, task.execution.process, task.execution.args, task.execution.options.cwd]), [
    ["measure", python, ["-P", "-m", "greenlint", "measure", file], "/home/me/project"],
    ["calibrate", python, ["-P", "-m", "greenlint", "calibrate"], "/home/me/project"],
  ]);
  assert.equal(started.length, 1);
  const [measureEnd, calibrateEnd] = taskListeners;
  measureEnd({ execution: { task: {} }, exitCode: 0 }); // some other task ended: ignored
  measureEnd({ execution: executions[0], exitCode: 2 }); // the measurement failed: no restart
  assert.equal(started.length, 1);
  calibrateEnd({ execution: executions[1], exitCode: 0 }); // calibrated: the server restarts to read it
  await until(() => started.length >= 2, "the restart");
  assert.equal(started.length, 2);
  await running.dispose();
});
