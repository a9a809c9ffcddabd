"""A corpus gives the benchmark the same results wherever its bench cache lies, and is never written."""

from __future__ import annotations

from bench.realworld.score import CALLS, greenlint

HELPER = "import tensorflow as tf\n\n\ndef build():\n    return tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
SCRIPT = "from helpers import build\n\nbuild().fit(x, y, epochs=3)\n"


def test_a_project_marker_above_the_bench_cache_does_not_reach_a_corpus(tmp_path):
    # Under a marker (a stray /tmp/pyproject.toml) the folders between a corpus and it became
    # import roots, so a module beside the corpus, which Python would never import from it, was
    # followed; the corpus's root is marked as its own project instead.
    calls = {}
    for outer in ("plain", "marked"):
        corpus = tmp_path / outer / "cache" / "corpus"
        corpus.mkdir(parents=True)
        (corpus / "train.py").write_text(SCRIPT)
        (tmp_path / outer / "cache" / "helpers.py").write_text(HELPER)  # beside the corpus, not in it
        if outer == "marked":
            (tmp_path / outer / "pyproject.toml").write_text("[project]\nname = 'elsewhere'\n")
        sites = greenlint(CALLS, corpus, tmp_path / "lint-cache")["call_sites"]
        calls[outer] = sorted((s["line"], s["api"]) for s in sites)
    assert calls["plain"] == calls["marked"] == []  # `build()` is not the corpus's: nothing to list


def test_a_corpus_is_checked_from_a_copy_and_left_as_it_was(tmp_path):
    # It was marked in place (an empty `.git` in the bench cache, or in any folder named to `widths`).
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "helpers.py").write_text(HELPER)
    (corpus / "train.py").write_text(SCRIPT)
    sites = greenlint(CALLS, corpus, tmp_path / "lint-cache")["call_sites"]
    assert {s["path"] for s in sites} == {"helpers.py", "train.py"}  # the copy's files, named as the corpus's
    assert sorted(p.name for p in corpus.iterdir()) == ["helpers.py", "train.py"]
