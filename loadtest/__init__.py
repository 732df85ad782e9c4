"""The load test of a federation's match day (``make loadtest``, ``python -m loadtest``): outside the app, over all
of it, as the benchmarks are."""
