"""docs/prometheus-alerts.yml and docs/grafana-dashboard.json read only figures the bot exports
(checked against a real scrape), promtool accepts the rules, and the database-down and bot-down
alerts fire on the series that mean it (``promtool test rules``), when promtool is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.bot.test_metrics import fetch, games, settings  # noqa: F401 (the metrics tests' fixtures)

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "docs" / "prometheus-alerts.yml"
DASHBOARD = ROOT / "docs" / "grafana-dashboard.json"
PROMTOOL = shutil.which("promtool")
SUFFIXES = ("_total", "_bucket", "_count", "_sum", "_info", "_created")


def family(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def named_in(text: str) -> set[str]:
    """The bot's own and its process collector's metric names an expression reads."""
    return {family(name) for name in re.findall(r"\b((?:octagon|process|python)_[a-z_]+)\b", text)}


def dashboard_expressions() -> list[str]:
    return [target["expr"] for panel in json.loads(DASHBOARD.read_text())["panels"] for target in panel["targets"]]


async def test_the_alerts_and_the_dashboard_read_only_exported_figures(world):
    _, text = await fetch(world, "/metrics")
    exported = {family(name) for name in re.findall(r"^# TYPE (\S+) ", text, re.MULTILINE)}
    alerts = named_in(ALERTS.read_text())
    dashboard = named_in("\n".join(dashboard_expressions()))
    assert alerts - exported == set()
    assert dashboard - exported == set()
    # The figures the issue names for alerting, each in both.
    wanted = {
        "octagon_database_up",
        "octagon_loop_lag_seconds",
        "octagon_outbox_backlog",
        "octagon_posts_given_up",
        "octagon_worker_queue_depth",
        "octagon_gateway_connected",
    }
    assert wanted - alerts == set()
    assert wanted - dashboard == set()


def test_the_dashboard_is_grafana_json_with_a_datasource_choice():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] == "octagon-bot"
    assert dashboard["title"] == "Octagon Games Bot"
    assert [v["type"] for v in dashboard["templating"]["list"]] == ["datasource"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    assert all(panel["datasource"]["uid"] == "${datasource}" for panel in dashboard["panels"])


def annotations(alert: str) -> dict[str, str]:
    block = ALERTS.read_text().split(f"- alert: {alert}\n", 1)[1].split("- alert:", 1)[0]
    return dict(re.findall(r'^\s+(summary|description): "(.*)"$', block, re.MULTILINE))


@pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (Debian: apt-get install prometheus)")
def test_promtool_accepts_the_rules_and_they_fire_when_they_should(tmp_path):
    checked = subprocess.run([PROMTOOL, "check", "rules", str(ALERTS)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    bot = {"job": "octagon-bot", "instance": "bot:9464"}
    cases = {
        "rule_files": [str(ALERTS)],
        "evaluation_interval": "1m",
        "tests": [
            {
                "interval": "1m",
                "input_series": [
                    {"series": 'up{job="octagon-bot",instance="bot:9464"}', "values": "1 1 0 0 0 0"},
                    {"series": 'octagon_database_up{job="octagon-bot",instance="bot:9464"}', "values": "1 0 0 0"},
                ],
                "alert_rule_test": [
                    {"eval_time": "1m", "alertname": "OctagonDatabaseDown", "exp_alerts": []},
                    {
                        "eval_time": "3m",
                        "alertname": "OctagonDatabaseDown",
                        "exp_alerts": [
                            {
                                "exp_labels": {**bot, "severity": "critical"},
                                "exp_annotations": annotations("OctagonDatabaseDown"),
                            }
                        ],
                    },
                    {
                        "eval_time": "5m",
                        "alertname": "OctagonBotDown",
                        "exp_alerts": [
                            {
                                "exp_labels": {**bot, "severity": "critical"},
                                "exp_annotations": annotations("OctagonBotDown"),
                            }
                        ],
                    },
                ],
            }
        ],
    }
    (tmp_path / "cases.yml").write_text(json.dumps(cases))  # JSON is YAML
    tested = subprocess.run(
        [PROMTOOL, "test", "rules", str(tmp_path / "cases.yml")], capture_output=True, text=True, timeout=60
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
