"""The forms of the pages, one module per subject: ``fields`` (what every form shares), ``accounts``, ``matches``
(starting a match), ``games`` (entering a game), ``paper`` (a table's paper list, of any kind of event) and
``backup`` (a file to restore)."""
