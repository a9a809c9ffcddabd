"""Censored (Tobit-style) estimate of a log-normal median.

A below-resolution measurement says "below this bound", not "zero": it enters the likelihood as
P(y < bound) instead of a point. Values are log10 joules; y ~ Normal(mu, sigma), with a
normal prior on mu (the parent level of the API hierarchy) so that an API with one call site, or
only censored ones, is shrunk towards its relatives instead of running off to minus infinity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z80 = 1.2815515655446004  # standard normal 0.9 quantile: mu +- Z80*sd is an 80% interval
_SQRT2 = math.sqrt(2.0)


def _mills(z: float) -> float:
    """phi(z) / Phi(z), computed stably for very negative z."""
    if z < -30.0:
        return -z
    phi = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    cdf = 0.5 * math.erfc(-z / _SQRT2)
    return phi / cdf


@dataclass(frozen=True)
class CensoredFit:
    mu: float  # posterior mode of the mean log10 J
    se: float  # approximate posterior standard deviation of mu


def censored_mean(
    values: Sequence[float],
    bounds: Sequence[float],
    sigma: float,
    prior_mu: float,
    prior_sd: float,
) -> CensoredFit:
    """MAP of mu given exact `values`, left-censored `bounds` (y < b), known `sigma` and a prior.

    The log-posterior is concave in mu, so its derivative is decreasing: bisection finds the mode.
    """
    if sigma <= 0 or prior_sd <= 0:
        raise ValueError("sigma and prior_sd must be positive")

    def slope(mu: float) -> float:
        g = sum(y - mu for y in values) / sigma**2
        g -= sum(_mills((b - mu) / sigma) for b in bounds) / sigma
        return g - (mu - prior_mu) / prior_sd**2

    points = [*values, *bounds, prior_mu]
    lo, hi = min(points) - 10.0 * (sigma + prior_sd), max(points) + 10.0 * (sigma + prior_sd)
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    mu = 0.5 * (lo + hi)
    info = len(values) / sigma**2 + 1.0 / prior_sd**2
    for b in bounds:
        z = (b - mu) / sigma
        lam = _mills(z)
        info += lam * (lam + z) / sigma**2
    return CensoredFit(mu, 1.0 / math.sqrt(info))
