"""Octa, "The Game of 8": two-player card game. See ``rules`` for the steps and action shapes."""

from .rules import ENGINE, OctaState

__all__ = ["ENGINE", "OctaState"]
