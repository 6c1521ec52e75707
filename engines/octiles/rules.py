"""Octiles Scavenger Hunt: set-up, the three turn options, decoy markers, scramble, end.

Seed: ``shared/seeds/octiles-scavenger-hunt.txt``; decisions: ``shared/rules/octiles.md``.
Colours are "gold"/"teal" for players and "orange"/"plum" for their prizes and markers.

Phases while the game runs (who acts, see :func:`acting`):
``runners`` (Gold places both runners) -> ``prizes`` (Teal picks the first circle) -> ``turn``
(the turn seat plays option 1, 2 or 3, or passes when nothing is legal) -> optionally ``marker``
(a seat places a decoy marker) -> next ``turn`` ... The end is ``state.outcome``.

The scramble (optional rule, once per game) is the last, optional step of a player's own turn
(decision 2026-11-23): while :func:`scramble_available`, a turn action that is not a pass may carry
``scramble``: four tile spaces, shuffled at the end of that turn, after the move (and its prize) and
before any marker placement, so the placer sees the scrambled board. Leaving it out is "no
scramble"; nothing else is asked. A move that wins the game ends it there: nothing is scrambled.
Games stored by earlier versions may wait in the old ``scramble`` phase (the mover scrambles or
skips after the turn); they play on with ``scramble`` / ``skip_scramble``, valid only there, and a
turn clock running out there means "no scramble" (:meth:`OctilesEngine.when_time_runs_out`).

Actions: ``place_runners`` {gold, teal}, ``first_circle`` {circle}, ``move`` {to, via?, scramble?},
``replace_move`` {space, orientation, to, via?, scramble?}, ``rotate`` / ``replace`` {space,
orientation, scramble?}, ``pass``, ``place_marker`` {stop}, ``resign``; in the old ``scramble``
phase only, ``scramble`` {tiles: four spaces} and ``skip_scramble``.

Events (``state.events``, never English; ``render.octiles.narrate`` words them):
``colours`` (new game: gold, teal seats), ``runners`` {gold, teal}, ``prizes`` {circle, plum, orange},
``move`` {colour, start, via, end, steps}, ``replace_move`` {colour, space, tile, removed,
orientation, start, via, end, steps}, ``collect`` {circle, prize, count}, ``marker_reached``
{stop, colour} (the marker is removed), ``marker`` {stop, colour, owner}, ``rotate`` {colour, space,
tile, orientation, was}, ``replace`` {colour, space, tile, removed, orientation}, ``pass`` {colour},
``scramble`` {spaces, placed}, ``skip_scramble``, ``resign`` and ``end``.

Test/bot-test start: ``options={"layout": {...}}`` fixes any of these keys (the rest is dealt
from the seed as usual):
  ``"tiles"``: {space: [tile number, orientation]} for all 17 spaces, with ``"spare"``: tile number;
  ``"gold_seat"``: 0 or 1; ``"runners"``: {"gold": stop/circle, "teal": stop/circle};
  ``"prizes"``: {circle: "orange"|"plum"} or ``"first_circle"``: circle id;
  ``"collected"``: {"gold": n, "teal": n}; ``"marker"``: {"colour": "orange"|"plum", "stop": id};
  ``"last_option"``: {"gold": 0-3, "teal": 0-3} (3 = changed a tile last turn, so must move now).
With runners and prizes given, play starts at Gold's first turn.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from engines.base import Game, GameState, IllegalAction, Outcome, rng_from

from .board import (
    CENTRAL_STOPS,
    CIRCLES,
    EDGE_NAMES,
    ORIENTATIONS,
    RING,
    SPACES,
    STOPS,
    TILE_NUMBERS,
    Route,
    connections,
    parse_edge_id,
    routes_from,
)

SCHEMA = 2
PRIZES_TO_WIN = 5
PRIZE_COLOUR = {"gold": "orange", "teal": "plum"}
OWNER_OF_PRIZE = {prize: player for player, prize in PRIZE_COLOUR.items()}
OPPONENT = {"gold": "teal", "teal": "gold"}
# (reconstruction) The seed lists the ring as "Plum prize, blank circle, Orange prize, ...":
# the circle Teal chooses gets a Plum prize, then every other circle alternates.
FIRST_PRIZE_ON_CHOSEN_CIRCLE = "plum"
# (reconstruction) Two passes in a row (both players stuck) end the game as a draw.
PASSES_FOR_DRAW = 2
# (decision 2026-11-23) Also a draw: the same position for the third time, or this many turns in
# a row with no prize collected, so that no game goes on for ever.
REPEATS_FOR_DRAW = 3
TURNS_WITHOUT_PRIZE_FOR_DRAW = 100
WIN_REASON = f"all {PRIZES_TO_WIN} prizes collected"
DRAW_REASON = "both players passed in a row"
REPETITION_REASON = f"the same position occurred {REPEATS_FOR_DRAW} times"
NO_PRIZE_REASON = f"{TURNS_WITHOUT_PRIZE_FOR_DRAW} turns passed with no prize collected"

TURN_ACTIONS = ("move", "replace_move", "rotate", "replace", "pass")
# The turn actions that may end with the scramble (a pass is no turn played: nothing to end).
SCRAMBLING_ACTIONS = ("move", "replace_move", "rotate", "replace")
SCRAMBLE_SIZE = 4  # tiles in a scramble


@dataclass(kw_only=True)
class OctilesState(GameState):
    scramble_rule: bool
    gold_seat: int
    tiles: dict[str, list[int]]  # space -> [tile number, orientation]
    spare: int
    # runners | prizes | turn | marker, or scramble in games stored before the scramble joined the
    # turn (the end is ``outcome``)
    phase: str = "runners"
    turn_seat: int = 0  # whose turn it is (in marker/scramble: whose turn just happened)
    runners: dict[str, str | None] = field(default_factory=lambda: {"gold": None, "teal": None})
    prizes: dict[str, str] = field(default_factory=dict)  # circle -> "orange" | "plum"
    collected: dict[str, int] = field(default_factory=lambda: {"gold": 0, "teal": 0})
    marker: dict[str, str] | None = None  # {"colour": "orange"|"plum", "stop": id}
    pending_marker: dict[str, Any] | None = None  # {"colour": ..., "placer": seat}
    last_option: list[int] = field(default_factory=lambda: [0, 0])  # per seat, 0 = none / pass
    # The tile changed on the last turn, {"seat", "space", "tile", "option"}: an option-3 change
    # bars the opponent from changing that tile again at once.
    last_change: dict[str, Any] | None = None
    scramble_used: list[bool] = field(default_factory=lambda: [False, False])
    passes_in_row: int = 0
    turns_played: int = 0
    last_prize_turn: int = 0  # the turn (counted from 1) in which the last prize was collected
    # How often each position (board, spare, runners, marker, prizes, player to move) began a
    # turn since the last prize was collected (a position with other prizes never comes back).
    positions: dict[str, int] = field(default_factory=dict)
    schema: int = field(default=SCHEMA, compare=False)


# ---------------------------------------------------------------- public helpers


def colour_of(state: OctilesState, seat: int) -> str:
    """ "gold" or "teal"."""
    return "gold" if seat == state.gold_seat else "teal"


def seat_of(state: OctilesState, colour: str) -> int:
    return state.gold_seat if colour == "gold" else 1 - state.gold_seat


def prizes_collected(state: OctilesState) -> tuple[int, int]:
    """Prizes collected, by seat."""
    return state.collected[colour_of(state, 0)], state.collected[colour_of(state, 1)]


def prizes_left(state: OctilesState, colour: str) -> list[str]:
    """Circles still holding a prize of this player (in ring order)."""
    prize = PRIZE_COLOUR[colour]
    return [circle for circle in RING if state.prizes.get(circle) == prize]


def marker_owner(state: OctilesState) -> str | None:
    """The player ("gold"/"teal") whose marker is on the board, if any."""
    return OWNER_OF_PRIZE[state.marker["colour"]] if state.marker else None


def changed_space(state: OctilesState) -> str | None:
    """The space whose tile was rotated or replaced on the last turn."""
    return state.last_change["space"] if state.last_change else None


def restricted_space(state: OctilesState, seat: int) -> str | None:
    """The space ``seat`` may not rotate or replace with option 3 this turn (the opponent's last change)."""
    change = state.last_change
    if not change or change["option"] != 3 or change["seat"] == seat:
        return None
    for space, placed in state.tiles.items():
        if placed[0] == change["tile"]:
            return space
    return None


def scramble_available(state: OctilesState, seat: int) -> bool:
    """True if ``seat`` may still end a turn with the scramble (the rule is on, theirs unused)."""
    return state.scramble_rule and not state.scramble_used[seat]


def _on_turn(state: OctilesState, seat: int) -> bool:
    """True while ``seat`` is to play a turn (option 1, 2 or 3, or pass)."""
    return state.outcome is None and state.phase == "turn" and state.turn_seat == seat


def free_stops(state: OctilesState) -> list[str]:
    """Stops with no runner (where a marker may be placed)."""
    occupied = set(state.runners.values())
    return [stop for stop in STOPS if stop not in occupied]


def acting(state: OctilesState) -> tuple[int | None, str]:
    """Who must act now and why, in a sentence for players."""
    if state.outcome is not None:
        return None, "the game is over"
    if state.phase == "runners":
        return state.gold_seat, "set-up: Gold places the Gold and Teal runners on two central stops"
    if state.phase == "prizes":
        return seat_of(state, "teal"), "set-up: Teal chooses the circle for the first Plum prize"
    if state.phase == "marker":
        pending = cast(dict[str, Any], state.pending_marker)  # the marker phase always has one
        owner = OWNER_OF_PRIZE[pending["colour"]].title()
        return pending["placer"], f"place {owner}'s {pending['colour']} marker on a free stop"
    if state.phase == "scramble":
        return state.turn_seat, "scramble four tiles (once per game) or skip"
    colour = colour_of(state, state.turn_seat).title()
    return state.turn_seat, f"{colour}'s turn: move, replace and move, or change a tile"


def destination_problem(state: OctilesState, colour: str, end: str) -> str | None:
    """Why ``colour``'s runner may not end a move on ``end`` (None if it may)."""
    opponent = OPPONENT[colour]
    if end in CIRCLES:
        prize = state.prizes.get(end)
        if prize is None:
            return f"circle {end} is empty: you may only stop on a circle holding one of your prizes"
        if prize != PRIZE_COLOUR[colour]:
            return f"circle {end} holds {opponent.title()}'s {prize} prize"
        if marker_owner(state) == colour:
            return (
                f"your {PRIZE_COLOUR[colour]} marker is on {cast(dict[str, str], state.marker)['stop']}: "
                "reach it before collecting a prize"
            )
        return None
    if state.runners[opponent] == end:
        return f"stop {end} is occupied by {opponent.title()}'s runner"
    if state.marker and state.marker["stop"] == end and marker_owner(state) == opponent:
        return f"stop {end} holds {opponent.title()}'s {state.marker['colour']} marker"
    return None


def legal_routes(
    state: OctilesState, seat: int, tiles: Mapping[str, Any] | None = None, crossing: str | None = None
) -> dict[str, list[Route]]:
    """Destinations of ``seat``'s runner with every route to each (option 2 on the current tiles).

    ``tiles`` replaces the board (to try a change first) and ``crossing`` keeps only routes
    through that space (option 1).
    """
    colour = colour_of(state, seat)
    location = state.runners[colour]
    if location is None:
        return {}
    found: dict[str, list[Route]] = {}
    for route in routes_from(state.tiles if tiles is None else tiles, location):
        if route.end == location or (crossing is not None and crossing not in route.spaces):
            continue
        if destination_problem(state, colour, route.end) is None:
            found.setdefault(route.end, []).append(route)
    return found


def legal_destinations(state: OctilesState, seat: int) -> dict[str, list[Route]]:
    """Option 2 destinations for ``seat`` (empty unless it is their turn)."""
    if not _on_turn(state, seat):
        return {}
    return legal_routes(state, seat)


def replaced_tiles(state: OctilesState, space: str, orientation: int) -> dict[str, list[int]]:
    """The board after putting the spare on ``space`` in ``orientation``."""
    tiles = dict(state.tiles)
    tiles[space] = [state.spare, orientation]
    return tiles


def _move_actions(kind: str, destinations: Mapping[str, list[Route]], extra: Mapping[str, Any]) -> list[dict[str, Any]]:
    actions = []
    for end, routes in destinations.items():
        if len(routes) == 1:
            actions.append({"type": kind, **extra, "to": end})
        else:
            actions.extend({"type": kind, **extra, "to": end, "via": route.via} for route in routes)
    return actions


def change_options(state: OctilesState, seat: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Option 3 actions (rotations, replacements) legal for ``seat`` now."""
    if not _on_turn(state, seat) or state.last_option[seat] == 3:
        return [], []
    barred = restricted_space(state, seat)
    rotations: list[dict[str, Any]] = []
    replacements: list[dict[str, Any]] = []
    for space in SPACES:
        if space == barred:
            continue
        tile, current = state.tiles[space]
        look = connections(tile, current)
        rotations.extend(
            {"type": "rotate", "space": space, "orientation": orientation}
            for orientation in ORIENTATIONS
            if connections(tile, orientation) != look
        )
        replacements.extend(
            {"type": "replace", "space": space, "orientation": orientation} for orientation in ORIENTATIONS
        )
    return rotations, replacements


def replace_move_actions(state: OctilesState, seat: int) -> list[dict[str, Any]]:
    """Option 1 actions legal for ``seat`` now."""
    if not _on_turn(state, seat):
        return []
    actions = []
    for space in SPACES:
        for orientation in ORIENTATIONS:
            destinations = legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
            actions.extend(_move_actions("replace_move", destinations, {"space": space, "orientation": orientation}))
    return actions


def turn_actions(state: OctilesState, seat: int) -> list[dict[str, Any]]:
    """Every option-1/2/3 action for ``seat`` (no pass)."""
    rotations, replacements = change_options(state, seat)
    return (
        _move_actions("move", legal_destinations(state, seat), {})
        + replace_move_actions(state, seat)
        + rotations
        + replacements
    )


def has_turn_option(state: OctilesState, seat: int) -> bool:
    """True if ``seat`` has any option 1, 2 or 3 (otherwise they must pass). Stops at the first found."""
    if not _on_turn(state, seat):
        return False
    if legal_destinations(state, seat) or any(change_options(state, seat)):
        return True
    return any(
        legal_routes(state, seat, replaced_tiles(state, space, orientation), crossing=space)
        for space in SPACES
        for orientation in ORIENTATIONS
    )


# ---------------------------------------------------------------- stored games of schema 1


def _from_schema_1(old: dict[str, Any]) -> dict[str, Any]:
    """A state dumped by schema 1 (phase "over", winner, end_reason, turn_number, an English log,
    last_route / last_scramble kept for the picture) as schema 2 data.

    Schema 1 kept no action count; ``ply`` is rebuilt from ``turn_number`` and what the state
    shows (set-up, the first marker, scramble decisions, a resignation). Marker placements after
    the first and scramble decisions before a used scramble left no trace, so a long game with
    those may get a ply a little low; nothing in the rules depends on it.
    """
    data = {key: value for key, value in old.items() if key not in _SCHEMA_1_ONLY}
    data["players"] = 2
    data["events"] = []
    if old.get("last_change"):
        data["last_change"] = {key: old["last_change"][key] for key in ("seat", "space", "tile", "option")}
    over = old.get("phase") == "over"
    phase = _phase_before_the_end(old) if over else old["phase"]
    data["phase"] = phase
    data["ply"] = _ply_of_schema_1(old, phase) + (1 if over and _resigned(old) else 0)
    data["outcome"] = _outcome_of_schema_1(old) if over else None
    return data


_SCHEMA_1_ONLY = ("winner", "end_reason", "turn_number", "log", "last_route", "last_scramble", "schema_version")


def _resigned(old: Mapping[str, Any]) -> bool:
    return "resigned" in str(old.get("end_reason", ""))


def _collected_by_seat(old: Mapping[str, Any]) -> tuple[float, float]:
    gold = old["gold_seat"]
    collected = old["collected"]
    return float(collected["gold" if gold == 0 else "teal"]), float(collected["gold" if gold == 1 else "teal"])


def _outcome_of_schema_1(old: Mapping[str, Any]) -> dict[str, Any]:
    scores = list(_collected_by_seat(old))
    winner = old.get("winner")
    if winner is None:
        return {"ranks": [1, 1], "scores": scores, "reason": DRAW_REASON, "teams": None}
    ranks = [1 if seat == winner else 2 for seat in (0, 1)]
    reason = "resignation" if _resigned(old) else WIN_REASON
    return {"ranks": ranks, "scores": scores, "reason": reason, "teams": None}


def _phase_before_the_end(old: Mapping[str, Any]) -> str:
    """The phase a finished schema-1 game was in when it ended (schema 1 overwrote it with "over")."""
    if not _resigned(old):
        return "turn"  # a winning move or the second pass ends the game during a turn
    if old["runners"].get("gold") is None:
        return "runners"
    if not old["prizes"] and not any(old["collected"].values()):
        return "prizes"
    if old.get("pending_marker"):
        return "marker"
    mover = old["turn_seat"]
    # After a turn and before the next one (the scramble offer) the last turn is the turn seat's own.
    last = [old.get("last_route"), old.get("last_change")]
    if any(item and item.get("seat") == mover for item in last):
        return "scramble"
    return "turn"


def _ply_of_schema_1(old: Mapping[str, Any], phase: str) -> int:
    """Actions played to reach a schema-1 state (before a resignation)."""
    if phase == "runners":
        return 0
    if phase == "prizes":
        return 1
    turns = int(old.get("turn_number", 0))
    collected = sum(old["collected"].values())
    ended_in_turn = old.get("phase") == "over" and not _resigned(old)  # a win or the second pass
    # whose turn was the latest: schema 1 moves on to the next seat only after a turn is settled
    last_mover = old["turn_seat"] if phase in ("marker", "scramble") or ended_in_turn else 1 - old["turn_seat"]
    ply = 2 + turns
    first_marker_waiting = phase == "marker" and collected == 1 and (old.get("last_route") or {}).get("end") in CIRCLES
    ply += 1 if collected and not first_marker_waiting else 0
    if old.get("scramble_rule"):
        passes = int(old.get("passes_in_row", 0))
        for seat in (0, 1):
            if old["scramble_used"][seat]:
                ply += 1  # at least the scramble itself (earlier skips are not known)
                continue
            offers = (turns + 1) // 2 if seat == old["gold_seat"] else turns // 2  # Gold plays the odd turns
            offers -= sum(1 for k in range(passes) if (last_mover + k) % 2 == seat)  # no offer after a pass
            if seat == last_mover and (phase in ("marker", "scramble") or ended_in_turn) and not passes:
                offers -= 1  # the latest turn's offer is still to come (or never came: the game ended)
            ply += max(offers, 0)
    return ply


def _short_move(text: str) -> dict[str, Any] | None:
    """The move a short notation writes (``D1``, ``D1 via b2.NE``), or None."""
    words = text.split()
    if not words or (words[0] not in STOPS and words[0] not in CIRCLES):
        return None
    if len(words) == 1:
        return {"type": "move", "to": words[0]}
    if len(words) == 3 and words[1] == "via" and "=" not in words[2]:
        return {"type": "move", "to": words[0], "via": words[2]}
    return None


# ---------------------------------------------------------------- the engine

_MOVE = {"to": str, "via?": str}
_TILE = {"space": str, "orientation": int}
_SCRAMBLE = {"scramble?": list[str]}  # the turn's optional last step: four tile spaces


class OctilesEngine(Game[OctilesState]):
    name = "octiles"
    title = "Octiles Scavenger Hunt"
    min_players = 2
    max_players = 2
    state_class = OctilesState
    schema = SCHEMA
    migrations: ClassVar = {1: _from_schema_1}
    history: ClassVar = ("turns_played", "last_prize_turn", "positions")
    actions: ClassVar = {
        "place_runners": {"gold": str, "teal": str},
        "first_circle": {"circle": str},
        "move": {**_MOVE, **_SCRAMBLE},
        "replace_move": {**_TILE, **_MOVE, **_SCRAMBLE},
        "rotate": {**_TILE, **_SCRAMBLE},
        "replace": {**_TILE, **_SCRAMBLE},
        "pass": {},
        "place_marker": {"stop": str},
        "scramble": {"tiles": list[str]},  # the old scramble phase only
        "skip_scramble": {},  # the old scramble phase only
    }

    # -- creation
    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> OctilesState:
        if players != 2:
            raise ValueError("Octiles Scavenger Hunt is for exactly two players")
        options = dict(options or {})
        layout = dict(options.get("layout") or {})
        rng = rng_from(seed, "setup")
        order = list(TILE_NUMBERS)
        rng.shuffle(order)
        tiles = {space: [tile, rng.randrange(8)] for space, tile in zip(SPACES, order, strict=False)}
        spare = order[-1]
        gold_seat = rng.randrange(2)
        if "tiles" in layout:
            tiles = {space: [int(layout["tiles"][space][0]), int(layout["tiles"][space][1]) % 8] for space in SPACES}
            spare = int(layout["spare"])
            if sorted([placed[0] for placed in tiles.values()] + [spare]) != list(TILE_NUMBERS):
                raise ValueError("layout tiles and spare must be the 18 tiles, each once")
        gold_seat = int(layout.get("gold_seat", gold_seat))
        state = OctilesState(
            seed=seed,
            players=players,
            scramble_rule=bool(options.get("scramble", False)),
            gold_seat=gold_seat,
            tiles=tiles,
            spare=spare,
            turn_seat=gold_seat,
        )
        state.record("colours", None, gold=gold_seat, teal=1 - gold_seat)
        if "runners" in layout:
            state.runners = {"gold": layout["runners"]["gold"], "teal": layout["runners"]["teal"]}
            state.phase = "prizes"
        if "prizes" in layout:
            state.prizes = {circle: colour for circle, colour in layout["prizes"].items()}
        elif "first_circle" in layout:
            state.prizes = _prizes_from(layout["first_circle"])
        if state.phase == "prizes" and ("prizes" in layout or "first_circle" in layout):
            state.phase = "turn"
        state.collected.update({k: int(v) for k, v in layout.get("collected", {}).items()})
        for colour, option in layout.get("last_option", {}).items():
            state.last_option[seat_of(state, colour)] = int(option)
        if layout.get("marker"):
            state.marker = {"colour": layout["marker"]["colour"], "stop": layout["marker"]["stop"]}
        if state.phase == "turn":
            _count_position(state)  # the position at the start of the first turn counts for repetition
        return state

    # -- queries
    def to_act(self, state: OctilesState) -> list[int]:
        seat, _ = acting(state)
        return [] if seat is None else [seat]

    def not_your_turn(self, state: OctilesState, seat: int) -> str:
        return f"it is not your turn: {acting(state)[1]}"

    def scores(self, state: OctilesState) -> tuple[float, ...]:
        return tuple(float(n) for n in prizes_collected(state))

    def legal_actions(self, state: OctilesState, seat: int) -> list[dict[str, Any]]:
        """Everything ``apply`` accepts from ``seat`` now, except resign (always accepted) and the
        scramble a turn may end with: while :func:`scramble_available`, any listed move,
        replace_move, rotate or replace may also carry ``"scramble": [four spaces]`` (listing every
        choice of four would multiply the turn's actions by 2380)."""
        if self.to_act(state) != [seat]:
            return []
        if state.phase == "runners":
            return [
                {"type": "place_runners", "gold": gold, "teal": teal}
                for gold, teal in itertools.permutations(CENTRAL_STOPS, 2)
            ]
        if state.phase == "prizes":
            return [{"type": "first_circle", "circle": circle} for circle in RING]
        if state.phase == "marker":
            return [{"type": "place_marker", "stop": stop} for stop in free_stops(state)]
        if state.phase == "scramble":
            return [{"type": "skip_scramble"}] + [
                {"type": "scramble", "tiles": list(four)} for four in itertools.combinations(SPACES, 4)
            ]
        actions = turn_actions(state, seat)
        return actions or [{"type": "pass"}]

    # -- set-up
    # -- notation (game records)
    def notation(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> str:
        """A plain move as /octiles move takes it: ``D1`` or ``D1 via b2.NE``; the rest
        (a scramble too) keeps the generic form."""
        if action.get("type") == "move" and isinstance(action.get("to"), str):
            short = " ".join([action["to"], *(["via", action["via"]] if isinstance(action.get("via"), str) else [])])
            if _short_move(short) == action:
                return short
        return super().notation(state, seat, action)

    def parse_notation(self, state: OctilesState, seat: int, text: str) -> dict[str, Any]:
        return _short_move(text) or super().parse_notation(state, seat, text)

    def play_place_runners(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "runners")
        gold, teal = action["gold"].strip().upper(), action["teal"].strip().upper()
        for stop in (gold, teal):
            if stop not in CENTRAL_STOPS:
                raise IllegalAction(
                    f"runners start on a central stop ({', '.join(CENTRAL_STOPS)}), not {stop[:20] or '?'}"
                )
        if gold == teal:
            raise IllegalAction("the two runners need different central stops")
        state.runners = {"gold": gold, "teal": teal}
        state.phase = "prizes"
        state.record("runners", seat, gold=gold, teal=teal)

    def play_first_circle(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "prizes")
        circle = action["circle"].strip().upper()
        if circle not in CIRCLES:
            raise IllegalAction(f"{circle[:20] or '?'} is not a circle (circles: {', '.join(RING)})")
        state.prizes = _prizes_from(circle)
        state.phase, state.turn_seat = "turn", state.gold_seat
        plum, orange = (prizes_left(state, colour) for colour in ("teal", "gold"))
        state.record("prizes", seat, circle=circle, plum=plum, orange=orange)
        _count_position(state)  # the position at the start of the first turn counts for repetition

    # -- turn options
    def play_move(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "turn")
        scramble = _requested_scramble(state, seat, action)
        route = _pick_route(_routes_or_reason(state, seat, state.tiles, None, action), action)
        state.last_change = None
        state.record("move", seat, colour=colour_of(state, seat), **route.as_dict())
        self._finish_move(state, seat, route, option=2, scramble=scramble)

    def play_replace_move(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "turn")
        scramble = _requested_scramble(state, seat, action)
        space, orientation = _space_and_orientation(action)
        tiles = replaced_tiles(state, space, orientation)
        route = _pick_route(_routes_or_reason(state, seat, tiles, space, action), action)
        removed = _put_spare(state, space, orientation)
        state.last_change = {"seat": seat, "space": space, "tile": state.tiles[space][0], "option": 1}
        state.record(
            "replace_move",
            seat,
            colour=colour_of(state, seat),
            space=space,
            tile=state.tiles[space][0],
            removed=removed,
            orientation=orientation,
            **route.as_dict(),
        )
        self._finish_move(state, seat, route, option=1, scramble=scramble)

    def play_rotate(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "turn")
        scramble = _requested_scramble(state, seat, action)
        space, orientation = _space_and_orientation(action)
        _check_change(state, seat, space)
        tile, current = state.tiles[space]
        if connections(tile, orientation) == connections(tile, current):
            raise IllegalAction(f"turning tile {tile} on {space} to orientation {orientation} changes nothing")
        state.tiles[space] = [tile, orientation]
        state.last_change = {"seat": seat, "space": space, "tile": tile, "option": 3}
        state.record(
            "rotate", seat, colour=colour_of(state, seat), space=space, tile=tile, orientation=orientation, was=current
        )
        self._finish_change(state, seat, scramble)

    def play_replace(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "turn")
        scramble = _requested_scramble(state, seat, action)
        space, orientation = _space_and_orientation(action)
        _check_change(state, seat, space)
        removed = _put_spare(state, space, orientation)
        tile = state.tiles[space][0]
        state.last_change = {"seat": seat, "space": space, "tile": tile, "option": 3}
        state.record(
            "replace",
            seat,
            colour=colour_of(state, seat),
            space=space,
            tile=tile,
            removed=removed,
            orientation=orientation,
        )
        self._finish_change(state, seat, scramble)

    def play_pass(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "turn")
        if has_turn_option(state, seat):
            raise IllegalAction("you can still move or change a tile, so you may not pass")
        state.last_option[seat] = 0
        state.last_change = None
        state.passes_in_row += 1
        state.record("pass", seat, colour=colour_of(state, seat))
        if state.passes_in_row >= PASSES_FOR_DRAW:
            self.finish(state, Outcome((1, 1), self.scores(state), DRAW_REASON))
            return
        self._next_turn(state)

    # -- markers, and the scramble phase of games stored before the scramble joined the turn
    def play_place_marker(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "marker")
        stop = action["stop"].strip().upper()
        if stop not in STOPS:
            raise IllegalAction(f"{stop[:20] or '?'} is not a stop")
        if stop not in free_stops(state):
            raise IllegalAction(f"stop {stop} has a runner on it: choose a free stop")
        colour = cast(dict[str, Any], state.pending_marker)["colour"]
        state.marker = {"colour": colour, "stop": stop}
        state.pending_marker = None
        state.record("marker", seat, stop=stop, colour=colour, owner=seat_of(state, OWNER_OF_PRIZE[colour]))
        # The turn settled its scramble before the marker (a game stored by an earlier version in
        # this phase loses the mover's scramble offer of that one turn, not the scramble itself).
        self._next_turn(state)

    def play_scramble(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "scramble")
        _scramble(state, seat, _scramble_spaces(state, seat, action["tiles"]))
        self._next_turn(state)

    def play_skip_scramble(self, state: OctilesState, seat: int, action: Mapping[str, Any]) -> None:
        _expect(state, "scramble")
        state.record("skip_scramble", seat)
        self._next_turn(state)

    def when_time_runs_out(self, state: OctilesState, seat: int) -> dict[str, Any] | None:
        """In a game stored at the old scramble offer, not answering it means no scramble (new turns
        carry their optional scramble, so nothing else is an optional question)."""
        return {"type": "skip_scramble"} if state.phase == "scramble" and seat == state.turn_seat else None

    # -- what follows a turn
    def _finish_move(
        self, state: OctilesState, seat: int, route: Route, option: int, scramble: list[str] | None
    ) -> None:
        state.runners[colour_of(state, seat)] = route.end
        state.last_option[seat] = option
        state.passes_in_row = 0
        if route.end in CIRCLES:
            self._collect(state, seat, route.end)
            if state.outcome is not None:
                return  # the winning move ends the game: nothing is left to scramble for
        else:
            _check_marker_reached(state, seat, route.end)
        self._end_turn(state, seat, scramble)

    def _collect(self, state: OctilesState, seat: int, circle: str) -> None:
        """``seat`` collects the prize on ``circle``: the win, or the first marker's placement."""
        colour = colour_of(state, seat)
        del state.prizes[circle]
        first_prize = sum(state.collected.values()) == 0
        state.collected[colour] += 1
        state.last_prize_turn, state.positions = state.turns_played + 1, {}
        state.record("collect", seat, circle=circle, prize=PRIZE_COLOUR[colour], count=state.collected[colour])
        if state.collected[colour] >= PRIZES_TO_WIN:
            ranks = tuple(1 if other == seat else 2 for other in range(state.players))
            self.finish(state, Outcome(ranks, self.scores(state), WIN_REASON))
        elif first_prize:
            state.pending_marker = {"colour": PRIZE_COLOUR[colour], "placer": 1 - seat}

    def _finish_change(self, state: OctilesState, seat: int, scramble: list[str] | None) -> None:
        state.last_option[seat] = 3
        state.passes_in_row = 0
        self._end_turn(state, seat, scramble)

    def _end_turn(self, state: OctilesState, seat: int, scramble: list[str] | None) -> None:
        """The turn's optional last step, the scramble; then the marker placement the move set off
        (the placer sees the scrambled board) or the next turn."""
        if scramble:
            _scramble(state, seat, scramble)
        if state.pending_marker:
            state.phase = "marker"
            return
        self._next_turn(state)

    def _next_turn(self, state: OctilesState) -> None:
        state.phase = "turn"
        state.turn_seat = 1 - state.turn_seat
        state.turns_played += 1
        if _count_position(state) >= REPEATS_FOR_DRAW:
            self.finish(state, Outcome((1, 1), self.scores(state), REPETITION_REASON))
        elif state.turns_played - state.last_prize_turn >= TURNS_WITHOUT_PRIZE_FOR_DRAW:
            self.finish(state, Outcome((1, 1), self.scores(state), NO_PRIZE_REASON))


# ---------------------------------------------------------------- rule helpers


def _count_position(state: OctilesState) -> int:
    """Count one more occurrence of the position that begins a turn; how many times it has occurred."""
    position = _position_key(state)
    state.positions[position] = state.positions.get(position, 0) + 1
    return state.positions[position]


def _position_key(state: OctilesState) -> str:
    """A short fingerprint of what repeats when a position repeats."""
    position = [state.tiles, state.spare, state.runners, state.marker, state.prizes, state.turn_seat]
    return hashlib.blake2b(json.dumps(position, sort_keys=True).encode(), digest_size=8).hexdigest()


def _expect(state: OctilesState, phase: str) -> None:
    if state.phase != phase:
        raise IllegalAction(f"that is not possible now: {acting(state)[1]}")


def _prizes_from(first_circle: str) -> dict[str, str]:
    start = RING.index(first_circle.upper())
    other = "orange" if FIRST_PRIZE_ON_CHOSEN_CIRCLE == "plum" else "plum"
    return {
        RING[(start + 2 * k) % len(RING)]: (FIRST_PRIZE_ON_CHOSEN_CIRCLE if k % 2 == 0 else other)
        for k in range(len(RING) // 2)
    }


def _put_spare(state: OctilesState, space: str, orientation: int) -> int:
    """Put the spare on ``space``; the tile taken off becomes the spare (returned)."""
    removed = state.tiles[space][0]
    state.tiles[space] = [state.spare, orientation]
    state.spare = removed
    return removed


def _space_and_orientation(action: Mapping[str, Any]) -> tuple[str, int]:
    space = action["space"].strip().lower()
    if space not in SPACES:
        raise IllegalAction(f"{space[:20] or '?'} is not a tile space (spaces: {', '.join(SPACES)})")
    orientation = action["orientation"]
    if not 0 <= orientation <= 7:
        raise IllegalAction("orientation must be a whole number from 0 to 7 (steps of 45 degrees clockwise)")
    return space, orientation


def _routes_or_reason(
    state: OctilesState, seat: int, tiles: Mapping[str, Any], crossing: str | None, action: Mapping[str, Any]
) -> list[Route]:
    """The routes to the action's destination on ``tiles`` (crossing ``crossing``), or why there are none."""
    target = action["to"].strip().upper()
    if target not in CIRCLES and target not in STOPS:
        raise IllegalAction(f"{target[:20] or '?'} is not a stop or circle")
    colour = colour_of(state, seat)
    start = state.runners[colour]
    if target == start:
        raise IllegalAction(f"your runner is already on {target}: a move must end somewhere else")
    routes = [route for route in routes_from(tiles, cast(str, start)) if route.end == target]  # runners placed
    if not routes:
        raise IllegalAction(f"no path leads from {start} to {target}")
    if crossing is not None:
        routes = [route for route in routes if crossing in route.spaces]
        if not routes:
            raise IllegalAction(f"the move to {target} must cross the new tile on {crossing}")
    problem = destination_problem(state, colour, target)
    if problem:
        raise IllegalAction(problem)
    return routes


def _check_marker_reached(state: OctilesState, seat: int, stop: str) -> None:
    """On reaching their own marker, ``seat`` removes it and is to place the opponent's."""
    colour = colour_of(state, seat)
    if state.marker and state.marker["stop"] == stop and marker_owner(state) == colour:
        state.record("marker_reached", seat, stop=stop, colour=state.marker["colour"])
        state.marker = None
        state.pending_marker = {"colour": PRIZE_COLOUR[OPPONENT[colour]], "placer": seat}


def _requested_scramble(state: OctilesState, seat: int, action: Mapping[str, Any]) -> list[str] | None:
    """The four spaces a turn action asks to scramble at its end (None: no scramble), or why not."""
    return _scramble_spaces(state, seat, action["scramble"]) if "scramble" in action else None


def _scramble_spaces(state: OctilesState, seat: int, chosen: list[str]) -> list[str]:
    """``chosen`` as four tile spaces ``seat`` may scramble now, or a refusal that teaches the rule."""
    if not state.scramble_rule:
        raise IllegalAction("this game is played without the scramble rule")
    if state.scramble_used[seat]:
        raise IllegalAction("you already used your scramble: each player has one per game")
    spaces = [space.strip().lower() for space in chosen]
    unknown = [space for space in spaces if space not in SPACES]
    if unknown:
        raise IllegalAction(f"{unknown[0][:20] or '?'} is not a tile space (spaces: {', '.join(SPACES)})")
    if len(spaces) != SCRAMBLE_SIZE or len(set(spaces)) != SCRAMBLE_SIZE:
        raise IllegalAction("a scramble takes exactly four different tile spaces")
    return spaces


def _scramble(state: OctilesState, seat: int, spaces: list[str]) -> None:
    """Shuffle the tiles on ``spaces`` back onto them in random orientations (``seat``'s one scramble)."""
    rng = rng_from(state.seed, "scramble", state.ply, seat)
    shuffled = [state.tiles[space][0] for space in spaces]
    rng.shuffle(shuffled)
    for space, tile in zip(spaces, shuffled, strict=True):
        state.tiles[space] = [tile, rng.randrange(8)]
    state.scramble_used[seat] = True
    state.record("scramble", seat, spaces=spaces, placed=[list(state.tiles[space]) for space in spaces])


def _check_change(state: OctilesState, seat: int, space: str) -> None:
    if state.last_option[seat] == 3:
        raise IllegalAction("you changed a tile without moving last turn: this turn you must move your runner")
    if space == restricted_space(state, seat):
        raise IllegalAction(
            f"your opponent just changed the tile on {space}: you may not rotate or replace it "
            "without moving this turn (option 1 on it is allowed)"
        )


def _pick_route(routes: list[Route], action: Mapping[str, Any]) -> Route:
    via = action.get("via")
    if via is None:
        if len(routes) > 1:
            options = " or ".join(route.via for route in routes)
            raise IllegalAction(f"two routes lead to {routes[0].end}: say which edge to leave by ({options})")
        return routes[0]
    parsed = parse_edge_id(via)
    wanted = f"{parsed[0]}.{EDGE_NAMES[parsed[1]]}" if parsed else None
    for route in routes:
        if route.via == wanted:
            return route
    raise IllegalAction(f"no route to {routes[0].end} leaves by {via[:20]}")
