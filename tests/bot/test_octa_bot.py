"""Octa through SimCord: challenge, the private turn panel step by step, errors, the end, the computer."""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor
from simcord.builders import UserHandle

from bot.games.octa import OctaAdapter
from bot.world import private_texts
from engines.octa import ENGINE
from engines.octa.testing import near_win_options

# Seed 8: Ada (seat 0) starts; the revealed Q♥ matches either pile (K♥, J♥); her hand holds
# 2♥ 3♥ 4♥ and the pool holds 3♥ (position 4) and 9♥ (position 6).
SEED = 8


@pytest.fixture
def games():
    return [OctaAdapter]


# ------------------------------------------------------------------ helpers


def controls(message) -> list[dict]:
    """Every button and select of a message (a channel message or an interaction's message)."""
    rows = [row.to_dict() if hasattr(row, "to_dict") else row for row in message.components]
    return [c for row in rows for c in row["components"]]


def find(message, *, label_start: str | None = None, kind: str | None = None) -> dict:
    """The one control whose label starts with ``label_start`` or whose custom id is of ``kind``."""
    found = [
        c
        for c in controls(message)
        if (label_start is not None and (c.get("label") or "").startswith(label_start))
        or (kind is not None and f":{kind}:" in c.get("custom_id", ""))
    ]
    assert len(found) == 1, (label_start, kind, [(c.get("label"), c.get("custom_id")) for c in controls(message)])
    return found[0]


def option_values(select: dict) -> list[str]:
    return [o["value"] for o in select.get("options", [])]


async def click(actor, message, label_start: str):
    return await actor.click(message, custom_id=find(message, label_start=label_start)["custom_id"])


async def pick(actor, message, kind: str, values: list[str]):
    return await actor.select(message, values, custom_id=find(message, kind=kind)["custom_id"])


async def start(world, seed: int = SEED):
    world.platform.challenges.new_seed = lambda: seed
    await world.ada.slash(world.channel, "octa challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    game = world.channel.last_message
    record = await world.platform.store.live_session(world.channel.id)
    return game, record.id


async def state_of(world, session_id):
    return (await world.platform.sessions.load(session_id)).state


async def open_panel(actor, game):
    result = await actor.click(game, label="Turn panel")
    assert result.ephemeral
    panel = result.response
    assert panel.ephemeral
    assert [a.filename for a in panel.attachments] == ["octa_hand.png"]
    return panel


async def plain_turn(actor, panel):
    """Finish a turn through the panel the simplest legal way: pile 1, skip, no option, no exchange,
    discard the first card offered (or end the turn)."""
    for _ in range(12):
        labels = [c.get("label") or "" for c in controls(panel)]
        if any(label.startswith("Pile 1") for label in labels):
            result = await click(actor, panel, "Pile 1")
        elif "Skip the action" in labels:
            result = await click(actor, panel, "Skip the action")
        elif "No option: go to the exchange" in labels:
            result = await click(actor, panel, "No option")
        elif "No exchange: go to the discard" in labels:
            result = await click(actor, panel, "No exchange")
        elif any(":dis:" in c.get("custom_id", "") for c in controls(panel)):
            result = await pick(actor, panel, "dis", option_values(find(panel, kind="dis"))[:1])
        else:
            return panel
        assert not result.followups, [f.content for f in result.followups]
        panel = result.response
    raise AssertionError("the turn did not end")


def public_texts(message) -> str:
    return message.content + " ".join(a.description or "" for a in message.attachments)


# ------------------------------------------------------------------ tests


async def test_full_turns_through_the_turn_panel(world):
    game, sid = await start(world)
    assert "Turn panel" in [c.get("label") for c in controls(game)]
    assert "My hand" in [c.get("label") for c in controls(game)]

    # Only players get a panel; the player waiting is told whose turn it is, with no controls.
    result = await world.cy.click(game, label="Turn panel")
    assert result.ephemeral
    assert private_texts(result) == ["You are not playing in this game."]
    bo_panel = await open_panel(world.bo, game)
    assert f"It is now <@{world.ada.id}>'s turn" in bo_panel.content
    assert bo_panel.components == []

    # Step 1: the action pile. The hand is drawn privately, the public message shows no hand.
    panel = await open_panel(world.ada, game)
    hand_text = panel.attachments[0].description
    assert hand_text.startswith("Ada's hand (9 cards)")
    assert "Put the revealed action card" in panel.content
    assert "'s hand" not in public_texts(world.channel.last_message)
    spare = await open_panel(world.ada, game)  # a second panel, soon out of date
    result = await click(world.ada, panel, "Pile 1 (on K♥)")
    panel = result.response
    assert "Ada** put Q♥ on action pile 1" in world.channel.last_message.content
    assert "use the new action card's action" in panel.content.lower()

    # An out-of-date panel is refused and redrawn; nothing changes.
    before = ENGINE.dump(await state_of(world, sid))
    result = await click(world.ada, spare, "Pile 2")
    assert "out of date" in result.response.content
    assert ENGINE.dump(await state_of(world, sid)) == before
    assert find(result.response, kind="queen")

    # Step 2: the Queen. Two cards of different suits: a private error, state unchanged.
    assert find(panel, kind="queen")["max_values"] == 2
    result = await pick(world.ada, panel, "queen", ["1", "2"])
    assert [f.content for f in result.followups] == [
        "The Queen takes two pool cards of the same suit, not from a run with a token."
    ]
    assert all(f.ephemeral for f in result.followups)
    assert ENGINE.dump(await state_of(world, sid)) == before
    result = await pick(world.ada, panel, "queen", ["4", "6"])
    panel = result.response
    assert "took 3♥, 9♥ from the pool" in world.channel.last_message.content
    assert "Ada's hand (11 cards)" in panel.attachments[0].description

    # Step 3: option A with the token, from the listed legal runs.
    assert option_values(find(panel, kind="layt")) == ["2H.3H.4H"]
    result = await pick(world.ada, panel, "layt", ["2H.3H.4H"])
    panel = result.response
    assert "laid the run 2♥ 3♥ 4♥ with their token" in world.channel.last_message.content
    assert "Ada: 3/28 cards" in world.channel.last_message.attachments[0].description

    # Step 4: the exchange: first the hand card, then the pool position.
    cards = option_values(find(panel, kind="xch"))
    assert sorted(cards) == ["10D", "3H", "5D", "7D", "9D"]
    result = await pick(world.ada, panel, "xch", ["5D"])
    panel = result.response
    assert "Exchange **5♦**" in panel.content
    positions = [c for c in controls(panel) if ":xch:v:5D" in c.get("custom_id", "")]
    assert len(positions) == 1
    assert option_values(positions[0]) == ["3", "8"]
    result = await panel_pick(world.ada, panel, positions[0]["custom_id"], ["3"])
    panel = result.response
    assert "exchanged 5♦ for 8♣ at pool position 3" in world.channel.last_message.content

    # Step 5: the discard ends the turn; the panel says whose turn it is now.
    assert "8S" in option_values(find(panel, kind="dis"))
    result = await pick(world.ada, panel, "dis", ["8S"])
    panel = result.response
    assert "**Ada** discarded 8♠. **Bo** drew a card and turned up " in world.channel.last_message.content
    assert f"your turn is over. It is now <@{world.bo.id}>'s turn" in panel.content
    assert panel.components == []
    game = world.channel.last_message
    assert f"It is <@{world.bo.id}>'s turn" in game.content
    state = await state_of(world, sid)
    assert (state.current, state.turn, len(state.hands[0])) == (1, 1, 7)

    # Two more full turns through the panel, Bo then Ada.
    panel = await plain_turn(world.bo, await open_panel(world.bo, game))
    assert f"It is now <@{world.ada.id}>'s turn" in panel.content
    panel = await plain_turn(world.ada, await open_panel(world.ada, game))
    state = await state_of(world, sid)
    assert (state.current, state.turn) == (1, 3)
    description = world.channel.last_message.attachments[0].description
    assert description.startswith("Octa, turn 4.")
    assert "'s hand" not in description
    assert hand_text not in public_texts(world.channel.last_message)


async def panel_pick(actor, message, custom_id, values):
    return await actor.select(message, values, custom_id=custom_id)


async def test_acting_out_of_turn_or_with_a_stale_panel_changes_nothing(world):
    game, sid = await start(world)
    panel = await open_panel(world.ada, game)
    spare = await open_panel(world.ada, game)
    await plain_turn(world.ada, panel)
    before = ENGINE.dump(await state_of(world, sid))
    assert before["current"] == 1
    # Ada's second panel still shows step 1 of her finished turn: refused, redrawn, nothing changes.
    result = await click(world.ada, spare, "Pile 1")
    assert not result.followups
    assert result.response.id == spare.id
    assert "out of date" in result.response.content
    assert f"It is now <@{world.bo.id}>'s turn" in result.response.content
    assert result.response.components == []
    # A non-player has neither a hand nor a panel.
    for label in ("My hand", "Turn panel"):
        result = await world.cy.click(world.channel.last_message, label=label)
        assert result.ephemeral
        assert private_texts(result) == ["You are not playing in this game."]
    assert ENGINE.dump(await state_of(world, sid)) == before


async def test_panel_controls_survive_a_restart(world, settings):
    game, sid = await start(world)
    panel = await open_panel(world.ada, game)
    await world.restart(settings, [OctaAdapter])
    result = await click(world.ada, panel, "Pile 1")
    assert not result.followups
    assert (await state_of(world, sid)).step == "action"
    assert "Queen" in result.response.content


async def redeal(world, sid, options) -> None:
    """Test set-up only: replace the running game's cards with an engine test deal (engines/octa/testing.py)."""
    await world.set_state(sid, ENGINE.new_game(2, options, SEED))


async def test_laying_a_run_by_picking_its_cards(world):
    game, sid = await start(world)
    # Ten hearts in a row make 44 possible runs: too many to list, so the panel asks for the cards.
    hearts = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    await redeal(
        world,
        sid,
        {
            "deal": {
                "first": 0,
                "hands": [hearts, ["AD", "2S", "3S", "4D", "6H", "10C", "QH", "KS"]],
                "action_piles": [["JH"], ["QS"]],
                "action_stack_top": ["KC"],
                "stock_top": ["5C"],
            }
        },
    )
    panel = await open_panel(world.ada, game)
    panel = (await click(world.ada, panel, "Pile 1")).response  # K♣ on J♥: no action, on to the options
    select = find(panel, kind="laym")
    assert sorted(option_values(select)) == sorted(hearts)
    assert (select["min_values"], select["max_values"]) == (3, 10)
    before = ENGINE.dump(await state_of(world, sid))
    result = await pick(world.ada, panel, "laym", ["2H", "4H", "5H"])
    assert private_texts(result)[-1] == (
        "Those cards are not a run: 3 or more cards of one suit in a row (Ace low or high)."
    )
    assert result.followups[-1].ephemeral
    assert ENGINE.dump(await state_of(world, sid)) == before
    result = await pick(world.ada, panel, "laymt", ["5H", "3H", "4H"])
    assert "laid the run 3♥ 4♥ 5♥ with their token" in world.channel.last_message.content
    assert "Exchange" in result.response.content


async def test_a_finished_game(world):
    game, sid = await start(world)
    await redeal(world, sid, near_win_options())  # seat 0 (Ada) adds 5♣ to her club run and wins

    panel = await open_panel(world.ada, game)
    panel = (await click(world.ada, panel, "Pile 1")).response
    add = find(panel, kind="add")
    assert "a.3.5C" in option_values(add)
    result = await pick(world.ada, panel, "add", ["a.3.5C"])
    panel = result.response
    assert panel.content.startswith("**Octa: the game is over.**")
    assert panel.components == []
    game = world.channel.last_message
    assert f"🏆 <@{world.ada.id}> won (an Octa and 28+ cards on the table)" in game.content
    assert [c.get("label") for c in controls(game)] == ["Rematch"]
    assert "Ada wins with an Octa!" in game.attachments[0].description
    result = await world.bo.slash(world.channel, "octa board")
    assert result.response.content == "There is no Octa game running in this channel."
    stats = await world.bo.slash(world.channel, "stats")
    assert "won of 1" in stats.response.content


async def test_the_computer_plays_its_turn(world):
    world.platform.challenges.new_seed = lambda: SEED
    me = MemberActor(world.env, world.guild, UserHandle(world.env, world.env.backend.get_user(world.bot.user.id)))
    result = await world.bo.slash(world.channel, "octa challenge", opponent=me, level="easy")
    record = await world.platform.store.live_session(world.channel.id)
    sid = record.id
    # The game message is posted in the channel; the command's own answer is private.
    assert result.ephemeral
    assert result.response.id != record.message_id
    game = next(m for m in world.channel.history() if m.id == record.message_id)
    assert not game.flags.ephemeral
    assert f"It is <@{world.bo.id}>'s turn" in game.content
    assert "**Bo** vs **TestBot**" in game.content
    panel = await plain_turn(world.bo, await open_panel(world.bo, game))
    await world.env.advance_time(1)
    state = await state_of(world, sid)
    assert (state.current, state.turn) == (0, 2)  # the computer played a whole turn
    game = next(m for m in world.channel.history() if m.id == record.message_id)
    assert f"It is <@{world.bo.id}>'s turn" in game.content
    assert "TestBot**" in game.content  # its last move, by name
    assert await world.platform.store.count_actions(sid) > 4
    panel = await open_panel(world.bo, game)
    assert "Pile 1" in (controls(panel)[0].get("label") or "")


async def test_rules_summary(world):
    result = await world.ada.slash(world.channel, "rules", game="octa")
    text = result.response.embeds[0].description
    for needle in ("Octa", "28 cards", "Turn panel", "My hand", "/octa challenge", "Pile 1", "exchange"):
        assert needle in text
