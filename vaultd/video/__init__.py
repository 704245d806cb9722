"""Talks and videos: YouTube metadata, transcripts, time-coded chunks and slides."""
