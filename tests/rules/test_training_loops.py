"""GL308's loop shape (greenlint.rules.training_loops) across notebook cells and nested loops."""

from __future__ import annotations

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from tests.rules.conftest import notebook

GL308 = Config(select=("GL308",), no_cache=True)

SETUP = (
    "import gym\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
    "def learn(memory):\n    m.train_on_batch(*sample(memory))\n"
)
EPISODES = (
    "env = gym.make('CartPole-v1')\nfor episode in range(400):\n    obs = env.reset()\n"
    "    for t in range(200):\n        obs, reward, done, info = env.step(act(obs))\n        learn(memory)\n"
)


def _findings(text: str, path: str, predictor) -> list:
    return [d for d in check_source(text, path, GL308, predictor) if d.code == "GL308"]


def test_a_loop_that_trains_through_a_function_of_another_cell_is_reported_in_its_own_cell(predictor):
    found = _findings(notebook(SETUP, EPISODES), "agent.ipynb", predictor)
    assert [(d.span.cell, d.span.line) for d in found] == [(2, 2)]
    assert "400 passes" in found[0].message and "`env.step()`" in found[0].message


def test_only_the_outermost_of_nested_training_loops_is_reported(predictor):
    found = _findings(SETUP + EPISODES, "agent.py", predictor)
    assert [d.span.line for d in found] == [7]  # not the inner `for t in range(200)` at line 9


def test_a_break_on_the_score_in_the_outer_loop_silences_it_but_one_in_the_inner_loop_does_not(predictor):
    inner_only = EPISODES.replace("        learn(memory)\n", "        learn(memory)\n        if done:\n            break\n")
    assert len(_findings(SETUP + inner_only, "agent.py", predictor)) == 1
    solved = EPISODES + "    if mean(scores) > 195:\n        break\n"
    assert _findings(SETUP + solved, "agent.py", predictor) == []


def test_a_loop_nested_in_a_short_loop_over_seeds_is_judged_itself(predictor):
    indented = "".join("    " + line + "\n" for line in EPISODES.splitlines())
    found = _findings(SETUP + "for seed in range(3):\n" + indented, "agent.py", predictor)
    assert [d.span.line for d in found] == [8]


def test_a_file_that_never_trains_is_not_indexed():
    from greenlint.rules.base import FileFacts
    from greenlint.rules.training_loops import fixed_training_loops

    facts = FileFacts("play.py", (), "for episode in range(400):\n    obs, reward, done, info = env.step(a)\n")
    assert fixed_training_loops(facts, 20) == [] and facts._trees == {}
