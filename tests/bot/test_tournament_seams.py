"""Tournaments through SimCord, issue 36's seams: the standings post and its picture name the
same round, whoever moves first is the same player everywhere, the host's end scores running
games as not played, and members who leave or delete their data are withdrawn at once."""

from __future__ import annotations

import pytest

from bot.core.settings import Settings
from bot.dev.world import private_messages, private_texts
from bot.features.privacy_store import FORMER_MEMBER
from bot.games.octego import OctegoAdapter
from bot.games.octiles import OctilesAdapter
from tests.bot.test_tournaments import (
    card_of,
    create,
    event,
    games_of_round,
    host_of,
    join_all,
    member,
    move,
    play_round_by_resignations,
    players,
    resign,
    standings_lines,
    start,
    started,
    thread_of,
)


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "seams.db"))  # game threads on


@pytest.fixture
def games():
    return [OctegoAdapter, OctilesAdapter]


async def standings_picture_of(world, someone):
    """The picture /tournament standings answers with, privately."""
    result = await someone.slash(world.channel, "tournament standings")
    (answer,) = [m for m in private_messages(result) if m.attachments]
    return answer.attachments[0]


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


# Octiles deals Gold (who plays first) from the game's seed: seat 1 with 99, seat 0 with 100.
GOLD_SECOND, GOLD_FIRST = 99, 100


async def test_who_moves_first_is_the_same_player_in_the_pairings_their_picture_and_the_game(world):
    host = host_of(world)
    everyone = players(world, 4)
    event_id = await create(world, host, game="octiles", format="swiss", rounds=1, round_time="1d")
    seeds = iter([GOLD_SECOND, GOLD_FIRST])
    world.platform.new_seed = lambda: next(seeds)
    await join_all(world, event_id, everyone)
    await start(world, host, event_id)
    state = (await event(world, event_id)).state
    posted = next(m for m in world.channel.history() if "round 1 of 1" in m.content)
    engine = world.platform.games["octiles"].engine
    for table, game in sorted((await games_of_round(world, event_id, 1)).items()):
        pairing = state.round(1).pairing(table)
        first, second = (state.name(p) for p in pairing.players)
        assert f"Table {table}: <@{pairing.first}> (moves first) v <@{pairing.second}>" in posted.content
        assert f"{first} moves first against {second}" in posted.attachments[0].description
        (on_turn,) = engine.to_act(game.state)
        assert game.players[on_turn] == pairing.first, f"table {table}: the game's first player is the pairing's"
    games = await games_of_round(world, event_id, 1)
    for table, game in games.items():  # the pairing's second player resigns, whatever seat they hold
        pairing = state.round(1).pairing(table)
        loser = member(world, everyone, pairing.second)
        result = await loser.slash(thread_of(world, game), "octiles resign")
        assert "resign" in private_texts(result)[-1].lower(), private_texts(result)
    await world.env.settle()
    scored = (await event(world, event_id)).state.round(1)
    assert [p.result for p in scored.pairings] == ["first", "first"], "each pairing's first player won"


async def test_a_withdrawal_resigns_the_withdrawn_players_own_seat_wherever_they_sit(world):
    host = host_of(world)
    everyone = players(world, 3)
    event_id = await create(world, host, game="octiles", format="swiss", rounds=1, round_time="1d")
    world.platform.new_seed = lambda: GOLD_SECOND
    await join_all(world, event_id, everyone)
    await start(world, host, event_id)
    (game,) = (await games_of_round(world, event_id, 1)).values()
    pairing = next(p for p in (await event(world, event_id)).state.round(1).pairings if not p.is_bye)
    assert game.players[1] == pairing.first, "Gold (seat 1) is the pairing's first player"
    result = await member(world, everyone, pairing.first).slash(world.channel, "tournament withdraw")
    assert "withdrew" in private_texts(result)[-1], private_texts(result)
    await world.env.settle()
    ended = await world.platform.sessions.load(game.id)
    assert ended.status == "finished"
    engine = world.platform.games["octiles"].engine
    assert list(engine.outcome(ended.state).winners) == [0], "the one who stayed wins the game"
    scored = next(p for p in (await event(world, event_id)).state.round(1).pairings if not p.is_bye)
    assert scored.result == "first forfeits"


async def test_games_running_when_the_host_ends_are_stopped_and_not_played(world):
    host, everyone, event_id = await started(world, 4, game="octego", format="round_robin", round_time="1d")
    await play_round_by_resignations(world, everyone, event_id, 1)
    games = await games_of_round(world, event_id, 2)
    won_table, running_table = sorted(games)
    won, running = games[won_table], games[running_table]
    await resign(world, everyone, won, won.players[1])
    ended = await host.slash(world.channel, "tournament end")
    assert "ended" in private_texts(ended)[-1]
    await world.env.settle()
    stopped = await world.platform.sessions.load(running.id)
    assert stopped.status == "stopped"
    assert "draw" not in stopped.meta.final_header
    assert "Round time" not in stopped.meta.final_header
    assert "ended the tournament" in stopped.meta.final_header
    session = await event(world, event_id)
    assert session.status == "finished"
    assert session.state.round(2).pairing(running_table).result == "not played"
    final = standings_posts(world)[-1]
    assert "final standings (ended by the host after round 1)" in final.content
    assert "not played" in final.content
    assert "draw" not in final.content
    assert "ended by the host after round 1" in final.attachments[0].description
    assert "(ended by the host after round 1)" in card_of(world, session).content
    lines = await standings_lines(world, everyone[0])
    for player in running.players:  # one win in round 1 or none: the unplayed game adds nothing
        line = next(line for line in lines if session.state.name(player) in line)
        assert line.endswith((": 1 point", ": 0 points")), line


async def test_a_member_who_left_is_withdrawn_before_the_next_pairing_even_against_a_withdrawn_player(world):
    """Round-robin of four (seeds in joining order: round 1 Ada v Di, Bo v Cy; round 2 Ada v Cy):
    Ada withdraws, Cy leaves mid-game; round 2's Ada v Cy is forfeited by both, Cy withdrawn."""
    _host, everyone, event_id = await started(world, 4, game="octego", format="round_robin", round_time="1d")
    ada, bo, cy, _di = everyone
    withdrew = await ada.slash(world.channel, "tournament withdraw")
    assert "withdrew" in private_texts(withdrew)[-1]
    world.guild.remove_member(cy)
    game = next(g for g in (await games_of_round(world, event_id, 1)).values() if cy.id in g.players)
    if game.players[0] == bo.id:
        await move(world, everyone, game)  # Cy is to move, and never will
    await world.env.advance_time(game.meta.clock_seconds + 1)
    await world.env.settle()
    session = await event(world, event_id)
    assert len(session.state.rounds) == 2
    assert cy.id in session.state.withdrawn
    both_out = next(p for p in session.state.round(2).pairings if cy.id in p.players)
    assert set(both_out.players) == {ada.id, cy.id}
    assert both_out.result == "both forfeit", "Cy, gone, scores no win against the withdrawn Ada"
    assert any("left the server" in m.content for m in world.channel.history())


async def test_privacy_delete_withdraws_the_member_at_once_and_names_them_a_former_member(world):
    _host, everyone, event_id = await started(world, 4, game="octego", format="swiss", rounds=2, round_time="1d")
    cy = everyone[2]
    game = next(g for g in (await games_of_round(world, event_id, 1)).values() if cy.id in g.players)
    opponent = next(p for p in game.players if p != cy.id)
    asked = await cy.slash(world.channel, "privacy delete")
    clicked = await cy.click(private_messages(asked)[-1], label="Delete my data")
    assert "Done" in private_texts(clicked)[-1], private_texts(clicked)
    await world.env.settle()
    session = await event(world, event_id)
    assert cy.id not in [p.id for p in session.state.players], "their id is gone from the event"
    (former,) = session.state.withdrawn
    assert session.state.name(former) == FORMER_MEMBER
    pairing = next(p for p in session.state.round(1).pairings if former in p.players)
    assert pairing.points_of(opponent) == 1, "their running game is forfeited: the opponent wins"
    assert (await world.platform.sessions.load(game.id)).status == "finished"
    lines = await standings_lines(world, everyone[0])
    assert any(FORMER_MEMBER in line and "withdrew" in line for line in lines), lines
    assert not any("Cy" in line for line in lines), lines
    picture = (await standings_picture_of(world, everyone[0])).description
    assert "Cy" not in picture
    assert FORMER_MEMBER in picture
