"""A puzzle rating: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), as lichess
rates puzzles. Each solve or miss is one game against the puzzle, whose rating is fixed by the
set (:data:`engines.puzzles.RATINGS`) with a small deviation. Pure arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's factor between its scale and the rating's
TAU = 0.5  # how much the volatility may change (Glickman suggests 0.3 to 1.2)
PUZZLE_DEVIATION = 80.0  # a puzzle's rating is known well enough (it is not rated by play here)
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0  # a new member's rating is uncertain: it moves fast at first
    volatility: float = 0.06

    def shown(self) -> str:
        return f"{round(self.rating)} ± {round(2 * self.deviation)}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)


def update(player: Rating, opponent: float, solved: bool, opponent_deviation: float = PUZZLE_DEVIATION) -> Rating:
    """The player's rating after one puzzle of rating ``opponent``: solved (a win) or missed."""
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.deviation / SCALE, player.volatility
    mu_j, phi_j = (opponent - 1500.0) / SCALE, opponent_deviation / SCALE
    g = _g(phi_j)
    e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
    v = 1.0 / (g * g * e * (1.0 - e))
    delta = v * g * ((1.0 if solved else 0.0) - e)
    sigma = _volatility(delta, phi, v, sigma)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * g * ((1.0 if solved else 0.0) - e)
    return Rating(1500.0 + SCALE * mu_new, SCALE * phi_new, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)
