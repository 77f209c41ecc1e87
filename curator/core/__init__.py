"""The headless domain core: no terminal, no Textual, no printing."""
