"""Reminders and scheduled tasks: asked for in chat, fired by the daemon's scheduler,
delivered on the channel they were asked on (see delivery.py for the guarantee).

rules.py (when, validated), store.py (the tables), delivery.py (firing), service.py (what
front-ends and the API call), tools.py (the chat model's tools)."""
