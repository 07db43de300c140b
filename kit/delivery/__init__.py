"""What the core needs to reach the owner on whatever channel is live, below the channels:
the outbox (messages Kit starts), the buttons' registry (owner-checked, once-only, expiring)
and splitting text to a channel's limit. No messenger's SDK here; kit/channels/ builds on it."""
