"""Candidate duplicate pairs in a real vault, from several cheap generators, for labelling by hand.

    python -m benchmarks.dupe_candidates VAULT_NAME [--curator] [--out DIR]

Generators (each pair records which ones found it):
- `title`: equal normalised titles (file stem, or the folder of index.md/README.md, and the
  frontmatter title): case, punctuation and separators folded, a trailing " 1", " 2", " copy" or
  "(1)" dropped. Groups of more than 6 pages with one key (template titles) are skipped.
- `shingle`: word 5-grams of the page text without frontmatter; a pair is a candidate when the
  shingles of one page are at least half contained in the other's (either way).
- `title_fuzzy`: normalised titles of at least 8 characters with a rapidfuzz ratio of at least 90
  (vaults of at most 8,000 pages).
- `title_tokens`: titles sharing at least 3 words of 3+ letters with word-set Jaccard >= 0.5
  (words in more than 30 titles ignored; vaults of at most 20,000 pages).
- `tfidf`: cosine >= 0.5 between TF-IDF word vectors of the page texts, only words in 2 to 20
  pages carrying the overlap (vaults of at most 20,000 pages).
- `identity`: the same alias, H1, URL (frontmatter values and the first lines of the body) or
  e-mail address on both pages; values shared by more than 4 pages are skipped.
- `curator`: the pairs `curator lint --select duplicate` reports (only with --curator; run on a
  copy of the vault).
Writes OUT/<vault>.candidates.json (pairs with evidence) and prints page statistics.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import defaultdict
from itertools import combinations
from pathlib import Path

import frontmatter

from benchmarks.real_vaults import checkout

SKIP_DIRS = {".git", ".obsidian", ".curator", "node_modules", ".github", ".trash"}
WORD = re.compile(r"\w+", re.UNICODE)
URL = re.compile(r"https?://[^\s)\]>\"'`|,]+", re.I)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
FIELD_LINE = re.compile(
    r"^\s*[-*]?\s*\**(website|homepage|home page|repository|repo|github|url|e-?mail|"
    r"webseite|homepage)\**\s*:",
    re.I,
)
H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)
TRAIL = re.compile(r"(\s+(\d|copy|kopie)|\s*\(\d+\))$", re.I)  # "X 1", "X copy", "X (2)"


def pages(root: Path) -> list[Path]:
    out = []
    for p in root.rglob("*.md"):
        rel = p.relative_to(root)
        if any(part in SKIP_DIRS for part in rel.parts[:-1]):
            continue
        if p.is_file():
            out.append(p)
    return sorted(out)


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = TRAIL.sub("", text)  # before folding, so that "UTF-8" keeps its 8
    return re.sub(r"[\W_]+", " ", text).strip()


def load(path: Path) -> tuple[dict, str, str]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    try:
        post = frontmatter.loads(raw)
        meta, body = dict(post.metadata), post.content
    except Exception:
        meta, body = {}, raw
    return meta, body, raw


def shingles(body: str, k: int = 5) -> set[int]:
    words = [w.casefold() for w in WORD.findall(body)]
    if len(words) < k:
        return {hash(" ".join(words))} if words else set()
    return {
        int.from_bytes(hashlib.blake2b(" ".join(words[i : i + k]).encode(), digest_size=8).digest(), "big")
        for i in range(len(words) - k + 1)
    }


def flat(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        return [s for v in value for s in flat(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in flat(v)]
    return [str(value)]


def norm_url(u: str) -> str:
    u = u.strip().rstrip(".;:").lower()
    u = re.sub(r"^https?://(www\.)?", "", u)
    return u.rstrip("/").removesuffix(".git")


GENERIC_URL = re.compile(
    r"^(obsidian\.md|github\.com|forum\.obsidian\.md|help\.obsidian\.md|"
    r"youtube\.com|www\.youtube\.com|twitter\.com|discord\.(gg|com))/?$"
)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("vault")
    ap.add_argument("--curator", action="store_true")
    ap.add_argument("--out", default="/tmp/dupeval")
    args = ap.parse_args()
    root = checkout(args.vault)
    files = pages(root)
    rel = [str(p.relative_to(root)) for p in files]
    metas, bodies, sh, words = [], [], [], []
    for p in files:
        meta, body, _ = load(p)
        metas.append(meta)
        bodies.append(body)
        sh.append(shingles(body))
        words.append(len(WORD.findall(body)))
    n = len(files)
    ws = sorted(words)
    stats = {"pages": n, "median_words": ws[n // 2] if n else 0, "p99_words": ws[min(n - 1, int(n * 0.99))] if n else 0}
    print(args.vault, root, stats)

    pairs: dict[tuple[int, int], dict] = {}

    def add(i: int, j: int, gen: str, evidence: str) -> None:
        if i == j:
            return
        key = (min(i, j), max(i, j))
        rec = pairs.setdefault(key, {"found_by": [], "evidence": []})
        if gen not in rec["found_by"]:
            rec["found_by"].append(gen)
        if len(rec["evidence"]) < 6:
            rec["evidence"].append(evidence)

    # title
    groups = defaultdict(set)
    for i, p in enumerate(files):
        stem = p.stem
        if stem.lower() in {"index", "readme", "_index"} and p.parent != root:
            stem = p.parent.name
        keys = {norm(stem)}
        if isinstance(metas[i].get("title"), str):
            keys.add(norm(metas[i]["title"]))
        for k in keys:
            if k:
                groups[k].add(i)
    skipped_title = 0
    for k, g in groups.items():
        if len(g) > 6:
            skipped_title += 1
            continue
        for i, j in combinations(sorted(g), 2):
            add(i, j, "title", f"title={k!r}")

    # near-equal titles
    if n <= 8000:
        from rapidfuzz import fuzz, process

        tkeys, towner = [], []
        for k, g in groups.items():
            if len(k) >= 8 and len(g) <= 6:
                tkeys.append(k)
                towner.append(sorted(g))
        if tkeys:
            scores = process.cdist(tkeys, tkeys, scorer=fuzz.ratio, score_cutoff=90, dtype="uint8", workers=1)
            for x, y in zip(*scores.nonzero(), strict=True):
                if x < y:
                    for i in towner[x]:
                        for j in towner[y]:
                            if i != j:
                                add(i, j, "title_fuzzy", f"titles {tkeys[x]!r} ~ {tkeys[y]!r} ({scores[x, y]})")

    # titles sharing most of their words
    if n <= 20000:
        words_of = []
        for i, p in enumerate(files):
            t = metas[i].get("title") if isinstance(metas[i].get("title"), str) else None
            stem = p.parent.name if p.stem.lower() in {"index", "readme", "_index"} and p.parent != root else p.stem
            words_of.append({w for w in norm(t or stem).split() if len(w) >= 3})
        tinv = defaultdict(list)
        for i, ws in enumerate(words_of):
            for w in ws:
                tinv[w].append(i)
        tshared = defaultdict(int)
        for lst in tinv.values():
            if len(lst) <= 30:
                for i, j in combinations(lst, 2):
                    tshared[(i, j)] += 1
        for (i, j), c in tshared.items():
            jac = c / len(words_of[i] | words_of[j])
            if c >= 3 and jac >= 0.5:
                add(i, j, "title_tokens", f"{c} title words shared (jaccard {jac:.2f})")

    # shingle containment via rare shingles
    df = defaultdict(list)
    for i, s in enumerate(sh):
        for h in s:
            df[h].append(i)
    shared = defaultdict(int)
    for lst in df.values():
        if 2 <= len(lst) <= 40:
            for i, j in combinations(lst, 2):
                shared[(i, j)] += 1
    cont = {}
    for (i, j), c in shared.items():
        if c < 2 and min(len(sh[i]), len(sh[j])) > 2:
            continue
        inter = len(sh[i] & sh[j])
        a, b = inter / max(1, len(sh[i])), inter / max(1, len(sh[j]))
        cont[(i, j)] = (a, b)
        if max(a, b) >= 0.5 and min(len(sh[i]), len(sh[j])) >= 3:
            add(i, j, "shingle", f"containment a_in_b={a:.2f} b_in_a={b:.2f} shingles={len(sh[i])}/{len(sh[j])}")

    # TF-IDF cosine over words that few pages share
    if n <= 20000:
        import math
        from collections import Counter

        tfs = [Counter(w.casefold() for w in WORD.findall(b) if len(w) > 2 and not w.isdigit()) for b in bodies]
        wdf = Counter(w for tf in tfs for w in tf)
        idf = {w: math.log(n / c) for w, c in wdf.items() if c >= 2}
        vecs, norms = [], []
        for tf in tfs:
            v = {w: (1 + math.log(c)) * idf[w] for w, c in tf.items() if w in idf}
            vecs.append(v)
            norms.append(math.sqrt(sum(x * x for x in v.values())) or 1.0)
        winv = defaultdict(list)
        for i, v in enumerate(vecs):
            for w in v:
                if wdf[w] <= 20:
                    winv[w].append(i)
        dots = defaultdict(float)
        for w, lst in winv.items():
            for i, j in combinations(lst, 2):
                dots[(i, j)] += vecs[i][w] * vecs[j][w]
        for (i, j), dot in dots.items():
            if dot / (norms[i] * norms[j]) >= 0.35:  # a lower bound; the full cosine decides
                full = sum(x * vecs[j].get(w, 0.0) for w, x in vecs[i].items()) / (norms[i] * norms[j])
                if full >= 0.5:
                    add(i, j, "tfidf", f"tfidf cosine {full:.2f}")

    # identity
    ident = defaultdict(set)
    for i in range(n):
        meta, body = metas[i], bodies[i]
        for al in flat(meta.get("aliases")) + flat(meta.get("alias")):
            if norm(al):
                ident["alias:" + norm(al)].add(i)
        m = H1.search(body)
        if m and norm(m.group(1)):
            ident["h1:" + norm(m.group(1))].add(i)
        lines = body.splitlines()
        # the first lines, and "Website: ..." / "Repository: ..." style lines anywhere
        head = "\n".join(lines[:8] + [ln for ln in lines if FIELD_LINE.match(ln)])
        vals = " ".join(flat(meta)) + "\n" + head
        for u in URL.findall(vals):
            nu = norm_url(u)
            if not GENERIC_URL.match(nu + "/") and not GENERIC_URL.match(nu):
                ident["url:" + nu].add(i)
        for e in EMAIL.findall(vals):
            ident["email:" + e.lower()].add(i)
    for k, g in ident.items():
        if len(g) > 4:
            continue
        for i, j in combinations(sorted(g), 2):
            add(i, j, "identity", k)

    # curator
    if args.curator:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "vault"
            shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".git"))
            res = subprocess.run(
                [
                    # the curator of the interpreter running this script, so the branch's own rule is measured
                    str(Path(sys.executable).with_name("curator")),
                    "lint",
                    str(copy),
                    "--select",
                    "duplicate",
                    "--format",
                    "json",
                    "--no-cache",
                ],
                capture_output=True,
                text=True,
                timeout=1500,
            )
            Path(args.out).mkdir(parents=True, exist_ok=True)
            (Path(args.out) / f"{args.vault}.curator.json").write_text(res.stdout)
            index = {r: i for i, r in enumerate(rel)}
            try:
                findings = json.loads(res.stdout)
            except json.JSONDecodeError:
                findings = []
                print("curator output not JSON:", res.stdout[:300], res.stderr[-500:])
            if isinstance(findings, dict):
                findings = findings.get("findings", findings.get("results", []))
            for f in findings:
                # the finding's page and its `other` (paths may hold spaces); the regex for older output
                named = [f.get("path"), (f.get("data") or {}).get("other")]
                paths = [x for x in named if isinstance(x, str) and x in index]
                paths += [x for x in re.findall(r"[^\s'\"`]+\.md", json.dumps(f)) if x in index]
                paths = list(dict.fromkeys(paths))
                if len(paths) >= 2:
                    add(index[paths[0]], index[paths[1]], "curator", str(f.get("message", ""))[:160])

    # containment over shingles that few pages share (template and boilerplate text left out): what
    # ranks the shingle candidates for reading, since template-built pages share most raw shingles
    rare = [{h for h in s if len(df[h]) <= 20} for s in sh]
    out = []
    for (i, j), rec in pairs.items():
        a, b = cont.get((i, j)) or cont.get((j, i)) or (None, None)
        if a is None:
            inter = len(sh[i] & sh[j])
            a, b = inter / max(1, len(sh[i])), inter / max(1, len(sh[j]))
        ri = len(rare[i] & rare[j])
        rc = ri / max(1, min(len(rare[i]), len(rare[j]))) if min(len(rare[i]), len(rare[j])) >= 3 else 0.0
        out.append(
            {
                "a": rel[i],
                "b": rel[j],
                "found_by": rec["found_by"],
                "evidence": rec["evidence"],
                "cont": round(max(a, b), 3),
                "cont_min": round(min(a, b), 3),
                "rare_cont": round(rc, 3),
                "words": [words[i], words[j]],
            }
        )
    out.sort(key=lambda r: (-len(r["found_by"]), -r["rare_cont"], -r["cont"]))
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / f"{args.vault}.candidates.json").write_text(
        json.dumps({"stats": stats, "root": str(root), "pairs": out}, indent=1)
    )
    by = defaultdict(int)
    for r in out:
        for g in r["found_by"]:
            by[g] += 1
    print(f"{len(out)} candidate pairs; by generator {dict(by)}; title groups skipped {skipped_title}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
