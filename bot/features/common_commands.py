"""Commands and controls shared by every game: /games, /rules, /stop, /stats, /history,
/leaderboard, /settings, `/<game> resign`, `board`, `replay` and `record`, the Resign button (with its private
confirmation) and the private-view button, and the "Apps > Challenge" user menu.

A game may offer *extras* beside its sessions (Octagion Daily): an adapter's ``extras`` each
have a ``name`` and ``title``, ``stats_lines(guild_id, user_id)`` for /stats,
``leaderboard_text(guild_id, limit)`` for /leaderboard and ``settings_commands()`` for /settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.core.store import LIVE_STATUSES
from bot.features.turn_clock import clock_words, parse_clock
from bot.ui.controls import SessionButton, SessionSelect, view_of
from bot.ui.game_message import RESIGN, TEXT
from bot.ui.replies import UserError, acknowledge, escape, reply_private
from render.narration import final_header, with_article

if TYPE_CHECKING:
    from bot.platform import Platform

LEADERBOARD_SIZE = 10
# The Resign button asks privately first; `/<game> resign` is typed on purpose and resigns at once.
RESIGN_CONFIRM = "resign_yes"
RESIGN_KEEP = "resign_no"


def extras_of(games: dict) -> dict:
    """Every extra the games offer, by name (see the module's docstring)."""
    return {extra.name: extra for adapter in games.values() for extra in getattr(adapter, "extras", ())}


async def ask_to_resign(platform: Platform, interaction: discord.Interaction, session_id: int) -> None:
    """The game message's Resign button: a private question, built for the current action number,
    so the one stale check refuses it once the game has moved on (it expires with the turn)."""
    session = await platform.sessions.load(session_id)
    platform.sessions.check_can_act(session, interaction.user.id, any_time=True)
    title = platform.games[session.record.game].title
    view = view_of(
        [
            SessionButton(
                session_id, RESIGN_CONFIRM, str(session.action_number), label="Resign", style=discord.ButtonStyle.danger
            ),
            SessionButton(session_id, RESIGN_KEEP, label="Keep playing", style=discord.ButtonStyle.primary),
        ]
    )
    question = f"Resign this game of {title}? You lose it. (This question expires once the game moves on.)"
    await reply_private(interaction, question, view=view)


async def resign(platform: Platform, interaction: discord.Interaction, session_id: int, built_for: str) -> None:
    """The confirmation: resigns unless the game has moved on since it was asked (then refused privately)."""
    await platform.sessions.act(session_id, interaction.user.id, {"type": "resign"}, built_for=int(built_for))
    await interaction.edit_original_response(content="You resigned.", view=None)


async def keep_playing(interaction: discord.Interaction) -> None:
    await interaction.edit_original_response(content="You keep playing.", view=None)


async def private_view(platform: Platform, interaction: discord.Interaction, session_id: int) -> None:
    session = await platform.sessions.load(session_id)
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        raise UserError("You are not playing in this game.")
    adapter = platform.games[session.record.game]
    picture = await platform.pictures.draw(adapter.private_picture(session, seat))
    label = adapter.private_view_label or "Your view"
    await reply_private(interaction, f"**{label}** (only you can see this).", picture)


async def stop(platform: Platform, interaction: discord.Interaction) -> None:
    moderator = interaction.permissions.manage_messages
    found = await platform.threads.find(interaction, moderator=moderator)
    if found is None:
        raise UserError("Nothing is running in this channel.")
    async with platform.sessions.change(found.id) as change:
        if change.record.status not in LIVE_STATUSES:  # it ended while this waited for its turn
            raise UserError("Nothing is running in this channel.")
        host = change.record.host_id
        # The member's permissions in this channel (overwrites included), not server-wide ones.
        if interaction.user.id != host and not interaction.permissions.manage_messages:
            raise UserError(f"Only the host (<@{host}>) or a member with Manage Messages here can stop this.")
        title = platform.games[change.record.game].title
        note = f"⏹ {interaction.user.mention} stopped the {title} session."
        change.meta.stopped_by = interaction.user.id
        change.meta.final_header = final_header("stopped", interaction.user.display_name)
        change.end("stopped", note)
        change.post(TEXT, {"content": note})
    await reply_private(interaction, f"⏹ You stopped the {title} session.")


def add_common_commands(tree: app_commands.CommandTree, platform: Platform) -> None:
    games = platform.games
    extras = extras_of(games)
    titles = {a.name: a.title for a in games.values()} | {e.name: e.title for e in extras.values()}
    game_choices = [app_commands.Choice(name=a.title, value=a.name) for a in games.values()]
    board_choices = []  # each game, then its extras (Octagion, Octagion Daily, ...)
    for adapter in games.values():
        board_choices.append(app_commands.Choice(name=adapter.title, value=adapter.name))
        board_choices += [app_commands.Choice(name=e.title, value=e.name) for e in getattr(adapter, "extras", ())]
    platform.controls.button(RESIGN, lambda i, sid, _: ask_to_resign(platform, i, sid), ack="private")
    platform.controls.button(RESIGN_CONFIRM, lambda i, sid, built_for: resign(platform, i, sid, built_for))
    platform.controls.button(RESIGN_KEEP, lambda i, _, __: keep_playing(i))
    platform.controls.button("private", lambda i, sid, _: private_view(platform, i, sid), ack="private")

    @tree.command(name="games", description="The games I host, one line each.")
    async def games_command(interaction: discord.Interaction) -> None:
        lines = [
            "## Octagon games",
            *(f"**{a.title}** (`/{a.name}`): {a.summary}" for a in games.values()),
            "",
            "`/rules` explains a game; `/stats` and `/leaderboard` keep score.",
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @tree.command(name="rules", description="A short summary of a game's rules and how to play it here.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices)
    async def rules_command(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        adapter = games[game.value]
        embed = discord.Embed(
            title=f"{adapter.title}: how to play", description=adapter.rules[:4000], colour=discord.Colour.blurple()
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @tree.command(name="stop", description="End the game, lobby or challenge running in this channel.")
    @app_commands.guild_only()
    async def stop_command(interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await stop(platform, interaction)

    @tree.command(name="stats", description="Games played and won, per game, in this server.")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats_command(interaction: discord.Interaction, user: discord.Member | None = None) -> None:
        await acknowledge(interaction)
        user = user or interaction.user
        stats = await platform.store.user_stats(interaction.guild_id, user.id)
        name = escape(user.display_name, 40)
        if not stats:
            text = f"{name} has not finished a game in this server yet."
        else:
            rows = [f"**{titles.get(g, g)}**: {won} won of {played}" for g, (played, won) in stats.items()]
            total_played = sum(p for p, _ in stats.values())
            total_won = sum(w for _, w in stats.values())
            rows.append(f"**All games**: {total_won} won of {total_played}")
            for extra in extras.values():
                rows += await extra.stats_lines(interaction.guild_id, user.id)
            text = "\n".join([f"## Stats of {name}", *rows])
        await reply_private(interaction, text)

    @tree.command(name="history", description="A member's last 10 finished games here, each with its replay.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose games (default: yours)", game="Only this game")
    @app_commands.choices(game=game_choices)
    async def history_command(
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await acknowledge(interaction)
        member = member or interaction.user
        text, view = await platform.replays.history_message(interaction, member, game.value if game else None)
        await reply_private(interaction, text, view=view)

    @tree.command(name="leaderboard", description="This server's ranking for a game.")
    @app_commands.guild_only()
    @app_commands.choices(game=board_choices)
    async def leaderboard_command(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await acknowledge(interaction, private=False)
        if game.value in extras:
            text = await extras[game.value].leaderboard_text(interaction.guild_id, LEADERBOARD_SIZE)
            await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())
            return
        ranked = await platform.store.leaderboard(interaction.guild_id, game.value, LEADERBOARD_SIZE)
        if not ranked:
            text = f"Nobody has finished {with_article(game.name)} game here yet."
        else:
            lines = [f"## {game.name} leaderboard"]
            for place, rating in enumerate(ranked, start=1):
                lines.append(
                    f"{place}. <@{rating.user_id}>: rating {rating.mu - 3 * rating.sigma:.1f} "
                    f"({rating.wins} won of {rating.games})"
                )
            text = "\n".join(lines)
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())

    settings_group = app_commands.Group(
        name="settings",
        description="Server settings for the games.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @settings_group.command(
        name="turn_clock", description="Time per turn for new two-player games (e.g. 30m, 4h, 2d, off)."
    )
    @app_commands.describe(
        clock="Per turn: 30m, 4h, 2d (up to 7d), or off; a warning at half time, a forfeit at the end"
    )
    @app_commands.checks.has_permissions(manage_guild=True)  # default_permissions can be overridden per server
    async def turn_clock(interaction: discord.Interaction, clock: str) -> None:
        await acknowledge(interaction)
        seconds = parse_clock(clock)
        await platform.turn_clock.set_seconds(interaction.guild_id, seconds)
        text = (
            f"Turn clock set to {clock_words(seconds)} per turn for games that start from now on"
            " (a challenge's `clock:` option still chooses its own)."
            if seconds
            else "Turn clock turned off for games that start from now on."
        )
        await reply_private(interaction, text)

    @settings_group.command(name="game_threads", description="Whether games started in a channel get a thread each.")
    @app_commands.describe(
        enabled="on: each game in its own thread (the default); off: one game at a time, in the channel"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def game_threads(
        interaction: discord.Interaction,
        enabled: bool,
        channel: discord.TextChannel | None = None,
    ) -> None:
        await acknowledge(interaction)
        where = channel or interaction.channel
        async with platform.store.transaction() as tx:
            await tx.set_game_threads(where.id, interaction.guild_id, enabled)
        if enabled:
            text = f"Games started in {where.mention} now get a thread each; any number can run at once."
        else:
            text = f"Games started in {where.mention} are now played in the channel itself, one at a time."
        await reply_private(interaction, text)

    @settings_group.command(name="thread_archive", description="How long after its end a game's thread is archived.")
    @app_commands.describe(clock="e.g. 1h (the default), 30m, 1d; up to 7d. Threads are archived, never deleted")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def thread_archive(interaction: discord.Interaction, clock: str) -> None:
        await acknowledge(interaction)
        seconds = parse_clock(clock)
        if not seconds:
            raise UserError("A finished game's thread is always archived in the end: give a time, e.g. `1h`.")
        async with platform.store.transaction() as tx:
            await tx.set_archive_minutes(interaction.guild_id, seconds // 60)
        await reply_private(interaction, f"Finished games' threads are archived {clock_words(seconds)} after the end.")

    @tree.command(name="notify", description="Whether I ping you with a new message when it is your turn.")
    @app_commands.guild_only()
    @app_commands.describe(enabled="on (the default) or off; clock warnings still mention you")
    async def notify_command(interaction: discord.Interaction, enabled: bool) -> None:
        await acknowledge(interaction)
        await platform.threads.set_notices(interaction.guild_id, interaction.user.id, enabled)
        if enabled:
            text = "🔔 I will ping you in a game's thread when it is your move (and when a round starts)."
        else:
            text = '🔕 No more "your move" pings in this server; turn clock warnings still mention you.'
        await reply_private(interaction, text)

    for extra in extras.values():
        for command in extra.settings_commands():
            settings_group.add_command(command)
    tree.add_command(settings_group)

    challengeable = [a for a in games.values() if a.challengeable]

    @app_commands.context_menu(name="Challenge")
    @app_commands.guild_only()
    async def challenge_menu(interaction: discord.Interaction, user: discord.Member) -> None:
        if not challengeable:
            raise UserError("No game can be started by a challenge yet.")
        options = [
            discord.SelectOption(label=a.title, value=a.name, description=a.summary[:100]) for a in challengeable
        ]
        select = SessionSelect(user.id, "menu_challenge", options=options, placeholder="Which game?")
        await interaction.response.send_message(
            f"Challenge {user.mention} to which game?", view=view_of([select]), ephemeral=True
        )

    async def on_menu_challenge(interaction: discord.Interaction, user_id: int, _: str, values: list[str]) -> None:
        adapter = games.get(values[0] if values else "")
        if adapter is None or not adapter.challengeable:
            raise UserError("Pick one of the games in the list.")
        target = interaction.guild.get_member(user_id) or await interaction.guild.fetch_member(user_id)
        seats = {"challenger": interaction.user.id, "opponent": target.id}
        options = adapter.challenge_options({}, seats)  # what the command gives when nothing is chosen
        await platform.challenges.challenge(interaction, adapter.name, [target], options)

    platform.controls.select("menu_challenge", on_menu_challenge, ack="private")
    tree.add_command(challenge_menu)
