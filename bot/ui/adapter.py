"""What the platform needs from each game, beyond its engine: pictures, texts, menus and commands.

A game's bot module subclasses :class:`GameAdapter`, a ``commands.GroupCog``: its slash
commands are decorated methods under `/<game>`, beside the shared `resign` and the `challenge`
generated from what it declares. Its turn menus are declared as steps (:mod:`bot.ui.menus`).
Everything shared (challenges, turns, resign, `/board`, `/hint`, private views, the turn clock,
results) lives around it and works the same for every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.sessions import Change, GameSession
from bot.core.workers import Drawing, drawing
from bot.ui.context import GameContext
from bot.ui.menus import ActionMenu
from bot.ui.replies import UserError, acknowledge, reply_private
from engines.base import Event, Game

RULES_FOLDER = Path(__file__).parent.parent / "games" / "rules"
# The computer's strength, offered by every game that has a computer opponent.
COMPUTER_LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in ("easy", "medium", "hard")]

# Hints (bot/features/hints): the challenge option that allows them in a game between members (a
# friendly game: not rated), and, in the session's options, each seat's count and the turn of its last.
HINTS = "hints"
HINTS_USED = "_hints_used"
HINT_TURNS = "_hint_turns"
HINT = "hint"  # the Hint button's control, and `/hint` presses it

__all__ = ["COMPUTER_LEVEL_CHOICES", "HINTS", "ChallengeOption", "GameAdapter", "GameSession"]


@dataclass(frozen=True)
class ChallengeOption:
    """An extra option of a game's generated `/<game> challenge` (Octego's ``first``).

    ``choices`` are (shown, value) pairs; without them the option is a yes/no (``bool``).
    The value chosen is stored under ``name`` in the game's options unless
    :meth:`GameAdapter.challenge_options` says otherwise.
    """

    name: str
    description: str
    choices: Sequence[tuple[str, str]] = ()


HINTS_OPTION = ChallengeOption(HINTS, "Allow each player a private hint a turn (a friendly game: not rated)")


class GameCogMeta(commands.CogMeta):
    """Names a game's command group with discord.py's documented ``GroupCog`` class keywords:
    ``class OctaAdapter(GameAdapter)`` is read as ``class OctaAdapter(GameAdapter,
    group_name="octa", group_description="Play Octa: …")``, from the ``name``, ``title`` and
    ``summary`` its body declares (keywords on the class line win)."""

    def __new__(mcs, *args: Any, **kwargs: Any) -> GameCogMeta:
        _, _, attributes = args
        if "name" in attributes:
            kwargs.setdefault("group_name", attributes["name"])
            kwargs.setdefault("group_description", f"Play {attributes['title']}: {attributes['summary']}"[:100])
        return super().__new__(mcs, *args, **kwargs)


@app_commands.guild_only()  # every game's commands, in servers only
class GameAdapter(commands.GroupCog, metaclass=GameCogMeta):
    """Base class: sensible defaults for a two-player, turn-based game."""

    engine: Game
    name: str
    title: str
    summary: str  # one line for /games
    # The game's computer player, ``ai.choose_action(state, seat, level, seed) -> action``; None: no computer.
    computer_player: Callable[[Any, int, str, int], dict[str, Any]] | None = None
    challengeable: bool = True  # started by `/<game> challenge` (Octagion uses a lobby instead)
    simultaneous: bool = False  # everyone acts at once: no "it is @x's turn" line on the game message
    computer_levels: Sequence[str] = ("easy", "medium", "hard")
    private_view_label: str | None = None  # e.g. "My hand": a button on the game message
    menus: Sequence[ActionMenu] = ()  # the game's turn menus, declared as steps (bot/ui/menus.py)
    # `/<game> challenge` is generated: an opponent, these options, and ``level`` for the computer.
    challenge_extras: Sequence[ChallengeOption] = ()
    team_play: bool = False  # four players in pairs: the challenge also asks for a partner and opponent2
    computer_takes_any_seat: bool = False  # the computer may be one of several invitees (a partner, an opponent)

    def __init__(self, ctx: GameContext):
        self.ctx = ctx

    # ------------------------------------------------------------ shared commands
    @app_commands.command(name="resign", description="Resign your game of this kind in this channel.")
    async def resign_command(self, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        session_id = await self.ctx.running_id(interaction, self.name)
        await self.ctx.act(session_id, interaction.user.id, {"type": "resign"})
        await reply_private(interaction, "You resigned.")

    # ------------------------------------------------------------ pictures
    # A game names its pictures as drawings (a render function and its arguments): they are drawn
    # in a worker process (bot/core/workers.py).
    def public_picture(self, session: GameSession) -> Drawing:
        """The game message's picture: the game's public picture as render/registry.py names it
        (imported here, so that importing one game's module loads no other game's renderer)."""
        from render.registry import pictures

        return drawing(pictures(self.name).public_picture, session.state, session.names)

    def private_picture(self, session: GameSession, seat: int) -> Drawing | None:
        """The picture behind the private-view button (a hand, a deck); None if the game has none."""
        return None

    # --------------------------------------------------------------- texts
    def status_text(self, session: GameSession) -> str:
        """A line under the title: last move, phase, scores... (whose turn is added by the platform)."""
        return ""

    @classmethod
    def narrate(cls, event: Event, names: Sequence[str]) -> str:
        """One event in words, e.g. "Ada moved c1-d2.": the narrator render/registry.py names for the
        game (the kit's events in the shared sentence), also used for the picture's alt text.
        ``names`` are ready for the text they go into."""
        from render.registry import pictures  # here, as in public_picture

        return pictures(cls.name).narrate(event, names)

    def options_text(self, options: dict[str, Any]) -> str:
        """A challenge's options as words after the game's name, e.g. " (first: coin toss)"."""
        shown = [
            f"{key.replace('_', ' ')}: {value}"
            for key, value in options.items()
            if value not in (None, False, "") and not key.startswith("_") and key != HINTS
        ]
        if options.get(HINTS):  # seen on the invitation before it is accepted
            shown.append("hints allowed, not rated")
        return f" ({', '.join(shown)})" if shown else ""

    def lobby_message(self, session: GameSession) -> tuple[str, discord.ui.View | None]:
        """The game message of a lobby (games that start from a lobby, not a challenge)."""
        raise NotImplementedError

    # ------------------------------------------------------------ controls
    def components(self, session: GameSession) -> list[discord.ui.Item]:
        """Game-specific controls on the game message (the platform adds its own)."""
        return []

    def playing_now(self, session: GameSession) -> bool:
        """Whether the running game can be played at this moment; when not (Octagion between
        rounds), its message shows no controls at all, not even the private view or Resign."""
        return True

    # --------------------------------------------------------------- setup
    def challenge_options(self, chosen: dict[str, Any], seats: dict[str, int | None]) -> dict[str, Any]:
        """A challenge's stored options from what was chosen in the command (unset ones are None).
        ``seats`` holds the user ids of challenger, opponent, partner and opponent2. A UserError
        refuses a combination that cannot be played."""
        return {name: value for name, value in chosen.items() if value is not None}

    def seat_order(self, challenger: int, invitees: Sequence[int], options: dict[str, Any]) -> list[int]:
        """Seats in play order from a challenge; by default the challenger moves first."""
        return [challenger, *invitees]

    def challenge_components(self, session: GameSession) -> list[discord.ui.Item]:
        """A game's own controls on its open challenge, beside Accept and Decline (none by default)."""
        return []

    def seated_options(self, options: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
        """A challenge's options once its seats (user ids, in play order) are known: a game fills
        in a default that names a seat here (Octagone's extra jokers). By default, unchanged."""
        return options

    @property
    def rules(self) -> str:
        """Markdown for /rules: the game's summary and the commands to play, kept as a document
        beside the adapters (``bot/games/rules/<game>.md``)."""
        return (RULES_FOLDER / f"{self.name}.md").read_text(encoding="utf-8")

    @property
    def has_computer(self) -> bool:
        return self.computer_player is not None

    def typed_answer(self, change: Change, user_id: int, text: str, round_no: str = "") -> None:
        """A move typed as text on the Activity's board (Octagion's variant) for round ``round_no``
        (when given: refused once that round is over), applied in ``change`` with the checks of the
        game's own form; a game played by choices has none."""
        raise UserError(f"{self.title} is played by choosing on the board, not by typing.")

    def board_buttons(self, session: GameSession, seat: int | None) -> list[tuple[str, str]]:
        """The game's own buttons a seat (None: a member not seated) has on the Activity's board
        besides the steps of a move, as (key, label): Octagion's lobby and Got it!; none by default."""
        return []

    async def press_on_board(self, user: discord.abc.User, session_id: int, key: str) -> None:
        """One of ``board_buttons`` pressed on the board: what the same button in Discord does."""
        raise UserError(f"{self.title} has no such button.")

    # --------------------------------------------------------------- hints
    @property
    def hintable(self) -> bool:
        """Whether the computer can suggest a player's next action: a game played in turns with a
        computer player (not a race, where everyone acts at once)."""
        return self.has_computer and not self.simultaneous

    @property
    def no_hints(self) -> str:
        if self.simultaneous:
            return f"{self.title} is a race: everyone plays at once, so it has no hints."
        return f"{self.title} has no computer player to suggest a move, so it has no hints."

    @property
    def offered_options(self) -> tuple[ChallengeOption, ...]:
        """What `/<game> challenge` offers beside the opponent: the game's own extras, then hints."""
        return (*self.challenge_extras, HINTS_OPTION) if self.hintable else tuple(self.challenge_extras)

    def chosen_options(self, chosen: dict[str, Any], seats: dict[str, int | None]) -> dict[str, Any]:
        """A challenge's stored options: the game's own (:meth:`challenge_options`) and hints."""
        options = self.challenge_options({k: v for k, v in chosen.items() if k != HINTS}, seats)
        return {**options, HINTS: True} if chosen.get(HINTS) and self.hintable else options

    def hints_allowed(self, session: GameSession) -> bool:
        """Hints in a game against the computer, or one whose challenge allowed them; never in a
        tournament's game (and a challenge that allows them is not rated)."""
        if not self.hintable or session.meta.tournament is not None:
            return False
        me = self.ctx.bot.user
        return bool(session.options.get(HINTS)) or (me is not None and me.id in session.players)

    def hints_note(self, session: GameSession) -> str:
        """Who used hints ("💡 Hints used: Ada 2"), for the game message, its card and its record."""
        from render.hints import used_note  # here, as in public_picture

        return used_note(session.options.get(HINTS_USED), session.bold_names)

    def tournament_started(self, change: Change) -> None:
        """A tournament's game started (``change.start`` done): what else its start needs (Octagion
        posts its first round). By default nothing."""

    async def rematch(self, interaction: discord.Interaction, session: GameSession) -> None:
        """The Rematch button of a finished game: by default the same players are challenged again."""
        bot = self.ctx.bot
        others = [p for p in session.players if p != interaction.user.id]
        users = [bot.get_user(p) or await bot.fetch_user(p) for p in others]
        seconds = session.meta.clock_seconds
        await self.ctx.challenge(
            interaction,
            self.name,
            users,
            session.options,
            session.meta.computer_level,
            clock=None if seconds is None else f"{seconds // 60}m" if seconds else "off",
            where=session.record.thread_id,  # in the game's thread, also from its card
        )
