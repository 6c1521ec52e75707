"""What members read of a tournament, from its pure parts (no Discord needed): the card's lines,
the standings' text and pictures' headings for the cases the rules decided on 2026-11-28."""

from __future__ import annotations

from bot.features.tournaments.cards import podium_line, standings_text
from engines.tournament import (
    BOTH_FORFEIT,
    FIRST_WINS,
    KNOCKOUT,
    Player,
    new_tournament,
    pair_next_round,
    record_result,
)
from render.tournament import render_standings, round_heading


def field(count: int) -> list[Player]:
    return [Player(i, f"P{i}", rating=1000 - i) for i in range(1, count + 1)]


def play_round(tournament, results: dict[int, str]):
    for table, result in results.items():
        tournament = record_result(tournament, len(tournament.rounds), table, result)
    return tournament


def forfeited_final():
    tournament = pair_next_round(new_tournament(KNOCKOUT, field(4)))
    tournament = play_round(tournament, {1: FIRST_WINS, 2: FIRST_WINS})
    return play_round(pair_next_round(tournament), {1: BOTH_FORFEIT})


def test_the_forfeited_final_is_named_on_the_picture_and_in_the_card_lines():
    tournament = forfeited_final()
    assert round_heading(tournament) == "Final standings · no champion"
    described = render_standings(tournament).description
    assert "No champion: the final was forfeited by both" in described
    assert "Winner" not in described
    line = podium_line(tournament)
    assert "🥇" not in line
    assert "no champion: the final was forfeited by both" in line
    assert "🥈 P1 & P2" in line
    assert "🥉 P3 & P4" in line
    assert "no champion" in standings_text(tournament, "Cup", 2, final=True)
