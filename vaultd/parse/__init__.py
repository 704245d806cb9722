"""PDF parser tiers (PyMuPDF default, pdftotext fallback, OCR, Marker adapter) and the
chunker that turns their typed blocks into provenance-carrying chunks."""
