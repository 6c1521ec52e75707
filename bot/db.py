"""`python -m bot.db check | copy | backup | restore`: the database tool (bot/dev/db_tool.py)."""

from __future__ import annotations

import sys

from bot.dev.db_tool import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
