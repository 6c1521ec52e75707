"""What the outbox sends and the words it speaks with Discord: a message to post or edit
(``Outgoing``), what a kind of entry does (``Kind``), the nonce of an entry's post, Discord's
answers that decide whether a failed send is tried again, and the clicks whose tokens edit the
message they were on without counting towards Discord's 50 requests a second (``Clicks``)."""

from __future__ import annotations

import collections
import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.core.attachments import as_file
from bot.core.pace import RequestBudget
from bot.core.sessions import Change, GameSession
from bot.core.store import OutboxEntry
from bot.core.text import fit
from render.theme import Picture

# Discord's answers that mean a channel will never take this message: Unknown Channel, Missing
# Access, Missing Permissions, Thread Locked. A game's thread that answers so has gone.
UNKNOWN_CHANNEL = 10003
GONE_CODES = frozenset({UNKNOWN_CHANNEL, 50001, 50013, 160005})
THREAD_ARCHIVED = 50083  # the thread is archived: the bot unarchives its game's thread and tries again


@dataclass
class Outgoing:
    """One message to post (or, with ``edit``, the id of a message to edit).

    ``channel_id``: where, when not where the game is played (a game's card in its channel);
    ``mentions``: who may be pinged (by default the bot's rule: members named, never roles).
    """

    content: str
    pictures: list[Picture] = field(default_factory=list)
    view: discord.ui.View | None = None
    edit: int | None = None
    channel_id: int | None = None
    mentions: discord.AllowedMentions | None = None


class NotYet(Exception):
    """The message cannot go out yet (the game's thread is being opened): try again soon."""


Builder = Callable[[GameSession, dict[str, Any]], Awaitable[Outgoing | None]]
After = Callable[[Change, dict[str, Any], Any], Awaitable[None]]
# A kind that does something other than post or edit a message (open a thread, a notice that
# replaces the previous one): what it did. A post it makes carries the entry's nonce, which it
# finds in its payload under NONCE.
Deliver = Callable[[GameSession, dict[str, Any]], Awaitable[Any]]
NONCE = "nonce"
# Told when a game's thread answers that it is gone (the game ends there), and whether its card's
# channel went too (then there is no card left to say so).
Gone = Callable[[int, discord.HTTPException, bool], Awaitable[None]]


@dataclass
class Kind:
    build: Builder | None
    after: After | None = None  # runs when a message was posted anew, not when one was edited
    coalesce: bool = False  # consecutive entries of this kind are sent once (the newest state wins)
    deliver: Deliver | None = None  # instead of build: the kind's own call to Discord
    opens: bool = False  # what the session's other messages may wait for (its thread): never waits itself
    # An edit in a channel many games share (their cards): at that channel's pace, the newest state
    # sent when its turn comes (it never holds up the session's other messages).
    paced: bool = False


def batch_of(entries: list[OutboxEntry], kind: Kind | None, now: datetime) -> list[OutboxEntry]:
    """What goes as one send: the first entry and, of a kind that coalesces, the run of its kind
    behind it, and every later entry of its kind that is due and asks the same (a redraw of the board
    or the card queued behind a notice: the newest state wins, sent once)."""
    entry = entries[0]
    batch = [entry]
    if kind is None or not kind.coalesce:
        return batch
    while len(batch) < len(entries) and entries[len(batch)].kind == entry.kind:
        batch.append(entries[len(batch)])
    last = batch[-1]
    later = entries[len(batch) :]
    return batch + [e for e in later if e.kind == entry.kind and e.payload == last.payload and e.next_attempt_at <= now]


def nonce_of(entry: OutboxEntry) -> str:
    """The nonce of an entry's post: the same at every try and after a restart, never the same for
    two entries (the entry's id, and the instant it was written, so that a database started anew
    does not repeat the nonces of the one before it); within Discord's 25 characters."""
    written = int(entry.created_at.timestamp() * 1000) % 10**11 if entry.created_at is not None else 0
    return f"{entry.id}-{written}"


def refused_for_good(error: discord.HTTPException) -> bool:
    """Discord refused for good: a 4xx answer other than a rate limit (trying again changes nothing)."""
    return 400 <= error.status < 500 and error.status != 429


FILES_PER_MESSAGE = 10
# An interaction's token may edit the message its click was on for 15 minutes: a minute spared.
TOKEN_SECONDS = 14 * 60
CLICKS_KEPT = 4096  # public messages whose latest click is remembered (the least recent forgotten)
UPDATES = (discord.InteractionResponseType.deferred_message_update, discord.InteractionResponseType.message_update)


class Clicks:
    """The latest click on each public message that was answered by updating that message (a deferred
    update: a Got it!, an Accept, a Tiny +1, and a menu's button, whose menu follows privately). For
    15 minutes its token edits the message as the interaction's original response, and Discord does
    not count that edit towards the token's 50 requests a second. Kept in memory only: after a
    restart, or once the token is old, an edit goes the counted way, so the outbox's entry stays what
    decides that the message is edited.

    A click answered otherwise (a refusal, a Hint, My hand: their original response is a private
    message) does not take the place of an earlier one answered by an update, which is kept beside
    the latest: the player who opened the menu and looked at their hand before choosing still lends
    the menu's click to the board's edit."""

    def __init__(self, clock: Callable[[], datetime]):
        self.clock = clock
        self._latest: collections.OrderedDict[int, discord.Interaction] = collections.OrderedDict()
        # The click before the latest, when it was answered by an update (by message id).
        self._updated: collections.OrderedDict[int, discord.Interaction] = collections.OrderedDict()

    async def clicked(self, interaction: discord.Interaction) -> None:
        """Every interaction (an ``on_interaction`` listener): a component's click on a public message.
        It comes before the click is answered, so the click before it is kept if it was an update."""
        message = interaction.message
        if interaction.type != discord.InteractionType.component or message is None or message.flags.ephemeral:
            return
        before = self._latest.get(message.id)
        if before is not None and before.response.type in UPDATES:
            _keep(self._updated, message.id, before)
        _keep(self._latest, message.id, interaction)

    def on(self, message_id: int) -> discord.Interaction | None:
        """A click whose token may edit ``message_id`` now, if there is one (the latest that can)."""
        for kept in (self._latest, self._updated):
            interaction = kept.get(message_id)
            if interaction is None or interaction.response.type not in UPDATES:
                continue
            if (self.clock() - interaction.created_at).total_seconds() >= TOKEN_SECONDS:
                del kept[message_id]
                continue
            return interaction
        return None

    def forget(self, message_id: int) -> None:
        self._latest.pop(message_id, None)
        self._updated.pop(message_id, None)


def _keep(kept: collections.OrderedDict[int, discord.Interaction], message_id: int, click: discord.Interaction) -> None:
    """``click`` as the one kept for ``message_id``, the least recent message forgotten past CLICKS_KEPT."""
    kept[message_id] = click
    kept.move_to_end(message_id)
    while len(kept) > CLICKS_KEPT:
        kept.popitem(last=False)


class DiscordPosts:
    """The outbox's posts and edits on Discord: each counted one waits for its place in the request
    budget; an edit of a message someone just clicked goes through that click's token instead."""

    def __init__(self, bot: discord.Client, budget: RequestBudget, clicks: Clicks):
        self.bot = bot
        self.budget = budget
        self.clicks = clicks

    async def deliver(self, session: GameSession, outgoing: Outgoing, nonce: str) -> discord.Message | None:
        """Post ``outgoing`` (in parts of ten pictures, each part with a nonce of its own), or edit the
        message it names (posting it anew when someone deleted it)."""
        if outgoing.channel_id is None and session.record.thread_pending:
            raise NotYet  # the game's messages go to its thread, once it is open
        channel_id = outgoing.channel_id or session.record.play_channel_id
        channel = self.bot.get_partial_messageable(channel_id)
        if outgoing.edit is not None:
            through_click = await self._edit_through_click(outgoing)
            if through_click is not None:
                return through_click
            message = channel.get_partial_message(outgoing.edit)
            try:
                edited: discord.Message = await self.in_thread(
                    session,
                    channel_id,
                    lambda: message.edit(
                        content=fit(outgoing.content),
                        attachments=[as_file(p) for p in outgoing.pictures],
                        view=outgoing.view,
                    ),
                )
                return edited
            except discord.NotFound:  # deleted by someone: post it anew instead
                pass
        files = [as_file(p) for p in outgoing.pictures]
        first = None
        for part, start in enumerate(range(0, max(len(files), 1), FILES_PER_MESSAGE)):
            # Only the first part has the text and the controls; the rest are more pictures.
            send = functools.partial(
                channel.send,
                fit(outgoing.content) if start == 0 else "",
                files=files[start : start + FILES_PER_MESSAGE],
                view=(outgoing.view or discord.utils.MISSING) if start == 0 else discord.utils.MISSING,
                allowed_mentions=outgoing.mentions or discord.utils.MISSING,
                nonce=nonce if part == 0 else f"{nonce}.{part}",
            )
            sent = await self.budget.call(send)
            first = first or sent
        return first

    async def _edit_through_click(self, outgoing: Outgoing) -> discord.Message | None:
        """The edit through the token of the latest click on the message, exempt from the global rate
        limit; None when there is no such click, or Discord refused it (then the counted edit is made)."""
        assert outgoing.edit is not None
        interaction = self.clicks.on(outgoing.edit)
        if interaction is None:
            return None
        try:
            return await interaction.edit_original_response(
                content=fit(outgoing.content), attachments=[as_file(p) for p in outgoing.pictures], view=outgoing.view
            )
        except discord.HTTPException:  # the token expired, the thread was archived: the counted way
            self.clicks.forget(outgoing.edit)
            return None

    async def in_thread(self, session: GameSession, channel_id: int, call: Callable[[], Awaitable[Any]]) -> Any:
        """Make ``call`` (an edit or a delete in ``channel_id``, in its turn in the budget); where that
        is where the game is played and Discord answers that it is archived (a week without a new message,
        or archived after an earlier game in it), unarchive it and make the call again."""
        try:
            return await self.budget.call(call)
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED or channel_id not in (session.record.thread_id, session.record.channel_id):
                raise  # only the game's own thread (its thread, or the thread a rematch is played in)
        await self.budget.call(lambda: self.bot.http.edit_channel(channel_id, archived=False))
        return await self.budget.call(call)
