// src/server.ts: which greenlint runs (greenlint.path, then an interpreter, then PATH), with probes stubbed.

import * as assert from "node:assert/strict";
import { test } from "node:test";
import { expand, findServer, LAUNCHER, quote, which, type Interpreter, type ProbeResult } from "../src/server";

const files = (...present: string[]) => (file: string) => present.includes(file);
const importsIn = (...pythons: string[]) => (python: string): Promise<ProbeResult> =>
  Promise.resolve(pythons.includes(python) ? { safePath: true } : false);
const selected = (path: string): Interpreter => ({ path, source: "Python extension" });

test("greenlint.path wins over an interpreter where greenlint imports (as ruff-vscode's ruff.path)", async () => {
  const found = await findServer({ setting: "/usr/bin/greenlint", interpreter: selected("/p/.venv/bin/python"), envPath: "/usr/bin",
    probe: importsIn("/p/.venv/bin/python"), isExecutable: files("/usr/bin/greenlint") });
  assert.deepEqual(found, { command: "/usr/bin/greenlint", args: [], source: "greenlint.path", describe: "/usr/bin/greenlint" });
});

test("with no greenlint.path, the interpreter runs `python -m greenlint` when greenlint imports there", async () => {
  const found = await findServer({ interpreter: selected("/p/.venv/bin/python"), envPath: "/usr/bin",
    probe: importsIn("/p/.venv/bin/python"), isExecutable: files("/usr/bin/greenlint") });
  assert.deepEqual(found, { command: "/p/.venv/bin/python", args: ["-P", "-m", "greenlint"], source: "Python extension",
    describe: "/p/.venv/bin/python -m greenlint" });
  const configured = await findServer({ interpreter: { path: "/opt/py", source: "greenlint.interpreter" },
    probe: importsIn("/opt/py"), isExecutable: files() });
  assert.equal(!configured.missing && configured.source, "greenlint.interpreter");
});

test("a greenlint.path that is not there falls back to the interpreter, then PATH", async () => {
  let found = await findServer({ setting: "/gone/greenlint", interpreter: selected("/py"), probe: importsIn("/py"), isExecutable: files() });
  assert.equal(!found.missing && found.command, "/py");
  found = await findServer({ setting: "/gone/greenlint", interpreter: selected("/py"), envPath: "/usr/bin", probe: importsIn(),
    isExecutable: files("/usr/bin/greenlint") });
  assert.deepEqual(!found.missing && [found.command, found.source], ["/usr/bin/greenlint", "PATH"]);
});

test("the workspace stays off sys.path: -P from Python 3.11, a launcher dropping it before", async () => {
  const old = await findServer({ interpreter: selected("/py310"), probe: () => Promise.resolve({ safePath: false }), isExecutable: files() });
  assert.deepEqual(!old.missing && old.args, ["-c", LAUNCHER]);
  assert.ok(LAUNCHER.startsWith("import sys; sys.path[:1] = [] if sys.path[:1] == [''] else sys.path[:1];"));
  const modern = await findServer({ interpreter: selected("/py312"), probe: () => Promise.resolve({ safePath: true }), isExecutable: files() });
  assert.deepEqual(!modern.missing && modern.args, ["-P", "-m", "greenlint"]);
});

test("greenlint.path with ${workspaceFolder} and ~, or a name on PATH; else greenlint on PATH", async () => {
  const probe = importsIn();
  let found = await findServer({ interpreter: selected("/py"), setting: "${workspaceFolder}/.venv/bin/greenlint", folder: "/p",
    envPath: "/usr/bin", probe, isExecutable: files("/p/.venv/bin/greenlint", "/usr/bin/greenlint") });
  assert.deepEqual(!found.missing && [found.command, found.args, found.source], ["/p/.venv/bin/greenlint", [], "greenlint.path"]);
  found = await findServer({ setting: "~/bin/greenlint", home: "/home/me", envPath: "", probe, isExecutable: files("/home/me/bin/greenlint") });
  assert.equal(!found.missing && found.command, "/home/me/bin/greenlint");
  found = await findServer({ setting: "", envPath: "/a:/usr/bin", probe, isExecutable: files("/usr/bin/greenlint") });
  assert.deepEqual(!found.missing && [found.command, found.source], ["/usr/bin/greenlint", "PATH"]);
  found = await findServer({ setting: "greenlint-dev", envPath: "/a:/opt", probe, isExecutable: files("/opt/greenlint-dev") });
  assert.deepEqual(!found.missing && [found.command, found.source], ["/opt/greenlint-dev", "greenlint.path"]);
});

test("missing everywhere: one message naming each place and the install command", async () => {
  const found = await findServer({ interpreter: selected("/my env/python"), setting: "/x/greenlint", envPath: "/usr/bin",
    probe: importsIn(), isExecutable: files() });
  assert.ok(found.missing);
  assert.equal(found.install, `'/my env/python' -m pip install "greenlint[lsp]"`);
  assert.equal(found.message, "greenlint cannot start: greenlint.path \"/x/greenlint\" is not an executable file; greenlint " +
    "(with its lsp extra) is not installed in the selected interpreter /my env/python; there is no greenlint on PATH. " +
    "Install it with `'/my env/python' -m pip install \"greenlint[lsp]\"`, or set greenlint.path.");
  const configured = await findServer({ interpreter: { path: "/opt/py", source: "greenlint.interpreter" }, probe: importsIn(),
    isExecutable: files() });
  assert.ok(configured.missing && configured.message.includes("is not installed in greenlint.interpreter /opt/py"));
  const bare = await findServer({ envPath: "", probe: importsIn(), isExecutable: files() });
  assert.ok(bare.missing);
  assert.equal(bare.install, 'pip install "greenlint[lsp]"');
});

test("helpers", () => {
  assert.equal(expand("  ", "/p", "/h"), "");
  assert.equal(expand("${workspaceFolder}/g", "/p", "/h"), "/p/g");
  assert.equal(which("greenlint", "", files()), null);
  assert.equal(which("./greenlint", "/usr/bin", files("./greenlint")), "./greenlint");
  assert.equal(quote("/usr/bin/python3"), "/usr/bin/python3");
  assert.equal(quote("/it's/py"), "'/it'\\''s/py'");
});
