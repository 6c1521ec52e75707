"""Octagion on Discord: a lobby, timed rounds, variants by form or command, Got it!, results.

Thin glue: the rules live in ``engines.octagion``, the pictures and texts in ``render.octagion``.

cog         the commands (`/octagion start`, `play`, `gotit`, `daily ...`), the game message
lobby       joining, teams, the host's choices (variations, countdown, computers, handicap), Start
rounds      a round's message, its clock and end (timer or Got it!), its result, the next round
variants    Build variant's form and its answer
computers   computer teams: their seats and their answers some seconds into each round
names       the timers, outbox messages and controls the game registers
daily/      Octagion Daily, one word a day played privately, with its own tables and migrations
"""

from bot.games.octagion.cog import OctagionAdapter
from bot.games.octagion.names import LOBBY_EXPIRY, NEXT_ROUND, ROUND_END, ROUND_POST
from bot.games.octagion.rounds import NEXT_ROUND_PAUSE

__all__ = ["LOBBY_EXPIRY", "NEXT_ROUND", "NEXT_ROUND_PAUSE", "ROUND_END", "ROUND_POST", "OctagionAdapter"]
