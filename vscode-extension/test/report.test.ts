// src/report.ts: the CLI's HTML report made a webview page (one nonce script, still no network),
// and a row's message turned into the line to open.

import * as assert from "node:assert/strict";
import { test } from "node:test";
import { reportArgs, target, webviewHtml } from "../src/report";

const REPORT = `<!DOCTYPE html>
<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
</head><body><table><tr><td><a href="a.py#L3" data-path="a.py" data-line=3 data-column=5>a.py:3</a></td></tr></table>
</body></html>`;

test("the webview page allows its one script by nonce and keeps default-src 'none'", () => {
  const html = webviewHtml(REPORT, "abc123");
  assert.match(html, /content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-abc123'"/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /<script nonce="abc123">[\s\S]*acquireVsCodeApi\(\)[\s\S]*<\/script>\n<\/body>/);
  assert.ok(!/https?:/.test(html));
  assert.throws(() => webviewHtml("<html><body></body></html>"), /not a greenlint HTML report/);
});

test("a row's message names the file (relative to where the report ran), line and column, 0-based", () => {
  assert.deepEqual(target({ path: "src/a.py", line: 3, column: 5, cell: null }, "/p"),
    { file: "/p/src/a.py", line: 2, column: 4, cell: null });
  assert.deepEqual(target({ path: "nb.ipynb", line: 1, column: 1, cell: 2 }, "/p"),
    { file: "/p/nb.ipynb", line: 0, column: 0, cell: 2 });
  assert.equal(target({ path: "a.py", line: 0 }, "/p"), null);
  assert.equal(target({ line: 3 }, "/p"), null);
  assert.equal(target(null, "/p"), null);
});

test("the report's subject comes after `--`: a file named like an option is still a path", () => {
  assert.deepEqual(reportArgs(["-P", "-m", "greenlint"], "-x.py"), ["-P", "-m", "greenlint", "calls", "--format", "html", "--", "-x.py"]);
  assert.deepEqual(reportArgs([], "src"), ["calls", "--format", "html", "--", "src"]);
});
