"""Every registered two-player game can be a tournament's game: its pairing opens the game in a
thread of its own, with the event's turn clock and the pairing's first player moving first, and a
resignation there scores the pairing."""

from __future__ import annotations

import pytest

from bot.core.settings import Settings
from bot.dev.world import private_texts
from bot.games import all_games
from tests.bot.test_tournaments import create, event, games_of_round, host_of, join_all, start, thread_of

PAIRED_GAMES = [a.name for a in all_games() if not a.simultaneous and a.engine.min_players <= 2 <= a.engine.max_players]


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "tournament-games.db"))  # game threads on


def test_every_game_raced_by_all_at_once_is_left_to_series():
    assert PAIRED_GAMES, "some registered game is played in pairs"
    assert len(PAIRED_GAMES) < len(all_games()), "Octagion (raced by everyone at once) plays series instead"


@pytest.mark.parametrize("game", PAIRED_GAMES)
async def test_each_two_player_game_plays_a_tournament_pairing(world, game):
    host = host_of(world)
    event_id = await create(world, host, game=game, format="swiss", rounds=1, round_time="4h")
    await join_all(world, event_id, world.members[:3])
    await start(world, host, event_id)
    (played,) = (await games_of_round(world, event_id, 1)).values()
    assert played.status == "active"
    assert played.record.game == game
    assert played.meta.clock_seconds == 4 * 3600 // 40, "the event's turn clock"
    pairing = next(p for p in (await event(world, event_id)).state.round(1).pairings if not p.is_bye)
    (on_turn,) = world.platform.games[game].engine.to_act(played.state)
    assert played.players[on_turn] == pairing.first, "the pairing's first player moves first in the game"
    loser = next(m for m in world.members if m.id == pairing.second)
    result = await loser.slash(thread_of(world, played), f"{game} resign")
    assert "resign" in private_texts(result)[-1].lower()
    await world.env.settle()
    session = await event(world, event_id)
    assert session.status == "finished"
    pairing = next(p for p in session.state.round(1).pairings if not p.is_bye)
    assert pairing.result == "first"
