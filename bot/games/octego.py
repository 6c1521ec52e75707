"""Octego on Discord: `/octego challenge`, `/octego move` (with autocomplete) and the Move flow.

Thin glue only: the rules live in ``engines/octego`` and the picture in ``render/octego``.
The Move button opens a private menu issued fresh each time (ephemeral messages cannot be
edited after 15 minutes): the piece, then its destination, then the path only when several
paths lead there. Every select carries the session's action number it was built for, so a
menu left open from an earlier turn cannot play anything (the platform's one stale check).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.adapter import COMPUTER_LEVEL_CHOICES, GameAdapter, GameSession
from bot.components import SessionButton, SessionSelect, view_of
from bot.replies import UserError, acknowledge
from engines.octego import (
    ENGINE,
    KIND_NAMES,
    choose_action,
    destinations_by_piece,
    legal_moves,
    octego_count,
    piece_at,
)
from render.octego import narrate, render_board

GAME = "octego"
MAX_CHOICES = 25  # Discord's limit for autocomplete choices and select options
FIRST_CHOICES = {"me": None, "them": "opponent", "random": "coin toss"}  # stored as options["first"]

RULES = """\
**Goal**: be the first to bring one of your **Octego** pieces to the far side of the board \
(your opponent's home row), **or** capture both of your opponent's Octegos.

**Board and pieces**: 8 × 8 spaces, columns **a–h**, rows **1–8**; the first player's home row \
is 1, the second player's is 8. The spaces form two overlaid grids (black and purple). \
Each player has eight pieces: two each of **1**, **2** and **3**, and two **Octegos** (O), \
set up as `3 2 1 O O 1 2 3` from each player's own left.

**A turn**: move one piece; you must move if you can.
• A **1**, **2** or **3** moves **exactly** that many single **diagonal** steps (an Octego: 1); \
it may turn between steps but never visit a space twice, and never jump over a piece.
• **Capture** by ending on an opponent's piece. Octegos **never capture**.
• **Changing grids** (not Octegos): a piece that starts its turn on a side edge (column a or h) \
may instead move one space straight forward or backward; on a home row (1 or 8), one space \
straight left or right. The space must be empty (no capture), and that is the whole turn.

**End**: an Octego reaches the far side, both Octegos of a player are captured, or the player \
to move has no legal move (they lose). Draw: the same position with the same player to move \
for the third time, or 100 moves without a capture.

**Notation**: a move is its path, `c1-d2-e3`; a capture has `x` before the captured square \
(`c1-d2xe3`); a grid change is `a3-a4`. Start and end (`c1-e3`) are enough when only one path joins them.

**Commands**
• `/octego challenge opponent:@someone` (`first:me|them|random`; mention me to play the \
computer, with `level:easy|medium|hard`).
• **Move** button: pick a piece, then its destination (then the path, if several lead there).
• `/octego move path:c1-d2`: suggestions list your legal moves as you type.
• `/octego board` posts the board again; `/octego resign` or **Resign** to give up; \
**Rematch** when the game is over.
"""


def squares_in(text: str) -> list[str]:
    return re.findall(r"[a-h][1-8]", text.lower())


def matches_typed(notation: str, typed: str) -> bool:
    """Whether a legal move fits what the player has typed so far: a prefix of its path
    (``x`` and ``-`` alike), or its start and some later squares in order (``c1-e3``)."""
    flat = re.sub(r"[\sx×:-]+", "-", typed.strip().lower())
    if not flat or notation.replace("x", "-").startswith(flat):
        return True
    wanted, path = squares_in(typed), squares_in(notation)
    if len(wanted) < 2 or wanted[0] != path[0]:
        return False
    rest = iter(path[1:])
    return all(square in rest for square in wanted[1:])


class OctegoAdapter(GameAdapter):
    engine = ENGINE
    name = GAME
    title = "Octego"
    summary = "Race an Octego to the far side or capture both of your opponent's (two players)."
    rules = RULES
    computer_player = choose_action
    narrate = staticmethod(narrate)

    # ------------------------------------------------------------ pictures
    def render_public(self, session: GameSession):
        return render_board(session.state, session.names, None)

    # --------------------------------------------------------------- texts
    def status_text(self, session: GameSession) -> str:
        state = session.state
        if state is None:
            return ""
        counts = " · ".join(
            f"{name} {octego_count(state.board, seat)}" for seat, name in enumerate(session.shown_names)
        )
        # While the game runs every action so far was a move (a resignation ends it).
        return f"Octegos on the board: {counts}" + ("" if state.over else f" · Moves played: {state.ply}")

    # ------------------------------------------------------------ controls
    def components(self, session: GameSession) -> list[discord.ui.Item]:
        return [SessionButton(session.id, "octego_move", label="Move", style=discord.ButtonStyle.primary)]

    # --------------------------------------------------------------- setup
    def default_options(self) -> dict[str, Any]:
        return {}

    @staticmethod
    def coin_toss() -> int:
        """0 or 1, fairly (a method so tests can fix it)."""
        return secrets.randbelow(2)

    def seat_order(self, challenger: int, invitees: Sequence[int], options: dict[str, Any]) -> list[int]:
        """Seat 0 moves first: the challenger, unless ``first`` says the opponent or a coin toss."""
        first = options.get("first")
        opponent_first = first == "opponent" or (first == "coin toss" and self.coin_toss() == 1)
        return [*invitees, challenger] if opponent_first else [challenger, *invitees]

    def add_commands(self, group: app_commands.Group) -> None:
        ctx = self.ctx

        @group.command(name="challenge", description="Challenge someone to Octego (challenge me to play the computer).")
        @app_commands.describe(
            opponent="Who you play against (mention me to play the computer)",
            first="Who moves first (default: you)",
            level="How strong the computer plays, when you challenge me (default: medium)",
        )
        @app_commands.choices(
            first=[
                app_commands.Choice(name="me", value="me"),
                app_commands.Choice(name="them", value="them"),
                app_commands.Choice(name="random (coin toss)", value="random"),
            ],
            level=COMPUTER_LEVEL_CHOICES,
        )
        async def challenge(
            interaction: discord.Interaction, opponent: discord.User, first: str | None = None, level: str | None = None
        ) -> None:
            await acknowledge(interaction)
            options: dict[str, Any] = {}
            if FIRST_CHOICES.get(first or "me"):
                options["first"] = FIRST_CHOICES[first]
            await ctx.challenge(interaction, GAME, [opponent], options, level)

        @group.command(name="move", description="Move a piece along its path, e.g. c1-d2 or a1-b2-c3-d4.")
        @app_commands.describe(
            path="The spaces the piece visits (start-end is enough when only one path "
            "joins them); suggestions list your legal moves"
        )
        async def move(interaction: discord.Interaction, path: str) -> None:
            await acknowledge(interaction)
            session_id = await ctx.running_id(interaction, GAME)
            session = await ctx.act(session_id, interaction.user.id, {"type": "move", "path": path[:60]})
            await ctx.reply_private(interaction, self._done_text(session))

        @move.autocomplete("path")
        async def path_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return await self._path_choices(interaction, current)

        # The Move button answers with a private menu; the selects update that menu.
        ctx.controls.button("octego_move", self._move_button, ack="private")
        ctx.controls.select("octego_piece", self._piece_select)
        ctx.controls.select("octego_dest", self._destination_select)
        ctx.controls.select("octego_path", self._path_select)

    # ------------------------------------------------------------ autocomplete
    async def _path_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal moves that fit what is typed; nothing unless it is their turn."""
        session = await self.ctx.sessions.live_in_channel(interaction.channel_id)
        if session is None or session.record.game != GAME:
            return []
        try:
            seat = self.ctx.sessions.check_can_act(session, interaction.user.id)
        except UserError:
            return []
        state = session.state
        choices = []
        for notation in legal_moves(state, seat):
            if not matches_typed(notation, current):
                continue
            squares = squares_in(notation)
            kind = KIND_NAMES[piece_at(state, squares[0])[1]]
            label = f"{notation} ({kind}" + (
                f", captures {KIND_NAMES[piece_at(state, squares[-1])[1]]})" if "x" in notation else ")"
            )
            choices.append(app_commands.Choice(name=label, value=notation))
            if len(choices) == MAX_CHOICES:
                break
        return choices

    # ------------------------------------------------------------ the Move flow
    def _done_text(self, session: GameSession) -> str:
        return "Done. " + self.ctx.table.narration(session)

    async def _move_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session, seat = await self.ctx.menu_step(interaction.user.id, session_id)
        state = session.state
        options = []
        for start, ends in destinations_by_piece(state, seat).items():
            kind = KIND_NAMES[piece_at(state, start)[1]]
            where = ", ".join(ends)
            count = f"{len(ends)} destination{'s' if len(ends) != 1 else ''}"
            options.append(
                discord.SelectOption(label=f"{kind} on {start}", value=start, description=f"{count}: {where}"[:100])
            )
        select = SessionSelect(
            session_id,
            "octego_piece",
            str(session.action_number),
            options=options[:MAX_CHOICES],
            placeholder="Piece to move…",
        )
        await self.ctx.reply_private(interaction, "**Your move** (1/2): choose a piece.", view=view_of([select]))

    async def _piece_select(
        self, interaction: discord.Interaction, session_id: int, built_for: str, values: list[str]
    ) -> None:
        session, seat = await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        state = session.state
        start = values[0] if values else ""
        ends = destinations_by_piece(state, seat).get(start)
        if not ends:
            raise UserError("That piece cannot move now: click **Move** again.")
        options = []
        for end, paths in ends.items():
            label = end
            target = piece_at(state, end)
            if target is not None:
                label += f": captures {session.names[target[0]]}'s {KIND_NAMES[target[1]]}"
            elif squares_in(paths[0]) == [start, end] and not _diagonal(start, end):
                label += ": grid change"
            description = paths[0] if len(paths) == 1 else f"{len(paths)} paths: you choose next"
            options.append(discord.SelectOption(label=label[:100], value=end, description=description))
        kind = KIND_NAMES[piece_at(state, start)[1]]
        select = SessionSelect(
            session_id,
            "octego_dest",
            f"{built_for}:{start}",
            options=options[:MAX_CHOICES],
            placeholder=f"Where does the {kind} on {start} go?",
        )
        await interaction.edit_original_response(
            content=f"**Your move** (2/2): the {kind} on **{start}** goes to…", view=view_of([select])
        )

    async def _destination_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        built_for, _, start = arg.partition(":")
        session, seat = await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        end = values[0] if values else ""
        paths = destinations_by_piece(session.state, seat).get(start, {}).get(end)
        if not paths:
            raise UserError("That move is not possible now: click **Move** again.")
        if len(paths) == 1:
            await self._play(interaction, session_id, built_for, paths[0])
            return
        options = [discord.SelectOption(label=path, value=path) for path in paths[:MAX_CHOICES]]
        select = SessionSelect(
            session_id, "octego_path", f"{built_for}:{start}:{end}", options=options, placeholder="Which way?"
        )
        await interaction.edit_original_response(
            content=f"**Your move**: {len(paths)} paths lead from **{start}** to **{end}**; choose one "
            f"(the squares passed through must be empty).",
            view=view_of([select]),
        )

    async def _path_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        built_for, start, end = ([*arg.split(":"), "", ""])[:3]
        session, seat = await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        path = values[0] if values else ""
        if path not in destinations_by_piece(session.state, seat).get(start, {}).get(end, []):
            raise UserError("That path is not possible now: click **Move** again.")
        await self._play(interaction, session_id, built_for, path)

    async def _play(self, interaction: discord.Interaction, session_id: int, built_for: str, path: str) -> None:
        """Play the chosen path; the platform refuses it if the game moved on meanwhile."""
        session = await self.ctx.act(
            session_id, interaction.user.id, {"type": "move", "path": path}, built_for=int(built_for)
        )
        await interaction.edit_original_response(content=self._done_text(session), view=None)


def _diagonal(start: str, end: str) -> bool:
    return abs(ord(start[0]) - ord(end[0])) == abs(int(start[1]) - int(end[1]))


__all__ = ["OctegoAdapter"]
