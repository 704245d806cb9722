"""The MCP server for agents: its tools (``server``), argument checks (``args``), start-up
(``launch``), the authenticated HTTP endpoint the agent serves (``http``) and the agent's
own notes (``memory``)."""
