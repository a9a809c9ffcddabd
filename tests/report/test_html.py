"""`greenlint calls --format html`: a standalone report that parses, escapes, ranks and links."""

from __future__ import annotations

import io
from html import escape
from html.parser import HTMLParser

from greenlint.analysis.callsite import CallSite, Quantity, Runs, Span
from greenlint.cli.calls_cmd import collect, write
from greenlint.predict import load_predictor
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.report.calls import held_line, startup_line
from greenlint.report.html import CSP, calls_html, rows
from greenlint.units import fmt_energy, fmt_j
from tests.report.test_calls import FAKE, _args, project  # noqa: F401 (fixture)

FIT = CallSite("src/train.py", Span(14, 5, 14, 40), "tensorflow.keras.Sequential.fit", {"loop_multiplier": 4},
               work={"epochs": Quantity(20, "literal"),
                     "samples": Quantity(None, "unknown")})
EVAL = CallSite("src/train.py", Span(20, 1, 20, 30), "tensorflow.keras.Model.evaluate", {},
                runs=Runs(count=3, bound="upper", note="under if in a loop of 3"))
ODD = CallSite('we<ird>&"name.py', Span(2, 1, 2, 9), "tensorflow.ones</td><script>alert(1)</script>", {})
CELL = CallSite("nb.ipynb", Span(3, 1, 3, 9, cell=2), "tensorflow.constant", {})

FIT_P = Prediction(100.0, (10.0, 1000.0), 80.0, None, 20.0, Basis.FROM_DATA,
                   Evidence(records=252, api="tensorflow.keras.Sequential.fit", note="scaled by epochs 20 / 10"))
EVAL_P = Prediction(50.0, (40.0, 60.0), None, None, None, Basis.BOUNDED)
ODD_P = Prediction(1.0, None, None, None, None, Basis.PREDICTED, Evidence(note="<b>not bold</b>"))


VOID = {"meta", "br", "wbr", "img", "link", "input", "hr"}


class Page(HTMLParser):
    """Every start tag with its attributes, the text of each table row, and parse problems."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.rows, self.open = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)
        if tag == "tr":
            self.rows.append("")

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()

    def handle_data(self, data):
        if self.rows:
            self.rows[-1] += data


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert page.open == [], f"unclosed: {page.open}"
    return page


def report(pairs) -> Page:
    return parse(calls_html(pairs))


def test_rows_are_ranked_by_joules_times_runs_unknown_last():
    ranked = rows([(CELL, None), (EVAL, EVAL_P), (FIT, FIT_P), (ODD, ODD_P)])
    assert [r.site["api"] for r in ranked] == [FIT.api, EVAL.api, ODD.api, CELL.api]
    assert [(r.runs, r.runs_bound, r.total_j) for r in ranked] == [(4, "unknown", 400.0), (3, "upper", 150.0),
                                                                    (1, "unknown", 1.0), (1, "unknown", None)]
    assert ranked[0].interval_j == (40.0, 4000.0)


def test_page_parses_and_rows_follow_the_ranking():
    page = report([(CELL, None), (EVAL, EVAL_P), (FIT, FIT_P), (ODD, ODD_P)])
    body = page.rows[1:]  # the first row is the header
    assert len(body) == 4
    assert body[0].startswith("1src/train.py:14tensorflow.keras.Sequential.fit")
    assert fmt_energy(100.0, (10.0, 1000.0), 4) in body[0] and "from data" in body[0]
    assert "epochs 20 [literal]" in body[0] and "not known: samples" in body[0]
    assert "252 measurements of tensorflow.keras.Sequential.fit" in body[0]
    assert "≤ 3" in body[1] and "bounded" in body[1] and "runs: under if in a loop of 3" in body[1]
    assert "no estimate" in body[3] and "unknown" in body[3]
    html = calls_html([(CELL, None), (EVAL, EVAL_P), (FIT, FIT_P), (ODD, ODD_P)])
    assert f"3 with an energy figure, {fmt_j(551.0)} in all" in html
    assert "Basis: 1 from data, 1 bounded, 1 predicted." in html


def test_bars_are_shares_of_the_total():
    page = report([(EVAL, EVAL_P), (FIT, FIT_P)])
    widths = [attrs["style"] for tag, attrs in page.tags if attrs.get("class") == "bar"]
    assert widths == ["width:72.7%", "width:27.3%"]  # 400 / 550, 150 / 550


def test_interval_positions_are_on_a_log_scale():
    page = report([(EVAL, EVAL_P), (FIT, FIT_P)])
    ranges = [attrs["style"] for tag, attrs in page.tags if attrs.get("class") == "range"]
    # scale 40 J .. 4 kJ (two decades): fit 40 J - 4 kJ spans it all; evaluate 120 - 180 J
    assert ranges[0] == "left:0.0%;width:100.0%"
    assert ranges[1] == "left:23.9%;width:8.8%"


def test_everything_from_the_code_is_escaped():
    html = calls_html([(ODD, ODD_P)])
    page = parse(html)
    assert not [tag for tag, _ in page.tags if tag in ("script", "b", "img", "link", "iframe")]
    assert "tensorflow.ones</td><script>alert(1)</script>" in page.rows[1]
    assert "<b>not bold</b>" in page.rows[1]
    link = next(attrs for tag, attrs in page.tags if tag == "a")
    assert link["data-path"] == 'we<ird>&"name.py'
    assert link["href"] == "we%3Cird%3E%26%22name.py#L2"


def test_rows_link_to_their_line_and_cell():
    page = report([(FIT, FIT_P), (CELL, None)])
    links = [attrs for tag, attrs in page.tags if tag == "a"]
    assert links == [
        {"href": "src/train.py#L14", "data-path": "src/train.py", "data-line": "14", "data-column": "5"},
        {"href": "nb.ipynb#L3", "data-path": "nb.ipynb", "data-line": "3", "data-column": "1", "data-cell": "2"},
    ]


def test_nothing_is_fetched():
    html = calls_html([(FIT, FIT_P)])
    page = parse(html)
    csp = [attrs["content"] for tag, attrs in page.tags if attrs.get("http-equiv") == "Content-Security-Policy"]
    assert csp == [CSP] and "default-src 'none'" in CSP
    assert not any(key in ("src", "srcset") for _, attrs in page.tags for key in attrs)
    assert "http://" not in html and "https://" not in html and "url(" not in html


def test_empty_report_still_parses():
    page = report([])
    assert page.rows and "0 call sites in 0 files" in calls_html([])


def test_cli_writes_the_html_report(project, monkeypatch):  # noqa: F811
    monkeypatch.chdir(project)
    result = collect(_args(".", "--isolated", "--no-cache", "-j", "1", "--format", "html"), backend=FAKE)
    out = io.StringIO()
    write(result, "html", out)
    page = parse(out.getvalue())
    assert [attrs["href"] for tag, attrs in page.tags if tag == "a"] == ["train.py#L2", "train.py#L3"]
    predictor = load_predictor(overlay=False)  # what the program pays beside its calls, as the text says it
    for line in (startup_line(predictor.startup()), held_line(predictor.held(2), 2)):
        assert f"<p class=summary>{escape(line)}</p>" in out.getvalue()


def test_the_program_lines_are_left_out_where_none_is_given():
    assert "start-up" not in calls_html([(FIT, FIT_P)]) and "holds the device" not in calls_html([(FIT, FIT_P)])


def test_the_basis_column_wraps_rather_than_being_clipped():
    """A narrow panel (the editor's webview) scrolls the table sideways, and a long basis label
    ("from data + bounded") wraps within its pill: the basis column is never cut off. A long API
    name breaks where it must, so the table fits a report alone in the editor (about 1,000 px; the
    real-editor test measures it there)."""
    html = calls_html([(FIT, FIT_P)])
    css = html[html.index("<style>"):html.index("</style>")]
    rule = css[css.index(".basis{"):]
    assert "nowrap" not in rule[:rule.index("}")]
    api = css[css.index("td.api{"):]
    assert "overflow-wrap:anywhere" in api[:api.index("}")]
    assert ".wide{overflow-x:auto}" in css and "<div class=wide><table>" in html
    assert '<td class=basiscell><span class=basis title="' in html


def test_a_bound_on_the_work_says_which():
    """A count greenlint knows only in part reads as a lower bound, a point as a point, an unknown as unknown."""
    fit = CallSite("src/train.py", Span(14, 5, 14, 40), "tensorflow.keras.Sequential.fit", {},
                   work={"params": Quantity(2506, "inferred", "unknown: Block", "lower"),
                         "epochs": Quantity(20, "literal"), "flops_per_sample": Quantity(None, "unknown")})
    row = report([(fit, FIT_P)]).rows[1]
    assert "params 2,506 (lower bound) [inferred]" in row
    assert "epochs 20 [literal]" in row and "not known: flops_per_sample" in row
