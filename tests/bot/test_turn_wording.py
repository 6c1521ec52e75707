"""Wording that must stay true and complete: a four-player challenge says who partners whom, and
an Octagion result names the next round's start as a clock time (a relative "in 10 seconds"
later reads "2 minutes ago")."""

from __future__ import annotations

import re

import pytest

from bot.games.octagion import OctagionAdapter
from bot.games.octagone import OctagoneAdapter


@pytest.mark.parametrize("games", [[OctagoneAdapter]])
async def test_a_four_player_challenge_says_who_partners_whom(world, games):
    await world.ada.slash(world.channel, "octagone challenge", opponent=world.bo, partner=world.cy, opponent2=world.di)
    challenge = world.channel.last_message.content
    ada, bo, cy, di = (member.mention for member in world.members)
    assert f"Pairs: {ada} & {cy} vs {bo} & {di}." in challenge
    await world.ada.slash(world.channel, "stop")

    # Named in another order: the pairs follow the options, not the order of the mentions.
    await world.di.slash(world.channel, "octagone challenge", opponent=world.ada, partner=world.bo, opponent2=world.cy)
    assert f"Pairs: {di} & {bo} vs {ada} & {cy}." in world.channel.last_message.content


@pytest.mark.parametrize("games", [[OctagoneAdapter]])
async def test_a_two_player_challenge_has_no_pairs_line(world, games):
    await world.ada.slash(world.channel, "octagone challenge", opponent=world.bo)
    assert "Pairs:" not in world.channel.last_message.content


@pytest.mark.parametrize("games", [[OctagionAdapter]])
async def test_an_octagion_result_names_the_next_round_by_its_clock_time(world, games):
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    await world.bo.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    await world.env.advance_time(121)  # the round's timer
    [result] = [m for m in world.channel.history() if m.content.startswith("### Round 1 of")]
    assert re.search(r"\nRound 2 follows at <t:\d+:T>\.$", result.content), result.content
    assert ":R>" not in result.content
