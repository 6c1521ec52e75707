"""Octagion through SimCord: lobby, rounds ended by the timer and by Got it!, variants by modal
and by command, every invalid input, a restart mid-round, and a Got it!/timer race."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.core.sessions import TimerGone
from bot.games.octagion import NEXT_ROUND_PAUSE, OctagionAdapter
from engines.octagion import solution

SEED = 1234


@pytest.fixture
def games():
    return [OctagionAdapter]


# ---------------------------------------------------------------- helpers


def messages_of(result):
    return [m for m in [result.response, *result.followups] if m is not None]


def private_answer(result, clicked=None) -> str:
    """The text of an interaction's answer, asserting that everything it said was private.

    A button that deferred its update has the ``clicked`` message itself as its response.
    """
    answered = [m for m in messages_of(result) if clicked is None or m.id != clicked.id]
    assert answered, "the interaction got no answer"
    assert all(m.ephemeral for m in answered), [m.content for m in answered]
    return "\n".join(m.content for m in answered)


def results_posted(world, round_no: int) -> list:
    return [m for m in world.channel.history() if m.content.startswith(f"### Round {round_no} of")]


async def live(world):
    return await world.platform.sessions.live_in_channel(world.channel.id)


async def open_game(world, joiners, **options):
    """`/octagion start` by Ada, Join by ``joiners``, Start by Ada; returns the first round message."""
    world.platform.new_seed = lambda: SEED
    result = await world.ada.slash(world.channel, "octagion start", **options)
    assert result.acknowledged
    assert result.ephemeral, "the lobby is a channel message; the answer is private"
    lobby = world.channel.last_message
    assert lobby.content.startswith("## Octagion lobby")
    for member in joiners:
        await member.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    round_message = world.channel.last_message
    assert "Round 1 of" in round_message.content
    assert "Waiting for" not in round_message.content, "everyone plays at once: no turn line"
    return round_message


def button_labels(message) -> list[str]:
    return [child.label for row in message.components for child in row.children if hasattr(child, "label")]


def select_placeholders(message) -> list[str]:
    return [child.placeholder for row in message.components for child in row.children if not hasattr(child, "label")]


async def word_now(world) -> str:
    return (await live(world)).state.words[0]


# ---------------------------------------------------------------- tests


async def test_three_player_game_from_lobby_to_score_sheet(world):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    assert button_labels(lobby) == ["Join", "Leave", "Start"]
    assert select_placeholders(lobby) == ["Variations (host): basic rules", "Computer teams (host)…"]
    await world.bo.click(lobby, label="Join")
    await world.cy.click(lobby, label="Join")
    lobby = world.channel.last_message
    assert "**Players (3)**: Ada, Bo, Cy" in lobby.content

    # Only the host may start; the lobby stays open.
    refused = await world.bo.click(lobby, label="Start")
    assert "Only the host" in private_answer(refused, lobby)
    assert (await live(world)).record.status == "lobby"

    await world.ada.click(lobby, label="Start")
    round1 = world.channel.last_message
    assert round1.id != lobby.id
    assert "Started by" in world.channel.history()[-2].content  # the lobby message, buttons gone
    assert world.channel.history()[-2].components == []
    assert button_labels(round1) == ["Build variant", "Got it!", "My deck", "Resign"]
    assert round1.attachments[0].filename == "octagion-round-1.png"
    session = await live(world)
    deadline = session.meta.round_deadline
    assert f"<t:{deadline}:R>" in round1.content
    now = int(world.env.now().timestamp())
    assert deadline - now == 120
    word = session.state.words[0]

    # Ada types a perfect variant; Bo builds one in the modal; Cy looks at the deck.
    answer = await world.ada.slash(world.channel, "octagion play", cards=" ".join(solution(word)))
    assert word in private_answer(answer)
    assert messages_of(answer)[-1].attachments[0].filename == "octagion-variant.png"
    shown = await world.bo.click(round1, label="Build variant")
    assert shown.modal is not None
    submitted = await world.bo.submit_modal(shown, {"variant": f"{solution(word)[0]} _ _"})
    assert "`" + solution(word)[0] + " _ _ _ _ _ _ _`" in private_answer(submitted)
    again = await world.bo.click(round1, label="Build variant")  # prefilled with the current variant
    assert again.modal["components"][0]["components"][0]["value"] == f"{solution(word)[0]} _ _ _ _ _ _ _"
    deck = await world.cy.click(round1, label="My deck")
    assert messages_of(deck)[-1].attachments[0].filename == "octagion-deck.png"
    assert all(m.ephemeral for m in messages_of(deck))

    # Round 1 ends by the timer, exactly on time.
    await world.env.advance_time(119)
    assert results_posted(world, 1) == []
    await world.env.advance_time(2)
    [result1] = results_posted(world, 1)
    assert "Time is up" in result1.content
    assert "**Ada**: 8 pts (no penalty)" in result1.content
    assert "**Bo**: 1 pt (7 penalties)" in result1.content
    assert "One solution for" in result1.content
    assert "solutions)" in result1.content
    assert result1.attachments[0].filename == "octagion-result-1-1.png"
    assert result1.attachments[0].description.startswith("Round 1 scores:")
    round1_now = next(m for m in world.channel.history() if m.id == round1.id)
    assert "Build variant" not in button_labels(round1_now)

    # Playing between rounds is refused.
    late = await world.cy.slash(world.channel, "octagion play", cards="1")
    assert "The round is over." in private_answer(late)

    # Round 2 starts by itself after the pause, in a new message.
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    round2 = world.channel.last_message
    assert "Round 2 of 2" in round2.content
    assert round2.id != round1.id
    assert (await live(world)).record.message_id == round2.id

    word2 = await word_now(world)
    await world.ada.slash(world.channel, "octagion play", cards=" ".join(solution(word2)))
    await world.ada.click(round2, label="Got it!")
    [result2] = results_posted(world, 2)
    assert "**Ada** called Got it! (perfect, +2)" in result2.content
    assert "**Ada**: 10 pts (no penalty) · total 18" in result2.content

    final = world.channel.last_message
    assert final.attachments[0].filename == "octagion-scores.png"
    assert f"🏆 <@{world.ada.id}> won" in final.content
    assert "Final totals: **Ada** 18" in final.content
    assert button_labels(final) == ["Rematch", "Replay", "Review"]
    stats = await world.platform.store.user_stats(world.guild.id, world.ada.id)
    assert stats["octagion"] == (1, 1)
    # The last round's message shows its round again, not a second score sheet.
    round2_now = next(m for m in world.channel.history() if m.id == round2.id)
    assert round2_now.attachments[0].filename == "octagion-round-2.png"
    assert round2_now.components == []
    # Nothing more happens later: no stray timer.
    count = len(world.channel.history())
    await world.env.advance_time(300)
    assert len(world.channel.history()) == count


async def test_stale_got_it_button_cannot_end_a_later_round(world):
    round1 = await open_game(world, [world.bo], rounds=3)
    # Discord keeps failing to update round 1's message as it ends, so its buttons stay up.
    world.env.inject_error("PATCH", f"/channels/{world.channel.id}/messages/{round1.id}", times=None)
    world.env.inject_error("PATCH", "/webhooks/*/messages/@original", times=None)  # and through Bo's click
    await world.bo.click(round1, label="Got it!")
    assert len(results_posted(world, 1)) == 1
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    assert "Round 2 of 3" in world.channel.last_message.content
    stale = await world.ada.click(round1, label="Got it!")
    assert "Round 1 is already over." in private_answer(stale, round1)
    assert (await live(world)).state.phase == "playing"
    assert len(results_posted(world, 2)) == 0


async def assert_rejected(world, member, cards: str, expected: str) -> None:
    before = await live(world)
    actions = await world.platform.store.count_actions(before.id)
    answer = await member.slash(world.channel, "octagion play", cards=cards)
    assert expected in private_answer(answer)
    after = await live(world)
    assert after.state.variants == before.state.variants
    assert await world.platform.store.count_actions(after.id) == actions


async def test_invalid_inputs_are_answered_privately_and_change_nothing(world):
    round1 = await open_game(world, [world.bo], rounds=2, treatment=1)
    word = await word_now(world)
    await world.ada.slash(world.channel, "octagion play", cards=" ".join(solution(word)[:3]))
    await assert_rejected(world, world.ada, "Z1", "There is no Z1 in the deck: no card carries the letter Z.")
    await assert_rejected(world, world.ada, "S1", "There is no S1 in the deck: S comes as S2, S5, S6, S7.")
    await assert_rejected(
        world, world.ada, "A1 E2 B3 O4 D5 I6 C7 H8 N3", "A variant has at most 8 positions; you gave 9."
    )
    await assert_rejected(world, world.ada, "E9", "Card numbers go from 1 to 8, not 9.")
    await assert_rejected(world, world.ada, "hello", "I can't read 'HEL': write cards like S5, a number, * or _.")
    await assert_rejected(world, world.di, "E1", "You are not playing in this game.")
    not_player = await world.di.click(round1, label="Build variant")
    assert not_player.modal is None
    assert "You are not playing" in private_answer(not_player, round1)
    not_player = await world.di.click(round1, label="Got it!")
    assert "You are not playing" in private_answer(not_player, round1)
    assert (await live(world)).state.phase == "playing"
    # An invalid modal submission is refused the same way.
    shown = await world.ada.click(round1, label="Build variant")
    refused = await world.ada.submit_modal(shown, {"variant": "Q7 Q7"})
    assert "There is no Q7 in the deck" in private_answer(refused), "nothing to keep: the answer is refused"

    # Ada uses her only Treatment Card and calls Got it!; playing afterwards is refused,
    # also from a modal Bo opened before the round ended.
    await world.ada.slash(world.channel, "octagion play", cards="* " + " ".join(solution(word)[1:]))
    opened = await world.bo.click(round1, label="Build variant")
    answer = await world.ada.slash(world.channel, "octagion gotit")
    assert "Got it!" in private_answer(answer)
    await assert_rejected(world, world.bo, "E1", "The round is over.")
    actions = await world.platform.store.count_actions((await live(world)).id)
    too_late = await world.bo.submit_modal(opened, {"variant": "E1"})
    assert "The round is over." in private_answer(too_late)
    assert await world.platform.store.count_actions((await live(world)).id) == actions

    # Round 2: the Treatment Card is gone.
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    await assert_rejected(world, world.ada, "*", "Your team has no Treatment Cards left; this variant uses 1.")
    accepted = await world.bo.slash(world.channel, "octagion play", cards="*")
    assert "1 Treatment Card" in private_answer(accepted)


async def test_a_card_that_is_none_is_left_empty_and_the_rest_of_the_variant_kept(world):
    round1 = await open_game(world, [world.bo], rounds=1, treatment=0)
    cards = solution(await word_now(world))
    typed = " ".join(["*", cards[1], "Z1", *cards[3:7], cards[1]])
    answer = private_answer(await world.ada.slash(world.channel, "octagion play", cards=typed))
    assert answer.startswith(
        "⚠️ Your team has no Treatment Cards left: left position 1 empty.\n"
        "⚠️ Z1 is not a card (no card carries the letter Z): left position 3 empty.\n"
        f"⚠️ {cards[1]} is already at position 2: left position 8 empty.\n"
    )
    assert "(5 of 8 placed)" in answer
    assert (await live(world)).state.variants[0] == [None, cards[1], None, *cards[3:7], None]
    # The form's answer is read the same way.
    shown = await world.ada.click(round1, label="Build variant")
    kept = await world.ada.submit_modal(shown, {"variant": f"{cards[0]} ?? {cards[2]}"})
    assert private_answer(kept).startswith("⚠️ I can't read '??': left position 2 empty.\n")
    assert (await live(world)).state.variants[0] == [cards[0], None, cards[2]] + [None] * 5


async def test_the_variant_form_shows_an_example_in_the_rounds_own_letters(world):
    round1 = await open_game(world, [world.bo], rounds=1)
    word = await word_now(world)
    shown = await world.ada.click(round1, label="Build variant")
    placeholder = shown.modal["components"][0]["components"][0]["placeholder"]
    assert placeholder.startswith(f"{word[0]}# {word[1]}# {word[2]}# … (# a card number)")


async def test_round_survives_a_restart(world, settings):
    await open_game(world, [], rounds=2, seconds=60)  # one player: a practice game
    await world.env.advance_time(30)
    await world.restart(settings, [OctagionAdapter])
    round1 = world.channel.last_message
    # Buttons posted before the restart still work.
    shown = await world.ada.click(round1, label="Build variant")
    assert shown.modal is not None
    await world.ada.submit_modal(shown, {"variant": " ".join(solution(await word_now(world)))})
    await world.env.advance_time(29)
    assert results_posted(world, 1) == []
    await world.env.advance_time(2)
    [result] = results_posted(world, 1)
    assert "**Ada**: 8 pts (no penalty)" in result.content
    # The pause timer is durable too: restart again before round 2 starts.
    await world.restart(settings, [OctagionAdapter])
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    assert "Round 2 of 2" in world.channel.last_message.content


@pytest.mark.parametrize("first", ["click", "timer"])
async def test_got_it_and_timer_together_post_one_result(world, settings, first):
    """The Got it! click and the round timer's handler run concurrently."""
    round1 = await open_game(world, [world.bo, world.cy], rounds=2)
    session = await live(world)
    [timer] = [t for t in await world.platform.store.pending_timers() if t.kind == "octagion_round_end"]
    adapter = world.platform.games["octagion"]

    async def timer_fires():
        await asyncio.sleep(0)
        with contextlib.suppress(TimerGone):  # the click ended the round first and cancelled it
            async with world.platform.sessions.change(timer.session_id, timer=timer) as change:
                await adapter.rounds._round_end_timer(change, timer)

    if first == "click":
        clicked, _ = await asyncio.gather(world.bo.click(round1, label="Got it!"), timer_fires())
    else:
        _, clicked = await asyncio.gather(timer_fires(), world.bo.click(round1, label="Got it!"))
    # The handler ran outside the bot's own tasks here, so let a restart re-arm the pending
    # timers inside the bot (which also shows the pause between rounds survives a restart).
    await world.restart(settings, [OctagionAdapter])
    [result] = results_posted(world, 1)
    assert ("called Got it!" if first == "click" else "Time is up") in result.content
    after = await live(world)
    assert after.state.phase == "between"
    assert len(after.state.history) == 1
    assert await world.platform.store.count_actions(session.id) == 1
    if first == "timer":  # the click lost the race: its clicker is told privately
        assert private_answer(clicked, round1) == "The round is over."
    else:  # the timer lost silently; the click needed no answer beyond the result
        assert [m for m in messages_of(clicked) if m.id != round1.id] == []
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    assert sum("Round 2 of 2" in m.content for m in world.channel.history()) == 1
    assert len(results_posted(world, 1)) == 1


async def test_team_lobby_shares_a_variant(world):
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=1, teams=2, variation="beta")
    lobby = world.channel.last_message
    assert "Team 1**: Ada" in lobby.content
    custom_id = lobby.components[0].children[0].custom_id
    await world.bo.select(lobby, ["0"], custom_id=custom_id)
    await world.cy.select(lobby, ["1"], custom_id=custom_id)
    await world.di.select(lobby, ["1"], custom_id=custom_id)
    left = await world.di.click(world.channel.last_message, label="Leave")
    assert left.acknowledged
    host_leave = await world.ada.click(world.channel.last_message, label="Leave")
    assert "You are the host" in private_answer(host_leave, world.channel.last_message)
    lobby = world.channel.last_message
    assert "**Team 1**: Ada, Bo" in lobby.content
    assert "**Team 2**: Cy" in lobby.content
    assert "Di" not in lobby.content
    await world.ada.click(lobby, label="Start")
    round1 = world.channel.last_message
    session = await live(world)
    assert session.state.teams == [0, 0, 1]
    assert session.state.treatments == [3, 3]
    word = session.state.words[0]
    await world.bo.slash(world.channel, "octagion play", cards=" ".join(solution(word)[:4]))
    shown = await world.ada.click(round1, label="Build variant")  # Ada sees her team's variant
    assert shown.modal["components"][0]["components"][0]["value"] == " ".join(solution(word)[:4]) + " _ _ _ _"
    await world.cy.click(round1, label="Got it!")
    [result] = results_posted(world, 1)
    assert "**Ada & Bo**: 4 pts (4 penalties)" in result.content
    assert "**Cy** called Got it! (not perfect, -2)" in result.content
    assert f"🏆 <@{world.ada.id}> & <@{world.bo.id}> won" in world.channel.last_message.content


async def test_busy_channel_and_no_game(world):
    nothing = await world.cy.slash(world.channel, "octagion play", cards="E1")
    assert "There is no Octagion game running" in private_answer(nothing)
    opened = await world.ada.slash(world.channel, "octagion start", party=True, teams=2, rounds=1)
    assert opened.acknowledged
    assert "party mode" in world.channel.last_message.content
    busy = await world.bo.slash(world.channel, "octagion start")
    assert "There is already a lobby of Octagion" in private_answer(busy)
    early = await world.ada.slash(world.channel, "octagion play", cards="E1")
    assert "There is no Octagion game running" in private_answer(early)


async def test_practice_game_and_rematch_opens_a_new_lobby(world):
    round1 = await open_game(world, [], rounds=1, seconds=45, variation="alpha")
    session = await live(world)
    assert session.players == [world.ada.id]
    assert session.state.seconds == 120  # Alpha: round 1 lasts 2:00
    await world.ada.click(round1, label="Got it!")
    final = world.channel.last_message
    assert f"🏆 <@{world.ada.id}> won" in final.content
    await world.ada.click(final, label="Rematch")
    lobby = world.channel.last_message
    assert lobby.content.startswith("## Octagion lobby")
    assert "1 round, variation alpha, 0:45 per round" in lobby.content
    stranger = await world.bo.click(final, label="Rematch")
    assert private_answer(stranger, final) == "Only the players of this game can ask for a rematch."
    twice = await world.ada.click(final, label="Rematch")
    assert "There is already a lobby of Octagion" in private_answer(twice, final)


async def test_the_round_message_narrates_the_timer_got_it_and_who_left(world):
    seat_two = world.guild.add_member(world.env.create_user("seat2", global_name="Seat 2"))
    world.platform.new_seed = lambda: SEED
    await seat_two.slash(world.channel, "octagion start", rounds=3)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.cy.click(lobby, label="Join")
    await seat_two.click(lobby, label="Start")
    round1 = world.channel.last_message
    assert (await live(world)).names == ["Seat 2", "Bo", "Cy"]

    # A variant is private: the round message says nothing of it.
    await world.bo.slash(world.channel, "octagion play", cards=" ".join(solution(await word_now(world))))
    assert next(m for m in world.channel.history() if m.id == round1.id).content == round1.content

    await world.env.advance_time(121)
    round1_now = next(m for m in world.channel.history() if m.id == round1.id)
    assert "Time is up!" in round1_now.content
    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    round2 = world.channel.last_message
    await seat_two.click(round2, label="Got it!")
    round2_now = next(m for m in world.channel.history() if m.id == round2.id)
    assert "**Seat 2** called Got it!" in round2_now.content
    assert "Seat 2 called Got it!" in round2_now.attachments[0].description
    assert "**Bo** called" not in round2_now.content

    await world.env.advance_time(NEXT_ROUND_PAUSE + 1)
    round3 = world.channel.last_message
    assert "Round 3 of 3" in round3.content
    await seat_two.slash(world.channel, "octagion resign")
    round3_now = next(m for m in world.channel.history() if m.id == round3.id)
    assert "**Seat 2** left the game." in round3_now.content
    assert "**Bo** left" not in round3_now.content
    assert "Seat 2 left the game." in round3_now.attachments[0].description
    assert (await live(world)).status == "active"  # two teams are still playing
    again = await seat_two.slash(world.channel, "octagion resign")
    assert private_answer(again) == "You left this game."
    late = await seat_two.slash(world.channel, "octagion play", cards="1")
    assert "You left this game." in private_answer(late)

    # Bo leaves too: Cy's team is the last one in the game and wins.
    await world.bo.slash(world.channel, "octagion resign")
    final = world.channel.last_message
    assert "**Bo** left the game." in final.content
    assert f"🏆 <@{world.cy.id}> won (the other teams left)." in final.content
    assert final.attachments[0].filename == "octagion-scores.png"


async def test_the_controls_lobby_refusals_and_a_player_who_left(world):
    controls = world.platform.controls
    registered = {n for kind in (controls._buttons, controls._selects, controls._modals) for n in kind}
    assert {n for n in registered if n.startswith("octagion")} == {
        "octagion",
        "octagion_team",
        "octagion_build",
        "octagion_variant",
        "octagion_variations",
        "octagion_countdown",
        "octagion_computers",
        "octagion_handicap",
        "octagion_handicap_form",
    }
    world.platform.new_seed = lambda: SEED
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    twice = await world.bo.click(world.channel.last_message, label="Join")
    assert private_answer(twice, world.channel.last_message) == "You are already in this lobby."
    stranger = await world.cy.click(world.channel.last_message, label="Leave")
    assert private_answer(stranger, world.channel.last_message) == "You are not in this lobby."
    await world.cy.click(world.channel.last_message, label="Join")
    await world.ada.click(world.channel.last_message, label="Start")
    round1 = world.channel.last_message
    [got_it] = [c for row in round1.components for c in row.children if c.label == "Got it!"]
    assert got_it.custom_id.endswith(":octagion:gotit:1"), "Got it! carries the round it was built for"

    await world.cy.slash(world.channel, "octagion resign")
    for label in ("Build variant", "Got it!"):
        refused = await world.cy.click(round1, label=label)
        assert private_answer(refused, round1) == "You left this game."
    assert (await live(world)).state.phase == "playing"
