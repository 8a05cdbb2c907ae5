"""The statistics of a batch report, checked against published values and an independent
implementation (scipy, when installed)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from deckbuilder.sim.runs.stats import (
    games_needed,
    paired_difference,
    proportion,
    wilson_interval,
)
from deckbuilder.sim.runs.tally import summarize_counts


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (50, 100, 0.404, 0.596),  # the textbook coin
        (0, 10, 0.0, 0.278),  # no successes: still a real interval, not [0, 0]
        (10, 10, 0.722, 1.0),
        (1, 10, 0.018, 0.404),  # Newcombe (1998), method 3
        (81, 263, 0.255, 0.366),  # Newcombe (1998), 81/263: 0.2553 to 0.3662
    ],
)
def test_wilson_interval_matches_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=0.0006)
    assert got_high == pytest.approx(high, abs=0.0006)


def test_wilson_interval_narrows_with_more_games_and_contains_the_rate() -> None:
    widths = []
    for trials in (10, 100, 1000, 10000):
        interval = proportion(trials * 3 // 10, trials)
        assert interval.low < interval.estimate < interval.high
        widths.append(interval.high - interval.low)
    assert widths == sorted(widths, reverse=True)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for trials in range(1, 200):  # the bounds never cross the rate through rounding
        assert wilson_interval(0, trials)[0] == 0.0
        assert wilson_interval(trials, trials)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_games_needed_for_a_precision() -> None:
    # 1.96^2 * 0.25 / 0.02^2 = 2400.9: a coin-flip matchup needs 2401 games for +-2 points.
    assert games_needed(0.5, 0.02) == 2401
    assert games_needed(0.5, 0.01) == 9604
    assert games_needed(0.5, 0.05) == 385
    # A lopsided matchup needs fewer: p(1-p) is smaller away from one half.
    assert games_needed(0.9, 0.02) == math.ceil(1.959964**2 * 0.09 / 0.0004)
    assert games_needed(0.9, 0.02) < games_needed(0.5, 0.02)
    with pytest.raises(ValueError):
        games_needed(0.5, 0.0)


def test_games_needed_delivers_the_precision_it_promises() -> None:
    for rate in (0.3, 0.5, 0.8):
        count = games_needed(rate, 0.03)
        low, high = wilson_interval(round(rate * count), count)
        assert (high - low) / 2 == pytest.approx(0.03, abs=0.002)


def test_paired_difference_by_hand() -> None:
    # Six seeds; the per-seed differences are 1, 0, 0, -1, 1, 1 (mean 1/3).
    first = [1, 1, 0, 0, 1, 1]
    second = [0, 1, 0, 1, 0, 0]
    differences = [1, 0, 0, -1, 1, 1]
    mean = sum(differences) / 6
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / 5)
    interval = paired_difference(first, second)
    assert interval.estimate == pytest.approx(1 / 3)
    assert interval.high - interval.estimate == pytest.approx(1.959964 * sd / math.sqrt(6),
                                                              rel=1e-5)
    assert interval.estimate - interval.low == pytest.approx(interval.high - interval.estimate)


def test_identical_pairs_have_no_difference_and_no_doubt() -> None:
    same = [1, 0, 1, 1, 0]
    interval = paired_difference(same, same)
    assert (interval.estimate, interval.low, interval.high) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        paired_difference([1, 0], [1])


def test_pairing_shrinks_the_interval_when_games_share_their_luck() -> None:
    rng = random.Random(8)
    luck = [rng.random() for _ in range(2000)]
    first = [1.0 if value < 0.55 else 0.0 for value in luck]
    second = [1.0 if value < 0.50 else 0.0 for value in luck]
    paired = paired_difference(first, second)
    unpaired_half_width = 1.959964 * math.sqrt(0.55 * 0.45 / 2000 + 0.5 * 0.5 / 2000)
    assert paired.low < 0.05 < paired.high
    assert paired.half_width < unpaired_half_width / 3


def test_summarize() -> None:
    summary = summarize_counts(Counter([5, 1, 3, 2, 4, 10, 6, 7, 8, 9]))
    assert (summary.minimum, summary.maximum, summary.mean, summary.median) == (1, 10, 5.5, 5.5)
    assert (summary.p10, summary.p90) == (1, 9)
    assert summarize_counts(Counter([4])).median == 4
    assert summarize_counts(Counter()).mean == 0.0
