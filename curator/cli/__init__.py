"""The command line: parses arguments, calls the core, formats what comes back."""
