"""Issue 37's tournament runner: the two kinds of event (a tournament, an Octagion series) are one
protocol that the runner and the cards call, with no ``isinstance`` on the kind anywhere in the
package; and a game's change reaches the tournaments' code only when the game plays in an event."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.core.settings import Settings
from bot.dev.world import private_texts
from bot.features.tournaments.links import EventLink
from bot.features.tournaments.runner import Tournaments
from bot.games.octego import OctegoAdapter
from tests.bot.test_tournaments import games_of_round, resign, started

PACKAGE = Path(__file__).resolve().parents[2] / "bot" / "features" / "tournaments"
# The classes of the kinds of event, the engine's and the package's.
KIND_CLASSES = {"Series", "Tournament", "SeriesEvent", "TournamentEvent"}


def kind_checks(source: str) -> list[int]:
    """The lines of ``source`` that ask an object whether it is of a kind of event: an
    ``isinstance`` (or ``issubclass``) naming one of the kinds' classes, directly, through a
    module (``kit.Series``) or in a tuple."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in ("isinstance", "issubclass") or len(node.args) != 2:
            continue
        named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
        named |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
        if named & KIND_CLASSES:
            found.append(node.lineno)
    return found


def test_the_scan_finds_a_check_of_the_kind_in_every_spelling():
    assert kind_checks("isinstance(state, Series)") == [1]
    assert kind_checks("x = 1\nif isinstance(state, kit.Tournament): pass") == [2]
    assert kind_checks("isinstance(event, (Player, SeriesEvent))") == [1]
    assert kind_checks("isinstance(outcome, Outcome)") == [], "a check of another type is no kind check"


def test_no_module_of_the_tournaments_asks_which_kind_of_event_it_holds():
    modules = sorted(PACKAGE.glob("*.py"))
    assert {"runner.py", "cards.py", "event.py"} <= {m.name for m in modules}
    checks = [f"{m.name}:{line}" for m in modules for line in kind_checks(m.read_text())]
    assert checks == [], f"isinstance on the kind of event (ask the Event protocol instead): {checks}"


# ------------------------------------------------------------ the result step, through SimCord


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(token=None, database_path=str(tmp_path / "kinds.db"))  # game threads on


@pytest.fixture
def entered(monkeypatch) -> list[tuple[int, EventLink]]:
    """Every call into the tournaments' result step: (the game's session, its event link)."""
    calls: list[tuple[int, EventLink]] = []
    step = Tournaments.plan_game_end

    async def watched(self, change, link):
        calls.append((change.record.id, link))
        await step(self, change, link)

    monkeypatch.setattr(Tournaments, "plan_game_end", watched)
    return calls


@pytest.fixture
def games(entered):
    """Octego, on a bot built after the result step is watched (the platform takes it when built)."""
    return [OctegoAdapter]


async def test_only_a_game_played_in_an_event_calls_into_the_tournaments(world, entered):
    await world.ada.slash(world.channel, "octego challenge", opponent=world.bo)
    await world.bo.click(world.channel.last_message, label="Accept")
    await world.env.settle()
    (thread,) = world.channel.threads
    outside = await world.platform.sessions.load((await world.platform.store.live_session(thread.id)).id)
    assert outside.meta.tournament is None
    result = await world.ada.slash(thread, "octego resign")
    assert "resign" in private_texts(result)[-1].lower(), private_texts(result)
    await world.env.settle()
    assert (await world.platform.sessions.load(outside.id)).status == "finished"
    assert entered == [], "a game outside any event never reaches the tournaments: not its start, moves or end"

    _host, everyone, event_id = await started(world, 3, game="octego", format="round_robin", round_time="1d")
    (game,) = (await games_of_round(world, event_id, 1)).values()
    link = EventLink.of(game.meta)
    assert link == EventLink(event_id, 1, link.table, "Octego round-robin tournament", rated=True, first_seat=0)
    await resign(world, everyone, game, game.players[0])
    assert (game.id, link) in entered, "the event's game tells its tournament, with its link"
    assert {called.id for _, called in entered} == {event_id}, "every call is for a game of the event"
