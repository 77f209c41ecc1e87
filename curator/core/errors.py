"""Errors a user can cause; each message says what is wrong and what to do."""

from __future__ import annotations


class CuratorError(Exception):
    """Base of every error the adapters report as one line, without a traceback."""


class VaultNotFound(CuratorError):
    pass


class ConfigError(CuratorError):
    pass


class BaselineError(CuratorError):
    pass


class VaultBusy(CuratorError):
    """Another process kept the vault's write lock too long, or the lock cannot be made."""
