"""Meaning: embeddings, similar pages, the duplicate evidence and search."""
