"""Write everything of an account, or of a book an app on the core keeps (a club, a league, a tournament), to one JSON
file (``manage.py restore`` reads it back)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.backup import ByName, NotFound, account_backup, sections


def _named() -> list[ByName[Any]]:
    """How each app's books are named on the command line, in the order the apps registered their sections."""
    return [section.by_name for section in sections() if section.by_name is not None]


def _dest(by_name: ByName[Any]) -> str:
    return by_name.flag.replace("-", "_")


def _book_backup(options: dict[str, Any]) -> dict[str, Any]:
    """The backup of the one book an app's option names."""
    for by_name in _named():
        name = options.get(_dest(by_name))
        if name is None:
            continue
        try:
            return by_name.backup(by_name.find(name))
        except NotFound as error:
            raise CommandError(str(error)) from error
    raise CommandError("name an account or a book to back up")


class Command(BaseCommand):
    help = (
        "Back up an account's own book (--user), or a book an app installed keeps (each app names its books with an "
        "option of its own, below), by name, to FILE, as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup ('-' for standard output)")
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--user", help="the account whose players and matches are backed up")
        for by_name in _named():
            who.add_argument(f"--{by_name.flag}", dest=_dest(by_name), help=by_name.help)

    def handle(self, *args: Any, file: str, user: str | None = None, **options: Any) -> None:
        if user is not None:
            account = User.objects.filter(username=user).first()
            if account is None:
                raise CommandError(f"no account named {user!r}")
            data = account_backup(account)
        else:
            data = _book_backup(options)
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if file == "-":
            self.stdout.write(text)
            return
        with open(file, "w", encoding="utf-8") as target:
            target.write(text)
        self.stdout.write(f"{len(data['matches'])} matches, {len(data['players'])} players written to {file}")
