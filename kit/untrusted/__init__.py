"""Text from outside — chat messages, socket requests, imports, model answers — made safe to
store (`clean`), to put in a prompt (`neutralise`) and to name in a log without quoting it
(`fingerprint`)."""
