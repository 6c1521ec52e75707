"""A real bot process that plays Octagion on a file database and dies by SIGKILL at a named point.

    python -m tests.bot.crash_driver <db_path> play <point>
    python -m tests.bot.crash_driver <db_path> resume <point>

``play``: Ada opens a two-round lobby, Bo joins, Ada presses Start; then virtual time runs until
the game reaches ``point``, where the process kills itself (``SIGKILL``: no cleanup, no flush of
anything but what is already written). Just before dying it prints one line of JSON: the point
and the public messages posted so far. If the point is never reached it exits with status 3.

``resume``: a new process on the same database builds the same world while the bot is still
down (a stand-in client holds the simulated Discord), lets ``DOWNTIME`` seconds of virtual time
pass after the crashed process's last commit, then starts the real bot (``env.restart_bot``:
setup_hook opens the database, on_ready starts the outbox and the timers, overdue ones fire at
once), runs virtual time on until well after the game could have ended, and prints one line of
JSON with what the test checks.

The kill points are set up here only, by wrapping the running bot's own objects:

    after_timer_fired  round 1's ROUND_END timer fired and its change committed; killed as the
                       outbox is about to send round 1's result (the message is still unsent)
    between_rounds     the NEXT_ROUND timer's change committed; killed before the outbox runs,
                       so the round 2 message is not posted
    game_end           round 2's ROUND_END change committed (state "over", result row written);
                       killed before the outbox runs, so no message of the end is sent
    round_posted       round 2's message was sent and its outbox entry marked done; killed as
                       the entry's ``after`` (``_round_visible``, which arms the round's clock)
                       begins, so no ROUND_END timer was written

Same ids in both processes: SimCord's snowflakes are (virtual millisecond << 22 | a sequence per
millisecond), and its clock starts at the same instant in every process, so the world built in
the same order gets the same ids, *provided the same number of snowflakes was taken before*.
It is not: the first process (a fresh database) syncs the slash commands in setup_hook, which
takes one snowflake per command, while the second finds the tree's hash stored and syncs
nothing. So ``resume`` reads the stored guild id and takes snowflakes until the next one is that
id (``align_snowflakes``); ``build_world`` then gives the same guild, channel and member ids,
which ``resume`` checks against the stored session (``same_ids``).

Messages of the crashed process are not in the new simulated Discord (it starts empty): an edit
of one of them (a round message redrawn after the restart) is posted anew by the outbox, as it
would be for a message deleted meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import create_bot
from bot.core.settings import Settings
from bot.dev.discord_rules import use_discord_rules
from bot.dev.world import World, build_world
from bot.games.octagion import NEXT_ROUND, ROUND_END, ROUND_POST, OctagionAdapter
from tests.bot.settle import use_settle_limit

POINTS = ("after_timer_fired", "between_rounds", "game_end", "round_posted")
ROUNDS = 2
SEED = 1234
STEP = 130  # seconds of virtual time per step: longer than a round (120 s) plus the pause (15 s)
PLAY_STEPS = 6
RESUME_STEPS = 3
DOWNTIME = 20  # seconds between the crash and the new process


def emit(data: dict[str, Any]) -> None:
    """The one line the test reads (flushed: a SIGKILL right after must not lose it)."""
    sys.stdout.write(json.dumps(data, sort_keys=True) + "\n")
    sys.stdout.flush()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def public_messages(world: World) -> list[Any]:
    return [m for m in world.channel.history() if not m.flags.ephemeral]


def results_posted(world: World) -> dict[str, int]:
    contents = [m.content for m in public_messages(world)]
    return {
        str(n): sum(c.startswith(f"### Round {n} of {ROUNDS}: result") for c in contents) for n in range(1, ROUNDS + 1)
    }


def timeline(world: World) -> list[str]:
    """The public messages of #games, oldest first, each as what it is: "result 1" (a round's
    result), "round 2" (a round's game message, in any of its states), "scores" (the final
    score sheet), or its first line."""
    labels = []
    for message in public_messages(world):
        content = message.content
        label = content.split("\n")[0]
        for n in range(1, ROUNDS + 1):
            if content.startswith(f"### Round {n} of {ROUNDS}: result"):
                label = f"result {n}"
            elif content.startswith("## Octagion\n") and f"Round {n} of {ROUNDS}" in content:
                label = f"round {n}"
        if content.startswith("## Octagion\n") and "Final totals:" in content:
            label = "scores"
        labels.append(label)
    return labels


# ---------------------------------------------------------------- play


def arm(world: World, point: str) -> None:
    """Install the kill for ``point`` on the running bot (nothing in bot/ changes)."""
    platform = world.platform

    def kill_now(where: str) -> None:
        emit(
            {
                "phase": "play",
                "point": point,
                "killed_at": where,
                "posted": results_posted(world),
                "timeline": timeline(world),
            }
        )
        die()

    if point == "after_timer_fired":
        deliver = platform.outbox._deliver

        async def deliver_or_die(session, outgoing, nonce):
            if outgoing.content.startswith(f"### Round 1 of {ROUNDS}: result"):
                kill_now("delivering round 1 result")
            return await deliver(session, outgoing, nonce)

        platform.outbox._deliver = deliver_or_die
        return

    if point == "round_posted":
        kind_of_round = platform.outbox.kinds[ROUND_POST]
        visible = kind_of_round.after

        async def visible_or_die(session, payload, message):
            if payload.get("round") == 2:
                kill_now("round 2 message sent, its outbox entry done, its clock not armed yet")
            return await visible(session, payload, message)

        kind_of_round.after = visible_or_die
        return

    # The scheduler fires a timer in one task: its change commits, then _fire returns without
    # awaiting anything more, so the outbox task woken by the commit has not run yet.
    fire = platform.timers._fire
    kind, round_no = {"between_rounds": (NEXT_ROUND, 1), "game_end": (ROUND_END, 2)}[point]

    async def fire_or_die(timer):
        await fire(timer)
        if timer.kind == kind and timer.payload.get("round") == round_no:
            kill_now(f"{timer.kind} round {round_no} committed")

    platform.timers._fire = fire_or_die


async def play(db_path: str, point: str) -> int:
    bot = create_bot(Settings(token=None, database_path=db_path, game_threads=False), [OctagionAdapter])
    try:
        async with simcord.run(bot, check_errors=False) as env:
            world = build_world(env)
            world.platform.new_seed = lambda: SEED
            await world.ada.slash(world.channel, "octagion start", rounds=ROUNDS)
            lobby = world.channel.last_message
            assert lobby.content.startswith("## Octagion lobby"), lobby.content
            await world.bo.click(lobby, label="Join")
            arm(world, point)
            await world.ada.click(world.channel.last_message, label="Start")
            for _ in range(PLAY_STEPS):
                await env.advance_time(STEP)
            emit({"phase": "play", "point": point, "error": "the kill point was never reached"})
            return 3
    finally:
        await bot.release()


# ---------------------------------------------------------------- resume


def stored(db_path: str) -> dict[str, Any]:
    """What the file says, read with plain sqlite3 (a second connection, as an operator would)."""
    # Read-only: this neither checkpoints nor removes the write-ahead log a killed process left,
    # so the bot still has to recover the database itself.
    db = sqlite3.connect(Path(db_path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        session_id, channel_id, guild_id, players, status, state, updated_at = db.execute(
            "SELECT id, channel_id, guild_id, players, status, state, updated_at FROM sessions"
            " WHERE game = 'octagion' ORDER BY id DESC"
        ).fetchone()
        last_change = datetime.fromisoformat(updated_at)
        state = json.loads(state)

        def count(sql: str) -> int:
            return db.execute(sql, (session_id,)).fetchone()[0]

        return {
            "session_id": session_id,
            "players": json.loads(players),
            "last_change": last_change.isoformat(),
            "channel_id": channel_id,
            "guild_id": guild_id,
            "status": status,
            "engine_phase": "over" if state.get("outcome") else state.get("phase"),
            "engine_round": state.get("round"),
            "results_rows": count("SELECT COUNT(*) FROM results WHERE session_id = ?"),
            "pending_timers": count("SELECT COUNT(*) FROM timers WHERE session_id = ?"),
            "pending_outbox": count("SELECT COUNT(*) FROM outbox WHERE session_id = ?"),
            "timer_kinds": [r[0] for r in db.execute("SELECT kind FROM timers ORDER BY id")],
            "outbox_kinds": [r[0] for r in db.execute("SELECT kind FROM outbox ORDER BY id")],
            "integrity_check": db.execute("PRAGMA integrity_check").fetchone()[0],
        }
    finally:
        db.close()


def align_snowflakes(env: Any, guild_id: int) -> None:
    """Make the next snowflake of this simulated Discord the stored guild's id.

    The first process synced the slash commands before building the world (a fresh database),
    which took snowflakes; this one finds the tree already synced and takes none. Everything
    here happens at the same virtual millisecond, so taking the same number of snowflakes makes
    build_world hand out the same guild, channel and member ids again."""
    while True:
        taken = env.backend.snowflake()
        if taken >= guild_id - 1:
            return


async def resume(db_path: str, point: str) -> int:
    before = stored(db_path)
    settings = Settings(token=None, database_path=db_path, game_threads=False)
    # A stand-in client holds the simulated Discord while its world is built and while the bot
    # is "down"; nothing of it touches the database.
    async with simcord.run(discord.Client(intents=discord.Intents.default()), check_errors=False) as env:
        align_snowflakes(env, before["guild_id"])
        world = build_world(env)  # same order as in play: same ids (checked below)
        ids = {
            "guild": [before["guild_id"], world.guild.id],
            "channel": [before["channel_id"], world.channel.id],
            "players": [before["players"], [world.ada.id, world.bo.id]],
        }
        same_ids = all(stored_id == world_id for stored_id, world_id in ids.values())
        # The crashed process died at its last commit; this one starts DOWNTIME seconds later
        # (so timers that came due meanwhile are overdue at start, as after a real crash).
        restart_at = datetime.fromisoformat(before["last_change"]) + timedelta(seconds=DOWNTIME)
        await env.advance_time((restart_at - env.now()).total_seconds())
        bot = create_bot(settings, [OctagionAdapter])
        try:
            if same_ids:
                await env.restart_bot(bot)  # setup_hook opens the database; on_ready starts outbox and timers
                for _ in range(RESUME_STEPS):
                    await env.advance_time(STEP)
                errors = [f"{type(e).__name__}: {e}" for e in bot.platform.errors]
            else:
                errors = ["the world's ids do not match the stored session"]
            posted, messages = results_posted(world), timeline(world)
        finally:
            await bot.release()
    after = stored(db_path)
    emit(
        {
            "phase": "resume",
            "point": point,
            "same_ids": same_ids,
            "ids": ids,
            "before": before,
            "after": after,
            "status": after["status"],
            "engine_phase": after["engine_phase"],
            "posted": posted,
            "timeline": messages,
            "round_numbers": [int(label.split()[1]) for label in messages if label.startswith("round ")],
            "results_rows": after["results_rows"],
            "pending_timers": after["pending_timers"],
            "pending_outbox": after["pending_outbox"],
            "integrity_check": after["integrity_check"],
            "bot_errors": errors,
        }
    )
    return 0


def main(argv: list[str]) -> int:
    use_settle_limit()  # a settle waits as long as in the test process
    use_discord_rules()  # Discord's rules, as in the test process
    if len(argv) != 3 or argv[1] not in ("play", "resume") or argv[2] not in POINTS:
        print(f"usage: python -m tests.bot.crash_driver <db_path> play|resume {'|'.join(POINTS)}", file=sys.stderr)
        return 2
    db_path, phase, point = argv
    runner = play if phase == "play" else resume
    return asyncio.run(runner(db_path, point))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
