"""curator keeps a Markdown knowledge vault healthy."""

__version__ = "0.1.0"
