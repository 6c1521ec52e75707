"""The Octiles board as data: tile spaces, stops, circles, the 18 tiles, and path tracing.

Everything comes from ``board.json`` (copied from the shared board data): which tile edge
touches which other edge, stop or circle, the ring order of the circles and drawing centres.
Edges are numbered 0=N, 1=NE ... 7=NW clockwise; a tile in orientation k shows its printed
edge e on board edge (e + k) mod 8.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, cast

BOARD_DATA = json.loads(Path(__file__).with_name("board.json").read_text(encoding="utf-8"))

EDGE_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
EDGE_INDEX = {name: index for index, name in enumerate(EDGE_NAMES)}
ORIENTATIONS = range(8)

SPACES: tuple[str, ...] = tuple(tile["id"] for tile in BOARD_DATA["tiles"])
SPACE_CENTRES: dict[str, tuple[float, float]] = {tile["id"]: tuple(tile["center"]) for tile in BOARD_DATA["tiles"]}
STOPS: tuple[str, ...] = tuple(stop["id"] for stop in BOARD_DATA["stops"])
STOP_CENTRES: dict[str, tuple[float, float]] = {stop["id"]: tuple(stop["center"]) for stop in BOARD_DATA["stops"]}
CENTRAL_STOPS: tuple[str, ...] = tuple(stop["id"] for stop in BOARD_DATA["stops"] if stop["central"])
RING: tuple[str, ...] = tuple(
    circle["id"] for circle in sorted(BOARD_DATA["circles"], key=lambda circle: circle["ring_index"])
)
CIRCLES = frozenset(RING)
CIRCLE_CENTRES: dict[str, tuple[float, float]] = {
    circle["id"]: tuple(circle["suggested_render_pos"]) for circle in BOARD_DATA["circles"]
}
# The 18 tiles: tile number -> the four printed edge pairs.
TILE_PAIRS: dict[int, tuple[tuple[int, int], ...]] = {
    entry["tile"]: tuple((a, b) for a, b in entry["pairs"]) for entry in BOARD_DATA["tile_set"]
}
TILE_NUMBERS: tuple[int, ...] = tuple(sorted(TILE_PAIRS))


class Neighbour(NamedTuple):
    """What a tile edge touches: kind is "tile" (with its edge), "stop" or "circle"."""

    kind: str
    ident: str
    edge: int | None = None
    printed: bool = False


def _neighbours() -> dict[tuple[str, int], Neighbour]:
    table = {}
    for space, edges in BOARD_DATA["tile_edges"].items():
        for edge_name, target in edges.items():
            edge = EDGE_INDEX[edge_name]
            if target["kind"] == "tile":
                table[(space, edge)] = Neighbour(
                    "tile", target["id"], EDGE_INDEX[target["edge"]], bool(target.get("printed_on_board"))
                )
            else:
                table[(space, edge)] = Neighbour(target["kind"], target["id"])
    return table


NEIGHBOUR: dict[tuple[str, int], Neighbour] = _neighbours()

# Lines printed on the board between tile edges that do not touch (each listed once).
PRINTED_LINES: tuple[tuple[tuple[str, int], tuple[str, int]], ...] = tuple(
    ((space, edge), (n.ident, cast(int, n.edge)))  # a tile's neighbour always names its edge
    for (space, edge), n in sorted(NEIGHBOUR.items())
    if n.kind == "tile" and n.printed and (space, edge) < (n.ident, n.edge)
)


def _exits() -> dict[str, tuple[tuple[str, int], ...]]:
    exits: dict[str, list[tuple[str, int]]] = {location: [] for location in STOPS + RING}
    for (space, edge), n in sorted(NEIGHBOUR.items(), key=lambda item: (SPACES.index(item[0][0]), item[0][1])):
        if n.kind in ("stop", "circle"):
            exits[n.ident].append((space, edge))
    return {location: tuple(edges) for location, edges in exits.items()}


# The tile edges a runner can leave each stop or circle by (a circle has exactly one).
EXITS: dict[str, tuple[tuple[str, int], ...]] = _exits()


@cache
def connections(tile: int, orientation: int) -> tuple[int, ...]:
    """For a placed tile: ``result[board_edge]`` is the board edge the path leads out of."""
    joined = [0] * 8
    for a, b in TILE_PAIRS[tile]:
        a, b = (a + orientation) % 8, (b + orientation) % 8
        joined[a], joined[b] = b, a
    return tuple(joined)


@cache
def distinct_orientations(tile: int) -> tuple[int, ...]:
    """One orientation per different look of the tile (symmetric tiles repeat themselves)."""
    seen: dict[tuple[int, ...], int] = {}
    for orientation in ORIENTATIONS:
        seen.setdefault(connections(tile, orientation), orientation)
    return tuple(sorted(seen.values()))


def edge_id(space: str, edge: int) -> str:
    """A tile edge written for players: ``"c3.NE"``."""
    return f"{space}.{EDGE_NAMES[edge]}"


def parse_edge_id(text: str) -> tuple[str, int] | None:
    space, _, name = str(text).partition(".")
    space, name = space.strip().lower(), name.strip().upper()
    if space not in SPACE_CENTRES or name not in EDGE_INDEX:
        return None
    return space, EDGE_INDEX[name]


class Route(NamedTuple):
    """A runner's path: from a stop or circle, out by ``via``, through ``steps``, to ``end``.

    ``steps`` are ``(space, board edge in, board edge out)`` in order; the same space may appear
    twice when the route crosses one tile on two of its paths.
    """

    start: str
    via: str
    end: str
    steps: tuple[tuple[str, int, int], ...]

    @property
    def spaces(self) -> tuple[str, ...]:
        return tuple(step[0] for step in self.steps)

    def as_dict(self) -> dict[str, Any]:
        return {"start": self.start, "via": self.via, "end": self.end, "steps": [list(s) for s in self.steps]}


Tiles = Mapping[str, Sequence[int]]  # space -> (tile number, orientation)


def trace(tiles: Tiles, start: str, space: str, edge: int) -> Route | None:
    """Follow the path entering ``space`` at ``edge`` to the first stop or circle.

    None if it runs into an empty space. Paths are pairings of edges, so a trace from a stop
    or circle always ends at another stop or circle (or back at the start): it cannot loop.
    """
    steps = []
    current_space, current_edge = space, edge
    for _ in range(4 * len(SPACES) + 1):
        placed = tiles.get(current_space)
        if placed is None:
            return None
        out_edge = connections(placed[0], placed[1])[current_edge]
        steps.append((current_space, current_edge, out_edge))
        neighbour = NEIGHBOUR[(current_space, out_edge)]
        if neighbour.kind == "tile":
            current_space, current_edge = neighbour.ident, cast(int, neighbour.edge)
            continue
        return Route(start, edge_id(space, edge), neighbour.ident, tuple(steps))
    raise AssertionError("a path cannot loop: the board data is inconsistent")


def routes_from(tiles: Tiles, location: str) -> list[Route]:
    """Every route leaving ``location`` (a stop or circle), one per tile edge touching it."""
    routes = []
    for space, edge in EXITS[location]:
        route = trace(tiles, location, space, edge)
        if route is not None:
            routes.append(route)
    return routes


def move_graph(tiles: Tiles) -> dict[str, tuple[str, ...]]:
    """Where one move can go from each stop and circle, ignoring runners, prizes and markers."""
    return {
        location: tuple(route.end for route in routes_from(tiles, location) if route.end != location)
        for location in STOPS + RING
    }
