"""A fourth kind of event that lives in the tests only: a one-night knockout, its tables played in series and kept on
paper or scored by phone. It touches no core file: it gets its pages, files, API, backup, rescore, account deletion,
the persona matrix and the schema fuzzer by registering with the core (``apps.py``), as every kind of event does."""
