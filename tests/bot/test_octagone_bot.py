"""Octagone through SimCord: challenges (2 and 4 players, the computer), the Place menu (it reaches
exactly the legal actions; stale and restarted menus), `/octagone place`, skips, hidden hands,
illegal inputs and a whole game to its end."""

from __future__ import annotations

import dataclasses
import random

import pytest
from simcord.actors import MemberActor
from simcord.builders import UserHandle

from bot.core.sessions import STALE_TEXT
from bot.dev.world import menu_endings, private_texts
from bot.games.octagone import PLACE_MENU, OctagoneAdapter
from engines.octagone import (
    COLOURS,
    ENGINE,
    JOKER,
    aim_options,
    box_colour,
    choose_action,
    placeable_shields,
    shields_left,
)
from render.octagone import render_hand
from tests.bot.answers import private_answer


@pytest.fixture
def games():
    return [OctagoneAdapter]


# ------------------------------------------------------------------ helpers


async def session_by_id(world, session_id):
    return await world.platform.sessions.load(session_id)


def actor_of(world, session, seat):
    user_id = session.players[seat]
    return next(m for m in world.members if m.id == user_id)


def bot_member(world):
    return MemberActor(world.env, world.guild, UserHandle(world.env, world.env.backend.bot_user))


async def start_two(world, seed, **options):
    world.platform.new_seed = lambda: seed
    result = await world.ada.slash(world.channel, "octagone challenge", opponent=world.bo, **options)
    assert result.acknowledged
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    assert session.record.status == "active"
    assert session.players == [world.ada.id, world.bo.id]
    return session


def held_words(state, names, seat):
    """The words a hand picture uses for a seat's shields, e.g. "2 orange, 3 sky blue, 3 jokers"."""
    return render_hand(state, names, seat).description.split(": ", 1)[1].split(". ")[0]


def assert_hands_hidden(message, session):
    """No hand appears in a public message: neither in its text nor in its picture's description."""
    texts = [message.content, *(a.description or "" for a in message.attachments)]
    for text in texts:
        assert "Your shields" not in text
        for seat in range(session.state.players):
            assert f"{session.names[seat]} holds" not in text
            assert held_words(session.state, session.names, seat) not in text


async def play_by_command(actor, world, action):
    """Issue one engine action through `/octagone place` and check it is answered privately."""
    options = {"direction": action["direction"]}
    if action["type"] == "white_lady":
        options["box"] = action["box"].lower()  # boxes are read case-insensitively
    else:
        options["shield"] = action["shield"]
    result = await actor.slash(world.channel, "octagone place", **options)
    assert result.ephemeral
    return result


def option_values(menu):
    return [o["value"] for o in menu.components[0]["components"][0]["options"]]


async def play_by_menu(actor, world, action):
    """The same action through the Place button: (row, column,) shield, then direction selects."""
    shown = await actor.click(world.channel.last_message, label="Place")
    menu = private_answer(shown)
    if action["type"] == "white_lady":
        await actor.select(menu, [action["box"][0]])
        await actor.select(menu, [action["box"]])
    elif action["shield"] in option_values(menu):  # a single fitting shield is not asked for
        await actor.select(menu, [action["shield"]])
    last = await actor.select(menu, [action["direction"]])
    assert menu.content.startswith("Done."), menu.content
    assert menu.components == []
    return last


# -------------------------------------------------------------------- tests


async def test_two_player_game_to_the_end(world):
    session = await start_two(world, seed=3)
    names = session.names
    skipped_seen = False
    moves = 0
    played = []
    while session.record.status == "active":
        state = session.state
        seat = state.to_move
        action = choose_action(state, seat, "medium", moves)
        played.append((seat, action))
        actor = actor_of(world, session, seat)
        if moves in (0, 3):
            await play_by_menu(actor, world, action)
        else:
            result = await play_by_command(actor, world, action)
            assert private_texts(result)[-1].startswith("Done.")
        moves += 1
        session = await session_by_id(world, session.id)
        message = world.channel.last_message
        assert message.id == session.record.message_id  # the game message is edited, not reposted
        assert_hands_hidden(message, session)
        where = action.get("box") or state.target
        assert f"**{names[seat]}** placed" in message.content
        assert f"on {where} aiming {action['direction']} (" in message.content
        assert session.state.events, "every action has events"
        for event in session.state.events:
            assert event.ply == session.state.ply
            if event.kind == "skip":
                skipped_seen = True
                assert (
                    f"**{names[event.seat]}** has no "
                    f"{box_colour(event.data['box']).replace('sky', 'sky blue')} shield or joker for "
                    f"{event.data['box']} and skips."
                ) in message.content
        assert moves < 60
    assert skipped_seen, "seed 3 has skips: they must be announced"
    assert session.record.status == "finished"
    state = session.state
    # The engine's verdict for this seed and these moves, replayed here without the bot.
    replayed = ENGINE.new_game(2, session.options, 3)
    for seat, action in played:
        replayed = ENGINE.apply(replayed, seat, action)
    counts = [shields_left(state, seat) for seat in range(2)]
    assert counts == [shields_left(replayed, seat) for seat in range(2)]
    outcome = ENGINE.outcome(replayed)
    assert outcome == ENGINE.outcome(state)
    final = world.channel.last_message
    assert f"Shields left: Ada {counts[0]} · Bo {counts[1]}" in final.content
    assert "Final count" in final.content
    members = [world.ada, world.bo]
    if outcome.is_draw:
        assert "🤝 Draw" in final.content
    else:
        assert f"🏆 {' & '.join(members[seat].mention for seat in outcome.winners)} won" in final.content
    assert [c.label for row in final.components for c in row.children] == ["Rematch", "Replay", "Review"]
    for seat, member in enumerate(members):
        stats = await member.slash(world.channel, "stats")
        won = int(not outcome.is_draw and seat in outcome.winners)
        assert f"**Octagone**: {won} won of 1" in stats.response.content


async def test_place_button_flow_menus(world):
    session = await start_two(world, seed=11)
    starter = session.state.to_move
    actor = actor_of(world, session, starter)
    shown = await actor.click(world.channel.last_message, label="Place")
    menu = private_answer(shown)
    assert "White Lady" in menu.content
    rows = menu.components[0]["components"][0]["options"]
    assert [o["value"] for o in rows] == list("ABCDEF")
    await actor.select(menu, ["C"])
    columns = menu.components[0]["components"][0]["options"]
    assert [o["value"] for o in columns] == [f"C{c}" for c in range(1, 8)]
    assert columns[3]["label"] == "C4 (green)"
    await actor.select(menu, ["C4"])
    aims = menu.components[0]["components"][0]["options"]
    assert [o["label"] for o in aims] == [
        "N → B4 (sky blue)",
        "NE → B5 (sky blue)",
        "E → C5 (green)",
        "SE → D5 (yellow)",
        "S → D4 (yellow)",
        "SW → D3 (yellow)",
        "W → C3 (green)",
        "NW → B3 (sky blue)",
    ]
    await actor.select(menu, ["NE"])
    assert menu.content.startswith("Done.")
    assert menu.content == f"Done. **{session.names[starter]}** placed the White Lady on C4 aiming NE (next target B5)."
    session = await session_by_id(world, session.id)
    assert session.state.target == "B5"
    public = world.channel.last_message.content
    assert "placed the White Lady on C4 aiming NE (next target B5)." in public
    assert "Target: **B5**" in public

    # The other player: a select of the shields that fit B5, then the directions from B5.
    seat = session.state.to_move
    other = actor_of(world, session, seat)
    shown = await other.click(world.channel.last_message, label="Place")
    menu = private_answer(shown)
    fitting = placeable_shields(session.state, seat)
    assert [o["value"] for o in menu.components[0]["components"][0]["options"]] == fitting
    shield = fitting[0]
    await other.select(menu, [shield])
    expected = [
        f"{o['direction']} → {o['box']} ({o['colour'].replace('sky', 'sky blue')})"
        for o in aim_options(session.state, shield)
    ]
    assert [o["label"] for o in menu.components[0]["components"][0]["options"]] == expected
    direction = aim_options(session.state, shield)[0]["direction"]
    await other.select(menu, [direction])
    after = await session_by_id(world, session.id)
    assert after.state.board["B5"].shield == shield
    assert after.state.board["B5"].direction == direction
    assert "The White Lady leaves C4." in world.channel.last_message.content


async def test_illegal_inputs_are_answered_privately(world):
    session = await start_two(world, seed=11, rules="basic")
    starter = session.state.to_move
    mover, waiter = actor_of(world, session, starter), actor_of(world, session, 1 - starter)
    before = ENGINE.dump(session.state)

    async def refused(actor, sentence, **options):
        result = await actor.slash(world.channel, "octagone place", **options)
        assert result.ephemeral
        assert sentence in private_texts(result)[-1], private_texts(result)
        assert ENGINE.dump((await session_by_id(world, session.id)).state) == before

    await refused(world.cy, "You are not playing in this game.", direction="N", box="C4")
    await refused(waiter, f"It is <@{mover.id}>'s turn.", direction="N", box="C4")
    await refused(mover, "give her `box`", direction="N")
    await refused(mover, "is not a box", direction="N", box="Z9")
    choices = await mover.autocomplete(world.channel, "octagone place", "box", "c")
    assert [c["value"] for c in choices] == [f"C{n}" for n in range(1, 8)]
    assert choices[3]["name"] == "C4 (green)"
    await refused(mover, "From A1 the arrow pointing N designates no box", direction="N", box="A1")
    clicked = await world.cy.click(world.channel.last_message, label="Place")
    assert clicked.ephemeral
    assert private_texts(clicked) == ["You are not playing in this game."]
    clicked = await waiter.click(world.channel.last_message, label="Place")
    assert clicked.ephemeral
    assert private_texts(clicked) == [f"It is <@{mover.id}>'s turn."]

    # An opening menu left open while the move is made by command goes stale.
    stale = private_answer(await mover.click(world.channel.last_message, label="Place"))
    await mover.select(stale, ["C"])
    await mover.select(stale, ["C2"])
    await play_by_command(mover, world, {"type": "white_lady", "box": "C2", "direction": "W"})
    session = await session_by_id(world, session.id)
    assert session.state.target == "C1"
    placed = ENGINE.dump(session.state)
    late = await mover.select(stale, ["W"])
    assert late.followups
    assert late.followups[-1].ephemeral
    assert late.followups[-1].content == f"It is <@{session.players[session.state.to_move]}>'s turn."
    assert ENGINE.dump((await session_by_id(world, session.id)).state) == placed

    seat, before = session.state.to_move, ENGINE.dump(session.state)
    player = actor_of(world, session, seat)
    hand = session.state.hands[seat]
    wrong = next(c for c in COLOURS if c != "green" and hand[c])
    await refused(player, "Box C1 is green (row C): play a green shield or a joker.", shield=wrong, direction="E")
    # Basic level: from the edge box C1 an arrow pointing W leaves the board and designates nothing.
    shield = placeable_shields(session.state, seat)[0]
    await refused(player, "designates none; try", shield=shield, direction="W")
    await refused(actor_of(world, session, 1 - seat), f"It is <@{player.id}>'s turn.", shield=shield, direction="E")
    await refused(world.cy, "You are not playing in this game.", shield=shield, direction="E")
    await refused(player, "The shield must go on the target box C1.", shield=shield, direction="E", box="D4")
    missing = next((c for c in COLOURS if hand[c] == 0), None)
    if missing is not None:
        await refused(player, "You have no", shield=missing, direction="E")
    # A direction menu for a target that changed is refused too.
    menu = private_answer(await player.click(world.channel.last_message, label="Place"))
    await player.select(menu, [shield])
    await play_by_command(player, world, {"type": "place", "shield": shield, "direction": "E"})
    late = await player.select(menu, ["E"])
    assert late.followups[-1].ephemeral
    assert "It is <@" in late.followups[-1].content


async def test_four_players_wait_for_all_accepts(world):
    bad = await world.ada.slash(world.channel, "octagone challenge", opponent=world.bo, partner=world.cy)
    assert bad.ephemeral
    assert "give both `partner` and `opponent2`" in private_texts(bad)[0]
    bad = await world.ada.slash(
        world.channel, "octagone challenge", opponent=world.bo, partner=world.cy, opponent2=world.di, rules="basic"
    )
    assert bad.ephemeral
    assert "Four players play the advanced level only" in private_texts(bad)[0]
    assert await world.platform.store.live_session(world.channel.id) is None

    world.platform.new_seed = lambda: 21
    # Mentioned in an unusual order on purpose: seats still follow challenger, opponent, partner, opponent2.
    await world.di.slash(world.channel, "octagone challenge", opponent=world.ada, partner=world.bo, opponent2=world.cy)
    challenge = world.channel.last_message
    for member in (world.ada, world.bo, world.cy):
        assert member.mention in challenge.content
    not_invited = await world.di.click(challenge, label="Accept")
    # The click updates nothing; its answer is a private follow-up.
    assert "This challenge is for" in private_texts(not_invited)[0]
    await world.cy.click(challenge, label="Accept")
    await world.ada.click(challenge, label="Accept")
    record = await world.platform.store.live_session(world.channel.id)
    assert record.status == "challenge"
    assert "waiting for" in world.channel.last_message.content
    place = await world.di.slash(world.channel, "octagone place", direction="N", box="C4")
    assert place.ephemeral
    assert "There is no Octagone game running" in private_texts(place)[0]
    await world.bo.click(challenge, label="Accept")
    session = await world.session()
    assert session.record.status == "active"
    assert session.players == [world.di.id, world.ada.id, world.bo.id, world.cy.id]
    assert session.state.players == 4
    assert session.state.level == "advanced"
    message = world.channel.last_message
    assert "**Di** & **Bo** vs **Ada** & **Cy**" in message.content
    assert "Pairs: Di & Bo 21 · Ada & Cy 21" in message.content
    assert_hands_hidden(message, session)
    # The starter opens and the next seat clockwise plays.
    starter = session.state.to_move
    await play_by_command(
        actor_of(world, session, starter), world, {"type": "white_lady", "box": "D4", "direction": "N"}
    )
    session = await session_by_id(world, session.id)
    assert session.state.board["D4"].seat == starter
    assert session.state.target == "C4"
    nxt = session.state.to_move
    assert nxt == (starter + 1) % 4 or any(e.kind == "skip" for e in session.state.events)


async def test_hands_stay_private(world):
    session = await start_two(world, seed=11)
    await play_by_command(
        actor_of(world, session, session.state.to_move), world, {"type": "white_lady", "box": "D4", "direction": "N"}
    )
    session = await session_by_id(world, session.id)
    for message in world.channel.history():
        assert_hands_hidden(message, session)
    for seat in (0, 1):
        actor = actor_of(world, session, seat)
        result = await actor.click(world.channel.last_message, label="My shields")
        assert result.ephemeral
        shown = result.followups[-1] if result.followups else result.response
        assert shown.ephemeral
        description = shown.attachments[0].description
        assert description == render_hand(session.state, session.names, seat).description
        assert description.startswith(f"Your Octagone shields, {session.names[seat]}:")
        other = held_words(session.state, session.names, 1 - seat)
        if other != held_words(session.state, session.names, seat):
            assert other not in description
    stranger = await world.cy.click(world.channel.last_message, label="My shields")
    assert stranger.ephemeral
    assert private_texts(stranger) == ["You are not playing in this game."]


async def test_open_hands_show_every_hand(world):
    session = await start_two(world, seed=11, open_hands=True)
    description = world.channel.last_message.attachments[0].description
    for seat in (0, 1):
        assert f"{session.names[seat]} holds" in description


async def test_against_the_computer(world):
    # Seed 14: the computer draws the White Lady and opens. (The platform runs two computer loops
    # at once when the human is skipped right after a computer move; this seed avoids that case,
    # see the report.)
    world.platform.new_seed = lambda: 14
    me = bot_member(world)
    await world.ada.slash(world.channel, "octagone challenge", opponent=me, level="easy")
    session = await world.session()
    assert session.players == [world.ada.id, me.id]
    assert session.state.starter == 1
    assert session.state.white_lady is not None
    assert "**TestBot** placed the White Lady" in world.channel.last_message.content
    moves = 0
    bot_moves = 0
    while session.record.status == "active":
        assert session.state.to_move == 0  # the computer has always answered by now
        action = choose_action(session.state, 0, "medium", moves)
        await play_by_command(world.ada, world, action)
        moves += 1
        session = await session_by_id(world, session.id)
        bot_moves = sum(1 for placed in session.state.board.values() if placed.seat == 1)
        if session.record.status == "active" and bot_moves:
            assert (
                "**TestBot** placed" in world.channel.last_message.content
                or "skips" in world.channel.last_message.content
            )
        assert moves < 40
    assert bot_moves >= 3
    assert session.record.status == "finished"
    assert "Final count" in world.channel.last_message.content
    assert list(world.platform.errors) == []


async def test_four_player_rematch_keeps_the_pairs(world):
    world.platform.new_seed = lambda: 21
    await world.ada.slash(
        world.channel, "octagone challenge", opponent=world.bo, partner=world.cy, opponent2=world.di, open_hands=True
    )
    challenge = world.channel.last_message
    for member in (world.bo, world.cy, world.di):
        await member.click(challenge, label="Accept")
    session = await world.session()
    assert session.players == [world.ada.id, world.bo.id, world.cy.id, world.di.id]
    description = world.channel.last_message.attachments[0].description
    assert all(f"{name} holds" in description for name in ("Ada", "Bo", "Cy", "Di"))  # open hands
    resigned = await world.di.slash(world.channel, "octagone resign")
    assert resigned.ephemeral
    finished = await session_by_id(world, session.id)
    assert finished.record.status == "finished"
    assert f"🏆 <@{world.ada.id}> & <@{world.cy.id}> won" in world.channel.last_message.content
    assert "🏁 Di resigned: no final count. Shields left:" in world.channel.last_message.content
    assert "Final count" not in world.channel.last_message.content, "a resignation is no count"
    # Bo asks for a rematch: Bo's partner (Di) still sits opposite Bo.
    await world.bo.click(world.channel.last_message, label="Rematch")
    rematch = world.channel.last_message
    assert "Octagone challenge" in rematch.content
    for member in (world.ada, world.cy, world.di):
        await member.click(rematch, label="Accept")
    again = await world.session()
    assert again.id != session.id
    assert again.record.status == "active"
    assert again.players[0] == world.bo.id
    assert again.players[2] == world.di.id
    assert set(again.players[1::2]) == {world.ada.id, world.cy.id}
    assert again.state.open_hands
    assert again.state.level == "advanced"
    # The extra jokers stay with Ada and Bo (the first game's defaults), wherever they sit now.
    holders = [again.players[seat] for seat in again.options["extra_joker_seats"]]
    assert sorted(holders) == sorted([world.ada.id, world.bo.id])


async def test_place_menu_survives_a_restart(world, settings):
    session = await start_two(world, seed=11)
    actor = actor_of(world, session, session.state.to_move)
    menu = private_answer(await actor.click(world.channel.last_message, label="Place"))
    await actor.select(menu, ["F"])
    await world.restart(settings, [OctagoneAdapter])
    await actor.select(menu, ["F7"])
    await actor.select(menu, ["NW"])
    assert menu.content.startswith("Done.")
    session = await session_by_id(world, session.id)
    assert session.state.board["F7"].shield == "white_lady"
    assert session.state.target == "E6"


async def test_rules_summarise_both_levels_and_the_commands(world):
    result = await world.ada.slash(world.channel, "rules", game="octagone")
    assert result.ephemeral
    text = result.response.embeds[0].description
    for words in (
        "fewest shields",
        "first free box",
        "Advanced level",
        "last** free box",
        "perimeter connections",
        "Four players",
        "/octagone challenge",
        "/octagone place",
        "each pair chooses who takes it (**Take our extra joker** on the challenge, or `/octagone joker`",
        "**Place**",
        "**My shields**",
    ):
        assert words in text


def reachable(world, session, seat):
    """Every action the Place menu can end on (each option's label and description checked on the way)."""
    return menu_endings(world.platform.menus, PLACE_MENU, ENGINE, session, seat)


@pytest.mark.parametrize(("players", "level"), [(2, "basic"), (2, "advanced"), (4, "advanced")])
async def test_the_place_menu_reaches_exactly_the_legal_actions(world, players, level):
    session = await start_two(world, seed=5)
    rng = random.Random(players * 10 + len(level))
    for seed in range(4):  # every position of four random games (one has a shield with no free box to aim at)
        state = ENGINE.new_game(players, {"level": level}, seed)
        while not state.over:
            seat = state.to_move
            legal = [a for a in ENGINE.legal_actions(state, seat) if a["type"] != "resign"]
            reached = reachable(world, dataclasses.replace(session, state=state), seat)
            assert sorted(map(repr, reached)) == sorted(map(repr, legal))
            state = ENGINE.apply(state, seat, rng.choice(legal))


async def test_a_stale_place_menu_is_refused(world):
    session = await start_two(world, seed=11)
    mover = session.state.to_move
    actor = actor_of(world, session, mover)
    stale = private_answer(await actor.click(world.channel.last_message, label="Place"))
    await actor.select(stale, ["C"])
    await play_by_command(actor, world, {"type": "white_lady", "box": "C4", "direction": "N"})
    session = await session_by_id(world, session.id)
    while session.state.to_move != mover:  # the opponent plays until it is the mover's turn again
        seat = session.state.to_move
        await play_by_command(actor_of(world, session, seat), world, choose_action(session.state, seat, "easy", 0))
        session = await session_by_id(world, session.id)
    before = ENGINE.dump(session.state)
    late = await actor.select(stale, ["C2"])
    assert private_texts(late)[-1] == STALE_TEXT
    assert ENGINE.dump((await session_by_id(world, session.id)).state) == before


async def test_a_shield_menu_opened_before_a_restart_places_after_it(world, settings):
    session = await start_two(world, seed=11)
    await play_by_command(
        actor_of(world, session, session.state.to_move), world, {"type": "white_lady", "box": "C4", "direction": "NE"}
    )
    session = await session_by_id(world, session.id)
    seat = session.state.to_move
    actor = actor_of(world, session, seat)
    menu = private_answer(await actor.click(world.channel.last_message, label="Place"))
    shield = placeable_shields(session.state, seat)[0]
    if shield in option_values(menu):
        await actor.select(menu, [shield])
    await world.restart(settings, [OctagoneAdapter])
    direction = aim_options(session.state, shield)[0]["direction"]
    await actor.select(menu, [direction])
    assert menu.content.startswith("Done.")
    after = await session_by_id(world, session.id)
    assert (after.state.board["B5"].shield, after.state.board["B5"].direction) == (shield, direction)


async def test_the_computer_takes_a_seat_in_four_players(world):
    """The computer as an opponent in pairs: the humans accept, then it plays its own seat."""
    world.platform.new_seed = lambda: 21
    me = bot_member(world)
    await world.ada.slash(
        world.channel, "octagone challenge", opponent=me, partner=world.bo, opponent2=world.cy, level="easy"
    )
    challenge = world.channel.last_message
    assert world.bo.mention in challenge.content
    assert world.cy.mention in challenge.content
    await world.bo.click(challenge, label="Accept")
    assert (await world.session()).status == "challenge", "Cy has not accepted yet"
    await world.cy.click(challenge, label="Accept")
    session = await world.session()
    assert session.status == "active"
    assert session.players == [world.ada.id, me.id, world.bo.id, world.cy.id]
    computer = session.players.index(me.id)
    for _ in range(12):  # the humans play; the computer answers whenever its seat is to move
        session = await world.session()
        if session is None or session.status != "active":
            break
        seat = ENGINE.to_act(session.state)[0]
        assert seat != computer, "the computer has always moved by now"
        actor = {world.ada.id: world.ada, world.bo.id: world.bo, world.cy.id: world.cy}[session.players[seat]]
        await play_by_command(actor, world, choose_action(session.state, seat, "easy", 1))
    moves_by_computer = [a for a in await world.platform.store.actions(session.id) if a[1] == me.id]
    assert moves_by_computer, "the computer played its seat"


# ------------------------------------------------------------- the extra jokers (four players)


def jokers_dealt(state):
    """Each seat's jokers as dealt: those in hand plus those it has placed (the computer may have played)."""
    placed = [sum(1 for p in state.board.values() if p.seat == seat and p.shield == JOKER) for seat in range(4)]
    return [state.hands[seat][JOKER] + placed[seat] for seat in range(4)]


async def take_joker(actor, world):
    result = await actor.slash(world.channel, "octagone joker")
    assert result.ephemeral
    return private_texts(result)[0]


async def click_joker(actor, challenge):
    """The challenge message's own button for the extra joker."""
    result = await actor.click(challenge, label="Take our extra joker")
    answers = [m for m in [result.response, *result.followups] if m is not None and m.id != challenge.id]
    assert answers
    assert all(m.ephemeral for m in answers)
    return answers[0].content


def extra_jokers_text(*members):
    return "🃏 Extra jokers: " + " and ".join(member.mention for member in members)


async def challenge_four(world, opponent, partner, opponent2):
    world.platform.new_seed = lambda: 21
    await world.ada.slash(
        world.channel, "octagone challenge", opponent=opponent, partner=partner, opponent2=opponent2, level="easy"
    )
    return world.channel.last_message


async def test_a_pair_chooses_who_takes_its_extra_joker(world):
    challenge = await challenge_four(world, world.bo, world.cy, world.di)  # pairs: Ada & Cy, Bo & Di
    assert extra_jokers_text(world.ada, world.bo) in challenge.content  # default: who sits first in each pair
    assert "`/octagone joker`" in challenge.content
    assert "Take our extra joker" in [c.label for row in challenge.components for c in row.children]
    await world.bo.click(challenge, label="Accept")
    await world.cy.click(challenge, label="Accept")
    # Di (second pair, not accepted yet) takes it from Bo with the button; again changes nothing.
    assert "You take your pair's extra joker" in await click_joker(world.di, world.message(challenge.id))
    assert "You already hold" in await take_joker(world.di, world)
    shown = world.message(challenge.id)
    assert extra_jokers_text(world.ada, world.di) in shown.content
    assert "waiting for" in shown.content
    eve = world.guild.add_member(world.env.create_user("eve", global_name="Eve"))
    assert "Only the four players of this challenge" in await click_joker(eve, shown)
    assert "Only the four players of this challenge" in await take_joker(eve, world)
    await world.di.click(challenge, label="Accept")

    session = await world.session()
    assert session.status == "active"
    assert session.players == [world.ada.id, world.bo.id, world.cy.id, world.di.id]
    assert session.options["extra_joker_seats"] == [0, 3]
    assert jokers_dealt(session.state) == [2, 1, 1, 2]
    assert "🃏 Extra jokers (2 jokers each): Ada and Di." in world.channel.last_message.content
    mine = await world.di.click(world.channel.last_message, label="My shields")
    shown = mine.followups[-1] if mine.followups else mine.response
    assert "2 jokers" in shown.attachments[0].description
    # Once the game runs, the choice is over.
    assert "no open four-player Octagone challenge" in await take_joker(world.bo, world)


async def test_the_extra_joker_is_for_four_players_only(world):
    await world.ada.slash(world.channel, "octagone challenge", opponent=world.bo)
    assert "Extra jokers" not in world.channel.last_message.content
    labels = [c.label for row in world.channel.last_message.components for c in row.children]
    assert labels == ["Accept", "Decline"]
    assert "no open four-player Octagone challenge" in await take_joker(world.bo, world)
    await world.bo.click(world.channel.last_message, label="Accept")
    session = await world.session()
    assert "extra_joker_seats" not in session.options
    assert [session.state.hands[seat][JOKER] for seat in range(2)] == [3, 3]


async def test_the_extra_joker_choice_survives_a_restart(world, settings):
    challenge = await challenge_four(world, world.bo, world.cy, world.di)
    assert "You take your pair's extra joker" in await take_joker(world.cy, world)  # from Ada, her partner
    await world.restart(settings, [OctagoneAdapter])
    assert extra_jokers_text(world.cy, world.bo) in world.message(challenge.id).content
    assert "You take your pair's extra joker" in await take_joker(world.di, world)  # after the restart too
    for member in (world.bo, world.cy, world.di):
        await member.click(challenge, label="Accept")
    session = await world.session()
    assert session.options["extra_joker_seats"] == [2, 3]
    assert jokers_dealt(session.state) == [1, 1, 2, 2]


@pytest.mark.parametrize("computer", ["partner", "opponent"])
async def test_a_computer_seat_never_chooses_but_its_partner_may(world, computer):
    me = bot_member(world)
    if computer == "partner":  # seats Ada, Bo, me, Cy: Ada keeps her pair's joker, Cy takes Bo's
        challenge = await challenge_four(world, world.bo, me, world.cy)
    else:  # seats Ada, me, Bo, Cy: the computer sits first in its pair, until its partner Cy takes the joker
        challenge = await challenge_four(world, me, world.bo, world.cy)
        assert extra_jokers_text(world.ada, me) in challenge.content
    assert "You take your pair's extra joker" in await take_joker(world.cy, world)
    assert extra_jokers_text(world.ada, world.cy) in world.message(challenge.id).content
    for member in (world.bo, world.cy):
        await member.click(challenge, label="Accept")
    session = await world.session()
    assert session.players.index(me.id) == (2 if computer == "partner" else 1)
    assert jokers_dealt(session.state) == [2, 1, 1, 2]


async def test_the_computers_pair_keeps_the_default_when_nobody_takes_it(world):
    me = bot_member(world)
    challenge = await challenge_four(world, me, world.bo, world.cy)  # seats Ada, me, Bo, Cy
    for member in (world.bo, world.cy):
        await member.click(challenge, label="Accept")
    session = await world.session()
    assert session.options["extra_joker_seats"] == [0, 1]
    assert jokers_dealt(session.state) == [2, 2, 1, 1]


# ----------------------------------------------------------- the public line in four players


async def test_the_computer_right_after_a_member_does_not_hide_the_members_move(world):
    """Four players, the computer seated right after Ada: once Ada places and the computer
    answers, the game message tells both placements, not only the computer's; the next member's
    move starts the line anew."""
    world.platform.new_seed = lambda: 21
    me = bot_member(world)
    await world.ada.slash(
        world.channel, "octagone challenge", opponent=me, partner=world.bo, opponent2=world.cy, level="easy"
    )
    challenge = world.channel.last_message
    await world.bo.click(challenge, label="Accept")
    await world.cy.click(challenge, label="Accept")
    session = await world.session()
    assert session.players == [world.ada.id, me.id, world.bo.id, world.cy.id]
    told_both = False
    for _ in range(12):  # the members play; the computer answers whenever its seat is to move
        seat = ENGINE.to_act(session.state)[0]
        action = choose_action(session.state, seat, "easy", 1)
        await play_by_command(actor_of(world, session, seat), world, action)
        after = await world.session()
        content = world.channel.last_message.content
        answered = any(p.seat == 1 and p.ply > session.state.ply for p in after.state.board.values())
        if seat == 0 and action["type"] == "place" and answered:
            assert "**Ada** placed" in content, content
            assert "**TestBot** placed" in content, content
            assert content.index("**Ada** placed") < content.index("**TestBot** placed"), "told in order"
            told_both = True
        elif seat == 2 and told_both:
            assert "**Bo** placed" in content
            assert "**Ada** placed" not in content, "Bo's move starts the line anew"
            return
        session = after
    pytest.fail("Ada never placed with the computer answering right after her, then Bo")
