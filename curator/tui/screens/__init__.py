"""Screens of the curator TUI."""
