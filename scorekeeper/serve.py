"""``make serve``: Scorekeeper for the phones at the table, served to this computer's local network with production
settings, with the task worker (restores of large backups) beside it.

DEBUG is off whatever the environment says. The secret key is SECRET_KEY if given, else one made on the first run
and kept in SECRET_KEY_FILE (beside the database, readable by its owner only), so that sessions outlive a restart.
ALLOWED_HOSTS holds this computer's names and its address on the local network, and any given. The phones reach it
over plain HTTP (HTTPS=false): no TLS redirect, cookies not marked secure. gunicorn serves the pages, whitenoise the
static files. ``--check`` runs Django's deployment checks under the same settings and prints them, serving nothing.

    python -m scorekeeper.serve [--check]
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_SECRET_KEY_FILE = BASE_DIR / "secret.key"
# An address of the documentation range: "connecting" a UDP socket to it sends nothing, but picks the interface
# (and so the address) this computer would use to reach the network.
PROBE = ("192.0.2.1", 9)
SHOW_SETTINGS = (
    "from django.conf import settings as s; print('DEBUG', s.DEBUG); print('ALLOWED_HOSTS', s.ALLOWED_HOSTS)"
)


def secret_key(path: Path) -> str:
    """The key kept in ``path``; made there, readable by its owner only, if there is none yet."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        path.chmod(0o600)  # one copied or restored with looser rights is made its owner's again
        return path.read_text().strip()
    key = secrets.token_urlsafe(64)
    with os.fdopen(descriptor, "w") as kept:
        kept.write(key + "\n")
    return key


def lan_address() -> str | None:
    """This computer's address on the local network, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") else address


def allowed_hosts(given: str, address: str | None) -> list[str]:
    name = socket.gethostname()
    hosts = [*given.split(","), "localhost", "127.0.0.1", "[::1]", name, f"{name}.local", address or ""]
    return list(dict.fromkeys(host.strip() for host in hosts if host.strip()))


def serve_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment ``make serve`` runs under: production settings for a local network."""
    key = environ.get("SECRET_KEY") or secret_key(Path(environ.get("SECRET_KEY_FILE", DEFAULT_SECRET_KEY_FILE)))
    return {
        **environ,
        "DEBUG": "false",
        "HTTPS": "false",
        "SECRET_KEY": key,
        "ALLOWED_HOSTS": ",".join(allowed_hosts(environ.get("ALLOWED_HOSTS", ""), lan_address())),
    }


def manage(env: Mapping[str, str], *arguments: str) -> None:
    subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *arguments], env=env, check=True, cwd=BASE_DIR)


@contextmanager
def task_worker(env: Mapping[str, str], *arguments: str) -> Iterator[subprocess.Popen[bytes]]:
    """``manage.py db_worker`` (the background tasks, such as a restore) beside the web server, stopped with it."""
    worker = subprocess.Popen(
        [sys.executable, str(BASE_DIR / "manage.py"), "db_worker", *arguments], env=env, cwd=BASE_DIR
    )
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def _stop(signum: int, frame: FrameType | None) -> None:
    """A stop asked by the system (SIGTERM) ends the server and the worker as Ctrl+C does."""
    raise KeyboardInterrupt


def run_beside_worker(env: Mapping[str, str], command: Sequence[str], *worker_arguments: str) -> None:
    """Run ``command`` (the web server) until it ends or is stopped, with the task worker beside it."""
    signal.signal(signal.SIGTERM, _stop)
    with task_worker(env, *worker_arguments), suppress(KeyboardInterrupt):
        subprocess.run(command, env=env, cwd=BASE_DIR, check=False)


def main(argv: Sequence[str]) -> None:
    env = serve_environment(os.environ)
    if "--check" in argv:
        manage(env, "check", "--deploy", "--fail-level", "WARNING")
        subprocess.run(
            [sys.executable, "-c", SHOW_SETTINGS],
            env=env | {"DJANGO_SETTINGS_MODULE": "scorekeeper.settings"},
            check=True,
            cwd=BASE_DIR,
        )
        return
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")
    # The first start compresses every static file (whitenoise: gzip and Brotli) and takes a minute or two; later
    # starts find them done. Said, so that a first start does not look stuck.
    print("Preparing the static files (compressed once: the first start takes a minute or two) …", flush=True)
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    port = env.get("PORT", "8000")
    address = lan_address()
    print(f"Scorekeeper at http://{address or 'localhost'}:{port}/ (production settings; stop with Ctrl+C)", flush=True)
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    workers = env.get("WEB_CONCURRENCY", "2")
    arguments = ["scorekeeper.wsgi", "--bind", f"0.0.0.0:{port}", "--workers", workers, "--threads", "4"]
    run_beside_worker(env, [gunicorn, *arguments], "--no-reload")


if __name__ == "__main__":
    main(sys.argv[1:])
