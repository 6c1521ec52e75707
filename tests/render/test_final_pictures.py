"""Finished games look finished (issue 26): a game that ends, is stopped, forfeited or expires is
drawn as a final position. The header tells the outcome (``ending=`` from the bot, or the engine's
result), and nothing suggests a live turn: no turn highlight, no target frame, no "to play"."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines.base import play_out
from engines.registry import games
from render import octa, octagion, octagone, octego, octiles, theme
from render.narration import final_header, outcome_header
from render.registry import pictures
from tests.render.pixels import colour_count

NAMES = ["Ada", "Bo", "Cy", "Di"]
STOPPED = "Stopped by Ada"
LIVE_TURN_WORDS = ("to play", "to move", "'s turn", "your turn")


def pixels(picture: theme.Picture) -> Image.Image:
    return Image.open(io.BytesIO(picture.png)).convert("RGB")


def drawn_texts(draw) -> list[str]:
    """The texts a picture draws (through the theme, where every game writes its words)."""
    with theme.recording_text() as log:
        draw()
    return [text for text, _size in log]


def assert_final_description(picture: theme.Picture, ending: str) -> None:
    assert ending in picture.description
    for words in LIVE_TURN_WORDS:
        assert words not in picture.description, f"{words!r} in a final picture's description"


def resigned(engine, state, seat: int):
    return engine.apply(state, seat, {"type": "resign"})


# ---------------------------------------------------------------- Octego


def octego_position():
    from engines.octego import ENGINE, legal_moves

    rng, state = random.Random(7), ENGINE.new_game(2, {}, 7)
    for _ in range(10):
        path = rng.choice(legal_moves(state, state.to_move))
        state = ENGINE.apply(state, state.to_move, {"type": "move", "path": path})
    return ENGINE, state


def octego_banner(seat: int) -> tuple[int, int, int, int]:
    """The name strip of ``seat``: seat 0's under row 1, seat 1's above row 8."""
    top = octego.BOARD_TOP + octego.BOARD_PX + octego.COORD if seat == 0 else 0
    return octego.LEFT - 8, top, octego.LEFT + octego.BOARD_PX + 8, top + octego.BANNER


def test_a_stopped_octego_board_highlights_no_banner_and_says_how_it_ended():
    _, state = octego_position()
    live = pixels(octego.render_board(state, NAMES[:2]))
    picture = octego.render_board(state, NAMES[:2], ending=STOPPED)
    final = pixels(picture)
    assert colour_count(live, theme.HIGHLIGHT, octego_banner(state.to_move)) > 0, "the live board marks its turn"
    for seat in (0, 1):
        assert colour_count(final, theme.HIGHLIGHT, octego_banner(seat)) == 0
    assert STOPPED in drawn_texts(lambda: octego.render_board(state, NAMES[:2], ending=STOPPED))
    assert_final_description(picture, STOPPED)


def test_a_resigned_octego_board_highlights_only_the_winner():
    engine, state = octego_position()
    loser = state.to_move
    finished = resigned(engine, state, loser)
    final = pixels(octego.render_board(finished, NAMES[:2]))
    assert colour_count(final, theme.HIGHLIGHT, octego_banner(loser)) == 0
    assert colour_count(final, theme.HIGHLIGHT, octego_banner(1 - loser)) > 0, "the winner's strip says 'wins!'"


# ---------------------------------------------------------------- Octa


def octa_position():
    from engines.octa import ENGINE, choose_action

    return ENGINE, play_out(ENGINE, choose_action, ENGINE.new_game(2, {}, 4), 40, seed=1)


def octa_turn_outline(image: Image.Image, seat: int) -> int:
    """Pixels of the on-turn panel's outline in ``seat``'s colour, on the table's right edge
    (below the header's colour bar; nothing else is drawn there)."""
    right = octa.WIDTH - octa.MARGIN
    return colour_count(image, theme.SEAT_COLOURS[seat], (right - 4, 12, right + 1, image.height))


def test_a_stopped_octa_table_has_no_turn_colour_and_says_how_it_ended():
    _, state = octa_position()
    live = pixels(octa.render_table(state, NAMES[:2]))
    picture = octa.render_table(state, NAMES[:2], ending=STOPPED)
    final = pixels(picture)
    seat = state.current
    assert octa_turn_outline(live, seat) > 0, "the live table outlines the panel of the player on turn"
    assert octa_turn_outline(final, seat) == 0
    assert colour_count(live, theme.SEAT_COLOURS[seat], (0, 0, octa.WIDTH, 8)) > 0
    assert colour_count(final, theme.SEAT_COLOURS[seat], (0, 0, octa.WIDTH, 8)) == 0, "the bar is no turn's colour"
    texts = drawn_texts(lambda: octa.render_table(state, NAMES[:2], ending=STOPPED))
    assert STOPPED in texts
    assert not any(step in texts for step in octa.STEP_TEXT.values()), "no step to play"
    assert_final_description(picture, STOPPED)


def test_a_resigned_octa_table_outlines_no_panel():
    engine, state = octa_position()
    finished = resigned(engine, state, state.current)
    assert octa_turn_outline(pixels(octa.render_table(finished, NAMES[:2])), state.current) == 0


# ---------------------------------------------------------------- Octagone


def octagone_position(moves: int = 12):
    from engines.octagone import ENGINE, choose_action

    return ENGINE, play_out(ENGINE, choose_action, ENGINE.new_game(2, {}, 7), moves, seed=7)


def target_cell(box: str) -> tuple[int, int, int, int]:
    x, y = octagone.box_centre(box)
    half = octagone.CELL // 2
    return round(x) - half, round(y) - half, round(x) + half, round(y) + half


def turn_marker_strip(image: Image.Image) -> tuple[int, int, int, int]:
    """The players' lines' left edge, where the turn marker points at the player on turn."""
    top = octagone.BOARD_BOTTOM + octagone.LEGEND_HEIGHT + 6
    return octagone.MARGIN, top, octagone.MARGIN + 16, image.height


def test_a_stopped_octagone_board_has_no_target_frame_nor_turn_marker():
    _, state = octagone_position()
    live = pixels(octagone.render_board(state, NAMES[:2]))
    picture = octagone.render_board(state, NAMES[:2], ending=STOPPED)
    final = pixels(picture)
    assert colour_count(live, theme.HIGHLIGHT, target_cell(state.target)) > 0, "the live board frames its target"
    assert colour_count(final, theme.HIGHLIGHT, target_cell(state.target)) == 0
    assert colour_count(live, theme.HIGHLIGHT, turn_marker_strip(live)) > 0
    assert colour_count(final, theme.HIGHLIGHT, turn_marker_strip(final)) == 0
    assert STOPPED in drawn_texts(lambda: octagone.render_board(state, NAMES[:2], ending=STOPPED))
    assert_final_description(picture, STOPPED)


def test_a_finished_octagone_board_drops_its_target_and_explains_the_white_lady():
    _, state = octagone_position(400)
    assert state.over
    assert state.target is not None, "the engine keeps the last target after the end"
    assert state.outcome.winners, "a game with a winner, so the White Lady is drawn beside them"
    image = pixels(octagone.render_board(state, NAMES[:2]))
    assert colour_count(image, theme.HIGHLIGHT, target_cell(state.target)) == 0
    assert colour_count(image, theme.HIGHLIGHT, turn_marker_strip(image)) == 0
    texts = drawn_texts(lambda: octagone.render_board(state, NAMES[:2]))
    assert any("White Lady" in text for text in texts), "the WL badge beside the winner is explained"


def test_a_stopped_octagone_game_without_winner_draws_no_white_lady_badge():
    _, state = octagone_position()
    texts = drawn_texts(lambda: octagone.render_board(state, NAMES[:2], ending=STOPPED))
    assert not any("White Lady" in text for text in texts)


# ---------------------------------------------------------------- Octiles


def octiles_position():
    from engines.octiles import ENGINE, choose_action

    state = ENGINE.new_game(2, {"scramble": True}, 7)
    while state.ply < 24 or state.phase != "turn":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, choose_action(state, seat, "medium", seed=7))
    return ENGINE, state


def octiles_cards(image: Image.Image) -> tuple[int, int, int, int]:
    """The players' cards' left edge, outlined in the highlight for the player to act."""
    top = octiles.picture_height() - octiles.FOOTER
    return 10, top, 18, image.height


def test_a_stopped_octiles_table_highlights_no_card_and_rings_no_reachable_place():
    _, state = octiles_position()
    colour, destinations = octiles.reachable(state)
    live = pixels(octiles.render_board(state, NAMES[:2]))
    picture = octiles.render_board(state, NAMES[:2], ending=STOPPED)
    final = pixels(picture)
    assert colour_count(live, theme.HIGHLIGHT, octiles_cards(live)) > 0, "the live table outlines the card on turn"
    assert colour_count(final, theme.HIGHLIGHT, octiles_cards(final)) == 0
    board = (0, octiles.HEADER, octiles.WIDTH, octiles.picture_height() - octiles.FOOTER)
    ring = octiles.RUNNER_COLOURS[colour]
    assert destinations, "the runner on turn can go somewhere"
    assert colour_count(final, ring, board) < colour_count(live, ring, board), "no reachable place is ringed"
    assert STOPPED in drawn_texts(lambda: octiles.render_board(state, NAMES[:2], ending=STOPPED))
    assert_final_description(picture, STOPPED)


def test_a_resigned_octiles_table_highlights_no_card():
    engine, state = octiles_position()
    finished = resigned(engine, state, 0)
    image = pixels(octiles.render_board(finished, NAMES[:2]))
    assert colour_count(image, theme.HIGHLIGHT, octiles_cards(image)) == 0


# ---------------------------------------------------------------- Octagion


def octagion_round():
    from engines.octagion import ENGINE, choose_action

    state = ENGINE.new_game(4, {"variation": "virulent", "teams": [0, 0, 1, 1], "rounds": 2}, 7)
    for seat in (0, 2):
        state = ENGINE.apply(state, seat, choose_action(state, seat, "easy", 7))
    return state


def test_an_octagion_round_stopped_mid_round_says_so_and_invites_no_variant():
    state = octagion_round()
    live_texts = drawn_texts(lambda: octagion.render_round(state, NAMES))
    final_texts = drawn_texts(lambda: octagion.render_round(state, NAMES, ending=STOPPED))
    invitation = [text for text in live_texts if text.startswith("Build your variant")]
    assert invitation, "the live round invites a variant"
    assert not set(invitation) & set(final_texts)
    assert STOPPED in final_texts
    picture = octagion.render_round(state, NAMES, ending=STOPPED)
    assert pixels(picture).tobytes() != pixels(octagion.render_round(state, NAMES)).tobytes()
    assert_final_description(picture, STOPPED)
    assert "spell" not in picture.description


def test_an_octagion_score_sheet_stopped_mid_game_is_final_without_a_winner():
    state = octagion_round()
    assert not state.over
    texts = drawn_texts(lambda: octagion.render_scoresheet(state, NAMES, ending=STOPPED))
    assert STOPPED in texts
    assert "Octagion · final scores" in texts
    assert not any(text.startswith(("Winner", "Shared win")) for text in texts), "a stopped game names no winner"
    assert_final_description(octagion.render_scoresheet(state, NAMES, ending=STOPPED), STOPPED)


# ---------------------------------------------------------------- every game: the contract

# A live position of each registered game, as (players, state): the one its own tests above check
# for turn marks. A registered game with none fails the contract tests below, naming itself.
LIVE_POSITIONS = {
    "octego": lambda: (2, octego_position()[1]),
    "octa": lambda: (2, octa_position()[1]),
    "octagone": lambda: (2, octagone_position()[1]),
    "octiles": lambda: (2, octiles_position()[1]),
    "octagion": lambda: (4, octagion_round()),
}


def live_state(game: str):
    """The game's public picture (render/registry.py), its live position and its players."""
    if game not in LIVE_POSITIONS:
        pytest.fail(
            f"{game}: no live position in tests/render/test_final_pictures.py LIVE_POSITIONS, "
            "nor a test that its final picture shows no turn"
        )
    players, state = LIVE_POSITIONS[game]()
    assert not state.over, f"{game}: its live position is over"
    return pictures(game).public_picture, state, players


def test_every_live_position_is_a_registered_game_s():
    assert set(LIVE_POSITIONS) <= set(games())


@pytest.mark.parametrize("game", games())
def test_a_long_ending_is_drawn_whole_or_with_its_long_names_shortened(game):
    draw, state, players = live_state(game)
    long_name = "Ada Lovelace, Countess of Lovelace and Baroness"
    names = [long_name, *NAMES[1:players]]
    ending = final_header("out_of_time", long_name, ["Bo"])
    texts = drawn_texts(lambda: draw(state, names, ending=ending))
    assert "ran out of time" in " ".join(texts), "the words after a long name survive: they say what happened"
    assert any(text.startswith("Bo won") for text in texts)
    assert ending in draw(state, names, ending=ending).description, "the alt text has it whole"


@pytest.mark.parametrize("game", games())
def test_without_ending_a_live_picture_is_drawn_as_before(game):
    draw, state, players = live_state(game)
    plain = draw(state, NAMES[:players])
    explicit = draw(state, NAMES[:players], ending=None)
    assert plain.png == explicit.png
    assert pixels(draw(state, NAMES[:players], ending=STOPPED)).tobytes() != pixels(plain).tobytes()


# ---------------------------------------------------------------- words


def test_final_headers_say_who_ended_the_game_and_who_won():
    assert final_header("stopped", "Ada") == "Stopped by Ada"
    assert final_header("resigned", "Ada", ["Bo"]) == "Bo won: Ada resigned"
    assert final_header("out_of_time", "Ada", ["Bo", "Di"]) == "Bo and Di won: Ada ran out of time"
    with pytest.raises(ValueError, match="winners"):
        final_header("resigned", "Ada")


def test_outcome_headers_name_the_winner_or_the_draw():
    from engines.base import Outcome

    assert outcome_header(Outcome((2, 1), (0, 1), "resignation"), NAMES[:2]) == "Bo won: resignation"
    assert outcome_header(Outcome((1, 1), (0, 0), "threefold repetition"), NAMES[:2]) == "Draw: threefold repetition"


def test_fit_lines_shortens_long_names_before_cutting_the_words_after_them():
    size, width = 21, 300
    name = "Ada Lovelace, Countess of Lovelace"
    (line,) = theme.fit_lines(f"Bo won: {name} ran out of time", size, width, names=(name, "Bo"))
    assert line.startswith("Bo won: Ada")
    assert line.endswith("ran out of time")
    assert theme.font(size).getlength(line) <= width
    lines = theme.fit_lines("word " * 60, size, width, max_lines=2)
    assert len(lines) == 2
    assert lines[-1].endswith("…")
    assert theme.fit_lines("Stopped by Ada", size, width, max_lines=3) == ["Stopped by Ada"]
