"""The games every cross-game test plays: (game, players, options), Octagone with pairs as well."""

GAMES = [
    ("octego", 2, {}),
    ("octa", 2, {}),
    ("octagone", 2, {}),
    ("octagone", 4, {}),
    ("octiles", 2, {"scramble": True}),
    ("octagion", 3, {"rounds": 2, "teams": [0, 1, 1]}),
]
IDS = [f"{game}-{players}" for game, players, _ in GAMES]
