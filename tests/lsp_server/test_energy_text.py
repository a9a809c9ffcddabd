"""greenlint.lsp_server.energy_text in-process: the words and figures of hints, hovers and lenses (docs/design.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from greenlint.analysis.callsite import CallSite, Runs, Span
from greenlint.lsp_server.energy_text import HINT_MAX, bases_label, hint_label, hover_markdown, total_label, total_of
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.rules.site import Site
from greenlint.units import TIMES


def _site(energy: float, basis: Basis = Basis.FROM_DATA, loops: int = 1, interval=None, line: int = 1, **kw) -> Site:
    interval = interval or (energy / 2, energy * 2)
    features = {"loop_multiplier": loops} if loops > 1 else {}
    runs = Runs(count=loops, bound="exact", note=None)  # counted, as the analysis counts straight-line code
    callsite = CallSite("a.py", Span(line, 1, line, 10), "tensorflow.keras.Model.fit", features, runs=runs)
    return Site(callsite, Prediction(energy, interval, None, None, None, basis, Evidence(records=3), **kw))


def test_one_call_its_loop_and_its_basis_label():
    assert hint_label([_site(12.0)]) == "⚡ 12 J (from data)"
    assert hint_label([_site(12.0, loops=8)]) == "⚡ 96 J (from data; 8 × 12 J)"
    assert hint_label([_site(0.5, Basis.BOUNDED)]) == "⚡ 0.5 J (bounded)"
    assert hint_label([_site(12.0, Basis.PROFILED)]) == "⚡ 12 J (measured here)"


def test_an_upper_bound_on_the_runs_is_marked():
    site = _site(12.0, loops=8)
    guarded = Site(replace(site.callsite, runs=Runs(count=8, bound="upper", note="under an if")), site.prediction)
    assert hint_label([guarded]) == "⚡ 96 J (from data; ≤8 × 12 J)"


def test_a_wide_interval_is_shown_as_the_range():
    assert hint_label([_site(2.0, Basis.PREDICTED, interval=(0.1, 400.0))]) == "⚡ 0.1 J – 400 J (predicted)"
    looped = hint_label([_site(2.0, Basis.PREDICTED, loops=8, interval=(0.1, 400.0))])
    assert looped == "⚡ 0.8 J – 3.2 kJ (predicted; × 8)"  # 8 × (0.1 J – 400 J): past VS Code's cut


def test_several_calls_on_a_line_keep_their_loop_factor_visible():
    label = hint_label([_site(3.0, loops=8), _site(1.0, Basis.BOUNDED, loops=8)])
    assert label == "⚡ 32 J (from data + bounded; 2 calls, × 8)"
    mixed = hint_label([_site(3.0, loops=8), _site(1.0, loops=1)])  # a comprehension beside a loop body
    assert mixed == "⚡ 25 J (from data; 2 calls, in loops × 8)"


def test_no_label_says_measured_unless_this_line_was():
    for basis in Basis:
        if basis in (Basis.PROFILED, Basis.PROFILED_ESTIMATED, Basis.UNKNOWN):
            continue
        assert "measured" not in hint_label([_site(5.0, basis)])


def test_units():
    assert hint_label([_site(7200.0)], unit="Wh") == "⚡ 2 Wh (from data)"
    assert hint_label([_site(7200.0)], unit="J") == "⚡ 7,200 J (from data)"


def test_hover_renders_the_profile_beside_the_forecast():
    forecast = Prediction(20.0, (10.0, 40.0), None, None, None, Basis.FROM_DATA)
    profile = {"executions": 30, "median_j": 9.0, "iqr_j": [8.0, 10.0], "counter": "rapl", "hardware_id": "box",
               "date": "2026-11-24", "stale": False}
    site = _site(9.0, Basis.PROFILED, profile=profile, forecast=forecast)
    text = hover_markdown(site, [])
    assert text.startswith("**`tensorflow.keras.Model.fit`** · greenlint energy (measured here)")
    assert "**Measured here**: **9 J** per execution (IQR 8 J – 10 J) over 30 executions (rapl, box, 2026-11-24)" in text
    assert "- forecast beside it: 20 J (from data)" in text


def test_hover_says_when_the_profile_is_stale():
    profile = {"executions": 30, "median_j": 9.0, "iqr_j": None, "stale": True}
    site = _site(20.0, Basis.FROM_DATA, profile=profile)
    text = hover_markdown(site, [])
    assert "greenlint energy (from data, profile stale)" in text
    assert "**Profile stale**: the statement changed since it was measured; figures above are the forecast" in text
    assert "**Measured here**" not in text


def test_lens_counts_calls_per_basis():
    sites = [_site(10.0, line=1), _site(1.0, Basis.BOUNDED, line=2), _site(5.0, loops=2, line=3)]
    assert total_label(sites, "this file") == "⚡ 21 J in this file (3 TF/Keras calls: 2 from data, 1 bounded)"


def test_a_bound_reads_as_a_bound_not_a_median():
    for basis in (Basis.BOUNDED, Basis.NEGLIGIBLE):
        site = _site(2.1, basis, interval=(0.0, 2.1))
        assert hint_label([site]) == f"⚡ 0 J – 2.1 J ({basis.label})"
        text = hover_markdown(site, [])
        assert "**at most 2.1 J** per execution (an upper bound" in text and "median" not in text


def test_a_symbolic_call_reads_as_no_work_at_its_line_not_as_a_bound():
    callsite = CallSite("a.py", Span(1, 1, 1, 10), "tensorflow.keras.layers.Dense.__call__", {"symbolic": True})
    site = Site(callsite, Prediction.symbolic("called on Keras symbolic tensors"))
    assert hint_label([site]) == "⚡ 0 J (counted where it runs)"
    text = hover_markdown(site, [])
    assert "**0 J at this line**: it only builds a graph" in text
    assert "at most" not in text and "0 J – 0 J" not in text


def test_a_floor_of_unknown_data_size_reads_as_at_least_not_a_median():
    site = _site(105.0, interval=(31.1, 2.11e7), floor=True)
    site = Site(replace(site.callsite, features={"samples_unknown": True, "epochs": 10, "flops_per_sample": 1e6}),
                site.prediction)
    text = hover_markdown(site, [])
    assert ("- **at least 105 J** per execution (data size or FLOPs unknown: the least the code allows), up to 21.1 MJ "
            "if 1,000,000 samples per epoch (stated, not inferred)") in text
    assert "median" not in text and "31.1 J" not in text  # never a range starting below its own "at least"
    unknown_epochs = Site(replace(site.callsite, features={"samples_unknown": True, "flops_per_sample": 1e6}),
                          site.prediction)
    assert "if 1,000,000 samples per epoch and 1,000 epochs (stated" in hover_markdown(unknown_epochs, [])
    # the model's FLOPs unknown: the high end names the large model it assumes
    no_flops = Site(replace(site.callsite, features={"samples": 1000, "epochs": 10}), site.prediction)
    assert ("if 1e+11 FLOPs per sample (EfficientNet-B7's forward pass at 600x600, 7.4e10) (stated"
            in hover_markdown(no_flops, []))


def test_hover_shows_names_and_notes_as_written_not_as_markdown():
    """`__call__` must not turn bold, a note's own `*`, brackets or tags must not end its emphasis or render."""
    from markdown_it import MarkdownIt

    api = "tensorflow.keras.Model.__call__"
    note = "as tensorflow.keras.Model.__call__: *the* [work](x) <b>sets</b> the cost of `a` & more"
    callsite = CallSite("a.py", Span(1, 1, 1, 10), api, {})
    site = Site(callsite, Prediction(2.0, (1.0, 4.0), None, None, None, Basis.FROM_DATA, Evidence(3, api, note=note)))
    html = MarkdownIt().render(hover_markdown(site, []))
    assert "<strong>call</strong>" not in html and "<b>" not in html and "<a " not in html
    assert f"<strong><code>{api}</code></strong>" in html and f"measurements of <code>{api}</code>" in html
    shown = "as tensorflow.keras.Model.__call__: *the* [work](x) &lt;b&gt;sets&lt;/b&gt; the cost of `a` &amp; more"
    assert f"<em>{shown}</em>" in html


def test_a_call_in_a_loop_of_unknown_length_says_its_run_count_is_unknown():
    site = _site(12.0)
    runs = Runs(count=None, bound="unknown", note="inside a loop of unknown length", loop=None)
    text = hover_markdown(Site(replace(site.callsite, runs=runs), site.prediction), [])
    assert "- **12 J** per execution" in text
    assert f"- {TIMES} an unknown number of runs per program run (inside a loop of unknown length): the total is not known" in text
    counted = Runs(count=4, bound="exact", note=None, loop=4)
    assert "unknown number" not in hover_markdown(Site(replace(site.callsite, runs=counted), site.prediction), [])


def test_a_total_says_which_calls_it_counted_by_their_literal_loops_alone():
    """Issue 29 (13, 15): a call in a loop of unknown length adds its literal loops' runs to the file's
    total, and the total says so, as its hover says the count is unknown."""
    unknown = Runs(count=None, bound="unknown", note="inside a loop of unknown length")
    site = _site(5.0, line=2)
    sites = [_site(10.0), Site(replace(site.callsite, runs=unknown), site.prediction)]
    assert total_label(sites, "this file") == (
        "⚡ 15 J in this file (2 TF/Keras calls: 2 from data; 1 call run an unknown number of times "
        "(counted by its literal loops))"
    )
    assert "unknown number" not in total_label(sites[:1], "this file")


def test_a_hint_shows_its_figure_and_basis_within_vs_codes_length_limit():
    """VS Code cuts a hint after 43 characters: the basis used to be cut there ("pr…", "fr…")."""
    from greenlint.lsp_server.energy_text import HINT_MAX

    wide = dict(interval=(2.64e2, 9.4e8))
    cases = [
        [_site(3.0e5, Basis.PREDICTED, loops=8, **wide)],
        [_site(3.0e5, Basis.PREDICTED, loops=8, **wide), _site(1.0, Basis.BOUNDED, loops=8, interval=(0.0, 2.1))],
        [_site(2.0e4, loops=1000, **wide), _site(5.0, Basis.PREDICTED, loops=3, line=2)],
    ]
    for sites in cases:
        label = hint_label(sites)
        assert len(label) <= HINT_MAX, label
        top = max(sites, key=lambda s: s.total_energy_j).prediction.label
        assert f"({bases_label(sites)}" in label or f"({top} + 1 more" in label, label


#: Joules from 40 mJ (a range down to a microjoule) to terajoules: the lengths a figure takes in each unit.
_MAGNITUDES = (0.0395, 0.5, 999.7, 1.3e3, 7.37e7, 4.2e9, 7.0e12)


def _shapes(energy: float):
    """A point, a range over 100× wide, a floor, and a bound with no lower end, of *energy*."""
    return [{"interval": (energy / 2, energy * 2)}, {"interval": (energy / 3e4, energy * 40)},
            {"interval": (energy / 3, energy * 1e5), "floor": True}, {"interval": (0.0, energy)}]


@pytest.mark.parametrize("unit", ["auto", "J", "Wh"])
def test_every_hint_shows_its_figure_and_basis_within_vs_codes_limit(unit):
    """Issue 29 item 17: VS Code cuts a hint after HINT_MAX characters, and used to cut it in the basis
    (`⚡ 0.0395 mJ – 1.23 kJ (calibrated here, est…`). For each basis alone and beside another, every
    figure's length in each unit, and loops: the hint fits whole, starts with the total (in the unit
    asked for, or `auto` where its digits would not fit) and names the costliest call's basis (up to 10¹² J)."""
    bases = [b for b in Basis if b not in (Basis.UNKNOWN, Basis.SYMBOLIC)]
    for energy in _MAGNITUDES:
        for shape in _shapes(energy):
            for first in bases:
                for second in (None, Basis.BOUNDED, Basis.CALIBRATED_ESTIMATED):
                    for loops in (1, 21000):
                        sites = [_site(energy, first, loops=loops, **shape)]
                        if second is not None:
                            sites.append(_site(energy / 10, second, loops=loops, line=1))
                        if shape["interval"][1] * loops > 1e12:
                            continue  # a terawatt-hour's fraction per line: past what a program spends
                        label = hint_label(sites, unit)
                        assert len(label) <= HINT_MAX, label
                        total = total_of(sites)
                        assert label.startswith((f"⚡ {total.figure(unit)} (", f"⚡ {total.figure('auto')} (")), label
                        assert first.label.partition(",")[0] in label.split(" (", 1)[1].split(";")[0], label
