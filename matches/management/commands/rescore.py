"""Score every match afresh from what was entered, and sum afresh the standings the apps keep; with --check, only
report what differs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import ClosedList, Match
from matches.services import closed_lists_rescore, match_rescore, record_months_rescore
from matches.services.closed_lists import CHUNK
from matches.services.rankings import rankings_rescore
from matches.standings import kept_standings


class Command(BaseCommand):
    help = (
        "Recompute every match's derived scores from the games as entered, with the current rules engine, and the "
        "standings the apps keep of their closed events (a club night's sums, a league venue's series scores, a "
        "tournament's places). "
        "With --check, write nothing: report the differences and exit with status 1 if there are any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="report differences without writing them")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        differences = 0
        matches = 0
        problems: list[str] = []
        verb = "differ" if check else "rewritten"
        for match in Match.objects.order_by("pk").iterator():
            report = match_rescore(match, check=check)
            matches += 1
            problems.extend(report.problems)
            if report.changed:
                differences += report.changed
                self.stdout.write(f"{match.public_id} ({match}): {report.changed} derived values {verb}")
        # After the matches, so that the standings are summed from the scores as rewritten; each kind in the order
        # the apps registered them, so that standings summed from others' (a season's) come after those.
        for kind in kept_standings():
            for event in kind.events.order_by("pk"):
                changed = kind.rescore(event, check=check)
                if changed:
                    differences += changed
                    self.stdout.write(f"{kind.name} {event.public_id} ({event}): {changed} {kind.rows} {verb}")
        # The closed lists last, summed from the matches as rewritten, where their kinds say they closed.
        # A table's list is locked when its event closes it.
        closed = set(Match.objects.filter(locked=True).values_list("pk", flat=True))
        closed |= set(ClosedList.objects.values_list("match_id", flat=True).distinct())
        differing = closed_lists_rescore(closed, check=check)
        ids = sorted(differing)
        for start in range(0, len(ids), CHUNK):
            for match in Match.objects.filter(pk__in=ids[start : start + CHUNK]).order_by("pk"):
                changed = differing[match.pk]
                differences += changed
                self.stdout.write(f"closed lists {match.public_id} ({match}): {changed} players' closed lists {verb}")
        # The months a record reads, summed from the closed lists as rewritten.
        months = record_months_rescore(check=check)
        if months:
            differences += months
            self.stdout.write(f"record months: {months} players' months {verb}")
        # The rankings' places, worked out from the closed lists as rewritten.
        for ranking, periods in rankings_rescore(check=check).items():
            differences += periods
            self.stdout.write(f"ranking list {ranking.public_id} ({ranking}): {periods} periods' places {verb}")
        for problem in problems:
            self.stderr.write(f"not scorable: {problem}")
        self.stdout.write(f"{matches} matches, {differences} differences{'' if check else ' rewritten'}")
        if check and (differences or problems):
            raise CommandError(f"{differences} differences, {len(problems)} games not scorable")
