"""The benchmarks (``make bench``, ``python -m bench``): what a table, a club, a league and a tournament wait for as
what they keep grows, measured in a temporary database of its own. A report, not a test; tooling over the whole
installation, outside the app package, which never imports it. What each figure means: ``docs/benchmarks.md``."""


class BenchError(RuntimeError):
    """A request the benchmark sent was not answered as a page or the API answers it: the run stops."""
