"""`curator mcp`: the vault as an agent's memory, over the Model Context Protocol (stdio)."""
