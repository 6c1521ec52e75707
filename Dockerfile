# The Octagon Games Bot in a container (README: "With Docker"). Build: docker build -t octagon-games-bot .
# Settings come from the environment (compose.yaml passes .env); the database and backups live in
# the /data volume. The pictures' font is Pillow's bundled one: no font package is needed.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /opt/octagon-bot
# The exact versions, every file's hash checked (requirements/runtime.lock, made by scripts/lock.py),
# in a layer of their own: a change of the code does not install them again.
COPY requirements/runtime.lock requirements/runtime.lock
RUN pip install --require-hashes -r requirements/runtime.lock
COPY pyproject.toml README.md LICENSE ./
COPY engines engines
COPY render render
COPY bot bot
RUN pip install --no-deps .

# A user of its own, owning only the data folder.
RUN groupadd --system --gid 10001 octagon \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin octagon \
    && mkdir /data && chown 10001:10001 /data && chmod 700 /data
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]

# /healthz and /metrics on 9464, on every interface of the container (publish it to the host's
# loopback only: compose.yaml does); the database in the volume.
ENV DATABASE_PATH=/data/octagon.db \
    METRICS_PORT=9464 \
    METRICS_HOST=0.0.0.0
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "healthcheck"]

# The bot is the container's main process (exec form, no shell in between), so `docker stop`'s
# SIGTERM reaches it and it stops gracefully (within compose.yaml's stop_grace_period).
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
