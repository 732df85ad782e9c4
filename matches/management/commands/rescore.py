"""Score every match afresh from what was entered; with --check, only report what differs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.clubs.models import Night, Season
from matches.clubs.services import night_standings_rescore, season_standings_rescore
from matches.models import Match
from matches.services import match_rescore


class Command(BaseCommand):
    help = (
        "Recompute every match's derived scores from the games as entered, with the current rules engine, and the "
        "sums closed club nights kept. "
        "With --check, write nothing: report the differences and exit with status 1 if there are any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="report differences without writing them")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        differences = 0
        matches = 0
        problems: list[str] = []
        for match in Match.objects.order_by("pk").iterator():
            report = match_rescore(match, check=check)
            matches += 1
            problems.extend(report.problems)
            if report.changed:
                differences += report.changed
                verb = "differ" if check else "rewritten"
                self.stdout.write(f"{match.public_id} ({match}): {report.changed} derived values {verb}")
        for night in Night.objects.filter(closed_at__isnull=False).order_by("pk").select_related("season"):
            changed = night_standings_rescore(night, check=check)
            if changed:
                differences += changed
                verb = "differ" if check else "rewritten"
                self.stdout.write(f"club night {night.public_id} ({night}): {changed} players' kept sums {verb}")
        for season in Season.objects.order_by("pk"):
            changed = season_standings_rescore(season, check=check)
            if changed:
                differences += changed
                verb = "differ" if check else "rewritten"
                self.stdout.write(f"season {season.public_id} ({season}): {changed} players' kept sums {verb}")
        for problem in problems:
            self.stderr.write(f"not scorable: {problem}")
        self.stdout.write(f"{matches} matches, {differences} differences{'' if check else ' rewritten'}")
        if check and (differences or problems):
            raise CommandError(f"{differences} differences, {len(problems)} games not scorable")
