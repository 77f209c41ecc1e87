"""Widgets of the curator TUI."""
