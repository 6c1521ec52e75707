"""The Activity: every game's board played in Discord's own window (issue 42)."""
