"""Gym's standard environments size the networks built from their spaces (analysis/environments.py);
any other environment, or one whose spaces an argument may change, leaves them unknown."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source

AGENT = """import {module}
import tensorflow as tf

env = {module}.make({args})
state_size = env.observation_space.shape[0]
action_size = {actions}
model = tf.keras.Sequential([tf.keras.layers.Dense(24, input_dim=state_size), tf.keras.layers.Dense(action_size)])
model.predict(state)
"""


def predict_work(module: str = "gym", args: str = "'CartPole-v1'", actions: str = "env.action_space.n") -> dict:
    result = analyse_source(AGENT.format(module=module, args=args, actions=actions), "agent.py")
    assert result.errors == []
    return next(s.work for s in result.callsites if s.api.endswith(".predict"))


@pytest.mark.parametrize(
    "module, args, actions, params",
    [
        ("gym", "'CartPole-v1'", "env.action_space.n", (4 * 24 + 24) + (24 * 2 + 2)),
        ("gymnasium", "id='CartPole-v0'", "env.unwrapped.action_space.n", (4 * 24 + 24) + (24 * 2 + 2)),
        ("gym", "'MountainCar-v0', max_episode_steps=500", "env.action_space.n", (2 * 24 + 24) + (24 * 3 + 3)),
        ("gym", "'Pendulum-v1'", "env.action_space.shape[0]", (3 * 24 + 24) + (24 * 1 + 1)),
    ],
)
def test_known_environment_sizes_the_network(module, args, actions, params):
    work = predict_work(module, args, actions)
    assert work["params"].value == params
    assert work["flops_per_sample"].value > 0


@pytest.mark.parametrize(
    "args",
    [
        "'MyRobot-v0'",  # not a standard environment
        "name",  # not a literal
        "'LunarLander-v2', continuous=True",  # an argument that changes the action space
        "'CartPole-v1', **options",
    ],
)
def test_other_environments_leave_the_network_unknown(args):
    work = predict_work(args=args)
    assert work["params"].value is None
    assert work["flops_per_sample"].provenance == "unknown"
