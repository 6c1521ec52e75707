"""Octego on Discord: `/octego challenge`, `/octego move` (with autocomplete) and the Move flow.

Thin glue only: the rules live in ``engines/octego`` and the picture in ``render/octego``.
The Move menu is declared as steps (bot/ui/menus.py): the piece, then its destination, then the
path only when several paths lead there; `/octego move` suggests from the same actions.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.ui.adapter import ChallengeOption, GameAdapter, GameSession
from bot.ui.menus import ActionMenu, Narrowing, Step
from bot.ui.replies import acknowledge
from engines.octego import ENGINE, KIND_NAMES, choose_action, octego_count, piece_at
from render.wording import plural

GAME = "octego"
FIRST_CHOICES = {"me": None, "them": "opponent", "random": "coin toss"}  # stored as options["first"]


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


def start_of(action: Mapping[str, Any]) -> str:
    return action["path"][:2]


def end_of(action: Mapping[str, Any]) -> str:
    return action["path"][-2:]


def kind_on(at: Narrowing, square: str) -> str:
    return KIND_NAMES[piece_at(at.state, square)[1]]


def piece_label(at: Narrowing, start: str) -> str:
    return f"{kind_on(at, start)} on {start}"


def piece_description(at: Narrowing, start: str) -> str:
    ends = list(dict.fromkeys(end_of(a) for a in at.actions if start_of(a) == start))
    return f"{plural(len(ends), 'destination')}: {', '.join(ends)}"


def destination_label(at: Narrowing, end: str) -> str:
    target = piece_at(at.state, end)
    if target is not None:
        return f"{end}: captures {at.session.names[target[0]]}'s {KIND_NAMES[target[1]]}"
    start = at.choice(0)
    return f"{end}: grid change" if not _diagonal(start, end) and _adjacent(start, end) else end


def destination_description(at: Narrowing, end: str) -> str:
    paths = [a["path"] for a in at.actions if end_of(a) == end]
    return paths[0] if len(paths) == 1 else f"{len(paths)} paths: you choose next"


def path_prompt(at: Narrowing) -> str:
    start, end = at.choice(0), at.choice(1)
    return (
        f"**Your move**: {len(at.actions)} paths lead from **{start}** to **{end}**; choose one "
        "(the squares passed through must be empty)."
    )


def suggestion(at: Narrowing, action: Mapping[str, Any]) -> str:
    notation = action["path"]
    squares = squares_in(notation)
    captured = f", captures {kind_on(at, squares[-1])}" if "x" in notation else ""
    return f"{notation} ({kind_on(at, squares[0])}{captured})"


def on_square(at: Narrowing, square: str) -> str:
    return f"square:{square}"


def destination_prompt(at: Narrowing) -> str:
    return f"**Your move** (2/2): the {kind_on(at, at.choice(0))} on **{at.choice(0)}** goes to…"


MOVE_MENU = ActionMenu(
    name=GAME,
    steps=[
        Step(
            start_of,
            "**Your move** (1/2): choose a piece.",
            piece_label,
            piece_description,
            "Piece to move…",
            where=on_square,
        ),
        Step(
            end_of, destination_prompt, destination_label, destination_description, "Where does it go?", where=on_square
        ),
        Step(lambda action: action["path"], path_prompt, placeholder="Which way?", buttons=True),  # paths cross
    ],
    typed=lambda action: action["path"],
    suggestion=suggestion,
    matches=matches_typed,
)


class OctegoAdapter(GameAdapter):
    engine = ENGINE
    name = GAME
    title = "Octego"
    summary = "Race an Octego to the far side or capture both of your opponent's (two players)."
    computer_player = choose_action
    menus = (MOVE_MENU,)
    challenge_extras = (
        ChallengeOption(
            "first",
            "Who moves first (default: you)",
            (("me", "me"), ("them", "them"), ("random (coin toss)", "random")),
        ),
    )

    def status_text(self, session: GameSession) -> str:
        state = session.state
        if state is None:
            return ""
        counts = " · ".join(
            f"{name} {octego_count(state.board, seat)}" for seat, name in enumerate(session.shown_names)
        )
        # While the game runs every action so far was a move (a resignation ends it).
        return f"Octegos on the board: {counts}" + ("" if state.over else f" · Moves played: {state.ply}")

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        return [self.ctx.menus.button(session, MOVE_MENU)]

    def challenge_options(self, chosen: dict[str, Any], seats: dict[str, int | None]) -> dict[str, Any]:
        first = FIRST_CHOICES.get(chosen.get("first") or "me")
        return {"first": first} if first else {}

    @staticmethod
    def coin_toss() -> int:
        """0 or 1, fairly (a method so tests can fix it)."""
        return secrets.randbelow(2)

    def seat_order(self, challenger: int, invitees: Sequence[int], options: dict[str, Any]) -> list[int]:
        """Seat 0 moves first: the challenger, unless ``first`` says the opponent or a coin toss."""
        first = options.get("first")
        opponent_first = first == "opponent" or (first == "coin toss" and self.coin_toss() == 1)
        return [*invitees, challenger] if opponent_first else [challenger, *invitees]

    @app_commands.command(name="move", description="Move a piece along its path, e.g. c1-d2 or a1-b2-c3-d4.")
    @app_commands.describe(
        path="The spaces the piece visits (start-end is enough when only one path joins them); "
        "suggestions list your legal moves"
    )
    async def move(self, interaction: discord.Interaction, path: str) -> None:
        await acknowledge(interaction)
        session_id = await self.ctx.running_id(interaction, GAME)
        session = await self.ctx.act(session_id, interaction.user.id, {"type": "move", "path": path[:60]})
        await self.ctx.reply_private(interaction, self.ctx.table.done(session))

    @move.autocomplete("path")
    async def path_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.ctx.menus.suggest(interaction, MOVE_MENU, current)


def _diagonal(start: str, end: str) -> bool:
    return abs(ord(start[0]) - ord(end[0])) == abs(int(start[1]) - int(end[1]))


def _adjacent(start: str, end: str) -> bool:
    return max(abs(ord(start[0]) - ord(end[0])), abs(int(start[1]) - int(end[1]))) == 1


__all__ = ["OctegoAdapter"]
