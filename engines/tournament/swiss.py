"""Swiss pairing as a maximum-weight matching (``networkx.max_weight_matching``), as several online
Swiss systems do, rather than hand-written backtracking.

Every two players are joined by an edge, and with an odd count every player to a *bye*. An
edge's cost counts, in this order, each worth more than everything after it together:

1. a rematch (the two met before): none while any pairing avoids them, else the fewest;
2. a second bye for a player who had one;
3. the bye's distance from the bottom: the lowest-ranked player without a bye takes it;
4. the score gap, squared: equal scores meet where possible, and one big mismatch costs more
   than two small ones;
5. a clash of sides: both players want the same side, so one of them cannot alternate.

The matching of most weight among those pairing everyone (weight = a constant - cost) is the
cheapest pairing by exactly that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import networkx as nx

from .sides import choose_sides, sides_clash

BYE_NODE = "bye"


@dataclass(frozen=True)
class Entrant:
    """A player to pair: ``points`` so far, every opponent met (once per game), the sides they
    had round by round (not counting byes), and whether they had a bye."""

    id: int
    points: float
    opponents: tuple[int, ...] = ()
    sides: tuple[str, ...] = ()
    had_bye: bool = False


@dataclass(frozen=True)
class SwissPairing:
    """``games`` as (first, second), the top table first; ``bye`` the player without a game;
    ``rematches`` how many games repeat an earlier one (0 unless no pairing avoided them)."""

    games: tuple[tuple[int, int], ...]
    bye: int | None
    rematches: int


def pair_swiss(ranked: Sequence[Entrant]) -> SwissPairing:
    """The round's pairing of ``ranked`` (best first: the order byes and tables follow)."""
    if not ranked:
        return SwissPairing((), None, 0)
    graph = nx.Graph()
    costs = _Costs(ranked)
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            graph.add_edge(a.id, b.id, weight=costs.ceiling - costs.game(a, b))
        if len(ranked) % 2:
            graph.add_edge(a.id, BYE_NODE, weight=costs.ceiling - costs.bye(a))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return _tables(ranked, matched)


class _Costs:
    """Each edge's cost as one whole number, the rules weighted in order (integers keep the
    matching exact: networkx then computes in integers only)."""

    def __init__(self, ranked: Sequence[Entrant]) -> None:
        self.ranked = ranked
        self.rank = {entrant.id: index for index, entrant in enumerate(ranked)}
        pairs = len(ranked) // 2 + 1
        widest_gap = 2 * (max(e.points for e in ranked) - min(e.points for e in ranked))  # in half points
        self.clash_unit = 1
        self.score_unit = self.clash_unit * (pairs + 1)
        self.bye_rank_unit = self.score_unit * (pairs * int(widest_gap) ** 2 + 1)
        self.second_bye_unit = self.bye_rank_unit * (len(ranked) + 1)
        self.rematch_unit = self.second_bye_unit * 2
        self.ceiling = self.rematch_unit * (pairs + 1)

    def game(self, a: Entrant, b: Entrant) -> int:
        gap = round(2 * abs(a.points - b.points))
        return (
            self.rematch_unit * (b.id in a.opponents)
            + self.score_unit * gap**2
            + self.clash_unit * sides_clash(a.sides, b.sides)
        )

    def bye(self, a: Entrant) -> int:
        below = self.ranked[self.rank[a.id] + 1 :]
        return self.second_bye_unit * a.had_bye + self.bye_rank_unit * sum(
            other.had_bye == a.had_bye for other in below
        )


def _tables(ranked: Sequence[Entrant], matched: set[tuple[object, object]]) -> SwissPairing:
    rank = {entrant.id: index for index, entrant in enumerate(ranked)}
    by_id = {entrant.id: entrant for entrant in ranked}
    bye = None
    pairs: list[tuple[int, int]] = []
    for a, b in matched:
        if BYE_NODE in (a, b):
            bye = b if a == BYE_NODE else a
        else:
            first, second = sorted((cast(int, a), cast(int, b)), key=rank.__getitem__)  # entrants' nodes: ids
            pairs.append((first, second))
    pairs.sort(key=lambda pair: rank[pair[0]])
    games = []
    for table, (higher, lower) in enumerate(pairs, 1):
        lean = higher if table % 2 else lower  # with nothing to alternate from, the tables take turns
        games.append(choose_sides(higher, lower, by_id[higher].sides, by_id[lower].sides, lean))
    rematches = sum(b in by_id[a].opponents for a, b in games)
    return SwissPairing(tuple(games), bye, rematches)  # type: ignore[arg-type]
