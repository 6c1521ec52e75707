"""Who moves first: each player alternates from their last game where both players can.

A player *wants* the side they did not have last time (nothing before their first game). When
the two want different sides (or one wants nothing) both get their wish; when both want the
same side, it goes to the one further behind on it (more games on the other side), then to
``lean_first``. With no wishes at all, ``lean_first`` moves first.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import FIRST, SECOND, Tournament


def side_history(tournament: Tournament, player: int) -> list[str]:
    """The sides ``player`` had, round by round (games against an opponent only, not byes)."""
    return [pairing.side_of(player) for _, pairing in tournament.games_of(player) if not pairing.is_bye]


def wanted_side(history: Sequence[str]) -> str | None:
    if not history:
        return None
    return SECOND if history[-1] == FIRST else FIRST


def sides_clash(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two players both want the same side: one of them cannot alternate."""
    want = wanted_side(a)
    return want is not None and want == wanted_side(b)


def choose_sides(
    a: int, b: int, history_a: Sequence[str], history_b: Sequence[str], lean_first: int
) -> tuple[int, int]:
    """(first, second) of ``a`` and ``b``; ``lean_first`` (one of them) moves first when nothing else decides."""
    want_a, want_b = wanted_side(history_a), wanted_side(history_b)
    if want_a is None and want_b is None:
        first = lean_first
    elif want_a != want_b:
        first = a if want_a == FIRST or (want_a is None and want_b == SECOND) else b
    else:
        need_a, need_b = _behind_on(history_a, want_a), _behind_on(history_b, want_b)  # type: ignore[arg-type]
        winner = a if need_a > need_b else b if need_b > need_a else lean_first
        first = winner if want_a == FIRST else (b if winner == a else a)
    return (first, b if first == a else a)


def _behind_on(history: Sequence[str], side: str) -> int:
    """How many more games ``history`` has on the other side than on ``side``."""
    return sum(1 if had != side else -1 for had in history)
