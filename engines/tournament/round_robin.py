"""Round-robin by the circle method: everyone meets everyone once (twice with ``double``, the
second time with the sides swapped).

The players sit in two rows facing each other, seed 1 fixed at the head; after each round the
others move one seat round the circle. With an odd count the head is an empty seat instead, and
whoever faces it has the round's bye. The first player alternates: the head moves first in every
other round, and the other tables take turns, the top row first at odd tables, the bottom row
at even ones. With an odd count everyone then alternates in every game; with an even count all
but for the fewest possible repeats (n - 2 in all), and nobody has one side more than once more
than the other.
"""

from __future__ import annotations

from .model import BOTH_FORFEIT, BYE, FIRST_FORFEITS, SECOND_FORFEITS, Pairing, Tournament


def schedule(seeds: int) -> list[list[tuple[int | None, int | None]]]:
    """Every round's (first, second) seed pairs, everyone meeting once; None is an odd count's empty seat."""
    seats: list[int | None] = list(range(1, seeds + 1))
    if seeds % 2:
        seats.insert(0, None)
    count = len(seats)
    rounds = []
    for number in range(count - 1):
        pairs = []
        for table in range(count // 2):
            top, bottom = seats[table], seats[count - 1 - table]
            top_first = number % 2 == 0 if table == 0 else table % 2 == 1
            pairs.append((top, bottom) if top_first else (bottom, top))
        rounds.append(pairs)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def pairings(tournament: Tournament, number: int) -> tuple[Pairing, ...]:
    """Round ``number``'s pairings: the games at the tables in order, then the bye; a game with a
    withdrawn player is already scored as their forfeit."""
    once = schedule(len(tournament.players))
    pairs = once[(number - 1) % len(once)]
    if number > len(once):  # the second cycle of a double round-robin: sides swapped
        pairs = [(second, first) for first, second in pairs]
    by_seed = {player.seed: player.id for player in tournament.players}
    games = [(by_seed[a], by_seed[b]) for a, b in pairs if a is not None and b is not None]
    made = [Pairing(table, a, b, _forfeit(tournament, a, b)) for table, (a, b) in enumerate(games, 1)]
    byes = [by_seed[a if a is not None else b] for a, b in pairs if a is None or b is None]  # type: ignore[index]
    made += [Pairing(len(made) + 1, player, None, BYE) for player in byes if player not in tournament.withdrawn]
    return tuple(made)


def _forfeit(tournament: Tournament, first: int, second: int) -> str | None:
    """The result already known for a game with a withdrawn player (both withdrawn: both forfeit)."""
    out = (first in tournament.withdrawn, second in tournament.withdrawn)
    return {(True, False): FIRST_FORFEITS, (False, True): SECOND_FORFEITS, (True, True): BOTH_FORFEIT}.get(out)
