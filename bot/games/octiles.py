"""Octiles Scavenger Hunt on Discord: challenge, one declared menu for every choice, and commands.

Thin glue only: the rules live in ``engines/octiles`` and the pictures in ``render/octiles``.
``MENU`` narrows the legal actions (bot/menus.py): set-up (Gold's stop, Teal's stop; the first
circle), a marker's stop, and the turn (option, tile space, orientation with its picture, route),
whose last, optional step is the scramble (once per game): "No scramble" first, or four tiles in
one select. A command that makes a turn takes the scramble as an optional argument. So a turn is
one decision: nothing is asked after it, and no turn clock runs on an optional question.
Games stored at the old scramble offer (a phase of its own) still get its menu and **Skip
scramble**, the one control of the game's own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.adapter import ChallengeOption, GameAdapter, GameSession
from bot.core.workers import drawing
from bot.ui.controls import SessionButton, view_of
from bot.ui.menus import ActionMenu, Narrowing, Step
from bot.ui.replies import UserError, acknowledge, quote, sentence
from engines.octiles import (
    CIRCLES,
    ENGINE,
    PRIZE_COLOUR,
    PRIZES_TO_WIN,
    RING,
    SCRAMBLING_ACTIONS,
    SPACES,
    STOPS,
    Route,
    acting,
    choose_action,
    colour_of,
    legal_routes,
    marker_owner,
    parse_edge_id,
    replaced_tiles,
    restricted_space,
    scramble_available,
    seat_of,
)
from render.octiles import narrate, render_board, render_orientations

GAME = "octiles"
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
# The turn actions that may end with the scramble (as engines/octiles/rules.py: not a pass).
SCRAMBLE_SIZE = 4
# The menu lists each turn action once more ending with these four tiles, a stand-in for the four
# the player picks at the last step (listing every choice of four would be 2380 actions each).
STAND_IN = list(SPACES[:SCRAMBLE_SIZE])
SCRAMBLE_CHOICES = {  # the turn's last step: label, description
    "none": ("No scramble: end my turn", "keep your scramble for a later turn"),
    "four": ("Scramble four tiles", "once per game: shuffled back in random orientations after this turn"),
}
SCRAMBLE_HELP = "Optional last step, once per game: four tile spaces to scramble after this turn, e.g. a2 b3 c4 d1"
OPTIONS = {  # the first step of a turn or of an old scramble offer: label, description
    "move": ("Move your runner", "option 2"),
    "replace_move": ("Replace a tile and move across it", "option 1: the spare goes on a space"),
    "rotate": ("Rotate a tile", "option 3: no move"),
    "replace": ("Replace a tile", "option 3: the spare goes on a space, no move"),
    "pass": ("Pass", "no legal option"),
    "skip_scramble": ("Skip the scramble", "the tiles stay as they are"),
    "scramble": ("Scramble four tiles", "once per game: shuffled into random orientations"),
}


def route_label(route: Route) -> str:
    return f"{route.end} via {route.via} ({len(route.steps)} tile{'s' if len(route.steps) != 1 else ''})"


def destination_note(state: Any, end: str) -> str:
    return f"collects the {state.prizes.get(end, '?')} prize" if end in CIRCLES else ""


def move_action(kind: str, target: str, **extra: Any) -> dict[str, Any]:
    """A move to what a player typed (`D1`, `d1 via b2.NE`, `D1 b2.NE (3 tiles)`), repeated only through ``quote``."""
    words = [w for w in re.split(r"\s+", re.sub(r"\(.*?\)", " ", str(target))) if w and w.lower() != "via"]
    if not words:
        raise UserError("Say where to move, e.g. `D1` (a stop) or `A2` (a circle).")
    to, via = words[0].upper(), (words[1] if len(words) > 1 else None)
    if to not in STOPS and to not in CIRCLES:
        raise UserError(f"{quote(to)} is not a stop or circle.")
    if via and parse_edge_id(via) is None:
        raise UserError(f"No route to {to} leaves by {quote(via)}.")
    return {"type": kind, **extra, "to": to, **({"via": via} if via else {})}


def checked(text: str, names: Any, what: str) -> str:
    """A typed tile space (`c3`) or stop (`B2`), or a refusal that repeats it only through ``quote``."""
    value = str(text).strip().lower() if names is SPACES else str(text).strip().upper()
    if value not in names:
        raise UserError(sentence(f"{quote(value) or '?'} is not {what}"))
    return value


def scramble_spaces(typed: str) -> list[str]:
    """The four tile spaces typed for a scramble (`a2 b3 c4 d1`, commas allowed), or a refusal."""
    words = [word for word in re.split(r"[\s,;+]+", str(typed)) if word]
    if len(words) != SCRAMBLE_SIZE:
        raise UserError("A scramble takes exactly four different tile spaces, e.g. `a2 b3 c4 d1`.")
    spaces = [checked(word, SPACES, f"a tile space (spaces: {', '.join(SPACES)})") for word in words]
    if len(set(spaces)) != SCRAMBLE_SIZE:
        raise UserError("A scramble takes exactly four different tile spaces, e.g. `a2 b3 c4 d1`.")
    return spaces


def with_scramble(action: dict[str, Any], typed: str | None) -> dict[str, Any]:
    """A command's turn action, ending with the scramble if the player typed four spaces."""
    return {**action, "scramble": scramble_spaces(typed)} if typed else action


# ---------------------------------------------------------------- the menu


def kind(at: Narrowing) -> str:
    return at.actions[0]["type"]  # after the first step, the actions left are of one type


def routes_of(state: Any, seat: int, space: str | None = None, orientation: int = 0) -> dict[str, list[Route]]:
    """The runner's routes, or those across the spare put on ``space``."""
    return legal_routes(state, seat, replaced_tiles(state, space, orientation) if space else None, crossing=space)


def route_of(at: Narrowing, value: str) -> Route:
    to, _, via = value.partition(" via ")
    first = at.actions[0]
    routes = routes_of(at.state, at.seat, first.get("space"), first.get("orientation", 0))[to]
    return next(route for route in routes if via in ("", route.via))


def turn_header(at: Narrowing) -> str:
    state, seat, barred = at.state, at.seat, restricted_space(at.state, at.seat)
    colour = colour_of(state, seat)
    return (
        f"**Your turn** ({colour.title()}, runner on {state.runners[colour]}; spare tile {state.spare})."
        + ("\n• You changed a tile last turn: this turn you must move." if state.last_option[seat] == 3 else "")
        + (f"\n• Your opponent just changed {barred}: you may not change it without moving." if barred else "")
        + ("\n• Last step, if you wish: your scramble (once per game)." if scramble_available(state, seat) else "")
    )


def turn_summary(action: Mapping[str, Any]) -> str:
    """The turn a menu has narrowed to, in a few words."""
    route = f"move to {action.get('to')}" + (f" via {action['via']}" if "via" in action else "")
    if action["type"] == "move":
        return route
    spare = f"spare tile on {action['space']} (orientation {action['orientation']})"
    if action["type"] == "rotate":
        return f"rotate {action['space']} to orientation {action['orientation']}"
    return f"{spare}, {route}" if action["type"] == "replace_move" else f"{spare}, no move"


def menu_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    """The legal actions and, while the player may scramble, each turn action once more ending
    with the stand-in scramble that the last step replaces by the four tiles picked."""
    legal = [action for action in ENGINE.legal_actions(state, seat) if action["type"] != "resign"]
    if state.phase != "turn" or not scramble_available(state, seat):
        return legal
    return legal + [{**action, "scramble": STAND_IN} for action in legal if action["type"] in SCRAMBLING_ACTIONS]


class FourTiles(Step):
    """The scramble's four tiles: one select of exactly four of the 17 spaces. The actions it
    narrows hold the stand-in; the four spaces picked take its place."""

    def values(self, actions: Sequence[Mapping[str, Any]]) -> list[str]:
        return list(SPACES) if any(self.key(action) for action in actions) else []

    def keep(self, actions: Sequence[Mapping[str, Any]], chosen: str) -> list[dict[str, Any]]:
        picked = chosen.split("+")
        if len(set(picked)) != SCRAMBLE_SIZE or not set(picked) <= set(SPACES):
            return []
        spaces = [space for space in SPACES if space in picked]  # the board's order, as the stand-in
        return [{**action, "scramble": spaces} for action in actions if self.key(action)]


def option_note(at: Narrowing, value: str) -> str:
    if value != "move":
        return OPTIONS[value][1]
    return "option 2: " + ", ".join(route_label(r) for rs in routes_of(at.state, at.seat).values() for r in rs)


def plum_circles(at: Narrowing, circle: str) -> str:
    trial = ENGINE.apply(at.state, at.seat, {"type": "first_circle", "circle": circle})
    return "Plum (yours): " + " ".join(c for c in RING if trial.prizes.get(c) == "plum")


def orientation_prompt(at: Narrowing) -> str:
    space, rotate = at.actions[0]["space"], kind(at) == "rotate"
    tile, now = at.state.tiles[space]
    what = f"its new orientation (those that look the same as now, {now}, are left out)"
    if not rotate:
        what = f"spare tile {at.state.spare}'s orientation" + ", then where to move across it" * (
            kind(at) == "replace_move"
        )
    return (
        f"**{'Rotate' if rotate else 'Replace'} tile {tile} on {space}**: choose {what} (numbered 0–7 in the picture)."
    )


def route_prompt(at: Narrowing) -> str:
    first = at.actions[0]
    if "space" not in first:
        return f"{turn_header(at)}\nMove your runner to…"
    return (
        f"**Spare tile {at.state.spare} on {first['space']}, orientation {first['orientation']}**: move across it to…"
    )


# Steps that commands' autocompletes use too.
STOP = Step(
    lambda a: a.get("stop"),
    lambda at: (
        f"**Place the {at.state.pending_marker['colour']} marker** on a free stop; its owner "
        "must reach it before collecting again."
    ),
)
SPACE = Step(
    lambda a: a.get("space"),
    lambda at: (
        f"{turn_header(at)}\n"
        + ("Rotate the tile on" if kind(at) == "rotate" else f"Put spare tile {at.state.spare} on")
        + " which space?"
    ),
    lambda at, space: f"{'Rotate' if kind(at) == 'rotate' else 'Replace'} {space}",
    lambda at, space: f"tile {at.state.tiles[space][0]}, now orientation {at.state.tiles[space][1]}",
    placeholder=lambda at: "Tile to rotate…" if kind(at) == "rotate" else "Tile to replace…",
)


def spare_orientations(at: Narrowing):
    """The spare tile's orientations; for a rotation, those of the tile on the chosen space."""
    return drawing(render_orientations, at.state, at.actions[0]["space"] if kind(at) == "rotate" else None)


MENU = ActionMenu(
    name=GAME,
    steps=[
        Step(
            lambda a: a.get("gold"),
            "**Set up** (1/2): you are Gold. Choose the central stop for the **Gold** runner (yours); "
            "then the Teal runner's.",
            lambda at, stop: f"Gold runner on {stop}",
        ),
        Step(
            lambda a: a.get("teal"),
            lambda at: (
                f"**Set up** (2/2): Gold runner on **{at.actions[0]['gold']}**. "
                "Now the central stop for the **Teal** runner."
            ),
            lambda at, stop: f"Teal runner on {stop}",
        ),
        Step(
            lambda a: a.get("circle"),
            "**Set up**: you are Teal. Choose the circle for the first **plum** prize; prizes then go on "
            "every other circle round the rim, alternating plum and orange.",
            lambda at, circle: f"Start at {circle}",
            plum_circles,
        ),
        STOP,
        Step(
            lambda a: a["type"],
            lambda at: (
                "🔀 **Scramble** four tiles now (once per game), or skip?"
                if at.state.phase == "scramble"
                else f"{turn_header(at)}\nChoose one option:"
            ),
            lambda at, value: OPTIONS[value][0],
            option_note,
        ),
        Step(
            lambda a: a.get("tiles"),
            "🔀 **Scramble**: choose four tile spaces; their tiles are shuffled back in random orientations.",
            description=lambda at, space: f"tile {at.state.tiles[space][0]}",
            many=True,
        ),
        SPACE,
        Step(
            lambda a: a.get("orientation"),
            orientation_prompt,
            lambda at, value: f"Orientation {value}",
            lambda at, value: (
                f"{sum(str(a['orientation']) == value for a in at.actions)} move(s) across it"
                if kind(at) == "replace_move"
                else None
            ),
            picture=spare_orientations,
        ),
        Step(
            lambda a: a["to"] + (f" via {a['via']}" if "via" in a else "") if "to" in a else None,
            route_prompt,
            lambda at, value: route_label(route_of(at, value)),
            lambda at, value: destination_note(at.state, route_of(at, value).end) or None,
            # While moving across the new tile, the spare's orientations stay in view.
            picture=lambda at: drawing(render_orientations, at.state) if "space" in at.actions[0] else None,
        ),
        # The turn's last, optional step: asked only while the player's scramble is unused.
        Step(
            lambda a: ("four" if "scramble" in a else "none") if a["type"] in SCRAMBLING_ACTIONS else None,
            lambda at: (
                f"🔀 **Last step (optional)**: your turn is to {turn_summary(at.actions[0])}. "
                "End it there, or scramble four tiles after it (once per game)?"
            ),
            lambda at, value: SCRAMBLE_CHOICES[value][0],
            lambda at, value: SCRAMBLE_CHOICES[value][1],
            placeholder="No scramble, or scramble four tiles…",
        ),
        FourTiles(
            lambda a: tuple(a["scramble"]) if "scramble" in a else None,
            lambda at: (
                f"🔀 **Scramble** after your turn ({turn_summary(at.actions[0])}): choose four tile spaces; "
                "their tiles are shuffled and put back in random orientations."
            ),
            description=lambda at, space: f"tile {at.state.tiles[space][0]}, orientation {at.state.tiles[space][1]}",
            placeholder="Four tiles to scramble…",
            many=True,
        ),
    ],
    actions=menu_actions,
)


def route_menu(space: str | None = None, orientation: Any = 0) -> ActionMenu:
    """The menu as `to:` suggestions see it: every route of the runner (across the spare put on
    ``space``), each naming its ``via``."""

    def actions(state: Any, seat: int) -> list[dict[str, Any]]:
        if state.phase != "turn" or (space is not None and (space not in SPACES or orientation not in range(8))):
            return []
        return [{"route": route} for routes in routes_of(state, seat, space, orientation).values() for route in routes]

    def shown(at: Narrowing, action: dict[str, Any]) -> str:
        note = destination_note(at.state, action["route"].end)
        return route_label(action["route"]) + (f" — {note}" if note else "")

    def typed(action: dict[str, Any]) -> str:
        return f"{action['route'].end} via {action['route'].via}"

    return replace(MENU, actions=actions, typed=typed, suggestion=shown)


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
    narrate = staticmethod(narrate)
    menus = (MENU,)
    challenge_extras = (ChallengeOption("scramble", "Allow each player one scramble of four tiles (optional rule)"),)

    def __init__(self, ctx):
        super().__init__(ctx)
        ctx.controls.button(SKIP, self._skip)

    def public_picture(self, session: GameSession):
        return drawing(render_board, session.state, session.names)

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
