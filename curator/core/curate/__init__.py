"""Curating: where a new memory belongs (remember) and the renames and merges a dream proposes."""
