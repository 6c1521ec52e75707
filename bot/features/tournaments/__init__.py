"""Tournaments: Swiss, round-robin and knockout events and Octagion series, run by the bot, every
game in a thread of its own (see runner.py for the flow)."""

from bot.features.tournaments.commands import TournamentCommands
from bot.features.tournaments.runner import Tournaments

__all__ = ["TournamentCommands", "Tournaments"]
