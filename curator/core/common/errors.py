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


class EditError(CuratorError):
    """A change that cannot be made (or undone); nothing was written."""


class FrontmatterEditError(CuratorError):
    """A page's frontmatter is too unusual (or invalid) to change one key of it safely."""


class GitError(CuratorError):
    """A git command failed; the message is git's own line saying why."""


class QueryError(CuratorError):
    """A query (`curator query`, search's filters) that does not parse or asks the impossible."""


class VaultBusy(CuratorError):
    """Another process kept the vault's write lock too long, or the lock cannot be made."""


# What an adapter may catch and show as one line: curator's own errors and the file system's.
REPORTED = (CuratorError, OSError, UnicodeDecodeError)


def one_line(exc: BaseException) -> str:
    """The message for an error curator reports without a traceback (see REPORTED)."""
    if isinstance(exc, UnicodeDecodeError):  # a page to be changed that is not UTF-8 (lint reads it with replacements)
        return (
            f"a page of this change is not valid UTF-8 ({exc.reason} at byte {exc.start}); "
            "save it as UTF-8 (curator lint names it: bad-encoding); nothing was changed"
        )
    if isinstance(exc, OSError) and not isinstance(exc, CuratorError):
        return f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    return str(exc)
