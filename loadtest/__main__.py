"""``make loadtest``: a federation's match day against the production stack, with Locust.

    python -m loadtest --venues 20 --spectators 200 --seconds 120

On a database of its own (a fresh PostgreSQL database beside the one ``DATABASE_URL`` names, else a SQLite file),
it seeds the match day through the services (``loadtest.day``), starts gunicorn with its workers and the task worker
in production settings, and nginx in front with the shared cache ``docs/deploying.md`` describes where nginx is
installed. It measures a save alone first, then runs the match day's users (``loadtest/locustfile.py``) headless for
the time given, and prints one line per figure, as ``make bench`` does: requests per second and p50/p95/p99 by kind,
the errors, the saves the phones were told of that the database lost or holds twice, the totals against a fresh
scoring (``manage.py rescore --check``), and the figures the issue names. Exits with 1 where anything was lost,
duplicated, refused with a 5xx or summed wrong.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from .pages import entry_of, next_game

ROOT = Path(__file__).resolve().parent.parent
# The answers a shared cache gave (nginx's $upstream_cache_status): fresh, stale while another asked, or revalidated.
FROM_CACHE = {"HIT", "STALE", "UPDATING", "REVALIDATED"}
SAVE_ALONE = 100
# Saves made first and not timed: the workers' first requests load what they keep.
WARM_UP = 10
SAVE_RATIO_GOAL = 3
CACHE_GOAL = 90
FOLLOW_HELD_MS = 1000
NGINX = """
worker_processes 1;
worker_rlimit_nofile 20000;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream scorekeeper {{ server 127.0.0.1:{upstream}; }}
    proxy_cache_path {prefix}/cache keys_zone=scorekeeper:10m max_size=100m inactive=10m;
    server {{
        listen 127.0.0.1:{port};
        location / {{
{cache}
            add_header X-Cache-Status $upstream_cache_status always;
            proxy_pass http://scorekeeper;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


def cache_directives() -> str:
    """The shared cache's directives, as ``docs/deploying.md`` gives them."""
    text = (ROOT / "docs" / "deploying.md").read_text()
    start = text.index("# The shared cache: begin")
    end = text.index("# The shared cache: end")
    return text[text.index("\n", start) + 1 : end].rstrip()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def database() -> Iterator[str]:
    """A database of the load test's own: a fresh PostgreSQL database where ``DATABASE_URL`` names PostgreSQL
    (dropped afterwards), else a SQLite file in a temporary folder."""
    given = os.environ.get("DATABASE_URL", "")
    if not given.startswith(("postgres://", "postgresql://")):
        with tempfile.TemporaryDirectory(prefix="loadtest-") as folder:
            yield f"sqlite:///{folder}/loadtest.sqlite3"
        return
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(given)
    name = f"loadtest_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(
        host=config["HOST"],
        port=config["PORT"] or 5432,
        user=config["USER"],
        password=config["PASSWORD"],
        dbname="postgres",
        autocommit=True,
    )
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield given.rsplit("/", 1)[0] + f"/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@contextmanager
def nginx(upstream: int, folder: Path) -> Iterator[int | None]:
    """nginx in front of ``upstream`` with the documented shared cache, on a port of its own; None where nginx is
    not installed (the users then ask gunicorn itself)."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        yield None
        return
    port = free_port()
    # Its workers (another user where it starts as root) write the cache and the bodies they pass on here.
    folder.chmod(0o755)
    indented = "\n".join(" " * 12 + line.strip() for line in cache_directives().splitlines() if line.strip())
    config = NGINX.format(
        prefix=folder,
        upstream=upstream,
        port=port,
        cache=indented.replace("/var/cache/nginx/scorekeeper", str(folder / "cache")),
    )
    (folder / "nginx.conf").write_text(config)
    process = subprocess.Popen([binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"])
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def save_alone(base: str, tables: list[dict[str, str]]) -> tuple[list[float], list[dict[str, str]]]:
    """``SAVE_ALONE`` saves at ``tables`` in turn, one after the other, nothing else asking: each one's time in ms,
    and the saves as the phones were told of them."""
    import requests

    phones = []
    for table in tables:
        phone = requests.Session()
        phone.get(base + table["join"])
        phone.post(base + table["join"], headers={"X-CSRFToken": phone.cookies.get("csrftoken", "")})
        match = f"/matches/{table['match']}/"
        phones.append((phone, table, match, phone.get(base + match).text))
    times, told = [], []
    for turn in range(WARM_UP + SAVE_ALONE):
        phone, table, match, page = phones[turn % len(phones)]
        found = entry_of(page)
        assert found, f"the match page has no entry form:\n{page[:3000]}"
        data = next_game(*found)
        headers = {"HX-Request": "true", "X-CSRFToken": phone.cookies.get("csrftoken", "")}
        started = time.perf_counter()
        answer = phone.post(f"{base}{match}games/", data=data, headers=headers)
        times.append((time.perf_counter() - started) * 1000)
        told.append({"match": table["match"], "token": data["token"]})
        assert answer.status_code == 200, f"a save alone answered {answer.status_code}"
        phones[turn % len(phones)] = (phone, table, match, answer.text)
    return times[WARM_UP:], told


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def stats(prefix: str) -> dict[str, dict[str, str]]:
    with open(f"{prefix}_stats.csv", newline="") as file:
        return {row["Name"]: row for row in csv.DictReader(file)}


def checked(told: list[dict[str, str]], sent: list[str], after: int) -> tuple[int, int, int]:
    """Of the saves the phones were told of: how many the database lost; how many games it holds twice or that no
    phone sent (``sent``: the keys of every save sent, answered or not); and the differences a fresh scoring finds
    in every derived figure. ``after``: the last change the seeding made."""
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from matches.models import MatchEvent

    tokens = {one["token"] for one in told}
    asked = tokens | set(sent)
    added = Counter(
        str(token)
        for token in MatchEvent.objects.filter(action=MatchEvent.Action.ADD, pk__gt=after).values_list(
            "token", flat=True
        )
    )
    lost = sum(1 for token in tokens if token not in added)
    twice = sum(count for token, count in added.items() if token not in asked) + sum(
        count - 1 for count in added.values() if count > 1
    )
    out = io.StringIO()
    try:
        call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
        differences = 0
    except CommandError as error:
        differences = int(str(error).split()[0])
    return lost, twice, differences


def line(name: str, value: str, goal: str = "", met: bool | None = None) -> None:
    verdict = "" if met is None else ("  ok" if met else "  MISSED")
    print(f"{name}  {value}" + (f"  goal {goal}" if goal else "") + verdict, flush=True)


@contextmanager
def stack(url: str, folder: Path, workers: int) -> Iterator[str]:
    """The production stack on ``url``: gunicorn with ``workers`` workers and the task worker, nginx with its shared
    cache in front where it is installed; the address the users ask. Plain HTTP between the users and the stack, as
    `make serve` has it on a local network: the TLS in front of a real deployment changes nothing measured here."""
    from bench.serving import gunicorn

    production = {**os.environ, "DEBUG": "false", "SECRET_KEY": uuid.uuid4().hex * 2, "ALLOWED_HOSTS": "127.0.0.1"}
    # The pages name their static files as production keeps them (hashed and compressed, once: later runs find them).
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=production,
        check=True,
    )
    os.environ["HTTPS"] = "false"
    with gunicorn(url, workers=workers, tasks=True) as server, nginx(server.port, folder) as proxy:
        print(
            f"gunicorn with {workers} workers" + (", nginx with its shared cache in front" if proxy else ""), flush=True
        )
        yield f"http://127.0.0.1:{proxy or server.port}"


def run_users(base: str, plan_file: Path, folder: Path, users: int, arguments: argparse.Namespace) -> None:
    """The match day's users (``loadtest/locustfile.py``) against ``base``, headless, for the time given."""
    environment = {
        **os.environ,
        "LOADTEST_PLAN": str(plan_file),
        "LOADTEST_TOLD": str(folder / "told.json"),
        "LOADTEST_SAVE_EVERY": arguments.save_every,
    }
    command = [sys.executable, "-m", "locust", "-f", str(ROOT / "loadtest" / "locustfile.py"), "--headless"]
    # The phones come in ``--arrival`` a second, as tables sit down and open their links, and the figures count from
    # when all are in (``--reset-stats``): the day as it is played, not its first minutes' joins.
    rate = arguments.arrival
    command += ["--users", str(users), "--spawn-rate", str(rate), "--reset-stats"]
    command += ["--run-time", f"{arguments.seconds + users // rate + 5}s"]
    command += ["--host", base, "--csv", str(folder / "load"), "--only-summary", "--stop-timeout", "10"]
    command += ["--exit-code-on-error", "0", "--loglevel", "WARNING"]
    with open(folder / "locust.log", "w") as log:
        ran = subprocess.run(command, env=environment, cwd=ROOT, check=False, stdout=log, stderr=log)
    if ran.returncode != 0:
        print((folder / "locust.log").read_text()[-4000:], file=sys.stderr)
        raise SystemExit(f"locust stopped with {ran.returncode}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest", description=__doc__.split("\n\n")[0])
    parser.add_argument("--venues", type=int, default=20, help="venues of the match day, in groups of four")
    parser.add_argument("--spectators", type=int, default=200, help="spectators without an account")
    parser.add_argument("--seconds", type=int, default=120, help="how long the day is measured, once its users came in")
    parser.add_argument("--save-every", default="60-120", help="seconds between a table's saves, as LOW-HIGH")
    parser.add_argument(
        "--arrival", type=int, default=20, help="users coming in a second (a phone opening its table's link, ...)"
    )
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn's workers")
    parser.add_argument(
        "--against",
        metavar="URL",
        help="ask these servers (a load balancer's address) instead of starting the stack; the day is seeded into, "
        "and checked in, the database DATABASE_URL names, which must be theirs",
    )
    arguments = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    with (
        nullcontext(os.environ["DATABASE_URL"]) if arguments.against else database() as url,
        tempfile.TemporaryDirectory(prefix="loadtest-") as scratch,
    ):
        os.environ["DATABASE_URL"] = url
        import django

        django.setup()
        from django.core.management import call_command

        from matches.models import MatchEvent

        from .day import seed_day

        if not arguments.against:
            call_command("migrate", verbosity=0)
            call_command("createcachetable", verbosity=0)
        started = time.perf_counter()
        plan = seed_day(arguments.venues)
        seeded = MatchEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        folder = Path(scratch)
        plan.write(folder / "plan.json")
        engine = "PostgreSQL" if url.startswith("postgres") else "SQLite"
        print(
            f"seeded {arguments.venues} venues, {len(plan.tables)} tables in {time.perf_counter() - started:.0f} s "
            f"on {engine}",
            flush=True,
        )
        with nullcontext(arguments.against) if arguments.against else stack(url, folder, arguments.workers) as base:
            # Four of a league's tables: a series of 48 games each, two of them entered.
            alone, told_alone = save_alone(base, plan.tables[:4])
            users = len(plan.tables) * 4 + len(plan.venues) * 2 + 2 + arguments.spectators
            run_users(base, folder / "plan.json", folder, users, arguments)
        told = json.loads((folder / "told.json").read_text())
        figures = stats(str(folder / "load"))
        with open(folder / "load_failures.csv", newline="") as file:
            failures = list(csv.DictReader(file))
        lost, twice, differences = checked(told["saves"] + told_alone, told["sent"], seeded)
    return report(arguments, plan, figures, failures, told, alone, told_alone, (lost, twice, differences))


def report(
    arguments: argparse.Namespace,
    plan: Any,
    figures: dict[str, dict[str, str]],
    failures: list[dict[str, str]],
    told: dict[str, Any],
    alone: list[float],
    told_alone: list[dict[str, str]],
    found: tuple[int, int, int],
) -> int:
    """One line per figure; 1 where anything was lost, kept twice, refused or summed wrong."""
    lost, twice, differences = found
    cores = os.cpu_count() or 1
    total = figures.pop("Aggregated")
    for name, row in sorted(figures.items()):
        if not int(row["Request Count"]):
            continue
        line(f"{name}: requests per second", f"{float(row['Requests/s']):.2f}")
        line(f"{name}: p50/p95/p99 ms", f"{row['50%']}/{row['95%']}/{row['99%']}")
    errors = int(total["Failure Count"])
    save_p99 = float(figures["save"]["99%"]) if "save" in figures else 0.0
    alone_p99 = percentile(alone, 0.99)
    line("save p99 alone ms", f"{alone_p99:.0f}  (median {statistics.median(alone):.0f})")
    ratio = save_p99 / alone_p99
    line("save p99 under a match day / save p99 alone", f"{ratio:.2f}", str(SAVE_RATIO_GOAL), ratio <= SAVE_RATIO_GOAL)
    answered = sum(told["cache"].values())
    if answered and any(key != "none" for key in told["cache"]):
        share = 100 * sum(count for key, count in told["cache"].items() if key in FROM_CACHE) / answered
        line("spectator requests answered by the cache %", f"{share:.1f}", str(CACHE_GOAL), share >= CACHE_GOAL)
    else:
        line("spectator requests answered by the cache %", "n/a (no shared cache in front)")
    followers = len(plan.tables) * 3
    follow_p99 = float(figures["follow"]["99%"]) if "follow" in figures else 0.0
    held = followers / cores if follow_p99 <= FOLLOW_HELD_MS else 0
    line(
        "followers held at p99 ≤ 1 s, per core",
        f"{held:.0f}  ({arguments.venues} venues, {followers} followers, follow p99 {follow_p99:.0f} ms, "
        f"{cores} cores)",
    )
    line("requests", f"{total['Request Count']}  ({float(total['Requests/s']):.1f} per second)")
    line("errors", str(errors), "0", errors == 0)
    for failure in failures:
        print(f"  {failure['Occurrences']} × {failure['Method']} {failure['Name']}: {failure['Error'][:160]}")
    line("saves told", str(len({one["token"] for one in told["saves"] + told_alone})))
    line("lost saves", str(lost), "0", lost == 0)
    line("duplicated saves", str(twice), "0", twice == 0)
    line("totals against a recomputation: differences", str(differences), "0", differences == 0)
    return 0 if errors == lost == twice == differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
