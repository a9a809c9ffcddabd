"""When a Gym task is solved, as Gym registers it (gym 0.26.2's environment registry, read from its
source): each environment that has a `reward_threshold`, with its `max_episode_steps`. The task
counts as solved when the mean reward of 100 consecutive episodes reaches the threshold (the
definition Gym's leaderboard used). Environments registered without a threshold (Pendulum,
Walker2d, Humanoid, Blackjack, the Atari games) are absent: for them "solved" is not defined."""

from __future__ import annotations

import ast
from typing import NamedTuple

from greenlint.rules.base import FileFacts, last_name
from greenlint.rules.defaults import known_value, module_value

#: The consecutive episodes whose mean reward decides that a task is solved.
EPISODES = 100
#: The packages whose `make(id)` builds a registered environment.
PACKAGES = frozenset({"gym", "gymnasium"})


class Task(NamedTuple):
    """A registered environment: its id, the mean reward that solves it, its longest episode."""

    id: str
    reward_threshold: float
    max_episode_steps: int


#: id: (reward_threshold, max_episode_steps), as gym 0.26.2 registers them.
TASKS = {
    "CartPole-v0": (195.0, 200),
    "CartPole-v1": (475.0, 500),
    "MountainCar-v0": (-110.0, 200),
    "MountainCarContinuous-v0": (90.0, 999),
    "Acrobot-v1": (-100.0, 500),
    "LunarLander-v2": (200.0, 1000),
    "LunarLanderContinuous-v2": (200.0, 1000),
    "BipedalWalker-v3": (300.0, 1600),
    "BipedalWalkerHardcore-v3": (300.0, 2000),
    "CarRacing-v2": (900.0, 1000),
    "FrozenLake-v1": (0.7, 100),
    "FrozenLake8x8-v1": (0.85, 200),
    "Taxi-v3": (8.0, 200),
    "Reacher-v2": (-3.75, 50),
    "Reacher-v4": (-3.75, 50),
    "Pusher-v2": (0.0, 100),
    "Pusher-v4": (0.0, 100),
    "InvertedPendulum-v2": (950.0, 1000),
    "InvertedPendulum-v4": (950.0, 1000),
    "InvertedDoublePendulum-v2": (9100.0, 1000),
    "InvertedDoublePendulum-v4": (9100.0, 1000),
    "HalfCheetah-v2": (4800.0, 1000),
    "HalfCheetah-v3": (4800.0, 1000),
    "HalfCheetah-v4": (4800.0, 1000),
    "Hopper-v2": (3800.0, 1000),
    "Hopper-v3": (3800.0, 1000),
    "Hopper-v4": (3800.0, 1000),
    "Swimmer-v2": (360.0, 1000),
    "Swimmer-v3": (360.0, 1000),
    "Swimmer-v4": (360.0, 1000),
    "Ant-v2": (6000.0, 1000),
    "Ant-v3": (6000.0, 1000),
    "Ant-v4": (6000.0, 1000),
}


def gym_task(facts: FileFacts, env: ast.expr, cell: int | None) -> Task | None:
    """The registered task an environment expression holds: `gym.make(id)` itself, or a
    module-level name assigned it once (`env = gym.make(ENV_NAME)`), the id a literal or a
    module constant; None where the id is unknown or has no threshold (a wrapped env included)."""
    made = module_value(facts, env.id) if isinstance(env, ast.Name) else env
    if not (
        isinstance(made, ast.Call)
        and last_name(made.func) == "make"
        and isinstance(made.func, ast.Attribute)
        and ast.unparse(made.func.value) in PACKAGES
        and made.args
    ):
        return None
    name, _ = known_value(facts, made.args[0], cell)
    found = TASKS.get(name) if isinstance(name, str) else None
    return Task(name, *found) if found is not None and isinstance(name, str) else None
