"""Cards in the playground's #games, before and after a restart (issue 36, item 14): a tournament
game's card links its thread from the start, and a restart posts every card again whole: the
Swiss and knockout events' cards among them, each link leading to a thread of the new run, and
`/record` answers in a thread posted again."""

from __future__ import annotations

import re

from bot.dev.world import private_texts
from bot.features.tournaments.store import KIT
from tests.bot.test_playground import run

OPENING = "opening a thread…"


async def play_an_event(world, format: str, seen: dict) -> None:
    """Ada hosts, the four members join, and every game is resigned by its first player until the end;
    the cards of the first round's games are noted before anyone moves."""
    games = world.channel
    await world.ada.slash(games, "tournament create", game="octego", format=format)
    for member in world.members:
        await member.click(games.last_message, label="Join")
    await world.ada.click(games.last_message, label="Start")
    await world.env.settle()
    live_cards = [m.content for m in games.history() if m.content.startswith("**Octego**") and "to play" in m.content]
    seen.setdefault("before_a_move", []).extend(live_cards)
    for _ in range(3):  # a round each; more than either event has
        for thread in games.threads:
            session = await world.platform.sessions.live_in_channel(thread.id)
            if session is not None:
                player = next(m for m in world.members if m.id == session.record.players[0])
                await player.slash(thread, "octego resign")
        await world.env.settle()


async def test_a_restart_posts_every_card_again_linking_this_runs_threads(tmp_path):
    database = tmp_path / "pg.db"
    first, second = {}, {}

    async def play_two_events(world, _):
        world.platform.new_seed = lambda: 7
        await play_an_event(world, "swiss", first)
        await play_an_event(world, "knockout", first)
        rows = await world.platform.store.query("SELECT id, status FROM sessions WHERE game = ?", (KIT,))
        first["events"] = {row[0]: row[1] for row in rows}

    async def look(world, _):
        games = world.channel
        second["messages"] = {m.id: m.content for m in games.history()}
        second["threads"] = {thread.id for thread in games.threads}
        second["cards"] = [(await world.platform.store.get_session(e)).card_id for e in first["events"]]
        second["records"] = [private_texts(await world.ada.slash(t, "record"))[-1] for t in games.threads]
        second["errors"] = list(world.platform.errors)

    await run(database, play_two_events)
    await run(database, look)
    assert set(first["events"].values()) == {"finished"}
    assert len(first["before_a_move"]) == 4  # the first rounds' games: two each
    assert not [card for card in first["before_a_move"] if OPENING in card]
    assert all(card in second["messages"] for card in second["cards"]), "the Swiss and knockout cards again"
    assert not [text for text in second["messages"].values() if OPENING in text]
    linked = {int(found) for text in second["messages"].values() for found in re.findall(r"<#(\d+)>", text)}
    assert second["threads"]
    assert linked == second["threads"], "every link leads to a thread of this run, and each is linked"
    assert len(second["records"]) == len(second["threads"])
    assert all(text.startswith("📜 The record of Octego #") for text in second["records"])
    assert second["errors"] == []
