"""Octiles Scavenger Hunt on Discord: challenge, one declared menu for every choice, and commands.

Thin glue only: the rules live in ``engines/octiles`` and the pictures in ``render/octiles``.
``MENU`` (bot/games/octiles_menu.py) narrows the legal actions (bot/ui/menus.py): set-up (Gold's
stop, Teal's stop; the first circle), a marker's stop, and the turn (option, tile space,
orientation with its picture, route), whose last, optional step is the scramble (once per game):
"No scramble" first, or four tiles in one select. A command that makes a turn takes the scramble
as an optional argument. So a turn is
one decision: nothing is asked after it, and no turn clock runs on an optional question.
Games stored at the old scramble offer (a phase of its own) still get its menu and **Skip
scramble**, the one control of the game's own.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games.octiles_menu import (
    GAME,
    MENU,
    SCRAMBLE_HELP,
    SPACE,
    STAND_IN,
    STOP,
    checked,
    move_action,
    route_menu,
    with_scramble,
)
from bot.ui.adapter import ChallengeOption, GameAdapter, GameSession
from bot.ui.controls import SessionButton, view_of
from bot.ui.replies import acknowledge
from engines.octiles import (
    ENGINE,
    PRIZE_COLOUR,
    PRIZES_TO_WIN,
    SPACES,
    STOPS,
    acting,
    choose_action,
    colour_of,
    marker_owner,
    restricted_space,
    scramble_available,
    seat_of,
)

__all__ = ["MENU", "STAND_IN", "OctilesAdapter"]  # and what tests of its menu use

SKIP = "octiles_skip"  # the one control of the game's own
PHASES = {  # the game message's emoji and menu button, by phase
    "runners": ("🛠", "Set up"),
    "prizes": ("🛠", "Set up"),
    "marker": ("📍", "Place marker"),
    "scramble": ("🔀", "Scramble"),
    "turn": ("🧭", "Move"),
}
OFFER = {  # after a command, when the same player chooses next
    "marker": "\n📍 Now place the marker:",
}


def turn_notes(state: Any, seat: int) -> str:
    """What the status line adds for a turn: the spare, the limits on changing, the scramble."""
    barred = restricted_space(state, seat)
    notes = f" (spare tile {state.spare})"
    notes += "; must move (changed a tile last turn)" if state.last_option[seat] == 3 else ""
    notes += f"; may not change {barred} without moving" if barred else ""
    notes += "; may end the turn with a scramble (once per game)" if scramble_available(state, seat) else ""
    return notes


class OctilesAdapter(GameAdapter):
    engine = ENGINE
    name = GAME
    title = "Octiles Scavenger Hunt"
    summary = "Race your runner through a maze of path tiles to collect your five prizes (2 players)."
    computer_player = choose_action
    menus = (MENU,)
    challenge_extras = (ChallengeOption("scramble", "Allow each player one scramble of four tiles (optional rule)"),)

    def __init__(self, ctx):
        super().__init__(ctx)
        ctx.controls.button(SKIP, self._skip)

    def status_text(self, session: GameSession) -> str:
        state, names = session.state, session.shown_names
        if state is None:
            return ""
        colours = [colour_of(state, seat) for seat in (0, 1)]
        prizes = [
            f"{names[s]} ({c.title()}, {PRIZE_COLOUR[c]}) {state.collected[c]}/{PRIZES_TO_WIN}"
            for s, c in enumerate(colours)
        ]
        lines = ["🏅 Prizes: " + " · ".join(prizes)]
        if state.marker:
            lines.append(
                f"🎯 {state.marker['colour'].title()} marker on **{state.marker['stop']}**: "
                f"{names[seat_of(state, marker_owner(state))]} must reach it before collecting again."
            )
        seat, why = acting(state)
        if seat is not None:
            emoji, button = PHASES[state.phase]
            line = f"{emoji} {session.mention(seat)}'s choice — {why}: click **{button}**"
            if state.phase == "scramble":
                line += " or **Skip scramble**"
            elif state.phase == "turn":
                line += turn_notes(state, seat)
            lines.append(line + ".")
        return "\n".join(lines)

    def components(self, session: GameSession) -> list[discord.ui.Item]:
        """The menu's button under the phase's name (and Skip scramble at an old scramble offer)."""
        state = session.state
        if state is None or state.over:
            return []
        items = [self.ctx.menus.button(session, MENU, PHASES[state.phase][1])]
        if state.phase == "scramble":
            items.append(SessionButton(session.id, SKIP, str(session.action_number), label="Skip scramble"))
        return items

    async def _skip(self, interaction: discord.Interaction, session_id: int, built_for: str) -> None:
        """Skip scramble at once (the platform's turn and stale checks); a private answer it is on
        becomes the answer."""
        session = await self.ctx.act(
            session_id, interaction.user.id, {"type": "skip_scramble"}, built_for=built_for or None
        )
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.edit_original_response(content=self.ctx.table.done(session), view=None)

    async def _command(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        """A command's action, answered privately; offers the next choice when it is the same player's."""
        session_id = await self.ctx.running_id(interaction, GAME)
        session = await self.ctx.act(session_id, interaction.user.id, action)
        text, view, state = self.ctx.table.done(session), None, session.state
        next_choice = session.status == "active" and acting(state)[0] == session.seat_of(interaction.user.id)
        if next_choice and state.phase in OFFER:
            text, view = text + OFFER[state.phase], view_of(self.components(session))
        await self.ctx.reply_private(interaction, text, view=view)

    @app_commands.command(name="move", description="Option 2: move your runner to a stop or circle.")
    @app_commands.describe(to="Where your runner ends (autocomplete lists your legal moves)", scramble=SCRAMBLE_HELP)
    async def move(self, interaction: discord.Interaction, to: str, scramble: str | None = None) -> None:
        await acknowledge(interaction)
        await self._command(interaction, with_scramble(move_action("move", to), scramble))

    @app_commands.command(name="rotate", description="Option 3: rotate a tile to another orientation (no move).")
    @app_commands.describe(
        tile="The tile space, e.g. c3", orientation="0-7: steps of 45 degrees clockwise", scramble=SCRAMBLE_HELP
    )
    async def rotate(
        self,
        interaction: discord.Interaction,
        tile: str,
        orientation: app_commands.Range[int, 0, 7],
        scramble: str | None = None,
    ):
        await acknowledge(interaction)
        space = checked(tile, SPACES, f"a tile space (spaces: {', '.join(SPACES)})")
        await self._command(
            interaction, with_scramble({"type": "rotate", "space": space, "orientation": orientation}, scramble)
        )

    @app_commands.command(name="replace", description="Put the spare tile on a space; with `to` also move (option 1).")
    @app_commands.describe(
        tile="The tile space, e.g. c3",
        orientation="0-7 for the spare tile",
        to="Option 1: where to move across the new tile (leave out for option 3)",
        scramble=SCRAMBLE_HELP,
    )
    async def replace_tile(
        self,
        interaction: discord.Interaction,
        tile: str,
        orientation: app_commands.Range[int, 0, 7],
        to: str | None = None,
        scramble: str | None = None,
    ):
        await acknowledge(interaction)
        extra = {"space": checked(tile, SPACES, f"a tile space (spaces: {', '.join(SPACES)})")}
        extra["orientation"] = orientation
        action = move_action("replace_move", to, **extra) if to else {"type": "replace", **extra}
        await self._command(interaction, with_scramble(action, scramble))

    @app_commands.command(name="marker", description="Place a decoy marker on a free stop (when it is your choice).")
    @app_commands.describe(stop="A free stop, e.g. B2")
    async def marker(self, interaction: discord.Interaction, stop: str) -> None:
        await acknowledge(interaction)
        await self._command(interaction, {"type": "place_marker", "stop": checked(stop, STOPS, "a stop")})

    @move.autocomplete("to")
    async def move_to(self, interaction: discord.Interaction, current: str):
        return await self.ctx.menus.suggest(interaction, route_menu(), current)

    @replace_tile.autocomplete("to")
    async def replace_to(self, interaction: discord.Interaction, current: str):
        typed = interaction.namespace
        return await self.ctx.menus.suggest(
            interaction, route_menu(str(typed.tile or "").strip().lower(), typed.orientation), current
        )

    @rotate.autocomplete("tile")
    async def rotate_tile(self, interaction: discord.Interaction, current: str):
        return await self.ctx.menus.suggest(interaction, MENU, current, SPACE, lambda a: a["type"] == "rotate")

    @replace_tile.autocomplete("tile")
    async def replace_space(self, interaction: discord.Interaction, current: str):
        return await self.ctx.menus.suggest(interaction, MENU, current, SPACE, lambda a: "replace" in a["type"])

    @marker.autocomplete("stop")
    async def marker_stop(self, interaction: discord.Interaction, current: str):
        return await self.ctx.menus.suggest(interaction, MENU, current, STOP, lambda a: "stop" in a)


__all__ = ["OctilesAdapter"]
