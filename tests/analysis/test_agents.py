"""keras-rl's agents train the Keras models they are given once per environment step
(analysis/agents.py): each model is a `train_on_batch` call site of the replay batch at the
agent's `fit`, run at most `nb_steps` times; anything else of the package gives no site."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source

PROGRAM = """from keras.models import Sequential, Model
from keras.layers import Dense, Flatten, Input
from rl.agents import {agent}

actor = Sequential([Flatten(input_shape=(1, 3)), Dense(16), Dense(1)])
critic_in = Input(shape=(4,))
critic = Model(inputs=critic_in, outputs=Dense(1)(Dense(32)(critic_in)))
model = Sequential([Flatten(input_shape=(1, 4)), Dense(16), Dense(2)])
agent = {agent}({given})
agent.fit(env, {steps})
"""


def agent_sites(agent: str, given: str, steps: str = "nb_steps=50000") -> list:
    result = analyse_source(PROGRAM.format(agent=agent, given=given, steps=steps), "train.py")
    assert result.errors == []
    return [s for s in result.callsites if s.span.line == 10]


def test_each_model_given_is_a_training_step_run_once_per_environment_step():
    sites = agent_sites("DDPGAgent", "nb_actions=1, actor=actor, critic=critic, memory=memory, batch_size=64")
    assert [s.api for s in sites] == ["tensorflow.keras.Model.train_on_batch"] * 2
    assert [s.work["params"].value for s in sites] == [(3 * 16 + 16) + (16 + 1), (4 * 32 + 32) + (32 + 1)]
    assert {s.work["samples"].value for s in sites} == {64}
    assert {(s.runs.count, s.runs.bound) for s in sites} == {(50000, "upper")}
    assert {s.features["receiver"] for s in sites} == {"driver"}


def test_a_model_by_position_and_the_default_batch():
    (site,) = agent_sites("DQNAgent", "model, nb_actions=2, memory=memory", steps="50000")
    assert site.work["params"].value == (4 * 16 + 16) + (16 * 2 + 2)
    assert site.work["samples"].value == 32


@pytest.mark.parametrize(
    "agent, given, steps",
    [
        ("DQNAgent", "model=model, nb_actions=2", "steps=100"),  # not keras-rl's fit: nb_steps not stated
        ("CEMAgent", "model=model, nb_actions=2", "nb_steps=100"),  # an agent not in the table
        ("DQNAgent", "model=make_model(), nb_actions=2", "nb_steps=100"),  # no Keras model known
    ],
)
def test_other_calls_give_no_training_site(agent, given, steps):
    assert [s for s in agent_sites(agent, given, steps) if s.api.endswith("train_on_batch")] == []
