"""The contradiction inbox: changes a pass would make to facts the owner should decide on.

A curation or REM pass does not rewrite or retire a fact that is the owner's (pinned, or
written by the owner) or held with high confidence (`inbox.protect_confidence`), nor add a
statement that disagrees with one Kit holds about the same subject (conflict.py): such an
operation is set aside in the pass's own transaction as a question (contest.py, store.py),
the rest of the pass applies, and the pass record names the questions (undoing the pass
withdraws them). The owner answers once, on Telegram, in `kit inbox` or the TUI: keep the old,
take the new, or keep both; each answer is an owner pass with history rows (answer.py). An
unanswered question changes nothing and expires after `inbox.expire_days`.
"""
