"""The project's settings for the tests: the project's own (``scorekeeper.settings``, with its branches for a test
run: the test database's file and the rest), and a fourth kind of event installed for the tests only
(``tests/knockout``), which proves that a kind of event gets what every kind shares by registering."""

from scorekeeper.settings import *  # noqa: F403
from scorekeeper.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.knockout"]
