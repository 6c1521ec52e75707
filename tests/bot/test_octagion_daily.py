"""Octagion Daily through SimCord: two members play the same day's puzzle and each sees only
their own result until they played; a member who has not played sees no variants; the
countdown runs out and the last answer saved is scored; a second attempt is refused; a restart
mid-countdown; the day changes (a new word, the board posted in the daily channel, streaks kept
for consecutive days and reset after a missed one)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import discord
import pytest

from bot.dev.world import private_messages
from bot.games.octagion import OctagionAdapter
from bot.games.octagion.daily.store import DailyStore
from bot.ui.context import StoreReads
from engines.octagion import COUNTDOWN_SECONDS, daily_word, day_closes_at, puzzle_day, solution

SIMULATION_START = "2026-01-01"  # SimCord's clock starts at midnight UTC: puzzle #1


def daily_tables(world) -> DailyStore:
    """The daily's reads as the game makes them, through the context's reads."""
    return DailyStore(StoreReads(world.platform.store))


@pytest.fixture
def games():
    return [OctagionAdapter]


# ---------------------------------------------------------------- helpers


def today(world):
    return puzzle_day(world.env.now())


def word_today(world) -> str:
    return daily_word(today(world))


def perfect(world) -> str:
    return " ".join(solution(word_today(world)))


def with_one_slip(world) -> str:
    """Today's solution with its first card taken off: one empty position, 7 points."""
    return " ".join(["_", *solution(word_today(world))[1:]])


def answered(result) -> str:
    """Everything an interaction answered, asserting that all of it was private."""
    messages = [m for m in (result.response, *result.followups) if m is not None]
    assert messages, "the interaction got no answer"
    assert all(m.flags.ephemeral for m in messages), [m.content for m in messages]
    return "\n".join(m.content for m in messages)


def public_answer(result):
    messages = [m for m in (result.response, *result.followups) if m is not None]
    assert messages
    assert not any(m.flags.ephemeral for m in messages)
    return messages[-1]


async def open_puzzle(world, member):
    """`/octagion daily play`: the private puzzle message (with its buttons)."""
    result = await member.slash(world.channel, "octagion daily play")
    assert word_today(world) in answered(result)
    return private_messages(result)[-1]


async def answer(world, member, message, cards: str, final: bool = False) -> str:
    """Type an answer in the form behind **Answer…** (or **Final answer…**)."""
    shown = await member.click(message, label="Final answer…" if final else "Answer…")
    assert shown.modal is not None
    return answered(await member.submit_modal(shown, {"variant": cards}))


async def results(world, member, **options):
    return await member.slash(world.channel, "octagion daily results", **options)


async def advance_to(world, moment) -> None:
    await world.env.advance_time((moment - world.env.now()).total_seconds())


def next_midnight(world):
    return datetime.combine(today(world) + timedelta(days=1), time(0), tzinfo=UTC)


async def next_day(world) -> None:
    """Just past the next 00:00 UTC."""
    await advance_to(world, next_midnight(world) + timedelta(seconds=1))


async def past_closing(world, day) -> None:
    """Just past the moment ``day`` is over for everyone (its board is posted then)."""
    await advance_to(world, day_closes_at(day) + timedelta(seconds=1))


def server_manager(world):
    managers = world.guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("manager"), roles=[managers])


async def stats_text(world, member) -> str:
    return answered(await member.slash(world.channel, "stats"))


# ---------------------------------------------------------------- playing


async def test_the_puzzle_is_private_and_the_countdown_keeps_running_when_reopened(world):
    assert str(today(world)) == SIMULATION_START
    opened = await world.ada.slash(world.channel, "octagion daily play")
    text = answered(opened)
    assert "Octagion Daily #1" in text
    assert f"Spell **{word_today(world)}**" in text
    deadline = int(world.env.now().timestamp()) + COUNTDOWN_SECONDS
    assert f"<t:{deadline}:R>" in text
    puzzle = private_messages(opened)[-1]
    assert puzzle.attachments[0].filename == "octagion-daily.png"
    assert [c["label"] for row in puzzle.components for c in row["components"]] == ["Answer…", "Final answer…"]
    assert world.channel.history() == [], "nothing is posted in the channel"
    assert await world.session() is None, "a play never occupies the channel"

    await world.env.advance_time(50)
    saved = await answer(world, world.ada, puzzle, with_one_slip(world))
    assert "Saved" in saved
    assert "7 of 8 placed" in saved
    assert "penalt" not in saved, "an answer is checked only when the play ends"
    reopened = answered(await world.ada.slash(world.channel, "octagion daily play"))
    assert f"<t:{deadline}:R>" in reopened, "reopening shows the same countdown"
    assert with_one_slip(world) in reopened


async def test_two_members_each_see_only_their_own_result_until_both_played(world):
    ada_puzzle = await open_puzzle(world, world.ada)
    await world.env.advance_time(10)
    ada_done = await answer(world, world.ada, ada_puzzle, perfect(world), final=True)
    assert "perfect" in ada_done
    assert "13 pts (+5 time bonus)" in ada_done
    assert "0:10" in ada_done
    assert f"One solution: `{perfect(world)}`" in ada_done

    # Bo opens the puzzle but has not finished it: nothing of Ada's reaches him.
    bo_puzzle = await open_puzzle(world, world.bo)
    spoiler_free = await results(world, world.bo)
    text = answered(spoiler_free)
    assert "1 member here has played it" in text
    assert "Ada" not in text
    assert perfect(world) not in text
    assert "pts" not in text
    assert all(not m.attachments for m in private_messages(spoiler_free))

    # Ada sees the board: only herself on it so far.
    board = answered(await results(world, world.ada))
    assert "1. **Ada**: 13 pts" in board
    assert "Bo" not in board

    await world.env.advance_time(30)
    await answer(world, world.bo, bo_puzzle, with_one_slip(world), final=True)
    for member in (world.ada, world.bo):
        shown = await results(world, member)
        board = answered(shown)
        assert "1. **Ada**: 13 pts" in board
        assert "2. **Bo**: 7 pts" in board
        assert private_messages(shown)[-1].attachments[0].filename == "octagion-daily-1.png"
        assert "2 members played" in board


async def test_a_member_who_has_not_played_sees_no_variants(world):
    puzzle = await open_puzzle(world, world.ada)
    await answer(world, world.ada, puzzle, perfect(world), final=True)
    shown = await results(world, world.cy)
    text = answered(shown)
    assert "1 member here has played it so far" in text
    assert "`" + perfect(world) not in text
    assert "Ada" not in text
    assert not any(m.attachments for m in private_messages(shown))
    assert word_today(world) not in text, "not even the word"


async def test_the_countdown_runs_out_and_the_last_saved_answer_is_scored(world):
    puzzle = await open_puzzle(world, world.bo)
    await answer(world, world.bo, puzzle, perfect(world))  # perfect, then changed for the worse
    await answer(world, world.bo, puzzle, with_one_slip(world))
    await world.env.advance_time(COUNTDOWN_SECONDS - 1)
    assert (await daily_tables(world).play(world.guild.id, today(world), world.bo.id)).finished_at is None
    await world.env.advance_time(2)
    play = await daily_tables(world).play(world.guild.id, today(world), world.bo.id)
    assert (play.score, play.penalties, play.bonus) == (7, 1, 0)
    shown = answered(await world.bo.slash(world.channel, "octagion daily play"))
    assert "You played today's puzzle" in shown
    assert "7 pts" in shown
    assert "2:00" in shown
    assert "1 penalty (_ at 1: empty)" in shown
    stats = await world.platform.store.user_stats(world.guild.id, world.bo.id)
    assert stats == {"octagion_daily": (1, 0)}, "counted apart from the race; 7 is not a win"


async def test_nothing_saved_scores_eight_empty_positions(world):
    await open_puzzle(world, world.di)
    await world.env.advance_time(COUNTDOWN_SECONDS + 1)
    play = await daily_tables(world).play(world.guild.id, today(world), world.di.id)
    assert (play.score, play.penalties) == (0, 8)


async def test_a_second_attempt_the_same_day_is_refused(world):
    puzzle = await open_puzzle(world, world.ada)
    await answer(world, world.ada, puzzle, with_one_slip(world), final=True)
    again = await world.ada.slash(world.channel, "octagion daily play", cards=perfect(world), final=True)
    assert "one attempt per day" in answered(again)
    late_form = await world.ada.click(puzzle, label="Answer…")
    assert late_form.modal is None
    assert "Your play of this puzzle is over" in answered(late_form)
    play = await daily_tables(world).play(world.guild.id, today(world), world.ada.id)
    assert play.score == 7
    # Answering by command works the same as the form, and refuses what cannot be read.
    bo = await world.bo.slash(world.channel, "octagion daily play", cards=perfect(world))
    assert "Open today's puzzle first" in answered(bo)
    await open_puzzle(world, world.bo)
    star = await world.bo.slash(world.channel, "octagion daily play", cards="* 1 2")
    assert "no Treatment Cards" in answered(star)


async def test_a_restart_mid_countdown_keeps_the_play_and_its_buttons(world, settings):
    puzzle = await open_puzzle(world, world.cy)
    await answer(world, world.cy, puzzle, with_one_slip(world))
    await world.env.advance_time(40)
    await world.restart(settings, [OctagionAdapter])
    reopened = answered(await world.cy.slash(world.channel, "octagion daily play"))
    assert with_one_slip(world) in reopened
    shown = await world.cy.click(puzzle, label="Answer…")  # a button from before the restart
    assert shown.modal["components"][0]["components"][0]["value"] == with_one_slip(world)
    await world.env.advance_time(COUNTDOWN_SECONDS - 40 + 1)  # the stored timer fires
    play = await daily_tables(world).play(world.guild.id, today(world), world.cy.id)
    assert play.score == 7


# ---------------------------------------------------------------- days, boards, streaks


async def test_the_day_changes_the_board_is_posted_and_streaks_follow_the_days(world, settings):
    daily = world.guild.create_text_channel("daily")
    configured = await server_manager(world).slash(world.channel, "settings daily_channel", channel=daily)
    assert f"<#{daily.id}>" in answered(configured)
    assert "Nobody has played it yet" in daily.last_message.content

    first_word = word_today(world)
    puzzle = await open_puzzle(world, world.ada)
    await answer(world, world.ada, puzzle, perfect(world), final=True)
    assert "#1 · 1 January 2026** is open" in daily.last_message.content
    assert "1 member played today" in daily.last_message.content, "the line counts, nothing more"
    assert first_word not in daily.last_message.content

    # Bo opens day 1's puzzle 30 s before midnight: his countdown runs into day 2 (89 s left).
    await advance_to(world, next_midnight(world) - timedelta(seconds=30))
    bo_puzzle = await open_puzzle(world, world.bo)
    await next_day(world)
    assert word_today(world) != first_word, "a new day, a new word"
    late = await answer(world, world.bo, bo_puzzle, " ".join(solution(first_word)), final=True)
    assert first_word in late
    assert "12 pts (+4 time bonus)" in late
    puzzle = await open_puzzle(world, world.ada)
    await answer(world, world.ada, puzzle, perfect(world), final=True)

    # Day 1 is over: its board is posted in the daily channel (by a timer that survives a
    # restart), and a line for day 2.
    await world.restart(settings, [OctagionAdapter])
    await past_closing(world, today(world) - timedelta(days=1))
    posted = daily.history()
    board = next(m for m in posted if m.content.startswith("## Octagion Daily #1"))
    assert board.attachments[0].filename == "octagion-daily-1.png"
    assert "1. **Ada**: 13 pts · 0:00" in board.content
    assert "2. **Bo**: 12 pts · 0:31" in board.content
    assert "#1 · 1 January 2026** is over: 2 members played it." in posted[0].content
    assert "#2 · 2 January 2026** is open" in daily.last_message.content
    assert "1 member played today" in daily.last_message.content
    # The day is over: anyone sees its board, publicly.
    shown = public_answer(await results(world, world.cy, date="#1"))
    assert "1. **Ada**" in shown.content
    assert shown.attachments

    stats = await stats_text(world, world.ada)
    assert "now 2 days played and 2 won in a row" in stats
    assert "**Octagion Daily**: 2 won of 2" in stats

    # Day 3 missed, day 4 played: the streak starts again; the longest stays.
    await next_day(world)
    await next_day(world)
    puzzle = await open_puzzle(world, world.ada)
    await answer(world, world.ada, puzzle, with_one_slip(world), final=True)
    stats = await stats_text(world, world.ada)
    assert "now 1 day played and 0 won in a row · longest 2 days played, 2 won" in stats
    leaders = await world.ada.slash(world.channel, "leaderboard", game="octagion_daily")
    text = answered(leaders)  # private: its button posts it
    assert f"1. <@{world.ada.id}>: 2 days played in a row" in text
    assert f"2. <@{world.bo.id}>: 1 day played in a row" in text
    boards = [m.content for m in daily.history() if m.content.startswith("## Octagion Daily #")]
    assert len(boards) == 2, "day 2's board came after day 2; day 3's comes after day 3"
    assert "1. **Ada**: 13 pts · 0:00 · 🔥 2 (won 2)" in boards[1]


async def test_the_daily_channel_is_for_managers_and_can_be_turned_off(world):
    daily = world.guild.create_text_channel("daily")
    with pytest.raises(Exception, match="default-member-permissions"):
        await world.ada.slash(world.channel, "settings daily_channel", channel=daily)
    manager = server_manager(world)
    await manager.slash(world.channel, "settings daily_channel", channel=daily)
    off = await manager.slash(world.channel, "settings daily_channel")
    assert "no longer posted" in answered(off)
    await past_closing(world, today(world))
    assert len(daily.history()) == 1, "only the line posted when it was set"


async def test_a_day_is_asked_by_date_number_or_word(world):
    for asked in ("2025-12-31", "#0", "tomorrow", "2026-01-02"):
        refused = await results(world, world.ada, date=asked)
        assert "Give a day from 2026-01-01 (#1) to today (#1)" in answered(refused)
    await next_day(world)
    await past_closing(world, today(world) - timedelta(days=1))
    for asked in ("yesterday", "#1", "2026-01-01"):
        shown = public_answer(await results(world, world.ada, date=asked))
        assert "Octagion Daily #1 · 1 January 2026**: nobody here played it. The word was **INCIDENT**" in shown.content


# ---------------------------------------------------------------- sharing


def spoilers(world) -> list[str]:
    """What a shared line must not show: the word and every card of the solution, e.g. "S5"."""
    return [word_today(world), *solution(word_today(world))]


async def test_share_posts_one_spoiler_free_line_once(world):
    puzzle = await open_puzzle(world, world.ada)
    await world.env.advance_time(42)
    done = await world.ada.click(puzzle, label="Final answer…")
    result = private_messages(await world.ada.submit_modal(done, {"variant": perfect(world)}))[-1]
    assert [c["label"] for row in result.components for c in row["components"]] == ["Share"]
    assert world.channel.history() == [], "nothing public before Share"

    shared = await world.ada.click(result, label="Share")
    assert "Shared" in answered(shared)
    posted = world.channel.history()
    assert len(posted) == 1, [m.content for m in posted]
    line = posted[0].content
    assert line.startswith("🧩 **Ada** solved Octagion Daily #1: 11 pts ⭐ in 0:42 · 🔥 1-day streak."), line
    upper = line.upper()
    for spoiler in spoilers(world):
        assert spoiler.upper() not in upper.replace("OCTAGION DAILY", ""), spoiler
    assert not posted[0].attachments
    assert posted[0].mentions == []
    assert posted[0].role_mentions == []

    again = await world.ada.click(result, label="Share")
    assert "already shared" in answered(again)
    assert len(world.channel.history()) == 1, "a second click posts nothing"


async def test_a_shared_line_never_pings_whatever_the_name(world):
    sneaky = world.guild.add_member(world.env.create_user("sneaky", global_name="@everyone <@1>"))
    await sneaky.slash(world.channel, "octagion daily play")
    await world.env.advance_time(COUNTDOWN_SECONDS + 1)  # the countdown runs out: 0 pts, not solved
    result = private_messages(await sneaky.slash(world.channel, "octagion daily play"))[-1]
    await sneaky.click(result, label="Share")
    [posted] = world.channel.history()
    assert "played Octagion Daily #1: 0 pts in 2:00" in posted.content
    assert "⭐" not in posted.content
    assert "@everyone" not in posted.content.replace("@\u200beveryone", "")
    assert posted.mentions == []
    assert not posted.mention_everyone
