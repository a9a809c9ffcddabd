"""A raw JSON-RPC client for `greenlint lsp` over stdio: sends anything (invalid params, bad JSON,
huge messages), reads every message back, and never trusts the server to answer."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path


class RawClient:
    def __init__(self, cwd: Path, env: dict | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "greenlint", "lsp"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env={**os.environ, **(env or {})},
        )
        self.messages: queue.Queue = queue.Queue()
        self.stderr: list[bytes] = []
        self.seen: list[dict] = []  # every message read so far
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            body = out.read(length or 0)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                self.messages.put({"unparsable": body[:200]})

    def send_raw(self, body: bytes) -> None:
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_raw(json.dumps(message, ensure_ascii=True).encode())

    def notify(self, method: str, params=None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, **({} if params is None else {"params": params})})

    def request(self, method: str, params=None, id_=None) -> int:
        self._next += 1
        rid = self._next if id_ is None else id_
        message = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None or method not in ("shutdown",):
            message["params"] = params
        self.send(message)
        return rid

    def wait_for(self, predicate, timeout: float = 60.0) -> dict | None:
        """The first message (answer, notification or server request) for which *predicate* holds;
        server requests met meanwhile are answered with null."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if message is None:
                raise EOFError("the server exited")
            self.seen.append(message)
            if "method" in message and "id" in message:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if predicate(message):
                return message
        return None

    def find(self, predicate, timeout: float = 60.0) -> dict | None:
        """Like `wait_for`, looking first at the messages already read."""
        return next((m for m in self.seen if predicate(m)), None) or self.wait_for(predicate, timeout)

    def answer(self, rid, timeout: float = 60.0) -> dict | None:
        return self.wait_for(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def hover(self, uri: str, line: int = 3, character: int = 10) -> dict | None:
        """The answer to a hover at (*line*, *character*) of *uri*."""
        rid = self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": line, "character": character}})
        return self.answer(rid, 120)

    def diagnostics(self, uri: str, version: int) -> list[tuple[str, int]]:
        """(code, line) of the diagnostics published for *version* of *uri*, sorted; fails where none come."""
        found = self.find(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                          and m["params"].get("version") == version, 120)
        assert found is not None, f"no diagnostics of version {version}"
        return sorted((d["code"], d["range"]["start"]["line"]) for d in found["params"]["diagnostics"])

    def initialize(self, root: Path) -> dict:
        rid = self.request("initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {
                "workspace": {"configuration": False}, "textDocument": {"publishDiagnostics": {}}},
        })
        reply = self.answer(rid, timeout=120)
        self.notify("initialized", {})
        return reply

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version,
                                                               "text": text}})

    def close(self) -> int | None:
        """`shutdown`, `exit`: the server's exit status, or (killed) -9 where it hangs. The limits only
        bound a hang: on a loaded machine the server and its analysis processes took over 10 s to end."""
        try:
            rid = self.request("shutdown")
            self.answer(rid, timeout=120)
            self.notify("exit")
            return self.proc.wait(timeout=120)
        except (BrokenPipeError, EOFError, subprocess.TimeoutExpired, OSError):
            self.proc.kill()
            return self.proc.wait()
