"""A memory's mentions of the vault's pages written as links, in the vault's own style: wikilinks,
or relative Markdown links in a vault that writes no wikilinks (a docs site's, which would show
`[[x]]` as text)."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import quote

from curator.core.change.edits import explicit_target
from curator.core.curate.titlecover import mentions, named_at, phrase
from curator.core.read.link_order import wikilink
from curator.core.read.resolve import fold
from curator.core.read.vault import Vault

# A command written as prose: a program that is only ever a command, then its words; or words in
# lower case before an option or a path, then what follows them ("docker compose up -d grafana",
# "certbot renew --pre-hook x", "ruft restic backup /srv auf"). Not a capitalised name before a
# dash ("Grafana -intern-"). Its words run to the clause's end or a capitalised word.
_ARGUMENTS = r"(?:\s+(?:-{1,2}[\w-]+|[a-z0-9][\w.@:/=-]*))"
_SUBCOMMAND = (  # a program's word for what to do after its name ("docker restart grafana"), no noun too
    r"compose|exec|restart|reload|enable|disable|ps|rm|install|uninstall|upgrade|clone|checkout|fetch|rebase|"
    r"rollback|renew|certonly|snapshots|forget|prune|describe"
)
_NO_PROGRAM = (
    r"to|will|would|can|must|should|we|i|they|you|and|or|the|a|an|then|not|zu|wir|und|oder|dann|nicht|die|der|das"
)
_COMMAND = (
    r"\b(?:sudo|doas|apt|apt-get|dnf|yum|zypper|pacman|brew|pipx?|pip3|npm|npx|pnpm|yarn|kubectl|systemctl"
    rf"|journalctl){_ARGUMENTS}+"
    rf"|(?<!\S)(?!(?:{_NO_PROGRAM})\s)[a-z][\w.-]*\s+(?:{_SUBCOMMAND})\b{_ARGUMENTS}*"
    rf"|(?<!\S)(?:[a-z][\w.-]*\s+){{1,4}}(?:-{{1,2}}[a-zA-Z][\w-]*(?<!-)(?![\w-])|/\w[^\s,;]*){_ARGUMENTS}*"
)
# Code, addresses and paths: a page's name in them is a word of a command or a file, not a mention;
# nor is it in a link's text or a tag, which a link inside would break, nor in quotation marks (a
# command quoted as "nais kafka credentials --output kcat", or someone's words, kept as written),
# nor in a command written as prose.
NOT_PROSE = re.compile(
    r"```.*?```|`[^`\n]*`|<[^>\s]+>|\[[^\]\n]*\]\([^)\n]*\)|(?<![\w&])#[^\W\d][\w/-]*|(?<!\S)\S*(?:://|[/\\])\S*"
    rf'|"[^"\n]*"|“[^”\n]*”|„[^“”\n]*[“”]|»[^«\n]*«|{_COMMAND}',
    re.DOTALL,
)


def writes_markdown_links(vault: Vault) -> bool:
    """Whether the vault links its pages with Markdown links and never with a wikilink."""

    def make() -> bool:
        syntaxes = {rl.link.syntax for rl in vault.links if not rl.link.embed}
        return "markdown" in syntaxes and not syntaxes & {"wiki", "dendron", "frontmatter"}

    return vault.once("linking.markdown", make)


def linked(vault: Vault, text: str, home: str) -> str:
    """`text` with the first mention of each page it names by title written as a link, outside
    code, addresses and paths."""
    folded = fold(text)
    if len(folded) != len(text):  # offsets into the folded text hold only when folding kept the length
        return text
    markdown = writes_markdown_links(vault)
    own = {phrase(vault.pages[home].title), phrase(vault.pages[home].name)} if home in vault.pages else set()
    for path, title, kind in sorted(mentions(vault, text), key=lambda m: -len(m[1])):
        if kind != "title" or path == home or phrase(title) in own:  # a page never links to itself, nor to its copy
            continue
        kept = [k.span() for k in NOT_PROSE.finditer(text)]  # again each time: a link made moves them
        # Nor is a name inside a longer one joined by "-" or "." ("pihole-shim", "grafana.home.lan").
        found = re.finditer(rf"(?<![\w\[/\\])(?<!\w[-.]){re.escape(fold(title))}(?![\w\]/\\]|[-.]\w)", fold(text))
        found = (f for f in found if named_at(title, text, f.start(), f.end()))  # `MEMORY` is no "memory"
        m = next((f for f in found if not any(a < f.end() and f.start() < b for a, b in kept)), None)
        if m is not None:
            shown = text[m.start() : m.end()]
            if markdown:
                link = f"[{shown}]({quote(posixpath.relpath(path, posixpath.dirname(home) or '.'))})"
            else:
                name = explicit_target(vault.resolver, home, path, False)
                same = fold(name) == fold(shown)  # written as the text has it: "grafana" stays in lower case
                link = wikilink(shown if same else name, None if same else shown, vault.config.label_first)
            text = text[: m.start()] + link + text[m.end() :]
    return text
