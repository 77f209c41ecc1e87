"""curator's colour themes, as TOML data files (installed as `curator.themes`)."""
