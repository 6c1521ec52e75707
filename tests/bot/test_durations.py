"""Typed durations (issue #36, item 12): every duration option (a challenge's `clock:`,
`/settings turn_clock`, `/settings thread_archive`, `/tournament create`'s `round_time:` and
`start:`) reads ASCII digits only and a short text; anything else gets its own private answer,
never the generic "something went wrong", and repeats what was typed as code, unescaped."""

from __future__ import annotations

import discord
import pytest

from bot.dev.world import private_texts
from bot.features.turn_clock import parse_clock, read_duration
from bot.ui.replies import UserError

NOT_A_CLOCK = "is not a clock: write minutes, hours or days, e.g. `30m`, `4h`, `2d`, or `off`."
# Not durations to us: a superscript two (str.isdigit says yes, int says no), Arabic-Indic and
# full-width digits, and more digits than int() reads (Discord lets a member type 6,000 characters).
STRANGE = ["\u00b2", "\u0663h", "\uff13\uff10m", "9" * 4400, "1" * 30 + "m"]


def owner_of(world):
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("owner"), roles=[admins])


@pytest.mark.parametrize("typed", STRANGE)
def test_only_short_ascii_durations_are_read(typed):
    with pytest.raises(UserError, match="is not a clock"):
        parse_clock(typed)


def test_ascii_durations_still_read():
    assert [parse_clock(t) for t in ("30m", "4h", "2d", "1h 30m", "45", "off")] == [1800, 14400, 172800, 5400, 2700, 0]
    assert read_duration("off") is None, "off is no duration: each option says what it means"


@pytest.mark.parametrize("typed", STRANGE)
async def test_a_challenge_clock_that_is_not_one_says_so(world, typed):
    result = await world.ada.slash(world.channel, "octego challenge", opponent=world.bo, clock=typed)
    [text] = private_texts(result)
    assert text.endswith(NOT_A_CLOCK), text
    assert len(text) < 200, "what was typed is repeated short"
    assert await world.session() is None


async def test_settings_durations_answer_each_in_their_own_words(world):
    owner = owner_of(world)
    for typed in STRANGE:
        answer = private_texts(await owner.slash(world.channel, "settings turn_clock", clock=typed))
        assert answer[-1].endswith(NOT_A_CLOCK), answer
        answer = private_texts(await owner.slash(world.channel, "settings thread_archive", clock=typed))
        assert answer[-1].endswith(NOT_A_CLOCK), answer
    answer = private_texts(await owner.slash(world.channel, "settings turn_clock", clock="8d"))
    assert answer == ["A turn clock runs from 1 minute (`1m`) to 7 days (`7d`), or `off`."]
    answer = private_texts(await owner.slash(world.channel, "settings thread_archive", clock="8d"))
    assert answer == ["A finished game's thread is archived 1 minute (`1m`) to 7 days (`7d`) after its end."]


async def test_a_negative_clock_is_repeated_as_typed(world):
    answer = private_texts(await owner_of(world).slash(world.channel, "settings turn_clock", clock="-5m"))
    assert answer == [f"`-5m` {NOT_A_CLOCK}"], "as typed, in code: never an escaped \\-5m"


async def test_tournament_round_time_and_start_have_their_own_words(world):
    host = owner_of(world)

    async def create(**options):
        result = await host.slash(world.channel, "tournament create", game="octego", format="swiss", **options)
        return private_texts(result)

    for typed in STRANGE:
        answer = await create(round_time=typed)
        assert answer[-1].endswith("is not a round time: write minutes, hours or days, e.g. `30m`, `1h` or `1d`.")
        answer = await create(start=typed)
        assert answer[-1].endswith("is not a start time: write `in 30m`, `2h`, or a UTC time such as `18:00`.")
    assert await create(round_time="8d") == ["A round lasts from 3 minutes to 7 days (e.g. `1h` or `1d`)."]
    assert await create(round_time="-5m") == [
        "`-5m` is not a round time: write minutes, hours or days, e.g. `30m`, `1h` or `1d`."
    ]
    assert (await create(start="in 8d"))[-1].startswith("A tournament starts 1 minute to 7 days from now")
    full_width = "\uff11\uff18:00"  # 18:00 in full-width digits
    assert (await create(start=full_width))[-1].startswith(f"`{full_width}` is not a start time")
