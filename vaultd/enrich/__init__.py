"""Local-LLM enrichment: contract, Ollama client, batching, cache."""
