"""What members read of a tournament: its card in the channel (rules, players, round, podium), the
standings' heading, and a past event's line in /tournament history. What differs between a
tournament and a series (the round's line, each game's line, the pairings) each kind says itself."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.core.change import GameSession
from bot.core.text import NAME_LIMIT, escape
from bot.features.replays import HISTORY_REPLAY  # a game's replay, privately
from bot.features.tournaments.config import EventConfig, format_name, rules_paragraph, when_it_starts
from bot.features.tournaments.event import Event, Links
from bot.features.tournaments.kinds import event_of
from bot.ui.controls import SessionButton, SessionSelect, view_of

JOIN, LEAVE, START, STANDINGS_BUTTON = "tour_join", "tour_leave", "tour_start", "tour_standings"
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


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
    event = event_of(session.state)
    if record.status == "finished":
        lines = [head, f"**Final**{event.ended_words()} " + podium_line(event), *event.game_lines(links)]
        return "\n".join(lines), _replay_view(session, event, links)
    lines = [head, event.progress(config), f"-# {rules_paragraph(config, title, len(record.players))}"]
    view = view_of([SessionButton(record.id, STANDINGS_BUTTON, label="Standings")])
    return "\n".join(lines), view


NO_CHAMPION = "no champion: the final was forfeited by both"


def podium_line(event: Event) -> str:
    places = [f"{MEDALS[rank]} {' & '.join(escape(n, NAME_LIMIT) for n in names)}" for rank, names in event.places()]
    if event.no_champion():
        places.insert(0, NO_CHAMPION)
    return " · ".join(places)


def _replay_view(session: GameSession, event: Event, links: Links) -> discord.ui.View | None:
    options = [
        discord.SelectOption(label=event.game_label(number, table), value=str(game_id))
        for (number, table), (game_id, _) in sorted(links.items())[:25]
    ]
    if not options:
        return None
    return view_of([SessionSelect(session.id, HISTORY_REPLAY, options=options, placeholder="Replay a game privately")])


def standings_text(event: Event, name: str, number: int, final: bool) -> str:
    if final:
        return f"### 🏆 {escape(name, 60)}: final standings{event.ended_words()}\n{podium_line(event)}"
    return event.standings_heading(name, number)


def summary(session: GameSession, titles: Mapping[str, str]) -> str:
    """A past event in /tournament history: name, game, format, date and winners."""
    config = EventConfig.of(session.meta.options)
    winners = ""
    if session.state is not None:
        event = event_of(session.state)
        places = event.places()
        if places and places[0][0] == 1:
            winners = ": 🥇 " + " & ".join(escape(n, NAME_LIMIT) for n in places[0][1])
        elif event.no_champion():
            winners = f": {NO_CHAMPION}"
    when = f"<t:{int(session.record.updated_at.timestamp())}:d>"
    title = titles.get(config.game, config.game)
    return f"**{escape(config.name, 60)}** ({title}, {format_name(config)}, {when}){winners}"
