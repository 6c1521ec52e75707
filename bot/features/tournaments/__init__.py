"""Tournaments: Swiss, round-robin and knockout events and Octagion series, run by the bot, every
game in a thread of its own: the flow in ``runner.py`` (``Tournaments``), the commands in
``commands.py`` (``TournamentCommands``)."""
