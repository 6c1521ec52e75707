"""Knockout: a bracket seeded by rating, in the standard order (1 v 16, 8 v 9, ...), so the top
seeds meet as late as possible; byes go to the top seeds when the count is not a power of two.

Table ``t`` of a round is match ``t`` of the bracket; its winner meets the winner of its
neighbour (tables 1 and 2, 3 and 4 ...) in the next round. A drawn game is replayed once with the
sides swapped (a pairing of its own, at a table after the bracket's: the round's match count plus
the table it replays, so it is never read as a match whose players both withdrew), then the higher seed
advances; a game still running at the round's deadline sends the higher seed through at once.
Both players forfeiting sends nobody through: the next opponent advances unopposed; in the final,
nobody is champion and both finalists share second place.
"""

from __future__ import annotations

from .model import (
    BOTH_FORFEIT,
    BYE,
    DEADLINE,
    DRAW,
    FIRST_FORFEITS,
    FIRST_WINS,
    NOT_PLAYED,
    SECOND_FORFEITS,
    SECOND_WINS,
    Pairing,
    Round,
    Tournament,
)
from .sides import choose_sides, side_history


class Undecided(Exception):
    """A match whose winner is not known yet."""


def bracket_order(size: int) -> list[int]:
    """Seeds 1..``size`` (a power of two) in bracket order: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        width = 2 * len(order)
        order = [seed for top in order for seed in (top, width + 1 - top)]
    return order


def bracket_size(tournament: Tournament) -> int:
    size: int = 2**tournament.rounds_planned
    return size


def entrants(tournament: Tournament, number: int) -> list[int | None]:
    """Who stands in each slot of round ``number``'s bracket (None: nobody), two slots a table.
    Round 1's come from the seeds; a later round's are the winners of the round before."""
    if number == 1:
        by_seed = {player.seed: player.id for player in tournament.players}
        return [by_seed.get(seed) for seed in bracket_order(bracket_size(tournament))]
    before = tournament.round(number - 1)
    return [match_winner(tournament, before, table) for table in range(1, len(_tables(tournament, number - 1)) + 1)]


def pairings(tournament: Tournament, number: int) -> tuple[Pairing, ...]:
    """Round ``number``'s pairings: a game per two filled slots (the higher seed leaning first), a
    bye for a slot without an opponent, a forfeit already scored against a withdrawn player."""
    slots = entrants(tournament, number)
    made = []
    for table in range(1, len(slots) // 2 + 1):
        pair = [slots[2 * table - 2], slots[2 * table - 1]]
        present = [p for p in pair if p is not None and p not in tournament.withdrawn]
        withdrawn = [p for p in pair if p is not None and p in tournament.withdrawn]
        if len(present) == 2:
            made.append(_game(tournament, table, present[0], present[1]))
        elif present and withdrawn:
            first, second = _sides(tournament, present[0], withdrawn[0])
            made.append(Pairing(table, first, second, FIRST_FORFEITS if first == withdrawn[0] else SECOND_FORFEITS))
        elif present:
            made.append(Pairing(table, present[0], None, BYE))
    return tuple(made)


def replay(tournament: Tournament, round_: Round, drawn: Pairing) -> Pairing | None:
    """The replay a drawn game needs (sides swapped), or None when it was a replay itself."""
    if drawn.replay_of is not None or drawn.result != DRAW:
        return None
    table = len(_tables(tournament, round_.number)) + drawn.table  # never a bracket match's number
    return Pairing(table, drawn.second, drawn.first, replay_of=drawn.table)  # type: ignore[arg-type]


def match_winner(tournament: Tournament, round_: Round, table: int) -> int | None:
    """Who goes through from bracket match ``table`` (None: nobody, or no match was there);
    :class:`Undecided` while its games are still running."""
    game = next((p for p in round_.pairings if p.table == table), None)
    if game is None:
        return None
    if game.result == DRAW:
        again = next((p for p in round_.pairings if p.replay_of == table), None)
        if again is None:
            raise Undecided(table)
        game = again
    return _winner(tournament, game)


def exits(tournament: Tournament) -> dict[int, int]:
    """The round each player went out in (by a loss, a forfeit or withdrawing); the rest are still in."""
    out: dict[int, int] = {}
    for round_ in tournament.rounds:
        for table in range(1, len(_tables(tournament, round_.number)) + 1):
            game = next((p for p in round_.pairings if p.table == table), None)
            if game is None:
                continue
            try:
                winner = match_winner(tournament, round_, table)
            except Undecided:
                continue
            for player in game.players:
                if player != winner:
                    out.setdefault(player, round_.number)
    for player in tournament.withdrawn:
        out.setdefault(player, max(1, len(tournament.rounds)))
    return out


def champion(tournament: Tournament) -> int | None:
    """The winner, once the final is decided."""
    if len(tournament.rounds) < tournament.rounds_planned:
        return None
    try:
        return match_winner(tournament, tournament.rounds[-1], 1)
    except Undecided:
        return None


def final_forfeited(tournament: Tournament) -> bool:
    """Whether the final was played and nobody won it (both finalists forfeited): no champion,
    and both finalists share second place (shared/rules, 2026-11-28)."""
    if not tournament.rounds or len(tournament.rounds) < tournament.rounds_planned:
        return False
    final = tournament.rounds[-1]
    game = next((p for p in final.pairings if p.table == 1), None)
    if game is None or game.is_bye:
        return False
    try:
        return match_winner(tournament, final, 1) is None
    except Undecided:
        return False


def decided(tournament: Tournament, round_: Round) -> bool:
    """Whether every match of the round has its winner (replays included)."""
    try:
        for table in range(1, len(_tables(tournament, round_.number)) + 1):
            match_winner(tournament, round_, table)
    except Undecided:
        return False
    return True


# ---------------------------------------------------------------- inside


def _tables(tournament: Tournament, number: int) -> range:
    return range(bracket_size(tournament) >> number)


def _winner(tournament: Tournament, game: Pairing) -> int | None:
    result = game.result
    if result is None or result == NOT_PLAYED:  # not played (the host ended the event): nobody went out
        raise Undecided(game.table)
    if result in (FIRST_WINS, SECOND_FORFEITS, BYE):
        return game.first
    if result in (SECOND_WINS, FIRST_FORFEITS):
        return game.second
    if result == BOTH_FORFEIT:
        return None
    assert result in (DRAW, DEADLINE), result  # a drawn replay, or the deadline: the higher seed
    return min(game.players, key=tournament.seed)


def _game(tournament: Tournament, table: int, a: int, b: int) -> Pairing:
    first, second = _sides(tournament, a, b)
    return Pairing(table, first, second)


def _sides(tournament: Tournament, a: int, b: int) -> tuple[int, int]:
    higher = min((a, b), key=tournament.seed)
    return choose_sides(a, b, side_history(tournament, a), side_history(tournament, b), higher)
