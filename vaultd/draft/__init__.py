"""Drafts: the quotes and citations of a LaTeX or Markdown manuscript."""
