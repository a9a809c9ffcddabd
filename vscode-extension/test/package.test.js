// Offline checks of the extension (`node --test test/`, no VS Code): package.json declares the
// settings the server reads (docs/editor.md) and the commands; extension.js finds greenlint
// (interpreter, then greenlint.path, then PATH), starts `... lsp` over stdio, shows one message
// when greenlint is missing, and restarts only for settings the running server cannot take.
// `vscode`, `vscode-languageclient/node` and `@vscode/python-extension` are stubbed.
"use strict";

const assert = require("node:assert/strict");
const fs = require("node:fs");
const Module = require("node:module");
const os = require("node:os");
const path = require("node:path");
const test = require("node:test");

const root = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const settings = manifest.contributes.configuration.properties;

test("package.json declares that the extension waits for a trusted workspace", () => {
  // it starts an interpreter the workspace may choose (its .venv) and settings it may set (greenlint.path)
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, false);
  assert.match(manifest.capabilities.untrustedWorkspaces.description, /trust/);
});

test("package.json declares the server's settings, with docs/editor.md's names and defaults", () => {
  assert.ok(manifest.activationEvents.includes("onLanguage:python"));
  assert.ok(manifest.activationEvents.includes("onNotebook:jupyter-notebook"));
  assert.ok(fs.existsSync(path.join(root, manifest.main)), `main file ${manifest.main} is missing`);
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
  for (const name of ["greenlint.select", "greenlint.ignore", "greenlint.hotspotThresholdJ", "greenlint.inlayHints.enabled",
    "greenlint.inlayHints.minJoules", "greenlint.unit", "greenlint.configurationPreference", "greenlint.trace.server",
    "greenlint.enable", "greenlint.path", "greenlint.args"]) {
    assert.ok(name in settings, `${name} is not contributed`);
  }
  const commands = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(commands, ["greenlint.calibrate", "greenlint.measure", "greenlint.restart", "greenlint.showOutput",
    "greenlint.showReport", "greenlint.showWorkspaceReport"]);
  for (const dependency of ["vscode-languageclient", "@vscode/python-extension"]) {
    assert.ok(manifest.dependencies[dependency], dependency);
  }
  assert.ok(manifest.devDependencies["@vscode/vsce"]);
  assert.ok(fs.existsSync(path.join(root, "package-lock.json")), "package-lock.json is missing");
});

/** `"editorFirst"` in the doc's default column is the JSON string; `null`, `true`, `0` are JSON. */
function normalise(text) {
  return /^"/.test(text) || /^(null|true|false|-?\d+(\.\d+)?)$/.test(text) ? text : JSON.stringify(text);
}

function executableFile(dir, name, body) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** Load extension.js with stubs; `user` plays the greenlint.* settings, `python` the Python extension's interpreter. */
function loadExtension(user, { python, editor, folderPath = "/home/me/project" } = {}) {
  const started = [];
  const panels = [];
  const shown = [];
  const tasks = [];
  const executions = [];
  const taskListeners = [];
  const registered = new Map();
  const messages = [];
  const configListeners = [];
  const saveListeners = [];
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, running: false });
    }
    async start() {
      this.running = true;
      started.push(this);
    }
    isRunning() {
      return this.running;
    }
    async stop() {
      this.running = false;
    }
    async sendRequest(method, params) {
      assert.equal(method, "textDocument/codeLens");
      const title = `34 kJ in this file (${params.textDocument.uri})`;
      return [{ range: {}, command: { title, command: "greenlint.showHotspots", arguments: [] } }];
    }
  }
  const disposable = { dispose() {} };
  const event = () => disposable;
  const folder = { uri: { fsPath: folderPath }, name: "project" };
  const vscode = {
    workspace: {
      workspaceFolders: [folder],
      getWorkspaceFolder: () => folder,
      getConfiguration: (section) => {
        assert.equal(section, "greenlint");
        return { ...user, get: (key, fallback) => (key in user ? user[key] : fallback) };
      },
      createFileSystemWatcher: (glob) => ({ glob }),
      onDidChangeConfiguration: (listener) => configListeners.push(listener) && disposable,
      onDidSaveTextDocument: (listener) => saveListeners.push(listener) && disposable,
      onDidSaveNotebookDocument: event,
    },
    extensions: { getExtension: (id) => (python && id === "ms-python.python" ? { id } : undefined) },
    commands: { registerCommand: (name, fn) => registered.set(name, fn) && disposable },
    languages: { onDidChangeDiagnostics: event },
    window: {
      activeTextEditor: editor,
      activeNotebookEditor: undefined,
      createOutputChannel: () => ({ appendLine() {}, show() {}, dispose() {} }),
      createStatusBarItem: () => (status = { visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} }),
      createWebviewPanel: (viewType, title, column, options) => {
        const panel = { viewType, title, options, webview: { html: "" }, onDidDispose: () => disposable, reveal() {} };
        panel.webview.onDidReceiveMessage = (handler) => (panel.handler = handler) && disposable;
        panels.push(panel);
        return panel;
      },
      withProgress: (options, task) => task(),
      showTextDocument: async (uri, options) => shown.push({ uri, options }),
      showWarningMessage: async (message) => messages.push({ message }),
      onDidChangeActiveTextEditor: event,
      showErrorMessage: async (message, ...buttons) => messages.push({ message, buttons }) && undefined,
    },
    StatusBarAlignment: { Right: 2 },
    ViewColumn: { One: 1, Beside: -2 },
    ProgressLocation: { Window: 10 },
    Uri: { file: (fsPath) => ({ fsPath, scheme: "file" }) },
    Position: class { constructor(line, character) { Object.assign(this, { line, character }); } },
    Range: class { constructor(start, end) { Object.assign(this, { start, end }); } },
    Task: class { constructor(definition, scope, name, source, execution) { Object.assign(this, { definition, scope, name, source, execution }); } },
    ProcessExecution: class { constructor(process, args, options) { Object.assign(this, { process, args, options }); } },
    TaskScope: { Workspace: 2 },
    TaskRevealKind: { Always: 1 },
    TaskPanelKind: { Dedicated: 2 },
  };
  vscode.tasks = {
    executeTask: async (task) => {
      tasks.push(task);
      executions.push({ task }); // a TaskExecution
      return executions.at(-1);
    },
    onDidEndTaskProcess: (listener) => {
      taskListeners.push(listener);
      return disposable;
    },
  };
  vscode.workspace.saveAll = async () => true;
  let status = null;
  const pythonExtension = {
    PythonExtension: {
      api: async () => ({
        environments: {
          getActiveEnvironmentPath: () => ({ path: python }),
          resolveEnvironment: async () => ({ executable: { uri: { fsPath: python } } }),
          onDidChangeActiveEnvironmentPath: event,
        },
      }),
    },
  };
  const stubs = {
    vscode,
    "vscode-languageclient/node": { LanguageClient, TransportKind: { stdio: 0 }, RevealOutputChannelOn: { Never: 4 } },
    "@vscode/python-extension": pythonExtension,
  };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request in stubs ? stubs[request] : load.call(this, request, ...rest);
  };
  try {
    for (const file of Object.keys(require.cache).filter((f) => f.startsWith(root) && !f.includes("node_modules"))) {
      delete require.cache[file];
    }
    const extension = require(path.join(root, manifest.main));
    return { extension, started, registered, messages, configListeners, saveListeners, panels, shown, tasks, executions, taskListeners,
      status: () => status };
  } finally {
    Module._load = load;
  }
}

const context = () => ({ subscriptions: [] });
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "greenlint-ext-"));
const noPath = () => {
  const saved = process.env.PATH;
  process.env.PATH = tmp();
  return () => (process.env.PATH = saved);
};

test("without the Python extension: greenlint.path, started as `<path> lsp <args>` over stdio", async (t) => {
  t.after(noPath());
  const greenlint = executableFile(tmp(), "greenlint", "exit 0");
  const { extension, started, registered, messages } = loadExtension({ path: greenlint, args: ["--isolated"], unit: "Wh" });
  await extension.activate(context());
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
  assert.deepEqual(client.clientOptions.synchronize.fileEvents, { glob: "**/pyproject.toml" });
  assert.equal(client.clientOptions.synchronize.configurationSection, "greenlint");
  assert.equal(client.clientOptions.initializationOptions.unit, "Wh");
  assert.deepEqual([...registered.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  await extension.deactivate();
  assert.equal(client.isRunning(), false);
});

test("the Python extension's interpreter runs `python -P -m greenlint lsp` when greenlint imports there", async (t) => {
  t.after(noPath());
  const python = executableFile(tmp(), "python", "echo 1"); // the import check succeeds, on Python 3.11+
  const { extension, started } = loadExtension({ path: executableFile(tmp(), "greenlint", "exit 0") }, { python });
  await extension.activate(context());
  assert.deepEqual([started[0].serverOptions.command, started[0].serverOptions.args], [python, ["-P", "-m", "greenlint", "lsp"]]);
});

test("an interpreter without greenlint falls back to greenlint.path", async (t) => {
  t.after(noPath());
  const python = executableFile(tmp(), "python", "exit 1");
  const greenlint = executableFile(tmp(), "greenlint", "exit 0");
  const { extension, started } = loadExtension({ path: greenlint }, { python });
  await extension.activate(context());
  assert.deepEqual([started[0].serverOptions.command, started[0].serverOptions.args], [greenlint, ["lsp"]]);
});

test("greenlint nowhere: one message with the install command, no client; a restart does not repeat it", async (t) => {
  t.after(noPath());
  const python = executableFile(tmp(), "python", "exit 1");
  const { extension, started, messages, registered } = loadExtension({ path: "/nowhere/greenlint" }, { python });
  await extension.activate(context());
  await registered.get("greenlint.restart")();
  assert.equal(started.length, 0);
  assert.equal(messages.length, 1);
  const [{ message, buttons }] = messages;
  assert.match(message, /not installed in the selected interpreter/);
  assert.match(message, /greenlint\.path "\/nowhere\/greenlint" is not an executable file/);
  assert.ok(message.includes(`${python} -m pip install "greenlint[lsp]"`), message);
  assert.deepEqual(buttons, ["Install", "Show Output"]);
});

test("settings the server reads reach it without a restart; path, args and enable restart it", async (t) => {
  t.after(noPath());
  const { extension, started, configListeners } = loadExtension({ path: executableFile(tmp(), "greenlint", "exit 0") });
  await extension.activate(context());
  const change = (name) => ({ affectsConfiguration: (section) => section === name || name.startsWith(`${section}.`) });
  await configListeners[0](change("greenlint.inlayHints.minJoules"));
  await configListeners[0](change("greenlint.unit"));
  assert.equal(started.length, 1);
  await configListeners[0](change("greenlint.args"));
  assert.equal(started.length, 2);
  assert.equal(started[0].isRunning(), false);
});

test("greenlint.enable = false starts nothing", async () => {
  const { extension, started } = loadExtension({ enable: false });
  await extension.activate(context());
  assert.equal(started.length, 0);
});

test("the status bar shows the server's lens title; Show Energy Report runs `calls --format html` and rows open their line", async (t) => {
  t.after(noPath());
  const dir = tmp();
  // a greenlint that prints a report for `calls --format html FILE` (and records its arguments)
  const report = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `</head><body><a data-path="src/train.py" data-line=19 data-column=5>x</a></body></html>`;
  const greenlint = executableFile(dir, "greenlint", `echo "$@" >> "${dir}/args"; /bin/cat <<'EOF'\n${report}\nEOF`);
  const project = tmp();
  const file = path.join(project, "src", "train.py");
  const document = { uri: { fsPath: file, scheme: "file", toString: () => `file://${file}` }, languageId: "python" };
  const { extension, registered, panels, shown, status, messages, saveListeners } = loadExtension({ path: greenlint },
    { editor: { document }, folderPath: project });
  await extension.activate(context());
  await new Promise((resolve) => setTimeout(resolve, 400)); // the status bar refresh is debounced
  assert.equal(status().text, `$(zap) 34 kJ in this file (file://${file})`);
  assert.equal(status().command, "greenlint.showReport");
  assert.ok(status().visible);

  await registered.get("greenlint.showReport")();
  assert.equal(fs.readFileSync(path.join(dir, "args"), "utf8").trim(), "calls --format html src/train.py");
  assert.equal(panels.length, 1);
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
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(fs.readFileSync(path.join(dir, "args"), "utf8").trim().split("\n"),
    ["calls --format html src/train.py", "calls --format html src/train.py"]);
  assert.equal(panels.length, 1);
  await extension.deactivate();
});

test("Measure This Script and Calibrate This Machine run greenlint in a terminal; success restarts the server", async (t) => {
  t.after(noPath());
  const python = executableFile(tmp(), "python", "echo 1");
  const file = "/home/me/project/train.py";
  const document = { uri: { fsPath: file, scheme: "file", toString: () => `file://${file}` }, languageId: "python" };
  const { extension, registered, tasks, executions, taskListeners, started } = loadExtension({}, { python, editor: { document } });
  await extension.activate(context());
  await registered.get("greenlint.measure")();
  await registered.get("greenlint.calibrate")();
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
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(started.length, 2);
  await extension.deactivate();
});
