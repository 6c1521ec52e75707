"""Swiss pairing keeps every rule: over random score tables (checked against every possible
pairing), and over random tournaments of 3-64 players played with random results."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engines.tournament import (
    BOTH_FORFEIT,
    BYE,
    DRAW,
    FIRST,
    FIRST_FORFEITS,
    FIRST_WINS,
    SECOND,
    SECOND_FORFEITS,
    SECOND_WINS,
    Entrant,
    Player,
    TournamentError,
    is_finished,
    new_tournament,
    pair_next_round,
    pair_swiss,
    ranking,
    record_result,
    withdraw,
)

# ---------------------------------------------------------------- the rules, written out here


def wish(sides: tuple[str, ...]) -> str | None:
    """The side a player wants: the other one than last time."""
    if not sides:
        return None
    return SECOND if sides[-1] == FIRST else FIRST


def cost(ranked: list[Entrant], games: list[tuple[int, int]], bye: int | None) -> tuple[int, ...]:
    """A pairing's faults, worst first: rematches, a second bye, how far up the table the bye
    went (among players with the same bye history), the squared score gaps, side clashes."""
    by_id = {e.id: e for e in ranked}
    rematches = sum(b in by_id[a].opponents for a, b in games)
    gaps = sum(round(2 * abs(by_id[a].points - by_id[b].points)) ** 2 for a, b in games)
    clashes = sum(wish(by_id[a].sides) is not None and wish(by_id[a].sides) == wish(by_id[b].sides) for a, b in games)
    if bye is None:
        return (rematches, 0, 0, gaps, clashes)
    below = ranked[[e.id for e in ranked].index(bye) + 1 :]
    height = sum(other.had_bye == by_id[bye].had_bye for other in below)
    return (rematches, int(by_id[bye].had_bye), height, gaps, clashes)


def every_pairing(ids: list[int]):
    """Every way to pair ``ids`` (None stands for the bye)."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for index, partner in enumerate(rest):
        for more in every_pairing(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *more]


def split(pairs):
    games = [(a, b) for a, b in pairs if a is not None and b is not None]
    bye = next((a if b is None else b for a, b in pairs if None in (a, b)), None)
    return games, bye


@st.composite
def score_tables(draw, most: int = 11):
    """Players best first with random half-point scores, meetings, sides and byes."""
    count = draw(st.integers(2, most))
    ids = list(range(1, count + 1))
    scores = sorted((draw(st.integers(0, 8)) / 2 for _ in ids), reverse=True)
    met = draw(st.sets(st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] < p[1])))
    entrants = []
    for player, score in zip(ids, scores, strict=True):
        opponents = tuple(b if a == player else a for a, b in met if player in (a, b))
        sides = tuple(draw(st.lists(st.sampled_from([FIRST, SECOND]), max_size=4)))
        entrants.append(Entrant(player, score, opponents, sides, draw(st.booleans())))
    return entrants


# ---------------------------------------------------------------- random score tables


@settings(max_examples=150, deadline=None)
@given(ranked=score_tables())
def test_the_pairing_is_the_best_of_every_possible_pairing_by_the_rules_in_order(ranked):
    paired = pair_swiss(ranked)
    ids = [e.id for e in ranked]
    chosen = cost(ranked, [tuple(g) for g in paired.games], paired.bye)
    nodes = ids + ([None] if len(ids) % 2 else [])
    best = min(cost(ranked, *split(pairs)) for pairs in every_pairing(nodes))
    assert chosen == best
    assert sorted([p for g in paired.games for p in g] + ([paired.bye] if paired.bye else [])) == ids
    assert paired.rematches == chosen[0]


@settings(max_examples=100, deadline=None)
@given(ranked=score_tables(most=16))
def test_players_who_can_alternate_do(ranked):
    by_id = {e.id: e for e in ranked}
    for first, second in pair_swiss(ranked).games:
        a, b = wish(by_id[first].sides), wish(by_id[second].sides)
        if a != b:
            assert a in (None, FIRST)
            assert b in (None, SECOND)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), groups=st.lists(st.integers(1, 4), min_size=1, max_size=5))
def test_with_even_score_groups_and_no_history_everyone_meets_an_equal_score(data, groups):
    sizes = [2 * half for half in groups]
    scores = sorted(set(data.draw(st.lists(st.integers(0, 12), min_size=len(sizes), max_size=len(sizes)))))
    assume(len(scores) == len(sizes))
    table = [score / 2 for score, size in zip(sorted(scores, reverse=True), sizes, strict=True) for _ in range(size)]
    ranked = [Entrant(player, score) for player, score in enumerate(table, 1)]
    points = {e.id: e.points for e in ranked}
    paired = pair_swiss(ranked)
    assert paired.bye is None
    assert all(points[a] == points[b] for a, b in paired.games)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 15).filter(lambda n: n % 2), had=st.data())
def test_the_bye_goes_to_the_lowest_ranked_player_without_one_when_nobody_has_met(count, had):
    byes = had.draw(st.lists(st.booleans(), min_size=count, max_size=count))
    assume(not all(byes))
    ranked = [Entrant(player, 0.0, had_bye=bye) for player, bye in zip(range(1, count + 1), byes, strict=True)]
    lowest_without = max((e for e in ranked if not e.had_bye), key=lambda e: e.id)
    assert pair_swiss(ranked).bye == lowest_without.id


def test_when_every_pairing_repeats_a_game_the_fewest_rematches_are_reported():
    # 4 players who have all met: any pairing is two rematches.
    ids = [1, 2, 3, 4]
    ranked = [Entrant(p, 0.0, tuple(o for o in ids if o != p)) for p in ids]
    assert pair_swiss(ranked).rematches == 2
    # 1 and 2 met, 3 and 4 met, 1 and 3 met: 1-4 and 2-3 avoid every rematch.
    met = {1: (2, 3), 2: (1,), 3: (4, 1), 4: (3,)}
    paired = pair_swiss([Entrant(p, 0.0, met[p]) for p in ids])
    assert paired.rematches == 0
    assert {frozenset(g) for g in paired.games} == {frozenset((1, 4)), frozenset((2, 3))}


# ---------------------------------------------------------------- random tournaments


def allowed_graph(pairs_met: set[frozenset[int]], players: list[int], odd: bool) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(players, 2) if frozenset((a, b)) not in pairs_met)
    if odd:
        graph.add_edges_from((p, "bye") for p in players)
    return graph


def fewest_rematches(graph: nx.Graph, without: tuple = ()) -> int:
    """The fewest rematches any pairing of the graph's players needs: every pair the largest
    matching of unplayed pairs leaves out is a rematch."""
    rest = graph.subgraph(n for n in graph if n not in without)
    return (len(rest) // 2) - len(nx.max_weight_matching(rest, maxcardinality=True))


def check_round(before, after) -> None:
    """Every rule of one Swiss round just paired: ``before`` is the tournament it was paired from."""
    new = after.current_round
    active = [p.id for p in before.active]
    seated = [p for pairing in new.pairings for p in pairing.players]
    assert sorted(seated) == sorted(active), "every player still in plays once, nobody withdrawn does"
    byes = [p for p in new.pairings if p.is_bye]
    assert len(byes) == len(active) % 2

    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    sides: dict[int, list[str]] = {p: [] for p in active}
    for round_ in before.rounds:
        for pairing in round_.pairings:
            if pairing.is_bye:
                had_bye.add(pairing.first)
                continue
            met.add(frozenset(pairing.players))
            for player, side in ((pairing.first, FIRST), (pairing.second, SECOND)):
                if player in sides:
                    sides[player].append(side)
    games = [p for p in new.pairings if not p.is_bye]
    for pairing in games:
        assert pairing.rematch == (frozenset(pairing.players) in met)
    graph = allowed_graph(met, active, len(active) % 2 == 1)
    fewest = fewest_rematches(graph)
    assert new.rematches == sum(p.rematch for p in games) == fewest, "no rematch while one is avoidable"

    if byes:  # the lowest-ranked player without a bye who can take it without another rematch
        order = [p for p in ranking(before) if p in active]
        first_byes = [p for p in reversed(order) if p not in had_bye]
        second_byes = [p for p in reversed(order) if p in had_bye]
        taker = next(p for p in first_byes + second_byes if fewest_rematches(graph, (p, "bye")) == fewest)
        assert byes[0].first == taker

    for pairing in games:  # sides alternate where both players can
        a, b = wish(tuple(sides[pairing.first])), wish(tuple(sides[pairing.second]))
        if a != b:
            assert a in (None, FIRST)
            assert b in (None, SECOND)

    points = {p: 0.0 for p in active}
    for round_ in before.rounds:
        for pairing in round_.pairings:
            for player in pairing.players:
                if player in points:
                    points[player] += SCORED[pairing.result][pairing.players.index(player)]
    for one, other in itertools.combinations(games, 2):  # no swap of partners pairs closer scores
        a, b, c, d = one.first, one.second, other.first, other.second
        now = _pair_fault(met, points, sides, (a, b), (c, d))
        for swapped in (((a, c), (b, d)), ((a, d), (b, c))):
            assert now <= _pair_fault(met, points, sides, *swapped)


def _pair_fault(met, points, sides, *pairs) -> tuple[int, int]:
    rematches = sum(frozenset(p) in met for p in pairs)
    gaps = sum(round(2 * abs(points[x] - points[y])) ** 2 for x, y in pairs)
    return (rematches, gaps)


# What each side scores, written out here: win 1, draw 1/2, loss and forfeit 0, a bye 1.
SCORED = {
    FIRST_WINS: (1, 0),
    SECOND_WINS: (0, 1),
    DRAW: (0.5, 0.5),
    FIRST_FORFEITS: (0, 1),
    SECOND_FORFEITS: (1, 0),
    BOTH_FORFEIT: (0, 0),
    BYE: (1,),
}
RESULTS = [FIRST_WINS, SECOND_WINS, DRAW, FIRST_WINS, SECOND_WINS, FIRST_FORFEITS, BOTH_FORFEIT]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(3, 64), seed=st.integers(0, 10**6), withdrawals=st.booleans())
def test_random_tournaments_keep_every_rule_round_after_round(count, seed, withdrawals):
    rng = random.Random(seed)
    rounds = rng.randint(1, min(count - 1, 7))
    players = [Player(1000 + i, f"P{i}", rng.randint(1000, 2000)) for i in range(count)]
    tournament = new_tournament("swiss", players, rounds=rounds)
    while not is_finished(tournament):
        paired = pair_next_round(tournament)
        check_round(tournament, paired)
        tournament = paired
        number = len(tournament.rounds)
        for pairing in tournament.current_round.running():
            tournament = record_result(tournament, number, pairing.table, rng.choice(RESULTS))
        if withdrawals and not is_finished(tournament) and len(tournament.active) > 2 and rng.random() < 0.3:
            tournament = withdraw(tournament, rng.choice(tournament.active).id)
    assert len(tournament.rounds) <= min(rounds, count - 1)


def test_small_fields_play_everyone_once_before_any_rematch():
    for count in range(3, 10):
        rng = random.Random(count)
        tournament = new_tournament("swiss", [Player(i, f"P{i}", rng.random()) for i in range(count)], rounds=count - 1)
        while not is_finished(tournament):
            before, tournament = tournament, pair_next_round(tournament)
            check_round(before, tournament)
            for pairing in tournament.current_round.running():
                tournament = record_result(tournament, len(tournament.rounds), pairing.table, rng.choice(RESULTS))


@pytest.mark.parametrize("rounds", [0, 8])
def test_swiss_rounds_are_capped_at_players_minus_one(rounds):
    with pytest.raises(TournamentError, match="1 to 7 rounds"):
        new_tournament("swiss", [Player(i, f"P{i}") for i in range(8)], rounds=rounds)
