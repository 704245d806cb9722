"""The wiki note format in one place: ``markdown`` renders and parses a note's Markdown,
``provenance_yaml`` writes and reads each chunk's provenance block, ``escape`` keeps quote
characters literal in Obsidian, ``merge`` carries the user's text and enrichment over a
re-compile. The format itself is documented in docs/note-format.md."""
