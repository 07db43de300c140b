"""The curator: writes long-term memory (fact passes), day summaries, and the nightly REM."""
