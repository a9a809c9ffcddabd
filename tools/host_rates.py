"""Measure the host cost per token of tokenising a text in pure Python (greenlint/predict/host_work.py).

    python -m tools.host_rates

Two tokenisers of the kinds programs write, on a synthetic text of 200,000 words drawn from a
5,000-word vocabulary (seeded; nothing read or downloaded), timed in CPU seconds (`time.process_time`,
so that a loaded machine's waits do not count), the median of 5 runs:

- `least`: a whitespace split and one dictionary look-up per token, the least any Python tokeniser
  does per token (the floor's rate);
- `greedy`: a greedy longest-match sub-word split of each word (WordPiece's algorithm, GPT-2's BPE
  merges are of the same order): a loop over each word's characters and a look-up per candidate piece
  (the stated most's rate).

Prints each rate in seconds per token; host_work.py states the figures it holds and where they were measured.
"""

from __future__ import annotations

import platform
import random
import statistics
import time

WORDS, TOKENS, RUNS = 5_000, 200_000, 5


def _text() -> tuple[str, dict[str, int], set[str]]:
    rng = random.Random(0)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 12))) for _ in range(WORDS)]
    text = " ".join(rng.choice(words) for _ in range(TOKENS))
    vocab = {w: i for i, w in enumerate(sorted(set(words)))}
    pieces = {w[:k] for w in words for k in range(1, 5)} | {"##" + w[k:k + 3] for w in words for k in range(len(w))}
    return text, vocab, pieces


def least(text: str, vocab: dict[str, int]) -> list[int]:
    return [vocab.get(token, 0) for token in text.split()]


def greedy(text: str, pieces: set[str]) -> list[str]:
    out = []
    for word in text.split():
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in pieces:
                    break
                end -= 1
            out.append(word[start:max(end, start + 1)])
            start = max(end, start + 1)
    return out


def rate(tokenise, *args) -> float:
    """Median CPU seconds per input word over RUNS runs."""
    times = []
    for _ in range(RUNS):
        began = time.process_time()
        tokenise(*args)
        times.append((time.process_time() - began) / TOKENS)
    return statistics.median(times)


def main() -> None:
    text, vocab, pieces = _text()
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'cpu'})")
    print(f"least  {rate(least, text, vocab):.3g} s per token")
    print(f"greedy {rate(greedy, text, pieces):.3g} s per token")


if __name__ == "__main__":
    main()
