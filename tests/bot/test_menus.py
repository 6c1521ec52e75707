"""The one menu mechanism, driven through SimCord: pages past 25 choices, the one stale check,
the one turn check, a restart in the middle of a menu; and, for every real game, the actions
its menus reach are exactly its legal actions."""

from __future__ import annotations

import random

import pytest

from bot.core.sessions import STALE_TEXT
from bot.dev.world import menu_endings, private_texts
from bot.games import all_games
from engines.registry import engine
from tests.bot.answers import private_answer
from tests.bot.test_octiles_bot import one_per_look
from tests.bot.tinygame import TinyAdapter


def options_of(menu) -> list[dict]:
    return menu.components[0]["components"][0]["options"]


def values_of(menu) -> list[str]:
    return [option["value"] for option in options_of(menu)]


async def start_wide(world):
    """A Tiny game where Ada may add 1 to 40: 40 choices, more than one select holds."""
    await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo, wide=True)
    await world.bo.click(world.channel.last_message, label="Accept")
    return world.channel.last_message


@pytest.mark.parametrize("games", [[TinyAdapter]])
async def test_a_step_with_more_than_25_choices_pages(world, games):
    game = await start_wide(world)
    menu = private_answer(await world.ada.click(game, label="Add…"))
    assert menu.content == "**Your turn**: how much do you add?"
    first = options_of(menu)
    assert len(first) == 24
    assert [o["value"] for o in first[:23]] == [str(n) for n in range(1, 24)]
    assert first[0]["label"] == "+1"
    assert first[-1]["label"] == "More choices ▶"

    await world.ada.select(menu, [first[-1]["value"]])
    second = options_of(menu)
    assert second[0]["label"] == "◀ Earlier choices"
    assert [o["value"] for o in second[1:]] == [str(n) for n in range(24, 41)]
    assert (await world.session()).state.total == 0, "paging plays nothing"

    await world.ada.select(menu, ["30"])
    assert menu.content == "Done. **Ada** added 30."
    assert menu.components == []
    assert (await world.session()).state.total == 30


@pytest.mark.parametrize("games", [[TinyAdapter]])
async def test_a_menu_from_an_earlier_turn_is_refused_with_the_one_sentence(world, games):
    game = await start_wide(world)
    stale = private_answer(await world.ada.click(game, label="Add…"))
    await world.ada.slash(world.channel, "tiny add", amount=1)
    await world.bo.slash(world.channel, "tiny add", amount=1)
    late = await world.ada.select(stale, ["5"])
    assert private_texts(late)[-1] == STALE_TEXT
    assert (await world.session()).state.total == 2

    not_yours = await world.bo.click(game, label="Add…")
    assert private_texts(not_yours) == [f"It is {world.ada.mention}'s turn."]
    outsider = await world.cy.click(game, label="Add…")
    assert private_texts(outsider) == ["You are not playing in this game."]


@pytest.mark.parametrize("games", [[TinyAdapter]])
async def test_a_menu_opened_before_a_restart_is_completed_after_it(world, games, settings):
    game = await start_wide(world)
    menu = private_answer(await world.ada.click(game, label="Add…"))
    await world.restart(settings, games)
    await world.ada.select(menu, ["5"])
    assert menu.content == "Done. **Ada** added 5."
    assert (await world.session()).state.total == 5


# ---------------------------------------------------------------- every real game's menus

# A game's options for the walk below when its defaults would leave part of its menus unwalked
# (Octiles with a shuffled board); any other game is walked with its defaults.
MENU_OPTIONS: dict[str, dict] = {"octiles": {"scramble": True}}


def menu_games() -> list[tuple[str, dict]]:
    """(game, options) for every registered game started by a two-player challenge, in the
    registry's order: the games whose turns are played through menus."""
    return [(adapter.name, MENU_OPTIONS.get(adapter.name, {})) for adapter in all_games() if adapter.challengeable]


REAL_GAMES = menu_games()


def test_every_challenged_game_is_walked_with_two_players():
    """A challenged game the walk below could not start with two players fails here, named,
    rather than in the middle of the walk; MENU_OPTIONS names only games the walk plays."""
    walked = [game for game, _ in menu_games()]
    not_two_player = [game for game in walked if not engine(game).min_players <= 2 <= engine(game).max_players]
    assert not not_two_player, f"challenged games the walk cannot play two-player: {not_two_player}"
    assert not set(MENU_OPTIONS) - set(walked), f"MENU_OPTIONS for games not walked: {set(MENU_OPTIONS) - set(walked)}"


def key(action) -> str:
    return repr(sorted(action.items()))


@pytest.mark.parametrize(("game", "options"), REAL_GAMES, ids=[game for game, _ in REAL_GAMES])
async def test_the_menus_reach_exactly_the_legal_actions(world, game, options):
    adapter = world.platform.games[game]
    engine = adapter.engine
    menus = world.platform.menus
    await world.ada.slash(world.channel, f"{game} challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    rng = random.Random(game)
    state = engine.new_game(2, options, 7)
    checked = 0
    for _ in range(8):  # each game's own tests walk more positions
        if engine.outcome(state) is not None:
            break
        session.state = state  # in memory only: the menus read the state they are given
        seat = engine.to_act(state)[0]
        legal_actions = [a for a in engine.legal_actions(state, seat) if a["type"] != "resign"]
        if game == "octiles":  # its menu lists a turned tile once per look (orientations alike leave one board)
            legal_actions = one_per_look(state, legal_actions)
        legal = {key(a) for a in legal_actions}
        offered = []
        for menu in adapter.menus:
            offered += menu_endings(menus, menu, engine, session, seat)
        # Octiles' turn may end with an optional scramble the legal actions leave out (four of 17
        # spaces for each turn action): its menu reaches each turn action once more with one.
        offered = [a for a in offered if "scramble" not in a]
        assert {key(a) for a in offered} == legal
        assert len(offered) == len(legal), "each action is reached one way"
        checked += 1
        for _ in range(rng.randrange(1, 4)):
            if engine.outcome(state) is None:
                seat = engine.to_act(state)[0]
                moves = [a for a in engine.legal_actions(state, seat) if a["type"] != "resign"]
                state = engine.apply(state, seat, rng.choice(moves))
    assert checked >= 3
