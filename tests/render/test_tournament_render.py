"""Tournament pictures: standings (with the podium at the end), pairings and an Octagion series'
standings draw, their text names every player and the leader, and every text reads on a phone."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines.tournament import (
    DRAW,
    FIRST_FORFEITS,
    FIRST_WINS,
    SECOND_WINS,
    Player,
    RaceEntry,
    is_finished,
    new_series,
    new_tournament,
    pair_next_round,
    record_race,
    record_result,
    standings,
    withdraw,
)
from render import theme
from render.tournament import WIDTH, render_pairings, render_series_standings, render_standings
from tests.render.test_phone_text import LONG_NAME, PHONE, _drawn_texts

NAMES = [LONG_NAME, "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]


def players(count: int) -> list[Player]:
    return [Player(i, NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i}"), 2000 - i) for i in range(count)]


def played(format: str, count: int, rounds: int | None = None, *, finish: bool = True, seed: int = 1):
    """A tournament played with random results: to its end, or leaving the last round's top game running."""
    rng = random.Random(seed)
    tournament = new_tournament(format, players(count), **({"rounds": rounds} if rounds else {}))
    while not is_finished(tournament):
        tournament = pair_next_round(tournament)
        running = list(tournament.current_round.running())
        last = len(tournament.rounds) == tournament.rounds_planned
        for pairing in running[1:] if last and not finish else running:
            result = rng.choice([FIRST_WINS, SECOND_WINS, DRAW, FIRST_FORFEITS])
            tournament = record_result(tournament, len(tournament.rounds), pairing.table, result)
        if last and not finish:
            break
        while tournament.current_round.running() and (finish or not last):  # a knockout's replays
            pairing = tournament.current_round.running()[0]
            tournament = record_result(tournament, len(tournament.rounds), pairing.table, FIRST_WINS)
    return tournament


def series(races_run: int = 3):
    rng = random.Random(races_run)
    members = new_series(players(4), 3)
    for _ in range(races_run):
        scores = {p.id: rng.randint(0, 30) for p in members.players}
        entries = [RaceEntry(p, 1 + sum(s > scores[p] for s in scores.values()), scores[p]) for p in scores]
        members = record_race(members, entries)
    return members


def knockout_with_a_replay():
    tournament = pair_next_round(new_tournament("knockout", players(6)))
    drawn = next(p for p in tournament.current_round.pairings if not p.is_bye)
    return record_result(tournament, 1, drawn.table, DRAW)


PICTURES = {
    "swiss standings, running": lambda: render_standings(played("swiss", 9, 4, finish=False), "Octego Swiss"),
    "swiss standings, final": lambda: render_standings(played("swiss", 9, 4), "Octego Swiss"),
    "round-robin standings, final": lambda: render_standings(played("round_robin", 5)),
    "knockout standings, final": lambda: render_standings(played("knockout", 6)),
    "swiss pairings with a bye": lambda: render_pairings(played("swiss", 9, 4, finish=False)),
    "knockout pairings with a replay": lambda: render_pairings(knockout_with_a_replay()),
    "series standings, final": lambda: render_series_standings(series(3)),
    "series standings, after one race": lambda: render_series_standings(series(1)),
}


@pytest.mark.parametrize("kind", PICTURES)
def test_every_picture_draws_as_a_png_of_the_house_width(kind):
    picture = PICTURES[kind]()
    image = Image.open(io.BytesIO(picture.png))
    assert image.width == WIDTH
    assert image.height > 200
    assert picture.description


@pytest.mark.parametrize("kind", PICTURES)
def test_every_text_is_at_least_11_px_tall_on_a_phone(kind, monkeypatch):
    texts, width = _drawn_texts("tournament", PICTURES[kind], monkeypatch)
    assert texts
    smallest = min(texts, key=lambda drawn: drawn[1])
    shown = theme.cap_height(smallest[1]) * PHONE / width
    assert shown >= 11, f"{smallest[0]!r} at size {smallest[1]} is {shown:.1f} px tall at {PHONE} px"


@pytest.mark.parametrize(
    ("format", "count", "rounds"), [("swiss", 9, 4), ("round_robin", 6, None), ("knockout", 7, None)]
)
@pytest.mark.parametrize("finish", [True, False])
def test_the_standings_text_names_every_player_and_the_leader(format, count, rounds, finish):
    tournament = played(format, count, rounds, finish=finish)
    picture = render_standings(tournament)
    for player in tournament.players:
        assert player.name in picture.description
    leaders = [row.name for row in standings(tournament) if row.rank == 1]
    said = picture.description.rsplit(". ", 1)[-1]
    assert said.startswith("Winner" if finish else "Leader")
    assert all(name in said for name in leaders)


def test_the_podium_is_drawn_only_at_the_end():
    running = Image.open(io.BytesIO(render_standings(played("swiss", 9, 4, finish=False)).png)).convert("RGB")
    final = Image.open(io.BytesIO(render_standings(played("swiss", 9, 4)).png)).convert("RGB")
    gold = (255, 215, 0)
    assert final.height > running.height
    assert _count(final, gold) > 20 * _count(running, gold) + 1000, "the winner's step is a block of gold"


def test_the_pairings_text_names_every_game_its_first_player_and_the_bye():
    tournament = played("swiss", 9, 4, finish=False)
    text = render_pairings(tournament).description
    for pairing in tournament.current_round.pairings:
        if pairing.is_bye:
            assert f"{tournament.name(pairing.first)} has a bye" in text
        else:
            first, second = (tournament.name(p) for p in pairing.players)
            assert f"table {pairing.table}, {first} moves first against {second}" in text
    assert "running" in text


def test_a_withdrawn_player_stays_in_the_standings_text_marked():
    tournament = pair_next_round(new_tournament("swiss", players(5), rounds=3))
    tournament = withdraw(tournament, 2)
    text = render_standings(tournament).description
    assert "Cy" in text
    assert "withdrew" in text


def test_the_series_text_names_every_member_and_the_leader():
    picture = render_series_standings(series(2))
    rows = series(2)
    for player in rows.players:
        assert player.name in picture.description
    assert "Leader" in picture.description


def _count(image: Image.Image, colour) -> int:
    return sum(
        n for n, rgb in image.getcolors(1 << 20) if all(abs(a - b) <= 8 for a, b in zip(rgb, colour, strict=True))
    )


@pytest.mark.parametrize("draw", [render_standings, render_pairings])
def test_a_long_title_wraps_instead_of_being_cut(draw, monkeypatch):
    """ "Octiles Scavenger Hunt kn…" (issue #36): the event's name takes a second line."""
    title = "Octiles Scavenger Hunt knockout"
    texts, _ = _drawn_texts("tournament", lambda: draw(played("knockout", 6), title=title), monkeypatch)
    drawn = [text for text, _ in texts]
    assert "Octiles Scavenger Hunt" in drawn
    assert "knockout" in drawn
    assert not any(text.startswith("Octiles") and text.endswith("…") for text in drawn)
