// src/server.js: which greenlint runs (interpreter, greenlint.path, PATH), with probes stubbed.
"use strict";

const assert = require("node:assert/strict");
const test = require("node:test");
const { findServer, expand, which, quote, LAUNCHER } = require("../src/server");

const files = (...present) => (file) => present.includes(file);
const importsIn = (...pythons) => async (python) => pythons.includes(python);

test("the interpreter wins when greenlint imports there", async () => {
  const found = await findServer({ interpreter: "/p/.venv/bin/python", setting: "/usr/bin/greenlint", envPath: "/usr/bin",
    probe: importsIn("/p/.venv/bin/python"), isExecutable: files("/usr/bin/greenlint") });
  assert.deepEqual(found, { command: "/p/.venv/bin/python", args: ["-P", "-m", "greenlint"], source: "interpreter",
    describe: "/p/.venv/bin/python -m greenlint" });
});

test("the workspace stays off sys.path: -P from Python 3.11, a launcher dropping it before", async () => {
  const old = await findServer({ interpreter: "/py310", probe: async () => ({ safePath: false }), isExecutable: files() });
  assert.deepEqual(old.args, ["-c", LAUNCHER]);
  assert.ok(LAUNCHER.startsWith("import sys; sys.path[:1] = [] if sys.path[:1] == [''] else sys.path[:1];"));
  const modern = await findServer({ interpreter: "/py312", probe: async () => ({ safePath: true }), isExecutable: files() });
  assert.deepEqual(modern.args, ["-P", "-m", "greenlint"]);
});

test("then greenlint.path (with ${workspaceFolder} and ~), then PATH", async () => {
  const probe = importsIn();
  let found = await findServer({ interpreter: "/py", setting: "${workspaceFolder}/.venv/bin/greenlint", folder: "/p",
    envPath: "/usr/bin", probe, isExecutable: files("/p/.venv/bin/greenlint", "/usr/bin/greenlint") });
  assert.deepEqual([found.command, found.args, found.source], ["/p/.venv/bin/greenlint", [], "setting"]);
  found = await findServer({ setting: "~/bin/greenlint", home: "/home/me", envPath: "", probe,
    isExecutable: files("/home/me/bin/greenlint") });
  assert.equal(found.command, "/home/me/bin/greenlint");
  found = await findServer({ setting: "", envPath: "/a:/usr/bin", probe, isExecutable: files("/usr/bin/greenlint") });
  assert.deepEqual([found.command, found.source], ["/usr/bin/greenlint", "PATH"]);
  found = await findServer({ setting: "greenlint-dev", envPath: "/a:/opt", probe, isExecutable: files("/opt/greenlint-dev") });
  assert.deepEqual([found.command, found.source], ["/opt/greenlint-dev", "setting"]);
});

test("missing everywhere: one message naming each place and the install command", async () => {
  const found = await findServer({ interpreter: "/my env/python", setting: "/x/greenlint", envPath: "/usr/bin",
    probe: importsIn(), isExecutable: files() });
  assert.equal(found.missing, true);
  assert.equal(found.install, `'/my env/python' -m pip install "greenlint[lsp]"`);
  assert.equal(found.message, "greenlint cannot start: greenlint (with its lsp extra) is not installed in the selected " +
    "interpreter /my env/python; greenlint.path \"/x/greenlint\" is not an executable file; there is no greenlint on PATH. " +
    "Install it with `'/my env/python' -m pip install \"greenlint[lsp]\"`, or set greenlint.path.");
  const bare = await findServer({ envPath: "", probe: importsIn(), isExecutable: files() });
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
