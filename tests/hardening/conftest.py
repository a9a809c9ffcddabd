import pytest

from tests.check.conftest import config, fake_backend  # noqa: F401  (the pipeline's fixtures)
from tests.hardening import fuzz
from tests.hardening.rpc import RawClient
from tests.hardening.samples import LOOP


@pytest.fixture
def own_caches(tmp_path, monkeypatch):
    """The user cache (GREENLINT_CACHE_DIR, XDG_CACHE_HOME) in the test's own tmp_path."""
    monkeypatch.setenv("GREENLINT_CACHE_DIR", str(tmp_path / "user-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "user-cache"


@pytest.fixture
def case(tmp_path, own_caches):
    """(case root, repository with one commit of LOOP, a folder outside it that must stay as it is)."""
    return fuzz.repository_case(tmp_path, LOOP)


@pytest.fixture
def server(tmp_path):
    """(a raw language-server session initialised on tmp_path, that folder); it must exit 0."""
    yield from _session(tmp_path)


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """`server` shared by a module's tests that each work on their own document and check that the
    session goes on (a server start is most of such a test's CPU); it must exit 0 after the last."""
    yield from _session(tmp_path_factory.mktemp("server"))


def _session(folder):
    (folder / "pyproject.toml").write_text("[tool.greenlint]\n")
    client = RawClient(folder, {"GREENLINT_CACHE_DIR": str(folder / "cache")})
    client.initialize(folder)
    yield client, folder
    assert client.close() == 0
