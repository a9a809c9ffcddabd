"""The greenlint language server: shared state, plus one module per feature under `features/`.

Document edits change the state at once (pygls' workspace, and `EditLog`); analyses run in the
background (`Analyses`); requests answer from the newest finished analysis through `view()`,
moved through the edits made since, and the client is asked to refresh hints and lenses when a
newer analysis lands.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from greenlint import __version__
from greenlint.lsp_server.analysis import Analyses, Analysis, ConfigLookup, Snapshot, join_cells
from greenlint.lsp_server.documents import View, python_cells
from greenlint.lsp_server.edits import EditLog, LineMap
from greenlint.lsp_server.settings import Configurations, EditorSettings
from greenlint.lsp_server.workspace import SourceWorkspace

log = logging.getLogger(__name__)

#: Notebooks whose Python cells are synchronised as one notebook (LSP 3.17 notebook sync).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            cells=[types.NotebookCellLanguage(language="python")], notebook="jupyter-notebook"
        )
    ],
    save=True,
)


@dataclass(frozen=True)
class _Refused:
    """A message refused before any handler runs (its params do not fit the method): a request,
    answered with the error, or a notification (logged)."""

    id: Any
    method: str
    error: JsonRpcException
    jsonrpc: str = "2.0"
    notification: bool = False


class GreenlintProtocol(LanguageServerProtocol):
    """pygls' protocol, with every request answered:

    - a request whose params do not fit its method (a position at line 2³¹, a missing field) gets
      InvalidParams (-32602), where pygls would drop it and leave the client waiting forever (an
      unknown command too, which pygls answered so but logged as an error, traceback and all); one
      whose method is not a string (`"method": 5`) gets InvalidRequest (-32600), where pygls
      would answer an internal error;
    - a request before `initialize` gets ServerNotInitialized (-32002); notifications before it
      but `exit` are dropped, as the LSP specification says;
    - a second `initialize` gets InvalidRequest (-32600), where pygls would start the session
      over and forget the open documents;
    - a request after `shutdown` gets InvalidRequest (-32600), where pygls would leave it
      unanswered; `exit` then ends the server with 0, and without `shutdown` before it with 1
      (`exit_code`, which `greenlint lsp` returns);
    - a change to a document or notebook cell that is not open is logged and left out, where
      pygls would fail on it (KeyError);
    - a notification whose params do not fit its method (a change at line -1, `$/setTrace` of an
      unknown value) or whose method is not a string is logged and left out, where pygls would log
      a traceback and show the user "Error in server"; so is a `$/cancelRequest` of an id that is
      no number or string (`{}`: pygls failed on it, unhashable);
    - a client's answer that does not fit its request's result type (`null` for
      `workspace/configuration`) is logged and handed over as sent, where pygls would log a traceback
      and leave the request waiting forever;
    - a client cancelling a request that was already answered (VS Code does so all the time while
      typing) is not logged: nothing is wrong;
    - a notification's finished handler is not kept (`_handle_notification`);
    - documents keep their lines as the LSP splits them (`workspace.SourceWorkspace`), where pygls
      split them at form feeds and U+2028 too and applied edits below one a line off.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_seen = False
        #: How the session ended: 0 after `shutdown` then `exit`, 1 after `exit` alone, None before `exit`.
        self.exit_code: int | None = None

    def structure_message(self, data):
        if "jsonrpc" in data and "method" in data and "id" in data and "error" not in data:
            rid = data["id"] if isinstance(data["id"], (int, str)) and not isinstance(data["id"], bool) else None
            if not isinstance(data["method"], str):  # pygls would fail naming it (an internal error)
                return _Refused(rid, repr(data["method"]), JsonRpcInvalidRequest.of(
                    ValueError(f"a request's method is a string, not {type(data['method']).__name__}")))
            request_type = self.get_message_type(data["method"]) or JsonRPCRequestMessage
            try:
                message = self._converter.structure(data, request_type)
            except Exception as exc:  # cattrs' validation errors, or anything else a converter meets
                return _Refused(rid, data["method"], JsonRpcInvalidParams.of(_first_line(exc)))
            if data["method"] == types.WORKSPACE_EXECUTE_COMMAND and message.params.command not in self.fm.commands:
                return _Refused(rid, data["method"], JsonRpcInvalidParams.of(  # pygls raised it, logging a traceback
                    ValueError(f"Command name {message.params.command!r} is not defined")))
            return message
        if "jsonrpc" in data and "id" in data and "method" not in data and "error" not in data:
            response_type = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
            try:
                return self._converter.structure(data, response_type)
            except Exception as exc:  # the request's caller judges what came (it may be null)
                log.warning("the client's answer to request %r does not fit its type (%s): taken as sent",
                            data["id"], _first_line(exc))
                return self._converter.structure(data, JsonRPCResponseMessage)
        if "jsonrpc" in data and "method" in data and "id" not in data:
            method = data["method"]
            if not isinstance(method, str):
                return _Refused(None, repr(method), JsonRpcInvalidRequest.of(ValueError("its method is not a string")),
                                notification=True)
            try:
                return self._converter.structure(data, self.get_message_type(method) or JsonRPCNotification)
            except Exception as exc:  # as for a request; a notification gets no answer
                return _Refused(None, method, JsonRpcInvalidParams.of(_first_line(exc)), notification=True)
        return super().structure_message(data)

    def handle_message(self, message):
        method = getattr(message, "method", None)
        if isinstance(message, _Refused):
            if message.notification:
                log.warning("ignored %s notification: %s", message.method, message.error.message)
                return
            log.warning("refused %s request %r: %s", message.method, message.id, message.error.message)
            self._send_response(message.id, None, message.error.to_response_error())
            return
        if method == types.EXIT:
            self.exit_code = 0 if self._shutdown else 1
        elif self._shutdown and method is not None:
            if getattr(message, "id", None) is not None:  # a request: answered, never run
                log.warning("refused %s request %r: the server is shutting down", method, message.id)
                error = JsonRpcInvalidRequest.of(ValueError(f"{method} after shutdown: only exit is accepted"))
                self._send_response(message.id, None, error.to_response_error())
            return
        if method == types.INITIALIZE and self._initialize_seen:  # pygls would start over, dropping the open documents
            if getattr(message, "id", None) is not None:
                log.warning("refused initialize request %r: the server is initialized already", message.id)
                error = JsonRpcInvalidRequest.of(ValueError("initialize after initialize: the server is initialized once"))
                self._send_response(message.id, None, error.to_response_error())
            return
        if method == types.INITIALIZE:
            self._initialize_seen = True
        elif not self._initialize_seen and method not in (None, types.EXIT):
            if getattr(message, "id", None) is not None:  # a request: answered, never run
                self._send_response(message.id, None, JsonRpcServerNotInitialized().to_response_error())
            return
        super().handle_message(message)

    def _handle_cancel_notification(self, msg_id):
        if not isinstance(msg_id, (int, str)) or msg_id not in self._request_futures:
            return
        super()._handle_cancel_notification(msg_id)

    def _handle_notification(self, method_name, params):
        """pygls keeps the future of a notification handled by a generator (didChange, didOpen...)
        under a fresh id in `_request_futures` and never removes it: ~2 KB per edit, for as long as
        the session lasts. Each is dropped here once done, at the loop's next turn: `shutdown`
        cancels the pending ones while it walks `_request_futures`, and a cancelled one's callbacks
        run at once."""
        before = set(self._request_futures)
        super()._handle_notification(method_name, params)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # handled off a loop (in-process tests): nothing walks the futures meanwhile
            loop = None
        for key in set(self._request_futures) - before:
            drop = functools.partial(self._request_futures.pop, key, None)
            self._request_futures[key].add_done_callback(
                lambda _, drop=drop: drop() if loop is None or loop.is_closed() else loop.call_soon_threadsafe(drop)
            )


    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        """pygls' initialize, its workspace then making `SourceDocument`s (lines as the LSP splits them)."""
        result = yield from super().lsp_initialize(params)
        self.workspace.__class__ = SourceWorkspace  # made inside pygls' handler; it adds no state of its own
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            log.warning("ignored a change to %s: the document is not open", params.text_document.uri)
            return
        yield from super().lsp_text_document__did_change(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):
        """A notebook's change, less what names a cell that is neither open nor opened by this change
        (logged); a change to a notebook that is not open is logged and left out."""
        uri = params.notebook_document.uri
        if self.workspace.get_notebook_document(notebook_uri=uri) is None:
            log.warning("ignored a change to notebook %s: it is not open", uri)
            return
        cells = params.change.cells
        if cells is not None:
            known = set(self.workspace.text_documents)
            structure = cells.structure
            if structure is not None:
                known |= {unquote(cell.uri) for cell in structure.did_open or ()}
                closed = [cell for cell in structure.did_close or () if unquote(cell.uri) in known]
                _drop_unknown("close", structure.did_close, closed, uri)
                structure.did_close = closed
            content = [c for c in cells.text_content or () if unquote(c.document.uri) in known]
            _drop_unknown("change", cells.text_content, content, uri)
            cells.text_content = content if cells.text_content is not None else None
        yield from super().lsp_notebook_document__did_change(params)


def _drop_unknown(what: str, given, kept: list, notebook: str) -> None:
    """Log the cells of a notebook change that were left out (not open)."""
    for item in given or ():
        if not any(item is k for k in kept):
            cell = getattr(item, "document", item).uri
            log.warning("ignored a cell %s in notebook %s: cell %s is not open", what, notebook, cell)


def _first_line(exc: BaseException) -> ValueError:
    """A short reason for InvalidParams: the first failure cattrs reports, not its whole tree."""
    leaves = [exc]
    while leaves and getattr(leaves[0], "exceptions", None):
        leaves = list(leaves[0].exceptions)
    reason = str(leaves[0]) if leaves else str(exc)
    return ValueError(reason.splitlines()[0][:300] if reason else type(exc).__name__)


class GreenlintServer(LanguageServer):
    """A pygls server holding the analyses of open documents; features register on it."""

    protocol: GreenlintProtocol  # the `protocol_cls` passed below (its `exit_code`)

    def __init__(self, lookup: ConfigLookup = ConfigLookup(), predictor_loader=None):
        super().__init__(
            "greenlint",
            __version__,
            protocol_cls=GreenlintProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
        )
        self.configurations = Configurations(lookup)
        self.analyses = Analyses(self.configurations.config_for, predictor_loader)
        self.edits = EditLog()
        self.closed_listeners: list = []  # called with (owner uri, document uris) when a document closes
        self._views: dict[str, tuple[tuple, View | None]] = {}
        self.analyses.listeners.append(self._trim_edits)

    def report_server_error(self, error: Exception, source) -> None:
        """A message body that is no JSON (or no UTF-8) is logged as a warning and left out (its id
        unknown, nothing can answer it); pygls showed the user "Error in server: Expecting value…".
        Any other error is shown as pygls shows it."""
        if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)) and source is JsonRpcException:
            log.warning("ignored a message that is not JSON: %s", _first_line(error))
            return
        super().report_server_error(error, source)

    # --- documents -------------------------------------------------------------------------------

    def path_of(self, uri: str, name: str | None = None) -> Path:
        """The file behind a URI (another scheme's document is placed in the workspace root, for configuration)."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            return Path(path)
        root = Path(self.workspace.root_path) if self.workspace.root_path else Path.cwd()
        name = name or "untitled.py"
        return root / (name if name.endswith((".py", ".ipynb")) else f"{name}.py")

    def is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents or self.workspace.get_notebook_document(notebook_uri=uri) is not None

    def owner_of(self, uri: str) -> str:
        """The URI analyses are kept under: a notebook's for one of its cells, else the document's own."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        return uri if notebook is None else notebook.uri

    def open_owners(self) -> list[str]:
        """Every open file and notebook."""
        notebooks = self.workspace.notebook_documents
        in_notebooks = {unquote(cell.document) for notebook in notebooks.values() for cell in notebook.cells}
        return [*notebooks, *(u for u in self.workspace.text_documents if u not in in_notebooks)]

    def snapshot(self, uri: str) -> Snapshot | None:
        """The current version of an open file or notebook; None when it is not open, or is a text
        document of another language than Python (by its language id and its file's suffix)."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            cells = python_cells(self.workspace, notebook)
            text, offsets = join_cells([_text(d.source) for d in cells])
            documents = tuple((d.uri, d.version) for d in cells)
            return Snapshot(uri, notebook.version, text, self.path_of(uri, "notebook.ipynb"), offsets, documents)
        document: TextDocument | None = self.workspace.text_documents.get(unquote(uri))
        if document is None:
            return None
        path = self.path_of(uri, document.filename)
        if document.language_id not in (None, "python") and path.suffix not in (".py", ".ipynb"):
            return None  # Markdown, plain text, JSON: no Python to analyse (it read as a syntax error)
        if path.suffix == ".ipynb" and document.language_id == "python":  # a cell sent as a text document
            path = path.with_name(f"{path.name}.py")  # (a client without notebook sync): code, not the notebook's JSON
        return Snapshot(uri, document.version, _text(document.source), path, None, ((uri, document.version),))

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Analyse the open file or notebook `uri` once it has been quiet for `delay` seconds."""
        self.analyses.schedule(uri, lambda: self.snapshot(uri), delay)

    def editor_settings(self, uri: str) -> EditorSettings:
        return self.configurations.editor(self.path_of(self.owner_of(uri)))

    # --- what requests see -----------------------------------------------------------------------

    async def views(self, uri: str) -> list[View]:
        """The views of an open file (one) or notebook (one per Python cell), from its newest analysis
        (waiting only for the first one)."""
        if uri not in self.analyses.latest:
            if not self.is_open(uri) or self.snapshot(uri) is None:
                return []  # not open, or no Python to analyse (no analysis will come)
            if not self.analyses.pending(uri):
                self.schedule(uri)
            await self.analyses.first(uri)
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        documents = [uri] if notebook is None else [d.uri for d in python_cells(self.workspace, notebook)]
        return [v for v in map(self.view_now, documents) if v is not None]

    async def view(self, uri: str) -> View | None:
        """The view of one document (a notebook cell's within its notebook's analysis); None for a
        document that is not open or a non-Python cell. Answers at once once the document was analysed."""
        owner = self.owner_of(uri)
        if owner not in self.analyses.latest:
            await self.views(owner)
        return self.view_now(uri)

    def view_now(self, uri: str) -> View | None:
        """The view of `uri` from the analyses finished so far (None when there is none)."""
        owner = self.owner_of(uri)
        latest = self.analyses.latest.get(owner)
        base = self.analyses.good.get(owner, latest)
        document = self.workspace.text_documents.get(unquote(uri))
        if base is None or document is None:
            return None
        key = (document.version, base, latest)
        cached = self._views.get(uri)
        if cached is not None and cached[0][0] == key[0] and cached[0][1] is base and cached[0][2] is latest:
            return cached[1]
        view = self._make_view(uri, owner, document, base, latest)
        self._views[uri] = (key, view)
        return view

    def _make_view(self, uri: str, owner: str, document: TextDocument, base: Analysis, latest: Analysis) -> View:
        cell, version = _position_in(base, uri, owner)
        moved = LineMap(self.edits.since(uri, version))
        extra = ()
        if latest is not base:  # the newest text does not parse: its syntax errors, where they are now
            latest_cell, latest_version = _position_in(latest, uri, owner)
            since = LineMap(self.edits.since(uri, latest_version))
            extra = tuple(
                _moved_error(d, since, cell)
                for d in latest.diagnostics
                if d.code == "GL001" and (d.span.cell == latest_cell or (latest_cell == 1 and d.span.cell is None))
            )
        return View(uri, document.version, document.source, base, cell, moved, tuple(d for d in extra if d))

    def forget_views(self) -> None:
        """Drop the cached views (their labels follow the settings)."""
        self._views.clear()

    def closed(self, owner: str, documents: list[str]) -> None:
        self.analyses.forget(owner)
        for uri in documents:
            self.edits.forget(uri)
            self._views.pop(uri, None)
        for listener in self.closed_listeners:
            listener(owner, documents)

    # --- when an analysis lands ------------------------------------------------------------------

    def _trim_edits(self, analysis: Analysis) -> None:
        if analysis.parsed:
            for uri, version in analysis.documents:
                self.edits.trim(uri, version)

    def refresh(self) -> None:
        """Ask the client to request hints and lenses again (a newer analysis landed, or the settings changed)."""
        capabilities = self.client_capabilities
        if get_capability(capabilities, "workspace.inlay_hint.refresh_support", False):
            self.workspace_inlay_hint_refresh(None)
        if get_capability(capabilities, "workspace.code_lens.refresh_support", False):
            self.workspace_code_lens_refresh(None)


def _text(source: str) -> str:
    """A document's text to analyse: a lone surrogate (an edit may hold one; it is not text) reads
    as U+FFFD, one UTF-16 unit and one character like it, so positions do not move."""
    if source.isascii():
        return source
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        return source.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return source


def _position_in(analysis: Analysis, uri: str, owner: str) -> tuple[int | None, int | None]:
    """(the cell index of document `uri` in `analysis` (None for a file, 0 for a cell it did not see), its version there)."""
    if uri == owner:
        return None, analysis.version
    for index, (cell_uri, version) in enumerate(analysis.documents, 1):
        if cell_uri == uri:
            return index, version
    return 0, None


def _moved_error(d, moved: LineMap, cell: int | None):
    span, _ = moved.span(d.span)
    return None if span is None else replace(d, span=replace(span, cell=cell))


class ClientLog(logging.Handler):
    """Log records as `window/logMessage` notifications (the editor's output channel), sent from the
    event loop whatever thread logged them (at once, in order, when logged on the loop). A handler
    refusing a request's params (a command given the wrong arguments) is the client's fault,
    answered with that error: one warning line, where pygls logged an error with its traceback."""

    LEVELS = {
        logging.ERROR: types.MessageType.Error,
        logging.WARNING: types.MessageType.Warning,
        logging.INFO: types.MessageType.Info,
    }

    def __init__(self, server: GreenlintServer, loop: asyncio.AbstractEventLoop):
        super().__init__()
        self.server = server
        self.loop = loop
        self._sending = False

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("pygls") and record.levelno < logging.WARNING:
            return  # pygls logs each message it sends: forwarding them would never end
        refused = record.exc_info[1] if record.exc_info else None
        if isinstance(refused, (JsonRpcInvalidParams, JsonRpcInvalidRequest)):
            rid = record.args[0] if isinstance(record.args, tuple) and record.args else "?"  # pygls logs the id first
            record = logging.makeLogRecord({"name": record.name, "levelno": logging.WARNING, "levelname": "WARNING",
                                            "msg": "refused request %s: %s", "args": (rid, refused.message)})
        kind = next((t for level, t in self.LEVELS.items() if record.levelno >= level), types.MessageType.Log)
        params = types.LogMessageParams(type=kind, message=self.format(record))
        if self._on_loop():
            if self._sending:  # a failure to send, logged while sending: it cannot be sent either
                return
            self._sending = True
            try:
                self.server.window_log_message(params)  # at once: in order with what is sent next
            finally:
                self._sending = False
            return
        try:
            self.loop.call_soon_threadsafe(self.server.window_log_message, params)
        except RuntimeError:  # the loop has closed: the session is over
            pass

    def _on_loop(self) -> bool:
        try:
            return asyncio.get_running_loop() is self.loop
        except RuntimeError:
            return False
