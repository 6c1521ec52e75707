"""Every game's lesson series, by game: /learn offers the games registered here."""

from __future__ import annotations

from bot.features.learn import octagone, octego, octiles
from bot.features.learn.lessons import Series

SERIES: dict[str, Series] = {series.game: series for series in (octego.SERIES, octagone.SERIES, octiles.SERIES)}
