"""Ratings fitted from a tournament's results: the Bradley-Terry model.

Deck `i` of strength `g_i` beats deck `j` with probability `g_i / (g_i + g_j)` (Zermelo 1929;
Bradley & Terry 1952). The maximum likelihood strengths come from Zermelo's iteration, the MM
algorithm of Hunter (2004, "MM algorithms for generalized Bradley-Terry models", Annals of
Statistics 32(1), eq. 3), finished by Newton's method on the concave log-likelihood. A draw is
half a win to each deck (as in Elo). Each deck also plays one win and one loss against a
virtual deck of strength 1, a weak prior like Coulom's Bayeselo "virtual draws": without it a
clean sweep rates infinite and decks that never met share no scale. Ratings are on Elo's
scale, centred on the decks' mean; the 95% intervals come from the Fisher information at the
estimate (Hunter 2004, section 6; David 1988), each of a centred rating, not of differences.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from deckbuilder.sim.runs.stats import Z95

#: log-strength -> Elo points (400 points: 10 to 1 odds).
ELO_SCALE = 400 / math.log(10)
#: Zermelo's iteration runs until no log-strength moves more than this; Newton's finishes.
NEWTON_FROM = 1e-4
#: The virtual games each deck plays against a deck of strength 1 (half won, half lost).
PRIOR_GAMES = 2.0
METHOD = ("Bradley-Terry model fitted by maximum likelihood (Zermelo's iteration, the MM "
          "algorithm of Hunter 2004, finished by Newton's method), a draw half a win to "
          "each deck, one virtual win and loss per deck against a deck of strength 1 as "
          "a prior; ratings on Elo's scale "
          "(400 log10 strength) centred on the decks' mean; 95% intervals from the Fisher "
          "information (normal approximation)")


@dataclass(frozen=True)
class BradleyTerryFit:
    """Ratings (Elo points, mean 0) with their 95% intervals, one per deck in order."""

    names: tuple[str, ...]
    ratings: tuple[float, ...]
    lows: tuple[float, ...]
    highs: tuple[float, ...]
    iterations: int
    method: str = METHOD

    def expected_score(self, first: int, second: int) -> float:
        """The share of the games between two decks the model expects `first` to win."""
        return expected_share(self.ratings[first] - self.ratings[second])


def expected_share(points: float) -> float:
    """The share of games a deck rated `points` above another wins against it."""
    return 1 / (1 + math.exp(-points / ELO_SCALE))


def fit_bradley_terry(names: Sequence[str],
                      scores: Mapping[tuple[str, str], tuple[float, float]],
                      *, tolerance: float = 1e-10, most_iterations: int = 100_000
                      ) -> BradleyTerryFit:
    """Fit the strengths of `names` from `scores[(a, b)] = (a's score, b's score)`."""
    index = {name: number for number, name in enumerate(names)}
    count = len(names)
    games = [[0.0] * count for _ in range(count)]
    won = [PRIOR_GAMES / 2] * count
    for (first, second), (first_score, second_score) in scores.items():
        a, b = index[first], index[second]
        games[a][b] += first_score + second_score
        games[b][a] += first_score + second_score
        won[a] += first_score
        won[b] += second_score
    strengths = [1.0] * count
    iterations = 0
    while iterations < most_iterations:
        iterations += 1
        updated = []
        for i in range(count):
            denominator = PRIOR_GAMES / (strengths[i] + 1.0) + sum(
                games[i][j] / (strengths[i] + strengths[j]) for j in range(count) if games[i][j])
            updated.append(won[i] / denominator)
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strengths,
                                                                  strict=True))
        strengths = updated
        if change < NEWTON_FROM:
            break
    logs = [math.log(strength) for strength in strengths]
    # Zermelo's iteration creeps the last digits; Newton's steps on the concave log-likelihood
    # take them from this close start at once.
    for _ in range(50):
        step = _matrix_vector(_inverse(_information(logs, games)), _gradient(logs, games, won))
        logs = [value + delta for value, delta in zip(logs, step, strict=True)]
        iterations += 1
        if max(abs(delta) for delta in step) < tolerance:
            break
    covariance = _inverse(_information(logs, games))
    mean = sum(logs) / count
    ratings, lows, highs = [], [], []
    for i in range(count):
        # variance of log_i - mean(logs): c' C c with c = e_i - 1/count
        centre = [(1.0 if j == i else 0.0) - 1 / count for j in range(count)]
        variance = sum(centre[r] * covariance[r][c] * centre[c]
                       for r in range(count) for c in range(count))
        spread = Z95 * math.sqrt(max(variance, 0.0)) * ELO_SCALE
        rating = (logs[i] - mean) * ELO_SCALE
        ratings.append(rating)
        lows.append(rating - spread)
        highs.append(rating + spread)
    return BradleyTerryFit(tuple(names), tuple(ratings), tuple(lows), tuple(highs), iterations)


def _information(logs: Sequence[float], games: Sequence[Sequence[float]]) -> list[list[float]]:
    """The Fisher information of the log-strengths (the prior's games included)."""
    count = len(logs)
    matrix = [[0.0] * count for _ in range(count)]
    for i in range(count):
        prior = 1 / (1 + math.exp(-logs[i]))
        matrix[i][i] += PRIOR_GAMES * prior * (1 - prior)
        for j in range(count):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(logs[j] - logs[i]))
                weight = games[i][j] * p * (1 - p)
                matrix[i][i] += weight
                matrix[i][j] -= weight
    return matrix


def _gradient(logs: Sequence[float], games: Sequence[Sequence[float]],
              won: Sequence[float]) -> list[float]:
    """The log-likelihood's slope in each log-strength: score won minus score expected."""
    count = len(logs)
    slope = []
    for i in range(count):
        expected = PRIOR_GAMES / (1 + math.exp(-logs[i])) + sum(
            games[i][j] / (1 + math.exp(logs[j] - logs[i])) for j in range(count)
            if i != j and games[i][j])
        slope.append(won[i] - expected)
    return slope


def _matrix_vector(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    return [sum(a * b for a, b in zip(row, vector, strict=True)) for row in matrix]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting (a tournament has few decks)."""
    count = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(count)]
            for i, row in enumerate(matrix)]
    for column in range(count):
        pivot = max(range(column, count), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for r in range(count):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [value - factor * top for value, top in zip(rows[r], rows[column],
                                                                      strict=True)]
    return [row[count:] for row in rows]
