"""What Octagion registers with the platform, by name: its timers, its outbox messages and its
controls' custom ids (stored in rows and in messages' buttons, so never renamed)."""

from __future__ import annotations

GAME = "octagion"

# Timers: a round's end, the pause before the next round, an idle lobby's expiry, a computer's answer.
ROUND_END, NEXT_ROUND, LOBBY_EXPIRY = "octagion_round_end", "octagion_next_round", "octagion_lobby_expiry"
COMPUTER_MOVE = "octagion_computer_move"
# Outbox messages: a round's picture, its result, and the last round's message shown as over.
ROUND_POST, RESULT_POST, ROUND_OVER = "octagion_round", "octagion_result", "octagion_round_over"
# Controls: the one button (join, leave, start, gotit:<round>), the team select, Build variant and its form.
BUTTON, TEAM, BUILD, VARIANT = "octagion", "octagion_team", "octagion_build", "octagion_variant"
# The host's lobby controls: the variations, the countdown's difficulty, computer teams, Beta's handicap.
VARIATIONS, COUNTDOWN, COMPUTERS = "octagion_variations", "octagion_countdown", "octagion_computers"
HANDICAP, HANDICAP_FORM = "octagion_handicap", "octagion_handicap_form"
