"""Standings: points (win 1, draw 1/2, loss and forfeit 0, a bye 1) and the tie-breaks.

- Swiss: Buchholz (the sum of the opponents' points), then Sonneborn-Berger (the opponents'
  points weighted by what the player scored against each: all of a beaten opponent's, half of a
  drawn one's).
- Round-robin: Sonneborn-Berger, then head-to-head (the points scored in the games between the
  players still tied).
- Knockout: the round a player went out in (later is better); no tie-breaks. A final both
  finalists forfeit has no champion: first place stays empty, the finalists share second (the
  semi-finalists keep third).

A bye counts in points and games, not in the tie-breaks (it has no opponent); a game not played
(still running when the host ended the event) counts nowhere. Players level on
every count share a rank, listed by seed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .knockout import exits, final_forfeited
from .model import KNOCKOUT, NOT_PLAYED, ROUND_ROBIN, SWISS, Pairing, Tournament

TIE_BREAKS = {SWISS: ("Buchholz", "Sonneborn-Berger"), ROUND_ROBIN: ("Sonneborn-Berger", "head-to-head"), KNOCKOUT: ()}
SHORT_NAMES = {"Buchholz": "Bh", "Sonneborn-Berger": "SB", "head-to-head": "H2H"}


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``tie_breaks`` follow ``TIE_BREAKS[format]``; ``games`` counts
    finished pairings, byes included; ``out_in`` (knockout) is the round the player went out in,
    None while still in (or as the winner)."""

    rank: int
    player: int
    name: str
    points: float
    tie_breaks: tuple[float, ...]
    games: int
    withdrawn: bool = False
    out_in: int | None = None


def points(tournament: Tournament) -> dict[int, float]:
    """Every player's points so far."""
    totals = {player.id: 0.0 for player in tournament.players}
    for pairing in _finished(tournament):
        for player in pairing.players:
            totals[player] += pairing.points_of(player)
    return totals


def buchholz(tournament: Tournament, totals: dict[int, float]) -> dict[int, float]:
    sums = {player.id: 0.0 for player in tournament.players}
    for pairing in _games(tournament):
        for player in pairing.players:
            sums[player] += totals[pairing.opponent_of(player)]  # type: ignore[index]
    return sums


def sonneborn_berger(tournament: Tournament, totals: dict[int, float]) -> dict[int, float]:
    sums = {player.id: 0.0 for player in tournament.players}
    for pairing in _games(tournament):
        for player in pairing.players:
            sums[player] += pairing.points_of(player) * totals[pairing.opponent_of(player)]  # type: ignore[index]
    return sums


def head_to_head(tournament: Tournament, group: Iterable[int]) -> dict[int, float]:
    """Points each player of ``group`` scored in the games between them."""
    members = set(group)
    scored = dict.fromkeys(members, 0.0)
    for pairing in _games(tournament):
        if set(pairing.players) <= members:
            for player in pairing.players:
                scored[player] += pairing.points_of(player)
    return scored


def standings(tournament: Tournament) -> tuple[Standing, ...]:
    """The standings now, best first."""
    totals = points(tournament)
    games = _games_counted(tournament)
    keys = _ranking_keys(tournament, totals)
    outs = exits(tournament) if tournament.format == KNOCKOUT else {}
    order = sorted(tournament.players, key=lambda player: (_descending(keys[player.id]), player.seed))
    first = 2 if tournament.format == KNOCKOUT and final_forfeited(tournament) else 1  # no champion: nobody is first
    return tuple(
        Standing(
            rank=max(first, 1 + sum(keys[other.id] > keys[player.id] for other in tournament.players)),
            player=player.id,
            name=player.name,
            points=totals[player.id],
            tie_breaks=_shown_tie_breaks(tournament, keys[player.id]),
            games=games[player.id],
            withdrawn=player.id in tournament.withdrawn,
            out_in=outs.get(player.id),
        )
        for player in order
    )


def ranking(tournament: Tournament) -> list[int]:
    """Player ids best first (points, tie-breaks, then seed): the order Swiss pairs and gives byes in."""
    return [standing.player for standing in standings(tournament)]


# ---------------------------------------------------------------- the keys


def _ranking_keys(tournament: Tournament, totals: dict[int, float]) -> dict[int, tuple[float, ...]]:
    """Per player, what ranks them: higher is better, compared in order."""
    if tournament.format == SWISS:
        bh, sb = buchholz(tournament, totals), sonneborn_berger(tournament, totals)
        return {p: (totals[p], bh[p], sb[p]) for p in totals}
    if tournament.format == ROUND_ROBIN:
        sb = sonneborn_berger(tournament, totals)
        tied: dict[tuple[float, float], list[int]] = defaultdict(list)
        for player in totals:
            tied[totals[player], sb[player]].append(player)
        h2h: dict[int, float] = {}
        for group in tied.values():
            h2h.update(head_to_head(tournament, group))
        return {p: (totals[p], sb[p], h2h[p]) for p in totals}
    outs = exits(tournament)
    last = len(tournament.rounds) + 1  # still in: better than any round gone out in
    return {p: (outs.get(p) or last,) for p in totals}


def _shown_tie_breaks(tournament: Tournament, key: tuple[float, ...]) -> tuple[float, ...]:
    return key[1:] if tournament.format != KNOCKOUT else ()


def _descending(key: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(-value for value in key)


def _finished(tournament: Tournament) -> Iterable[Pairing]:
    """Pairings with a result that counts (not those left unplayed when the host ended the event)."""
    return (p for round_ in tournament.rounds for p in round_.pairings if p.result not in (None, NOT_PLAYED))


def _games(tournament: Tournament) -> Iterable[Pairing]:
    """Finished pairings with an opponent (no byes): what the tie-breaks count."""
    return (p for p in _finished(tournament) if not p.is_bye)


def _games_counted(tournament: Tournament) -> dict[int, int]:
    counts = {player.id: 0 for player in tournament.players}
    for pairing in _finished(tournament):
        for player in pairing.players:
            counts[player] += 1
    return counts
