from tests.check.conftest import config, fake_backend  # noqa: F401  (the pipeline's fixtures)
