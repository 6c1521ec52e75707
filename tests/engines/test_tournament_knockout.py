"""Knockouts driven to the end by random play (3 to 64 players, withdrawals, draws and their
replays, double forfeits, the round's deadline): every event finishes, nobody meets themselves,
and the points and games counted are those of the games played; plus the reproductions of
issue 36 (a replay numbered as a bracket match) and the final both finalists forfeit."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.tournament import (
    BOTH_FORFEIT,
    BYE,
    DRAW,
    FIRST_FORFEITS,
    FIRST_WINS,
    KNOCKOUT,
    SECOND_FORFEITS,
    SECOND_WINS,
    Player,
    champion,
    is_finished,
    is_round_complete,
    new_tournament,
    pair_next_round,
    podium,
    record_result,
    settle_deadline,
    standings,
    winners,
    withdraw,
)
from tests.engines.test_tournament import SCORED as GAMES_SCORED

# What each side scores, written out in the tournament tests (shared/rules), and a bye 1.
SCORED = {**GAMES_SCORED, BYE: (1, 0)}
# The results random play picks from: draws (and their replays) and double forfeits often, as
# they are what leaves a bracket's matches empty.
PLAYED = (FIRST_WINS, SECOND_WINS, DRAW, DRAW, DRAW, FIRST_FORFEITS, SECOND_FORFEITS, BOTH_FORFEIT, BOTH_FORFEIT)


def field(count: int) -> list[Player]:
    """Players whose id is their seed (ratings falling with the id)."""
    return [Player(i, f"P{i}", rating=1000 - i) for i in range(1, count + 1)]


def running(tournament):
    return tournament.current_round.running()


def check_sound(tournament) -> None:
    """Nobody meets themselves; each player's points and games are those of their pairings."""
    points: dict[int, float] = defaultdict(float)
    games: dict[int, int] = defaultdict(int)
    for round_ in tournament.rounds:
        tables = [p.table for p in round_.pairings]
        assert len(tables) == len(set(tables)), f"round {round_.number} numbers two pairings alike: {tables}"
        for pairing in round_.pairings:
            assert pairing.first != pairing.second, f"{pairing} pairs a player against themselves"
            if pairing.result is None:
                continue
            for player, scored in zip(pairing.players, SCORED[pairing.result], strict=False):
                points[player] += scored
                games[player] += 1
    for row in standings(tournament):
        assert row.points == points[row.player], (row, points[row.player])
        assert row.games == games[row.player], (row, games[row.player])


@st.composite
def knockouts(draw):
    count = draw(st.integers(3, 64))
    early = draw(st.lists(st.integers(1, count), max_size=count // 2, unique=True))
    return count, early, draw(st.randoms(use_true_random=False))


@settings(max_examples=150, deadline=None)
@given(knockouts())
def test_random_knockouts_always_finish_soundly(case):
    count, early, rng = case
    tournament = new_tournament(KNOCKOUT, field(count))
    for player in early:  # withdrawn before round 1 is paired
        tournament = withdraw(tournament, player)
    steps = 0
    while not is_finished(tournament):
        steps += 1
        assert steps < 1000, "the knockout never finishes"
        if is_round_complete(tournament):
            tournament = pair_next_round(tournament)
            check_sound(tournament)
            continue
        left = running(tournament)
        assert left, "a round neither complete nor with a game to play: it hangs"
        roll = rng.random()
        if roll < 0.05:
            tournament = settle_deadline(tournament)
        elif roll < 0.12:
            tournament = withdraw(tournament, rng.choice(rng.choice(left).players))
        else:
            pairing = rng.choice(left)
            tournament = record_result(tournament, len(tournament.rounds), pairing.table, rng.choice(PLAYED))
        check_sound(tournament)
    assert len(tournament.rounds) <= tournament.rounds_planned
    found = champion(tournament)
    assert winners(tournament) == (() if found is None else (found,))
    if found is not None:
        assert found not in tournament.withdrawn


def play_round(tournament, results: dict[int, str]):
    for table, result in results.items():
        tournament = record_result(tournament, len(tournament.rounds), table, result)
    return tournament


def test_a_replay_after_the_last_bracket_match_is_not_read_as_that_match():
    """Issue 36's reproduction: seeds 3 and 6 withdraw before round 1, so bracket match 4 (3 v 6)
    has no pairing; table 1's drawn game and drawn replay, then tables 2 and 3 won."""
    tournament = withdraw(withdraw(new_tournament(KNOCKOUT, field(8)), 3), 6)
    tournament = pair_next_round(tournament)
    assert [(p.table, p.first, p.second) for p in tournament.current_round.pairings] == [
        (1, 1, 8),
        (2, 4, 5),
        (3, 2, 7),
    ]
    tournament = record_result(tournament, 1, 1, DRAW)
    again = running(tournament)[-1]
    assert again.replay_of == 1
    assert again.table not in (1, 2, 3, 4), "the replay is numbered outside the bracket"
    tournament = play_round(tournament, {again.table: DRAW, 2: FIRST_WINS, 3: FIRST_WINS})
    assert is_round_complete(tournament)
    tournament = pair_next_round(tournament)
    assert [(p.first, p.second) for p in tournament.current_round.pairings if p.second] == [(1, 4)]
    check_sound(tournament)


def test_a_won_replay_after_the_last_bracket_match_does_not_pair_its_winner_with_themselves():
    tournament = pair_next_round(withdraw(withdraw(new_tournament(KNOCKOUT, field(8)), 3), 6))
    tournament = record_result(tournament, 1, 1, DRAW)
    replay = running(tournament)[-1]
    tournament = play_round(tournament, {replay.table: FIRST_WINS, 2: FIRST_WINS, 3: FIRST_WINS})
    tournament = pair_next_round(tournament)
    check_sound(tournament)
    assert standings(tournament)[0].games == 2, "the drawn game and its replay, each once"


def test_a_final_both_finalists_forfeit_has_no_champion_and_two_second_places():
    """shared/rules, 2026-11-28: no champion, both finalists share second place."""
    tournament = pair_next_round(new_tournament(KNOCKOUT, field(4)))
    tournament = play_round(tournament, {1: FIRST_WINS, 2: FIRST_WINS})
    tournament = play_round(pair_next_round(tournament), {1: BOTH_FORFEIT})
    assert is_finished(tournament)
    assert champion(tournament) is None
    assert winners(tournament) == ()
    assert podium(tournament) == ((2, (1, 2)), (3, (3, 4)))
    assert [(row.rank, row.player) for row in standings(tournament)] == [(2, 1), (2, 2), (3, 3), (3, 4)]
