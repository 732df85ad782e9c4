"""Closing a venue and its report: the venue closed and reopened, the results it keeps and the standings they add
to, the captains' confirmations, the manager's acceptance, and the rescores."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict, Invalid
from matches.models import Match
from matches.services import closed_lists_report, match_lock, match_unlock
from matches.services.tables import moved_on
from matches.standings import rows_differ

from ..models import (
    Correction,
    Group,
    LeagueManager,
    PlayerSeries,
    PlayerStanding,
    ReportConfirmation,
    SeriesScore,
    Team,
    TeamStanding,
    Venue,
    VenueTable,
    VenueTeam,
)
from ..selectors import SeriesResult, kept_day, standing_confirmations, venue_report
from .common import lock_venue


def venue_close(*, venue: Venue, user: User | None) -> Venue:
    """Close a venue whose every series is seated and every table's list complete (kept on paper, or all its
    planned games entered): each list is locked and its scoring link turned off through the core, and the teams'
    series scores and the players' totals are kept for the group's table and the players' ranking. Its report is
    ready from then on. Closing a closed venue leaves it as it is."""
    with transaction.atomic():
        locked = lock_venue(venue)
        if locked.closed_at is not None:
            return locked
        # Every list locked first, and the report read under the locks: a game taken back (an undo, a deletion) or
        # saved while the venue closes is counted or keeps it open; a refusal rolls the locks back.
        for table in VenueTable.objects.filter(venue=locked).select_related("match").order_by("series", "number"):
            match_lock(match=table.match, user=user, end_scoring=True)
        report = venue_report(locked)
        problems = []
        for series in report.series:
            if not series.seated:
                problems.append(
                    FieldError("series", msg(gettext_noop("Series {series} is not seated yet."), series=series.number))
                )
            for result in series.tables:
                if not result.complete:
                    problems.append(
                        FieldError(
                            "tables",
                            msg(
                                gettext_noop("Table {number} of series {series} has {count} of {games} games."),
                                number=result.table.number,
                                series=series.number,
                                count=result.games,
                                games=result.table.match.planned_games or 0,
                            ),
                        )
                    )
        if problems:
            raise Conflict(problems)
        _keep_results(locked, report.series)
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        closed_lists_report(match_ids=VenueTable.objects.filter(venue=locked).values_list("match_id", flat=True))
        _standings_move(locked, 1)
        moved_on(locked)
        closed_version = Venue.objects.values_list("version", flat=True).get(pk=locked.pk)
        corrected = Correction.objects.filter(venue=locked, closed_at__isnull=True).first()
        if corrected is not None:
            corrected.after = _scores_of(locked)
            corrected.closed_at, corrected.closed_version = locked.closed_at, closed_version
            corrected.save(update_fields=["after", "closed_at", "closed_version"])
        # The results the report shows stand from this version on, until the venue reopens; a correction closed
        # again with every result as it was changes none, and a report read before it shows them still.
        if corrected is None or corrected.results != report.results_digest():
            Venue.objects.filter(pk=locked.pk).update(results_version=closed_version)
        return locked


def _keep_results(venue: Venue, series: Sequence[SeriesResult]) -> None:
    """Write the closing venue's derived rows: each team's series scores and each player's series totals."""
    scores, totals = _results(venue, series)
    SeriesScore.objects.bulk_create(scores)
    PlayerSeries.objects.bulk_create(totals)


def _results(venue: Venue, series: Sequence[SeriesResult]) -> tuple[list[SeriesScore], list[PlayerSeries]]:
    """The venue's derived rows as its report's ``series`` give them, not yet written: each team's series scores and
    each player's series totals."""
    teams = {team.name: team for team in Team.objects.filter(venues__venue=venue)}
    scores = [
        SeriesScore(venue=venue, series=one.number, team=teams[place.team], score=place.score)
        for one in series
        for place in one.places
    ]
    totals = [
        PlayerSeries(venue=venue, series=one.number, team=line.team, league_player=line.player, total=line.total)
        for one in series
        for table in one.tables
        for line in table.lines
        if line.team is not None
    ]
    return scores, totals


# What a closed venue adds to each of its teams' standings and to each of its players'.
TEAM_SUMS = ("plus_halves", "minus_halves", "game_points", "match_days", "open_days")
PLAYER_SUMS = ("total", "series", "open_series")


def _standings_of(venue: Venue) -> tuple[dict[int, dict[str, int]], dict[int, dict[str, int]]]:
    """What the closed venue's kept results add to its teams' standings (by team id) and to its players' (by league
    player id): the day's league and game points and one match day, each player's series totals; as provisional
    while the venue is not accepted."""
    day = kept_day(venue)
    provisional = int(venue.accepted_at is None)
    teams: dict[int, dict[str, int]] = {}
    if day is not None:
        ids = dict(Team.objects.filter(venues__venue=venue).values_list("name", "pk"))
        for row in day.rows:
            teams[ids[row.team]] = {
                "plus_halves": int(row.points.plus * 2),
                "minus_halves": int(row.points.minus * 2),
                "game_points": row.game_points,
                "match_days": 1,
                "open_days": provisional,
            }
    players: dict[int, dict[str, int]] = {}
    for player, total in PlayerSeries.objects.filter(venue=venue).values_list("league_player_id", "total"):
        sums = players.setdefault(player, dict.fromkeys(PLAYER_SUMS, 0))
        sums["total"] += total
        sums["series"] += 1
        sums["open_series"] += provisional
    return teams, players


def _standings_move(venue: Venue, sign: int) -> None:
    """Add (``sign`` 1) the locked venue's kept results to its teams' and players' standings, or take them away
    (-1), as provisional while the venue is not accepted. A standing that counts nothing any more goes, as it was
    before its first match day."""
    teams, players = _standings_of(venue)
    for team, sums in teams.items():
        standing, _ = TeamStanding.objects.select_for_update().get_or_create(team_id=team)
        _add_sums(standing, sums, sign)
        _kept_or_gone(standing, standing.match_days)
    group_id = venue.match_day.group_id
    for player, sums in players.items():
        held, _ = PlayerStanding.objects.select_for_update().get_or_create(group_id=group_id, league_player_id=player)
        _add_sums(held, sums, sign)
        _kept_or_gone(held, held.series)


def _add_sums(standing: TeamStanding | PlayerStanding, sums: dict[str, int], sign: int) -> None:
    for name, value in sums.items():
        setattr(standing, name, getattr(standing, name) + sign * value)


def _kept_or_gone(standing: TeamStanding | PlayerStanding, counted: int) -> None:
    if counted:
        standing.save()
    else:
        standing.delete()


def _scores_of(venue: Venue) -> dict[str, dict[str, int]]:
    """The venue's kept series scores, by series and team, as a correction records them."""
    scores: dict[str, dict[str, int]] = {}
    for series, team, score in SeriesScore.objects.filter(venue=venue).values_list("series", "team__name", "score"):
        scores.setdefault(str(series), {})[team] = score
    return scores


def venue_reopen(*, venue: Venue, user: User, reason: str = "") -> Venue:
    """Reopen a closed venue so that its lists can be corrected (its game tables take changes again through the
    core; a paper table can be entered anew). The reopening is recorded as a correction with who and the series
    scores and the results as they stood, completed with the scores as closed again; after the report was accepted
    a reason is required too. The captains' confirmations made until then stay, as confirmations of the earlier
    result."""
    reason = " ".join(reason.split())
    with transaction.atomic():
        locked = lock_venue(venue)
        if locked.closed_at is None:
            return locked
        accepted = locked.accepted_at is not None
        if accepted and not reason:
            raise Invalid.on("reason", gettext_noop("Say why the accepted results are corrected."))
        before, results = _scores_of(locked), venue_report(locked).results_digest()
        for match in Match.objects.filter(venue_table__venue=locked, venue_table__paper=False).order_by("pk"):
            match_unlock(match=match, user=user)
        _standings_move(locked, -1)
        SeriesScore.objects.filter(venue=locked).delete()
        PlayerSeries.objects.filter(venue=locked).delete()
        locked.closed_at = None
        locked.save(update_fields=["closed_at"])
        closed_lists_report(match_ids=VenueTable.objects.filter(venue=locked).values_list("match_id", flat=True))
        moved_on(locked)
        Correction.objects.create(
            venue=locked,
            user=user,
            reason=reason,
            accepted=accepted,
            before=before,
            results=results,
            reopened_version=Venue.objects.values_list("version", flat=True).get(pk=locked.pk),
        )
        return locked


def _check_read(venue: Venue, read: int | None, refusal: str) -> None:
    """Refuse (``refusal``, with the version ``read`` and the venue's now) a confirmation or acceptance of the report
    as read at version ``read`` of the locked venue (None: not asked), on its page as through the API (its
    ``If-Match``): one from before its results last changed (``results_version``: read while the venue played, or
    before a correction changed them, though a later one changed them back), one at which a correction had it open
    (its report showed results being corrected), and one it never had. Versions moved on since by confirmations, an
    acceptance or a correction that changed no result alone count as the results read."""
    if read is None:
        return
    corrected = Correction.objects.filter(venue=venue, reopened_version__lte=read, closed_version__gt=read)
    if not venue.results_version <= read <= venue.version or corrected.exists():
        raise Conflict.on("venue", refusal, seen=read, version=venue.version)


def report_confirm(
    *, venue: Venue, team: Team, user: User, shown: int | None = None, seen: int | None = None
) -> ReportConfirmation:
    """A team's captain confirms the venue's report for their team as it stands; confirming it again is confirming
    once, and after a correction the captain confirms the corrected result anew (the confirmation of the earlier
    result is kept). Refused before the report is ready, for anybody who is not the team's captain, and where the
    page confirmed from showed the venue at a version ``shown``, or the API's client read it at a version ``seen``,
    that ``_check_read`` refuses: a report corrected since."""
    with transaction.atomic():
        locked = lock_venue(venue)
        if not VenueTeam.objects.filter(venue=locked, team=team).exists():
            raise Invalid.on("team", gettext_noop("{team} does not play at this venue."), team=team.name)
        if team.captain_id != user.pk:
            raise Invalid.on(
                "team",
                gettext_noop("{user} is not the captain of {team}: a team's captain confirms its report."),
                user=user.get_username(),
                team=team.name,
            )
        if locked.closed_at is None:
            raise Conflict.on("venue", gettext_noop("The report is not ready: this venue's tables are still open."))
        _check_read(
            locked,
            shown,
            gettext_noop(
                "The report's results were changed since this page was opened: read them as they stand now, then "
                "confirm them again."
            ),
        )
        _check_read(
            locked,
            seen,
            gettext_noop(
                "The report's results were changed since version {seen} you read (the venue is at version {version} "
                "now): read the report as it stands now, then confirm it again."
            ),
        )
        confirmation = standing_confirmations(locked).filter(team=team).first()
        if confirmation is None:
            confirmation = ReportConfirmation.objects.create(venue=locked, team=team, captain=user)
            moved_on(locked)
        return confirmation


def report_accept(*, venue: Venue, user: User, shown: int | None = None, seen: int | None = None) -> Venue:
    """The league's manager accepts a venue's report: its results are no longer provisional. Refused for anybody
    who does not manage the league, before the report is ready, for a report accepted already (a correction is
    made by reopening it, with a reason), and where the page accepted from showed the venue at a version
    ``shown``, or the API's client read it at a version ``seen``, that ``_check_read`` refuses: a report corrected
    since."""
    with transaction.atomic():
        locked = lock_venue(venue)
        league = locked.match_day.group.division.league
        if not LeagueManager.objects.filter(league=league, user=user).exists():
            raise Invalid.on("user", gettext_noop("Only the league's managers accept a report."))
        if locked.closed_at is None:
            raise Conflict.on("venue", gettext_noop("The report is not ready: this venue's tables are still open."))
        if locked.accepted_at is not None:
            raise Conflict.on(
                "venue",
                gettext_noop("This report was accepted on {date}: a correction reopens it with a reason."),
                date=date_format(timezone.localtime(locked.accepted_at), "SHORT_DATETIME_FORMAT"),
            )
        _check_read(
            locked,
            shown,
            gettext_noop(
                "The report's results were changed since this page was opened: read them as they stand now, then "
                "accept them."
            ),
        )
        _check_read(
            locked,
            seen,
            gettext_noop(
                "The report's results were changed since version {seen} you read (the venue is at version {version} "
                "now): read the report as it stands now, then accept it."
            ),
        )
        # Its day leaves the standings as provisional and comes back as accepted.
        _standings_move(locked, -1)
        locked.accepted_at, locked.accepted_by = timezone.now(), user
        locked.save(update_fields=["accepted_at", "accepted_by"])
        _standings_move(locked, 1)
        moved_on(locked)
        return locked


def venue_results_rescore(*, venue: Venue) -> None:
    """Write a closed venue's derived rows afresh from its lists (a restore writes its lists and sums them here, as
    closing it did); an open venue keeps none."""
    with transaction.atomic():
        locked = lock_venue(venue)
        _standings_move(locked, -1)
        SeriesScore.objects.filter(venue=locked).delete()
        PlayerSeries.objects.filter(venue=locked).delete()
        if locked.closed_at is not None:
            _keep_results(locked, venue_report(locked).series)
            _standings_move(locked, 1)


def venue_kept_results_rescore(venue: Venue, *, check: bool = False) -> int:
    """Sum a closed venue's lists afresh, as closing it did, and compare with the series scores and players' series
    totals it kept: the number of rows that differ; unless ``check``, its kept results are written anew
    (``venue_results_rescore``; the group's standings follow with ``group_standings_rescore``). Done under the
    venue's lock, so that a venue reopening meanwhile is left alone."""
    with transaction.atomic():
        locked = lock_venue(venue)
        if locked.closed_at is None:
            return 0
        scores, totals = _results(locked, venue_report(locked).series)
        kept_scores = SeriesScore.objects.filter(venue=locked).values_list("series", "team_id", "score")
        kept_totals = PlayerSeries.objects.filter(venue=locked).values_list(
            "series", "league_player_id", "team_id", "total"
        )
        differ = rows_differ(
            {(row.series, row.team_id): row.score for row in scores},
            {(series, team): score for series, team, score in kept_scores},
        ) + rows_differ(
            {(row.series, row.league_player_id): (row.team_id, row.total) for row in totals},
            {(series, player): (team, total) for series, player, team, total in kept_totals},
        )
        if differ and not check:
            venue_results_rescore(venue=locked)
            # What the venue shows changed: its pages and screen, following its version, show it anew.
            moved_on(locked)
        return differ


def group_standings_rescore(group: Group, *, check: bool = False) -> int:
    """Sum a group's teams' and players' standings afresh from the results its closed venues kept, as closing each
    added them, and compare with the standings kept: the number of teams and players whose sums differ; unless
    ``check``, the group's standings are written anew. Every venue of the group is locked first, so that a venue
    closing, reopening or being accepted meanwhile waits."""
    with transaction.atomic():
        venues = (
            Venue.objects.select_for_update(of=("self",))
            .filter(match_day__group=group)
            .select_related("match_day__group__division__league")
            .order_by("pk")
        )
        teams: dict[int, dict[str, int]] = {}
        players: dict[int, dict[str, int]] = {}
        for venue in list(venues):
            if venue.closed_at is None:
                continue
            for summed, adds in zip((teams, players), _standings_of(venue), strict=True):
                for key, sums in adds.items():
                    held = summed.setdefault(key, dict.fromkeys(sums, 0))
                    for name, value in sums.items():
                        held[name] += value
        kept_teams = TeamStanding.objects.filter(team__group=group).values_list("team_id", *TEAM_SUMS)
        kept_players = PlayerStanding.objects.filter(group=group).values_list("league_player_id", *PLAYER_SUMS)
        differ = rows_differ(
            {team: tuple(sums[name] for name in TEAM_SUMS) for team, sums in teams.items()},
            {row[0]: row[1:] for row in kept_teams},
        ) + rows_differ(
            {player: tuple(sums[name] for name in PLAYER_SUMS) for player, sums in players.items()},
            {row[0]: row[1:] for row in kept_players},
        )
        if differ and not check:
            TeamStanding.objects.filter(team__group=group).delete()
            TeamStanding.objects.bulk_create(TeamStanding(team_id=team, **sums) for team, sums in teams.items())
            PlayerStanding.objects.filter(group=group).delete()
            PlayerStanding.objects.bulk_create(
                PlayerStanding(group=group, league_player_id=player, **sums) for player, sums in players.items()
            )
            # The group's table changed: its page and its venues' screens, following its version, show it anew.
            moved_on(group)
        return differ
