"""Configuration: the editor's `greenlint` settings per workspace folder, and `pyproject.toml` changes.

After `initialized`, on each `workspace/didChangeConfiguration` and when workspace folders come
or go, the server pulls the settings of every workspace folder (`workspace/configuration`), or
takes them from `initializationOptions` / the notification where the client cannot answer; when
they changed, every open document is analysed again and hints and lenses are refreshed: no
restart. An answer coming after that of a later request is left out. The server's log goes to
`window/logMessage` from `initialized` on.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import uuid
from pathlib import Path

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.uris import to_fs_path

from greenlint.lsp_server.server import ClientLog, GreenlintServer
from greenlint.lsp_server.settings import EditorSettings

SECTION = "greenlint"
log = logging.getLogger(__name__)


def register(server: GreenlintServer) -> None:
    reported: set[str] = set()

    def folders() -> list[types.WorkspaceFolder]:
        return list(server.workspace.folders.values())

    def apply(default, per_folder: dict[Path, object]) -> None:
        parsed, errors = EditorSettings.parse(default)
        folders = {}
        for folder, raw in per_folder.items():
            folders[folder], more = EditorSettings.parse(raw)
            errors += more
        for error in dict.fromkeys(errors):
            if error not in reported:
                reported.add(error)
                server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, error))
        configurations = server.configurations
        if (configurations.default, configurations.folders) == (parsed, folders):
            return  # another extension's settings changed
        configurations.default, configurations.folders = parsed, folders
        # announced before the documents are analysed again: a publish after it was made under these settings
        log.info("settings: %s; per folder: %s", configurations.default, configurations.folders)
        server.forget_views()
        for uri in server.open_owners():
            server.schedule(uri)
        server.refresh()

    pulls = itertools.count(1)
    newest_applied = [0]  # the pull whose answer is in force

    async def pull(fallback) -> None:
        """Ask for the settings, and apply the answer unless that of a later pull is in force already:
        a client may answer out of order, and an older answer may lack a folder added since."""
        if not get_capability(server.client_capabilities, "workspace.configuration", False):
            apply(fallback, {})
            return
        number = next(pulls)
        scoped = folders()
        items = [types.ConfigurationItem(section=SECTION)]
        items += [types.ConfigurationItem(scope_uri=f.uri, section=SECTION) for f in scoped]
        try:
            answers = await server.workspace_configuration_async(types.ConfigurationParams(items=items))
        except Exception as exc:  # a client's error: keep the settings in force
            log.warning("workspace/configuration failed: %s", exc)
            return
        if number < newest_applied[0]:
            log.info("left out the answer to an older workspace/configuration request: a later one is in force")
            return
        newest_applied[0] = number
        if not isinstance(answers, (list, tuple)) or len(answers) != len(items):
            # the specification asks for one answer per item, in order: anything else cannot be matched
            log.warning(
                "workspace/configuration answered %.200s for %d item(s): the settings fall back to %s",
                json.dumps(answers, default=repr), len(items), "the initialization options" if fallback is not None else "their defaults",
            )  # fmt: skip
            apply(fallback, {})
            return
        per_folder = {Path(to_fs_path(f.uri)): raw for f, raw in zip(scoped, answers[1:]) if to_fs_path(f.uri)}
        apply(answers[0], per_folder)

    initialization_options: list = [None]

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        initialization_options[0] = params.initialization_options

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        root = logging.getLogger()
        for handler in list(root.handlers):  # from now on the log goes to the editor
            if isinstance(handler, logging.StreamHandler):
                root.removeHandler(handler)
        client_log = ClientLog(server, asyncio.get_running_loop())
        client_log.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(client_log)
        logging.getLogger("greenlint.lsp_server").setLevel(min(root.level, logging.INFO))
        if get_capability(server.client_capabilities, "workspace.did_change_configuration.dynamic_registration", False):
            registration = types.Registration(str(uuid.uuid4()), types.WORKSPACE_DID_CHANGE_CONFIGURATION)
            server.client_register_capability(types.RegistrationParams([registration]))
        await pull(initialization_options[0])

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        await pull(settings.get(SECTION) if isinstance(settings, dict) else None)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def folders_changed(params: types.DidChangeWorkspaceFoldersParams) -> None:
        """A folder added to (or removed from) a multi-root workspace brings (or takes) its own settings."""
        if get_capability(server.client_capabilities, "workspace.configuration", False):
            await pull(None)  # (a client that cannot be asked has no per-folder settings to bring)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(params: types.DidChangeWatchedFilesParams) -> None:
        """A pyproject.toml, project marker or pin file changed: re-check every open document under
        the configuration and files now in force."""
        server.analyses.files_changed()
        for uri in server.open_owners():
            server.schedule(uri)
