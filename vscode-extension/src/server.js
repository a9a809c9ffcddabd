// Which greenlint to run, in this order: the Python extension's interpreter for the document's
// folder (`python -m greenlint`, when greenlint and its lsp extra import there), the
// `greenlint.path` setting, then `greenlint` on PATH. No VS Code API here: the callers pass the
// probes in, so this is tested with plain node (test/server.test.js).
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { execFile } = require("node:child_process");

/**
 * A workspace must never shadow the standard library or greenlint: greenlint runs with the
 * workspace as its working directory, and `python -m`/`python -c` put that directory first on
 * sys.path (a repository's own `argparse.py` would run). Python 3.11+ has `-P` to leave it off;
 * before, `-c` code drops it (sys.path[0] is "" for `-c`) before importing anything: the same.
 */
const SAFE_PATH = "import sys; sys.path[:1] = [] if sys.path[:1] == [''] else sys.path[:1]";
/** Run by the interpreter: greenlint's command line, with sys.path as `-P` makes it. */
const LAUNCHER = `${SAFE_PATH}; from greenlint.cli import main; sys.exit(main())`;
/** What `python -c` must import for greenlint's lsp to work (the `lsp` extra); it prints whether `-P` exists. */
const IMPORT_CHECK = `${SAFE_PATH}; import greenlint.cli.lsp_cmd, pygls, lsprotocol; print(int(sys.version_info >= (3, 11)))`;
const INSTALL_SPEC = "greenlint[lsp]";

/** The interpreter's arguments that start greenlint (append "lsp", ...) with the workspace off sys.path. */
function interpreterArgs(hasSafePathFlag) {
  return hasSafePathFlag ? ["-P", "-m", "greenlint"] : ["-c", LAUNCHER];
}

/** `setting` with `${workspaceFolder}` and a leading `~` replaced; "" when unset. */
function expand(setting, folder, home) {
  const value = (setting || "").trim();
  return value.replace(/\$\{workspaceFolder\}/g, folder || "").replace(/^~(?=$|[\\/])/, home || "~");
}

/** The full path of `name` on `envPath` (or `name` itself when it holds a separator and is executable). */
function which(name, envPath, isExecutable = executable) {
  if (name.includes("/") || name.includes("\\")) {
    return isExecutable(name) ? name : null;
  }
  for (const dir of (envPath || "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) {
      return candidate;
    }
  }
  return null;
}

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Resolves to false when `python` cannot import greenlint with its lsp extra, else to
 * `{ safePath }`: whether it has `-P` (Python 3.11+). */
function canImport(python) {
  return new Promise((resolve) => {
    execFile(python, ["-c", IMPORT_CHECK], { timeout: 20000 }, (error, stdout) =>
      resolve(error ? false : { safePath: String(stdout).trim() === "1" }));
  });
}

/**
 * The server to start: `{command, args, source, describe}` where `args` start the subcommand
 * (append "lsp", "calibrate", ...), or `{missing: true, message, install}` with one message
 * naming everything that was tried and the command that installs greenlint.
 *
 * `interpreter` is the Python extension's interpreter (a path) or undefined when there is none.
 */
async function findServer({ interpreter, setting, folder, home, envPath, probe = canImport, isExecutable = executable }) {
  const tried = [];
  if (interpreter) {
    const found = await probe(interpreter);
    if (found) {
      const args = interpreterArgs(found.safePath !== false);
      return { command: interpreter, args, source: "interpreter", describe: `${interpreter} -m greenlint` };
    }
    tried.push(`greenlint (with its lsp extra) is not installed in the selected interpreter ${interpreter}`);
  }
  const configured = expand(setting, folder, home);
  if (configured) {
    const found = which(configured, envPath, isExecutable);
    if (found) {
      return { command: found, args: [], source: "setting", describe: found };
    }
    tried.push(`greenlint.path "${configured}" is not an executable file`);
  }
  const onPath = which("greenlint", envPath, isExecutable);
  if (onPath) {
    return { command: onPath, args: [], source: "PATH", describe: onPath };
  }
  tried.push("there is no greenlint on PATH");
  const install = interpreter ? `${quote(interpreter)} -m pip install "${INSTALL_SPEC}"` : `pip install "${INSTALL_SPEC}"`;
  const message = `greenlint cannot start: ${tried.join("; ")}. Install it with \`${install}\`, or set greenlint.path.`;
  return { missing: true, message, install };
}

/** A shell word for `file` (quoted when it holds anything but safe characters). */
function quote(file) {
  return /^[\w@%+=:,./-]+$/.test(file) ? file : `'${file.replace(/'/g, "'\\''")}'`;
}

module.exports = { findServer, expand, which, canImport, quote, interpreterArgs, IMPORT_CHECK, INSTALL_SPEC, LAUNCHER };
