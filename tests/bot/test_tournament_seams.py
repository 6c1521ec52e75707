"""Tournaments through SimCord, issue 36's seams: the standings post and its picture name the
same round, whoever moves first is the same player everywhere, the host's end scores running
games as not played, and members who leave or delete their data are withdrawn at once."""

from __future__ import annotations

import pytest

from bot.core.settings import Settings
from bot.games.octego import OctegoAdapter
from bot.games.octiles import OctilesAdapter
from tests.bot.test_tournaments import event, play_round_by_resignations, started


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "seams.db"))  # game threads on


@pytest.fixture
def games():
    return [OctegoAdapter, OctilesAdapter]


def standings_posts(world) -> list:
    return [m for m in world.channel.history() if "standings after" in m.content or "final standings" in m.content]


@pytest.mark.parametrize(("format", "count", "rounds"), [("swiss", 4, {"rounds": 2}), ("knockout", 4, {})])
async def test_each_standings_picture_names_the_round_its_post_names(world, format, count, rounds):
    _host, everyone, event_id = await started(world, count, game="octego", format=format, round_time="1d", **rounds)
    await play_round_by_resignations(world, everyone, event_id, 1)
    (after_one,) = standings_posts(world)
    assert "standings after round 1 of 2" in after_one.content
    assert len((await event(world, event_id)).state.rounds) == 2, "round 2 is paired meanwhile"
    assert "standings after round 1 of 2" in after_one.attachments[0].description, after_one.attachments[0].description
    await play_round_by_resignations(world, everyone, event_id, 2)
    final = standings_posts(world)[-1]
    assert "final standings" in final.content
    assert "final standings" in final.attachments[0].description
