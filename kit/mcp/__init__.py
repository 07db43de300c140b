"""`kit mcp`: Kit's memory served to other AI tools over the Model Context Protocol."""
