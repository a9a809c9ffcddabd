"""The server's input stream as pygls's reader expects it: a `Content-Length` header line in any
case and spacing (HTTP's header names, which the LSP base protocol follows, are case-insensitive),
and header lines ended by `\\n` alone, read as the exact `Content-Length: N\\r\\n` pygls matches.
pygls matched only that spelling: a `content-length` header left the message unread and every
later one out of step (the session hung)."""

from __future__ import annotations

import re
from typing import BinaryIO

_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?\n", re.IGNORECASE)


class HeaderReader:
    """*stream* with its header lines read in pygls's spelling; bodies (`read`) as they are."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream

    def readline(self) -> bytes:
        line = self.stream.readline()
        found = _CONTENT_LENGTH.fullmatch(line)
        return b"Content-Length: %s\r\n" % found.group(1) if found else line

    def read(self, size: int) -> bytes:
        return self.stream.read(size)
