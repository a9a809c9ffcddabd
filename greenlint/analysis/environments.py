"""Gym's standard environments, whose observation and action sizes a program reads to size its
networks (`state_size = env.observation_space.shape[0]`): a small table, never imported.

`gym.make("CartPole-v1")` (or gymnasium's) gives an environment whose `observation_space.shape`,
`action_space.n` (a discrete space) and `action_space.shape` (a continuous one) are known, by the
environment's name without its version: the spaces are those each environment class builds in
its constructor in Gym's source (gym/envs/classic_control/, gym/envs/box2d/), the same in every
version of these names. Any other id, or an id that is not a literal, gives an environment of
unknown spaces (None).
"""

from __future__ import annotations

import re
from typing import Any

from greenlint.analysis.values import Const, Inst

ROOTS = frozenset({"gym", "gymnasium"})
MAKE = frozenset({"gym.make", "gymnasium.make"})
ENV = "gym.Env"
BOX = "gym.spaces.Box"
DISCRETE = "gym.spaces.Discrete"
CLASSES = frozenset({ENV, BOX, DISCRETE})

#: name -> (observation shape, action count of a discrete space or action shape of a continuous one).
SPACES: dict[str, tuple[tuple[int, ...], int | tuple[int, ...]]] = {
    "CartPole": ((4,), 2),
    "MountainCar": ((2,), 3),
    "MountainCarContinuous": ((2,), (1,)),
    "Acrobot": ((6,), 3),
    "Pendulum": ((3,), (1,)),
    "LunarLander": ((8,), 4),
    "LunarLanderContinuous": ((8,), (2,)),
    "BipedalWalker": ((24,), (4,)),
    "BipedalWalkerHardcore": ((24,), (4,)),
}
_ID = re.compile(r"(?P<name>[A-Za-z]+)-v\d+")
#: Keywords of `make` that leave the spaces as they are (another, such as `continuous=True`, may change them).
_NEUTRAL = frozenset({"id", "render_mode", "max_episode_steps", "disable_env_checker"})


def make(path: str, args: list, keywords: list) -> Inst | None:
    """The environment `gym.make(id)` gives, where *id* is a literal naming one of `SPACES` and no
    other argument may change its spaces."""
    positional = [value for starred, value in args if not starred]
    named = {name: value for name, value in keywords}
    if path not in MAKE or len(positional) != len(args) or len(positional) > 1 or not set(named) <= _NEUTRAL:
        return None
    given = positional[0] if positional else named.get("id")
    found = _ID.fullmatch(given.value) if type(given) is Const and isinstance(given.value, str) else None
    spaces = SPACES.get(found.group("name")) if found else None
    if spaces is None:
        return None
    observation, action = spaces
    return Inst(ENV, "factory", {"observation": observation, "action": action})


def attribute(owner: Inst, attr: str) -> Any:
    """`env.observation_space`, `env.action_space`, `env.unwrapped`, `space.shape`, `space.n`."""
    meta = owner.meta
    if owner.cls == ENV:
        if attr == "unwrapped":
            return owner
        if attr == "observation_space":
            return Inst(BOX, "attribute", {"shape": meta["observation"]})
        if attr == "action_space":
            action = meta["action"]
            return (
                Inst(DISCRETE, "attribute", {"n": action})
                if isinstance(action, int)
                else Inst(BOX, "attribute", {"shape": action})
            )
        return None
    if owner.cls == BOX and attr == "shape":
        return Const(meta["shape"])
    if owner.cls == DISCRETE and attr == "n":
        return Const(meta["n"])
    return None
