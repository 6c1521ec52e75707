"""Hints in friendly games: the computer's suggested action, privately, one a turn (hints.py), found
in the computer workers (advice.py)."""
