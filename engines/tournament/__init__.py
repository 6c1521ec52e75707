"""Tournaments: Swiss, round-robin (single or double) and knockout events of two-player games,
and Octagion series of races (README's Tournaments says how they run).

Pure data and rules, like the game engines: a :class:`Tournament` is frozen plain data that
dumps to JSON (:func:`dump`, :func:`load`); each step returns a new one or raises a
:class:`TournamentError` whose text a player can read.

    t = new_tournament("swiss", [Player(id, name, rating), ...], rounds=3)
    t = pair_next_round(t)                      # round 1: t.current_round.pairings
    t = record_result(t, 1, table, FIRST_WINS)  # as each game ends (result_from_outcome)
    t = settle_deadline(t)                      # when the round's time is up
    if is_round_complete(t) and not is_finished(t):
        t = pair_next_round(t)
    standings(t), podium(t), winners(t)

The bot starts a game for every pairing with ``result`` None (a knockout's replay of a drawn
game appears in the round when the draw is recorded, ``replay_of`` set); byes and the forfeits of
withdrawn players come already scored.
"""

from .knockout import bracket_order, champion, final_forfeited
from .model import (
    BOTH_FORFEIT,
    BYE,
    DEADLINE,
    DRAW,
    FIRST,
    FIRST_FORFEITS,
    FIRST_WINS,
    FORMAT_NAMES,
    FORMATS,
    KNOCKOUT,
    MIN_PLAYERS,
    NOT_PLAYED,
    POINTS,
    RESULTS,
    ROUND_ROBIN,
    SECOND,
    SECOND_FORFEITS,
    SECOND_WINS,
    SWISS,
    Pairing,
    Player,
    Round,
    Tournament,
    TournamentError,
    dump,
    load,
    new_tournament,
    swiss_rounds,
)
from .play import (
    MIN_TURN_CLOCK,
    end_by_host,
    forget_player,
    is_finished,
    is_round_complete,
    pair_next_round,
    podium,
    record_result,
    result_from_outcome,
    settle_deadline,
    turn_clock,
    winners,
    withdraw,
)
from .round_robin import schedule
from .scoring import SHORT_NAMES, TIE_BREAKS, Standing, ranking, standings
from .series import (
    PLACING,
    SCORE,
    SERIES_SCORING,
    Race,
    RaceEntry,
    Series,
    SeriesStanding,
    dump_series,
    entries_from_outcome,
    forget_in_series,
    is_series_finished,
    load_series,
    new_series,
    race_points,
    record_race,
    series_standings,
    withdraw_from_series,
)
from .sides import choose_sides, side_history, wanted_side
from .swiss import Entrant, SwissPairing, pair_swiss

__all__ = [
    "BOTH_FORFEIT",
    "BYE",
    "DEADLINE",
    "DRAW",
    "FIRST",
    "FIRST_FORFEITS",
    "FIRST_WINS",
    "FORMATS",
    "FORMAT_NAMES",
    "KNOCKOUT",
    "MIN_PLAYERS",
    "MIN_TURN_CLOCK",
    "NOT_PLAYED",
    "PLACING",
    "POINTS",
    "RESULTS",
    "ROUND_ROBIN",
    "SCORE",
    "SECOND",
    "SECOND_FORFEITS",
    "SECOND_WINS",
    "SERIES_SCORING",
    "SHORT_NAMES",
    "SWISS",
    "TIE_BREAKS",
    "Entrant",
    "Pairing",
    "Player",
    "Race",
    "RaceEntry",
    "Round",
    "Series",
    "SeriesStanding",
    "Standing",
    "SwissPairing",
    "Tournament",
    "TournamentError",
    "bracket_order",
    "champion",
    "choose_sides",
    "dump",
    "dump_series",
    "end_by_host",
    "entries_from_outcome",
    "final_forfeited",
    "forget_in_series",
    "forget_player",
    "is_finished",
    "is_round_complete",
    "is_series_finished",
    "load",
    "load_series",
    "new_series",
    "new_tournament",
    "pair_next_round",
    "pair_swiss",
    "podium",
    "race_points",
    "ranking",
    "record_race",
    "record_result",
    "result_from_outcome",
    "schedule",
    "series_standings",
    "settle_deadline",
    "side_history",
    "standings",
    "swiss_rounds",
    "turn_clock",
    "wanted_side",
    "winners",
    "withdraw",
    "withdraw_from_series",
]
