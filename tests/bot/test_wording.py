"""What members read says what it means: counted nouns in real plurals (render/wording.py), never
"player(s)"; the suite-wide scan (tests/bot/wording_scan.py) sees every text the bot sends."""

from __future__ import annotations

import re

import pytest

from bot.dev.world import private_texts
from bot.games import all_games
from engines.octa import ENGINE as OCTA
from engines.octagion import ENGINE as OCTAGION
from engines.octagion import TREATMENT, solution
from engines.registry import engine
from render.narration import outcome_header, outcome_phrase
from render.octa import render_table
from render.octagion import result_text
from render.octagion_daily import score_text
from render.registry import pictures
from render.wording import leftover_plurals, nested_brackets, noun, plural
from tests.bot.test_octagion_lobby import open_lobby, select_id
from tests.bot.test_replays import finish_by_resigning
from tests.bot.wording_scan import SCAN


@pytest.mark.parametrize(
    ("count", "word", "expected"),
    [
        (1, "player", "1 player"),
        (3, "player", "3 players"),
        (0, "move", "0 moves"),
        (2, "match", "2 matches"),
        (2, "penalty", "2 penalties"),
        (2, "day", "2 days"),
        (1, "penalty", "1 penalty"),
    ],
)
def test_plural_counts_its_noun(count, word, expected):
    assert plural(count, word) == expected


def test_an_irregular_plural_is_given():
    assert plural(2, "child", "children") == "2 children"
    assert noun(1, "child", "children") == "child"


def test_leftover_plurals_are_found_with_their_word():
    assert leftover_plurals("1 player(s) invited; 2 match(es), 3 part(ies)") == ["player(s)", "match(es)", "part(ies)"]
    assert leftover_plurals("Pick a team (or switch); 3 players (Beta)") == []


def test_a_bracket_inside_another_is_found_and_a_quoted_label_is_not():
    assert nested_brackets("Saved (8 of 8 placed (1 Treatment Card)).") == ["(8 of 8 placed (1 Treatment Card)"]
    assert nested_brackets("the route, e.g. `D1 via b2.NE (3 tiles)` (a picture shows it)") == []
    assert nested_brackets("3 players (Beta); 2 rounds (1:00 each)") == []


def test_a_teams_variant_says_its_treatment_cards_in_one_pair_of_brackets():
    from engines.octagion import ENGINE
    from render.octagion import variant_sentence

    state = ENGINE.new_game(2, {"variation": "beta", "treatment": 1}, 7)
    state.variants[0] = [TREATMENT, *state.variants[0][1:]]
    said = variant_sentence(state, 0)
    assert "1 Treatment Card" in said
    assert nested_brackets(said) == [], said


async def test_the_scan_sees_what_the_bot_sends_and_not_what_members_type(world):
    await world.ada.send(world.channel, "I have 2 card(s)")
    assert SCAN.take() == [], "a member's own words are not the bot's"
    await world.bot.get_channel(world.channel.id).send("Challenge posted: 1 player(s) invited.")
    assert SCAN.take() == ["Challenge posted: 1 player(s) invited."]


async def test_a_challenge_counts_its_invitees(world):
    result = await world.ada.slash(
        world.channel, "octagone challenge", opponent=world.bo, partner=world.cy, opponent2=world.di
    )
    assert private_texts(result)[-1] == "Challenge posted: 3 players invited."


async def test_the_team_lobby_counts_its_players(world):
    lobby = await open_lobby(world, rounds=1, teams=2)
    assert "1 player. Pick a team to join (or switch)" in lobby.content
    await world.bo.select(lobby, ["1"], custom_id=select_id(lobby, "octagion_team"))
    assert "2 players. Pick a team to join (or switch)" in world.channel.last_message.content


def test_an_octa_table_lost_on_time_says_so():
    state = OCTA.new_game(2, {}, 1)
    assert OCTA.to_act(state) == [0]
    lost = OCTA.apply(state, 0, {"type": "forfeit"})
    assert "Octa, turn 1. Bo wins on time." in render_table(lost, ["Ada", "Bo"]).description


def two_player_challenged_games() -> list[str]:
    """Every registered game started by a challenge that two can play, in the registry's order."""
    return [
        adapter.name
        for adapter in all_games()
        if adapter.challengeable and adapter.engine.min_players <= 2 <= adapter.engine.max_players
    ]


@pytest.mark.parametrize("game", two_player_challenged_games())
def test_a_game_lost_on_time_is_told_as_what_happened(game):
    """The narrator, the replay's phrase and the picture's text: "Bo won on time", never "(time forfeit)"."""
    rules, names = engine(game), ["Ada", "Bo"]
    state = rules.new_game(2, {}, 1)
    loser = rules.to_act(state)[0]
    lost = rules.apply(state, loser, {"type": "forfeit"})
    told = " ".join(pictures(game).narrate(event, names) for event in lost.events)
    assert told == f"{names[loser]} ran out of time. {names[1 - loser]} won on time."
    assert outcome_phrase(lost.outcome, names) == f"{names[1 - loser]} won on time"
    assert outcome_header(lost.outcome, names) == f"{names[1 - loser]} won on time"
    alt_text = pictures(game).public_picture(lost, names).description
    assert "on time" in alt_text
    assert "forfeit" not in alt_text


async def test_history_counts_a_games_moves_in_real_plurals(world):
    await finish_by_resigning(world, "octego", 0)  # one action: Bo's resignation
    result = await world.ada.slash(world.channel, "history")
    (line,) = [line for line in private_texts(result)[-1].splitlines() if line[:1].isdigit()]
    assert re.search(r"· \d+ moves?, ", line), line
    assert not re.search(r"\b1 moves\b", line), line


def test_an_octagion_score_of_one_is_one_point():
    state = OCTAGION.new_game(1, {}, 11)
    card = solution(state.words[0])[0]
    state = OCTAGION.apply(state, 0, {"type": "set_variant", "text": card})
    state = OCTAGION.apply(state, 0, {"type": "end_round", "reason": "timer"})
    assert "**Ada**: 1 pt (7 penalties)" in result_text(state, state.history[-1], ["Ada"])
    assert score_text(1, 0) == "1 pt"
