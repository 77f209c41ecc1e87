from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.core.read.page import Page
from curator.core.read.parse import _HTML_TAG, Parsed, _body_text_length, mask_non_link_text, parse_page


def targets(text: str) -> list[str]:
    return [link.target for link in parse_page(text).links]


def test_a_parse_holds_the_fields_of_a_page_in_their_order() -> None:
    # reading.read_page builds a Page with the parse's fields in place, positionally.
    first = Page._fields.index("frontmatter")
    assert Page._fields[first : first + len(Parsed._fields)] == Parsed._fields


def test_every_link_form_is_found_with_its_parts_and_position() -> None:
    text = (
        "---\n"
        'related: "[[Other page]]"\n'
        "---\n"
        "See [[Plain]], [[Target|the label]], [[Doc#Some heading]], [[Doc#^block-1]] and ![[diagram.png]].\n"
        "Also [a file](sub/My%20Page.md#Part) and ![alt](img/pic.png).\n"
    )
    links = parse_page(text).links
    got = [(lk.syntax, lk.target, lk.anchor, lk.label, lk.embed, lk.key, lk.line, lk.column) for lk in links]
    assert got == [
        ("frontmatter", "Other page", None, None, False, "related", 2, 11),
        ("wiki", "Plain", None, None, False, None, 4, 5),
        ("wiki", "Target", None, "the label", False, None, 4, 16),
        ("wiki", "Doc", "Some heading", None, False, None, 4, 38),
        ("wiki", "Doc", "^block-1", None, False, None, 4, 60),
        ("wiki", "diagram.png", None, None, True, None, 4, 81),
        ("markdown", "sub/My Page.md", "Part", "a file", False, None, 5, 6),
        ("markdown", "img/pic.png", None, "alt", True, None, 5, 42),
    ]
    for lk in links:
        assert text[lk.offset : lk.offset + lk.length].count("[") >= 1


def test_offsets_cover_the_link_exactly() -> None:
    text = "x [[A|b]] y [l](p.md) z\n"
    a, b = parse_page(text).links
    assert text[a.offset : a.offset + a.length] == "[[A|b]]"
    assert text[b.offset : b.offset + b.length] == "[l](p.md)"


def test_nothing_in_code_math_comments_or_escapes_is_a_link() -> None:
    text = (
        "`[[inline]]` and ``[[double `tick`]]``\n"
        "```\n[[fenced]]\n```\n"
        "~~~~md\n[[tilde]]\n~~~~\n"
        "- item\n  ```\n  [[indented fence]]\n  ```\n"
        "$[[math]]$ and $$\n[[display math]]\n$$\n"
        "<!-- [[html\ncomment]] -->\n"
        "%% [[obsidian\ncomment]] %%\n"
        "\\[\\[escaped\\]\\]\n"
        "[[real]]\n"
    )
    assert targets(text) == ["real"]


def test_dollar_amounts_are_not_math() -> None:
    assert targets("It costs $5 and [[Pricing]] says $10.\n") == ["Pricing"]


def test_unclosed_fence_hides_the_rest_but_not_what_came_before() -> None:
    assert targets("[[before]]\n```\n[[after]]\n") == ["before"]


def test_a_fence_indented_past_its_opening_closes_nothing() -> None:
    """A new user's PowerShell page: "    ```" inside a block opened at the margin closed it for
    curator, so the block's real end opened one that hid the page's last sections."""
    text = "```powershell\n    ```text\n    [[inside]]\n    ```\n[[still inside]]\n```\n\n[[after]]\n"
    assert targets(text) == ["after"]
    assert targets("- item\n\n  ```\n  [[in a list]]\n  ```\n\n[[after]]\n") == ["after"]


def test_table_escaped_pipe_splits_target_and_label() -> None:
    (link,) = parse_page("| a | [[Page\\|label]] |\n").links
    assert (link.target, link.label) == ("Page", "label")


def test_same_page_anchor_and_external_urls() -> None:
    links = parse_page("[[#Intro]] [top](#intro) [web](https://example.com/x.md) [m](mailto:a@b)\n").links
    assert [(lk.target, lk.anchor) for lk in links] == [("", "Intro"), ("", "intro")]


def test_reference_definitions_are_markdown_links() -> None:
    links = parse_page("Text.\n\n[wikilinks]: features/wikilinks.md 'Wikilinks'\n").links
    assert [(lk.syntax, lk.target, lk.label) for lk in links] == [("markdown", "features/wikilinks.md", "wikilinks")]


def test_headings_atx_and_setext_and_block_ids() -> None:
    text = (
        "---\na: 1\n---\n# One\ntext ^para-1\n\nTwo\n---\n## Three ##\n```\n# not a heading\n```\n- item\n\n^own-line\n"
    )
    parsed = parse_page(text)
    assert [(h.level, h.text, h.line) for h in parsed.headings] == [(1, "One", 4), (2, "Two", 7), (2, "Three", 9)]
    assert parsed.block_ids == ("para-1", "own-line")
    # An underline may be indented up to three spaces; a title-less "#" and "#tag" are no headings.
    parsed = parse_page("Title\n  ===\n#\n#tag\nSub\n-- \n")
    assert [(h.level, h.text, h.line) for h in parsed.headings] == [(1, "Title", 1), (2, "Sub", 5)]


def test_frontmatter_errors_are_reported_with_a_line_and_the_body_still_parses() -> None:
    parsed = parse_page("---\ntitle: ok\ntags: [a, b\nowner: x\n---\n[[Still here]]\n")
    assert parsed.frontmatter == {}
    assert parsed.frontmatter_error and "not valid YAML" in parsed.frontmatter_error
    assert parsed.frontmatter_error_line == 4
    assert [lk.target for lk in parsed.links] == ["Still here"]


def test_frontmatter_that_is_not_a_mapping_is_an_error() -> None:
    parsed = parse_page("---\n- a\n- b\n---\nbody\n")
    assert parsed.frontmatter_error and "not a mapping" in parsed.frontmatter_error


def test_frontmatter_dates_become_strings_and_nested_links_are_typed_edges() -> None:
    parsed = parse_page('---\nupdated: 2026-01-02\nsee:\n  - "[[A]]"\n  - "[[B|bee]]"\n---\n')
    assert parsed.frontmatter["updated"] == "2026-01-02"
    assert [(lk.target, lk.label, lk.key, lk.line) for lk in parsed.links] == [
        ("A", None, "see", 4),
        ("B", "bee", "see", 5),
    ]


def test_crlf_offsets_index_the_original_text() -> None:
    text = "---\r\ntype: topic\r\n---\r\n# T\r\nline [[A]] and [b](c.md)\r\n"
    parsed = parse_page(text)
    assert parsed.frontmatter == {"type": "topic"}
    assert [h.text for h in parsed.headings] == ["T"]
    for lk in parsed.links:
        assert text[lk.offset : lk.offset + lk.length] in ("[[A]]", "[b](c.md)")
        assert lk.line == 5


def test_body_length_ignores_markup_and_whitespace_runs() -> None:
    assert parse_page("# Title\n\n**bold**   text\n\n- [[Page|label]]\n").body_chars == len("Title bold text label")
    text = "---\ntype: x\n---\n[see](https://a.b) ![[c.png]] [[D#h]] <br/>ü\u00a0 x"
    assert parse_page(text).body_chars == len("see c.png D ü x")
    assert parse_page("   \n\n  ").body_chars == 0


_PIECES = [
    "word",
    "[[A]]",
    "[[B|bee]]",
    "[x](y.md)",
    "![[c.png]]",
    "<b>",
    "#",
    "**",
    "`",
    " ",
    "\n",
    "\t",
    "\x1c",
    "\x0b",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_body_length_counts_ascii_and_other_text_alike(pieces: list[str]) -> None:
    # ASCII bodies are counted on bytes, others on str: both must split at the same separators.
    text = "".join(pieces)
    ascii_count = parse_page(text).body_chars
    assert parse_page(text + " é").body_chars == (ascii_count + 2 if ascii_count else 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*_PIECES, "é", "🌱", "\u00a0", "\u3000", "\u2028", "\x85", "ß"]), max_size=30))
def test_body_length_on_bytes_is_the_length_on_str(pieces: list[str]) -> None:
    """Counted on UTF-8 bytes (any text without a non-ASCII space), the body length is what the
    plain count on str gives: characters that are not markup or space, a word gap each."""
    text = "".join(pieces)
    words = _HTML_TAG.sub(" ", text)
    words = "".join(" " if c in "#*_>`~|=[]!-" else c for c in words).split()
    assert _body_text_length(text, 0, []) == (sum(map(len, words)) + len(words) - 1 if words else 0)


def test_masking_keeps_every_offset() -> None:
    text = "a `b` c\n```\nd\n```\n<!-- e -->"
    masked = mask_non_link_text(text)
    assert len(masked) == len(text)
    assert masked.count("\n") == text.count("\n")
    assert "b" not in masked and "d" not in masked and "e" not in masked


def test_frontmatter_that_yaml_cannot_build_is_an_error_not_a_crash() -> None:
    bombs = [
        "d: 2026-02-30",  # parses, then fails to build a date
        "a: &x [*x]",  # refers to itself
        "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]",  # expands a hundred-thousandfold
        "a: !!python/object:os.system x",
        "? [a, b]\n: c",
    ]
    for header in bombs:
        parsed = parse_page(f"---\n{header}\n---\n[[body link]]\n")
        assert parsed.frontmatter == {} and parsed.frontmatter_error, header
        assert [lk.target for lk in parsed.links] == ["body link"]


def test_line_and_column_of_every_link_on_long_and_short_lines() -> None:
    """Each link's line and column are where its offset stands, on lines of one link or thousands."""
    lines = ["# Title", "", " ".join(f"[[p{i}]]" for i in range(3000)), "plain", "a [[x]] b [y](y.md) ![[z]]", ""]
    lines += ["[[q]] " * 5 + "[r]: r.md", "", "x" * 500 + " [[far]]"]
    text = "\n".join(lines) + "\n"
    links = parse_page(text).links
    assert len(links) == 3000 + 3 + 5 + 1
    for link in links:
        assert link.line == text.count("\n", 0, link.offset) + 1
        assert link.column == link.offset - text.rfind("\n", 0, link.offset)


def test_an_agents_reply_directive_is_no_link() -> None:
    """A new user's OpenClaw workspace: its session logs keep the agent's reply directives, which
    were reported as four dead links."""
    text = (
        "assistant: [[reply_to_current]] Done. [[reply_to:msg-7]] [[ audio_as_voice ]] [[tts:provider=x voiceId=y]]\n"
        "See [[Real Page]] and [[reply_to_current notes]].\n"
    )
    assert [link.target for link in parse_page(text).links] == ["Real Page", "reply_to_current notes"]


def test_a_footnote_is_no_link_definition() -> None:
    """A new user's zk notes: a footnote of one word or one CJK phrase (`[^1]: 日本語の…`,
    `[^2]: [[b]]`) was read as a link definition to a page of that name, and reported dead."""
    text = "# A\n\nText[^1] and more[^2].\n\n[^1]: 日本語の場合は残念ながら単語を認識しない\n[^2]: [[b]]\n[c]: c.md\n"
    assert [(link.syntax, link.target) for link in parse_page(text).links] == [("wiki", "b"), ("markdown", "c.md")]
