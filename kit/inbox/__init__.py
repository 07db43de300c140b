"""The contradiction inbox: changes a pass would make to facts the owner should decide on.

A curation or REM pass does not rewrite or retire a fact that is the owner's (pinned, or
written by the owner) or held with high confidence (`inbox.protect_confidence`), nor add a
statement that disagrees with one Kit holds about the same subject (kit/curator/conflict.py):
such an operation is set aside in the pass's own transaction as a question
(kit/curator/contest.py; the question store is the curator's, kit/curator/questions.py), the
rest of the pass applies, and the pass record names the questions (undoing the pass withdraws
them). This package is where the owner answers, once, on Telegram or Matrix, in `kit inbox` or
the TUI: keep the old,
take the new, or keep both; each answer is an owner pass with history rows (answer.py). An
unanswered question changes nothing and expires after `inbox.expire_days`.
"""
