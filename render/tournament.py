"""Tournament pictures: the standings (rank, name, points, tie-breaks, games; the podium once it
is over), a round's pairings (table, who moves first against whom, the result or "running",
the bye), and an Octagion series' standings.

480 px wide, like the other table pictures, so every text is at least ``TEXT`` (a capital 11 px
tall when the picture is shown 280 px wide). Who moves first is a filled disc, the second
player a ring, and the legend says so; results are words, never colour alone. Long fields show
their top ``MAX_ROWS``, and the text alternative says how many more there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engines.tournament import (
    BOTH_FORFEIT,
    BYE,
    DEADLINE,
    DRAW,
    FIRST_FORFEITS,
    FIRST_WINS,
    FORMAT_NAMES,
    KNOCKOUT,
    NOT_PLAYED,
    SECOND_FORFEITS,
    SECOND_WINS,
    SHORT_NAMES,
    TIE_BREAKS,
    Pairing,
    Series,
    Tournament,
    champion,
    final_forfeited,
    is_finished,
    is_series_finished,
    podium,
    series_standings,
    standings,
)
from render import theme
from render.wording import plural

WIDTH = 480
TEXT = theme.min_text_size(WIDTH)
TITLE = TEXT + 8
MARGIN = 16
TITLE_LINES = 2  # an event's name wraps to a second line before it is cut
LINE = TEXT + 14  # a line of text
ROW = TEXT + 20  # a row of a table
MAX_ROWS = 24  # rows a picture draws; the text alternative counts the rest
RANK_X = MARGIN + 6
NAME_X = MARGIN + 52
STEPS = {1: 120, 2: 86, 3: 56}  # the podium's step heights
PLACE_COLOURS = {1: theme.HIGHLIGHT, 2: (192, 196, 206), 3: (205, 140, 80)}


@dataclass(frozen=True)
class _Row:
    rank: int
    name: str
    cells: tuple[str, ...]
    muted: bool = False


# ---------------------------------------------------------------- words


def points_text(points: float) -> str:
    """3, 2.5, 0: halves as decimals (the font has no ½)."""
    return f"{points:g}"


def round_heading(tournament: Tournament) -> str:
    played = len(tournament.rounds)
    if tournament.ended_after is not None:
        after = tournament.ended_after
        return f"Ended by the host after round {after}" if after else "Ended by the host in round 1"
    if is_finished(tournament):
        return "Final standings · no champion" if final_forfeited(tournament) else "Final standings"
    if played == 0:
        return "Standings before round 1"
    return f"Standings after round {played} of {tournament.rounds_planned}"


def _event_title(tournament: Tournament, title: str | None) -> str:
    return title or f"{FORMAT_NAMES[tournament.format].capitalize()} tournament"


def _status(tournament: Tournament, row) -> str:
    """A knockout player's line: won, still in, out in round N, withdrew."""
    if row.withdrawn:
        return "withdrew"
    if row.out_in is None:
        return "won" if row.player == champion(tournament) else "in"
    return f"out R{row.out_in}"


def result_words(tournament: Tournament, pairing: Pairing) -> tuple[str, str]:
    """What each side's line says about the game: "won", "lost", "draw", "forfeit", "running"..."""
    result = pairing.result
    if result is None:
        return ("replay" if pairing.replay_of is not None else "running", "")
    if result == BYE:
        return ("bye", "")
    if result == DEADLINE and tournament.format == KNOCKOUT:
        higher = min(pairing.players, key=tournament.seed)
        return tuple("through on time" if p == higher else "out on time" for p in pairing.players)  # type: ignore[return-value]
    return {
        FIRST_WINS: ("won", "lost"),
        SECOND_WINS: ("lost", "won"),
        DRAW: ("draw", "draw"),
        DEADLINE: ("draw on time", "draw on time"),
        FIRST_FORFEITS: ("forfeit", "won"),
        SECOND_FORFEITS: ("won", "forfeit"),
        BOTH_FORFEIT: ("forfeit", "forfeit"),
        NOT_PLAYED: ("not played", "not played"),
    }[result]


# ---------------------------------------------------------------- standings


def render_standings(tournament: Tournament, title: str | None = None) -> theme.Picture:
    """The standings now; once the tournament is over, the podium above them."""
    rows = standings(tournament)
    breaks = TIE_BREAKS[tournament.format]
    knockout = tournament.format == KNOCKOUT
    headers = ("Pts", "Status", "G") if knockout else ("Pts", *(SHORT_NAMES[b] for b in breaks), "G")
    table = [
        _Row(
            row.rank,
            row.name,
            (points_text(row.points), _status(tournament, row), str(row.games))
            if knockout
            else (points_text(row.points), *(points_text(v) for v in row.tie_breaks), str(row.games)),
            row.withdrawn,
        )
        for row in rows
    ]
    legend = " · ".join([*(f"{SHORT_NAMES[b]} {b}" for b in breaks), "G games"])
    if final_forfeited(tournament):
        legend = f"The final was forfeited by both: no champion. {legend}"
    places = podium(tournament) if is_finished(tournament) else ()
    names = {row.player: row.name for row in rows}
    image = _table_picture(
        _event_title(tournament, title),
        round_heading(tournament),
        headers,
        table,
        legend,
        [(rank, [names[p] for p in players]) for rank, players in places],
    )
    description = _standings_words(tournament, title, rows)
    return theme.to_picture(image, description, "standings.png")


def _standings_words(tournament: Tournament, title: str | None, rows) -> str:
    breaks = TIE_BREAKS[tournament.format]
    lines = []
    for row in rows[:MAX_ROWS]:
        extra = [f"{name} {points_text(value)}" for name, value in zip(breaks, row.tie_breaks, strict=True)]
        if tournament.format == KNOCKOUT:
            extra = [_status(tournament, row)]
        elif row.withdrawn:
            extra.append("withdrew")
        lines.append(f"{row.rank}. {row.name} {_points_phrase(row.points)} ({', '.join(extra)})")
    more = f"; and {len(rows) - MAX_ROWS} more" if len(rows) > MAX_ROWS else ""
    leaders = [row.name for row in rows if row.rank == 1]
    lead = "Winner" if is_finished(tournament) else "Leader"
    lead += "s" if len(leaders) > 1 else ""
    if tournament.format == KNOCKOUT and tournament.ended_after is not None and champion(tournament) is None:
        lead = "Still in when the host ended it"
    ending = f"{lead}: {' and '.join(leaders)}." if leaders else "No champion: the final was forfeited by both."
    return f"{_event_title(tournament, title)}, {round_heading(tournament).lower()}: {'; '.join(lines)}{more}. {ending}"


def _points_phrase(points: float) -> str:
    return f"{points_text(points)} point{'' if points == 1 else 's'}"


# ---------------------------------------------------------------- series


def render_series_standings(series: Series, title: str = "Octagion series") -> theme.Picture:
    """An Octagion series' standings after its latest race; the podium once it is over."""
    rows = series_standings(series)
    table = [
        _Row(row.rank, row.name, (points_text(row.points), str(row.wins), str(row.races)), row.withdrawn)
        for row in rows
    ]
    done = len(series.races)
    heading = "Final standings" if is_series_finished(series) else f"After race {done} of {series.races_planned}"
    places = []
    if is_series_finished(series):
        places = [
            (rank, [r.name for r in rows if r.rank == rank]) for rank in sorted({r.rank for r in rows}) if rank <= 3
        ]
    scoring = "by finishing order" if series.scoring == "placing" else "by race score"
    image = _table_picture(title, heading, ("Pts", "Wins", "Races"), table, f"Points {scoring}", places)
    shown = "; ".join(f"{r.rank}. {r.name} {_points_phrase(r.points)}, {r.wins} won" for r in rows[:MAX_ROWS])
    leaders = " and ".join(r.name for r in rows if r.rank == 1)
    lead = "Winner" if is_series_finished(series) else "Leader"
    description = f"{title}, {heading.lower()}, points {scoring}: {shown}. {lead}: {leaders}."
    return theme.to_picture(image, description, "series.png")


# ---------------------------------------------------------------- pairings


def render_pairings(tournament: Tournament, round_number: int | None = None, title: str | None = None) -> theme.Picture:
    """Round ``round_number``'s pairings (the current round by default): each table's first
    player (a disc) against the second (a ring), with the result or "running"; byes last."""
    number = round_number or len(tournament.rounds)
    round_ = tournament.round(number)
    games = [p for p in round_.pairings if not p.is_bye]
    byes = [p for p in round_.pairings if p.is_bye]
    notes = []
    if round_.rematches:
        notes.append(f"{round_.rematches} rematch{'es' if round_.rematches > 1 else ''}: no pairing avoided it")
    subtitle = f"{plural(len(games), 'game')}" + (f" · {plural(len(byes), 'bye')}" if byes else "")
    shown = games[:MAX_ROWS]
    more = len(games) - len(shown)
    band = 2 * ROW + 8
    heading = f"Round {number} of {tournament.rounds_planned}"
    title = _event_title(tournament, title)
    top = _header_height(title, notes)
    height = top + len(shown) * band + (LINE if more else 0) + len(byes) * ROW + 2 * LINE + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    y = _draw_header(image, draw, title, f"{heading} · {subtitle}", notes)
    for index, pairing in enumerate(shown):
        _draw_game(image, draw, y, index, tournament, pairing)
        y += band
    if more:
        theme.write(image, (MARGIN, y + LINE / 2), f"… and {plural(more, 'more game')}", TEXT, theme.MUTED, "lm")
        y += LINE
    for pairing in byes:
        name_room = WIDTH - MARGIN - NAME_X - _width("bye") - 16
        theme.write(
            image,
            (NAME_X, y + ROW / 2),
            theme.fit_text(tournament.name(pairing.first), TEXT, name_room),
            TEXT,
            theme.INK,
            "lm",
        )
        theme.write(image, (WIDTH - MARGIN, y + ROW / 2), "bye", TEXT, theme.MUTED, "rm")
        y += ROW
    _draw_legend(image, draw, y + 8)
    return theme.to_picture(image, _pairings_words(tournament, number, title), f"round-{number}.png")


def _draw_game(
    image: Image.Image, draw: ImageDraw.ImageDraw, y: int, index: int, tournament: Tournament, pairing: Pairing
) -> None:
    fill = theme.PANEL if index % 2 == 0 else theme.BACKGROUND
    draw.rounded_rectangle((MARGIN - 8, y + 2, WIDTH - MARGIN + 8, y + 2 * ROW + 6), radius=8, fill=fill)
    theme.write(image, (RANK_X, y + ROW), str(pairing.table), TEXT + 4, theme.MUTED, "lm")
    words = result_words(tournament, pairing)
    for line, (player, word) in enumerate(zip(pairing.players, words, strict=True)):
        middle = y + 4 + line * ROW + ROW / 2
        _side_mark(draw, (NAME_X + 10, middle), first=line == 0)
        ink = theme.MUTED if player in tournament.withdrawn else theme.INK
        word_ink = (
            theme.GOOD
            if word.startswith(("won", "through"))
            else theme.MUTED
            if word in ("running", "replay")
            else theme.INK
        )
        name_room = WIDTH - MARGIN - (NAME_X + 30) - _width(word) - 16
        theme.write(
            image, (NAME_X + 30, middle), theme.fit_text(tournament.name(player), TEXT, name_room), TEXT, ink, "lm"
        )
        if word:
            theme.write(image, (WIDTH - MARGIN, middle), word, TEXT, word_ink, "rm")


def _side_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], *, first: bool) -> None:
    """A filled disc for the player who moves first, a ring for the second."""
    x, y = centre
    r = TEXT * 0.32
    if first:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=theme.INK)
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), outline=theme.INK, width=3)


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
    _side_mark(draw, (MARGIN + 10, y + LINE / 2), first=True)
    theme.write(image, (MARGIN + 28, y + LINE / 2), "moves first", TEXT, theme.MUTED, "lm")
    x = WIDTH / 2 + 10
    _side_mark(draw, (x, y + LINE / 2), first=False)
    theme.write(image, (x + 18, y + LINE / 2), "second", TEXT, theme.MUTED, "lm")


# A result word of the picture as the text alternative says it.
SAID = {"forfeit": "forfeited", "through on time": "went through on time", "out on time": "went out on time"}


def _pairings_words(tournament: Tournament, number: int, title: str | None) -> str:
    round_ = tournament.round(number)
    parts = []
    for pairing in round_.pairings:
        if pairing.is_bye:
            parts.append(f"{tournament.name(pairing.first)} has a bye")
            continue
        first, second = (tournament.name(p) for p in pairing.players)
        what = [SAID.get(word, word) for word in result_words(tournament, pairing)]
        if pairing.result is None:
            outcome = "running"
        elif pairing.result == BOTH_FORFEIT:
            outcome = "both forfeited"
        elif pairing.result == NOT_PLAYED:
            outcome = "not played (the host ended the event)"
        elif pairing.result == DRAW or (pairing.result == DEADLINE and tournament.format != KNOCKOUT):
            outcome = "a draw" + (" when the round's time was up" if pairing.result == DEADLINE else "")
        else:
            outcome = f"{first} {what[0]}, {second} {what[1]}"
        replay = f" (replays table {pairing.replay_of})" if pairing.replay_of is not None else ""
        parts.append(f"table {pairing.table}{replay}, {first} moves first against {second}: {outcome}")
    rematches = (
        f" {plural(round_.rematches, 'rematch', 'rematches')}: no pairing avoided it." if round_.rematches else ""
    )
    heading = f"{_event_title(tournament, title)}, round {number} of {tournament.rounds_planned}"
    return f"{heading}: {'; '.join(parts)}.{rematches}"


# ---------------------------------------------------------------- drawing


def _table_picture(
    title: str,
    heading: str,
    headers: Sequence[str],
    rows: Sequence[_Row],
    legend: str,
    places: Sequence[tuple[int, Sequence[str]]],
    widths: Sequence[int] | None = None,
) -> Image.Image:
    """A header, the podium (when ``places``), a table of ranked rows and a legend."""
    shown = rows[:MAX_ROWS]
    more = len(rows) - len(shown)
    legend_lines = theme.wrap(legend, TEXT, WIDTH - 2 * MARGIN)
    top = _header_height(title, ())
    podium_h = _podium_height(places)
    height = top + podium_h + ROW + len(shown) * ROW + (LINE if more else 0)
    height += 8 + len(legend_lines) * LINE + MARGIN
    image, draw = theme.canvas(WIDTH, height)
    y = _draw_header(image, draw, title, heading, ())
    if places:
        _draw_podium(image, draw, y, places, podium_h)
        y += podium_h
    widths = widths or [
        max(_width(text) for text in (label, *(row.cells[i] for row in shown))) + 14 for i, label in enumerate(headers)
    ]
    rights = [WIDTH - MARGIN - sum(widths[i + 1 :]) for i in range(len(widths))]
    middle = y + ROW / 2
    theme.write(image, (RANK_X, middle), "#", TEXT, theme.MUTED, "lm")
    theme.write(image, (NAME_X, middle), "Player", TEXT, theme.MUTED, "lm")
    for right, label in zip(rights, headers, strict=True):
        theme.write(image, (right, middle), label, TEXT, theme.MUTED, "rm")
    y += ROW
    for index, row in enumerate(shown):
        fill = theme.PANEL if index % 2 == 0 else theme.BACKGROUND
        draw.rounded_rectangle((MARGIN - 8, y + 2, WIDTH - MARGIN + 8, y + ROW - 2), radius=6, fill=fill)
        middle = y + ROW / 2
        ink = theme.MUTED if row.muted else theme.INK
        theme.write(
            image,
            (RANK_X, middle),
            str(row.rank),
            TEXT,
            PLACE_COLOURS.get(row.rank, ink) if not row.muted else ink,
            "lm",
        )
        name_room = rights[0] - _width(row.cells[0]) - 12 - NAME_X
        theme.write(image, (NAME_X, middle), theme.fit_text(row.name, TEXT, name_room), TEXT, ink, "lm")
        for right, cell in zip(rights, row.cells, strict=True):
            theme.write(image, (right, middle), cell, TEXT, ink, "rm")
        y += ROW
    if more:
        theme.write(image, (MARGIN, y + LINE / 2), f"… and {more} more", TEXT, theme.MUTED, "lm")
        y += LINE
    y += 8
    for line in legend_lines:
        theme.write(image, (MARGIN, y + LINE / 2), line, TEXT, theme.MUTED, "lm")
        y += LINE
    return image


def _podium_lines(names: Sequence[str]) -> list[str]:
    return list(names[:2]) + ([f"+{len(names) - 2} more"] if len(names) > 2 else [])


def _podium_height(places: Sequence[tuple[int, Sequence[str]]]) -> int:
    if not places:
        return 0
    return 24 + max(STEPS[rank] + 8 + len(_podium_lines(names)) * LINE for rank, names in places)


def _draw_podium(
    image: Image.Image, draw: ImageDraw.ImageDraw, top: int, places: Sequence[tuple[int, Sequence[str]]], height: int
) -> None:
    """Three steps, first in the middle and tallest; each place's names above its step."""
    step_w = (WIDTH - 2 * MARGIN - 16) // 3
    floor = top + height - 16
    heights = STEPS
    columns = {2: 0, 1: 1, 3: 2}
    for rank, names in places:
        x0 = MARGIN + columns[rank] * (step_w + 8)
        step_top = floor - heights[rank]
        colour = PLACE_COLOURS[rank]
        draw.rectangle((x0, step_top, x0 + step_w, floor), fill=colour)
        theme.write(
            image,
            (x0 + step_w / 2, step_top + heights[rank] / 2),
            str(rank),
            TITLE + 8,
            theme.readable_ink(colour),
            "mm",
        )
        for k, name in enumerate(reversed(_podium_lines(names))):
            y = step_top - 8 - LINE / 2 - k * LINE
            theme.write(image, (x0 + step_w / 2, y), theme.fit_text(name, TEXT, step_w), TEXT, theme.INK, "mm")


def _title_lines(title: str) -> list[str]:
    """The title in at most two lines: a long one ("Octiles Scavenger Hunt knockout") wraps
    rather than losing its end; only a name longer than two lines is cut."""
    return theme.fit_lines(title, TITLE, WIDTH - 2 * MARGIN, max_lines=TITLE_LINES)


def _header_height(title: str, notes: Sequence[str]) -> int:
    return MARGIN + len(_title_lines(title)) * (TITLE + 16) + LINE + len(notes) * LINE + 20


def _draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, title: str, subtitle: str, notes: Sequence[str]) -> int:
    y = MARGIN
    for line in _title_lines(title):
        theme.write(image, (MARGIN, y + (TITLE + 16) / 2), line, TITLE, theme.INK, "lm")
        y += TITLE + 16
    theme.write(
        image, (MARGIN, y + LINE / 2), theme.fit_text(subtitle, TEXT, WIDTH - 2 * MARGIN), TEXT, theme.MUTED, "lm"
    )
    y += LINE
    for note in notes:
        theme.write(
            image, (MARGIN, y + LINE / 2), theme.fit_text(note, TEXT, WIDTH - 2 * MARGIN), TEXT, theme.HIGHLIGHT, "lm"
        )
        y += LINE
    draw.line([(MARGIN, y + 8), (WIDTH - MARGIN, y + 8)], fill=theme.GRID, width=2)
    return y + 20


def _width(text: str) -> float:
    return theme.font(TEXT).getlength(text)
