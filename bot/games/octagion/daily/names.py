"""What Octagion Daily registers with the platform, by name (stored in rows and in messages'
buttons, so never renamed), and its statuses."""

from __future__ import annotations

GAME = "octagion"  # the adapter whose sessions these are
DAILY, TITLE = "octagion_daily", "Octagion Daily"  # its name in results, /stats and /leaderboard
PLAYING, OVER = "daily", "daily_over"  # a play's statuses
CHANNEL, CHANNEL_OFF = "daily_channel", "daily_channel_off"  # the daily channel's
COUNTDOWN_END, DAY_OVER = "octagion_daily_end", "octagion_daily_day_over"  # timers
BOARD_POST, TODAY_POST, TODAY_EDIT = "octagion_daily_board", "octagion_daily_today", "octagion_daily_today_edit"
ANSWER, FORM = "daily_answer", "daily_form"  # the controls (custom ids: b:<play>:daily_answer:save)
SAVE, FINAL = "save", "final"  # what a form's answer does
SHARE, SHARE_POST = "daily_share", "octagion_daily_share"  # the Share button, and the public line it posts
