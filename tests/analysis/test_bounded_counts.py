"""A count the code bounds: `min(32, len(memory))` is at most 32, so an array of that many rows, a
`random.sample` of that many items, a list filled over it and a slice `x[:n]` by it hold at most 32
rows (`"bound": "upper"`, as a literal slice's); `random.sample(memory, 32)` holds exactly 32. A bound
of nothing known, a negative or a float, or `min` of one iterable, bounds nothing (issues #26, #28)."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

HEADER = """
import random
import numpy as np
from tensorflow import keras
memory = load_memory()
model = keras.Sequential([keras.layers.Dense(2, input_shape=[4])])
model.compile(loss="mse", optimizer="adam")
"""


def samples(body: str) -> tuple:
    result = analyse_source(HEADER + textwrap.dedent(body), "snippet.py")
    assert result.errors == []
    (site,) = [s for s in result.callsites if s.api.endswith(".fit")]
    return site.work["samples"].value, site.work["samples"].bound


@pytest.mark.parametrize(
    "body, found",
    [
        ("k = min(32, len(memory))\nx = np.zeros((k, 4))\n", (32, "upper")),
        ("k = min(len(memory), 64, 32)\nx = np.zeros((k, 4))\n", (32, "upper")),
        ("x = np.empty([min(32, len(memory)), 4])\n", (32, "upper")),
        ("x = np.array(random.sample(memory, min(32, len(memory))))\n", (32, "upper")),
        ("x = np.array([s for s, _ in random.sample(memory, 32)])\n", (32, None)),
        ("x = np.array([s for s, _ in random.sample(memory, k=16)])\n", (16, None)),
        ("xs = []\nfor s, _ in random.sample(memory, min(32, len(memory))):\n    xs.append(s)\nx = np.array(xs)\n",
         (32, "upper")),
        ("x = load_states()[:min(32, len(memory))]\n", (32, "upper")),
    ],
)
def test_a_count_bounded_by_min_or_drawn_by_random_sample_sizes_the_rows(body, found):
    assert samples(body + "model.fit(x, x, epochs=1)\n") == found


@pytest.mark.parametrize(
    "body",
    [
        "x = np.zeros((min(n, len(memory)), 4))\n",  # bounded by nothing known
        "x = np.zeros((min(-1, len(memory)), 4))\n",  # not a count
        "x = np.zeros((min(0.5, len(memory)), 4))\n",
        "x = np.zeros((min(sizes), 4))\n",  # the least of an iterable
        "x = np.zeros((max(32, len(memory)), 4))\n",  # at least 32
        "x = np.array(random.sample(memory, n))\n",
        "x = load_states()[1:min(32, len(memory))]\n",  # a bounded end read only from the first row
        "x = load_states()[:min(32, len(memory)):k]\n",  # or with a step
    ],
)
def test_near_misses_bound_nothing(body):
    assert samples(body + "model.fit(x, x, epochs=1)\n") == (None, None)


def test_a_method_walked_for_an_attribute_before_its_call_is_walked_again_with_the_calls_values():
    """The episode loop reads `agent.epsilon`, which `replay` decays, before it calls `agent.replay(32)`:
    `replay` is walked first for the attribute, then again with the batch size its call passes."""
    assert samples("""
    class Agent:
        def __init__(self):
            self.epsilon = 1.0

        def replay(self, batch_size):
            x = np.array(random.sample(memory, batch_size))
            model.fit(x, x, epochs=1)
            self.epsilon *= 0.995

    agent = Agent()
    for step in range(1000):
        print(agent.epsilon)
        agent.replay(32)
    """) == (32, None)
