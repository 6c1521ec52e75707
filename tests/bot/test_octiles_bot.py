"""Octiles Scavenger Hunt through SimCord: challenge, private set-up choices, turns by command and
by the Move flow, autocomplete, markers, scramble, illegal inputs, a finished game and the computer;
the menu reaches exactly the legal actions, and stale or restarted menus behave."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bot.core.sessions import STALE_TEXT
from bot.dev.world import bot_member, menu_endings, private_texts
from bot.games.octiles import MENU, STAND_IN, OctilesAdapter
from engines.octiles import (
    ENGINE,
    SPACES,
    change_options,
    choose_action,
    connections,
    legal_destinations,
    legal_routes,
    replace_move_actions,
    replaced_tiles,
    restricted_space,
    routes_from,
)
from tests.bot.answers import private_answer
from tests.engines.test_octiles_rules import (
    stored_at_scramble_offer,  # a game as the earlier version stored it at the scramble offer
    stuck_layout,  # a position with no legal option: a pass
)

SEED = 1234  # Ada (seat 0) draws Gold; from C3 Gold's only plain move is C3 -> C4 via c3.SW


@pytest.fixture
def games():
    return [OctilesAdapter]


# ------------------------------------------------------------------ helpers


async def current(world, session_id):
    return await world.platform.sessions.load(session_id)


def labels(message):
    return [c.label for row in message.components for c in row.children]


def select_options(menu, index=0):
    """The options of the ``index``-th select of a private menu (a raw component payload)."""
    selects = [c for row in menu.components for c in row["components"] if c["type"] == 3]
    return selects[index]


def option_values(menu, index=0):
    return [o["value"] for o in select_options(menu, index)["options"]]


def option_labels(menu, index=0):
    return [o["label"] for o in select_options(menu, index)["options"]]


async def start(world, seed=SEED, **options):
    world.platform.challenges.new_seed = lambda: seed
    result = await world.ada.slash(world.channel, "octiles challenge", opponent=world.bo, **options)
    assert result.acknowledged
    await world.bo.click(world.channel.last_message, label="Accept")
    record = await world.platform.store.live_session(world.channel.id)
    session = await world.platform.sessions.load(record.id)
    assert session.record.status == "active"
    assert session.players == [world.ada.id, world.bo.id]
    return session


async def set_up_by_menus(world, session, gold="C3", teal="D4", circle="A2"):
    """Gold's runners, then Teal's first circle, through the private selects of the Set up button."""
    shown = await world.ada.click(world.channel.last_message, label="Set up")
    menu = private_answer(shown)
    assert option_values(menu) == ["C3", "C4", "D3", "D4"]
    await world.ada.select(menu, [gold])
    assert option_values(menu) == [s for s in ["C3", "C4", "D3", "D4"] if s != gold]
    await world.ada.select(menu, [teal])
    assert menu.content.startswith("Done.")
    assert menu.components == []
    shown = await world.bo.click(world.channel.last_message, label="Set up")
    menu = private_answer(shown)
    assert len(option_values(menu)) == 20
    await world.bo.select(menu, [circle])
    assert menu.content.startswith("Done.")
    return await current(world, session.id)


async def replace_state(world, session, layout, seed=SEED, **options):
    """TEST SET-UP ONLY: swap the running session's state for a fixed position (the engine's
    test-only ``layout`` option), then show it on the game message."""
    await world.set_state(session.id, ENGINE.new_game(2, {"layout": layout, **options}, seed))
    return await current(world, session.id)


def win_layout(collected):
    """Seed 1234's tiles, Ada Gold on B4 with A4 (orange) one tile away via a3.NE, Bo Teal on D4."""
    base = ENGINE.new_game(2, {}, SEED)
    tiles = {space: list(placed) for space, placed in base.tiles.items()}
    return {
        "tiles": tiles,
        "spare": base.spare,
        "gold_seat": 0,
        "runners": {"gold": "B4", "teal": "D4"},
        "first_circle": "A2",
        "collected": {"gold": collected},
    }


# -------------------------------------------------------------------- tests


async def test_set_up_choices_are_private_and_for_the_right_player(world):
    session = await start(world)
    message = world.channel.last_message
    assert labels(message) == ["Set up", "Resign"]
    assert f"🛠 <@{world.ada.id}>'s choice — set-up: Gold places the Gold and Teal runners" in message.content
    assert message.attachments
    assert "Ada (Gold) places the runners" in message.attachments[0].description
    other = await world.bo.click(message, label="Set up")
    assert other.ephemeral
    assert private_texts(other) == [f"It is <@{world.ada.id}>'s turn."]
    stranger = await world.cy.click(message, label="Set up")
    assert private_texts(stranger) == ["You are not playing in this game."]

    shown = await world.ada.click(message, label="Set up")
    menu = private_answer(shown)
    await world.ada.select(menu, ["C3"])
    assert option_labels(menu) == ["Teal runner on C4", "Teal runner on D3", "Teal runner on D4"]
    await world.ada.select(menu, ["D4"])
    session = await current(world, session.id)
    assert session.state.runners == {"gold": "C3", "teal": "D4"}
    assert session.state.phase == "prizes"
    public = world.channel.last_message.content
    assert "**Ada** (Gold) put the Gold runner on C3 and the Teal runner on D4." in public
    assert f"🛠 <@{world.bo.id}>'s choice — set-up: Teal chooses the circle" in public

    late = await world.ada.click(world.channel.last_message, label="Set up")
    assert private_texts(late) == [f"It is <@{world.bo.id}>'s turn."]
    shown = await world.bo.click(world.channel.last_message, label="Set up")
    menu = private_answer(shown)
    a2 = next(o for o in select_options(menu)["options"] if o["value"] == "A2")
    assert a2["description"] == "Plum (yours): A2 A6 E6 F3 D1"
    await world.bo.select(menu, ["A2"])
    session = await current(world, session.id)
    assert session.state.phase == "turn"
    assert session.state.prizes["A2"] == "plum"
    message = world.channel.last_message
    assert (
        "**Bo** (Teal) set out the prizes from A2: plum on A2 A6 E6 F3 D1; orange on A4 C6 F5 F1 B1." in message.content
    )
    assert labels(message) == ["Move", "Resign"]
    assert f"▶ It is <@{world.ada.id}>'s turn." in message.content


async def test_turns_by_commands_and_the_move_flow(world):
    session = await set_up_by_menus(world, await start(world))
    game_message_id = session.record.message_id

    # 1. Ada (Gold), Move flow: the only plain move.
    shown = await world.ada.click(world.channel.last_message, label="Move")
    menu = private_answer(shown)
    assert "**Your turn** (Gold, runner on C3" in menu.content
    move = next(o for o in select_options(menu)["options"] if o["value"] == "move")
    assert move["description"] == "option 2: C4 via c3.SW (1 tile)"  # the only route: played when chosen
    await world.ada.select(menu, ["move"])
    assert menu.content.startswith("Done.")
    assert menu.components == []
    session = await current(world, session.id)
    assert session.state.runners["gold"] == "C4"
    message = world.channel.last_message
    assert message.id == game_message_id  # edited, not reposted
    assert "**Ada** (Gold) moved C3 → C4 (via c3.SW, through c3)." in message.content

    # 2. Bo (Teal), /octiles rotate (option 3).
    rotation = change_options(session.state, 1)[0][0]
    tile, was = session.state.tiles[rotation["space"]]
    result = await world.bo.slash(
        world.channel, "octiles rotate", tile=rotation["space"].upper(), orientation=rotation["orientation"]
    )
    assert result.ephemeral
    assert private_texts(result)[-1].startswith("Done.")
    session = await current(world, session.id)
    assert session.state.tiles[rotation["space"]] == [tile, rotation["orientation"]]
    assert (
        f"**Bo** (Teal) rotated tile {tile} on {rotation['space']} from orientation {was} to "
        f"{rotation['orientation']} (no move)."
    ) in world.channel.last_message.content

    # 3. Ada, /octiles move with a value offered by autocomplete.
    choices = await world.ada.autocomplete(world.channel, "octiles move", "to", "")
    destinations = legal_destinations(session.state, 0)
    assert [c["value"] for c in choices] == [f"{end} via {r.via}" for end, rs in destinations.items() for r in rs]
    target = choices[0]["value"]
    result = await world.ada.slash(world.channel, "octiles move", to=target.lower())
    assert result.ephemeral
    assert private_texts(result)[-1].startswith("Done.")
    session = await current(world, session.id)
    assert session.state.runners["gold"] == target.split()[0]

    # 4. Bo must move (option 3 last turn): Move flow, replace and move.
    shown = await world.bo.click(world.channel.last_message, label="Move")
    menu = private_answer(shown)
    assert "You changed a tile last turn: this turn you must move." in menu.content
    placeholders = [select_options(menu, i)["placeholder"] for i in range(len(menu.components))]
    assert not any("rotate" in p for p in placeholders)
    options = replace_move_actions(session.state, 1)
    action = max(
        options, key=lambda a: sum(b["space"] == a["space"] and b["orientation"] == a["orientation"] for b in options)
    )
    if "replace_move" in option_values(menu):  # the option is asked unless it is the only one
        assert "rotate" not in option_values(menu)
        await world.bo.select(menu, ["replace_move"])
    replace_menu = select_options(menu, len(menu.components) - 1)
    await world.bo.select(menu, [action["space"]], custom_id=replace_menu["custom_id"])
    assert menu.attachments
    assert menu.attachments[0].description.startswith(f"Spare tile {session.state.spare}")
    await world.bo.select(menu, [str(action["orientation"])])  # then the route (asked when there are several)
    routes = legal_routes(
        session.state,
        1,
        replaced_tiles(session.state, action["space"], action["orientation"]),
        crossing=action["space"],
    )
    assert "Don't move" not in option_labels(menu)  # option 3 is not allowed twice in a row
    assert option_labels(menu) == [
        f"{end} via {r.via} ({len(r.steps)} tile{'s' if len(r.steps) != 1 else ''})"
        for end, rs in routes.items()
        for r in rs
    ]
    spare, chosen = session.state.spare, option_values(menu)[0]
    await world.bo.select(menu, [chosen])
    assert menu.content.startswith("Done.")
    assert not menu.attachments
    session = await current(world, session.id)
    assert session.state.tiles[action["space"]][0] == spare
    assert session.state.runners["teal"] == chosen.split()[0]
    assert (
        f"**Bo** (Teal) put spare tile {spare} on {action['space']} (orientation" in world.channel.last_message.content
    )

    # 5. Ada, /octiles replace without `to`: option 3.
    space = next(s for s in SPACES if s != action["space"])
    spare, old = session.state.spare, session.state.tiles[space][0]
    result = await world.ada.slash(world.channel, "octiles replace", tile=space, orientation=5)
    assert private_texts(result)[-1].startswith("Done.")
    session = await current(world, session.id)
    assert session.state.tiles[space] == [spare, 5]
    assert session.state.spare == old
    assert (
        f"**Ada** (Gold) replaced tile {old} on {space} with spare tile {spare} (orientation 5); "
        f"tile {old} is now the spare (no move)."
    ) in world.channel.last_message.content

    # 6. Bo, Move flow rotate: space, then orientation (with the orientations picture).
    shown = await world.bo.click(world.channel.last_message, label="Move")
    menu = private_answer(shown)
    assert f"Your opponent just changed {space}" in menu.content
    await world.bo.select(menu, ["rotate"])
    rotate_menu = next(
        select_options(menu, i)
        for i in range(len(menu.components))
        if "rotate" in select_options(menu, i)["placeholder"]
    )
    assert f"Rotate {space}" not in [o["label"] for o in rotate_menu["options"]]
    rotation = change_options(session.state, 1)[0][0]
    tile = session.state.tiles[rotation["space"]][0]
    await world.bo.select(menu, [rotation["space"]], custom_id=rotate_menu["custom_id"])
    assert menu.attachments[0].description.startswith(f"Tile {tile} on {rotation['space']}")
    await world.bo.select(menu, [str(rotation["orientation"])])
    assert menu.content.startswith("Done.")
    session = await current(world, session.id)
    assert session.state.tiles[rotation["space"]] == [tile, rotation["orientation"]]

    # 7. Ada, /octiles replace with `to`: option 1.
    action = replace_move_actions(session.state, 0)[0]
    choices = await world.ada.autocomplete(
        world.channel, "octiles replace", "to", "", tile=action["space"], orientation=action["orientation"]
    )
    assert choices
    assert all(c["value"].split()[0] == c["name"].split()[0] for c in choices)
    assert action["to"] in [c["value"].split()[0] for c in choices]
    result = await world.ada.slash(
        world.channel, "octiles replace", tile=action["space"], orientation=action["orientation"], to=action["to"]
    )
    assert private_texts(result)[-1].startswith("Done."), private_texts(result)
    session = await current(world, session.id)
    assert session.state.runners["gold"] == action["to"]
    assert session.state.turn_seat == 1
    assert world.channel.last_message.id == game_message_id


def refusals(world, session):
    """``refused(actor, command, expected, **options)``: the command is answered privately with
    ``expected`` and the game is as it was."""
    before = ENGINE.dump(session.state)

    async def refused(actor, command, expected, **options):
        result = await actor.slash(world.channel, f"octiles {command}", **options)
        assert result.ephemeral
        assert private_texts(result)[-1] == expected, private_texts(result)
        assert ENGINE.dump((await current(world, session.id)).state) == before

    return refused


async def test_illegal_inputs_are_private_and_change_nothing(world):
    session = await set_up_by_menus(world, await start(world), gold="C3", teal="C4")
    refused = refusals(world, session)

    # The only path from C3 leads onto Teal's runner.
    await refused(world.ada, "move", "Stop C4 is occupied by Teal's runner.", to="C4")
    await refused(world.ada, "move", "No path leads from C3 to E5.", to="E5")
    await refused(world.ada, "move", "Z9 is not a stop or circle.", to="Z9")
    await refused(world.bo, "move", f"It is <@{world.ada.id}>'s turn.", to="D3")
    await refused(world.cy, "move", "You are not playing in this game.", to="C4")
    await refused(
        world.ada, "rotate", "Q7 is not a tile space (spaces: " + ", ".join(SPACES) + ").", tile="q7", orientation=1
    )
    assert await world.ada.autocomplete(world.channel, "octiles move", "to", "") == []
    clicked = await world.bo.click(world.channel.last_message, label="Move")
    assert private_texts(clicked)[0].startswith(f"It is <@{world.ada.id}>'s turn")

    # Option 3 twice in a row.
    rotation = change_options(session.state, 0)[0][0]
    await world.ada.slash(world.channel, "octiles rotate", tile=rotation["space"], orientation=rotation["orientation"])
    session = await current(world, session.id)
    action = change_options(session.state, 1)[1][0]
    await world.bo.slash(world.channel, "octiles replace", tile=action["space"], orientation=action["orientation"])
    session = await current(world, session.id)
    refused = refusals(world, session)  # nothing changes from this position on
    before = ENGINE.dump(session.state)
    # A rotation that would be legal if Ada had moved last turn:
    again = change_options(ENGINE.load({**before, "last_option": [0, 0]}), 0)[0][0]
    await refused(
        world.ada,
        "rotate",
        "You changed a tile without moving last turn: this turn you must move your runner.",
        tile=again["space"],
        orientation=again["orientation"],
    )
    await refused(
        world.ada,
        "replace",
        "You changed a tile without moving last turn: this turn you must move your runner.",
        tile="a2",
        orientation=0,
    )
    # A Move menu opened before the opponent acted is out of date afterwards.
    session = await current(world, session.id)
    stale_owner = world.ada
    shown = await stale_owner.click(world.channel.last_message, label="Move")
    menu = private_answer(shown)
    action = replace_move_actions(session.state, 0)[0]
    await replace_and_move(world, action)
    session = await current(world, session.id)
    before = ENGINE.dump(session.state)
    late = await stale_owner.select(
        menu,
        [option_values(menu, len(menu.components) - 1)[0]],
        custom_id=select_options(menu, len(menu.components) - 1)["custom_id"],
    )
    assert private_texts(late)[-1] == f"It is <@{world.bo.id}>'s turn."
    assert ENGINE.dump((await current(world, session.id)).state) == before


async def test_a_menu_from_before_the_players_last_action_is_refused(world):
    session = await start(world, scramble=True)
    # Ada (Gold, one prize) must reach her orange marker on C5, one move from B4: then she places Bo's.
    layout = {**win_layout(1), "marker": {"colour": "orange", "stop": "C5"}}
    session = await replace_state(world, session, layout, scramble=True)
    shown = await world.ada.click(world.channel.last_message, label="Move")
    menu = private_answer(shown)
    await world.ada.slash(world.channel, "octiles move", to="C5")
    session = await current(world, session.id)
    assert session.state.phase == "marker"  # still Ada's choice, but the Move menu is out of date
    before = ENGINE.dump(session.state)
    moved = await world.ada.select(menu, ["move"], custom_id=select_options(menu, 0)["custom_id"])
    assert private_texts(moved)[-1] == STALE_TEXT
    assert ENGINE.dump((await current(world, session.id)).state) == before
    # The current choice is still open: Place marker on the game message.
    shown = await world.ada.click(world.channel.last_message, label="Place marker")
    await world.ada.select(private_answer(shown), ["B2"])
    session = await current(world, session.id)
    assert session.state.marker == {"colour": "plum", "stop": "B2"}
    assert (session.state.phase, session.state.turn_seat) == ("turn", 1)


async def test_a_game_stored_at_the_old_scramble_offer_plays_on(world):
    """Games stored by the earlier version may wait at the scramble offer after a turn: its menu and
    Skip scramble still work there (and only there)."""
    session = await set_up_by_menus(world, await start(world, scramble=True))
    await world.set_state(session.id, stored_at_scramble_offer(session.state, 0, {"type": "move", "to": "C4"}))
    message = world.channel.last_message
    assert labels(message) == ["Scramble", "Skip scramble", "Resign"]
    assert f"🔀 <@{world.ada.id}>'s choice — scramble four tiles (once per game) or skip" in message.content
    not_yours = await world.bo.click(message, label="Skip scramble")
    assert private_texts(not_yours) == [f"It is <@{world.ada.id}>'s turn."]
    menu = private_answer(await world.ada.click(message, label="Scramble"))
    assert option_values(menu) == ["skip_scramble", "scramble"]
    await world.ada.select(menu, ["scramble"])
    await world.ada.select(menu, ["a2", "b3", "c4", "d1"])
    assert menu.content.startswith("Done.")
    session = await current(world, session.id)
    assert session.state.scramble_used == [True, False]
    assert (session.state.phase, session.state.turn_seat) == ("turn", 1)
    assert "**Ada** scrambled the tiles on a2, b3, c4, d1." in world.channel.last_message.content
    assert labels(world.channel.last_message) == ["Move", "Resign"]

    await world.set_state(
        session.id, stored_at_scramble_offer(session.state, 1, change_options(session.state, 1)[0][0])
    )
    skipped = await world.bo.click(world.channel.last_message, label="Skip scramble")
    assert private_texts(skipped) == []
    session = await current(world, session.id)
    assert (session.state.phase, session.state.turn_seat) == ("turn", 0)
    assert "**Bo** did not scramble." in world.channel.last_message.content


async def test_long_or_formatted_typed_input_is_repeated_short_and_escaped(world):
    session = await set_up_by_menus(world, await start(world))
    before = ENGINE.dump(session.state)
    typed = [
        ("move", {"to": "Z" * 6000}),
        ("move", {"to": "C4 via " + "x" * 6000}),
        ("rotate", {"tile": "@everyone" + "q" * 6000, "orientation": 1}),
        ("replace", {"tile": "c3", "orientation": 1, "to": "_" + "y" * 6000}),
        ("marker", {"stop": "**" + "B" * 6000}),
    ]
    for command, options in typed:
        result = await world.ada.slash(world.channel, f"octiles {command}", **options)
        answer = private_texts(result)[-1]
        assert len(answer) < 400, (command, answer[:200])
        assert "…" in answer, answer  # trimmed
        assert "@everyone" not in answer  # escaped: no ping
        assert not re.search(r"(?<!\\)[*_]", answer), answer[:80]  # markdown escaped
    assert ENGINE.dump((await current(world, session.id)).state) == before


async def test_marker_is_asked_from_the_right_player_and_then_the_next_turn_begins(world):
    session = await start(world, scramble=True)
    assert session.options == {"scramble": True}
    session = await replace_state(world, session, win_layout(0), scramble=True)
    result = await world.ada.slash(world.channel, "octiles move", to="A4")
    assert private_texts(result)[-1].startswith(
        "Done. **Ada** (Gold) moved B4 → A4 (via a3.NE, through a3). **Ada** collected an orange prize on A4 (1/5)."
    )
    session = await current(world, session.id)
    assert session.state.phase == "marker"
    assert session.state.pending_marker == {"colour": "orange", "placer": 1}
    message = world.channel.last_message
    assert labels(message) == ["Place marker", "Resign"]
    assert f"📍 <@{world.bo.id}>'s choice — place Gold's orange marker on a free stop" in message.content
    wrong = await world.ada.click(message, label="Place marker")
    assert private_texts(wrong) == [f"It is <@{world.bo.id}>'s turn."]
    refused = await world.ada.slash(world.channel, "octiles marker", stop="B2")
    assert private_texts(refused)[-1] == f"It is <@{world.bo.id}>'s turn."
    occupied = await world.bo.slash(world.channel, "octiles marker", stop="D4")
    assert private_texts(occupied)[-1] == "Stop D4 has a runner on it: choose a free stop."
    choices = await world.bo.autocomplete(world.channel, "octiles marker", "stop", "")
    assert "D4" not in [c["value"] for c in choices]
    assert "B2" in [c["value"] for c in choices]

    shown = await world.bo.click(message, label="Place marker")
    menu = private_answer(shown)
    assert "A4" not in option_values(menu)
    assert "D4" not in option_values(menu)
    await world.bo.select(menu, ["B2"])
    session = await current(world, session.id)
    assert session.state.marker == {"colour": "orange", "stop": "B2"}
    # Ada's turn ended with the move (no scramble asked after it): Bo's turn now.
    assert session.state.phase == "turn"
    assert session.state.turn_seat == 1
    assert session.state.scramble_used == [False, False]
    message = world.channel.last_message
    assert labels(message) == ["Move", "Resign"]
    assert "🎯 Orange marker on **B2**: Ada must reach it before collecting again." in message.content
    assert "**Bo** put **Ada**'s orange marker on B2: **Ada** must reach it before collecting again." in message.content
    assert f"🧭 <@{world.bo.id}>'s choice — Teal's turn" in message.content
    assert "may end the turn with a scramble (once per game)" in message.content


async def test_a_turn_with_a_scramble_and_one_without_through_the_move_menu(world):
    session = await set_up_by_menus(world, await start(world, scramble=True))
    assert "may end the turn with a scramble (once per game)" in world.channel.last_message.content

    # 1. Ada moves C3 -> C4 (the only route) and, as the last step, scrambles four tiles.
    menu = private_answer(await world.ada.click(world.channel.last_message, label="Move"))
    assert "Last step, if you wish: your scramble (once per game)." in menu.content
    await world.ada.select(menu, ["move"])
    assert (await current(world, session.id)).state.ply == session.state.ply, "nothing played before the last step"
    assert menu.content.startswith("🔀 **Last step (optional)**: your turn is to move to C4.")
    assert option_values(menu) == ["none", "four"]
    assert option_labels(menu) == ["No scramble: end my turn", "Scramble four tiles"]
    await world.ada.select(menu, ["four"])
    four = select_options(menu)
    assert (four["min_values"], four["max_values"]) == (4, 4)
    assert [o["value"] for o in four["options"]] == list(SPACES)
    tiles_before = dict(session.state.tiles)
    await world.ada.select(menu, ["d1", "a2", "c4", "b3"])
    assert menu.content.startswith("Done. **Ada** (Gold) moved C3 → C4")
    assert menu.components == []
    session = await current(world, session.id)
    assert session.state.runners["gold"] == "C4"
    assert session.state.scramble_used == [True, False]
    assert (session.state.phase, session.state.turn_seat) == ("turn", 1)
    chosen = ["a2", "b3", "c4", "d1"]
    assert sorted(session.state.tiles[s][0] for s in chosen) == sorted(tiles_before[s][0] for s in chosen)
    assert "**Ada** scrambled the tiles on a2, b3, c4, d1." in world.channel.last_message.content

    # 2. Bo rotates a tile and ends the turn at the scramble step with "No scramble".
    rotation = change_options(session.state, 1)[0][0]
    tile = session.state.tiles[rotation["space"]][0]
    menu = private_answer(await world.bo.click(world.channel.last_message, label="Move"))
    await world.bo.select(menu, ["rotate"])
    await world.bo.select(menu, [rotation["space"]])
    await world.bo.select(menu, [str(rotation["orientation"])])
    assert menu.content.startswith(
        f"🔀 **Last step (optional)**: your turn is to rotate {rotation['space']} to orientation "
        f"{rotation['orientation']}."
    )
    await world.bo.select(menu, ["none"])
    assert menu.content.startswith(f"Done. **Bo** (Teal) rotated tile {tile} on {rotation['space']}")
    assert "scrambled" not in menu.content
    session = await current(world, session.id)
    assert session.state.tiles[rotation["space"]] == [tile, rotation["orientation"]]
    assert session.state.scramble_used == [True, False]
    assert (session.state.phase, session.state.turn_seat) == ("turn", 0)
    assert labels(world.channel.last_message) == ["Move", "Resign"]

    # 3. Ada's scramble is used: her turn has no scramble step, and the status says nothing of it.
    assert "may end the turn with a scramble" not in world.channel.last_message.content
    menu = private_answer(await world.ada.click(world.channel.last_message, label="Move"))
    assert "scramble" not in menu.content
    legal = one_per_look(session.state, ENGINE.legal_actions(session.state, 0))
    assert sorted(map(repr, reachable(world, session, 0))) == sorted(map(repr, legal))


async def test_a_turn_by_command_may_carry_the_scramble(world):
    session = await set_up_by_menus(world, await start(world, scramble=True))
    refused = refusals(world, session)

    four = "A scramble takes exactly four different tile spaces, e.g. `a2 b3 c4 d1`."
    await refused(world.ada, "move", four, to="C4", scramble="a2 b3 c4")
    await refused(world.ada, "move", four, to="C4", scramble="a2 b3 b3 c4")
    await refused(world.ada, "move", four, to="C4", scramble="x" * 6000)
    await refused(
        world.ada,
        "move",
        "Zz is not a tile space (spaces: " + ", ".join(SPACES) + ").",
        to="C4",
        scramble="a2 b3 c4 zz",
    )

    result = await world.ada.slash(world.channel, "octiles move", to="C4", scramble="A2, b3 c4  d1")
    answer = private_texts(result)[-1]
    assert answer.startswith("Done. **Ada** (Gold) moved C3 → C4")
    assert "**Ada** scrambled the tiles on a2, b3, c4, d1." in answer
    answers = [m for m in (result.response, *result.followups) if m is not None]
    assert not any(m.components for m in answers), "nothing more is asked"
    session = await current(world, session.id)
    assert (session.state.turn_seat, session.state.scramble_used) == (1, [True, False])

    rotation = change_options(session.state, 1)[0][0]
    result = await world.bo.slash(
        world.channel,
        "octiles rotate",
        tile=rotation["space"],
        orientation=rotation["orientation"],
        scramble="e3 e4 a3 b5",
    )
    assert "**Bo** scrambled the tiles on e3, e4, a3, b5." in private_texts(result)[-1]
    session = await current(world, session.id)
    assert session.state.scramble_used == [True, True]
    refused = refusals(world, session)  # nothing changes from this position on
    action = replace_move_actions(session.state, 0)[0]
    await refused(
        world.ada,
        "replace",
        "You already used your scramble: each player has one per game.",
        tile=action["space"],
        orientation=action["orientation"],
        to=action["to"],
        scramble="a2 b3 c4 d1",
    )


async def test_a_game_without_the_scramble_rule_refuses_one_and_never_asks(world):
    session = await set_up_by_menus(world, await start(world))
    before = ENGINE.dump(session.state)
    result = await world.ada.slash(world.channel, "octiles move", to="C4", scramble="a2 b3 c4 d1")
    assert private_texts(result)[-1] == "This game is played without the scramble rule."
    assert ENGINE.dump((await current(world, session.id)).state) == before
    assert "scramble" not in world.channel.last_message.content
    menu = private_answer(await world.ada.click(world.channel.last_message, label="Move"))
    await world.ada.select(menu, ["move"])  # the only route: played at once
    assert menu.content.startswith("Done.")


async def test_a_finished_game(world):
    session = await start(world)
    session = await replace_state(world, session, win_layout(4))
    assert "Ada (Gold, orange) 4/5" in world.channel.last_message.content
    result = await world.ada.slash(world.channel, "octiles move", to="A4")
    assert private_texts(result)[-1].startswith("Done.")
    session = await current(world, session.id)
    assert session.record.status == "finished"
    assert session.state.outcome.winners == (0,)
    final = world.channel.last_message
    assert f"🏆 <@{world.ada.id}> won (all 5 prizes collected)." in final.content
    assert "**Ada** collected an orange prize on A4 (5/5)." in final.content
    assert "Ada (Gold, orange) 5/5" in final.content
    assert labels(final) == ["Rematch", "Replay", "Review"]
    over = await world.bo.slash(world.channel, "octiles move", to="D3")
    assert private_texts(over) == ["There is no Octiles Scavenger Hunt game running in this channel."]
    stats = await world.ada.slash(world.channel, "stats")
    assert "**Octiles Scavenger Hunt**: 1 won of 1" in stats.response.content


async def test_rules_text(world):
    result = await world.ada.slash(world.channel, "rules", game="octiles")
    embed = result.response.embeds[0]
    assert embed.title == "Octiles Scavenger Hunt: how to play"
    for needle in (
        "five of your prizes",
        "Replace and move",
        "Decoy markers",
        "Scramble",
        "`/octiles move to:",
        "`/octiles rotate tile:c3 orientation:0-7 [scramble:…]`",
        "`/octiles replace",
        "`/octiles marker stop:B2`",
        "the last, optional step of your own turn",
        "[scramble:a2 b3 c4 d1]",
        "**No scramble**",
        "**Move**",
        "**Set up**",
    ):
        assert needle in embed.description, needle


async def test_against_the_computer(world):
    world.platform.challenges.new_seed = lambda: 77
    me = bot_member(world)
    await world.ada.slash(world.channel, "octiles challenge", opponent=me, level="easy")
    record = await world.platform.store.live_session(world.channel.id)
    session = await world.platform.sessions.load(record.id)
    assert session.players == [world.ada.id, me.id]
    # Seed 77 makes the computer Gold: it has already placed both runners; Teal (Ada) chooses next.
    assert session.state.gold_seat == 1
    assert session.state.phase == "prizes"
    assert "**TestBot** (Gold) put the Gold runner on " in world.channel.last_message.content
    assert f"🛠 <@{world.ada.id}>'s choice — set-up: Teal chooses" in world.channel.last_message.content
    turns = 0
    while session.record.status == "active" and session.state.ply < 10:  # set-up and about 8 turns
        seat = ENGINE.to_act(session.state)
        assert seat == [0], "the computer has always answered by now"
        action = choose_action(session.state, 0, "medium", turns)
        kind = action["type"]
        if kind == "place_runners":
            shown = await world.ada.click(world.channel.last_message, label="Set up")
            await world.ada.select(private_answer(shown), [action["gold"]])
            await world.ada.select(private_answer(shown), [action["teal"]])
        elif kind == "first_circle":
            shown = await world.ada.click(world.channel.last_message, label="Set up")
            await world.ada.select(private_answer(shown), [action["circle"]])
        elif kind == "place_marker":
            await world.ada.slash(world.channel, "octiles marker", stop=action["stop"])
        elif kind == "move":
            await world.ada.slash(
                world.channel, "octiles move", to=action["to"] + (f" via {action['via']}" if "via" in action else "")
            )
        elif kind in ("rotate", "replace"):
            await world.ada.slash(
                world.channel, f"octiles {kind}", tile=action["space"], orientation=action["orientation"]
            )
        elif kind == "replace_move":
            await replace_and_move(world, action)
        else:
            raise AssertionError(f"unexpected action {action}")
        turns += 1
        session = await current(world, session.id)
        assert turns < 20
    assert session.state.ply >= 10
    assert world.channel.last_message.content.count("**TestBot** (Gold)") == 1
    assert f"▶ It is <@{world.ada.id}>'s turn." in world.channel.last_message.content


async def test_old_game_message_works_after_a_restart(world, settings):
    session = await set_up_by_menus(world, await start(world))
    message_id = session.record.message_id
    await world.restart(settings, [OctilesAdapter])
    shown = await world.ada.click(world.message(message_id), label="Move")
    menu = private_answer(shown)
    move = next(o for o in select_options(menu)["options"] if o["value"] == "move")
    assert move["description"] == "option 2: C4 via c3.SW (1 tile)"  # the only route: played when chosen
    await world.ada.select(menu, ["move"])
    session = await current(world, session.id)
    assert session.state.runners["gold"] == "C4"
    assert session.state.turn_seat == 1


# ------------------------------------------------------------------ the menu over many positions


async def replace_and_move(world, action):
    """Ada plays a replace-and-move action by command."""
    to = action["to"] + (f" via {action['via']}" if "via" in action else "")
    await world.ada.slash(
        world.channel, "octiles replace", tile=action["space"], orientation=action["orientation"], to=to
    )


def one_per_look(state, actions):
    """``actions`` with a turned tile kept once per look it gives the tile (by the lowest orientation
    giving it), worked out from the tile's paths: orientations that look alike leave the same board."""

    def turned(action):
        return state.tiles[action["space"]][0] if action["type"] == "rotate" else state.spare

    def first_of_its_look(action):
        tile, orientation = turned(action), action["orientation"]
        return all(connections(tile, k) != connections(tile, orientation) for k in range(orientation))

    return [a for a in actions if "orientation" not in a or first_of_its_look(a)]


def reachable(world, session, seat):
    """Every action the menu can end on (each option checked on the way; a scramble's four tiles on a sample)."""
    return menu_endings(world.platform.menus, MENU, ENGINE, session, seat)


def sample_positions():
    """Set-up, turns (some after option 3: must move, a barred tile; with and without the scramble
    step), markers, an old scramble offer and a pass."""
    rng = random.Random(5)
    positions = []
    state = ENGINE.new_game(2, {"scramble": True}, 3)
    for ply in range(40):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        if ply % 4 == 0 or state.phase != "turn":
            positions.append(state)
        state = ENGINE.apply(state, seat, rng.choice(legal))
    marker = ENGINE.apply(ENGINE.new_game(2, {"layout": win_layout(0)}, SEED), 0, {"type": "move", "to": "A4"})
    turn = next(position for position in reversed(positions) if position.phase == "turn")
    seat = ENGINE.to_act(turn)[0]
    offer = stored_at_scramble_offer(turn, seat, ENGINE.legal_actions(turn, seat)[0])
    # both players' scrambles used: no scramble step any more
    used = dataclasses.replace(turn, scramble_used=[True, True])
    return [*positions, marker, offer, used, stuck_layout()]


async def test_the_menu_reaches_exactly_the_legal_actions(world):
    """Each legal action once per look of a turned tile (orientations that look alike leave the
    same board: one choice, named "0 = 4" as the orientations sheet names it). And, while the
    player's scramble is unused, each turn action once more with a scramble (one stand-in set of
    four: the last step's select replaces it with the four tiles picked)."""
    session = await set_up_by_menus(world, await start(world))
    phases = set()
    for state in sample_positions():
        seat = ENGINE.to_act(state)[0]
        legal = one_per_look(state, [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"])
        reached = reachable(world, dataclasses.replace(session, state=state), seat)
        plain = [a for a in reached if "scramble" not in a]
        scrambling = [a for a in reached if "scramble" in a]
        assert sorted(map(repr, plain)) == sorted(map(repr, legal))
        may_scramble = state.phase == "turn" and state.scramble_rule and not state.scramble_used[seat]
        expected = [{**a, "scramble": STAND_IN} for a in legal if a["type"] != "pass"] if may_scramble else []
        assert sorted(map(repr, scrambling)) == sorted(map(repr, expected))
        for action in scrambling[:3]:
            ENGINE.apply(state, seat, action)  # the engine takes them
        phases.add(state.phase if state.phase != "turn" else legal[0]["type"] if len(legal) == 1 else "turn")
        if state.phase == "turn":
            phases |= {f"must move: {state.last_option[seat] == 3}", f"barred: {bool(restricted_space(state, seat))}"}
            phases.add(f"scramble step: {bool(scrambling)}")
    assert phases >= {
        "runners",
        "prizes",
        "turn",
        "marker",
        "scramble",
        "pass",
        "must move: True",
        "barred: True",
        "scramble step: True",
        "scramble step: False",
    }


async def test_a_menu_from_before_the_opponents_move_is_stale(world):
    session = await set_up_by_menus(world, await start(world))
    stale = private_answer(await world.ada.click(world.channel.last_message, label="Move"))
    await world.ada.slash(world.channel, "octiles move", to="C4")
    session = await current(world, session.id)
    rotation = change_options(session.state, 1)[0][0]
    await world.bo.slash(world.channel, "octiles rotate", tile=rotation["space"], orientation=rotation["orientation"])
    session = await current(world, session.id)
    assert session.state.turn_seat == 0  # Ada's turn again, on a later position
    before = ENGINE.dump(session.state)
    late = await world.ada.select(stale, ["rotate"])
    assert private_texts(late)[-1] == STALE_TEXT
    assert ENGINE.dump((await current(world, session.id)).state) == before


async def test_a_menu_opened_before_a_restart_is_completed_after_it(world, settings):
    session = await set_up_by_menus(world, await start(world))
    menu = private_answer(await world.ada.click(world.channel.last_message, label="Move"))
    await world.ada.select(menu, ["rotate"])
    rotation = change_options(session.state, 0)[0][0]
    tile = session.state.tiles[rotation["space"]][0]
    await world.restart(settings, [OctilesAdapter])
    await world.ada.select(menu, [rotation["space"]])
    assert menu.attachments[0].description.startswith(f"Tile {tile} on {rotation['space']}")
    await world.ada.select(menu, [str(rotation["orientation"])])
    assert menu.content.startswith(f"Done. **Ada** (Gold) rotated tile {tile} on {rotation['space']}")
    session = await current(world, session.id)
    assert session.state.tiles[rotation["space"]] == [tile, rotation["orientation"]]
    assert session.state.turn_seat == 1


async def test_tile_autocomplete_lists_the_spaces_the_player_may_change(world):
    session = await set_up_by_menus(world, await start(world))
    rotations, replacements = change_options(session.state, 0)
    choices = await world.ada.autocomplete(world.channel, "octiles rotate", "tile", "")
    assert [c["value"] for c in choices] == list(dict.fromkeys(a["space"] for a in rotations))[:25]
    choices = await world.ada.autocomplete(world.channel, "octiles replace", "tile", "b")
    assert [c["value"] for c in choices] == [s for s in dict.fromkeys(a["space"] for a in replacements) if s[0] == "b"]
    assert await world.bo.autocomplete(world.channel, "octiles rotate", "tile", "") == []


async def test_a_player_who_moved_and_walked_away_is_never_warned_or_forfeited(world):
    from tests.bot.test_platform import set_turn_clock

    await set_turn_clock(world, 2)
    session = await set_up_by_menus(world, await start(world, scramble=True))
    result = await world.ada.slash(world.channel, "octiles move", to="C4")  # no scramble
    assert "scramble" not in private_texts(result)[-1]
    session = await current(world, session.id)
    assert (session.state.phase, session.state.turn_seat) == ("turn", 1), "the turn passed at once"
    history_length = len(world.channel.history())
    await world.env.advance_time(61)
    warnings = [m.content for m in world.channel.history()[history_length:] if "turn time" in m.content]
    assert warnings, "the clock runs for Bo, who is on turn"
    assert all(world.bo.mention in text and world.ada.mention not in text for text in warnings)
    assert not any("scramble" in text for text in warnings)
    rotation = change_options(session.state, 1)[0][0]
    await world.bo.slash(world.channel, "octiles rotate", tile=rotation["space"], orientation=rotation["orientation"])
    session = await current(world, session.id)
    assert session.record.status == "active"
    assert session.state.turn_seat == 0
    assert not any("ran out of time" in m.content for m in world.channel.history())


async def test_a_turn_clock_running_out_at_an_old_scramble_offer_means_no_scramble_not_a_forfeit(world):
    from tests.bot.test_platform import set_turn_clock

    await set_turn_clock(world, 2)
    session = await set_up_by_menus(world, await start(world, scramble=True))
    # a game stored at the old offer after Ada's move, while her turn clock runs
    await world.set_state(session.id, stored_at_scramble_offer(session.state, 0, {"type": "move", "to": "C4"}))
    await world.env.advance_time(61)
    assert "half of your turn time is gone" not in world.channel.last_message.content, "an optional step"
    await world.env.advance_time(60)
    session = await current(world, session.id)
    assert session.record.status == "active", "nobody forfeits for leaving an optional step unanswered"
    assert session.state.phase == "turn"
    assert session.state.turn_seat == 1
    assert "**Ada** did not scramble." in world.channel.last_message.content
    assert "ran out of time" not in world.channel.last_message.content


# --------------------------------------------- orientations as the sheet names them; marker distances


def played(seed, plies):
    """The position after ``plies`` random legal actions (no resignation) from a new game of ``seed``."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    for _ in range(plies):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(
            state, seat, rng.choice([a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"])
        )
    return state


async def replace_and_move_on(world, actor, space):
    """Open the Move menu, choose "Replace a tile and move across it" and the tile space."""
    menu = private_answer(await actor.click(world.channel.last_message, label="Move"))
    if "replace_move" in option_values(menu):
        await actor.select(menu, ["replace_move"])
    await actor.select(menu, [space], custom_id=select_options(menu, len(menu.components) - 1)["custom_id"])
    return menu


async def test_the_orientation_step_lists_each_look_once_and_says_why_others_are_missing(world):
    """Spare tile 8 looks the same at k and k + 4: the sheet draws four looks "0 = 4", "1 = 5",
    "2 = 6", "3 = 7"; on b2, 2 = 6 gives Bo no move across it. The menu offers the other three,
    once each and named as the sheet names them, and says why 2 = 6 is missing."""
    session = await start(world)
    state = played(2, 2)  # Bo (seat 1) on turn; spare tile 8
    assert (ENGINE.to_act(state), state.spare) == ([1], 8)
    await world.set_state(session.id, state)
    menu = await replace_and_move_on(world, world.bo, "b2")
    assert "0 = 4; 1 = 5; 2 = 6; 3 = 7" in menu.attachments[0].description  # the sheet's names
    assert option_labels(menu) == ["Orientation 0 = 4", "Orientation 1 = 5", "Orientation 3 = 7"]
    assert option_values(menu) == ["0", "1", "3"]
    assert "numbers that look the same are one choice" in menu.content
    assert "Not offered: 2 = 6 (no move across the tile then)." in menu.content
    moves = {
        k: len(
            {
                (a["to"], a.get("via"))
                for a in replace_move_actions(state, 1)
                if a["space"] == "b2" and a["orientation"] == k
            }
        )
        for k in (0, 1, 3)
    }
    descriptions = [o.get("description") for o in select_options(menu)["options"]]
    assert descriptions == [f"{n} move{'s' if n != 1 else ''} across it" for n in moves.values()]
    await world.bo.select(menu, ["1"])
    if not menu.content.startswith("Done."):
        assert menu.content.startswith("**Spare tile 8 on b2, orientation 1 = 5**: move across it to…")
        await world.bo.select(menu, [option_values(menu)[0]])
    assert menu.content.startswith("Done."), menu.content
    assert (await current(world, session.id)).state.tiles["b2"] == [8, 1]


async def test_a_single_look_with_a_move_is_named_with_why_the_others_are_missing(world):
    """Spare tile 18 on b4: only 0 = 2 = 4 = 6 lets Ada move across it, so the orientation is not
    asked; the route step names it and says why 1 = 3 = 5 = 7 is missing."""
    session = await start(world)
    state = played(1, 7)  # Ada (seat 0) on turn; spare tile 18
    assert (ENGINE.to_act(state), state.spare) == ([0], 18)
    await world.set_state(session.id, state)
    menu = await replace_and_move_on(world, world.ada, "b4")
    assert menu.content.startswith(
        "**Spare tile 18 on b4, orientation 0 = 2 = 4 = 6 (the only one with a move across it)**: move across it to…"
        "\nNot offered: 1 = 3 = 5 = 7 (no move across the tile then)."
    ), menu.content


async def test_a_rotation_leaves_out_the_look_the_tile_has_now_and_says_so(world):
    session = await set_up_by_menus(world, await start(world))
    state = session.state
    space = next(s for s in SPACES if len({connections(state.tiles[s][0], k) for k in range(8)}) == 4)
    tile, now = state.tiles[space]
    menu = private_answer(await world.ada.click(world.channel.last_message, label="Move"))
    await world.ada.select(menu, ["rotate"])
    await world.ada.select(menu, [space], custom_id=select_options(menu, len(menu.components) - 1)["custom_id"])
    looks = [[k for k in range(8) if connections(tile, k) == connections(tile, first)] for first in range(4)]
    named = {first: " = ".join(map(str, same)) for first, same in enumerate(looks)}
    current_look = now % 4
    assert option_labels(menu) == [f"Orientation {named[k]}" for k in range(4) if k != current_look]
    assert f"Not offered: {named[current_look]} (the tile lies that way now)." in menu.content


async def test_marker_choices_say_how_far_each_runner_is(world):
    """Gold (Ada, the marker's owner, on circle A4) and Teal (Bo, on D4): each free stop says how
    many moves each runner needs on the tiles as they lie, the owner's first."""
    session = await start(world)
    session = await replace_state(world, session, win_layout(0))
    await world.ada.slash(world.channel, "octiles move", to="A4")
    session = await current(world, session.id)
    assert session.state.pending_marker == {"colour": "orange", "placer": 1}
    menu = private_answer(await world.bo.click(world.channel.last_message, label="Place marker"))
    assert "how many moves each runner needs" in menu.content
    shown = dict(zip(option_values(menu), option_labels(menu), strict=True))
    tiles = session.state.tiles
    for stop, label in shown.items():
        gold, teal = label.removeprefix(f"{stop}: ").split(", ")
        assert gold.startswith("Gold (owner) "), label
        assert teal.startswith("Teal "), label
    one_from_gold = {route.end for route in routes_from(tiles, "A4")} & set(shown)
    one_from_teal = {route.end for route in routes_from(tiles, "D4")} & set(shown)
    assert one_from_gold
    assert one_from_teal
    for stop in one_from_gold:
        assert shown[stop].startswith(f"{stop}: Gold (owner) 1 move away, "), shown[stop]
    for stop in one_from_teal:
        assert shown[stop].endswith(", Teal 1 move away"), shown[stop]
    far = [stop for stop in shown if stop not in one_from_gold | one_from_teal]
    assert any("moves away" in shown[stop] or "out of reach now" in shown[stop] for stop in far)
    choices = await world.bo.autocomplete(world.channel, "octiles marker", "stop", "")
    assert {c["name"] for c in choices} <= set(shown.values())  # the command's suggestions say it too
