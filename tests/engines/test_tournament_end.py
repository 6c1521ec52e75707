"""The host ends an event (shared/rules, 2026-11-28): games still running are not played (no
points to either player, in no tie-break and no game count), the event is over, and its final
standings are headed "ended by the host after round N", N the last round with every result."""

from __future__ import annotations

import pytest

from engines.tournament import (
    FIRST_WINS,
    KNOCKOUT,
    NOT_PLAYED,
    ROUND_ROBIN,
    SWISS,
    Player,
    TournamentError,
    dump,
    end_by_host,
    is_finished,
    load,
    new_tournament,
    pair_next_round,
    record_result,
    standings,
    winners,
)
from render.tournament import render_pairings, render_standings, result_words, round_heading


def field(count: int) -> list[Player]:
    return [Player(i, f"P{i}", rating=1000 - i) for i in range(1, count + 1)]


def first_round_won(format: str, count: int = 4):
    tournament = pair_next_round(new_tournament(format, field(count), **({"rounds": 3} if format == SWISS else {})))
    for pairing in tournament.current_round.running():
        tournament = record_result(tournament, 1, pairing.table, FIRST_WINS)
    return pair_next_round(tournament)


@pytest.mark.parametrize("format", [SWISS, ROUND_ROBIN])
def test_games_running_when_the_host_ends_are_not_played_and_count_nowhere(format):
    tournament = first_round_won(format)
    won, unplayed = tournament.current_round.pairings[:2]
    tournament = record_result(tournament, 2, won.table, FIRST_WINS)
    before = {row.player: row for row in standings(tournament)}
    ended = end_by_host(tournament)
    assert is_finished(ended)
    assert ended.ended_after == 1
    assert ended.current_round.pairing(unplayed.table).result == NOT_PLAYED
    after = {row.player: row for row in standings(ended)}
    for player in unplayed.players:
        assert after[player].points == before[player].points, "no points to either player"
        assert after[player].games == before[player].games == 1, "a game not played is not a game"
    assert {p: r.tie_breaks for p, r in after.items()} == {p: r.tie_breaks for p, r in before.items()}
    assert load(dump(ended)) == ended
    assert round_heading(ended) == "Ended by the host after round 1"
    assert "ended by the host after round 1" in render_standings(ended).description
    assert result_words(ended, ended.current_round.pairing(unplayed.table)) == ("not played", "not played")
    assert "not played" in render_pairings(ended, 2).description
    assert "draw" not in render_pairings(ended, 2).description


def test_a_knockout_ended_by_the_host_crowns_nobody_and_keeps_who_is_still_in():
    tournament = first_round_won(KNOCKOUT, 8)
    ended = end_by_host(tournament)
    assert ended.ended_after == 1
    assert winners(ended) == ()
    top = [row for row in standings(ended) if row.rank == 1]
    assert sorted(row.player for row in top) == [1, 2, 3, 4], "those still in share the top"
    assert all(row.out_in is None for row in top)


def test_the_host_cannot_end_an_event_twice_and_ending_in_round_one_says_so():
    tournament = pair_next_round(new_tournament(SWISS, field(4), rounds=2))
    ended = end_by_host(tournament)
    assert ended.ended_after == 0
    assert round_heading(ended) == "Ended by the host in round 1"
    with pytest.raises(TournamentError, match="over"):
        end_by_host(ended)
