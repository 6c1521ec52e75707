"""Tournaments: round-robin schedules, knockout brackets, standings against a computation written
here, withdrawals, the round deadline, the turn clock, storage, refusals and Octagion series."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import Outcome
from engines.tournament import (
    BOTH_FORFEIT,
    BYE,
    DEADLINE,
    DRAW,
    FIRST_FORFEITS,
    FIRST_WINS,
    PLACING,
    SCORE,
    SECOND_FORFEITS,
    SECOND_WINS,
    Player,
    RaceEntry,
    TournamentError,
    bracket_order,
    champion,
    dump,
    dump_series,
    is_finished,
    is_round_complete,
    is_series_finished,
    load,
    load_series,
    new_series,
    new_tournament,
    pair_next_round,
    podium,
    record_race,
    record_result,
    result_from_outcome,
    series_standings,
    settle_deadline,
    standings,
    turn_clock,
    winners,
    withdraw,
)

# What each side scores, written out here: win 1, draw 1/2, loss and forfeit 0, a bye 1.
SCORED = {
    FIRST_WINS: (1, 0),
    SECOND_WINS: (0, 1),
    DRAW: (0.5, 0.5),
    DEADLINE: (0.5, 0.5),
    FIRST_FORFEITS: (0, 1),
    SECOND_FORFEITS: (1, 0),
    BOTH_FORFEIT: (0, 0),
}
GAME_RESULTS = [FIRST_WINS, SECOND_WINS, DRAW, FIRST_FORFEITS, SECOND_FORFEITS, BOTH_FORFEIT]


def field(count: int, rng: random.Random | None = None) -> list[Player]:
    rng = rng or random.Random(count)
    return [Player(100 + i, f"Player {i}", rng.randint(1000, 2000)) for i in range(count)]


def play_round(tournament, rng: random.Random, results=GAME_RESULTS):
    number = len(tournament.rounds)
    while not is_round_complete(tournament):
        pairing = tournament.current_round.running()[0]
        tournament = record_result(tournament, number, pairing.table, rng.choice(results))
    return tournament


def play_out(tournament, rng: random.Random, results=GAME_RESULTS):
    tournament = play_round(tournament, rng, results)  # the round under way first
    while not is_finished(tournament):
        tournament = play_round(pair_next_round(tournament), rng, results)
    return tournament


# ---------------------------------------------------------------- standings, computed here


def games_played(tournament):
    """(player, opponent or None for a bye, points scored) for every finished pairing."""
    for round_ in tournament.rounds:
        for p in round_.pairings:
            if p.result == BYE:
                yield p.first, None, 1
            elif p.result is not None:
                first, second = SCORED[p.result]
                yield p.first, p.second, first
                yield p.second, p.first, second


def expected_standings(tournament) -> list[tuple[int, float, tuple[float, ...], int]]:
    """(player, points, tie-breaks, games) best first, from the rules: points, then Buchholz and
    Sonneborn-Berger (Swiss) or Sonneborn-Berger and head-to-head among those still level (round-robin)."""
    points = defaultdict(float)
    count = Counter()
    for player, _, scored in games_played(tournament):
        points[player] += scored
        count[player] += 1
    buchholz, sb = defaultdict(float), defaultdict(float)
    for player, opponent, scored in games_played(tournament):
        if opponent is not None:
            buchholz[player] += points[opponent]
            sb[player] += scored * points[opponent]
    ids = [p.id for p in tournament.players]
    if tournament.format == "swiss":
        keys = {p: (points[p], buchholz[p], sb[p]) for p in ids}
    else:
        keys = {}
        for p in ids:
            level = {q for q in ids if (points[q], sb[q]) == (points[p], sb[p])}
            h2h = sum(s for who, opp, s in games_played(tournament) if who == p and opp in level)
            keys[p] = (points[p], sb[p], h2h)
    seed = {p.id: p.seed for p in tournament.players}
    order = sorted(ids, key=lambda p: (tuple(-k for k in keys[p]), seed[p]))
    return [(p, keys[p][0], keys[p][1:], count[p]) for p in order]


def check_standings(tournament) -> None:
    rows = standings(tournament)
    assert [(r.player, r.points, r.tie_breaks, r.games) for r in rows] == expected_standings(tournament)
    for row in rows:  # a shared rank only for players level on everything
        better = [other for other in rows if (other.points, *other.tie_breaks) > (row.points, *row.tie_breaks)]
        assert row.rank == len(better) + 1


def test_an_eight_player_swiss_of_three_rounds_played_to_the_end():
    rng = random.Random(8)
    tournament = new_tournament("swiss", field(8, rng), rounds=3)
    met = set()
    for number in range(1, 4):
        tournament = pair_next_round(tournament)
        assert len(tournament.current_round.pairings) == 4
        for pairing in tournament.current_round.pairings:
            assert frozenset(pairing.players) not in met, "no rematch in three rounds of eight players"
            met.add(frozenset(pairing.players))
        tournament = play_round(tournament, rng)
        check_standings(tournament)
        assert all(row.games == number for row in standings(tournament))
    assert is_finished(tournament)
    with pytest.raises(TournamentError, match="over"):
        pair_next_round(tournament)
    top = standings(tournament)[0]
    assert top.player in winners(tournament)
    assert podium(tournament)[0] == (1, winners(tournament))


@settings(max_examples=30, deadline=None)
@given(count=st.integers(3, 20), seed=st.integers(0, 10**6), format=st.sampled_from(["swiss", "round_robin"]))
def test_standings_match_a_computation_from_the_rules(count, seed, format):
    rng = random.Random(seed)
    tournament = new_tournament(
        format, field(count, rng), **({"rounds": min(count - 1, 5)} if format == "swiss" else {})
    )
    tournament = play_out(tournament, rng)
    check_standings(tournament)


def test_head_to_head_separates_round_robin_players_level_on_points_and_sonneborn_berger():
    players = [Player(i, name, 2000 - i) for i, name in enumerate(["Ada", "Bo", "Cy", "Di"], 1)]
    # What the lower id of each pair scores: Ada and Bo end level on points (1.5) and on
    # Sonneborn-Berger (2), and Bo beat Ada, so Bo ranks above her though seeded below.
    lower_scores = {(1, 2): 0, (1, 3): 0.5, (1, 4): 1, (2, 3): 0, (2, 4): 0.5, (3, 4): 0.5}
    tournament = new_tournament("round_robin", players)
    while not is_finished(tournament):
        tournament = pair_next_round(tournament)
        for pairing in tournament.current_round.running():
            lower = lower_scores[tuple(sorted(pairing.players))]
            first_scores = lower if pairing.first < pairing.second else 1 - lower
            result = {1: FIRST_WINS, 0: SECOND_WINS, 0.5: DRAW}[first_scores]
            tournament = record_result(tournament, len(tournament.rounds), pairing.table, result)
    rows = {row.player: row for row in standings(tournament)}
    assert (rows[1].points, rows[1].tie_breaks[0]) == (rows[2].points, rows[2].tie_breaks[0])
    assert rows[2].tie_breaks[1] > rows[1].tie_breaks[1]
    assert rows[2].rank < rows[1].rank
    check_standings(tournament)


# ---------------------------------------------------------------- round-robin


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 20), double=st.booleans())
def test_round_robin_everyone_meets_everyone_once_or_twice_with_sides_balanced(count, double):
    tournament = new_tournament("round_robin", field(count), double=double)
    tournament = play_out(tournament, random.Random(count), [FIRST_WINS])
    meetings = Counter()
    sides = defaultdict(list)
    byes = Counter()
    for round_ in tournament.rounds:
        seated = [p for pairing in round_.pairings for p in pairing.players]
        assert sorted(seated) == sorted(p.id for p in tournament.players), "everyone once a round"
        for pairing in round_.pairings:
            if pairing.is_bye:
                byes[pairing.first] += 1
                continue
            meetings[(pairing.first, pairing.second)] += 1
            sides[pairing.first].append("first")
            sides[pairing.second].append("second")
    for a, b in itertools.combinations([p.id for p in tournament.players], 2):
        assert meetings[(a, b)] + meetings[(b, a)] == (2 if double else 1)
        if double:
            assert meetings[(a, b)] == meetings[(b, a)] == 1, "the second meeting swaps the sides"
    assert sum(byes.values()) == (count % 2) * len(tournament.rounds)
    assert set(byes.values()) <= {2 if double else 1}
    for history in sides.values():
        firsts, seconds = history.count("first"), history.count("second")
        assert firsts == seconds if double else abs(firsts - seconds) <= 1
        once = history[: len(history) // (2 if double else 1)]
        repeats = sum(a == b for a, b in itertools.pairwise(once))
        assert repeats <= 1, "the first player alternates, but for at most one repeat"
    assert len(tournament.rounds) == (count - 1 + count % 2) * (2 if double else 1)


def test_a_round_robin_withdrawal_forfeits_every_remaining_game():
    tournament = pair_next_round(new_tournament("round_robin", field(6)))
    leaver = tournament.current_round.pairings[0].first
    tournament = withdraw(tournament, leaver)
    assert tournament.current_round.pairings[0].result == FIRST_FORFEITS
    tournament = play_out(tournament, random.Random(1))
    for round_ in tournament.rounds[1:]:
        (game,) = [p for p in round_.pairings if leaver in p.players]
        assert game.result == (FIRST_FORFEITS if game.first == leaver else SECOND_FORFEITS)
    assert next(row for row in standings(tournament) if row.player == leaver).points == 0


# ---------------------------------------------------------------- knockout


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_the_bracket_keeps_the_top_seeds_apart_until_the_end(size):
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2)), "1 v n, 2 v n-1 ..."
    half = size // 2
    sections = 2
    while sections <= size:  # the top k seeds sit in k different sections of the bracket
        width = size // sections
        assert len({order.index(seed) // width for seed in range(1, sections + 1)}) == sections
        sections *= 2
    assert order.index(1) < half <= order.index(2)


def knockout_of(count: int):
    players = [Player(i, f"Seed {i}", 3000 - i) for i in range(1, count + 1)]  # ids are the seeds
    return new_tournament("knockout", players)


def test_a_six_player_knockout_with_byes_a_replayed_draw_and_the_deadline():
    tournament = pair_next_round(knockout_of(6))
    round1 = tournament.current_round
    byes = sorted(p.first for p in round1.pairings if p.is_bye)
    assert byes == [1, 2], "byes go to the top seeds"
    games = {frozenset(p.players): p for p in round1.pairings if not p.is_bye}
    assert set(games) == {frozenset((4, 5)), frozenset((3, 6))}

    drawn = games[frozenset((4, 5))]
    tournament = record_result(tournament, 1, drawn.table, DRAW)
    replay = tournament.current_round.pairings[-1]
    assert replay.replay_of == drawn.table
    assert (replay.first, replay.second) == (drawn.second, drawn.first), "replayed with sides swapped"
    assert not is_round_complete(tournament)
    tournament = record_result(tournament, 1, replay.table, DRAW)  # drawn again: the higher seed, 4
    other = games[frozenset((3, 6))]
    tournament = record_result(tournament, 1, other.table, FIRST_WINS if other.first == 6 else SECOND_WINS)
    assert is_round_complete(tournament)
    assert len([p for p in tournament.current_round.pairings if p.replay_of]) == 1, "replayed once only"

    tournament = pair_next_round(tournament)
    assert {frozenset(p.players) for p in tournament.current_round.pairings} == {frozenset((1, 4)), frozenset((2, 6))}
    tournament = settle_deadline(tournament)  # unfinished at the deadline: the higher seeds go through
    assert all(p.result == DEADLINE for p in tournament.current_round.pairings)
    assert is_round_complete(tournament), "no replay after the deadline"

    tournament = pair_next_round(tournament)
    (final,) = tournament.current_round.pairings
    assert set(final.players) == {1, 2}
    tournament = record_result(tournament, 3, final.table, FIRST_WINS if final.first == 2 else SECOND_WINS)
    assert is_finished(tournament)
    assert champion(tournament) == 2
    ranks = {row.player: row.rank for row in standings(tournament)}
    assert ranks == {2: 1, 1: 2, 4: 3, 6: 3, 5: 5, 3: 5}
    assert podium(tournament) == ((1, (2,)), (2, (1,)), (3, (4, 6)))


@settings(max_examples=30, deadline=None)
@given(count=st.integers(3, 40), seed=st.integers(0, 10**6))
def test_random_knockouts_halve_the_field_each_round_to_one_champion(count, seed):
    rng = random.Random(seed)
    tournament = knockout_of(count)
    alive = set(range(1, count + 1))
    while not is_finished(tournament):
        tournament = play_round(pair_next_round(tournament), rng, [FIRST_WINS, SECOND_WINS, DRAW, DEADLINE])
        round_ = tournament.current_round
        seated = [p for pairing in round_.pairings if pairing.replay_of is None for p in pairing.players]
        assert set(seated) == alive
        losers = {row.player for row in standings(tournament) if row.out_in == round_.number}
        alive -= losers
        assert len(alive) == (1 << (tournament.rounds_planned - round_.number)) or len(alive) == 1
    assert alive == {champion(tournament)}
    assert len(tournament.rounds) == (count - 1).bit_length()


def test_a_knockout_withdrawal_sends_the_opponent_through():
    tournament = pair_next_round(knockout_of(4))
    game = tournament.current_round.pairings[0]
    tournament = withdraw(tournament, game.first)
    assert tournament.current_round.pairing(game.table).result == FIRST_FORFEITS
    tournament = play_round(tournament, random.Random(0), [FIRST_WINS])
    tournament = pair_next_round(tournament)
    assert game.second in tournament.current_round.pairings[0].players


# ---------------------------------------------------------------- the round, the clock, results


def test_the_deadline_scores_every_running_swiss_game_a_draw_and_keeps_finished_ones():
    tournament = pair_next_round(new_tournament("swiss", field(7), rounds=3))
    first = tournament.current_round.pairings[0]
    tournament = settle_deadline(record_result(tournament, 1, first.table, FIRST_WINS))
    results = [p.result for p in tournament.current_round.pairings]
    assert results[0] == FIRST_WINS
    assert results[-1] == BYE
    assert set(results[1:-1]) == {DEADLINE}
    points = {row.player: row.points for row in standings(tournament)}
    assert all(points[p] == 0.5 for pairing in tournament.current_round.pairings[1:-1] for p in pairing.players)


def test_a_swiss_withdrawal_forfeits_the_running_game_and_ends_the_pairings():
    tournament = pair_next_round(new_tournament("swiss", field(6), rounds=4))
    game = tournament.current_round.pairings[1]
    tournament = withdraw(tournament, game.second)
    assert tournament.current_round.pairing(game.table).result == SECOND_FORFEITS
    with pytest.raises(TournamentError, match="already withdrawn"):
        withdraw(tournament, game.second)
    tournament = play_out(tournament, random.Random(2))
    assert all(game.second not in p.players for r in tournament.rounds[1:] for p in r.pairings)


@given(round_seconds=st.integers(1, 10**7), turns=st.integers(1, 500))
def test_the_turn_clock_shares_the_round_over_a_typical_game_but_never_below_a_few_minutes(round_seconds, turns):
    clock = turn_clock(round_seconds, turns)
    assert clock <= round_seconds
    assert clock >= min(round_seconds, 180)
    if round_seconds // turns >= 180:
        assert clock == round_seconds // turns
        assert clock * turns <= round_seconds, "a game played at the clock's pace ends in the round"


@pytest.mark.parametrize(
    ("ranks", "reason", "result"),
    [
        ((1, 2), "resignation", FIRST_WINS),
        ((2, 1), "checkmate", SECOND_WINS),
        ((1, 1), "agreement", DRAW),
        ((2, 1), "time forfeit", FIRST_FORFEITS),
        ((1, 2), "time forfeit", SECOND_FORFEITS),
    ],
)
def test_a_game_outcome_becomes_the_pairings_result(ranks, reason, result):
    assert result_from_outcome(Outcome(ranks, (0.0, 0.0), reason)) == result


def test_a_tournament_dumps_to_json_and_loads_back_at_every_step():
    rng = random.Random(3)
    for format in ("swiss", "round_robin", "knockout"):
        tournament = new_tournament(format, field(7, rng))
        while not is_finished(tournament):
            tournament = pair_next_round(tournament)
            assert load(json.loads(json.dumps(dump(tournament)))) == tournament
            tournament = play_round(tournament, rng)
        assert load(json.loads(json.dumps(dump(tournament)))) == tournament


def test_refusals_explain_themselves():
    with pytest.raises(TournamentError, match="at least 3 players"):
        new_tournament("swiss", field(2))
    with pytest.raises(TournamentError, match="only once"):
        new_tournament("swiss", [Player(1, "Ada"), Player(1, "Ada"), Player(2, "Bo")])
    with pytest.raises(TournamentError, match="Swiss, round-robin or knockout"):
        new_tournament("arena", field(4))
    with pytest.raises(TournamentError, match="Only a round-robin"):
        new_tournament("swiss", field(4), double=True)
    tournament = pair_next_round(new_tournament("swiss", field(5), rounds=2))
    game, bye = tournament.current_round.pairings[0], tournament.current_round.pairings[-1]
    with pytest.raises(TournamentError, match="still being played"):
        pair_next_round(tournament)
    with pytest.raises(TournamentError, match="is a bye"):
        record_result(tournament, 1, bye.table, FIRST_WINS)
    with pytest.raises(TournamentError, match="not 'won'"):
        record_result(tournament, 1, game.table, "won")
    with pytest.raises(TournamentError, match="no table 9"):
        record_result(tournament, 1, 9, FIRST_WINS)
    done = record_result(tournament, 1, game.table, FIRST_WINS)
    with pytest.raises(TournamentError, match="already has its result"):
        record_result(done, 1, game.table, DRAW)
    with pytest.raises(TournamentError, match="not in this tournament"):
        withdraw(tournament, 999)
    finished = play_round(pair_next_round(play_round(tournament, random.Random(0))), random.Random(0))
    with pytest.raises(TournamentError, match="already has its result"):
        record_result(finished, 1, game.table, DRAW)


# ---------------------------------------------------------------- Octagion series


def race_order(rng: random.Random, players: list[int]) -> list[RaceEntry]:
    scores = {p: rng.randint(0, 6) * 5 for p in players}
    return [RaceEntry(p, 1 + sum(s > scores[p] for s in scores.values()), scores[p]) for p in players]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), races=st.integers(1, 6), scoring=st.sampled_from([PLACING, SCORE]))
def test_a_four_member_series_stands_after_each_race_as_its_points_add_up(seed, races, scoring):
    rng = random.Random(seed)
    members = [Player(i, name) for i, name in enumerate(["Ada", "Bo", "Cy", "Di"], 1)]
    series = new_series(members, races, scoring)
    totals = Counter()
    for _ in range(races):
        assert not is_series_finished(series)
        entries = race_order(rng, [1, 2, 3, 4])
        series = record_race(series, entries)
        for entry in entries:
            if scoring == SCORE:
                totals[entry.player] += entry.score
            else:  # 4 points for first ... 1 for last, places shared share their points
                level = [e for e in entries if e.place == entry.place]
                totals[entry.player] += sum(4 - (entry.place - 1 + k) for k in range(len(level))) / len(level)
        rows = series_standings(series)
        assert {row.player: row.points for row in rows} == {p: float(totals[p]) for p in (1, 2, 3, 4)}
        assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
        assert all(row.races == len(series.races) for row in rows)
    assert is_series_finished(series)
    assert load_series(json.loads(json.dumps(dump_series(series)))) == series
    with pytest.raises(TournamentError, match="series is over"):
        record_race(series, race_order(rng, [1, 2, 3, 4]))


def test_a_race_with_a_stranger_or_a_player_twice_is_refused():
    series = new_series([Player(i, f"P{i}") for i in range(1, 4)], 2)
    with pytest.raises(TournamentError, match="only once"):
        record_race(series, [RaceEntry(1, 1, 10), RaceEntry(1, 2, 5)])
    with pytest.raises(TournamentError, match="Only the series' players"):
        record_race(series, [RaceEntry(9, 1, 10)])


@settings(max_examples=20, deadline=None)
@given(count=st.integers(3, 12), seed=st.integers(0, 1000))
def test_byes_score_one_and_only_an_odd_field_has_them(count, seed):
    tournament = play_out(new_tournament("swiss", field(count), rounds=min(3, count - 1)), random.Random(seed))
    byes = [p for r in tournament.rounds for p in r.pairings if p.is_bye]
    assert len(byes) == (count % 2) * len(tournament.rounds)
    assert len({p.first for p in byes}) == len(byes), "nobody has a second bye while others have none"
    assert all(p.points_of(p.first) == 1 for p in byes)
