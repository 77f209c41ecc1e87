"""Changing a vault: plans of file changes, the edits that make them, and the engine that
applies them under the lock, journals each and undoes it."""
