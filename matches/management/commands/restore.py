"""Read a backup written by ``manage.py backup`` (or the backup page) into this instance."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.errors import ServiceError
from matches.restore import restore


class Command(BaseCommand):
    help = (
        "Restore FILE under an account (--user): a person's backup into their own book, a club's into a club the "
        "account owns. What is there already is left as it is, so restoring a file twice changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--user", required=True, help="the account that restores (and owns what it restores)")

    def handle(self, *args: Any, file: str, user: str, **options: Any) -> None:
        account = User.objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no account named {user!r}")
        try:
            with open(file, encoding="utf-8") as source:
                data = json.load(source)
        except (OSError, ValueError, RecursionError) as error:
            raise CommandError(f"cannot read {file}: {error}") from error
        try:
            counts = restore(data, user=account)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(", ".join(f"{count} {name}" for name, count in counts.items()) + " restored")
