"""Octiles Scavenger Hunt on Discord: challenge, private set-up choices, the Move flow and commands.

Thin glue only: the rules live in ``engines/octiles`` and the pictures in ``render/octiles``.
One button on the game message opens the private menu of whatever the position needs from the
player who must act (``acting(state)``): **Set up** (Gold's central stops, then Teal's first
prize circle), **Move** (move / rotate / replace menus), **Place marker**, **Scramble** (with
**Skip scramble** beside it). Private menus are issued fresh from that button each time
(ephemeral messages cannot be edited after 15 minutes), and every menu carries the session's
action number it was built for, so a stale menu cannot change a later position (the platform
refuses an outdated action under the session lock). Whatever a player typed is repeated only
through ``quote`` (trimmed and escaped).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.adapter import ChallengeOption, GameAdapter, GameSession
from bot.components import NO_LONGER_AVAILABLE, SessionButton, SessionSelect, view_of
from bot.rendering import as_file
from bot.replies import UserError, acknowledge, quote, sentence
from bot.sessions import STALE_TEXT
from engines.octiles import (
    CENTRAL_STOPS,
    CIRCLES,
    ENGINE,
    PRIZE_COLOUR,
    PRIZES_TO_WIN,
    RING,
    SPACES,
    STOPS,
    Route,
    acting,
    change_options,
    choose_action,
    colour_of,
    free_stops,
    has_turn_option,
    legal_destinations,
    legal_routes,
    marker_owner,
    parse_edge_id,
    replaced_tiles,
    restricted_space,
    seat_of,
)
from render.octiles import narrate, render_board, render_orientations
from render.theme import Picture

GAME = "octiles"
SELECT_LIMIT = 25

RULES = """\
**Goal**: be the first to collect all **five of your prizes** from the circles round the rim.

**Board**: 17 octagonal tiles (spaces `a2`…`e4`, lower case) with 16 square **stops** between \
them (`B2`…`E5`; central stops C3, C4, D3, D4) and 20 **circles** round the rim (`A1`…`F6`). \
Each tile joins its 8 edges in 4 paths; the 18th tile is the **spare**. A tile has 8 \
**orientations** (0–7, each a 45° turn clockwise).

**Set-up**: colours are drawn at random. **Gold** (orange prizes, plays first) puts both runners \
on two central stops. **Teal** (plum prizes) picks the first circle: prizes go on every other \
circle, alternating plum and orange.

**Moving**: a runner leaves by a tile edge touching its stop or circle, follows the path across \
tiles (and printed lines) and stops at the **first** stop or circle it reaches. It may end on a \
free stop or on a circle holding **its own** prize (collecting it) — never on an empty circle, \
the opponent's prize, runner or marker.

**A turn** is exactly one option:
1. **Replace and move**: put the spare on a space (any orientation), then move across the new tile.
2. **Move** your runner.
3. **Change** a tile (rotate it, or replace it with the spare) without moving — not two turns in \
a row, and not the tile your opponent just changed with option 3.

**Decoy markers**: after the first prize is collected, the other player puts the collector's \
marker on a free stop. A player whose marker is out must reach it before collecting again; on \
reaching it they place the opponent's marker. **Scramble** (optional rule, once per game): after \
your turn, pick four tiles to shuffle into random orientations. No legal option: you pass; \
two passes in a row is a draw.

**Commands**
• `/octiles challenge opponent:@someone [scramble:True] [level:easy|medium|hard]` — mention me to play \
the computer.
• **Set up** / **Move** / **Place marker** / **Scramble** buttons on the game message: private \
menus for the player whose choice it is (the Move menu lists each route, e.g. `D1 via b2.NE \
(3 tiles)`, and lets you rotate or replace a tile with a picture of its orientations).
• `/octiles move to:<stop or circle>` (autocomplete shows your legal moves).
• `/octiles rotate tile:c3 orientation:0-7` — option 3.
• `/octiles replace tile:c3 orientation:0-7 [to:D1]` — with `to`: option 1; without: option 3.
• `/octiles marker stop:B2` — place a marker when it is your choice.
• `/octiles board`, `/octiles resign`, **Resign** button.
"""


# ---------------------------------------------------------------- words


def route_label(route: Route) -> str:
    tiles = len(route.steps)
    return f"{route.end} via {route.via} ({tiles} tile{'s' if tiles != 1 else ''})"


def route_value(route: Route) -> str:
    return f"{route.end} via {route.via}"


def destination_note(state: Any, end: str) -> str:
    if end in CIRCLES:
        return f"collects the {state.prizes.get(end, '?')} prize"
    return ""


def route_options(state: Any, destinations: dict[str, list[Route]]) -> list[tuple[str, str, str]]:
    """(label, value, note) for every route, in board order of destinations."""
    found = []
    for end, routes in destinations.items():
        for route in routes:
            found.append((route_label(route), route_value(route), destination_note(state, end)))
    return found


def parse_destination(text: str) -> tuple[str, str | None]:
    """`D1`, `d1`, `D1 via b2.NE` or `D1 b2.NE (3 tiles)` -> ("D1", "b2.NE" or None)."""
    words = [w for w in re.split(r"\s+", re.sub(r"\(.*?\)", " ", str(text))) if w and w.lower() != "via"]
    if not words:
        raise UserError("Say where to move, e.g. `D1` (a stop) or `A2` (a circle).")
    return words[0].upper(), (words[1] if len(words) > 1 else None)


def move_action(kind: str, target: str, **extra: Any) -> dict[str, Any]:
    """A move to what a player typed or chose; what they typed is repeated only through ``quote``."""
    to, via = parse_destination(target)
    if to not in STOPS and to not in CIRCLES:
        raise UserError(f"{quote(to)} is not a stop or circle.")
    if via and parse_edge_id(via) is None:
        raise UserError(f"No route to {to} leaves by {quote(via)}.")
    action: dict[str, Any] = {"type": kind, **extra, "to": to}
    if via:
        action["via"] = via
    return action


def tile_space(text: str) -> str:
    """A typed tile space (`c3`, `C3`), or a refusal that repeats it only through ``quote``."""
    space = str(text).strip().lower()
    if space not in SPACES:
        raise UserError(sentence(f"{quote(space) or '?'} is not a tile space (spaces: {', '.join(SPACES)})"))
    return space


def stop_name(text: str) -> str:
    """A typed stop (`B2`, `b2`), or a refusal that repeats it only through ``quote``."""
    stop = str(text).strip().upper()
    if stop not in STOPS:
        raise UserError(f"{quote(stop) or '?'} is not a stop.")
    return stop


def built_for(stamp: str) -> int:
    """The action number a private menu was built for (carried in its controls)."""
    if not stamp.isdigit():
        raise UserError(STALE_TEXT)
    return int(stamp)


def first(values: list[str]) -> str:
    return values[0] if values else ""


def orientation_of(values: list[str]) -> int:
    value = first(values)
    if not value.isdigit() or not 0 <= int(value) <= 7:
        raise UserError(NO_LONGER_AVAILABLE)
    return int(value)


class OctilesAdapter(GameAdapter):
    engine = ENGINE
    name = GAME
    title = "Octiles Scavenger Hunt"
    summary = "Race your runner through a maze of path tiles to collect your five prizes (2 players)."
    rules = RULES
    computer_player = choose_action
    narrate = staticmethod(narrate)
    challenge_extras = (ChallengeOption("scramble", "Allow each player one scramble of four tiles (optional rule)"),)

    def challenge_options(self, chosen: dict[str, Any], seats: dict[str, int | None]) -> dict[str, Any]:
        return {"scramble": bool(chosen.get("scramble"))}

    # ------------------------------------------------------------ pictures
    def render_public(self, session: GameSession):
        return render_board(session.state, session.names)

    # --------------------------------------------------------------- texts
    def status_text(self, session: GameSession) -> str:
        state = session.state
        if state is None:
            return ""
        names = session.shown_names
        scores = " · ".join(
            f"{names[seat]} ({colour_of(state, seat).title()}, {PRIZE_COLOUR[colour_of(state, seat)]}) "
            f"{state.collected[colour_of(state, seat)]}/{PRIZES_TO_WIN}"
            for seat in (0, 1)
        )
        lines = [f"🏅 Prizes: {scores}"]
        if state.marker:
            owner = seat_of(state, marker_owner(state))
            lines.append(
                f"🎯 {state.marker['colour'].title()} marker on **{state.marker['stop']}**: "
                f"{names[owner]} must reach it before collecting again."
            )
        seat, why = acting(state)
        if seat is None:
            return "\n".join(lines)
        who = session.mention(seat)
        if state.phase in ("runners", "prizes"):
            lines.append(f"🛠 {who}'s choice — {why}: click **Set up**.")
        elif state.phase == "marker":
            lines.append(f"📍 {who}'s choice — {why}: click **Place marker** (or `/octiles marker`).")
        elif state.phase == "scramble":
            lines.append(f"🔀 {who} may {why}: click **Scramble** or **Skip scramble**.")
        else:
            notes = []
            if state.last_option[seat] == 3:
                notes.append("must move this turn (changed a tile last turn)")
            barred = restricted_space(state, seat)
            if barred:
                notes.append(f"may not change {barred} without moving")
            extra = f" {names[seat]} " + " and ".join(notes) + "." if notes else ""
            lines.append(
                f"🧭 {why}; spare tile {state.spare}. Click **Move**, or use `/octiles move`, "
                f"`/octiles rotate`, `/octiles replace`.{extra}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------ controls
    def components(self, session: GameSession) -> list[discord.ui.Item]:
        state = session.state
        if state is None or state.over:
            return []
        label = {
            "runners": "Set up",
            "prizes": "Set up",
            "marker": "Place marker",
            "scramble": "Scramble",
            "turn": "Move",
        }[state.phase]
        items: list[discord.ui.Item] = [
            SessionButton(session.id, "octiles_open", label=label, style=discord.ButtonStyle.primary)
        ]
        if state.phase == "scramble":
            items.append(SessionButton(session.id, "octiles_skip", label="Skip scramble"))
        return items

    # --------------------------------------------------------------- setup
    def default_options(self) -> dict[str, Any]:
        return {"scramble": False}

    def add_commands(self, group: app_commands.Group) -> None:
        ctx = self.ctx

        @group.command(name="move", description="Option 2: move your runner to a stop or circle.")
        @app_commands.describe(to="Where your runner ends (autocomplete lists your legal moves)")
        async def move(interaction: discord.Interaction, to: str) -> None:
            await acknowledge(interaction)
            await self._command(interaction, move_action("move", to))

        @group.command(name="rotate", description="Option 3: rotate a tile to another orientation (no move).")
        @app_commands.describe(tile="The tile space, e.g. c3", orientation="0-7: steps of 45 degrees clockwise")
        async def rotate(
            interaction: discord.Interaction, tile: str, orientation: app_commands.Range[int, 0, 7]
        ) -> None:
            await acknowledge(interaction)
            await self._command(interaction, {"type": "rotate", "space": tile_space(tile), "orientation": orientation})

        @group.command(name="replace", description="Put the spare tile on a space; with `to` also move (option 1).")
        @app_commands.describe(
            tile="The tile space, e.g. c3",
            orientation="0-7 for the spare tile",
            to="Option 1: where to move across the new tile (leave out for option 3)",
        )
        async def replace(
            interaction: discord.Interaction,
            tile: str,
            orientation: app_commands.Range[int, 0, 7],
            to: str | None = None,
        ) -> None:
            await acknowledge(interaction)
            extra = {"space": tile_space(tile), "orientation": orientation}
            action = move_action("replace_move", to, **extra) if to else {"type": "replace", **extra}
            await self._command(interaction, action)

        @group.command(name="marker", description="Place a decoy marker on a free stop (when it is your choice).")
        @app_commands.describe(stop="A free stop, e.g. B2")
        async def marker(interaction: discord.Interaction, stop: str) -> None:
            await acknowledge(interaction)
            await self._command(interaction, {"type": "place_marker", "stop": stop_name(stop)})

        @move.autocomplete("to")
        async def move_to(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            found = await self._my_state(interaction)
            if found is None:
                return []
            state, seat = found
            return self._choices(state, legal_destinations(state, seat), current)

        @replace.autocomplete("to")
        async def replace_to(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            found = await self._my_state(interaction)
            space = str(getattr(interaction.namespace, "tile", "") or "").strip().lower()
            orientation = getattr(interaction.namespace, "orientation", None)
            if found is None or space not in SPACES or not isinstance(orientation, int) or not 0 <= orientation < 8:
                return []
            state, seat = found
            if state.phase != "turn" or state.turn_seat != seat:
                return []
            routes = legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
            return self._choices(state, routes, current)

        async def tile_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            found = await self._my_state(interaction)
            typed = current.strip().lower()
            if found is None:
                return [app_commands.Choice(name=s, value=s) for s in SPACES if s.startswith(typed)]
            state, _seat = found
            return [
                app_commands.Choice(name=f"{s}: tile {state.tiles[s][0]}, orientation {state.tiles[s][1]}", value=s)
                for s in SPACES
                if s.startswith(typed)
            ]

        rotate.autocomplete("tile")(tile_choices)
        replace.autocomplete("tile")(tile_choices)

        @marker.autocomplete("stop")
        async def marker_stop(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            found = await self._my_state(interaction)
            if found is None:
                return []
            typed = current.strip().upper()
            return [
                app_commands.Choice(name=stop, value=stop) for stop in free_stops(found[0]) if stop.startswith(typed)
            ]

        # The game message's button answers with a private menu; every other control is on a
        # private menu (or, Skip scramble, also on the game message) and updates the message it is on.
        controls = ctx.controls
        controls.button("octiles_open", self._open_button, ack="private")
        controls.button("octiles_skip", self._skip_button)
        controls.button("octiles_pass", self._pass_button)
        controls.select("octiles_gold", self._gold_select)
        controls.select("octiles_teal", self._teal_select)
        controls.select("octiles_circle", self._circle_select)
        controls.select("octiles_mark", self._marker_select)
        controls.select("octiles_scr", self._scramble_select)
        controls.select("octiles_go", self._move_select)
        controls.select("octiles_rot", self._rotate_space_select)
        controls.select("octiles_rotto", self._rotate_select)
        controls.select("octiles_rep", self._replace_space_select)
        controls.select("octiles_repto", self._replace_orientation_select)
        controls.select("octiles_repmv", self._replace_select)

    # ------------------------------------------------------------ commands
    @staticmethod
    def _choices(state: Any, destinations: dict[str, list[Route]], current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().upper()
        choices = []
        for label, value, note in route_options(state, destinations):
            if typed and not label.upper().startswith(typed):
                continue
            choices.append(app_commands.Choice(name=f"{label} — {note}" if note else label, value=value))
        return choices[:SELECT_LIMIT]

    async def _my_state(self, interaction: discord.Interaction) -> tuple[Any, int] | None:
        """(state, seat) of the user in this channel's running game, for autocomplete; None if none."""
        session = await self.ctx.sessions.live_in_channel(interaction.channel_id)
        if session is None or session.record.game != GAME or session.status != "active":
            return None
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            return None
        return session.state, seat

    async def _command(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        """A slash command's action (the command is already acknowledged privately)."""
        session_id = await self.ctx.running_id(interaction, GAME)
        session = await self.ctx.act(session_id, interaction.user.id, action)
        text, view = self._done(session, interaction.user.id)
        await self.ctx.reply_private(interaction, text, view=view)

    def _done(self, session: GameSession, user_id: int) -> tuple[str, discord.ui.View | None]:
        """The private answer to an action; offers the scramble at once when it is the mover's choice."""
        text = f"Done. {self.ctx.table.narration(session)}".strip()
        state = session.state
        seat = session.seat_of(user_id)
        if session.status == "active" and state.phase == "scramble" and acting(state)[0] == seat:
            text += "\n🔀 You may **scramble** four tiles now (once per game), or skip."
            return text, view_of(self._scramble_items(session))
        if session.status == "active" and state.phase == "marker" and acting(state)[0] == seat:
            text += "\n📍 Now place the marker:"
            return text, view_of([self._marker_menu(session)])
        return text, None

    # ------------------------------------------------------------ private menus
    def _seat_to_act(self, session: GameSession, user_id: int) -> int:
        """The platform's turn check, its refusal saying what the position waits for."""
        try:
            return self.ctx.sessions.check_can_act(session, user_id)
        except UserError:
            expected, why = acting(session.state) if session.status == "active" else (None, "")
            if expected is None or session.seat_of(user_id) is None:
                raise
            word = "turn" if session.state.phase == "turn" else "choice"
            raise UserError(f"It is {session.mention(expected)}'s {word}: {why}.") from None

    async def _turn_of(self, interaction: discord.Interaction, session_id: int) -> tuple[GameSession, int]:
        """The session and the clicker's seat, if the clicker must act now in a running game."""
        session = await self.ctx.sessions.load(session_id)
        return session, self._seat_to_act(session, interaction.user.id)

    async def _fresh(self, interaction: discord.Interaction, session_id: int, stamp: str) -> tuple[GameSession, int]:
        """For a step that only narrows the choices: the clicker's turn, and a menu built for
        the current action number (an action from the menu is checked again by the platform)."""
        session, seat = await self._turn_of(interaction, session_id)
        self.ctx.sessions.check_fresh(session, stamp)
        return session, seat

    async def _open_button(self, interaction: discord.Interaction, session_id: int, _: str) -> None:
        session, seat = await self._turn_of(interaction, session_id)
        state, stamp = session.state, str(session.action_number)
        if state.phase == "runners":
            options = [discord.SelectOption(label=f"Gold runner on {stop}", value=stop) for stop in CENTRAL_STOPS]
            select = SessionSelect(session_id, "octiles_gold", stamp, options=options, placeholder="Gold runner on…")
            text = (
                "**Set up** (1/2): you are Gold. Choose the central stop for the **Gold** runner (yours); "
                "then the Teal runner's."
            )
            await self.ctx.reply_private(interaction, text, view=view_of([select]))
        elif state.phase == "prizes":
            options = []
            for circle in RING:
                trial = ENGINE.apply(state, seat, {"type": "first_circle", "circle": circle})
                plum = " ".join(c for c in RING if trial.prizes.get(c) == "plum")
                options.append(
                    discord.SelectOption(
                        label=f"Start at {circle}", value=circle, description=f"Plum (yours): {plum}"[:100]
                    )
                )
            select = SessionSelect(
                session_id, "octiles_circle", stamp, options=options, placeholder="First prize circle…"
            )
            text = (
                "**Set up**: you are Teal. Choose the circle for the first **plum** prize; prizes then go on "
                "every other circle round the rim, alternating plum and orange."
            )
            await self.ctx.reply_private(interaction, text, view=view_of([select]))
        elif state.phase == "marker":
            colour = state.pending_marker["colour"]
            text = f"**Place the {colour} marker** on a free stop; its owner must reach it before collecting again."
            await self.ctx.reply_private(interaction, text, view=view_of([self._marker_menu(session)]))
        elif state.phase == "scramble":
            await self.ctx.reply_private(
                interaction,
                "🔀 **Scramble**: choose four tile spaces; their tiles are shuffled back in random "
                "orientations. Once per game.",
                view=view_of(self._scramble_items(session)),
            )
        else:
            await self._move_menu(interaction, session, seat)

    def _marker_menu(self, session: GameSession) -> discord.ui.Item:
        state = session.state
        options = [discord.SelectOption(label=stop, value=stop) for stop in free_stops(state)]
        return SessionSelect(
            session.id,
            "octiles_mark",
            str(session.action_number),
            options=options[:SELECT_LIMIT],
            placeholder=f"{state.pending_marker['colour'].title()} marker on…",
        )

    def _scramble_items(self, session: GameSession) -> list[discord.ui.Item]:
        state, stamp = session.state, str(session.action_number)
        options = [
            discord.SelectOption(label=space, value=space, description=f"tile {state.tiles[space][0]}")
            for space in SPACES
        ]
        return [
            SessionSelect(
                session.id,
                "octiles_scr",
                stamp,
                options=options,
                placeholder="Four tiles to scramble…",
                min_values=4,
                max_values=4,
            ),
            SessionButton(session.id, "octiles_skip", stamp, label="Skip scramble"),
        ]

    async def _move_menu(self, interaction: discord.Interaction, session: GameSession, seat: int) -> None:
        state = session.state
        stamp = str(session.action_number)
        colour = colour_of(state, seat)
        lines = [
            f"**Your turn** ({colour.title()}, runner on {state.runners[colour]}; spare tile {state.spare}). "
            "Choose one option:"
        ]
        items: list[discord.ui.Item] = []
        moves = route_options(state, legal_destinations(state, seat))
        if moves:
            options = [
                discord.SelectOption(label=label, value=value, description=note or None)
                for label, value, note in moves[:SELECT_LIMIT]
            ]
            items.append(
                SessionSelect(
                    session.id, "octiles_go", stamp, options=options, placeholder="Option 2: move your runner to…"
                )
            )
        else:
            lines.append("• No plain move is possible on these tiles.")
        rotations, _replacements = change_options(state, seat)
        rotatable = list(dict.fromkeys(a["space"] for a in rotations))
        if rotatable:
            options = [
                discord.SelectOption(
                    label=f"Rotate {s}",
                    value=s,
                    description=f"tile {state.tiles[s][0]}, now orientation {state.tiles[s][1]}",
                )
                for s in rotatable
            ]
            items.append(
                SessionSelect(
                    session.id, "octiles_rot", stamp, options=options, placeholder="Option 3: rotate a tile (no move)…"
                )
            )
        if state.last_option[seat] == 3:
            lines.append("• You changed a tile last turn: this turn you must move.")
        barred = restricted_space(state, seat)
        if barred:
            lines.append(f"• Your opponent just changed {barred}: you may not change it without moving.")
        options = [
            discord.SelectOption(label=f"Replace {s}", value=s, description=f"tile {state.tiles[s][0]}") for s in SPACES
        ]
        items.append(
            SessionSelect(
                session.id,
                "octiles_rep",
                stamp,
                options=options,
                placeholder=f"Option 1 or 3: put spare tile {state.spare} on…",
            )
        )
        if not has_turn_option(state, seat):
            lines.append("• You have no legal option: you must pass.")
            items = [SessionButton(session.id, "octiles_pass", stamp, label="Pass", style=discord.ButtonStyle.danger)]
        await self.ctx.reply_private(interaction, "\n".join(lines), view=view_of(items))

    async def _edit_menu(
        self,
        interaction: discord.Interaction,
        text: str,
        view: discord.ui.View | None,
        picture: Picture | None = None,
        *,
        keep_picture: bool = False,
    ) -> None:
        """Replace the private menu the control is on (the click is already acknowledged);
        ``keep_picture``: leave the menu's picture as it is."""
        pictures = {} if keep_picture else {"attachments": [as_file(picture)] if picture else []}
        try:
            await interaction.edit_original_response(content=text, view=view, **pictures)
        except discord.HTTPException:  # e.g. the menu is gone: answer with a new one
            await self.ctx.reply_private(interaction, text, picture, view)

    async def _finish_menu(
        self, interaction: discord.Interaction, session_id: int, stamp: str, action: dict[str, Any]
    ) -> None:
        """Act from a private menu built for action number ``stamp``, then turn the menu into the answer."""
        await self._turn_of(interaction, session_id)  # refused in the game's words (whose choice it is)
        session = await self.ctx.act(session_id, interaction.user.id, action, built_for=built_for(stamp))
        text, view = self._done(session, interaction.user.id)
        await self._edit_menu(interaction, text, view)

    # set-up
    async def _gold_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        session, _seat = await self._fresh(interaction, session_id, stamp)
        gold = values[0] if values else ""
        if session.state.phase != "runners" or gold not in CENTRAL_STOPS:
            raise UserError("The runners have already been placed.")
        options = [
            discord.SelectOption(label=f"Teal runner on {stop}", value=stop) for stop in CENTRAL_STOPS if stop != gold
        ]
        select = SessionSelect(
            session_id, "octiles_teal", f"{stamp}:{gold}", options=options, placeholder="Teal runner on…"
        )
        await self._edit_menu(
            interaction,
            f"**Set up** (2/2): Gold runner on **{gold}**. Now the central stop for the **Teal** runner.",
            view_of([select]),
        )

    async def _teal_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        stamp, _, gold = arg.partition(":")
        teal = values[0] if values else ""
        await self._finish_menu(interaction, session_id, stamp, {"type": "place_runners", "gold": gold, "teal": teal})

    async def _circle_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        await self._finish_menu(interaction, session_id, stamp, {"type": "first_circle", "circle": first(values)})

    # markers and scramble
    async def _marker_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        await self._finish_menu(interaction, session_id, stamp, {"type": "place_marker", "stop": first(values)})

    async def _scramble_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        await self._finish_menu(interaction, session_id, stamp, {"type": "scramble", "tiles": list(values)})

    async def _skip_button(self, interaction: discord.Interaction, session_id: int, stamp: str) -> None:
        message = interaction.message
        if message is not None and message.flags.ephemeral:  # the offer in a private answer
            await self._finish_menu(interaction, session_id, stamp, {"type": "skip_scramble"})
            return
        # On the game message (no stamp: the message is redrawn after every action).
        await self._turn_of(interaction, session_id)
        await self.ctx.act(session_id, interaction.user.id, {"type": "skip_scramble"})

    async def _pass_button(self, interaction: discord.Interaction, session_id: int, stamp: str) -> None:
        await self._finish_menu(interaction, session_id, stamp, {"type": "pass"})

    # the Move flow
    async def _move_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        await self._finish_menu(interaction, session_id, stamp, move_action("move", first(values)))

    async def _rotate_space_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        session, seat = await self._fresh(interaction, session_id, stamp)
        space = first(values)
        rotations, _ = change_options(session.state, seat)
        allowed = [a["orientation"] for a in rotations if a["space"] == space]
        if not allowed:
            raise UserError(f"You cannot rotate the tile on {quote(space)} this turn.")
        picture = await self.ctx.render(render_orientations, session.state, space)
        tile, current = session.state.tiles[space]
        options = [discord.SelectOption(label=f"Orientation {o}", value=str(o)) for o in allowed]
        select = SessionSelect(
            session_id,
            "octiles_rotto",
            f"{stamp}:{space}",
            options=options,
            placeholder=f"Turn {space} to orientation…",
        )
        await self._edit_menu(
            interaction,
            f"**Rotate tile {tile} on {space}** (now orientation {current}): choose its new orientation "
            "(the picture numbers them 0–7; orientations that look the same as now are left out).",
            view_of([select]),
            picture,
        )

    async def _rotate_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        stamp, _, space = arg.partition(":")
        action = {"type": "rotate", "space": space, "orientation": orientation_of(values)}
        await self._finish_menu(interaction, session_id, stamp, action)

    async def _replace_space_select(
        self, interaction: discord.Interaction, session_id: int, stamp: str, values: list[str]
    ) -> None:
        session, seat = await self._fresh(interaction, session_id, stamp)
        state, space = session.state, first(values)
        if space not in SPACES:
            raise UserError("Choose a tile space.")
        picture = await self.ctx.render(render_orientations, state)
        options = []
        for orientation in range(8):
            routes = legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
            count = sum(len(r) for r in routes.values())
            note = f"{count} move{'s' if count != 1 else ''} across it" if count else "no move across it"
            options.append(
                discord.SelectOption(label=f"Orientation {orientation}", value=str(orientation), description=note)
            )
        select = SessionSelect(
            session_id,
            "octiles_repto",
            f"{stamp}:{space}",
            options=options,
            placeholder=f"Spare tile {state.spare} on {space} in orientation…",
        )
        await self._edit_menu(
            interaction,
            f"**Replace tile {state.tiles[space][0]} on {space}** with spare tile {state.spare}: choose the "
            "spare's orientation (the picture numbers them 0–7); then move across it or not.",
            view_of([select]),
            picture,
        )

    async def _replace_orientation_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        stamp, _, space = arg.partition(":")
        session, seat = await self._fresh(interaction, session_id, stamp)
        state, orientation = session.state, orientation_of(values)
        if space not in SPACES:
            raise UserError(NO_LONGER_AVAILABLE)
        routes = legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
        options = [
            discord.SelectOption(label=label, value=value, description=note or "option 1: replace and move")
            for label, value, note in route_options(state, routes)
        ][: SELECT_LIMIT - 1]
        can_change = state.last_option[seat] != 3 and restricted_space(state, seat) != space
        if can_change:
            options.insert(
                0, discord.SelectOption(label="Don't move", value="-", description="option 3: replace the tile only")
            )
        if not options:
            raise UserError(
                f"With spare tile {state.spare} on {space} in orientation {orientation} no move crosses "
                "it, and you may not change a tile without moving this turn. Choose another "
                "orientation."
            )
        select = SessionSelect(
            session_id,
            "octiles_repmv",
            f"{stamp}:{space}:{orientation}",
            options=options,
            placeholder="Move across the new tile to…",
        )
        # The orientations picture stays while the player chooses where to move.
        await self._edit_menu(
            interaction,
            f"**Spare tile {state.spare} on {space}, orientation {orientation}**: choose where to move "
            "across it" + (", or don't move." if can_change else "."),
            view_of([select]),
            keep_picture=True,
        )

    async def _replace_select(
        self, interaction: discord.Interaction, session_id: int, arg: str, values: list[str]
    ) -> None:
        parts = arg.split(":")
        if len(parts) != 3 or not parts[2].isdigit():
            raise UserError(NO_LONGER_AVAILABLE)
        stamp, space, orientation = parts
        extra = {"space": space, "orientation": int(orientation)}
        target = first(values)
        action = {"type": "replace", **extra} if target == "-" else move_action("replace_move", target, **extra)
        await self._finish_menu(interaction, session_id, stamp, action)


__all__ = ["OctilesAdapter"]
