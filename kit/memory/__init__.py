"""Kit's memory, the data: facts, messages, days, their history and versions."""
