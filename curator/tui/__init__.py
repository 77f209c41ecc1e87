"""The Textual interface: a view over the headless core."""
