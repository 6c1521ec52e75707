"""Hit regions (render/regions.py) for every registered game's every menu step, derived from the
registries: each step says where its options sit on the board or that they are buttons, and in
positions of seeded games every option placed on the board has a region of the picture the
viewer gets, inside it, not overlapping another option's of the same step."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games import adapter, all_games
from bot.ui.menu_steps import ActionMenu, Narrowing, menu_actions, narrow
from render.board import board_picture
from render.regions import inside, overlap, size_of
from tests.games import GAMES, IDS

NAMES = ["Ada", "Grace", "Alan", "Edsger"]
PLIES = 80  # how far each seeded game is played
EVERY = 7  # one position in so many is checked
BRANCHES = 3  # options followed at each step of a menu


def test_every_step_says_where_its_options_sit() -> None:
    missing = [
        f"{game.name}: step {index} of menu {menu.name!r}"
        for game in all_games()
        for menu in game.menus
        for index, step in enumerate(menu.steps)
        if step.where is None and not step.buttons
    ]
    assert not missing, "steps with neither regions (where=) nor buttons=True: " + "; ".join(missing)


def test_a_game_without_menus_answers_by_typing() -> None:
    """Octagion's race is typed, not clicked: the Activity gives it a text field."""
    assert [g.name for g in all_games() if not g.menus and not g.simultaneous] == []


def test_a_step_with_both_declarations_is_refused() -> None:
    contradicting = [
        f"{game.name}: step {index}"
        for game in all_games()
        for menu in game.menus
        for index, step in enumerate(menu.steps)
        if step.where is not None and step.buttons
    ]
    assert contradicting == []


def positions(game: str, players: int, options: dict, seed: int = 7) -> list[Any]:
    engine = adapter(game).engine
    state = engine.new_game(players, options, seed)
    chooser = random.Random(seed)
    found = []
    for ply in range(PLIES):
        if state.over:
            break
        seat = engine.to_act(state)[0]
        if ply % EVERY == 0:
            found.append(state)
        legal = [a for a in engine.legal_actions(state, seat) if a["type"] != "resign"]
        state = engine.apply(state, seat, chooser.choice(legal))
    return found


def walk(menu: ActionMenu, session: Any, seat: int, actions: list, chosen: tuple[str, ...] = ()):
    """(step, narrowing, options) of each step asked along a few branches of the menu."""
    at, index = narrow(menu, session, seat, chosen, actions)
    if index is None:
        return
    step = menu.steps[index]
    values = step.values(at.actions)
    yield step, index, at, values
    picks = ["+".join(sorted(map(str, step.key(a)))) for a in at.actions[:BRANCHES]] if step.many else values
    for value in list(dict.fromkeys(picks))[:BRANCHES]:
        yield from walk(menu, session, seat, actions, (*chosen, value))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_regions_lie_on_the_picture_apart(game: str, players: int, options: dict) -> None:
    found = adapter(game)
    if not found.menus:
        pytest.skip(f"{game} has no menus (its answers are typed)")
    checked = 0
    for state in positions(game, players, options):
        session = SimpleNamespace(state=state, names=NAMES[:players], shown_names=NAMES[:players])
        for seat in found.engine.to_act(state):
            picture = board_picture(game, state, NAMES[:players], seat)
            width, height = size_of(picture)
            for region in picture.regions.values():
                assert inside(region, width, height), (game, region, (width, height))
            for menu in found.menus:
                actions = menu_actions(menu, found.engine, session, seat)  # type: ignore[arg-type]
                for step, index, at, values in walk(menu, session, seat, actions):
                    checked += check_step(game, index, step, at, values, picture.regions)
    assert checked, f"{game}: no option of its menus was placed on the board in the positions played"


def check_step(game: str, index: int, step: Any, at: Narrowing, values: list[str], regions: dict) -> int:
    placed = {value: step.region(at, value) for value in values}
    placed = {value: name for value, name in placed.items() if name is not None}
    if step.buttons:
        assert not placed
    for value, name in placed.items():
        assert name in regions, f"{game} step {index}: option {value!r} sits in {name!r}, not drawn"
    boxes = [(value, regions[name]) for value, name in placed.items()]
    for i, (value, region) in enumerate(boxes):
        for other, second in boxes[i + 1 :]:
            assert not overlap(region, second), f"{game} step {index}: {value!r} and {other!r} overlap"
    return len(placed)
