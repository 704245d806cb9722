"""Capture adapters: input detection, one metadata client per source, reconciliation."""
