"""/privacy: what the bot keeps about a member and for how long, and `/privacy delete`, which
forgets them (asked to confirm privately; the buttons carry the member's id, so they work after
a restart).

Forgetting a member, in every server: the games they are playing are resigned (a challenge or
lobby of theirs is closed) first; then in every session that names them (each in a change of its
own, like any change of a session), its results, the players' rows and the ratings, their id
becomes a former member's and their name "a former member" (:mod:`bot.features.privacy_store`).
The seats and actions stay, so every finished game still replays for its other players. Their
preferences (turn notices) and Octagion Daily plays go.
"""

from __future__ import annotations

import logging
import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.sessions import GameSession, Sessions
from bot.core.store import LIVE_STATUSES, Store
from bot.features import privacy_store
from bot.features.privacy_store import MemberSession
from bot.features.replays import seated
from bot.features.tournaments.runner import Tournaments
from bot.features.turn_notices import TurnNotices
from bot.ui.adapter import GameAdapter
from bot.ui.controls import Controls, SessionButton, view_of
from bot.ui.replies import UserError, acknowledge, reply_private

log = logging.getLogger(__name__)

FORGET = "privacy_forget"  # the confirmation's buttons: the member's id in the custom id's session part
KEEP = "privacy_keep"
CLOSED_NOTE = "⏹ Closed: one of its players left."
NOT_YOURS = "These buttons belong to the member who asked to delete their data."


def policy_text(grace_days: int) -> str:
    return (
        "## What I keep about you\n"
        "- **Your games**: your member id and your display name at the time, in every game, challenge "
        "and lobby you took part in, with every action you played and when. Finished games stay, for "
        "replays, game records and `/history`.\n"
        "- **Your results and ratings** per game and server (`/stats`, `/leaderboard`), and your "
        "Octagion Daily plays and streaks.\n"
        "- **Your preferences**: whether I ping you when it is your turn (`/notify`).\n"
        "Nothing else: no message text, no email address, no other member data.\n"
        "**How long**: as long as I am in the server. When I am removed from a server, everything of "
        f"that server is deleted {grace_days} days later (unless I am added back before).\n"
        "`/privacy delete` forgets you in every server: the games you are playing are resigned, your "
        'name and id in finished games, history and ratings become "a former member" (the games '
        "stay replayable for the other players), and your preferences and Daily streaks are deleted."
    )


def confirmation_text() -> str:
    return (
        "Delete your data from this bot, in every server? The games you are playing now are resigned, "
        'your name and id in finished games, history and ratings become "a former member", and your '
        "preferences and Octagion Daily streaks are deleted. This cannot be undone."
    )


def done_text(resigned: int, forgotten: int) -> str:
    games = "1 game" if forgotten == 1 else f"{forgotten} games"
    text = f'🗑️ Done: you are "a former member" in {games}, and your preferences and streaks are deleted.'
    if resigned:
        text += f" You resigned {'1 game' if resigned == 1 else f'{resigned} games'} in progress first."
    return text


class PrivacyCommands(
    commands.GroupCog, group_name="privacy", group_description="What the bot keeps about you, and deleting it."
):
    def __init__(
        self,
        *,
        store: Store,
        sessions: Sessions,
        controls: Controls,
        games: dict[str, GameAdapter],
        tournaments: Tournaments,
        notices: TurnNotices,
        grace_days: int,
    ):
        self.store, self.sessions, self.games = store, sessions, games
        self.tournaments, self.notices = tournaments, notices
        self.grace_days = grace_days
        controls.button(FORGET, self._forget_clicked)
        controls.button(KEEP, self._keep_clicked)

    @app_commands.command(name="info", description="What the bot keeps about you, and for how long.")
    async def info_command(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        await reply_private(interaction, policy_text(self.grace_days))

    @app_commands.command(name="delete", description="Delete your data: you become a former member in past games.")
    async def delete_command(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        member = interaction.user.id
        buttons = [
            SessionButton(member, FORGET, label="Delete my data", style=discord.ButtonStyle.danger),
            SessionButton(member, KEEP, label="Keep it", style=discord.ButtonStyle.secondary),
        ]
        await reply_private(interaction, confirmation_text(), view=view_of(buttons))

    async def _forget_clicked(self, interaction: discord.Interaction, member_id: int, _: str) -> None:
        if interaction.user.id != member_id:
            raise UserError(NOT_YOURS)
        resigned, forgotten = await self.forget(member_id)
        await interaction.edit_original_response(content=done_text(resigned, forgotten), view=None)

    async def _keep_clicked(self, interaction: discord.Interaction, member_id: int, _: str) -> None:
        if interaction.user.id != member_id:
            raise UserError(NOT_YOURS)
        await interaction.edit_original_response(content="Nothing was deleted.", view=None)

    # ------------------------------------------------------------ forgetting a member
    async def forget(self, member_id: int) -> tuple[int, int]:
        """Forget a member everywhere: (games resigned, sessions where they became a former member)."""
        store = self.store
        resigned = 0
        former_id = -random.SystemRandom().randrange(1, 2**62)  # never a Discord id
        await self.tournaments.forget_member(member_id, former_id)  # withdrawn at once, then renamed
        for session in await privacy_store.member_sessions(store, member_id, live=True):
            if session.game in self.games:  # a tournament hears of its games' ends
                resigned += await self._leave(session, member_id)
        named = await privacy_store.member_sessions(store, member_id)
        for session in named:
            await self._forget_in(session, member_id, former_id)
        async with store.transaction() as tx:
            await privacy_store.forget_member_records(tx, member_id, former_id)
        self.notices.forget(member_id)
        log.info("forgot a member in %d sessions (%d resigned)", len(named), resigned)
        return resigned, len(named)

    async def _forget_in(self, session: MemberSession, member_id: int, former_id: int) -> None:
        """One session, in a change of its own (as every change of a session): the member's id
        and name replaced, the seats of its actions kept."""
        if session.game not in self.games:
            async with self.store.transaction() as tx:
                await privacy_store.forget_in_stored_session(tx, session, member_id, former_id)
            return
        async with self.sessions.change(session.id) as change:
            seats = await self._seats(change.session)
            players = change.record.players
            forgotten = privacy_store.forget_in_meta(change.meta.to_json(), players, member_id, former_id)
            for field, value in forgotten.items():
                setattr(change.meta, field, value)
            change.record.players = [former_id if player == member_id else player for player in players]
            change.during_commit(lambda tx: privacy_store.forget_in_log(tx, session.id, member_id, former_id, seats))

    async def _leave(self, session: MemberSession, member_id: int) -> int:
        """Resign a game they play (each seat they hold), close a challenge or lobby; 1 if resigned."""
        if session.status != "active":
            async with self.sessions.change(session.id) as change:
                if change.record.status in LIVE_STATUSES:
                    change.end("closed", CLOSED_NOTE)
            return 0
        for _ in range(session.players.count(member_id)):
            try:
                now = await self.sessions.act(session.id, member_id, {"type": "resign"})
            except UserError:  # the game refuses (it ended meanwhile): nothing more to resign
                break
            if now.status != "active":
                break
        return 1

    async def _seats(self, session: GameSession) -> list[int] | None:
        """The seat of each logged action when some were logged without one (None: all have one)."""
        logged = await self.store.logged_moves(session.id)
        if session.state is None or all(move.seat is not None for move in logged):
            return None
        engine = self.games[session.record.game].engine
        return [seat for seat, _ in seated(engine, session, logged)]
