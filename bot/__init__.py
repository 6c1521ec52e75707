"""The Octagon Games Bot's Discord side. ``__version__`` is the release, in one place: pyproject
reads it, ``python -m bot --version`` prints it, /games and /rules show it, and CHANGELOG.md's
top entry names it."""

__version__ = "1.0.0"
