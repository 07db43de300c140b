"""Who may reach Kit's memory from another machine: the tokens the owner issues (kit mcp --http)."""
