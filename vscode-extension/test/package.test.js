// Offline checks of the extension (plain `node test/package.test.js`, no npm install):
// package.json is consistent, and extension.js starts `<greenlint.path> lsp <greenlint.args>`
// over stdio on Python documents, with `vscode` and `vscode-languageclient/node` stubbed.
"use strict";

const assert = require("node:assert/strict");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const test = require("node:test");

const root = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

test("package.json declares activation, entry point and settings", () => {
  assert.ok(manifest.activationEvents.includes("onLanguage:python"));
  assert.ok(manifest.activationEvents.includes("onNotebook:jupyter-notebook"));
  assert.ok(fs.existsSync(path.join(root, manifest.main)), `main file ${manifest.main} is missing`);
  const settings = manifest.contributes.configuration.properties;
  assert.deepEqual(Object.keys(settings).sort(), ["greenlint.args", "greenlint.enable", "greenlint.path"]);
  assert.equal(settings["greenlint.enable"].type, "boolean");
  assert.equal(settings["greenlint.path"].default, "greenlint");
  assert.equal(settings["greenlint.args"].type, "array");
  const commands = manifest.contributes.commands.map((c) => c.command);
  assert.deepEqual(commands, ["greenlint.restart"]);
  assert.ok(manifest.dependencies["vscode-languageclient"]);
  assert.ok(manifest.engines.vscode);
});

/** Load extension.js with stub modules; `settings` plays the user's greenlint.* settings. */
function loadExtension(settings) {
  const started = [];
  const registered = [];
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
  }
  const vscode = {
    workspace: {
      workspaceFolders: [{ uri: { fsPath: "/home/me/project" } }],
      getConfiguration: (section) => {
        assert.equal(section, "greenlint");
        return { get: (key, fallback) => (key in settings ? settings[key] : fallback) };
      },
      createFileSystemWatcher: (glob) => ({ glob }),
      onDidChangeConfiguration: (listener) => ({ listener }),
    },
    commands: { registerCommand: (name, fn) => registered.push(name) && { name, fn } },
    window: { showErrorMessage: (message) => assert.fail(message) },
  };
  const stubs = { vscode, "vscode-languageclient/node": { LanguageClient, TransportKind: { stdio: 0 } } };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request in stubs ? stubs[request] : load.call(this, request, ...rest);
  };
  try {
    const file = path.join(root, manifest.main);
    delete require.cache[file];
    return { extension: require(file), started, registered };
  } finally {
    Module._load = load;
  }
}

const context = () => ({ subscriptions: [] });

test("activate starts greenlint lsp over stdio on Python files and notebook cells", async () => {
  const { extension, started, registered } = loadExtension({
    path: "${workspaceFolder}/.venv/bin/greenlint",
    args: ["--isolated"],
  });
  await extension.activate(context());
  assert.equal(started.length, 1);
  const [client] = started;
  assert.deepEqual(client.serverOptions, {
    command: "/home/me/project/.venv/bin/greenlint",
    args: ["lsp", "--isolated"],
    transport: 0,
  });
  assert.deepEqual(client.clientOptions.documentSelector, [
    { scheme: "file", language: "python" },
    { scheme: "untitled", language: "python" },
    { scheme: "vscode-notebook-cell", language: "python" },
  ]);
  assert.deepEqual(client.clientOptions.synchronize.fileEvents, { glob: "**/pyproject.toml" });
  assert.deepEqual(registered, ["greenlint.restart"]);
  await extension.deactivate();
  assert.equal(client.isRunning(), false);
});

test("greenlint.enable = false starts nothing", async () => {
  const { extension, started } = loadExtension({ enable: false });
  await extension.activate(context());
  assert.equal(started.length, 0);
});
