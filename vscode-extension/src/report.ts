// The energy report in a webview: the HTML of `greenlint calls --format html`, with one script
// added (by nonce) that turns a click on a row's location into a message naming its line. The
// page's Content-Security-Policy keeps `default-src 'none'`: nothing is fetched.

import * as crypto from "node:crypto";
import * as path from "node:path";

const CSP_META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/;

const SCRIPT = `
const vscode = acquireVsCodeApi();
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-line]");
  if (!link) return;
  event.preventDefault();
  const { path, line, column, cell } = link.dataset;
  vscode.postMessage({ path, line: Number(line), column: Number(column), cell: cell ? Number(cell) : null });
});`;

/** Where a row of the report points: a file, 0-based line and column, and a notebook's 1-based code cell. */
export interface Location {
  file: string;
  line: number;
  column: number;
  cell: number | null;
}

/** The arguments of `greenlint calls --format html SUBJECT` after the launcher's own (*prefix*):
 * `--` before the subject, so that a file named `-x.py` is a path, never an option. */
export function reportArgs(prefix: readonly string[], subject: string): string[] {
  return [...prefix, "calls", "--format", "html", "--", subject];
}

/** The report's HTML for a webview: its CSP allows this one script and nothing else. */
export function webviewHtml(reportHtml: string, nonce: string = crypto.randomBytes(16).toString("base64")): string {
  const match = CSP_META.exec(reportHtml);
  if (!match || !reportHtml.includes("</body>")) {
    throw new Error("not a greenlint HTML report (no Content-Security-Policy or </body>)");
  }
  const csp = `${match[1]}; script-src 'nonce-${nonce}'`;
  return reportHtml
    .replace(CSP_META, `<meta http-equiv="Content-Security-Policy" content="${csp}">`)
    .replace("</body>", `<script nonce="${nonce}">${SCRIPT}\n</script>\n</body>`);
}

/** The file a row links to (its `data-path` is relative to the directory the report ran in); null for anything else. */
export function target(message: unknown, cwd: string): Location | null {
  const { path: file, line, column, cell } = (message ?? {}) as Record<string, unknown>;
  if (typeof file !== "string" || !Number.isInteger(line) || (line as number) < 1) {
    return null;
  }
  return {
    file: path.resolve(cwd, file),
    line: (line as number) - 1,
    column: Number.isInteger(column) && (column as number) > 0 ? (column as number) - 1 : 0,
    cell: Number.isInteger(cell) && (cell as number) > 0 ? (cell as number) : null,
  };
}
