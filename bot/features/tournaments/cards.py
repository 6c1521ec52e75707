"""What members read of a tournament: its card in the channel (rules, players, round, podium),
the pairings' and the standings' lines beside their pictures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

import engines.tournament as kit
from bot.core.change import GameSession
from bot.core.text import NAME_LIMIT, escape
from bot.features.replays import HISTORY_REPLAY  # a game's replay, privately
from bot.features.tournaments.config import EventConfig, format_name, rules_paragraph, when_it_starts
from bot.ui.controls import SessionButton, SessionSelect, view_of
from engines.tournament import Series, Tournament
from render.tournament import points_text, result_words
from render.wording import plural

JOIN, LEAVE, START, STANDINGS_BUTTON = "tour_join", "tour_leave", "tour_start", "tour_standings"
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
Links = dict[tuple[int, int], tuple[int, int | None]]


def card_message(titles: Mapping[str, str], session: GameSession, links: Links) -> tuple[str, discord.ui.View | None]:
    """The card's text and buttons; ``titles``: each game's title by name."""
    config = EventConfig.of(session.meta.options)
    title = titles.get(config.game, config.game)
    record = session.record
    head = f"## 🏆 {config.name}\n{title} · {format_name(config)} · hosted by <@{record.host_id}>"
    if record.status == "lobby":
        joined = ", ".join(escape(name, NAME_LIMIT) for name in session.meta.names) or "nobody yet"
        lines = [
            head,
            rules_paragraph(config, title, len(record.players)),
            when_it_starts(config, record.host_id),
            f"**Players ({len(record.players)}):** {joined}",
        ]
        buttons = [
            SessionButton(record.id, JOIN, label="Join", style=discord.ButtonStyle.success),
            SessionButton(record.id, LEAVE, label="Leave"),
        ]
        if config.start_at is None:
            buttons.append(SessionButton(record.id, START, label="Start", style=discord.ButtonStyle.primary))
        return "\n".join(lines), view_of(buttons)
    if session.state is None:  # cancelled before its start
        return f"{head}\n{session.meta.ended_note or 'This tournament was cancelled.'}", None
    state = session.state
    if record.status == "finished":
        lines = [head, f"**Final**{ended_words(state)} " + podium_line(state), *final_lines(state, links)]
        return "\n".join(lines), _replay_view(session, state, links)
    lines = [head, progress_line(state, config), f"-# {rules_paragraph(config, title, len(record.players))}"]
    view = view_of([SessionButton(record.id, STANDINGS_BUTTON, label="Standings")])
    return "\n".join(lines), view


def progress_line(state: Tournament | Series, config: EventConfig) -> str:
    ends = f" · time is up <t:{config.deadline}:R>" if config.deadline and not config.paused else ""
    paused = " · ⏸ paused" if config.paused else ""
    if isinstance(state, Series):
        race = min(len(state.races) + 1, state.races_planned)
        return f"Race {race} of {state.races_planned}{ends}{paused}"
    current = state.current_round
    running = len(current.running()) if current else 0
    number = current.number if current else 0
    games = plural(running, "game") + " running" if running else "round complete"
    rematch = (
        f" · {plural(current.rematches, 'rematch', 'rematches')} (none avoidable)"
        if current and current.rematches
        else ""
    )
    return f"Round {number} of {state.rounds_planned} · {games}{ends}{paused}{rematch}"


NO_CHAMPION = "no champion: the final was forfeited by both"


def ended_words(state: Tournament | Series) -> str:
    """ " (ended by the host after round 2)" when the host ended the event; else nothing."""
    if not isinstance(state, Tournament) or state.ended_after is None:
        return ""
    after = state.ended_after
    return f" (ended by the host after round {after})" if after else " (ended by the host in round 1)"


def podium_line(state: Tournament | Series) -> str:
    places = [f"{MEDALS[rank]} {' & '.join(escape(n, NAME_LIMIT) for n in names)}" for rank, names in _places(state)]
    if isinstance(state, Tournament) and kit.final_forfeited(state):
        places.insert(0, NO_CHAMPION)
    return " · ".join(places)


def _places(state: Tournament | Series) -> list[tuple[int, list[str]]]:
    rows = kit.series_standings(state) if isinstance(state, Series) else kit.standings(state)
    ranks = sorted({row.rank for row in rows if row.rank <= 3})
    return [(rank, [row.name for row in rows if row.rank == rank]) for rank in ranks]


def final_lines(state: Tournament | Series, links: Links) -> list[str]:
    """Every game with its result and a link to its thread (its replay is on its card and in /history)."""
    if isinstance(state, Series):
        lines = []
        for race in state.races:
            where = links.get((race.number, 1))
            thread = f" <#{where[1]}>" if where and where[1] else ""
            winner = [state.name(e.player) for e in race.entries if e.place == 1]
            lines.append(f"Race {race.number}: won by {escape(' & '.join(winner) or 'nobody', NAME_LIMIT)}{thread}")
        return lines
    lines = []
    for round_ in state.rounds:
        games = []
        for pairing in round_.pairings:
            if pairing.is_bye:
                games.append(f"{escape(state.name(pairing.first), NAME_LIMIT)} bye")
                continue
            where = links.get((round_.number, pairing.table))
            thread = f" <#{where[1]}>" if where and where[1] else ""
            games.append(f"{_game_words(state, pairing)}{thread}")
        lines.append(f"R{round_.number}: " + " · ".join(games))
    return lines


def _game_words(state: Tournament, pairing: kit.Pairing) -> str:
    first, second = (escape(state.name(p), NAME_LIMIT) for p in pairing.players)
    said = result_words(state, pairing)
    return f"{first} ({said[0]}) v {second} ({said[1]})"


def _replay_view(session: GameSession, state: Tournament | Series, links: Links) -> discord.ui.View | None:
    options = []
    for (number, table), (game_id, _) in sorted(links.items())[:25]:
        label = f"Race {number}" if isinstance(state, Series) else f"Round {number}, table {table}"
        options.append(discord.SelectOption(label=label, value=str(game_id)))
    if not options:
        return None
    return view_of([SessionSelect(session.id, HISTORY_REPLAY, options=options, placeholder="Replay a game privately")])


def pairings_text(state: Tournament, number: int, name: str) -> str:
    round_ = state.round(number)
    lines = [f"### {escape(name, 60)}: round {number} of {state.rounds_planned}"]
    for pairing in round_.pairings:
        if pairing.is_bye:
            lines.append(f"Bye: <@{pairing.first}> (scores a win)")
        elif pairing.result is not None:
            lines.append(f"Table {pairing.table}: {_game_words(state, pairing)}")
        else:
            replay = f" (replay of table {pairing.replay_of})" if pairing.replay_of is not None else ""
            lines.append(f"Table {pairing.table}{replay}: <@{pairing.first}> (moves first) v <@{pairing.second}>")
    if round_.rematches:
        lines.append(f"⚠️ {plural(round_.rematches, 'rematch', 'rematches')}: no pairing without one was possible.")
    lines.append("Each game has its own thread; the players are pinged there.")
    return "\n".join(lines)


def standings_text(state: Tournament | Series, name: str, number: int, final: bool) -> str:
    if final:
        return f"### 🏆 {escape(name, 60)}: final standings{ended_words(state)}\n{podium_line(state)}"
    if isinstance(state, Series):
        return f"### {escape(name, 60)}: standings after race {number} of {state.races_planned}"
    return f"### {escape(name, 60)}: standings after round {number} of {state.rounds_planned}"


def standings_lines(state: Tournament | Series) -> list[str]:
    """The standings as text, for /tournament standings beside its picture."""
    if isinstance(state, Series):
        return [
            f"{row.rank}. {escape(row.name, NAME_LIMIT)}: {_points(row.points)}, {plural(row.wins, 'race')} won"
            for row in kit.series_standings(state)
        ]
    return [
        f"{row.rank}. {escape(row.name, NAME_LIMIT)}: {_points(row.points)}" + (" (withdrew)" if row.withdrawn else "")
        for row in kit.standings(state)
    ]


def _points(points: float) -> str:
    """1 point, 2.5 points, 0 points."""
    return f"{points_text(points)} point" + ("" if points == 1 else "s")


def summary(session: GameSession, titles: dict[str, str]) -> str:
    """A past event in /tournament history: name, game, format, date and winners."""
    config = EventConfig.of(session.meta.options)
    state: Any = session.state
    winners = ""
    if state is not None:
        places = _places(state)
        if places and places[0][0] == 1:
            winners = ": 🥇 " + " & ".join(escape(n, NAME_LIMIT) for n in places[0][1])
        elif isinstance(state, Tournament) and kit.final_forfeited(state):
            winners = f": {NO_CHAMPION}"
    when = f"<t:{int(session.record.updated_at.timestamp())}:d>"
    title = titles.get(config.game, config.game)
    return f"**{escape(config.name, 60)}** ({title}, {format_name(config)}, {when}){winners}"
