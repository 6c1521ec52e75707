"""Octagone on Discord: challenges for two or four players, the Place flow and `/octagone place`.

Thin glue only: the rules live in ``engines/octagone`` and the pictures in ``render/octagone``.
The Place button opens a private menu issued fresh each time (ephemeral messages cannot be
edited after 15 minutes): White Lady opening = row, then column, then direction; any other
turn = shield, then direction. Every select carries the session's action number it was built
for (the platform's one stale check), so a menu left open while the game moved on cannot
place anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.adapter import ChallengeOption, GameAdapter, GameSession
from bot.components import SessionButton, SessionSelect, view_of
from bot.replies import UserError, acknowledge, escape
from engines.octagone import (
    ADVANCED,
    BASIC,
    BOXES,
    COLUMNS,
    DIRECTIONS,
    ENGINE,
    JOKER,
    ROW_COLOURS,
    ROWS,
    WHITE_LADY,
    aim_options,
    box_colour,
    choose_action,
    placeable_shields,
    shields_left,
    team_shields_left,
)
from render.octagone import colour_words, narrate, render_board, render_hand

GAME = "octagone"
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
DIRECTION_WORDS = {
    "N": "north",
    "NE": "north-east",
    "E": "east",
    "SE": "south-east",
    "S": "south",
    "SW": "south-west",
    "W": "west",
    "NW": "north-west",
}

RULES = """\
**Goal**: get rid of your shields. When the game ends, whoever holds the **fewest shields** wins \
(four players: the pair with the fewest, both members counted); equal counts are a draw.

**Board**: 42 boxes, rows **A–F** (top to bottom) × columns **1–7**; each row has its colour: \
A orange, B sky blue, C green, D yellow, E blue, F pink. 36 coloured shields (6 per colour), \
6 black **jokers** and the **White Lady**. Two players get 18 coloured shields + 3 jokers each.

**Opening**: the starter (drawn at random) puts the White Lady on any box and aims her arrow \
(N, NE, E, SE, S, SW, W, NW). She leaves the board after the next player's turn.

**A turn**: the last shield's arrow points along its row, column or diagonal; the **first free \
box** on that line is the **target** (occupied boxes are skipped). Put a shield of the target's \
row colour, or a joker, on it and aim its arrow: the arrow **must designate a free box**. \
No fitting shield and no joker? You **skip**, and the next player plays on the same box.

**End**: a shield cannot be aimed at any free box, nobody can play on the target, or a player \
placed their last shield.

**Advanced level** (default; the only one for four players):
• a **joker** designates the **last** free box along its arrow, not the first;
• **perimeter connections**: an arrow on an edge box pointing off the board continues from the \
opposite end of the same line (the small coloured triangles on the edge boxes).
• **Four players**: two pairs sitting opposite (seats play in turn: you, opponent, partner, \
second opponent); 9 coloured shields + 1 joker each, and one extra joker per pair. \
Hands are hidden unless the game is started with `open_hands`.

**Commands**
• `/octagone challenge opponent:@someone` (add `partner:@a opponent2:@b` for four players; \
`rules:basic|advanced`, `open_hands:True`; `level:easy|medium|hard` for the computer). Mention me to play the computer.
• **Place** button: pick your shield, then its direction (the menu says which box each \
direction designates). Opening: row, column, then direction.
• `/octagone place shield:green direction:NE`; opening: `/octagone place box:C4 direction:NE`.
• **My shields** button: your hand, privately. `/octagone board`, `/octagone resign`, **Resign**.
"""


def shield_label(shield: str) -> str:
    if shield == JOKER:
        return "joker"
    if shield == WHITE_LADY:
        return "White Lady"
    return f"{colour_words(shield)} shield"


def box_words(box: str) -> str:
    return f"{box} ({colour_words(box_colour(box))})"


def parse_box(text: str) -> str:
    box = text.strip().upper().replace(" ", "")
    if box not in BOXES:
        raise UserError(f"`{escape(text, 20)}` is not a box: use a row A–F and a column 1–7, e.g. C4.")
    return box


def aim_choices(state: Any, shield: str, box: str | None = None) -> list[discord.SelectOption]:
    """One option per direction that designates a free box, saying which box and its colour."""
    options = aim_options(state, shield, box)
    if options:
        return [
            discord.SelectOption(
                label=f"{o['direction']} → {box_words(o['box'])}",
                value=o["direction"],
                emoji=ARROWS[o["direction"]],
                description=f"Aim {DIRECTION_WORDS[o['direction']]}: the next target is {o['box']}",
            )
            for o in options
        ]
    return [
        discord.SelectOption(
            label=f"{d}: no free box left",
            value=d,
            emoji=ARROWS[d],
            description="No direction designates a free box: this ends the game",
        )
        for d in DIRECTIONS
    ]


class OctagoneAdapter(GameAdapter):
    engine = ENGINE
    name = GAME
    title = "Octagone"
    summary = "Place aimed shields where the last arrow points; fewest shields left wins (2 or 4 players)."
    rules = RULES
    computer_player = choose_action
    private_view_label = "My shields"
    team_play = True
    challenge_extras = (
        ChallengeOption(
            "rules",
            "basic (first part of the rules) or advanced (default; required for four players)",
            (("advanced (joker rule, perimeter connections)", ADVANCED), ("basic (first part of the rules)", BASIC)),
        ),
        ChallengeOption("open_hands", "Show every hand on the board (default: hands are hidden)"),
    )

    def challenge_options(self, chosen: dict[str, Any], seats: dict[str, int | None]) -> dict[str, Any]:
        if "partner" in seats and chosen.get("rules") == BASIC:
            raise UserError("Four players play the advanced level only: leave `rules` out or choose advanced.")
        options: dict[str, Any] = {
            "level": chosen.get("rules") or ADVANCED,
            "open_hands": bool(chosen.get("open_hands")),
        }
        if "partner" in seats:
            options["_pairs"] = [[seats["challenger"], seats["partner"]], [seats["opponent"], seats["opponent2"]]]
        return options

    # ------------------------------------------------------------ pictures
    def render_public(self, session: GameSession):
        return render_board(session.state, session.names, None)

    def render_private(self, session: GameSession, seat: int):
        return render_hand(session.state, session.names, seat)

    # --------------------------------------------------------------- texts
    narrate = staticmethod(narrate)

    def _counts(self, session: GameSession) -> str:
        state, names = session.state, session.shown_names
        text = "Shields left: " + " · ".join(
            f"{names[seat]} {shields_left(state, seat)}" for seat in range(state.players)
        )
        if state.players == 4:
            pairs = " · ".join(f"{names[a]} & {names[a + 2]} {team_shields_left(state, a)}" for a in (0, 1))
            text += f"\nPairs: {pairs}"
        return text

    def status_text(self, session: GameSession) -> str:
        state = session.state
        if state is None:
            return ""
        if state.over:
            return "🏁 Final count. " + self._counts(session)
        if state.opening:
            where = "🎯 Opening: the White Lady goes on any box."
        else:
            target = state.target
            where = (
                f"🎯 Target: **{target}** ({colour_words(box_colour(target))}, row {target[0]}): "
                f"a {colour_words(box_colour(target))} shield or a joker."
            )
        return where + "\n" + self._counts(session)

    # ------------------------------------------------------------ controls
    def components(self, session: GameSession) -> list[discord.ui.Item]:
        return [SessionButton(session.id, "octagone_place", label="Place", style=discord.ButtonStyle.primary)]

    # --------------------------------------------------------------- setup
    def default_options(self) -> dict[str, Any]:
        return {"level": ADVANCED, "open_hands": False}

    def seat_order(self, challenger: int, invitees: Sequence[int], options: dict[str, Any]) -> list[int]:
        """Two players: challenger, opponent. Four: challenger, opponent, partner, second opponent.

        The pairs are kept in the options (``_pairs``, user ids), so a rematch started by any
        of the four seats keeps the partners together and opposite each other.
        """
        if len(invitees) != 3:
            return [challenger, *invitees]
        pairs = options.get("_pairs") or []
        mine = next((pair for pair in pairs if challenger in pair), None)
        partner = next((p for p in mine if p != challenger), None) if mine else None
        if partner not in invitees:
            partner = invitees[1]
        opponents = [p for p in invitees if p != partner]
        return [challenger, opponents[0], partner, opponents[1]]

    def add_commands(self, group: app_commands.Group) -> None:
        ctx = self.ctx

        directions = [app_commands.Choice(name=f"{d} {ARROWS[d]} ({DIRECTION_WORDS[d]})", value=d) for d in DIRECTIONS]
        shields = [
            app_commands.Choice(name=f"{colour_words(c)} (row {row})", value=c) for row, c in ROW_COLOURS.items()
        ] + [app_commands.Choice(name="joker", value=JOKER)]

        @group.command(
            name="place", description="Place a shield on the target box and aim it (or open with the White Lady)."
        )
        @app_commands.describe(
            direction="Where the arrow points: it must designate a free box",
            shield="The shield: the target box's colour, or a joker",
            box="Opening only: the White Lady's box, e.g. C4",
        )
        @app_commands.choices(direction=directions, shield=shields)
        async def place(
            interaction: discord.Interaction, direction: str, shield: str | None = None, box: str | None = None
        ) -> None:
            await acknowledge(interaction)
            session = await ctx.session_for(interaction, GAME)
            if session.state.opening:
                if box is None:
                    raise UserError("The game opens with the White Lady: give her `box` (e.g. C4) and a `direction`.")
                action = {"type": "white_lady", "box": parse_box(box), "direction": direction}
            else:
                if shield is None:
                    raise UserError(
                        f"Choose a `shield` for box {box_words(session.state.target)}: "
                        f"{colour_words(box_colour(session.state.target))} or joker."
                    )
                action = {"type": "place", "shield": shield, "direction": direction}
                if box is not None:
                    action["box"] = parse_box(box)
            session = await ctx.act(session.id, interaction.user.id, action)
            await ctx.reply_private(interaction, self._done_text(session))

        @place.autocomplete("box")
        async def box_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            typed = current.strip().upper()
            return [app_commands.Choice(name=box_words(b), value=b) for b in BOXES if b.startswith(typed)][:25]

        # The Place button answers with a private menu; the selects update that menu.
        ctx.controls.button("octagone_place", self._place_button, ack="private")
        ctx.controls.select("octagone_row", self._row_select)
        ctx.controls.select("octagone_col", self._column_select)
        ctx.controls.select("octagone_shield", self._shield_select)
        ctx.controls.select("octagone_aim", self._aim_select)

    # ------------------------------------------------------------ the Place flow
    def _done_text(self, session: GameSession) -> str:
        return f"Done. {self.ctx.table.narration(session)}".strip()

    async def _place_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session, seat = await self.ctx.menu_step(interaction.user.id, session_id)
        state = session.state
        built_for = str(session.action_number)
        if state.opening:
            rows = [
                discord.SelectOption(label=f"Row {row} ({colour_words(colour)})", value=row)
                for row, colour in ROW_COLOURS.items()
            ]
            select = SessionSelect(session_id, "octagone_row", built_for, options=rows, placeholder="White Lady: row…")
            text = "**Place the White Lady** (1/3): choose her row."
        else:
            target = state.target
            options = [
                discord.SelectOption(label=f"{shield_label(s)} (you have {state.hands[seat][s]})", value=s)
                for s in placeable_shields(state, seat)
            ]
            select = SessionSelect(
                session_id, "octagone_shield", built_for, options=options, placeholder=f"Shield for {target}…"
            )
            text = (
                f"**Place a shield on {box_words(target)}** (1/2): a {colour_words(box_colour(target))} "
                f"shield or a joker."
            )
        await self.ctx.reply_private(interaction, text, view=view_of([select]))

    async def _row_select(
        self, interaction: discord.Interaction, session_id: int, built_for: str, values: list[str]
    ) -> None:
        session, _seat = await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        row = values[0] if values and values[0] in ROWS else None
        if row is None or not session.state.opening:
            raise UserError("The White Lady has already been placed." if row else "Choose a row.")
        options = [
            discord.SelectOption(label=box_words(f"{row}{column}"), value=f"{row}{column}")
            for column in range(1, COLUMNS + 1)
        ]
        select = SessionSelect(
            session_id, "octagone_col", f"{built_for}:{row}", options=options, placeholder=f"Row {row}: column…"
        )
        await interaction.edit_original_response(
            content=f"**Place the White Lady** (2/3): row {row} ({colour_words(ROW_COLOURS[row])}); choose her column.",
            view=view_of([select]),
        )

    async def _column_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        built_for, _, _row = arg.partition(":")
        session, _seat = await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        if not session.state.opening:
            raise UserError("The White Lady has already been placed.")
        box = values[0] if values else ""
        if box not in BOXES:
            raise UserError("Choose a box.")
        select = SessionSelect(
            session_id,
            "octagone_aim",
            f"{built_for}:{WHITE_LADY}:{box}",
            options=aim_choices(session.state, WHITE_LADY, box),
            placeholder="Aim her arrow…",
        )
        await interaction.edit_original_response(
            content=f"**Place the White Lady on {box_words(box)}** (3/3): aim her arrow at the next box.",
            view=view_of([select]),
        )

    async def _shield_select(
        self, interaction: discord.Interaction, session_id: int, built_for: str, values: list[str]
    ) -> None:
        session, seat = await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        state = session.state
        target = state.target
        shield = values[0] if values else ""
        if shield not in placeable_shields(state, seat):
            raise UserError(f"You cannot put that shield on {box_words(target)}.")
        select = SessionSelect(
            session_id,
            "octagone_aim",
            f"{built_for}:{shield}:{target}",
            options=aim_choices(state, shield),
            placeholder="Aim the arrow…",
        )
        await interaction.edit_original_response(
            content=f"**Place a {shield_label(shield)} on {box_words(target)}** (2/2): aim its arrow; each "
            f"direction shows the box it designates.",
            view=view_of([select]),
        )

    async def _aim_select(self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]) -> None:
        built_for, shield, box = ([*arg.split(":"), "", ""])[:3]
        await self.ctx.menu_step(interaction.user.id, session_id, built_for)
        direction = values[0] if values else ""
        if shield == WHITE_LADY:
            action = {"type": "white_lady", "box": box, "direction": direction}
        else:
            action = {"type": "place", "shield": shield, "box": box, "direction": direction}
        session = await self.ctx.act(session_id, interaction.user.id, action, built_for=int(built_for))
        await interaction.edit_original_response(content=self._done_text(session), view=None)


__all__ = ["OctagoneAdapter"]
