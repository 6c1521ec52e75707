"""Octagion pictures: decode, fit a phone, show penalties and winners, keep variants private."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from engines.base import Event
from engines.octagion import ENGINE, solution
from render import octagion as R
from render import theme
from tests.render.pixels import colour_count, near

NAMES = ["Ann", "Bob", "Cleo", "Dmitri"]


def image_of(picture):
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    assert image.width <= 1000
    return image.convert("RGB")


@pytest.fixture
def game():
    """Two teams with different words (Epsilon); team 0 mid-round with a partial variant."""
    state = ENGINE.new_game(4, {"variation": "virulent", "teams": [0, 0, 1, 1]}, 7)
    first = solution(state.words[0])
    state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": [*first[:5], "*", None, first[7]]})
    second = solution(state.words[1])
    state = ENGINE.apply(state, 2, {"type": "set_variant", "cards": second})
    return state


def test_round_picture_shows_every_teams_word(game):
    picture = R.render_round(game, NAMES, viewer=None)
    image = image_of(picture)
    assert image.width == R.WIDTH
    for word in game.words:
        assert word in picture.description
    assert f"round 1 of {game.options['rounds']}" in picture.description
    assert colour_count(image, theme.CARD_FACE) > 10_000  # the letter cards


def test_round_picture_for_one_team(game):
    picture = R.render_round(game, NAMES, viewer=None, team=1)
    assert game.words[1] in picture.description
    assert game.words[0] not in picture.description


def test_variant_picture_shows_only_the_viewers_team(game):
    mine = R.render_variant(game, NAMES, viewer=0)
    image_of(mine)
    assert game.words[0] in mine.description
    assert game.words[1] not in mine.description
    assert "_" in mine.description  # the empty position
    theirs = R.render_variant(game, NAMES, viewer=2)
    for card in game.variants[0]:
        if card and card not in game.variants[1]:
            assert card not in theirs.description
    # The Treatment Card is drawn on blue.
    assert colour_count(image_of(mine), R.TREATMENT_FACE) > 500


def test_variant_picture_and_sentence_mark_a_repeated_number_and_a_wrong_letter():
    state = ENGINE.load(ENGINE.dump(ENGINE.new_game(1, {}, 7)))
    state.words = ["STRANGER"]
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "S5 T5 R3 B3"})  # T5 repeats 5; B3 is no A
    picture = R.render_variant(state, NAMES, viewer=0)
    assert "T5 at position 2: repeated number; B3 at position 4: wrong letter (each costs 1 point)" in (
        picture.description
    )
    clean = ENGINE.apply(state, 0, {"type": "set_variant", "text": "S5 T7 R3 A1"})
    penalty_red = colour_count(image_of(picture), theme.PENALTY)
    assert penalty_red > colour_count(image_of(R.render_variant(clean, NAMES, viewer=0)), theme.PENALTY) + 500
    assert "⚠ T5 at position 2: repeated number" in R.variant_sentence(state, 0)
    assert "⚠" not in R.variant_sentence(clean, 0)


def test_deck_picture_marks_the_viewers_variant_and_never_another_teams(game):
    mine = R.render_deck(game, NAMES, viewer=1)
    image = image_of(mine)
    for card in game.variants[0]:
        if card and card != "*":
            assert card in mine.description
    assert colour_count(image, theme.GOOD) > 100  # the "IN" tags and borders
    theirs = R.render_deck(game, NAMES, viewer=2)
    assert "In the variant: " + ", ".join(c for c in game.variants[1] if c) in theirs.description
    public = R.render_deck(game, NAMES, viewer=None)
    assert colour_count(image_of(public), theme.GOOD) == 0
    assert "nothing yet" in public.description


def test_deck_picture_party_mode_marks_the_viewers_numbers():
    state = ENGINE.new_game(2, {"teams": [0, 0], "party": True}, 1)
    picture = R.render_deck(state, NAMES, viewer=1)
    image = image_of(picture)
    assert "You place numbers 5, 6, 7, 8" in picture.description
    assert colour_count(image, theme.HIGHLIGHT) > 1000


def test_result_picture_marks_penalties_and_lists_a_solution(game):
    ended = ENGINE.apply(game, 2, {"type": "got_it"})
    picture = R.render_round_result(ended, NAMES)
    image = image_of(picture)
    assert "Got it! +2" in picture.description
    assert "7 empty" in picture.description  # team 0's empty seventh position
    for word, info in ended.history[-1]["solutions"].items():
        assert f"{word}: {' '.join(info['solution'])} ({info['count']} solutions)" in picture.description
    assert colour_count(image, theme.PENALTY) > 300  # the dashed border and the EMPTY tag


def test_a_perfect_round_has_no_penalty_marks():
    state = ENGINE.new_game(1, {}, 2)
    state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    image = image_of(R.render_round_result(state, NAMES))
    assert colour_count(image, theme.PENALTY) == 0


def test_many_teams_are_paginated_and_stay_within_width():
    names = [f"P{seat}" for seat in range(25)]
    state = ENGINE.new_game(25, {"variation": "epsilon", "rounds": 16}, 5)
    state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    assert R.result_pages(state) == 3
    pages = [R.render_round_result(state, names, page=page) for page in range(3)]
    for picture in pages:
        image = image_of(picture)
        assert image.height < 2000
    assert "Page 3 of 3" in pages[2].description
    mentioned = sum(f"P{seat} " in " ".join(p.description for p in pages) for seat in range(25))
    assert mentioned == 25
    while not state.over:
        state = ENGINE.apply(state, 0, {"type": "next_round"})
        state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    image_of(R.render_scoresheet(state, names))


def test_score_sheet_highlights_the_winner():
    state = ENGINE.new_game(2, {"rounds": 2}, 4)
    for _ in range(2):
        state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
        state = ENGINE.apply(state, 0, {"type": "got_it"})
        if not state.over:
            state = ENGINE.apply(state, 0, {"type": "next_round"})
    picture = R.render_scoresheet(state, NAMES)
    image = image_of(picture)
    assert "Winner: Ann" in picture.description
    assert "1. Ann 20" in picture.description
    # Down the bands' right edge: the winner's band (the first) is gold, the next one is not.
    x = R.WIDTH - R.MARGIN - 4
    gold = [y for y in range(image.height) if near(image.getpixel((x, y)), theme.HIGHLIGHT)]
    assert len(gold) > R.SHEET_LINE
    assert len(gold) == gold[-1] - gold[0] + 1, "one gold band"
    assert not near(image.getpixel((x, gold[-1] + R.SHEET_LINE)), theme.HIGHLIGHT)
    assert not any(near(image.getpixel((x, y)), theme.PANEL) for y in range(gold[0])), "no band above the gold one"


def test_score_sheet_during_the_game_has_no_winner():
    state = ENGINE.apply(ENGINE.new_game(2, {}, 4), 0, {"type": "end_round"})
    picture = R.render_scoresheet(state, NAMES)
    image = image_of(picture)
    assert "Winner" not in picture.description
    assert "after 1 of 8 rounds" in picture.description
    assert colour_count(image, theme.HIGHLIGHT) == 0


# ---------------------------------------------------------------- narration


def narration(state, names):
    return [R.narrate(event, names) for event in state.events]


def test_narrator_tells_each_event_and_keeps_variants_private(game):
    assert narration(ENGINE.new_game(2, {}, 1), NAMES) == [""]  # a round starting: its picture says so
    variant = ENGINE.apply(game, 1, {"type": "place", "position": 1, "card": None})
    assert [event.kind for event in variant.events] == ["variant"]
    assert variant.events[0].data == {"team": 0}  # no cards: the other teams must not learn them
    assert narration(variant, NAMES) == [""]
    called = ENGINE.apply(game, 2, {"type": "got_it"})
    assert narration(called, NAMES) == ["Cleo called Got it!", ""]
    timed = ENGINE.apply(game, 0, {"type": "end_round", "reason": "timer"})
    assert narration(timed, NAMES) == ["Time is up!"]
    nxt = ENGINE.apply(timed, 3, {"type": "next_round"})
    assert narration(nxt, NAMES) == [""]
    left = ENGINE.apply(game, 1, {"type": "resign"})
    assert narration(left, NAMES) == ["Bob left the game."]
    team_out = ENGINE.apply(left, 0, {"type": "resign"})
    assert team_out.events[0].data == {"team": 0, "team_out": True}
    assert narration(team_out, NAMES) == ["Ann left the game.", "Cleo and Dmitri won (the other teams left)."]


def test_narrator_names_the_seat_that_acted_whatever_the_names_say():
    names = ["Seat 2", "Bo"]
    state = ENGINE.new_game(2, {"rounds": 2}, 3)
    state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
    assert narration(state, names) == [""]
    state = ENGINE.apply(state, 0, {"type": "got_it"})
    said = " ".join(filter(None, narration(state, names)))
    assert said == "Seat 2 called Got it!"
    assert "Bo" not in said
    picture = R.render_round(state, names)
    assert picture.description.startswith("Seat 2 called Got it! Octagion round 1 of 2")
    state = ENGINE.apply(state, 1, {"type": "next_round"})
    state = ENGINE.apply(state, 0, {"type": "resign"})
    assert narration(state, names) == ["Seat 2 left the game.", "Bo won (the other teams left)."]
    assert R.render_scoresheet(state, names).description.startswith("Seat 2 left the game. Octagion scores")


def test_narrator_inserts_names_as_given():
    bold = ["**Ann\\_1**", "**Bob**"]
    assert R.narrate(Event(3, 0, "got_it", {"team": 0, "round": 1}), bold) == "**Ann\\_1** called Got it!"
    end = Event(3, None, "end", {"reason": "all rounds played", "winners": [0, 1], "draw": True})
    assert R.narrate(end, bold) == "The game ends in a draw (all rounds played)."
    stopped = Event(3, None, "round_end", {"round": 4, "reason": "stopped", "got_it_team": None})
    assert R.narrate(stopped, bold) == "Round 4 is over."


def test_round_picture_alt_text_never_shows_a_variant(game):
    before = R.render_round(game, NAMES).description
    after = R.render_round(ENGINE.apply(game, 0, {"type": "place", "position": 1, "card": None}), NAMES)
    assert after.description == before
    for card in game.variants[0]:
        if card:
            assert card not in after.description


# ---------------------------------------------------------------- phone layout helpers


def test_wrapped_lines_fit_the_picture_and_keep_every_word():
    text = "Virulent + Alpha · time 1:10 · Countdown level 2 · Treatment Cards left 3 · page 2 of 3"
    lines = R.wrap_text(text)
    assert len(lines) > 1
    for line in lines:
        assert theme.font(R.TEXT).getlength(line) <= R.WIDTH - 2 * R.MARGIN
        assert not line.startswith("·")
        assert not line.endswith("·")
    words = [word for word in text.split() if word != "·"]
    assert [word for word in " ".join(lines).split() if word != "·"] == words


def test_a_long_name_is_cut_to_fit_and_a_short_one_is_kept():
    assert theme.fit_text("Ann", R.LABEL, 200) == "Ann"
    cut = theme.fit_text("Maximilian Featherstonehaugh the Younger", R.LABEL, 200)
    assert cut.startswith("Maximilian")
    assert cut.endswith("…")
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    assert theme.text_size(measure, cut, R.LABEL)[0] <= 200


def test_slips_are_named_in_words_grouped_by_reason_and_wrapped():
    state = ENGINE.load(ENGINE.dump(ENGINE.new_game(1, {}, 7)))
    state.words = ["STRANGER"]
    state = ENGINE.apply(state, 0, {"type": "set_variant", "text": "S5 T5 R3 B3"})
    state = ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})
    positions = state.history[-1]["results"][0]["positions"]
    # a line breaks between reasons, never between a reason and its cards
    assert R.slip_lines(positions) == ["repeated number: T5", "wrong letter: B3 · empty: N, G, E, R"]
    assert R.slip_lines([{**p, "points": 1} for p in positions]) == []


def test_a_team_that_placed_nothing_gets_one_line_instead_of_its_cards():
    def ended(second_team_cards):
        state = ENGINE.new_game(2, {}, 4)
        state = ENGINE.apply(state, 0, {"type": "set_variant", "cards": solution(state.words[0])})
        state = ENGINE.apply(state, 1, {"type": "set_variant", "cards": second_team_cards(state.words[0])})
        return ENGINE.apply(state, 0, {"type": "end_round", "reason": "timer"})

    both = image_of(R.render_round_result(ended(solution), NAMES))
    one = image_of(R.render_round_result(ended(lambda word: [None] * 8), NAMES))
    assert both.height - one.height == R.CARD_H - R.LINE
    assert colour_count(one, theme.PENALTY) > 300, "the line is in the penalty colour"
    assert colour_count(both, theme.PENALTY) == 0
