"""Ratings people are glad to see (issue 28): OpenSkill's ratings shown as 1500 + 20 x ordinal,
never negative, provisional until 5 rated games; games against the computer unrated and the
computer never on the ladder; /leaderboard answered privately, with a button that posts it."""

from __future__ import annotations

import re

import pytest

from bot.core.store import Rating
from bot.dev.world import bot_member, private_texts
from bot.features.results import shown_rating
from tests.bot.tinygame import TinyAdapter


@pytest.fixture
def games():
    return [TinyAdapter]


async def resign(world, member, game) -> None:
    question = (await member.click(game, label="Resign")).response  # asked privately first
    await member.click(question, label="Resign")


async def win(world, winner, loser) -> None:
    """A finished game of Tiny: ``winner`` challenges ``loser``, who accepts and resigns."""
    await winner.slash(world.channel, "tiny challenge", opponent=loser)
    await loser.click(world.channel.last_message, label="Accept")
    game = world.channel.last_message
    await resign(world, loser, game)
    assert "won (resignation)" in world.message(game.id).content


async def ratings(world) -> dict[int, Rating]:
    return {r.user_id: r for r in await world.platform.store.ratings(world.guild.id, "tiny")}


async def private_board(world, member) -> tuple[str, object]:
    """/leaderboard game:tiny as ``member`` sees it, and its message (the button's)."""
    result = await member.slash(world.channel, "leaderboard", game="tiny")
    assert result.response.flags.ephemeral, "the leaderboard is answered privately"
    assert not [m for m in result.followups if not m.flags.ephemeral]
    return result.response.content, result.response


def place_of(board: str, member) -> str:
    [line] = [line for line in board.splitlines() if f"<@{member.id}>:" in line]
    return line


async def test_ratings_start_at_1500_and_move_on_a_familiar_scale(world):
    await win(world, world.ada, world.bo)
    rated = await ratings(world)
    ada, bo = shown_rating(rated[world.ada.id]), shown_rating(rated[world.bo.id])
    assert bo < 1500 < ada < 1600
    board, _ = await private_board(world, world.ada)
    assert place_of(board, world.ada) == f"1. <@{world.ada.id}>: {ada} (provisional: 1 of 5 rated games) · 1 won of 1"
    assert place_of(board, world.bo) == f"2. <@{world.bo.id}>: {bo} (provisional: 1 of 5 rated games) · 0 won of 1"
    stats = private_texts(await world.ada.slash(world.channel, "stats"))[-1]
    assert f"**Tiny**: 1 won of 1 · rating {ada} (provisional: 1 of 5 rated games)" in stats


async def test_a_rating_is_never_negative(world):
    await win(world, world.ada, world.bo)
    async with world.platform.store.transaction() as tx:  # a long losing streak, as stored
        await tx.save_ratings(world.guild.id, "tiny", [Rating(world.cy.id, -80.0, 2.0, 40, 0)])
    board, _ = await private_board(world, world.ada)
    assert place_of(board, world.cy) == f"3. <@{world.cy.id}>: 0 · 0 won of 40"
    assert not re.search(r": -\d", board)


async def test_a_rating_is_provisional_until_five_rated_games(world):
    for _ in range(4):
        await win(world, world.ada, world.bo)
    board, _ = await private_board(world, world.ada)
    assert "(provisional: 4 of 5 rated games) · 4 won of 4" in place_of(board, world.ada)
    await win(world, world.ada, world.bo)
    board, _ = await private_board(world, world.ada)
    settled = shown_rating((await ratings(world))[world.ada.id])
    assert place_of(board, world.ada) == f"1. <@{world.ada.id}>: {settled} · 5 won of 5"


async def test_games_against_the_computer_are_not_rated(world):
    computer = bot_member(world)
    await world.ada.slash(world.channel, "tiny challenge", opponent=computer)
    game = world.channel.last_message
    await resign(world, world.ada, game)
    # The computer is named, never mentioned.
    assert f"🏆 **{world.platform.bot.user.display_name}** won (resignation)." in world.message(game.id).content
    assert await ratings(world) == {}, "nobody's rating moves in a game with a computer seat"
    stats = private_texts(await world.ada.slash(world.channel, "stats"))[-1]
    assert "**Tiny**: 0 won of 1" in stats
    assert "rating" not in stats
    board, _ = await private_board(world, world.ada)
    assert board == "Nobody has a Tiny rating here yet: ratings come from games between members."


async def test_the_computer_is_never_on_the_ladder(world):
    computer = world.platform.bot.user.id
    async with world.platform.store.transaction() as tx:  # a rating an older version gave it
        await tx.save_ratings(world.guild.id, "tiny", [Rating(computer, 60.0, 1.0, 30, 30)])
    await win(world, world.ada, world.bo)
    board, _ = await private_board(world, world.ada)
    assert f"<@{computer}>" not in board
    assert board.splitlines()[1].startswith(f"1. <@{world.ada.id}>:")


async def test_the_private_leaderboard_posts_itself_publicly_even_after_a_restart(world, settings):
    await win(world, world.ada, world.bo)
    board, message = await private_board(world, world.cy)
    assert not any(m.content.startswith("## Tiny leaderboard") for m in world.channel.history())
    await world.restart(settings, [TinyAdapter])  # the button carries the game in its custom id
    await world.cy.click(message, label="Post in the channel")
    posted = world.channel.last_message
    assert not posted.flags.ephemeral
    assert posted.content == f"{board}\n-# Shared by Cy"
    assert f"<@{world.ada.id}>" in posted.content  # shown, never pinged: the bot allows no mentions
