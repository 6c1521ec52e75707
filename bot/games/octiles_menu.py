"""Octiles Scavenger Hunt's turn menu, declared as steps (bot/ui/menus.py): set-up (Gold's stop,
Teal's stop; the first circle), a marker's stop, and the turn (option, tile space, orientation
with its picture, route), whose last, optional step is the scramble (once per game); and the
words and checks the game's commands share with it (bot/games/octiles.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.core.workers import drawing
from bot.ui.menus import ActionMenu, Narrowing, Step
from bot.ui.replies import UserError, quote, sentence
from engines.octiles import (
    CIRCLES,
    ENGINE,
    PRIZE_COLOUR,
    RING,
    SCRAMBLING_ACTIONS,
    SPACES,
    STOPS,
    Route,
    colour_of,
    legal_routes,
    parse_edge_id,
    replaced_tiles,
    restricted_space,
    routes_from,
    scramble_available,
)
from render.octiles import orientation_groups, orientation_name, render_orientations
from render.wording import plural

GAME = "octiles"


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


def turned_tile(state: Any, action: Mapping[str, Any]) -> int:
    """The tile an action turns: the one on the space for a rotation, else the spare."""
    return state.tiles[action["space"]][0] if action["type"] == "rotate" else state.spare


def looks_alike(state: Any, action: Mapping[str, Any]) -> tuple[int, ...]:
    """Every orientation that gives the action's tile the look its own orientation gives."""
    groups = orientation_groups(turned_tile(state, action))
    return next(same for same in groups.values() if action["orientation"] in same)


def one_per_look(state: Any, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``actions`` with orientations that look alike kept once (by the lowest, as the sheet draws
    them): they leave the same board, so they are one choice."""
    return [a for a in actions if "orientation" not in a or a["orientation"] == looks_alike(state, a)[0]]


def menu_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    """The legal actions, one per look of a turned tile, and, while the player may scramble, each
    turn action once more ending with the stand-in scramble that the last step replaces by the
    four tiles picked."""
    legal = one_per_look(state, [action for action in ENGINE.legal_actions(state, seat) if action["type"] != "resign"])
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


def look_name(at: Narrowing, value: str) -> str:
    """An orientation as the sheet names it, with every number that looks the same: "0 = 2 = 4 = 6"."""
    return orientation_name(looks_alike(at.state, {**at.actions[0], "orientation": int(value)}))


def orientation_label(at: Narrowing, value: str) -> str:
    return f"Orientation {look_name(at, value)}"


def missing_looks(at: Narrowing) -> list[tuple[int, ...]]:
    """The looks of the turned tile not offered: as it lies now (a rotation), or with no move
    across it (a replacement and move)."""
    first = at.actions[0]
    looks = orientation_groups(turned_tile(at.state, first)).values()
    if kind(at) == "rotate":
        return [same for same in looks if at.state.tiles[first["space"]][1] in same]
    if kind(at) == "replace_move":
        return [same for same in looks if not routes_of(at.state, at.seat, first["space"], same[0])]
    return []


def why_missing(at: Narrowing) -> str:
    missing = missing_looks(at)
    if not missing:
        return ""
    names = " and ".join(orientation_name(same) for same in missing)
    why = "the tile lies that way now" if kind(at) == "rotate" else "no move across the tile then"
    return f"\nNot offered: {names} ({why})."


def orientation_prompt(at: Narrowing) -> str:
    space, rotate = at.actions[0]["space"], kind(at) == "rotate"
    tile = at.state.tiles[space][0]
    what = "its new orientation"
    if not rotate:
        what = f"spare tile {at.state.spare}'s orientation" + ", then where to move across it" * (
            kind(at) == "replace_move"
        )
    return (
        f"**{'Rotate' if rotate else 'Replace'} tile {tile} on {space}**: choose {what} (numbered 0–7 in the "
        "picture; numbers that look the same are one choice)." + why_missing(at)
    )


def route_prompt(at: Narrowing) -> str:
    first = at.actions[0]
    if "space" not in first:
        return f"{turn_header(at)}\nMove your runner to…"
    missing = missing_looks(at)
    only = bool(missing) and len(orientation_groups(at.state.spare)) - len(missing) == 1  # not asked: say why
    return (
        f"**Spare tile {at.state.spare} on {first['space']}, orientation {look_name(at, str(first['orientation']))}"
        + " (the only one with a move across it)" * only
        + "**: move across it to…"
        + why_missing(at) * only
    )


def moves_from(tiles: Any, start: str) -> dict[str, int]:
    """How many moves a runner on ``start`` needs to reach each stop on the tiles as they lie now
    (moving on from stops only: a circle is where a move ends)."""
    found, frontier, moves = {start: 0}, [start], 0
    while frontier:
        moves += 1
        reached = [route.end for place in frontier for route in routes_from(tiles, place) if route.end not in found]
        found.update((place, moves) for place in reached)
        frontier = [place for place in dict.fromkeys(reached) if place in STOPS]
    return found


def moves_away(count: int | None) -> str:
    return "out of reach now" if count is None else plural(count, "move") + " away"


def marker_label(at: Narrowing, stop: str) -> str:
    """A free stop for the marker and how far each runner is from it, its owner's first."""
    owner = next(colour for colour, prize in PRIZE_COLOUR.items() if prize == at.state.pending_marker["colour"])
    runners = sorted(at.state.runners.items(), key=lambda item: item[0] != owner)
    far = [
        f"{colour.title()}{' (owner)' * (colour == owner)} {moves_away(moves_from(at.state.tiles, place).get(stop))}"
        for colour, place in runners
    ]
    return f"{stop}: {', '.join(far)}"


def on_space(at: Narrowing, space: str) -> str:
    return f"space:{space}"


def route_place(at: Narrowing, value: str) -> str | None:
    """Where a route ends; routes that end in the same place by different ways ("D1 via b2.NE")
    are buttons, as one place cannot stand for several."""
    if " via " in value:
        return None
    return f"{'stop' if value in STOPS else 'circle'}:{value}"


# Steps that commands' autocompletes use too.
STOP = Step(
    lambda a: a.get("stop"),
    lambda at: (
        f"**Place the {at.state.pending_marker['colour']} marker** on a free stop; its owner "
        "must reach it before collecting again. Each stop says how many moves each runner needs "
        "to reach it on the tiles as they lie now."
    ),
    marker_label,
    where=lambda at, stop: f"stop:{stop}",
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
    where=lambda at, space: on_space(at, space),
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
            where=lambda at, stop: f"stop:{stop}",
        ),
        Step(
            lambda a: a.get("teal"),
            lambda at: (
                f"**Set up** (2/2): Gold runner on **{at.actions[0]['gold']}**. "
                "Now the central stop for the **Teal** runner."
            ),
            lambda at, stop: f"Teal runner on {stop}",
            where=lambda at, stop: f"stop:{stop}",
        ),
        Step(
            lambda a: a.get("circle"),
            "**Set up**: you are Teal. Choose the circle for the first **plum** prize; prizes then go on "
            "every other circle round the rim, alternating plum and orange.",
            lambda at, circle: f"Start at {circle}",
            plum_circles,
            where=lambda at, circle: f"circle:{circle}",
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
            buttons=True,
        ),
        Step(
            lambda a: a.get("tiles"),
            "🔀 **Scramble**: choose four tile spaces; their tiles are shuffled back in random orientations.",
            description=lambda at, space: f"tile {at.state.tiles[space][0]}",
            many=True,
            where=on_space,
        ),
        SPACE,
        Step(
            lambda a: a.get("orientation"),
            orientation_prompt,
            orientation_label,
            lambda at, value: (
                plural(sum(str(a["orientation"]) == value for a in at.actions), "move") + " across it"
                if kind(at) == "replace_move"
                else None
            ),
            picture=spare_orientations,
            buttons=True,  # numbered in the orientations' picture
        ),
        Step(
            lambda a: a["to"] + (f" via {a['via']}" if "via" in a else "") if "to" in a else None,
            route_prompt,
            lambda at, value: route_label(route_of(at, value)),
            lambda at, value: destination_note(at.state, route_of(at, value).end) or None,
            # While moving across the new tile, the spare's orientations stay in view.
            picture=lambda at: drawing(render_orientations, at.state) if "space" in at.actions[0] else None,
            where=route_place,
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
            buttons=True,
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
            where=on_space,
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
