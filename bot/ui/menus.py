"""One menu mechanism for every game's turn: narrow the legal actions one choice at a time.

A game declares an :class:`ActionMenu` as a list of :class:`Step`s. Each step's ``key``
projects a legal action onto one choice (Octego: the piece, then the destination, then the
path). The menu shows one select per step listing the distinct choices of the actions still
possible, skips a step with a single choice (or none: the step does not apply to what is
left), pages past Discord's 25 options, and plays the one action left through the platform's
session change, editing itself into "Done. <what happened>". A menu of a turn of several
actions (``formality``) also plays the steps with nothing to decide, in the same change, and
goes on with the next step while the player stays on turn.

The game message's button opens a menu without answering in the game message's place: a member
who may not use it (not playing, not on turn, the game over) is refused privately at once, and
for a member on turn the click becomes a deferred update of the game message, which changes
nothing there, and the menu its private follow-up. So the click's token is the one that edits
the board once the move is made (Discord does not count an interaction's edit of the message it
was clicked on against the bot's 50 requests a second; see ``Clicks`` in bot/core/outgoing.py).

Nothing is kept in memory that a click needs: a select's custom id carries the menu, the action
number it was built for and the choices so far, and every click reads the stored session. So a
menu survives a restart, and one from an earlier position is refused by the platform's one stale
check (the action number); the one turn check says who may use it.

Per click the event loop does little: the session is read once, in the session change that plays
the action when the choices leave one (a click that only asks the next step leaves that change
unwritten), and the legal actions of a position are worked out once per action number and kept
for the next clicks until the session's next change commits (a few hundred sessions, the least
recently used dropped).
"""

from __future__ import annotations

__all__ = ["ActionMenu", "Menus", "Narrowing", "Step"]  # a game declares its menus with these

import asyncio
import collections
import copy
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import discord
from discord import app_commands

from bot.core.attachments import as_file
from bot.core.sessions import GameSession, Sessions
from bot.core.workers import Drawing
from bot.ui.controls import Controls, SessionButton, SessionSelect, view_of
from bot.ui.menu_steps import ActionMenu, Narrowing, Step, Text, menu_actions, narrow, play
from bot.ui.replies import UserError, acknowledge, reply_private
from render.theme import Picture

CONTROL = "menu"  # the one control name of every menu's button and selects
OPTIONS_LIMIT = 25  # Discord's limit for a select's options and for autocomplete choices
SEPARATOR = "|"  # between the parts of a select's custom id; a choice never contains it
PAGE = SEPARATOR + "page"  # an option value asking for another page of the same step
RECENT_POSITIONS = 64  # positions whose step pictures are kept for the next click
RECENT_ACTION_LISTS = 512  # sessions whose position's legal actions are kept for the next click
# How long the turn check of a menu's button may take before the click is acknowledged anyway
# (Discord drops an interaction not answered within 3 seconds); a refusal then comes as a follow-up.
CHECK_SECONDS = 1.5


class Menus:
    """Every game's menus, served by one button handler and one select handler."""

    def __init__(
        self,
        sessions: Sessions,
        controls: Controls,
        done: Callable[[GameSession], str],
        draw: Callable[[Drawing], Awaitable[Picture]],
    ):
        self.sessions = sessions
        self.done = done  # the answer once the action took effect: "Done. <what happened>"
        self.draw = draw  # draws a step's picture in a worker process
        # Steps of one turn often show the same picture (Octa's hand at every step): drawn once.
        self._pictures: Recent[Picture] = Recent(RECENT_POSITIONS)
        # The legal actions of a session's position, worked out at its first click, not at every
        # one: by session id, then by (action number, seat, menu); forgotten at the session's next commit.
        self._legal: Recent[dict[tuple[int, int, str], list[dict[str, Any]]]] = Recent(RECENT_ACTION_LISTS)
        sessions.committed.append(self._forget_actions)
        self.menus: dict[str, tuple[ActionMenu, Any]] = {}  # name -> (menu, engine)
        controls.button(CONTROL, self._open, ack="own")
        controls.select(CONTROL, self._choose)

    def add(self, menu: ActionMenu, engine: Any) -> None:
        if menu.name in self.menus or SEPARATOR in menu.name:
            raise ValueError(f"menu name {menu.name!r} is taken or has {SEPARATOR!r}")
        self.menus[menu.name] = (menu, engine)

    def button(self, session: GameSession, menu: ActionMenu, label: str | None = None, **style: Any) -> SessionButton:
        """The game-message button that opens ``menu`` privately for the player on turn."""
        style.setdefault("style", discord.ButtonStyle.primary)
        return SessionButton(session.id, CONTROL, menu.name, label=label or menu.button, **style)

    # ------------------------------------------------------------ narrowing
    def actions(self, menu: ActionMenu, engine: Any, session: GameSession, seat: int) -> list[dict[str, Any]]:
        return menu_actions(menu, engine, session, seat)

    def known_actions(self, menu: ActionMenu, engine: Any, session: GameSession, seat: int) -> list[dict[str, Any]]:
        """``actions``, worked out once per position of a stored session (its action number), seat and
        menu, and forgotten when the session's next change commits. Not to be changed by the caller."""
        positions = self._legal.get(session.id)
        if positions is None:
            positions = {}
            self._legal.put(session.id, positions)
        key = (session.action_number, seat, menu.name)
        found = positions.get(key)
        if found is None:
            found = positions[key] = self.actions(menu, engine, session, seat)
        return found

    def _forget_actions(self, session: GameSession, *_: Any) -> None:
        """A change committed: whatever it changed, the session's known actions may be stale."""
        self._legal.drop(session.id)

    def narrow(
        self,
        menu: ActionMenu,
        engine: Any,
        session: GameSession,
        seat: int,
        chosen: Sequence[str],
        actions: list[dict[str, Any]] | None = None,
    ) -> tuple[Narrowing, int | None]:
        """Replay ``chosen`` over the steps: the narrowing and the step to ask next (None: one action left).
        ``actions``: the legal actions already worked out (default: worked out now)."""
        if actions is None:
            actions = self.actions(menu, engine, session, seat)
        return narrow(menu, session, seat, chosen, actions)

    # ------------------------------------------------------------ the controls
    async def _open(self, interaction: discord.Interaction, session_id: int, name: str) -> None:
        """The game message's button: a refusal is the click's private answer; for the member on
        turn the click is a deferred update of the game message (its token edits the board after the
        move) and the menu's first step, or the answer of its only action, a private follow-up."""
        menu, engine = self._menu(name)
        session, seat = await self._on_turn(interaction, session_id)
        await acknowledge(interaction, private=False)
        at, index = self.narrow(menu, engine, session, seat, [], self.known_actions(menu, engine, session, seat))
        if index is None:  # nothing to choose: the only action is played, in a change of its own
            await self._click(interaction, menu, engine, session_id, None, [], 0, first=True)
            return
        await self._ask(interaction, menu, session, at, index, [], 0, first=True)

    async def _on_turn(self, interaction: discord.Interaction, session_id: int) -> tuple[GameSession, int]:
        """The session as stored and the member's seat, after the one turn check. A read slower than
        CHECK_SECONDS (a database far behind) must not cost the click its 3 seconds: it is given up,
        the click acknowledged as an update, and the session read again; a refusal then comes as a
        private follow-up."""
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                return await self.sessions.seat_on_turn(session_id, interaction.user.id)
        except TimeoutError:
            await acknowledge(interaction, private=False)
        return await self.sessions.seat_on_turn(session_id, interaction.user.id)

    async def _choose(self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]) -> None:
        name, built_for, *chosen = arg.split(SEPARATOR)
        menu, engine = self._menu(name)
        picked = "+".join(values)
        if picked.startswith(PAGE):
            await self._click(interaction, menu, engine, session_id, built_for, chosen, int(picked.removeprefix(PAGE)))
            return
        await self._click(interaction, menu, engine, session_id, built_for, [*chosen, picked], 0)

    def _menu(self, name: str) -> tuple[ActionMenu, Any]:
        if name not in self.menus:
            raise UserError("This menu is no longer available: open it again from the game message.")
        return self.menus[name]

    async def _click(
        self,
        interaction: discord.Interaction,
        menu: ActionMenu,
        engine: Any,
        session_id: int,
        built_for: str | None,
        chosen: list[str],
        page: int,
        first: bool = False,
    ) -> None:
        """One click: the session is read once, in the change that plays the action if the choices
        leave one; otherwise that change is left unwritten and the next step is asked."""
        user_id = interaction.user.id
        try:
            async with self.sessions.change(session_id) as change:
                session = change.session
                seat = self.sessions.check_can_act(session, user_id)  # the one turn check
                self.sessions.check_fresh(session, built_for)  # after it: "it is X's turn" says more
                at, index = self.narrow(
                    menu, engine, session, seat, chosen, self.known_actions(menu, engine, session, seat)
                )
                if index is not None:
                    raise _NextStep(at, index)
                before = session.state.ply
                self._play(change, menu, engine, seat, user_id, copy.deepcopy(at.actions[0]))
        except _NextStep as next_step:
            await self._ask(interaction, menu, session, next_step.at, next_step.index, chosen, page, first=first)
            return
        await self._done(interaction, menu, engine, change.session, seat, before, first=first)

    def _play(self, change: Any, menu: ActionMenu, engine: Any, seat: int, user_id: int, action: dict) -> None:
        """The player's action and, in a turn of several actions, the formalities after it."""
        play(change, menu, engine, seat, user_id, action)

    async def _done(
        self,
        interaction: discord.Interaction,
        menu: ActionMenu,
        engine: Any,
        acted: GameSession,
        seat: int,
        before: int,
        first: bool = False,
    ) -> None:
        """The answer once the action took effect; a player still on turn goes on with the next step.
        ``first``: the click was the game message's button (the answer is a follow-up)."""
        if menu.formality is None:
            await self._answer(interaction, first, self.done(acted))
            return
        said = self.done(acted, since=before, upto=before + 1)
        if acted.state.ply > before + 1:
            taken = self.done(acted, since=before + 1).removeprefix("Done. ")
            said += f"\nNothing to decide, so done for you: {taken}"
        if acted.status == "active" and seat in engine.to_act(acted.state):
            at, index = self.narrow(menu, engine, acted, seat, [], self.known_actions(menu, engine, acted, seat))
            if index is not None:
                await self._ask(interaction, menu, acted, at, index, [], 0, first=first, heading=said)
                return
            # the next step would play its only action: the player opens it
        await self._answer(interaction, first, said)

    async def _ask(
        self,
        interaction: discord.Interaction,
        menu: ActionMenu,
        session: GameSession,
        at: Narrowing,
        index: int,
        chosen: list[str],
        page: int,
        first: bool = False,
        heading: str = "",
    ) -> None:
        """Ask step ``index`` (after ``heading``, what the last click did); ``first``: as the menu's
        first answer, a private follow-up to the game message's button."""
        step = menu.steps[index]
        select = self._select(menu, session, at, step, chosen, page)
        content = _text(step.prompt, at)
        if heading:
            content = f"{heading}\n\n{content}"
        drawing = step.picture(at) if step.picture else None
        picture = await self._picture(session, drawing) if drawing else None
        await self._answer(interaction, first, content, picture, view_of([select]))

    @staticmethod
    async def _answer(
        interaction: discord.Interaction,
        first: bool,
        content: str,
        picture: Picture | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """A click's answer in the menu: the first, to the game message's button, is a private
        follow-up (the click's original response is the game message itself, which it must never
        replace); a later one edits the private menu its select was on."""
        if first:
            await reply_private(interaction, content, picture, view)
            return
        await interaction.edit_original_response(
            content=content, view=view, attachments=[as_file(picture)] if picture else []
        )

    async def _picture(self, session: GameSession, drawing: Drawing) -> Picture:
        """A step's picture, drawn once per position: the same drawing of the same stored state
        (one of its arguments) is the same picture."""
        others = repr([arg for arg in drawing.args if arg is not session.state])
        key = (*_position(session), drawing.draw, others)
        picture = self._pictures.get(key)
        if picture is None:
            picture = await self.draw(drawing)
            self._pictures.put(key, picture)
        return picture

    def _select(
        self, menu: ActionMenu, session: GameSession, at: Narrowing, step: Step, chosen: list[str], page: int
    ) -> SessionSelect:
        arg = SEPARATOR.join([menu.name, str(session.action_number), *chosen])
        return step_select(session.id, CONTROL, arg, step, at, page)

    # ------------------------------------------------------------ autocomplete
    async def suggest(
        self,
        interaction: discord.Interaction,
        menu: ActionMenu,
        current: str,
        step: Step | None = None,
        where: Callable[[Mapping[str, Any]], bool] | None = None,
    ) -> list[app_commands.Choice[str]]:
        """A command's suggestions from the same actions and steps as the menu (none unless it is the
        caller's turn): the actions themselves as the menu types them (``menu.typed``), or, with
        ``step``, that step's choices among the actions ``where`` keeps (a command's typed options)."""
        engine = self.menus[menu.name][1]
        session = await self.sessions.live_in_channel(interaction.channel_id)
        if session is None or session.status != "active" or session.record.game != engine.name:
            return []
        try:
            seat = self.sessions.check_can_act(session, interaction.user.id)
        except UserError:
            return []
        actions = [a for a in self.known_actions(menu, engine, session, seat) if where is None or where(a)]
        at = Narrowing(session, seat, actions)
        if step is None:
            named = [(menu.typed(a), menu.suggestion(at, a) if menu.suggestion else menu.typed(a)) for a in actions]
        else:
            named = [(v, step.label(at, v) if step.label else v) for v in step.values(actions)]
        fits = menu.matches or (lambda value, typed: value.lower().startswith(typed.strip().lower()))
        fitting = [app_commands.Choice(name=name[:100], value=value) for value, name in named if fits(value, current)]
        return fitting[:OPTIONS_LIMIT]


class _NextStep(Exception):
    """Leaves a click's session change unwritten: the choices leave more than one action."""

    def __init__(self, at: Narrowing, index: int):
        super().__init__(index)
        self.at, self.index = at, index


T = TypeVar("T")


class Recent(Generic[T]):
    """The last few values worked out, by key (least recently used dropped first)."""

    def __init__(self, size: int):
        self.size = size
        self._values: collections.OrderedDict[Any, T] = collections.OrderedDict()

    def get(self, key: Any) -> T | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: Any, value: T) -> None:
        self._values[key] = value
        while len(self._values) > self.size:
            self._values.popitem(last=False)

    def drop(self, key: Any) -> None:
        self._values.pop(key, None)


def _position(session: GameSession) -> tuple[int, int]:
    """A session's position as stored: what a step's picture depends on."""
    return session.id, hash(json.dumps(session.record.state))


def step_select(session_id: int, control: str, arg: str, step: Step, at: Narrowing, page: int) -> SessionSelect:
    """A step's select as every game shows it (its labels, descriptions and placeholder): a page of
    its choices with the paging options, or, for a step of several choices, all of them at once.
    Also /learn's, whose lessons are played with the games' own menus."""
    values = step.values(at.actions)
    placeholder = _text(step.placeholder or "Choose…", at)[:150]
    if step.many:
        options = [step_option(step, at, value) for value in values[:OPTIONS_LIMIT]]
        sizes = [len(step.key(a)) for a in at.actions]
        return SessionSelect(
            session_id,
            control,
            arg,
            options=options,
            placeholder=placeholder,
            min_values=min(sizes),
            max_values=min(max(sizes), len(options)),
        )
    shown, more = _page(values, page)
    options = [step_option(step, at, value) for value in shown]
    if page > 0:
        options.insert(0, discord.SelectOption(label="◀ Earlier choices", value=f"{PAGE}{page - 1}"))
    if more:
        options.append(discord.SelectOption(label="More choices ▶", value=f"{PAGE}{page + 1}"))
    return SessionSelect(session_id, control, arg, options=options, placeholder=placeholder)


def step_option(step: Step, at: Narrowing, value: str) -> discord.SelectOption:
    """One choice of a step: its label and description, trimmed to Discord's limits."""
    label = step.label(at, value) if step.label else value
    description = step.description(at, value) if step.description else None
    return discord.SelectOption(label=label[:100], value=value, description=description[:100] if description else None)


def _page(values: list[str], page: int) -> tuple[list[str], bool]:
    """The values on ``page`` of a step's select, leaving room for the paging options."""
    if len(values) <= OPTIONS_LIMIT:
        return values, False
    size = OPTIONS_LIMIT - 2
    start = page * size
    return values[start : start + size], start + size < len(values)


def _text(text: Text, at: Narrowing) -> str:
    return text(at) if callable(text) else text


__all__ = ["ActionMenu", "Menus", "Narrowing", "Step", "step_option", "step_select"]
