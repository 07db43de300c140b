"""Channels: the ways people reach Kit (Telegram, the control socket). Each is an edge adapter
that turns its transport's messages into `Inbound` turns and nothing more."""
