"""Issue 27's "Done when" section: each item with its figure, met, missed or not measurable here."""

from __future__ import annotations

from tools.model.done_when import (
    EPOCHS,
    FUNCTIONAL,
    UNSEEN_FLOPS,
    Item,
    gaissa_items,
    held_items,
    physics_items,
    section,
    timed_items,
    widths_items,
)
from tools.model.physics import Goal


def _timed(worst, median, inside):
    return {"compare": {"calibrated": {"summary": {"worst_factor": worst, "median_factor": median, "inside": inside,
                                                   "scripts": 20}}}}


def test_the_timed_suite_after_calibrate_is_met_only_within_every_bound_and_the_scripts_kept_apart_unmeasured():
    apart, met = timed_items(_timed(2.9, 1.3, 0.6))
    assert apart.met is None and met.met is True and "worst 2.90×" in met.figure
    assert timed_items(_timed(3.1, 1.3, 0.9))[1].met is False
    assert timed_items(_timed(2.0, 1.5, 0.9))[1].met is False
    assert timed_items(_timed(2.0, 1.3, 0.5))[1].met is False
    assert timed_items(None)[1].met is None


def test_physics_items_are_read_by_name():
    goals = [Goal(f"{UNSEEN_FLOPS} (3e10 → 3e12)", 95.0, 10, float("inf"), "×"),
             Goal(f"{FUNCTIONAL} / its twin", 1.5, 0.833, 1.2, "×"), Goal(f"{EPOCHS} (10 → 100)", 9.9, 8, 12, "×")]
    unseen, functional, epochs = physics_items(goals)
    assert (unseen.met, functional.met, epochs.met) == (True, False, True)
    assert "greenlint diff" in epochs.goal and epochs.figure == "9.9×"


def test_held_out_and_gaissa_items():
    ahead, rho, mdale, apart = held_items(0.67, 0.47, (4, 5), 0.59, 0.46)
    assert (ahead.met, rho.met, mdale.met, apart.met) == (False, True, False, None)
    assert held_items(None, None, (5, 5), 0.59, 0.46)[1].met is None
    within, rmse = gaissa_items((5, 5, 1.65))
    assert within.met and rmse.met and rmse.figure == "1.65×"
    assert [i.met for i in gaissa_items((4, 5, 1.4))] == [False, False]
    assert [i.met for i in gaissa_items(None)] == [None]


def _widths(median, wide):
    return {"command": "python -m bench.realworld widths dev", "goals": {"median_width": 30.0, "wider_1000x": 0.05},
            "research": {"a": {}}, "apart": {"dev": {}},
            "total": {"all": {"sites": 10, "figured": 4, "bounds": 3, "floors": 1, "symbolic": 1,
                              "median_width": median, "wider_1000x": wide}}}


def test_real_code_widths_are_met_under_both_goals_and_say_how_few_sites_are_points():
    median, wide = widths_items(_widths(3.4, 0.0))
    assert median.met and wide.met and "4 point figures of 10 call sites" in median.goal
    assert "1 without a figure" in median.goal and "(dev)" in median.goal
    assert [i.met for i in widths_items(_widths(31.0, 0.05))] == [False, False]
    assert [i.met for i in widths_items(None)] == [None]


def test_the_section_counts_met_and_unmeasurable_items():
    text = "\n".join(section([Item("a", "1×", True), Item("b", "2×", False), Item("c", "kept apart", None)]))
    assert "1 of 3 met, 1 not measurable here" in text
    assert "| b | 2× | **missed** |" in text and "| c | kept apart | not measurable here |" in text
