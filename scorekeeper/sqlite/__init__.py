"""Django's SQLite backend, with write transactions that take their turn promptly (see ``base``)."""
