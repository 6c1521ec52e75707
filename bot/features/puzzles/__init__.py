"""`/puzzle`: puzzles cut from real games, played privately with each game's own controls, with a
puzzle rating per member and game and a daily puzzle per game (engines/puzzles)."""
