"""Octa through SimCord: challenge, the private turn menu step by step, errors, the end, the computer;
the menu over many real positions (every legal action reachable, nothing else), the narration."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from simcord.actors import MemberActor
from simcord.builders import UserHandle

from bot.core.sessions import STALE_TEXT, SessionMeta
from bot.dev.world import private_texts
from bot.games.octa import TURN_MENU, OctaAdapter, formality
from bot.ui.adapter import GameSession
from bot.ui.game_message import Table
from engines.octa import ENGINE, choose_action
from engines.octa.testing import near_win_options
from tests.bot.answers import opened_menu, private_answer

# Seed 8: Ada (seat 0) starts; the revealed QH matches either pile (KH, JH); her hand holds
# 2H 3H 4H and the pool holds 3H (position 4) and 9H (position 6).
SEED = 8


@pytest.fixture
def games():
    return [OctaAdapter]


# ------------------------------------------------------------------ helpers


def controls(message) -> list[dict]:
    """Every button and select of a message (a channel message or an interaction's message)."""
    rows = [row.to_dict() if hasattr(row, "to_dict") else row for row in message.components]
    return [c for row in rows for c in row["components"]]


def the_select(menu) -> dict:
    """The one select of a menu step."""
    (select,) = controls(menu)
    return select


def option_values(select: dict) -> list[str]:
    return [o["value"] for o in select.get("options", [])]


def option_labels(menu) -> dict[str, str]:
    return {o["value"]: o["label"] for o in the_select(menu)["options"]}


def value_of(menu, label_start: str) -> str:
    """The value of the option of the menu's select labelled ``label_start`` (or the one whose label starts so)."""
    labels = option_labels(menu)
    found = [value for value, label in labels.items() if label == label_start]
    found = found or [value for value, label in labels.items() if label.startswith(label_start)]
    assert len(found) == 1, (label_start, option_labels(menu))
    return found[0]


async def choose(actor, menu, label_start: str):
    return await actor.select(menu, [value_of(menu, label_start)])


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
    panel = opened_menu(await actor.click(game, label="Turn panel"), game)
    assert [a.filename for a in panel.attachments] == ["octa_hand.png"]
    return panel


async def plain_turn(actor, world, game, session_id) -> int:
    """Finish a turn through the panel the simplest legal way: pile 1, skip, no option, no exchange,
    discard the first card offered (or end the turn). The panel goes on from step to step and is
    opened again only when a click closed it. Returns the clicks it took (opening included)."""
    turn = (await state_of(world, session_id)).turn
    clicks, panel = 0, None
    for _ in range(16):
        if (await state_of(world, session_id)).turn != turn:
            return clicks
        if panel is None or not panel.components:
            panel = private_answer(await actor.click(game, label="Turn panel"))
            clicks += 1
            if not panel.components:  # a single legal action (finish option B): played at once
                continue
        values = option_values(the_select(panel))
        wanted = next((v for v in ("pile0", "skip_action", "pass_step", "discard", "end_turn") if v in values), None)
        result = await actor.select(panel, [wanted or values[0]])  # no kind offered: a discard's card
        clicks += 1
        assert not result.followups, [f.content for f in result.followups]
    raise AssertionError("the turn did not end")


def public_texts(message) -> str:
    return message.content + " ".join(a.description or "" for a in message.attachments)


# ------------------------------------------------------------------ tests


async def test_full_turns_through_the_turn_panel(world):
    game, sid = await start(world)
    assert "Turn panel" in [c.get("label") for c in controls(game)]
    assert "My hand" in [c.get("label") for c in controls(game)]

    # Only the player on turn gets a menu; the others are told why, privately.
    result = await world.cy.click(game, label="Turn panel")
    assert result.ephemeral
    assert private_texts(result) == ["You are not playing in this game."]
    result = await world.bo.click(game, label="Turn panel")
    assert result.ephemeral
    assert private_texts(result) == [f"It is <@{world.ada.id}>'s turn."]

    # Step 1: the action pile. The hand is drawn privately, the public message shows no hand.
    panel = await open_panel(world.ada, game)
    hand_text = panel.attachments[0].description
    assert hand_text.startswith("Ada's hand (9 cards)")
    assert "Put the revealed action card" in panel.content
    assert "'s hand" not in public_texts(world.channel.last_message)
    spare = await open_panel(world.ada, game)  # a second menu, soon out of date
    await choose(world.ada, panel, "Pile 1 (on KH)")
    # The panel tells what was done and goes on with the next step (the hand drawn again).
    assert panel.content.startswith("Done. **Ada** put QH on action pile 1")
    assert "use the new action card's action" in panel.content.lower()
    assert [a.filename for a in panel.attachments] == ["octa_hand.png"]
    assert "Ada** put QH on action pile 1" in world.channel.last_message.content
    assert "Queen" in option_labels(panel)["queen"]
    panel = await open_panel(world.ada, game)  # opened again from the game message: the same step
    assert "use the new action card's action" in panel.content.lower()

    # An out-of-date menu is refused; nothing changes.
    before = ENGINE.dump(await state_of(world, sid))
    result = await choose(world.ada, spare, "Pile 2")
    assert private_texts(result)[-1] == STALE_TEXT
    assert "out of date" in STALE_TEXT
    assert ENGINE.dump(await state_of(world, sid)) == before

    # Step 2: the Queen: the pool cards that have a partner of their suit (not the lone AS at 8).
    await choose(world.ada, panel, "Queen")
    assert "Queen: choose 2 pool cards of one suit" in panel.content
    assert sorted(option_values(the_select(panel))) == ["1", "2", "3", "4", "5", "6", "7"]
    assert (the_select(panel)["min_values"], the_select(panel)["max_values"]) == (2, 2)
    # Two cards of different suits: a private refusal, state unchanged, the menu still there.
    result = await world.ada.select(panel, ["1", "2"])
    assert private_texts(result)[-1] == "Those choices do not go together: pick again."
    assert all(f.ephemeral for f in result.followups)
    assert ENGINE.dump(await state_of(world, sid)) == before
    result = await world.ada.select(panel, ["4", "6"])
    assert "took 3H, 9H from the pool" in world.channel.last_message.content
    panel = await open_panel(world.ada, game)
    assert "Ada's hand (11 cards)" in panel.attachments[0].description

    # Step 3: option A with the token, from the listed legal runs.
    await choose(world.ada, panel, "A: lay a run and put your token on it")
    assert option_values(the_select(panel)) == ["2H", "3H", "4H"]
    await world.ada.select(panel, ["2H", "3H", "4H"])
    assert "laid the run 2H 3H 4H with their token" in world.channel.last_message.content
    assert "Ada: 3/28 cards" in world.channel.last_message.attachments[0].description

    # Step 4: the exchange: first the hand card, then the pool position.
    panel = await open_panel(world.ada, game)
    await choose(world.ada, panel, "Exchange")
    cards = option_values(the_select(panel))
    assert sorted(cards) == ["10D", "3H", "5D", "7D", "9D"]
    await world.ada.select(panel, ["5D"])
    assert "Exchange **5D**" in panel.content
    assert option_values(the_select(panel)) == ["3", "8"]
    await world.ada.select(panel, ["3"])
    assert "exchanged 5D for 8C at pool position 3" in world.channel.last_message.content

    # Step 5: the discard ends the turn; the menu tells what happened, the game message whose turn it is.
    panel = await open_panel(world.ada, game)  # 9 cards and nothing else to do: straight to the card
    assert "Discard a card" in panel.content
    assert "8S" in option_values(the_select(panel))
    await world.ada.select(panel, ["8S"])
    assert "**Ada** discarded 8S. **Bo** drew a card and turned up " in world.channel.last_message.content
    assert panel.content.startswith("Done. **Ada** discarded 8S. **Bo** drew a card")
    assert panel.components == []
    game = world.channel.last_message
    assert f"It is <@{world.bo.id}>'s turn" in game.content
    state = await state_of(world, sid)
    assert (state.current, state.turn, len(state.hands[0])) == (1, 1, 7)

    # Two more full turns through the menu, Bo then Ada.
    await plain_turn(world.bo, world, game, sid)
    assert f"It is <@{world.ada.id}>'s turn" in world.channel.last_message.content
    await plain_turn(world.ada, world, game, sid)
    state = await state_of(world, sid)
    assert (state.current, state.turn) == (1, 3)
    description = world.channel.last_message.attachments[0].description
    assert description.startswith("Octa, turn 4.")
    assert "'s hand" not in description
    assert hand_text not in public_texts(world.channel.last_message)


async def test_acting_out_of_turn_or_with_a_stale_panel_changes_nothing(world):
    game, sid = await start(world)
    spare = await open_panel(world.ada, game)
    await plain_turn(world.ada, world, game, sid)
    before = ENGINE.dump(await state_of(world, sid))
    assert before["current"] == 1
    # Ada's second menu still shows step 1 of her finished turn: refused, nothing changes.
    result = await choose(world.ada, spare, "Pile 1")
    assert private_texts(result)[-1] == f"It is <@{world.bo.id}>'s turn."
    assert result.followups[-1].ephemeral
    # A non-player has neither a hand nor a menu.
    for label in ("My hand", "Turn panel"):
        result = await world.cy.click(world.channel.last_message, label=label)
        assert result.ephemeral
        assert private_texts(result) == ["You are not playing in this game."]
    assert ENGINE.dump(await state_of(world, sid)) == before
    # Once Bo has played, it is Ada's turn again, but her old menu is out of date.
    await plain_turn(world.bo, world, game, sid)
    before = ENGINE.dump(await state_of(world, sid))
    assert before["current"] == 0
    result = await choose(world.ada, spare, "Pile 1")
    assert private_texts(result)[-1] == STALE_TEXT
    assert ENGINE.dump(await state_of(world, sid)) == before


async def test_panel_controls_survive_a_restart(world, settings):
    game, sid = await start(world)
    panel = await open_panel(world.ada, game)
    await world.restart(settings, [OctaAdapter])
    result = await choose(world.ada, panel, "Pile 1")
    assert not result.followups
    assert (await state_of(world, sid)).step == "action"
    assert panel.content.startswith("Done. **Ada** put QH on action pile 1")
    assert "Queen" in (await open_panel(world.ada, game)).content


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
    await choose(world.ada, panel, "Pile 1")  # KC on JH: no action, on to the options
    panel = await open_panel(world.ada, game)
    await choose(world.ada, panel, "A: lay a run")
    select = the_select(panel)
    assert sorted(option_values(select)) == sorted(hearts)
    assert (select["min_values"], select["max_values"]) == (3, 10)
    before = ENGINE.dump(await state_of(world, sid))
    result = await world.ada.select(panel, ["2H", "4H", "5H"])  # not a run: no such action
    assert private_texts(result)[-1] == "Those choices do not go together: pick again."
    assert result.followups[-1].ephemeral
    assert ENGINE.dump(await state_of(world, sid)) == before
    panel = await open_panel(world.ada, game)
    await choose(world.ada, panel, "A: lay a run and put your token on it")
    await world.ada.select(panel, ["5H", "3H", "4H"])
    assert "laid the run 3H 4H 5H with their token" in world.channel.last_message.content
    assert "Exchange" in (await open_panel(world.ada, game)).content


async def test_a_finished_game(world):
    game, sid = await start(world)
    await redeal(world, sid, near_win_options())  # seat 0 (Ada) adds 5C to her club run and wins

    panel = await open_panel(world.ada, game)
    await choose(world.ada, panel, "Pile 1")
    panel = await open_panel(world.ada, game)
    await choose(world.ada, panel, "Any time: add cards to your runs")
    assert option_labels(panel)["3"] == "Your run 4: 2C 3C 4C"
    await world.ada.select(panel, ["3"])  # the club run takes only 5C: played at once
    assert panel.content.startswith("Done. **Ada** added 5C to their run 4. **Ada** has an Octa")
    assert panel.components == []
    game = world.channel.last_message
    assert f"🏆 <@{world.ada.id}> won (an Octa and 28+ cards on the table)" in game.content
    assert [c.get("label") for c in controls(game)] == ["Rematch", "Replay", "Review"]
    assert "Ada wins with an Octa!" in game.attachments[0].description
    result = await world.bo.slash(world.channel, "board")
    assert result.response.content.startswith("There is no game running here.")
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
    await plain_turn(world.bo, world, game, sid)
    await world.env.advance_time(1)
    state = await state_of(world, sid)
    assert (state.current, state.turn) == (0, 2)  # the computer played a whole turn
    game = next(m for m in world.channel.history() if m.id == record.message_id)
    assert f"It is <@{world.bo.id}>'s turn" in game.content
    assert "TestBot**" in game.content  # its last move, by name
    assert await world.platform.store.count_actions(sid) > 4
    panel = await open_panel(world.bo, game)
    assert "Pile 1" in the_select(panel)["options"][0]["label"]


# A deal with nothing to decide between the pile and the discard: KC turned up matches neither
# pile, no run in hand, no token out, no hand card beside a pool card of its suit. The computer
# (seat 1) holds a 7-card heart run for its own turn.
QUIET_DEAL = {
    "deal": {
        "first": 0,
        "hands": [
            ["2H", "5H", "8H", "2D", "5D", "8D", "10H", "10D"],
            ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "10C"],
        ],
        "pool": ["2S", "5S", "8S", "2C", "5C", "8C", "10S", "10C"],
        "stock_top": ["7D", "9C"],
        "action_piles": [["JH"], ["QS"]],
        "action_stack_top": ["KC", "JC"],
    }
}


async def test_steps_with_nothing_to_decide_are_taken_for_the_player(world):
    game, sid = await start(world)
    await redeal(world, sid, QUIET_DEAL)
    panel = await open_panel(world.ada, game)
    await choose(world.ada, panel, "Pile 1")
    # No option and no exchange were possible: both done in the same click, and said so.
    assert panel.content.startswith(
        "Done. **Ada** put KC on action pile 1.\n"
        "Nothing to decide, so done for you: **Ada** chose no option. **Ada** did not exchange."
    )
    assert "Discard a card" in panel.content  # the panel goes straight on to the discard
    assert (await state_of(world, sid)).step == "discard"
    await world.ada.select(panel, ["7D"])
    assert panel.content.startswith("Done. **Ada** discarded 7D. **Bo** drew a card")
    assert panel.components == []
    state = await state_of(world, sid)
    assert (state.current, state.turn) == (1, 1)
    # The game message tells Ada's whole turn, each action in order.
    told = world.channel.last_message.content
    turn = ("drew a card", "put KC on action pile 1", "chose no option", "did not exchange", "discarded 7D")
    places = [told.index(f"**Ada** {said}") for said in turn]
    assert places == sorted(places), told


async def test_a_quiet_turn_takes_three_clicks(world):
    game, sid = await start(world)
    await redeal(world, sid, QUIET_DEAL)
    # The panel, the pile, the card to discard: before, each of "No option", "No exchange" and
    # the discard also needed the panel opened again (8 clicks).
    assert await plain_turn(world.ada, world, game, sid) == 3


async def test_the_computer_s_whole_turn_is_told(world):
    world.platform.challenges.new_seed = lambda: SEED
    me = MemberActor(world.env, world.guild, UserHandle(world.env, world.env.backend.get_user(world.bot.user.id)))
    await world.bo.slash(world.channel, "octa challenge", opponent=me)
    record = await world.platform.store.live_session(world.channel.id)
    await redeal(world, record.id, QUIET_DEAL)
    game = world.message(record.message_id)
    await plain_turn(world.bo, world, game, record.id)
    await world.env.advance_time(1)
    state = await state_of(world, record.id)
    assert (state.current, state.turn) == (0, 2), "the computer played a whole turn"
    told = world.message(record.message_id).content
    assert "**TestBot** drew a card and turned up JC." in told
    assert "**TestBot** laid the run 2H 3H 4H 5H 6H 7H 8H" in told
    assert "**Bo** drew a card" in told  # Bo's own draw, which opens his turn
    assert "**Bo** discarded" not in told, "Bo's turn before is not told again"
    # One sentence per action of the computer, and its automatic draw.
    logged = await world.platform.store.actions(record.id)
    computer_actions = [action for _, player, action in logged if player == world.bot.user.id]
    assert len(computer_actions) >= 4
    assert told.count("**TestBot** ") == len(computer_actions) + 1, told


def _step_choices(state, seat: int) -> list[dict]:
    return [a for a in ENGINE.legal_actions(state, seat) if a["type"] not in ("resign", "add_to_run")]


def test_a_formality_never_hides_a_choice():
    """Over many positions: what is taken for a player is legal, and passing a step beside
    additions to runs leaves nothing after any of them but passing (they open no choice)."""
    rng = random.Random(5)
    taken, beside_additions = set(), 0
    for seed in range(8):
        state = ENGINE.new_game(2, {}, seed)
        for _ in range(120):
            if ENGINE.outcome(state):
                break
            seat = state.current
            formal = formality(state, seat)
            legal = [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"]
            if formal is not None:
                assert formal in legal
                taken.add(formal["type"])
                additions = [a for a in legal if a["type"] == "add_to_run" and formal["type"] == "pass_step"]
                beside_additions += bool(additions)
                for addition in additions:
                    assert _step_choices(ENGINE.apply(state, seat, addition), seat) == [formal], addition
            action = rng.choice(legal) if rng.random() < 0.4 else choose_action(state, seat, "easy", seed)
            state = ENGINE.apply(state, seat, action)
    assert {"pass_step", "skip_action"} <= taken
    assert beside_additions > 0, "no position passed a step beside additions: nothing was checked"


async def test_rules_summary(world):
    result = await world.ada.slash(world.channel, "rules", game="octa")
    text = result.response.embeds[0].description
    for needle in ("Octa", "28 cards", "Turn panel", "My hand", "/octa challenge", "Pile 1", "exchange"):
        assert needle in text


# ------------------------------------------------------------------ the menu over many positions


def _session(state, names=("Ada", "Bo")) -> GameSession:
    record = SimpleNamespace(id=7, game="octa", status="active", players=[101, 202], actions=state.ply)
    return GameSession(record, state, SessionMeta(names=list(names)))


def _key(action: dict) -> str:
    return repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


def _walk(menus, session: GameSession, seat: int, chosen: tuple[str, ...] = ()) -> list[dict]:
    """Every action the menu plays, trying each option of each step shown (each key set of a many-step)."""
    at, index = menus.narrow(TURN_MENU, ENGINE, session, seat, chosen)
    if index is None:
        return [at.actions[0]]
    step = TURN_MENU.steps[index]
    values = step.values(at.actions)
    assert step.prompt(at)
    assert all(step.label(at, value) for value in values)
    assert len("|".join(chosen)) <= 60  # the choices so far ride in the select's custom id
    if step.many:
        assert len(values) <= 25
        picks = list(dict.fromkeys("+".join(map(str, step.key(a))) for a in at.actions))
    else:
        picks = values
    return [action for pick in picks for action in _walk(menus, session, seat, (*chosen, pick))]


@pytest.mark.parametrize("seed", range(5))
async def test_the_menu_reaches_every_legal_action_and_nothing_else(world, seed):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, {}, seed)
    steps_seen, kinds_seen = set(), set()
    for _ in range(150):
        if ENGINE.outcome(state):
            break
        seat = state.current
        legal = [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"]
        reached = _walk(world.platform.menus, _session(state), seat)
        assert sorted(map(_key, reached)) == sorted({_key(a) for a in legal}), state.step
        steps_seen.add(state.step)
        kinds_seen |= {a.get("action", a["type"]) for a in legal}
        # Mostly the computer's choice, sometimes any legal action (Jacks, lines of option B...).
        action = rng.choice(legal) if rng.random() < 0.4 else choose_action(state, seat, "easy", seed)
        state = ENGINE.apply(state, seat, action)
    assert {"place_action", "option", "exchange", "discard"} <= steps_seen


# ------------------------------------------------------------------ narration


def _narration(session: GameSession) -> str:
    table = object.__new__(Table)  # only its narration: no platform around it
    table.games = {"octa": OctaAdapter}
    return table.narration(session)


def test_the_narration_names_each_player_by_their_own_name():
    """A player named "Seat 2" once had their moves told under the other player's name."""
    deal = {"first": 0, "hands": [["7H", "2C"], ["9S"]], "action_piles": [["JH"], ["QS"]], "action_stack_top": ["KC"]}
    state = ENGINE.new_game(2, {"deal": deal}, 8)
    for action in ({"type": "flip", "pile": 0}, {"type": "pass_step"}, {"type": "pass_step"}):
        state = ENGINE.apply(state, 0, action)  # KC on JH: no action; no option; no exchange
    state = ENGINE.apply(state, 0, {"type": "discard", "card": "7H"})
    said = _narration(_session(state, names=["Seat 2", "Bo"]))
    assert said.startswith("**Seat 2** discarded 7H. **Bo** drew a card")
    assert "**Bo** discarded" not in said
    assert OctaAdapter.narrate(state.events[0], ["A", "B"]) == "A discarded 7H."  # the render narrator


def test_names_in_the_narration_are_escaped_by_the_session():
    state = ENGINE.apply(ENGINE.new_game(2, {"deal": {"first": 0}}, 8), 0, {"type": "flip", "pile": 0})
    assert _narration(_session(state, names=["*Ada*", "Bo"])).startswith("**\\*Ada\\*** put ")
