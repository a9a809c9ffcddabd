"""Censored estimation: a below-resolution bound is "below", never zero and never ignored."""

import math

import pytest

from tools.model.censored import censored_mean


def test_exact_values_only_give_the_shrunk_mean():
    fit = censored_mean([1.0, 2.0, 3.0], [], sigma=1.0, prior_mu=0.0, prior_sd=100.0)
    assert fit.mu == pytest.approx(2.0, abs=1e-3)
    assert fit.se == pytest.approx(1 / math.sqrt(3), rel=1e-3)


def test_censored_bounds_pull_the_mean_below_them():
    exact_only = censored_mean([2.0, 2.0], [], sigma=0.5, prior_mu=2.0, prior_sd=10.0).mu
    with_bounds = censored_mean([2.0, 2.0], [0.0, 0.0, 0.0], sigma=0.5, prior_mu=2.0, prior_sd=10.0).mu
    assert with_bounds < exact_only - 0.3


def test_all_censored_stays_below_the_bound_but_finite():
    fit = censored_mean([], [1.0, 1.0, 1.0], sigma=0.5, prior_mu=3.0, prior_sd=1.0)
    assert math.isfinite(fit.mu)
    assert fit.mu < 1.0 + 0.5  # the prior (3.0) cannot drag it far above what the bounds allow
    assert fit.mu > -5.0  # and the prior stops it running off to minus infinity


def test_censored_is_not_zero():
    # treating "below 1 J" as 0 J (log10 floor) would give a far lower estimate than the likelihood
    fit = censored_mean([0.5], [0.0], sigma=0.5, prior_mu=0.0, prior_sd=5.0)
    as_zero = (0.5 + -3.0) / 2
    assert fit.mu > as_zero + 1.0


def test_invalid_spread_is_rejected():
    with pytest.raises(ValueError):
        censored_mean([1.0], [], sigma=0.0, prior_mu=0.0, prior_sd=1.0)
