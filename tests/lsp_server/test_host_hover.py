"""The hover of a call of the program's own function that tokenises a text: its floor says what is unknown
and what the interval's top assumes, in the host work's own terms (greenlint/predict/host_work.py)."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source
from greenlint.lsp_server.energy_text import hover_markdown
from greenlint.predict import load_predictor
from greenlint.predict.site_predictions import predict_sites
from greenlint.rules.site import Site

CODE = """
import re
import tensorflow as tf


def encode(text, vocab):
    return [vocab.get(token, 0) for token in re.findall(r"\\w+", text)]


ids = encode(open("corpus.txt").read(), {})
"""


def test_a_host_work_site_hovers_as_a_floor_of_its_text():
    found = [s for s in analyse_source(textwrap.dedent(CODE), "snippet.py").callsites if s.features.get("receiver") == "host"]
    prediction, = predict_sites(load_predictor(overlay=False).predict, found)
    text = hover_markdown(Site(found[0], prediction), [])
    assert text.startswith("**`encode`** · greenlint energy (predicted)")
    assert "(the text's size unknown: the least the code allows)" in text
    assert "if 1e+09 tokens at 2.1e-06 s each (stated, not inferred)" in text
    assert "FLOPs" not in text
