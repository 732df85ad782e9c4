"""Scorekeeper served by gunicorn on a free port of this machine, on a database of the caller's choosing, in
production settings: for ``make bench`` and the load test, which talk to it over HTTP as phones do.

The server is asked as if through the TLS proxy of a real deployment (``X-Forwarded-Proto: https``, see ``PROXIED``);
its workers can be listed and killed, and gunicorn's master starts new ones in their place.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from scorekeeper.serve import task_worker

HOST = "127.0.0.1"
# What the TLS proxy in front of gunicorn adds to every request (see docs/deploying.md).
PROXIED = {"X-Forwarded-Proto": "https"}
READY_WITHIN = 60.0


class ServerError(RuntimeError):
    """The server did not start, or stopped answering."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def request(self, method: str, path: str, body: Any = None, headers: Mapping[str, str] | None = None) -> Answer:
        """One request on a connection of its own, the body and the answer as JSON. Raises ``OSError`` or
        ``http.client.HTTPException`` when the connection fails (a worker killed while it answered)."""
        connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
        try:
            sent = {**PROXIED, **(headers or {})}
            payload = None
            if body is not None:
                payload = json.dumps(body).encode()
                sent["Content-Type"] = "application/json"
            connection.request(method, path, payload, sent)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        is_json = response.getheader("Content-Type", "").startswith("application/json")
        return Answer(response.status, json.loads(content) if is_json and content else content)

    def workers(self) -> list[int]:
        """The process ids of the master's workers, as they are now."""
        return children_of(self.process.pid)

    def kill_worker(self, pid: int) -> None:
        """Kill a worker at once, whatever it is doing: the master notices and starts another."""
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc: Linux only)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name, in parentheses, may hold spaces: the fields after it are split safely.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


@contextmanager
def gunicorn(database_url: str, *, workers: int, tasks: bool = False) -> Iterator[Server]:
    """gunicorn serving the project on ``database_url`` with ``workers`` sync workers, in production settings,
    until the block ends; its output goes to a temporary file (``Server.output``). With ``tasks``, the task worker
    runs beside it, as ``make serve`` runs it."""
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "LOG_LEVEL": "WARNING",
        # What is measured here is the app under many scorers, not the rate limits that a public server adds.
        "API_RATE_ANONYMOUS": "off",
        "API_RATE_ACCOUNT": "off",
    }
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "scorekeeper.wsgi",
        f"--bind={HOST}:{port}",
        f"--workers={workers}",
        "--timeout=60",
        "--graceful-timeout=5",
    ]
    with tempfile.NamedTemporaryFile(prefix="gunicorn-", suffix=".log", delete=False) as log:
        process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=environment, stdout=log, stderr=subprocess.STDOUT
        )
    server = Server(process, port, Path(log.name))
    try:
        _wait_until_ready(server, workers)
        with task_worker(environment, "--no-reload") if tasks else nullcontext():
            yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        server.log.unlink(missing_ok=True)


def _wait_until_ready(server: Server, workers: int) -> None:
    """Until every worker is up and the health check answers."""
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise ServerError(f"gunicorn stopped at start-up:\n{server.output()}")
        try:
            if server.request("GET", "/health/").status == 200 and len(server.workers()) >= workers:
                return
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    raise ServerError(f"gunicorn did not answer within {READY_WITHIN:g} s:\n{server.output()}")
