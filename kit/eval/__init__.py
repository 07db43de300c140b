"""Offline evaluation of Kit's memory against public benchmarks (`kit eval ...`)."""
