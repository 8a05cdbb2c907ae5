"""The statistics a batch report needs, written out so they can be checked by hand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Two-sided 95%: the normal quantile 0.975.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; unlike p +- z*se it stays inside [0, 1] and
    behaves at 0/n and n/n. No trials: the whole range (nothing is known)."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside 0..{trials}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # At 0/n and n/n the bound is exactly the rate; rounding must not move it past the rate.
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - spread))
    high = 1.0 if successes == trials else max(p, min(1.0, centre + spread))
    return low, high


def proportion(successes: int, trials: int, z: float = Z95) -> Interval:
    low, high = wilson_interval(successes, trials, z)
    return Interval(successes / trials if trials else 0.0, low, high)


def paired_difference(first: Sequence[float], second: Sequence[float],
                      z: float = Z95) -> Interval:
    """Mean of first[i] - second[i] with a normal-approximation interval."""
    if len(first) != len(second):
        raise ValueError("paired samples must have the same length")
    count = len(first)
    if count == 0:
        return Interval(0.0, -1.0, 1.0)
    differences = [a - b for a, b in zip(first, second, strict=True)]
    mean = sum(differences) / count
    if count == 1:
        return Interval(mean, -1.0, 1.0)
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    spread = z * math.sqrt(variance / count)
    return Interval(mean, mean - spread, mean + spread)


def games_needed(rate: float, precision: float, z: float = Z95) -> int:
    """Games for a 95% interval of +-`precision` around a win rate near `rate`:
    n = z^2 p (1 - p) / e^2 (normal approximation, rounded up)."""
    if not 0 < precision < 1:
        raise ValueError("precision must be between 0 and 1, e.g. 0.02 for +-2 points")
    rate = min(max(rate, 0.0), 1.0)
    return max(1, math.ceil(z * z * rate * (1 - rate) / (precision * precision)))


def paired_games_needed(differences: Sequence[float], difference: float,
                        least_spread: float = 0.3, z: float = Z95) -> int:
    """Paired games for a 95% interval of +-`difference` around a paired mean difference:
    n = (z s / d)^2, s the standard deviation of `differences` (at least `least_spread`).

        >>> paired_games_needed([1, -1, 0, 0], 0.1)
        257
    """
    if difference <= 0:
        raise ValueError("the difference to tell apart must be above 0")
    count = len(differences)
    mean = sum(differences) / count if count else 0.0
    variance = (sum((d - mean) ** 2 for d in differences) / (count - 1)) if count > 1 else 0.0
    spread = max(math.sqrt(variance), least_spread)
    return max(2, math.ceil((z * spread / difference) ** 2))


@dataclass(frozen=True)
class Summary:
    mean: float
    median: float
    minimum: float
    maximum: float
    p10: float
    p90: float

    def as_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "median": self.median, "min": self.minimum,
                "max": self.maximum, "p10": self.p10, "p90": self.p90}
