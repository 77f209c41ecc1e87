"""What every room of the core uses: errors a user can cause, atomic writes, names and paths
inside a vault, the rule catalogue, progress, memory and the speed helpers."""
