"""`width_summary`: how much a set of figures is worth (points and their widths, bounds), as `greenlint calls` prints it."""

from __future__ import annotations

from greenlint.predict.prediction import Basis, Prediction, width_summary


def _point(low: float, high: float) -> Prediction:
    return Prediction((low * high) ** 0.5, (low, high), None, None, None, Basis.FROM_DATA)


def test_points_bounds_and_unknowns():
    figures = [_point(1.0, 10.0), _point(1.0, 50.0), _point(1.0, 200.0), _point(1.0, 5000.0),
               Prediction(2.1, (0.0, 2.1), None, None, None, Basis.NEGLIGIBLE),
               Prediction(0.3, (0.0, 9.0), None, None, None, Basis.BOUNDED),
               Prediction.unknown("never measured"), None]
    assert width_summary(figures) == (
        "4 points, their 80% interval 125× wide at the median, 50.0% wider than 100×, 25.0% wider than 1000× "
        "(goals ≤ 30×, under 5%); 2 upper bounds (bounded, negligible).")


def test_nothing_to_say_without_a_figure():
    assert width_summary([Prediction.unknown(), None]) is None
    assert width_summary([Prediction(2.1, (0.0, 2.1), None, None, None, Basis.NEGLIGIBLE)]) == "1 upper bound (bounded, negligible)."


def test_a_floor_of_unknown_data_size_is_counted_apart_from_the_points():
    floor = Prediction(238.0, (70.6, 4.5e7), None, None, None, Basis.FROM_DATA, floor=True)
    assert width_summary([_point(1.0, 10.0), floor]) == (
        "1 point, their 80% interval 10× wide at the median, 0.0% wider than 100×, 0.0% wider than 1000× "
        "(goals ≤ 30×, under 5%); 1 floor (data size or FLOPs unknown: at least the figure).")


def test_a_symbolic_call_is_neither_a_point_nor_a_bound():
    """A call that only builds a graph (functional API on Keras symbolic tensors) does no work at its
    line: its 0 J is counted apart, not as an upper bound (it was, as `0 J – 0 J`)."""
    symbolic = Prediction.symbolic("called on Keras symbolic tensors")
    bound = Prediction(2.1, (0.0, 2.1), None, None, None, Basis.NEGLIGIBLE)
    assert width_summary([_point(1.0, 10.0), bound, symbolic, symbolic]) == (
        "1 point, their 80% interval 10× wide at the median, 0.0% wider than 100×, 0.0% wider than 1000× "
        "(goals ≤ 30×, under 5%); 1 upper bound (bounded, negligible); "
        "2 symbolic (0 J at their line: their work is counted where the graph runs).")
    assert width_summary([symbolic]) == "1 symbolic (0 J at their line: their work is counted where the graph runs)."
