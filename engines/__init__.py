"""The rules, one pure package per game; engines/registry.py lists the games (where a game is registered)."""
