"""Offline evaluation of Kit's memory against public benchmarks (`kit eval ...`)."""

DEFAULT_KS = (5, 10, 15, 25, 50)  # the cut-offs `kit eval retrieval` reports (here: its --help)
