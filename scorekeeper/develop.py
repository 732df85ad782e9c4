"""``make run``: Scorekeeper on this computer alone (127.0.0.1:8000, SQLite by default, the development settings),
with the task worker beside it; both stop with Ctrl+C.

    python -m scorekeeper.develop
"""

from __future__ import annotations

import os
import sys

from scorekeeper.serve import BASE_DIR, manage, run_beside_worker

ADDRESS = "127.0.0.1:8000"


def main() -> None:
    env = dict(os.environ)
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")
    run_beside_worker(env, [sys.executable, str(BASE_DIR / "manage.py"), "runserver", ADDRESS])


if __name__ == "__main__":
    main()
