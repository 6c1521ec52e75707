"""Octagion's variations taught as short timed solo rounds (issue 39): the rule shows before the
clock, Start shows the word and starts the engine's own round clock, an answer in time is judged
by the engine, a late one is a time-out, explained, and the clock survives a restart (its deadline
is in the controls)."""

from __future__ import annotations

import re

from bot.dev.world import private_messages
from bot.features.learn.cog import FORM, NO_SESSION, SEPARATOR
from bot.features.learn.series import SERIES
from bot.games import adapter
from bot.ui.controls import SessionButton, view_of
from engines.octagion import round_seconds
from tests.bot.test_learn import COVERED, labels, learn

SERIES_OF = SERIES["octagion"]
ALPHA = SERIES_OF.lesson("alpha")


async def alpha_page(world, member):
    """/learn octagion, skipped on to the Alpha lesson (the first variation)."""
    page = await learn(world, member, "octagion")
    for _ in range(SERIES_OF.index("alpha")):
        await member.click(page, label="Skip ▶")
    assert f"**{ALPHA.title}**" in page.content
    return page


def deadline_of(message) -> int:
    return int(re.search(r"time is up <t:(\d+):R>", message.content).group(1))


async def test_a_variation_shows_its_rule_first_and_is_answered_in_time(world):
    page = await alpha_page(world, world.ada)
    seconds = round_seconds(ALPHA.setup.build(world.platform.games["octagion"].engine))
    assert seconds == 115  # Alpha's second round: 5 s shorter than the first
    assert "⏱ **1:55** on the clock: press **Start** when you are ready." in page.content
    assert labels(page) == ["Start", "Skip ▶"]
    assert page.attachments == []  # the word shows when the clock starts, not before

    started = int(world.env.now().timestamp())
    await world.ada.click(page, label="Start")
    assert labels(page) == ["Build variant", "Skip ▶"]
    assert page.attachments[0].filename.startswith("octagion")
    assert deadline_of(page) == started + seconds

    await world.env.advance_time(seconds - 10)  # in time, with 10 s to spare
    shown = await world.ada.click(page, label="Build variant")
    answered = private_messages(await world.ada.submit_modal(shown, {"answer": ALPHA.example}))[-1]
    assert answered.content.startswith("✓ **Right.**"), answered.content
    assert ALPHA.why in answered.content
    assert "✓ Alpha: shorter rounds" in (await learn(world, world.ada, "octagion")).content


async def test_an_answer_after_the_clock_is_a_time_out_explained_and_a_fresh_start_plays(world):
    page = await alpha_page(world, world.bo)
    await world.bo.click(page, label="Start")
    deadline = deadline_of(page)
    shown = await world.bo.click(page, label="Build variant")  # the form opened in time...
    await world.env.advance_time(120)
    late = private_messages(await world.bo.submit_modal(shown, {"answer": ALPHA.example}))[-1]  # ...sent late
    assert late.content.startswith(f"⏱ **Time is up**: the clock ran out <t:{deadline}:R>."), late.content
    assert "the round ends right then and scores each variant as it stands" in late.content
    assert labels(late) == ["Start again"]
    again = await learn(world, world.bo, "octagion")
    assert "✓" not in again.content  # a late answer finishes nothing (the lessons skipped neither)

    # The form's button on the lesson is late too: the time-out, not the form.
    pressed = private_messages(await world.bo.click(page, label="Build variant"))[-1]
    assert pressed.content.startswith("⏱ **Time is up**")

    await world.bo.click(late, label="Start again")  # a fresh clock, the word shown again
    assert deadline_of(late) > deadline
    assert labels(late) == ["Build variant", "Skip ▶"]
    shown = await world.bo.click(late, label="Build variant")
    answered = private_messages(await world.bo.submit_modal(shown, {"answer": ALPHA.example}))[-1]
    assert answered.content.startswith("✓ **Right.**"), answered.content


async def test_a_timed_round_survives_a_restart(world, settings):
    page = await alpha_page(world, world.cy)
    await world.cy.click(page, label="Start")
    await world.restart(settings, [adapter(game) for game in COVERED])
    shown = await world.cy.click(page, label="Build variant")
    answered = private_messages(await world.cy.submit_modal(shown, {"answer": ALPHA.example}))[-1]
    assert answered.content.startswith("✓ **Right.**"), answered.content


async def test_every_variation_is_a_timed_round_after_the_untimed_basics(world):
    timed = [lesson.key for lesson in SERIES_OF.lessons if lesson.timed]
    assert timed == ["alpha", "beta", "gamma", "delta", "epsilon", "treatment"]
    assert not any(lesson.timed for lesson in SERIES_OF.lessons[: SERIES_OF.index("alpha")])


async def test_a_form_button_from_before_the_round_was_timed_asks_to_start_the_clock(world):
    """A lesson message posted before its lesson became timed has a Build variant without a deadline."""
    older = SessionButton(NO_SESSION, FORM, SEPARATOR.join(("octagion", "alpha")), label="Build variant")
    channel = world.bot.get_channel(world.channel.id)
    sent = await channel.send("An older lesson", view=view_of([older]))
    page = world.message(sent.id)
    answer = private_messages(await world.ada.click(page, label="Build variant"))[-1]
    assert answer.content == "⏱ This round is timed: press **Start** to start its clock."
    assert labels(answer) == ["Start"]
