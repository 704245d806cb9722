"""The loopback bridge between the browser extension and the agent (docs/bridge.md)."""
