"""The extension in a real VS Code: code-server 4.100.3 in Debian's Chromium, driven by Playwright.

`make test-editor` installs what this needs (see docs/editor.md) and runs it; plain `make test`
does not collect it (it lies outside `testpaths`). Nothing here skips: a missing prerequisite
fails with what to install.

It packages the extension with @vscode/vsce, installs the .vsix in a fresh code-server profile,
opens a copy of examples/ and checks, on screen: inlay hints with joules, each showing its basis
whole within VS Code's length limit; a hover with joules and a basis; a hover naming `__call__`
rendered as code; a quick fix for GL301 (applied); one total in the code lens, the status bar and
the energy report webview; and a notebook cell with its hint. Most checks write a screenshot to
docs/img/ (the README shows them).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from shots import save_picture  # beside this file (pytest puts its folder on sys.path)

from greenlint.predict.prediction import Basis

ROOT = Path(__file__).resolve().parents[3]
EXTENSION = ROOT / "vscode-extension"
EDITOR = EXTENSION / "test" / "editor"
CODE_SERVER = EDITOR / "node_modules" / ".bin" / "code-server"
IMAGES = ROOT / "docs" / "img"
MANIFEST = IMAGES / "editor-test.json"
CHROMIUM = next((p for p in ("/usr/lib/chromium/chromium", "/usr/bin/chromium") if os.path.exists(p)), None)
GREENLINT = ROOT / ".venv" / "bin" / "greenlint"
JOULES = re.compile(r"\d(\.\d+)?\s(m|k|M)?J\b")  # \s: the editor renders spaces as no-break spaces
MOD = "Control"
#: `editor.inlayHints.maximumLength`'s default: VS Code shows this many characters of a hint's
#: label, then "…". The test leaves the setting as users have it.
VSCODE_HINT_MAX = 43
#: A hint's basis, whole: `(from data)`, `(from data; × 8)`, `(from data + 1 more`, `(…; bounded)`.
HINT_BASIS = re.compile(r"(?:\(|; )(" + "|".join(re.escape(b.label) for b in Basis) + r")(?=\)|;| \+ )")

pytestmark = pytest.mark.e2e


def _require():
    missing = []
    if CHROMIUM is None:
        missing.append("Debian's chromium (apt-get install chromium)")
    if not CODE_SERVER.exists():
        missing.append(f"code-server ({EDITOR / 'setup.sh'})")
    if not (EXTENSION / "node_modules" / ".bin" / "vsce").exists():
        missing.append("the extension's node modules (npm ci in vscode-extension/)")
    if not GREENLINT.exists():
        missing.append(f"{GREENLINT} (make install)")
    if importlib.util.find_spec("playwright") is None:
        missing.append("Playwright for Python (pip install -e '.[editor]')")
    assert not missing, "make test-editor installs these; missing: " + ", ".join(missing)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def vsix(tmp_path_factory):
    _require()
    out = tmp_path_factory.mktemp("vsix") / "greenlint.vsix"
    run = subprocess.run(["npx", "vsce", "package", "--allow-missing-repository", "--skip-license", "-o", str(out)],
                         cwd=EXTENSION, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and out.exists(), run.stdout + run.stderr
    return out


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("ws") / "examples"
    shutil.copytree(ROOT / "examples", root, ignore=shutil.ignore_patterns("__pycache__", ".greenlint_cache"))
    return root


@pytest.fixture(scope="module")
def server(vsix, workspace, tmp_path_factory):
    """code-server with the .vsix installed, serving `workspace`; the URL to open."""
    home = tmp_path_factory.mktemp("code-server")
    port = _free_port()
    config = home / "config.yaml"
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
    user = home / "user-data"
    (user / "User").mkdir(parents=True)
    (user / "User" / "settings.json").write_text(json.dumps({
        "greenlint.path": str(GREENLINT),
        "security.workspace.trust.enabled": False,
        "editor.inlayHints.enabled": "on",
        "telemetry.telemetryLevel": "off",
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.colorTheme": "Default Light Modern",
        "extensions.ignoreRecommendations": True,
        "editor.minimap.enabled": False,
        "editor.cursorBlinking": "solid",  # a screenshot does not depend on the moment it is taken
        "notebook.output.textLineLimit": 10,
        "files.exclude": {"**/__pycache__": True},
    }))
    flags = ["--config", str(config), "--user-data-dir", str(user), "--extensions-dir", str(home / "extensions")]
    install = subprocess.run([str(CODE_SERVER), *flags, "--install-extension", str(vsix)],
                             capture_output=True, text=True, timeout=300)
    assert install.returncode == 0 and "successfully installed" in install.stdout, install.stdout + install.stderr
    log = open(home / "code-server.log", "w")
    # no greenlint on the editor's PATH: greenlint.path is the only way to it (test_missing_greenlint)
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not shutil.which("greenlint", path=d))
    proc = subprocess.Popen([str(CODE_SERVER), *flags, "--disable-workspace-trust", "--disable-telemetry", str(workspace)],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, "PATH": path})
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "healthz", timeout=2)
                break
            except OSError:
                assert proc.poll() is None, (home / "code-server.log").read_text()
                assert time.monotonic() < deadline, "code-server did not answer in 120 s"
                time.sleep(0.5)
        yield f"{url}?folder={workspace}"
    finally:
        # code-server keeps an extension host and a `greenlint lsp` per session: stop the whole group
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],  # Playwright gives it a fresh profile
        )
        page = browser.new_page(viewport={"width": 1400, "height": 860})
        page.set_default_timeout(60_000)
        page.goto(server)
        page.wait_for_selector(".monaco-workbench")
        page.wait_for_selector(".statusbar")
        yield page
        browser.close()


def _open(page, name: str):
    page.keyboard.press(f"{MOD}+P")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(name)
    page.wait_for_selector(f".quick-input-list .monaco-list-row:has-text('{name.rsplit('/', 1)[-1]}')")
    page.keyboard.press("Enter")
    page.wait_for_selector(f".tab.active:has-text('{name.rsplit('/', 1)[-1]}')")


def _goto(page, line: int, column: int = 1):
    page.keyboard.press(f"{MOD}+G")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(f"{line}:{column}")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)


@pytest.fixture(autouse=True)
def _picture_on_failure(request, tmp_path):
    """A failing test leaves what the editor showed in its pytest temporary directory."""
    page = request.getfixturevalue("page")
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        page.screenshot(path=str(tmp_path / "failure.png"))
        print(f"screenshot of the failure: {tmp_path / 'failure.png'}")


def _shot(page, name: str):
    """Save a screenshot to docs/img/ and record its hash in docs/img/editor-test.json, which
    tests/report/test_editor_images.py holds the README's pictures to. A picture that differs from
    the one there only in a few pixels (a fading scrollbar, the cursor) leaves it as it is
    (`shots.save_picture`): a run does not change the tree unless the screen did."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    png = save_picture(IMAGES / name, _settled(page))
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    manifest["produced_by"] = "make test-editor (vscode-extension/test/editor/test_real_editor.py)"
    manifest["code_server"] = json.loads((EDITOR / "package.json").read_text())["dependencies"]["code-server"]
    manifest.setdefault("images", {})[name] = hashlib.sha256(png).hexdigest()
    MANIFEST.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def _settled(page, quiet: float = 1.5, timeout: float = 20.0) -> bytes:
    """A screenshot taken once the screen has not changed for `quiet` seconds (a scrollbar fading
    out, a toolbar fading in), so that two runs take the same picture; after `timeout`, the last."""
    last = page.screenshot()
    since = time.monotonic()
    deadline = since + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
        png = page.screenshot()
        if png != last:
            last, since = png, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return png
    print(f"the screen kept changing for {timeout} s; the last picture is kept")
    return last


def _hints(page, timeout: float = 90.0) -> list[str]:
    """The inlay hint texts on screen, once at least one shows joules."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        texts = page.eval_on_selector_all(".view-lines span[class*='dyn-rule']", "els => els.map(e => e.textContent)")
        if any(JOULES.search(t) for t in texts):
            return texts
        page.wait_for_timeout(500)
    raise AssertionError(f"no inlay hint with joules within {timeout} s; saw {texts!r}")


def _shown(text: str) -> str:
    """DOM text as read: the editor renders spaces as no-break spaces."""
    return text.replace("\u00a0", " ").strip()


def _basis_cut(hints: list[str]) -> list[str]:
    """The energy hints whose basis does not show whole within VS Code's length limit."""
    cut = []
    for text in map(_shown, hints):
        basis = HINT_BASIS.search(text)
        if text.startswith("⚡") and (basis is None or basis.end() > VSCODE_HINT_MAX):
            cut.append(text)
    return cut


def _hover(page, line: int, column: int):
    """The greenlint hover at line:column (the mouse on the cursor there)."""
    _goto(page, line, column)
    box = page.locator(".monaco-editor .cursor").first.bounding_box()
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
    hover = page.locator(".monaco-hover-content:has-text('greenlint energy')").first
    hover.wait_for()
    return hover


def _command(page, title: str):
    page.keyboard.press("F1")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(title)
    page.wait_for_selector(f".quick-input-list .monaco-list-row:has-text('{title}')")
    page.keyboard.press("Enter")


def test_inlay_hints_hover_status_and_quick_fix(page, workspace):
    _open(page, "train.py")
    hints = _hints(page)
    assert any("⚡" in t for t in hints), hints
    # the sweep's calls (a loop factor, a range) make the longest hints: each keeps its basis whole
    assert any("×" in t for t in hints), hints
    assert not _basis_cut(hints), f"basis cut by VS Code's {VSCODE_HINT_MAX} characters: {_basis_cut(hints)}"
    _shot(page, "editor-inlay-hints.png")

    status = page.locator(".statusbar-item:has(.codicon-zap)")
    status.wait_for()
    assert JOULES.search(status.inner_text()), status.inner_text()

    # hover on `model.fit(` in the sweep (line 19): joules and the basis
    hover = _hover(page, 19, 11)
    text = hover.inner_text()
    assert "fit" in text and JOULES.search(text) and "Basis" in text, text
    _shot(page, "editor-hover.png")
    page.keyboard.press("Escape")

    # GL301 on line 25 (batch_size=2): the quick fixes name it; applying one changes the line
    _goto(page, 25, 1)
    page.keyboard.press(f"{MOD}+.")
    menu = page.locator(".action-widget")
    menu.wait_for()
    page.locator(".action-widget .monaco-list-row:has-text('GL301')").first.wait_for()
    _shot(page, "editor-quick-fix.png")
    before = (workspace / "train.py").read_text().splitlines()[24]
    for _ in range(menu.locator(".monaco-list-row").count()):  # the keyboard, as people do (the menu blocks the mouse)
        if "GL301" in (menu.locator(".monaco-list-row.focused").get_attribute("aria-label") or ""):
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.keyboard.press(f"{MOD}+S")
    deadline = time.monotonic() + 30
    while (workspace / "train.py").read_text().splitlines()[24] == before:
        assert time.monotonic() < deadline, "the quick fix did not change line 25"
        page.wait_for_timeout(300)


def test_hover_names_dunder_call_as_code(page):
    """`model(images, ...)` on line 32 is `tensorflow.keras.Model.__call__`: its name is a code span,
    not Markdown's bold `call`."""
    _open(page, "train.py")
    _hints(page)
    hover = _hover(page, 32, 33)
    text = _shown(hover.inner_text())
    codes = hover.locator("code").all_text_contents()
    page.keyboard.press("Escape")
    assert "__call__" in text, text
    assert any(c.endswith(".__call__") for c in codes), f"no code element around __call__: {codes!r} in {text!r}"


def test_energy_report_webview(page):
    """The report's first row and links; and one total for the file in the code lens, the status bar
    and the report's header (the same figure, a range where the figures are ranges)."""
    _open(page, "train.py")
    _hints(page)
    page.keyboard.press(f"{MOD}+Home")  # the file's lens sits above its first line
    lens = page.locator(".codelens-decoration:has-text('in this file')").first
    lens.wait_for()
    in_lens = re.search(r"⚡\s*(.+?) in this file", _shown(lens.inner_text()))
    status = page.locator(".statusbar-item:has(.codicon-zap)")
    in_status = _shown(status.inner_text())
    status.click()  # the status bar item opens the report
    frame = None
    deadline = time.monotonic() + 90
    while frame is None:
        assert time.monotonic() < deadline, "no energy report webview"
        frame = next((f for f in page.frames if f.query_selector("table a[data-line]")), None)
        page.wait_for_timeout(500)
    rows = frame.eval_on_selector_all("tbody tr", "rows => rows.map(r => r.textContent)")
    assert rows and "train.py:19" in rows[0], rows  # the 8-trial sweep's fit ranks first
    summary = _shown(frame.inner_text("p.summary"))
    in_report = re.search(r"with an energy figure, (.+?) in all", summary)
    assert in_lens and in_report, (lens.inner_text(), summary)
    totals = {"code lens": in_lens.group(1), "status bar": in_status, "report": in_report.group(1)}
    assert JOULES.search(totals["report"]) and len(set(totals.values())) == 1, totals
    _command(page, "View: Toggle Maximize Editor Group")  # the report alone, for the picture
    _shot(page, "editor-energy-report.png")
    # the report alone in the editor (about 1,000 px here): every row's basis within its width, not cut off
    cut = frame.evaluate("""() => [...document.querySelectorAll('td.basiscell')]
        .filter(td => td.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map(td => td.textContent)""")
    width = frame.evaluate("() => document.documentElement.clientWidth")
    assert not cut, f"the report's basis column is cut off at {width} px: {cut}"
    _command(page, "View: Toggle Maximize Editor Group")
    frame.click("a[data-line='25']")  # a row's link opens its line
    page.wait_for_function("() => /Ln 25,/.test(document.querySelector('.statusbar').innerText)")


def test_notebook_cell(page):
    _command(page, "View: Close All Editors")
    _open(page, "explore.ipynb")
    cells = page.locator(".notebookOverlay .code-cell-row .monaco-editor")
    cells.nth(2).wait_for()
    cells.nth(2).click()  # the cell with `model.fit`
    hints = _hints(page)
    assert any("⚡" in t for t in hints), hints
    assert not _basis_cut(hints), f"basis cut by VS Code's {VSCODE_HINT_MAX} characters: {_basis_cut(hints)}"
    page.mouse.move(1000, 52)  # off the cell (its insert toolbar shows under the mouse), onto the empty tab bar
    _shot(page, "editor-notebook.png")


def test_missing_greenlint_is_one_message(page):
    """greenlint.path set (in the Settings editor) to a file that does not exist, with no greenlint on
    PATH and no Python extension: the server restarts and one message gives the install command."""
    _command(page, "Preferences: Open User Settings")
    search = page.locator(".settings-editor .suggest-input-container textarea, .settings-editor .search-container input").first
    search.wait_for()
    search.fill("greenlint.path")
    # greenlint.path is machine-overridable: in code-server it is set for the machine (the Remote tab)
    page.locator(".settings-editor .settings-tabs-widget .action-label:has-text('Remote')").click()
    field = page.locator(".settings-editor .setting-item-contents:has-text('greenlint') input.setting-control-focus-target, "
                         ".settings-editor .setting-item-contents:has-text('greenlint') input").first
    field.wait_for()
    field.fill("/nowhere/greenlint")
    field.press("Tab")
    toast = page.locator(".notification-toast:has-text('greenlint cannot start')")
    toast.wait_for()
    page.wait_for_timeout(3000)  # a second message, if any, would be up by now
    assert page.locator(".notification-toast:has-text('greenlint')").count() == 1
    text = toast.inner_text()
    assert 'greenlint.path "/nowhere/greenlint" is not an executable file' in text, text
    assert 'pip install "greenlint[lsp]"' in text, text
