"""A backup file to restore, checked to be one before the restore reads it."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from ..backup import FORMAT as BACKUP_FORMAT
from ..backup import backup_parts

# A backup file up to this size is read whole and checked to be one at once; a larger one (a club's or a league's
# of many years) is checked as it streams by (UTF-8 throughout, a backup's head), and read whole only by the task
# worker that restores it.
CHECKED_WHOLE_BYTES = 10 * 2**20
# A backup's head: its format first, as every backup is written.
BACKUP_HEAD = re.compile(r'\s*\{\s*"format"\s*:\s*"' + re.escape(BACKUP_FORMAT) + '"')


class RestoreForm(forms.Form):
    """A backup file to restore, of any size: plainly no backup (not JSON, not UTF-8, not Scorekeeper's) is refused
    here; the restore checks what is in it."""

    file = forms.FileField(label=_("Backup file (JSON)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        most = settings.RESTORE_MAX_MB
        if upload.size is not None and upload.size > most * 2**20:
            raise forms.ValidationError(
                _("A backup file is at most %(size)s MB: ask whoever runs this server to restore a larger one.")
                % {"size": most}
            )
        if not _a_backup(upload):
            raise forms.ValidationError(_("This is not a backup file (JSON) of Scorekeeper."))
        return upload


def _a_backup(upload: UploadedFile) -> bool:
    try:
        if upload.size is not None and upload.size <= CHECKED_WHOLE_BYTES:
            data = json.loads(upload.read().decode("utf-8"))
            return isinstance(data, dict) and data.get("format") == BACKUP_FORMAT
        parts = backup_parts(upload)
        head = next(parts, "")
        # Every part decoded (the file is UTF-8 throughout) and without a null character, which no JSON holds.
        return BACKUP_HEAD.match(head) is not None and "\x00" not in head and all("\x00" not in part for part in parts)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    finally:
        upload.seek(0)
