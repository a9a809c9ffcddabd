"""Functions a web server runs once per request: a route handler (`@app.route("/x")`, `@router.post(...)`
of a Flask, FastAPI, Quart or Sanic application or blueprint), and the functions of another module a
handler calls (`processor.process_image(image)`). What such a function does is repeated on every
request, an unbounded count, as in a loop of unknown length."""

from __future__ import annotations

import ast
import re

from greenlint.analysis.trees import dotted

#: The web frameworks that route requests to decorated functions, and their application and router classes.
SERVERS = {
    "flask": frozenset({"Flask", "Blueprint"}),
    "fastapi": frozenset({"FastAPI", "APIRouter"}),
    "quart": frozenset({"Quart", "Blueprint"}),
    "sanic": frozenset({"Sanic", "Blueprint"}),
}
#: The methods of an application or router that route requests to the function they decorate.
ROUTES = frozenset({"route", "get", "post", "put", "patch", "delete", "websocket", "api_route"})

_IMPORTS_SERVER = re.compile(rf"^[ \t]*(?:from|import)[ \t]+(?:{'|'.join(SERVERS)})\b", re.MULTILINE)


def imports_server(text: str) -> bool:
    """Whether a module's text imports a web framework (the cheap test before parsing it): the
    framework's name looked for first, the multi-line pattern only where one is named (a few files)."""
    return any(name in text for name in SERVERS) and _IMPORTS_SERVER.search(text) is not None


def handlers(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's functions routed requests by a decorator of an application or router it makes at
    its top level (`app = Flask(__name__)` ... `@app.route("/")`)."""
    classes: set[str] = set()  # names of the application classes (`Flask`, `flask.Flask`)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in SERVERS and not node.level:
            classes.update(a.asname or a.name for a in node.names if a.name in SERVERS[node.module])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in SERVERS:
                    classes.update(f"{alias.asname or alias.name}.{cls}" for cls in SERVERS[alias.name])
    apps = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and ".".join(dotted(node.value.func)) in classes
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    if not apps:  # no application made: nothing routes (most modules: the tree is not walked)
        return []
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(_routes(d, apps) for d in node.decorator_list)
    ]


def called(tree: ast.Module, modules: set[str], functions: dict[str, str]) -> dict[str, str]:
    """The functions of a module that the route handlers of *tree* (an importer's) call, by name: what
    runs them (`the route handler upload`). *modules*: the names *tree* binds to that module (`import
    processor as proc`); *functions*: those it binds to its functions, with their names there (the
    project index resolves both: `Imports.served`)."""
    found: dict[str, str] = {}
    for handler in handlers(tree):
        for node in ast.walk(handler):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
                found.setdefault(func.attr, handler.name)
            elif isinstance(func, ast.Name) and func.id in functions:
                found.setdefault(functions[func.id], handler.name)
    return found


def _routes(decorator: ast.expr, apps: set[str]) -> bool:
    return (
        isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Attribute)
        and decorator.func.attr in ROUTES
        and isinstance(decorator.func.value, ast.Name)
        and decorator.func.value.id in apps
    )

