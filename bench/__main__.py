"""``make bench``: every figure, one line each (``NAME  VALUE  goal GOAL  ok|MISSED``), in a temporary database of
its own; exits with 0 even when a goal is missed.

    python -m bench
    python -m bench --only "league table" --rounds 50
"""

from __future__ import annotations

import argparse
import os
import sys

from bench import BenchError


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=(
            "Measure the pages a table uses as the match grows, as ratios of interleaved medians, in a temporary "
            "database of its own. Prints one line per figure: NAME  VALUE  goal GOAL  ok|MISSED."
        ),
    )
    parser.add_argument("--rounds", type=int, default=150, help="repetitions of each side of each figure")
    parser.add_argument(
        "--only",
        default="",
        metavar="NAME-SUBSTRING",
        help="measure only the figures whose name contains this (any case), seeding only what they need",
    )
    arguments = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    # Only once Django is set up: the figures import the models.
    from bench.figures import Bench

    try:
        Bench(lambda line: print(line, flush=True)).run(rounds=arguments.rounds, only=arguments.only)
    except BenchError as error:
        sys.exit(f"bench: {error}")


if __name__ == "__main__":
    main()
