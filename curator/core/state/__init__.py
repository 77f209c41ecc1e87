"""The vault's settings and its state folder: config, trust (which vaults may run code), the
sealed state files under `.curator/`, the cache, the one-writer lock."""
