"""olmtui as an MCP server (``olmtui mcp``): read-only tools over one session, for AI
assistants and automation. ``tools.py`` declares the tools, ``answers.py`` answers them from
a built Session, ``paging.py`` pages long lists and ``server.py`` speaks MCP over stdio with
the official SDK (the optional extra ``olmtui[mcp]``)."""
