"""The rule `secret`: a credential written in a page (the scanners are in curator/core/read/credentials.py)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from curator.core.check.hits import Hit
from curator.core.common.rules import Rule
from curator.core.read.vault import Vault

RULES = (
    Rule(
        "secret",
        "A credential in a page: a private key, a cloud or API token, a password in a URL.",
        "Also a secret assigned to a key word (Yelp's detect-secrets) or said to be its value in prose (\"the admin "
        'password is now ...", "Das Passwort lautet ..."), and a login and its password written as two code '
        "spans (`admin` / `S3cr3t!x`), and a quoted random-looking string; not one a checksum, an identifier or "
        "what a blockchain publishes names (`sha512-`, `page_id`, `walletAddress`, `tokenMint`), an example's "
        "(`your-key-here`, `a1b2c3d4...`), nor an IP address.",
    ),
)

_DRAWING_DATA = re.compile(r"^#{1,2} Drawing[ \t]*$", re.MULTILINE)  # Excalidraw's heading over its data


def rule_secrets(vault: Vault) -> Iterator[Hit]:
    from curator.core.read.credentials import find_in_texts

    if vault.config.severity("secret") is None:
        return  # it reads pages again: not when it is off
    texts: dict[str, str] = {}
    for page in vault.pages.values():
        if page.unreadable is None and page.maybe_secret:  # the others cannot hold one (checked as read)
            with contextlib.suppress(OSError):
                text = vault.text_of(page.path)
                # A drawing's data (under `# Drawing`) is noise to an entropy test; its text elements are not.
                data = _DRAWING_DATA.search(text) if page.drawing else None
                texts[page.path] = text[: data.start()] if data else text
    for path, found in sorted(find_in_texts(texts).items()):
        for credential in found:
            yield Hit(
                "secret",
                path,
                f"a credential ({credential.kind}) is written here: remove it, and rotate it if it was ever shared",
                credential.kind,
                credential.line,
                1,
                {"kind": credential.kind},
            )
