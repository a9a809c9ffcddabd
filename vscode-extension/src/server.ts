// Which greenlint to run, in this order: the `greenlint.path` setting; then an interpreter (the
// `greenlint.interpreter` setting, else the one selected in the Python extension for the
// document's folder) running `python -m greenlint` when greenlint and its lsp extra import there;
// then `greenlint` on PATH. An explicit setting wins over what the environment offers, as in
// ruff-vscode and Microsoft's Python tools extension template. No VS Code API here: the callers
// pass the probes in, so this is tested with plain node (test/server.test.ts).

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * A workspace must never shadow the standard library or greenlint: greenlint runs with the
 * workspace as its working directory, and `python -m`/`python -c` put that directory first on
 * sys.path (a repository's own `argparse.py` would run). Python 3.11+ has `-P` to leave it off;
 * before, `-c` code drops it (sys.path[0] is "" for `-c`) before importing anything: the same.
 */
const SAFE_PATH = "import sys; sys.path[:1] = [] if sys.path[:1] == [''] else sys.path[:1]";
/** Run by the interpreter: greenlint's command line, with sys.path as `-P` makes it. */
export const LAUNCHER = `${SAFE_PATH}; from greenlint.cli import main; sys.exit(main())`;
/** What `python -c` must import for greenlint's lsp to work (the `lsp` extra); it prints whether `-P` exists. */
export const IMPORT_CHECK = `${SAFE_PATH}; import greenlint.cli.lsp_cmd, pygls, lsprotocol; print(int(sys.version_info >= (3, 11)))`;
export const INSTALL_SPEC = "greenlint[lsp]";

/** A Python interpreter to try, and which setting or extension chose it (named in messages). */
export interface Interpreter {
  path: string;
  source: "greenlint.interpreter" | "Python extension";
}

/** What an interpreter probe finds: false when greenlint with its lsp extra does not import. */
export type ProbeResult = false | { safePath: boolean };

/** greenlint found: `args` start the subcommand (append "lsp", "calibrate", ...). */
export interface Found {
  missing?: false;
  command: string;
  args: string[];
  source: "greenlint.path" | "greenlint.interpreter" | "Python extension" | "PATH";
  describe: string;
}

/** greenlint found nowhere: one message naming every place tried, and the command that installs it. */
export interface Missing {
  missing: true;
  message: string;
  install: string;
}

export interface FindOptions {
  setting?: string; // greenlint.path, as the user wrote it
  interpreter?: Interpreter;
  folder?: string;
  home?: string;
  envPath?: string;
  probe?: (python: string) => Promise<ProbeResult>;
  isExecutable?: (file: string) => boolean;
}

/** The interpreter's arguments that start greenlint (append "lsp", ...) with the workspace off sys.path. */
export function interpreterArgs(hasSafePathFlag: boolean): string[] {
  return hasSafePathFlag ? ["-P", "-m", "greenlint"] : ["-c", LAUNCHER];
}

/** `setting` with `${workspaceFolder}` and a leading `~` replaced; "" when unset. */
export function expand(setting: string | undefined, folder: string | undefined, home: string | undefined): string {
  const value = (setting ?? "").trim();
  return value.replace(/\$\{workspaceFolder\}/g, folder ?? "").replace(/^~(?=$|[\\/])/, home ?? "~");
}

/** The full path of `name` on `envPath` (or `name` itself when it holds a separator and is executable). */
export function which(name: string, envPath: string | undefined, isExecutable: (file: string) => boolean = executable): string | null {
  if (name.includes("/") || name.includes("\\")) {
    return isExecutable(name) ? name : null;
  }
  for (const dir of (envPath ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) {
      return candidate;
    }
  }
  return null;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Resolves to false when `python` cannot import greenlint with its lsp extra, else to whether it has `-P` (Python 3.11+). */
export function canImport(python: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(python, ["-c", IMPORT_CHECK], { timeout: 20000 }, (error, stdout) =>
      resolve(error ? false : { safePath: String(stdout).trim() === "1" }));
  });
}

/** The server to start, or why there is none. */
export async function findServer(options: FindOptions): Promise<Found | Missing> {
  const { setting, interpreter, folder, home, envPath, probe = canImport, isExecutable = executable } = options;
  const tried: string[] = [];
  const configured = expand(setting, folder, home);
  if (configured) {
    const found = which(configured, envPath, isExecutable);
    if (found) {
      return { command: found, args: [], source: "greenlint.path", describe: found };
    }
    tried.push(`greenlint.path "${configured}" is not an executable file`);
  }
  if (interpreter) {
    const found = await probe(interpreter.path);
    if (found) {
      const args = interpreterArgs(found.safePath);
      return { command: interpreter.path, args, source: interpreter.source, describe: `${interpreter.path} -m greenlint` };
    }
    const chosen = interpreter.source === "greenlint.interpreter" ? "greenlint.interpreter" : "the selected interpreter";
    tried.push(`greenlint (with its lsp extra) is not installed in ${chosen} ${interpreter.path}`);
  }
  const onPath = which("greenlint", envPath, isExecutable);
  if (onPath) {
    return { command: onPath, args: [], source: "PATH", describe: onPath };
  }
  tried.push("there is no greenlint on PATH");
  const install = interpreter ? `${quote(interpreter.path)} -m pip install "${INSTALL_SPEC}"` : `pip install "${INSTALL_SPEC}"`;
  const message = `greenlint cannot start: ${tried.join("; ")}. Install it with \`${install}\`, or set greenlint.path.`;
  return { missing: true, message, install };
}

/** A shell word for `file` (quoted when it holds anything but safe characters). */
export function quote(file: string): string {
  return /^[\w@%+=:,./-]+$/.test(file) ? file : `'${file.replace(/'/g, "'\\''")}'`;
}

/** An error's message (what a rejected promise or a failed process gives), for the output channel. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
