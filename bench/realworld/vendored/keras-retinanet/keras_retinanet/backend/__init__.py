from .backend import *  # noqa: F401,F403
