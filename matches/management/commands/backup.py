"""Write everything of an account, a club, a league or a tournament to one JSON file (``manage.py restore`` reads
it back)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.backup import account_backup
from matches.clubs.backup import club_backup
from matches.clubs.models import Club
from matches.interclub.backup import league_backup
from matches.interclub.models import League
from matches.tournaments.backup import tournament_backup
from matches.tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Back up an account's own book (--user), a club (--club), a league (--league) or a tournament (--tournament), "
        "each by name, to FILE, as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup ('-' for standard output)")
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--user", help="the account whose players and matches are backed up")
        who.add_argument("--club", help="the club (by name) whose players, matches, seasons and nights are backed up")
        who.add_argument(
            "--league", help="the league (by name) whose groups, teams, match days and venues are backed up"
        )
        who.add_argument(
            "--tournament", help="the tournament (by name) whose entries, payments, sides and series are backed up"
        )

    def handle(
        self,
        *args: Any,
        file: str,
        user: str | None = None,
        club: str | None = None,
        league: str | None = None,
        tournament: str | None = None,
        **options: Any,
    ) -> None:
        if user is not None:
            account = User.objects.filter(username=user).first()
            if account is None:
                raise CommandError(f"no account named {user!r}")
            data = account_backup(account)
        elif league is not None:
            leagues = list(League.objects.filter(name=league))
            if len(leagues) != 1:
                raise CommandError(f"{len(leagues)} leagues named {league!r}")
            data = league_backup(leagues[0])
        elif tournament is not None:
            found = list(Tournament.objects.filter(name=tournament))
            if len(found) != 1:
                raise CommandError(f"{len(found)} tournaments named {tournament!r}")
            data = tournament_backup(found[0])
        else:
            clubs = list(Club.objects.filter(name=club))
            if len(clubs) != 1:
                raise CommandError(f"{len(clubs)} clubs named {club!r}")
            data = club_backup(clubs[0])
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if file == "-":
            self.stdout.write(text)
            return
        with open(file, "w", encoding="utf-8") as target:
            target.write(text)
        self.stdout.write(f"{len(data['matches'])} matches, {len(data['players'])} players written to {file}")
