"""Running a tournament: pair a round, record its results, withdraw a player, settle the round
at its deadline, and know when it is over. Every function returns a new tournament (the one it
is given is never changed) or refuses with a :class:`TournamentError` saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engines.base import Outcome

from . import knockout, round_robin
from .model import (
    BYE,
    DEADLINE,
    DRAW,
    FIRST_FORFEITS,
    FIRST_WINS,
    KNOCKOUT,
    NOT_PLAYED,
    RESULTS,
    ROUND_ROBIN,
    SECOND_FORFEITS,
    SECOND_WINS,
    SWISS,
    Pairing,
    Round,
    Tournament,
    TournamentError,
)
from .scoring import points, ranking, standings
from .sides import side_history
from .swiss import Entrant, pair_swiss

# A tournament game's turn clock is never shorter than this (reconstruction: "at least a few minutes").
MIN_TURN_CLOCK = 3 * 60


def is_round_complete(tournament: Tournament) -> bool:
    """Whether the current round has every result in (a knockout's replays included); True before round 1."""
    current = tournament.current_round
    if current is None:
        return True
    if tournament.format == KNOCKOUT:
        return current.complete and knockout.decided(tournament, current)
    return current.complete


def is_finished(tournament: Tournament) -> bool:
    """Whether the tournament is over: its last round complete, a knockout's final decided, or
    (Swiss) fewer than two players left to pair."""
    if tournament.ended_after is not None:
        return True
    if not tournament.rounds or not is_round_complete(tournament):
        return False
    if len(tournament.rounds) >= tournament.rounds_planned:
        return True
    if tournament.format == SWISS:
        return len(tournament.active) < 2
    if tournament.format == KNOCKOUT:
        return len(knockout.pairings(tournament, len(tournament.rounds) + 1)) == 0
    return False


def pair_next_round(tournament: Tournament) -> Tournament:
    """The tournament with its next round paired (byes and forfeits of withdrawn players already scored)."""
    if is_finished(tournament):
        raise TournamentError("The tournament is over: there is no round to pair.")
    current = tournament.current_round
    if current is not None and not is_round_complete(tournament):
        tables = ", ".join(str(p.table) for p in current.running())
        raise TournamentError(f"Round {current.number} is still being played (tables {tables}).")
    number = len(tournament.rounds) + 1
    if tournament.format == SWISS:
        new_round = _swiss_round(tournament, number)
    elif tournament.format == ROUND_ROBIN:
        new_round = Round(number, round_robin.pairings(tournament, number))
    else:
        new_round = Round(number, knockout.pairings(tournament, number))
    return _with_round(tournament, new_round)


def record_result(tournament: Tournament, round_number: int, table: int, result: str) -> Tournament:
    """The tournament with ``result`` (``FIRST_WINS``, ``DRAW``, ``SECOND_FORFEITS`` ...) at
    ``table`` of round ``round_number``. A knockout game drawn for the first time adds its
    replay to the round, sides swapped (a pairing with ``replay_of`` set: a game to start)."""
    round_ = tournament.round(round_number)
    pairing = round_.pairing(table)
    if result not in RESULTS or result == BYE:
        raise TournamentError(f"A game's result is one of {', '.join(r for r in RESULTS if r != BYE)}, not {result!r}.")
    if pairing.is_bye:
        raise TournamentError(f"Table {table} of round {round_number} is a bye: it has no game to record.")
    if pairing.result is not None:
        raise TournamentError(f"Table {table} of round {round_number} already has its result ({pairing.result}).")
    pairings = [_with_result(p, result) if p.table == table else p for p in round_.pairings]
    if tournament.format == KNOCKOUT:
        again = knockout.replay(tournament, round_, _with_result(pairing, result))
        if again is not None:
            pairings.append(again)
    return _with_round(tournament, Round(round_.number, tuple(pairings), round_.rematches), replacing=True)


def settle_deadline(tournament: Tournament) -> Tournament:
    """The round's time is up: every game still running is scored ``DEADLINE`` (a draw; in a
    knockout the higher seed advances, with no replay)."""
    current = tournament.current_round
    if current is None:
        raise TournamentError("No round has been paired yet.")
    pairings = tuple(_with_result(p, DEADLINE) if p.result is None else p for p in current.pairings)
    return _with_round(tournament, Round(current.number, pairings, current.rematches), replacing=True)


def end_by_host(tournament: Tournament) -> Tournament:
    """The host ends the event now (shared/rules, 2026-11-28): games still running are not played
    (no points to either player, in no tie-break), and the standings are final, "ended by the host
    after round N" (``ended_after``: N, the last round with every result; 0 during round 1)."""
    if is_finished(tournament):
        raise TournamentError("The tournament is over: there is nothing to end.")
    complete = len(tournament.rounds) if is_round_complete(tournament) else len(tournament.rounds) - 1
    current = tournament.current_round
    if current is not None:
        pairings = tuple(_with_result(p, NOT_PLAYED) if p.result is None else p for p in current.pairings)
        tournament = _with_round(tournament, Round(current.number, pairings, current.rematches), replacing=True)
    return replace(tournament, ended_after=max(0, complete))


def withdraw(tournament: Tournament, player: int) -> Tournament:
    """``player`` leaves: a game of theirs still running is their forfeit, their later games
    (round-robin, knockout) are forfeits too, and Swiss pairs them no more."""
    name = tournament.name(player)
    if player in tournament.withdrawn:
        raise TournamentError(f"{name} has already withdrawn.")
    if is_finished(tournament):
        raise TournamentError("The tournament is over: there is nothing to withdraw from.")
    withdrawn = replace(tournament, withdrawn=(*tournament.withdrawn, player))
    running = tournament.current_pairing(player)
    if running is None:
        return withdrawn
    lost = FIRST_FORFEITS if running.first == player else SECOND_FORFEITS
    return record_result(withdrawn, len(tournament.rounds), running.table, lost)


def forget_player(tournament: Tournament, player: int, new_id: int, name: str) -> Tournament:
    """The tournament with ``player`` known as ``new_id`` called ``name`` everywhere (a member who
    deleted their data becomes "a former member"); their results and seed stay."""

    def swap(pairing: Pairing) -> Pairing:
        first = new_id if pairing.first == player else pairing.first
        second = new_id if pairing.second == player else pairing.second
        return replace(pairing, first=first, second=second)

    players = tuple(replace(p, id=new_id, name=name) if p.id == player else p for p in tournament.players)
    rounds = tuple(replace(r, pairings=tuple(swap(p) for p in r.pairings)) for r in tournament.rounds)
    withdrawn = tuple(new_id if w == player else w for w in tournament.withdrawn)
    return replace(tournament, players=players, rounds=rounds, withdrawn=withdrawn)


def turn_clock(round_seconds: int, typical_turns: int, minimum: int = MIN_TURN_CLOCK) -> int:
    """Seconds a player has for each turn of a game in a round lasting ``round_seconds``: the
    round's time shared out over a typical game's ``typical_turns`` (both players' turns), so a
    game played at the clock's pace ends in time; at least ``minimum``, at most the round."""
    if round_seconds <= 0 or typical_turns <= 0:
        raise TournamentError("A round needs some time, and a game at least one turn.")
    return min(round_seconds, max(minimum, round_seconds // typical_turns))


def result_from_outcome(outcome: Outcome, first_seat: int = 0) -> str:
    """A two-player game's end as a pairing's result; the pairing's first player sat at
    ``first_seat`` (the seat that moved first in that game)."""
    if outcome.is_draw:
        return DRAW
    first_won = outcome.winners[0] == first_seat
    if outcome.reason == "time forfeit":
        return SECOND_FORFEITS if first_won else FIRST_FORFEITS
    return FIRST_WINS if first_won else SECOND_WINS


def winners(tournament: Tournament) -> tuple[int, ...]:
    """The players ranked first (a knockout's champion; in the others, all who share first place)."""
    if tournament.format == KNOCKOUT:
        champion = knockout.champion(tournament)
        return () if champion is None else (champion,)
    return tuple(row.player for row in standings(tournament) if row.rank == 1)


def podium(tournament: Tournament) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The top three places once the tournament is over: (rank, players) for ranks 1 to 3."""
    if not is_finished(tournament):
        return ()
    rows = standings(tournament)
    ranks = sorted({row.rank for row in rows if row.rank <= 3})
    return tuple((rank, tuple(row.player for row in rows if row.rank == rank)) for rank in ranks)


# ---------------------------------------------------------------- inside


def _swiss_round(tournament: Tournament, number: int) -> Round:
    totals = points(tournament)
    active = {player.id for player in tournament.active}
    ranked = [_entrant(tournament, player, totals[player]) for player in ranking(tournament) if player in active]
    paired = pair_swiss(ranked)
    met = {player.id: set(player.opponents) for player in ranked}
    games = [
        Pairing(table, first, second, rematch=second in met[first])
        for table, (first, second) in enumerate(paired.games, 1)
    ]
    if paired.bye is not None:
        games.append(Pairing(len(games) + 1, paired.bye, None, BYE))
    return Round(number, tuple(games), paired.rematches)


def _entrant(tournament: Tournament, player: int, scored: float) -> Entrant:
    games = [pairing for _, pairing in tournament.games_of(player)]
    return Entrant(
        id=player,
        points=scored,
        opponents=tuple(p.opponent_of(player) for p in games if not p.is_bye),  # type: ignore[misc]
        sides=tuple(side_history(tournament, player)),
        had_bye=any(p.is_bye for p in games),
    )


def _with_result(pairing: Pairing, result: str) -> Pairing:
    return replace(pairing, result=result)


def _with_round(tournament: Tournament, new_round: Round, *, replacing: bool = False) -> Tournament:
    kept: Sequence[Round] = tournament.rounds[:-1] if replacing else tournament.rounds
    return replace(tournament, rounds=(*kept, new_round))
