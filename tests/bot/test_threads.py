"""Games in threads through SimCord: any number of games in one channel, each in a thread of its
own with a compact card in the channel, "your move" notices, finished games that look finished,
day-long turn clocks, and what happens when a thread cannot be made or goes away."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image, ImageChops

from bot.core.settings import Settings
from bot.dev.world import bot_member, private_texts
from bot.features.threads import GONE_NOTE
from bot.features.turn_notices import AT_THE_GAME_SECONDS, TURN_NOTICE
from bot.games.octagion import OctagionAdapter
from bot.games.octego import OctegoAdapter
from engines.octego import legal_moves
from tests.bot.answers import private_answer
from tests.bot.tinygame import TinyAdapter

SEED = 1234


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "threads.db"))  # game threads on: the default


@pytest.fixture
def games():
    return [OctegoAdapter, TinyAdapter, OctagionAdapter]


# ------------------------------------------------------------------ helpers


def thread_creations(channel) -> list[discord.Message]:
    """The channel's "started a thread" lines: one per thread the bot ever created there."""
    return [m for m in channel.history() if m.type == discord.MessageType.thread_created]


def cards(world, channel=None) -> list[discord.Message]:
    """The bot's messages in the channel that are not system lines: the games' cards."""
    channel = channel or world.channel
    return [m for m in channel.history() if m.author.id == world.bot.user.id and m.type == discord.MessageType.default]


def thread_of(world, session) -> object:
    return next(t for t in world.channel.threads if t.id == session.record.thread_id)


def attachment(world, message) -> Image.Image:
    return Image.open(io.BytesIO(world.env.backend.cdn.get(message.attachments[0].url))).convert("RGB")


async def load(world, session_id):
    return await world.platform.sessions.load(session_id)


async def challenge(world, challenger, opponent, game="octego", **options):
    world.platform.new_seed = lambda: SEED
    result = await challenger.slash(world.channel, f"{game} challenge", opponent=opponent, **options)
    assert result.ephemeral
    return result


async def accepted_game(world, challenger, opponent, **options):
    """``challenger`` challenges ``opponent`` in #games and the opponent accepts on the card."""
    await challenge(world, challenger, opponent, **options)
    card = world.channel.last_message
    await opponent.click(card, label="Accept")
    records = await world.platform.store.threaded_sessions(world.channel.id)
    record = next(r for r in records if r.card_id == card.id)
    return await load(world, record.id), card


async def octego_move(world, actor, session):
    """The first legal move of the player on turn, typed in the game's thread."""
    session = await load(world, session.id)
    seat = session.players.index(actor.id)
    path = legal_moves(session.state, seat)[0]
    result = await actor.slash(thread_of(world, session), "octego move", path=path)
    assert private_texts(result)[-1].startswith("Done."), private_texts(result)
    return path


def notices(world, session) -> list[discord.Message]:
    return [m for m in thread_of(world, session).history() if "your move" in m.content]


# -------------------------------------------------------------------- tests


async def test_ten_games_at_once_in_one_channel_each_in_its_own_thread(world):
    pairs = [(world.ada, world.bo), (world.cy, world.di)] * 5
    games = [await accepted_game(world, a, b) for a, b in pairs]
    sessions = [session for session, _ in games]
    assert len({s.record.thread_id for s in sessions}) == 10
    assert len(thread_creations(world.channel)) == 10, "one thread per game, created once"
    assert len(cards(world)) == 10, "the channel keeps one card per game and nothing else"
    for session, card in games:
        thread = thread_of(world, session)
        assert thread.id == card.id, "each thread starts from its game's card"
        assert (
            thread.name == f"Octego · Ada vs Bo · #{session.id}" or thread.name == f"Octego · Cy vs Di · #{session.id}"
        )
        game_message = next(m for m in thread.history() if m.id == session.record.message_id)
        assert "## Octego" in game_message.content
        assert game_message.attachments
        intro = thread.history()[0]
        assert all(f"<@{p}>" in intro.content for p in session.players), "the players are mentioned into it"
    # Every game plays on to its end, each in its thread.
    for session, card in games:
        first, second = (world.ada, world.bo) if world.ada.id in session.players else (world.cy, world.di)
        await octego_move(world, first, session)
        await octego_move(world, second, session)
        await first.slash(thread_of(world, session), "octego resign")
        finished = await load(world, session.id)
        assert finished.status == "finished"
        await world.env.advance_time(10)  # ten games' cards share their channel's pace of edits
        card_now = world.message(card.id)
        assert f"🏆 {second.mention} won" in card_now.content
        assert [c.label for row in card_now.components for c in row.children] == ["Rematch", "Replay", "Review"]
    assert len(cards(world)) == 10


async def test_the_card_is_compact_and_follows_the_game(world):
    session, card = await accepted_game(world, world.ada, world.bo)
    shown = world.message(card.id)
    assert "## Octego" not in shown.content
    assert not shown.attachments, "no big picture on the card"
    assert f"<#{session.record.thread_id}>" in shown.content
    assert "move 1" in shown.content
    assert "**Ada** to play" in shown.content
    assert not shown.components, "the game's controls are in its thread"
    await octego_move(world, world.ada, session)
    await world.env.advance_time(5)  # card edits wait a few seconds, so moves meanwhile share one
    shown = world.message(card.id)
    assert "move 2" in shown.content
    assert "**Bo** to play" in shown.content


async def test_the_player_to_move_gets_a_new_message_and_the_old_notice_goes(world, settings, games):
    session, _ = await accepted_game(world, world.ada, world.bo)
    assert notices(world, session) == [], "the thread's first message already mentioned both"
    path = await octego_move(world, world.ada, session)
    [notice] = notices(world, session)
    assert notice.content.startswith(f"🔔 {world.bo.mention}, your move in Octego: **Ada** moved")
    assert path.split("-")[0] in notice.content
    assert [u.id for u in notice.mentions] == [world.bo.id], "it mentions only the member to move"
    assert world.ada.mention not in notice.content
    await world.restart(settings, games)  # the notice to delete is remembered with the game
    await octego_move(world, world.bo, session)
    [second] = notices(world, session)
    assert second.id != notice.id, "the previous notice is deleted"
    assert second.content.startswith(f"🔔 {world.ada.mention}, your move")


async def test_notify_off_stops_the_notices_for_that_member_only(world, settings, games):
    answer = await world.bo.slash(world.channel, "notify", pings="off")
    assert "No more" in private_texts(answer)[-1]
    await world.restart(settings, games)  # the choice is stored, not only remembered
    session, _ = await accepted_game(world, world.ada, world.bo)
    await octego_move(world, world.ada, session)
    assert notices(world, session) == [], "Bo turned them off"
    await world.env.advance_time(AT_THE_GAME_SECONDS + 60)  # Ada is away: her move is pinged
    await octego_move(world, world.bo, session)
    [notice] = notices(world, session)
    assert world.ada.mention in notice.content
    await world.bo.slash(world.channel, "notify", pings="on")
    await world.env.advance_time(AT_THE_GAME_SECONDS + 60)
    await octego_move(world, world.ada, session)
    assert world.bo.mention in notices(world, session)[0].content


async def test_no_notice_when_the_turn_goes_to_the_computer(world):
    bot = bot_member(world)
    result = await world.ada.slash(world.channel, "tiny challenge", opponent=bot)
    assert "started in <#" in private_texts(result)[-1]
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    game = next(m for m in thread.history() if m.id == record.message_id)
    await world.ada.click(game, label="+1")
    await world.env.settle()
    assert (await load(world, record.id)).state.total > 1, "the computer moved"
    said = [m.content for m in thread.history() if "your move" in m.content]
    assert said == [], "none to the computer, and none to Ada, who is at the game (she just moved)"


async def test_without_thread_permissions_the_game_plays_in_the_channel_as_before(world, settings, games):
    me = bot_member(world)
    no_threads = world.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    result = await world.ada.slash(no_threads, "tiny challenge", opponent=world.bo)
    texts = private_texts(result)
    assert "No thread" in texts[0], "the challenger is told why"
    assert "Create Public Threads" in texts[0]
    await world.bo.click(no_threads.last_message, label="Accept")
    assert no_threads.threads == []
    session = await world.platform.sessions.live_in_channel(no_threads.id)
    assert session.status == "active"
    assert not session.record.in_thread
    assert "## Tiny" in no_threads.last_message.content
    await world.restart(settings, games)
    busy = await world.cy.slash(no_threads, "tiny challenge", opponent=world.di)
    assert "There is already a game of Tiny" in private_texts(busy)[-1], "one live game per channel there"
    again = await world.ada.slash(no_threads, "tiny resign")
    assert "You resigned." in private_texts(again)[-1]
    second = await world.ada.slash(no_threads, "tiny challenge", opponent=world.bo)
    assert not any("No thread" in text for text in private_texts(second)), "told once"


async def test_settings_game_threads_off_plays_in_the_channel(world):
    owner = world.guild.add_member(
        world.env.create_user("owner"),
        roles=[world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))],
    )
    answer = await owner.slash(world.channel, "settings game_threads", enabled=False)
    assert "one at a time" in private_texts(answer)[-1]
    result = await world.ada.slash(world.channel, "tiny challenge", opponent=world.bo)
    assert "game threads are off" in private_texts(result)[0]
    await world.bo.click(world.channel.last_message, label="Accept")
    assert world.channel.threads == []
    assert (await world.session()).status == "active"


async def test_a_deleted_thread_stops_its_game_and_its_card_says_so(world, settings, games):
    session, card = await accepted_game(world, world.ada, world.bo)
    other, _ = await accepted_game(world, world.cy, world.di)
    await world.restart(settings, games)  # the threads are known from the store
    world.env.backend.delete_channel(session.record.thread_id)
    await world.env.settle()
    stopped = await load(world, session.id)
    assert stopped.status == "stopped"
    assert GONE_NOTE in world.message(card.id).content
    assert (await load(world, other.id)).status == "active", "the other game goes on"
    await octego_move(world, world.cy, other)


async def test_a_thread_closed_to_the_bot_ends_its_game_at_the_next_post(world):
    session, _card = await accepted_game(world, world.ada, world.bo)
    world.env.inject_error("*", f"/channels/{session.record.thread_id}/messages*", status=403, code=50001, times=None)
    thread = thread_of(world, session)
    game = next(m for m in thread.history() if m.id == session.record.message_id)
    await world.ada.click(game, label="Resign")  # asks privately; the outbox's post fails later
    await world.ada.slash(thread, "octego resign")
    await world.env.settle()
    record = (await load(world, session.id)).record
    assert record.status in ("finished", "stopped")
    assert await world.platform.store.outbox(session.id) == [], "nothing is left half-sent"


async def test_a_restart_mid_game_keeps_threads_cards_and_controls(world, settings):
    session, _card = await accepted_game(world, world.ada, world.bo)
    await octego_move(world, world.ada, session)
    await world.restart(settings, [OctegoAdapter, TinyAdapter, OctagionAdapter])
    await octego_move(world, world.bo, session)  # the thread's commands work after the restart
    thread = thread_of(world, session)
    game = next(m for m in thread.history() if m.id == session.record.message_id)
    await world.ada.click(game, label="Resign")
    assert (await load(world, session.id)).status == "active", "Resign asks first"
    assert len(thread_creations(world.channel)) == 1


async def test_a_crash_between_the_threads_creation_and_its_commit_does_not_create_it_twice(world, settings):
    await challenge(world, world.ada, world.bo)
    card = world.channel.last_message
    platform = world.platform
    opened = platform.outbox.kinds["open_thread"]
    original_after = opened.after

    async def crash(change, payload, thread):  # the process dies before the thread's id commits
        raise RuntimeError("killed")

    opened.after = crash
    await world.bo.click(card, label="Accept")
    await world.env.settle()
    assert len(thread_creations(world.channel)) == 1
    [record] = await platform.store.threaded_sessions(world.channel.id)
    assert record.thread_id is None, "its id was never committed"
    platform.errors.clear()  # the crash stood in for a killed process
    opened.after = original_after
    await world.restart(settings, [OctegoAdapter, TinyAdapter, OctagionAdapter])
    await world.env.advance_time(60)  # the entry's retry comes due
    record = await world.platform.store.get_session(record.id)
    assert record.thread_id == card.id
    assert len(thread_creations(world.channel)) == 1, "the thread from before the crash is used, not a second one"
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    assert any(m.id == record.message_id for m in thread.history())


async def test_commands_in_the_channel_act_on_the_callers_single_game_or_name_the_threads(world):
    session, _ = await accepted_game(world, world.ada, world.bo)
    board = await world.ada.slash(world.channel, "board")
    assert private_texts(board)[-1] == f"The current board is posted again in <#{session.record.thread_id}>."
    await accepted_game(world, world.ada, world.cy)
    ambiguous = await world.ada.slash(world.channel, "octego resign")
    assert "Several games here" in private_texts(ambiguous)[-1]
    assert f"<#{session.record.thread_id}>" in private_texts(ambiguous)[-1]
    moderators = world.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    moderator = world.guild.add_member(world.env.create_user("mod"), roles=[moderators])
    listed = await moderator.slash(world.channel, "stop")
    assert "Several games here" in private_texts(listed)[-1], "a moderator is shown the threads"
    stop = await world.bo.slash(world.channel, "stop")  # Bo's single game here, which Ada hosts
    assert "Only the host" in private_texts(stop)[-1]
    stop = await moderator.slash(thread_of(world, session), "stop")
    assert "You stopped the Octego session" in private_texts(stop)[-1]
    assert (await load(world, session.id)).status == "stopped"


async def test_a_stopped_game_looks_final_and_its_controls_are_gone(world):
    session, card = await accepted_game(world, world.ada, world.bo)
    thread = thread_of(world, session)
    live = next(m for m in thread.history() if m.id == session.record.message_id)
    live_picture = attachment(world, live)
    await world.ada.slash(thread, "stop")
    await world.env.settle()
    final = world.env.backend.messages[thread.id][session.record.message_id]
    final_message = next(m for m in thread.history() if m.id == final.id)
    kept = [c.label for row in final_message.components for c in row.children]
    assert kept[:2] == ["Rematch", "Replay"], "a stopped game keeps only a finished game's controls"
    assert not {"Move", "Resign"} & set(kept)
    final_picture = attachment(world, final_message)
    assert ImageChops.difference(live_picture, final_picture).getbbox() is not None
    assert "Stopped by Ada" in final_message.attachments[0].description
    assert "to move" not in final_message.attachments[0].description
    assert "stopped the Octego session" in world.message(card.id).content


async def test_a_private_menu_opened_before_the_end_says_the_game_ended(world):
    session, _ = await accepted_game(world, world.ada, world.bo)
    thread = thread_of(world, session)
    game = next(m for m in thread.history() if m.id == session.record.message_id)
    menu = private_answer(await world.ada.click(game, label="Move"))
    await world.bo.slash(thread, "octego resign")
    late = await world.ada.select(menu, ["a1"])
    assert "This game has ended." in private_texts(late)[-1] + menu.content
    assert (await load(world, session.id)).status == "finished"


async def test_a_two_day_clock_warns_at_half_time_and_an_hour_before_and_forfeits(world):
    session, card = await accepted_game(world, world.ada, world.bo, clock="2d")
    thread = thread_of(world, session)
    assert session.meta.clock_seconds == 2 * 86400
    game = next(m for m in thread.history() if m.id == session.record.message_id)
    assert "Turn ends <t:" in game.content
    await world.env.advance_time(86400 + 1)
    assert "half of your turn time is gone" in thread.last_message.content
    await world.env.advance_time(86400 - 3600)
    assert "almost up" in thread.last_message.content
    assert world.ada.mention in thread.last_message.content
    await world.env.advance_time(3600)
    finished = await load(world, session.id)
    assert finished.status == "finished"
    final = next(m for m in thread.history() if m.id == finished.record.message_id)
    assert f"🏆 {world.bo.mention} won: **Ada** ran out of time." in final.content
    assert "Bo won: Ada ran out of time" in final.attachments[0].description, "a forfeit, not a resignation"
    assert "resign" not in final.attachments[0].description.lower()
    assert [c.label for row in final.components for c in row.children] == ["Rematch", "Replay", "Review"]
    assert "ran out of time" in world.message(card.id).content


async def test_a_game_keeps_its_clock_when_the_server_setting_changes(world):
    session, _ = await accepted_game(world, world.ada, world.bo, clock="4h")
    owner = world.guild.add_member(
        world.env.create_user("owner"),
        roles=[world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))],
    )
    await owner.slash(world.channel, "settings turn_clock", clock="30m")
    await octego_move(world, world.ada, session)
    assert (await load(world, session.id)).meta.clock_seconds == 4 * 3600
    await world.env.advance_time(31 * 60)
    assert (await load(world, session.id)).status == "active", "its own 4 hours, not the new 30 minutes"


async def test_a_typed_clock_that_is_not_one_is_refused_privately(world):
    result = await world.ada.slash(world.channel, "octego challenge", opponent=world.bo, clock="soon")
    assert "is not a clock" in private_texts(result)[-1]
    assert cards(world) == []


async def test_notices_are_restricted_to_the_member_meant(world):
    session, _ = await accepted_game(world, world.ada, world.bo)
    await octego_move(world, world.ada, session)
    entries = [e for e in await world.platform.store.outbox(session.id) if e.kind == TURN_NOTICE]
    assert entries == [], "sent"
    [notice] = notices(world, session)
    assert not notice.mention_everyone
    assert notice.role_mentions == []


async def test_an_octagion_race_plays_in_its_thread_and_pings_its_members_at_each_round(world):
    world.platform.new_seed = lambda: SEED
    await world.bo.slash(world.channel, "notify", pings="off")
    await world.ada.slash(world.channel, "octagion start", rounds=2)
    lobby = world.channel.last_message
    assert lobby.content.startswith("## Octagion lobby"), "the lobby is the game's card"
    for member in (world.bo, world.cy):
        await member.click(lobby, label="Join")
    await world.ada.click(lobby, label="Start")
    [record] = await world.platform.store.threaded_sessions(world.channel.id)
    assert record.thread_id == lobby.id
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    first_round = next(m for m in thread.history() if "Round 1 of 2" in m.content)
    assert [c.label for row in first_round.components for c in row.children][-2:] == ["My deck", "Resign"]
    assert "Octagion" in world.message(lobby.id).content
    assert "round 1" in world.message(lobby.id).content
    await world.ada.click(first_round, label="Got it!")  # ends the round for everyone
    await world.env.settle()
    ended_round = next(m for m in thread.history() if m.id == first_round.id)
    assert ended_round.components == [], "an ended round keeps no My deck or Resign"
    await world.env.advance_time(20)  # the pause between rounds
    [ping] = [m for m in thread.history() if "starts now" in m.content]
    assert ping.content == f"🔔 {world.cy.mention}: Octagion round 2 of 2 starts now."
    assert {u.id for u in ping.mentions} == {world.cy.id}, "Bo turned notices off, Ada is at the game (Got it!)"
    assert any("Round 2 of 2" in m.content for m in thread.history())
    assert not any("Round" in m.content for m in cards(world)), "the rounds are in the thread"


async def test_a_finished_games_thread_is_archived_after_the_setting_never_deleted(world):
    owner = world.guild.add_member(
        world.env.create_user("owner"),
        roles=[world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))],
    )
    answer = await owner.slash(world.channel, "settings thread_archive", clock="2h")
    assert "2 hours after the end" in private_texts(answer)[-1]
    session, _ = await accepted_game(world, world.ada, world.bo)
    thread = world.env.backend.get_channel(session.record.thread_id)
    assert thread.thread_metadata.auto_archive_duration == 10080, "a day-long game is never archived mid-game"
    await world.ada.slash(thread_of(world, session), "octego resign")
    await world.env.advance_time(3600)
    assert not thread.thread_metadata.archived
    await world.env.advance_time(3601)
    assert world.env.backend.get_channel(session.record.thread_id).thread_metadata.archived
    assert session.record.thread_id in {t.id for t in world.channel.threads}, "archived, not deleted"
