"""Every game's lesson series, by game: /learn offers the games registered here."""

from __future__ import annotations

from bot.features.learn import octa, octagion, octagone, octego, octiles
from bot.features.learn.lessons import Series

SERIES: dict[str, Series] = {
    series.game: series for series in (octagion.SERIES, octego.SERIES, octa.SERIES, octagone.SERIES, octiles.SERIES)
}
