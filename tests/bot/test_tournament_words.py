"""What members read of a tournament, from its pure parts (no Discord needed): the card's lines,
the standings' text and pictures' headings for the cases the rules decided on 2026-11-28, the
Swiss rounds and the deadline's results in words."""

from __future__ import annotations

from bot.features.tournaments.cards import podium_line, standings_text
from bot.features.tournaments.config import EventConfig, rules_paragraph
from bot.features.tournaments.tournament_event import TournamentEvent
from engines.tournament import (
    BOTH_FORFEIT,
    FIRST_WINS,
    KNOCKOUT,
    SWISS,
    Player,
    new_tournament,
    pair_next_round,
    record_result,
    settle_deadline,
)
from render.tournament import render_pairings, render_standings, result_words, round_heading


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
    line = podium_line(TournamentEvent(tournament))
    assert "🥇" not in line
    assert "no champion: the final was forfeited by both" in line
    assert "🥈 P1 & P2" in line
    assert "🥉 P3 & P4" in line
    assert "no champion" in standings_text(TournamentEvent(tournament), "Cup", 2, final=True)


def test_a_swiss_card_names_its_rounds_in_words_before_anyone_joins():
    config = EventConfig(name="Open", game="octego", format=SWISS)
    empty = rules_paragraph(config, "Octego", 0)
    assert "log" not in empty
    assert "Swiss, as many rounds as a sole winner needs (3 for 8 players, 4 for 16)" in empty
    assert "Swiss, 1 round:" in rules_paragraph(config, "Octego", 2)
    assert "Swiss, 3 rounds:" in rules_paragraph(config, "Octego", 6)


def test_a_game_scored_at_the_deadline_reads_without_brackets_in_brackets():
    tournament = pair_next_round(new_tournament(SWISS, field(4), rounds=2))
    tournament = settle_deadline(tournament)
    pairing = tournament.current_round.pairings[0]
    assert result_words(tournament, pairing) == ("draw on time", "draw on time")
    (line,) = TournamentEvent(tournament).game_lines({})
    assert "((" not in line
    assert "))" not in line
    knockout = settle_deadline(pair_next_round(new_tournament(KNOCKOUT, field(4))))
    assert result_words(knockout, knockout.current_round.pairings[0]) == ("through on time", "out on time")
    assert "P1 went through on time, P4 went out on time" in render_pairings(knockout, 1).description
