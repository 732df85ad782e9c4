from typing import Any

import django.db.models.deletion
from django.db import migrations, models

from matches.engine.league import SeriesLine
from matches.engine.tournaments import Entrant, TournamentRules, rank_tournament


def standings_from_kept_lists(apps: Any, schema_editor: Any) -> None:
    """Rank the lists every closed series kept into each entrant's standing, as closing a series now does."""
    tournaments = apps.get_model("tournaments", "Tournament").objects
    entries = apps.get_model("tournaments", "Entry").objects
    kept_lists = apps.get_model("tournaments", "SeriesList").objects
    standing = apps.get_model("tournaments", "EntryStanding")
    for tournament in tournaments.filter(series_drawn__closed_at__isnull=False).distinct().order_by("pk"):
        keys = dict(entries.filter(tournament=tournament).values_list("player__name", "pk"))
        series: dict[int, list[SeriesLine]] = {}
        rows = kept_lists.filter(series__tournament=tournament, series__closed_at__isnull=False).values_list(
            "series__number", "entry__player__name", "table_size", "game_points", "won", "lost", "others_lost"
        )
        for number, key, *totals in rows.order_by("series__number", "id"):
            series.setdefault(number, []).append(SeriesLine(key, *totals))
        rules = TournamentRules(
            seed=tournament.seed,
            series=tournament.series,
            games_at_four=tournament.games_at_four,
            games_at_three=tournament.games_at_three,
        )
        ranked = rank_tournament(rules, [Entrant(key) for key in keys], [series[one] for one in sorted(series)])
        standing.objects.bulk_create(
            standing(
                tournament=tournament,
                entry_id=keys[place.standing.player],
                series=len(series),
                place=place.place,
                by_lot=place.by_lot,
                total=int(place.standing.score),
                game_points=place.standing.game_points,
                won=place.standing.won,
                lost=place.standing.lost,
                lists=place.standing.lists,
            )
            for place in ranked.total
        )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_tournament_requests'),
    ]

    operations = [
        migrations.CreateModel(
            name='EntryStanding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('series', models.PositiveSmallIntegerField()),
                ('place', models.PositiveIntegerField()),
                ('by_lot', models.BooleanField(default=False)),
                ('total', models.IntegerField()),
                ('game_points', models.IntegerField()),
                ('won', models.PositiveIntegerField()),
                ('lost', models.PositiveIntegerField()),
                ('lists', models.PositiveSmallIntegerField()),
                ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='standing', to='tournaments.entry')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['tournament', 'place'],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'place'), name='tournament_standing_place_unique')],
            },
        ),
        migrations.RunPython(standings_from_kept_lists, migrations.RunPython.noop),
    ]
