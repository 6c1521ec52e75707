"""The games every cross-game test plays: (game, players, options) for every registered game
(engines/registry.py), derived when asked, so a newly registered game is played by every such
test with no edit here."""

from __future__ import annotations

from engines.registry import engine, games

# Set-ups a game is played in instead of its fewest players with default options: Octagone in
# pairs as well, Octiles with a shuffled board, Octagion short and in teams.
SETUPS: dict[str, list[tuple[int, dict]]] = {
    "octagone": [(2, {}), (4, {})],
    "octiles": [(2, {"scramble": True})],
    "octagion": [(3, {"rounds": 2, "teams": [0, 1, 1]})],
}


def cases() -> list[tuple[str, int, dict]]:
    """(game, players, options) for every registered game, in the registry's order."""
    return [
        (game, players, options)
        for game in games()
        for players, options in SETUPS.get(game, [(engine(game).min_players, {})])
    ]


def case_ids(played: list[tuple[str, int, dict]]) -> list[str]:
    return [f"{game}-{players}" for game, players, _ in played]


GAMES = cases()
IDS = case_ids(GAMES)
