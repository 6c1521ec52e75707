"""Health and metrics for whoever runs the bot (``METRICS_PORT``; off by default).

An HTTP server on ``METRICS_HOST`` (127.0.0.1 by default) inside the bot's process serves:

``/healthz``  200 ``ok`` only when the gateway is connected and the database answers, else
              503 with what is wrong (for a supervisor or a load balancer's check);
``/metrics``  the Prometheus text format (``prometheus-client``), every name ``octagon_``:

    interactions_total{kind}         interactions received (command, component, modal_submit, ...)
    acks_total{kind}                 interactions acknowledged (counted where discord.py records
                                     any response, so every answer counts, whoever made it)
    ack_seconds{kind}                from Discord's creation of the interaction to its acknowledgement
    picture_seconds                  a picture drawn in a worker, queue included
    database_trip_seconds            one trip to the database (statements sent together, or a query)
    worker_queue_depth{pool}         calls waiting or running in each pool of worker processes
    worker_queue_limit{pool}         the depth at which a pool turns players away ("busy")
    outbox_backlog                   outbox entries not sent yet
    outbox_oldest_seconds            the age of the oldest of them
    timers_due                       stored timers whose deadline has passed
    errors_total{kind}               failures by kind: unexpected, refused, busy, database, restarting
    live_sessions{game}              challenges, lobbies and games in progress, by game
    posts_given_up_total{kind}       outbox entries given up after their last try, by kind
    loop_lag_seconds                 how late the event loop woke its monitor lately (the largest
                                     of its last wakes and the one overdue now; bot.core.loop_lag)
    gateway_connected{shard}         1 while the shard's gateway connection is up, else 0
    gateway_latency_seconds{shard}   the shard's heartbeat round trip (absent before the first)
    guilds                           servers the bot is in
    database_up                      1 if the database answered this scrape, else 0; while it is
                                     0, outbox_backlog, outbox_oldest_seconds, timers_due and
                                     live_sessions are absent (not their last value)
    build_info{version,python,discord_py}  1, labelled with what runs
    process_*, python_info           the client library's process and platform collectors
                                     (memory, CPU, open files, start time)

The figures read from the database are read when ``/metrics`` is scraped.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import platform
import time
import weakref
from collections.abc import Iterator
from typing import Any

import discord
from aiohttp import web
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot import __version__
from bot.core import loop_lag, workers
from bot.core.store import Store

log = logging.getLogger(__name__)

HEALTH_TIMEOUT_SECONDS = 2.0
ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0)
PICTURE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TRIP_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

_running: weakref.WeakKeyDictionary[Any, Metrics] = weakref.WeakKeyDictionary()


# Outbox entries given up, by kind, in this process (whether or not metrics are served).
_given_up: collections.Counter[str] = collections.Counter()


def posts_given_up(kind: str) -> None:
    """Told by the outbox when it gives an entry of ``kind`` up (after its last try)."""
    _given_up[kind] += 1


def acknowledged(interaction: discord.Interaction) -> None:
    """An interaction was answered (a reply, a deferral, a modal, an update, autocomplete)."""
    metrics = _running.get(interaction.client)
    if metrics is not None:
        metrics.observe_ack(interaction)


def count_every_acknowledgement() -> None:
    """The one place every acknowledgement is counted: discord.py records each response it
    made by setting ``InteractionResponse._response_type``, whichever method made it, so the
    slot is wrapped once to report each to :func:`acknowledged`."""
    slot = discord.InteractionResponse.__dict__["_response_type"]
    if isinstance(slot, _Recorded):
        return
    setattr(discord.InteractionResponse, "_response_type", _Recorded(slot))  # noqa: B010 (a slot, for mypy)


class _Recorded:
    """The ``_response_type`` slot, reporting each response type set on it."""

    def __init__(self, slot: Any):
        self.slot = slot

    def __get__(self, response: Any, owner: Any = None) -> Any:
        return self if response is None else self.slot.__get__(response, owner)

    def __set__(self, response: Any, value: Any) -> None:
        self.slot.__set__(response, value)
        if value is not None:
            acknowledged(response._parent)


def interaction_kind(interaction: discord.Interaction) -> str:
    return interaction.type.name if interaction.type is not None else "unknown"


def gateway_connected(bot: discord.Client) -> bool:
    if bot.is_closed() or not bot.is_ready():
        return False
    shards = getattr(bot, "shards", None)
    if shards:
        return all(not shard.is_closed() for shard in shards.values())
    return bot.ws is None or bot.ws.open


class Metrics:
    """The counters of one bot, its HTTP server, and the figures read at each scrape."""

    def __init__(self, bot: discord.Client, store: Store, errors: Any):
        self.bot, self.store, self.errors = bot, store, errors
        self.registry = CollectorRegistry()
        self.interactions = Counter("octagon_interactions", "Interactions received", ["kind"], registry=self.registry)
        self.acks = Counter("octagon_acks", "Interactions acknowledged", ["kind"], registry=self.registry)
        self.ack_seconds = Histogram(
            "octagon_ack_seconds",
            "Interaction to acknowledgement",
            ["kind"],
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.picture_seconds = Histogram(
            "octagon_picture_seconds", "A picture drawn in a worker", buckets=PICTURE_BUCKETS, registry=self.registry
        )
        self.trip_seconds = Histogram(
            "octagon_database_trip_seconds", "One trip to the database", buckets=TRIP_BUCKETS, registry=self.registry
        )
        self.registry.register(_Figures(self))
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self.read: dict[str, Any] = {}  # what the last scrape read from the database
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._undo: list[Any] = []

    # ------------------------------------------------------------- observing
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.labels(interaction_kind(interaction)).inc()

    def observe_ack(self, interaction: discord.Interaction) -> None:
        kind = interaction_kind(interaction)
        self.acks.labels(kind).inc()
        waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        self.ack_seconds.labels(kind).observe(max(waited, 0.0))

    def _time_pictures(self) -> None:
        pool, draw = workers.PICTURES, workers.PICTURES.draw

        async def timed_draw(picture: workers.Drawing) -> Any:
            started = time.perf_counter()
            try:
                return await draw(picture)
            finally:
                self.picture_seconds.observe(time.perf_counter() - started)

        pool.draw = timed_draw
        self._undo.append(lambda: vars(pool).pop("draw", None))

    def _time_database(self) -> None:
        store, database = self.store, self.store.database
        store.database = _TimedDatabase(database, self.trip_seconds)
        self._undo.append(lambda: setattr(store, "database", database))

    # ------------------------------------------------------------- serving
    async def start(self, host: str, port: int) -> None:
        count_every_acknowledgement()
        loop_lag.monitor()  # measuring from the start, not from the first busy check
        self._time_pictures()
        self._time_database()
        self.bot.add_listener(self.on_interaction, "on_interaction")
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.port = self._runner.addresses[0][1]
        _running[self.bot] = self
        log.info("metrics on http://%s:%s/metrics", host, self.port)

    async def stop(self) -> None:
        _running.pop(self.bot, None)
        self.bot.remove_listener(self.on_interaction, "on_interaction")
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        problems = []
        if not gateway_connected(self.bot):
            problems.append("gateway: not connected")
        try:
            await asyncio.wait_for(self.store.answers(), HEALTH_TIMEOUT_SECONDS)
        except Exception as error:
            problems.append(f"database: {type(error).__name__}")
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ok\n")

    async def metrics(self, request: web.Request) -> web.Response:
        try:
            self.read = await asyncio.wait_for(self._read_database(), HEALTH_TIMEOUT_SECONDS)
        except Exception as error:  # the rest is still worth scraping
            log.warning("metrics: the database did not answer (%s)", error)
            self.read = {}
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _read_database(self) -> dict[str, Any]:
        now = discord.utils.utcnow()
        backlog = await self.store.backlog(now)
        oldest = backlog.oldest_outbox
        return {
            "outbox_backlog": backlog.outbox,
            "outbox_oldest_seconds": max((now - oldest).total_seconds(), 0.0) if oldest else 0.0,
            "timers_due": backlog.timers_due,
            "live_sessions": backlog.live,
        }


class _Figures:
    """The figures read at scrape time: worker queues, errors, and what the database said."""

    def __init__(self, metrics: Metrics):
        self._metrics = metrics

    def collect(self) -> Iterator[Any]:
        queues = GaugeMetricFamily("octagon_worker_queue_depth", "Calls waiting or running", labels=["pool"])
        limits = GaugeMetricFamily("octagon_worker_queue_limit", "Calls before players are told busy", labels=["pool"])
        for pool in (workers.PICTURES, workers.THINKING, workers.REPLAYS):
            queues.add_metric([pool.name], pool.pending)
            limits.add_metric([pool.name], pool.queue_limit)
        yield queues
        yield limits
        given_up = CounterMetricFamily("octagon_posts_given_up", "Outbox entries given up", labels=["kind"])
        for kind, count in sorted(_given_up.items()):
            given_up.add_metric([kind], count)
        yield given_up
        yield GaugeMetricFamily("octagon_loop_lag_seconds", "How late the event loop wakes", value=_loop_lag())
        yield from _gateway(self._metrics.bot)
        yield GaugeMetricFamily("octagon_guilds", "Servers the bot is in", value=len(self._metrics.bot.guilds))
        build = InfoMetricFamily("octagon_build", "What runs", labels=["version", "python", "discord_py"])
        build.add_metric([__version__, platform.python_version(), discord.__version__], {})
        yield build
        errors = CounterMetricFamily("octagon_errors", "Failures by kind", labels=["kind"])
        for kind, count in sorted(self._metrics.errors.counts.items()):
            errors.add_metric([kind], count)
        yield errors
        read = self._metrics.read
        yield GaugeMetricFamily("octagon_database_up", "The database answered this scrape", value=int(bool(read)))
        for name, text in (
            ("outbox_backlog", "Outbox entries not sent yet"),
            ("outbox_oldest_seconds", "Age of the oldest outbox entry"),
            ("timers_due", "Stored timers past their deadline"),
        ):
            if name in read:
                yield GaugeMetricFamily(f"octagon_{name}", text, value=read[name])
        live = GaugeMetricFamily("octagon_live_sessions", "Challenges, lobbies and games in progress", labels=["game"])
        for game, count in sorted(read.get("live_sessions", {}).items()):
            live.add_metric([game], count)
        yield live


def _loop_lag() -> float:
    """The largest lag of the running loop's last wakes, the one overdue now included."""
    try:
        lags = loop_lag.monitor()
    except RuntimeError:  # no running loop: a scrape from outside the bot
        return 0.0
    return max([*lags.lags, lags.overdue()])


def _gateway(bot: discord.Client) -> Iterator[Any]:
    """Each shard's connection and heartbeat round trip (shard 0 for a bot without shards)."""
    connected = GaugeMetricFamily("octagon_gateway_connected", "Gateway connection up", labels=["shard"])
    latency = GaugeMetricFamily("octagon_gateway_latency_seconds", "Heartbeat round trip", labels=["shard"])
    shards = getattr(bot, "shards", None)
    if shards:
        for shard_id, shard in sorted(shards.items()):
            connected.add_metric([str(shard_id)], int(bot.is_ready() and not shard.is_closed()))
            if math.isfinite(shard.latency):
                latency.add_metric([str(shard_id)], shard.latency)
    else:
        shard_id = str(getattr(bot, "shard_id", None) or 0)
        connected.add_metric([shard_id], int(gateway_connected(bot)))
        if math.isfinite(bot.latency):
            latency.add_metric([shard_id], bot.latency)
    yield connected
    yield latency


class _TimedDatabase:
    """The store's database with every trip timed (everything else passed through)."""

    def __init__(self, database: Any, histogram: Histogram):
        self._database = database
        self._histogram = histogram

    def __getattr__(self, name: str) -> Any:
        return getattr(self._database, name)

    def trips(self) -> Any:
        return _TimedTrips(self._database.trips(), self._histogram)

    async def rows(self, sql: str, params: Any = ()) -> list[Any]:
        with self._histogram.time():
            return await self._database.rows(sql, params)


class _TimedTrips:
    def __init__(self, trips: Any, histogram: Histogram):
        self._trips = trips
        self._histogram = histogram

    async def send(self, statements: list[Any], rows: bool, last: bool) -> list[Any] | None:
        with self._histogram.time():
            return await self._trips.send(statements, rows, last)

    async def commit(self, statements: list[Any]) -> None:
        with self._histogram.time():
            await self._trips.commit(statements)

    async def abort(self) -> None:
        await self._trips.abort()

    async def release(self) -> None:
        await self._trips.release()


async def start_metrics(bot: discord.Client, store: Store, errors: Any, host: str, port: int) -> Metrics:
    metrics = Metrics(bot, store, errors)
    await metrics.start(host, port)
    return metrics


async def start_if_configured(bot: Any) -> Metrics | None:
    """The metrics server of a bot whose settings name a METRICS_PORT (None when off)."""
    settings = bot.settings
    if settings.metrics_port is None:
        return None
    return await start_metrics(bot, bot.store, bot.platform.errors, settings.metrics_host, settings.metrics_port)
