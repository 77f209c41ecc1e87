"""Registry of real, public vaults written by other people, for the duplicate-rule evaluation.

Each vault is pinned by repository and commit. `checkout(name)` returns a local folder that holds
the vault's pages: it clones the repository from the bare git mirror that the search tool's
`fetch` leaves under /work/.mirror/<owner>+<name>/repo (or $CURATOR_MIRROR_ROOT), checks out
the pinned commit into a cache folder ($CURATOR_VAULT_CACHE, default /tmp/curator-real-vaults)
and returns the vault's subfolder in it. Shared vaults (/work/shared/vaults) are returned in
place: never write into them.

Labels for the duplicate pairs of each vault are in benchmarks/labels/<name>.jsonl; see
benchmarks/labels/README.md for how they were made and what the splits mean.

    python -m benchmarks.real_vaults            # list the registry and whether each is available
    python -m benchmarks.real_vaults NAME       # print the checkout path of one vault
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MIRROR_ROOT = Path(os.environ.get("CURATOR_MIRROR_ROOT", "/work/.mirror"))
SHARED_ROOT = Path(os.environ.get("CURATOR_SHARED_VAULTS", "/work/shared/vaults"))
DEFAULT_CACHE = Path(os.environ.get("CURATOR_VAULT_CACHE", "/tmp/curator-real-vaults"))


@dataclass(frozen=True)
class RealVault:
    name: str
    kind: str  # zettelkasten | catalogue | docs | agent-memory | german
    repo: str  # owner/name on GitHub, or "shared:<folder>" for /work/shared/vaults
    commit: str  # 40 hex digits; "" for shared vaults
    subdir: str  # the folder inside the checkout that is the vault ("" = the whole checkout)
    # "tune", "heldout", "fresh".."fresh23" (added after the rules were chosen, only measured), "trial" (vaults a
    # new user tried, their reported pairs labelled; tuned on), or "search3" /
    # "search4" .. "search7" (fetched for the third to seventh set of search questions; no duplicate labels),
    # "remember3" .. "remember27" (fetched for the third to twenty-seventh set of `remember` cases),
    # "search8", "search9"
    split: str
    note: str = ""
    pages: tuple[str, ...] = ()  # the sparse checkout's patterns when not every Markdown file is a page of it


VAULTS: list[RealVault] = [
    RealVault(
        "yoshixi-zettelkasten",
        "zettelkasten",
        "digitalyoshixi/zettelkasten",
        "cb0abd7d1e4164b4b9dc04cd336a954497f246b6",
        "content",
        "tune",
        "13.4k short atomic notes (CS, math, x86, C++), daily notes, excalidraw drawings; the vault the "
        "current rule was first seen failing on",
    ),
    RealVault(
        "tycholiz-garden",
        "zettelkasten",
        "Tycholiz/Digital-Garden",
        "a4d95cede1101641aa6b88fdb39ec188c764ceb9",
        "docs/data",
        "heldout",
        "1.25k notes of a developer's Dendron-style garden (dotted hierarchy names)",
    ),
    RealVault(
        "doubt-zettelkasten",
        "zettelkasten",
        "absolute-in-doubt/Zettelkasten",
        "cf7c0a22cde9f50ef829694c51074154fc9ba5ec",
        "Zettelkasten",
        "heldout",
        "1.3k notes of a personal Obsidian zettelkasten (main notes, tags, indexes)",
    ),
    RealVault(
        "obsidian-hub",
        "catalogue",
        "obsidian-community/obsidian-hub",
        "dae4bcf14d27eb3691aa73b2e906e0d1dc7b1e0c",
        "",
        "tune",
        "6.5k pages: one page per plugin/theme and per person, built from templates",
    ),
    RealVault(
        "github-explore",
        "catalogue",
        "github/explore",
        "cc66c619fd3c4dd79bc7bca22f685af1e0a67f3d",
        "",
        "heldout",
        "1.37k topic and collection pages (index.md with a frontmatter template)",
    ),
    RealVault(
        "obsidian-help-en",
        "docs",
        "obsidianmd/obsidian-help",
        "fa179e91e86eaff5859226cc045c81000d64e3cd",
        "en",
        "heldout",
        "the official Obsidian help vault, English part",
    ),
    RealVault(
        "dendron-docs",
        "docs",
        "shared:dendron-docs",
        "",
        "",
        "tune",
        "shared read-only vault; already used by benchmarks/duplicates_eval.py",
    ),
    RealVault(
        "foam-docs",
        "docs",
        "shared:foam-docs",
        "",
        "",
        "tune",
        "shared read-only vault",
    ),
    RealVault(
        "tldr-pages-en",
        "catalogue",
        "shared:tldr-pages",
        "",
        "pages",
        "heldout",
        "shared read-only vault: one short command page per tool and platform, from one template",
    ),
    RealVault(
        "tldr-pages-de",
        "german",
        "shared:tldr-pages",
        "",
        "pages.de",
        "heldout",
        "shared read-only vault: the German tldr pages (translations, one template)",
    ),
    RealVault(
        "claude-zettelkasten",
        "agent-memory",
        "Adriftnote/zettelkasten-for-claude",
        "8e9665fd787ceb3240c3e01e647590545b9a691e",
        "",
        "heldout",
        "an agent's own memory vault (basic-memory style notes on functions, modules, sources; Korean and English)",
    ),
    RealVault(
        "agent-learnings-es",
        "agent-memory",
        "mdelmontep/obsidian-vault",
        "3d0552512ed14a0c66c65c3fdffe275aa97c50ec",
        "",
        "heldout",
        "1.9k notes, mostly 'learnings' a coding agent wrote after its sessions (source: "
        "claude-code-session), in Spanish",
    ),
    RealVault(
        "obsidian-help-de",
        "german",
        "obsidianmd/obsidian-help",
        "fa179e91e86eaff5859226cc045c81000d64e3cd",
        "de",
        "heldout",
        "German part of the Obsidian help vault (a translation, not the English pages)",
    ),
    RealVault(
        "math-zettelkasten",
        "zettelkasten",
        "jaythad13/Mathematikezettelkasten",
        "30492eb63b6ed70e763c09a171fdeead90dfa2d9",
        "",
        "heldout",
        "435 English maths notes, one folder per course (abstract algebra, p-adics, geometry...); "
        "added late, read less",
    ),
    RealVault(
        "schmitt-zettelkasten",
        "zettelkasten",
        "karlschmitt/Zettelkasten",
        "b99407325baf245b8cfdac9939dea28e92671bce",
        "",
        "heldout",
        "205 English notes (Angular, web, the Zettelkasten method) with atom notes beside "
        "tutorial notes; added late, read less",
    ),
    RealVault(
        "rockman-vault",
        "zettelkasten",
        "rockman007372/Obsidian-Vault",
        "cc1175b4b69ab21e3842281928b3fa2f58d86ba6",
        "",
        "heldout",
        "1.3k notes of a student's Obsidian vault (course notes, cheat sheets, LeetCode, daily and weekly "
        "notes, templates, drawings); fetched by a new-user trial after every rule was chosen",
    ),
    RealVault(
        "almeida-zettelkasten",
        "zettelkasten",
        "BAlmeidaS/zettelkasten",
        "212b4788b62ceccc7debef70a84935aa7eb03763",
        "",
        "fresh",
        "930 short notes of a personal Obsidian zettelkasten (statistics, machine learning, graph neural "
        "network papers, AI textbook chapters); fetched after every rule was chosen",
    ),
    RealVault(
        "sourcegraph-handbook",
        "docs",
        "sourcegraph/handbook",
        "5752928b213a3ddbc7cee4459524f404a5b96fb4",
        "content",
        "fresh",
        "880 pages of a company handbook (teams, processes, benefits, engineering, sales), edited by many "
        "people over years; fetched after every rule was chosen",
    ),
    RealVault(
        "volcano-de",
        "german",
        "KasperNr1/Volcano",
        "6696f2c45d1804f2fb71002d6b98bfc228f55375",
        "",
        "fresh",
        "190 German notes of a computer-science student's Obsidian vault (topic notes beside per-lecture "
        "notes); fetched after every rule was chosen",
    ),
    RealVault(
        "badlands-handbook",
        "agent-memory",
        "badlandslabs/handbook",
        "748acad7c31988173513e2eb12937581f3be8ab6",
        "",
        "fresh2",
        "3.5k pages an agent wrote as a team handbook on building AI agents: numbered write-ups "
        "(stacks/sNNNN-..., forward-deployed/fNNN-...), research compilations, dated advisories; fetched "
        "after the numbered-series and heading rules were chosen, only measured",
    ),
    RealVault(
        "siddpawar-notes",
        "zettelkasten",
        "Siddpawar9222/Obsidian-Vault",
        "2d00fee86fffd92b7e3c50a0dc677f9b93430af0",
        "",
        "fresh3",
        "381 English notes of a backend developer's Obsidian vault (DSA problems, Java and multithreading, "
        "Spring Boot, Docker, Kubernetes, Terraform, AWS, React, databases); fetched for the second set of "
        "held-out search questions, only measured",
    ),
    RealVault(
        "hochschule-de",
        "german",
        "DevTGP/Hochschule-Obsidian",
        "3c2c87e713fb8c4c0058663b6ef5295bbf29d824",
        "Hochschule",
        "fresh3",
        "431 German pages of a computer-science student's Obsidian vault (module notes on technical computer "
        "science, digital media, maths, study skills, system administration; exercise sheets; 77 Excalidraw "
        "drawings); fetched for the second set of held-out search questions, only measured",
    ),
    RealVault(
        "luissimas-zettelkasten",
        "zettelkasten",
        "luissimas/zettelkasten",
        "b8c5cca6c225c2711b2378ed4e7ed8e23819bbcc",
        "",
        "fresh3",
        "a Brazilian student's Obsidian/Quartz zettelkasten in Portuguese: ~350 short notes (linear algebra, "
        "operating systems, programming), journal, indexes, drawings; fetched after every rule was chosen, "
        "only measured",
    ),
    RealVault(
        "18f-handbook",
        "docs",
        "18F/handbook",
        "1e4955634d0369f17e5bbc0ebbf8f62e2a3dfe4b",
        "pages",
        "fresh3",
        "the TTS/18F staff handbook (a US government team's wiki: tools, travel and leave, hiring, teams), "
        "edited by many people; fetched after every rule was chosen, only measured",
    ),
    RealVault(
        "devhints-cheatsheets",
        "catalogue",
        "rstacruz/cheatsheets",
        "f3c908448052c0a590707b2c15134d5507d42589",
        "",
        "fresh3",
        "the community cheat-sheet catalogue behind devhints.io: one page per tool, language or library, "
        "from one layout; fetched after every rule was chosen, only measured",
    ),
    RealVault(
        "openclaw-agent-workspace",
        "agent-memory",
        "leonardofhy/openclaw-workspace",
        "8a84f989abc07ec5b04f73124b0dfd89541c8cf8",
        "",
        "fresh3",
        "620 pages of an OpenClaw research agent's workspace: its memory folder (research cycles, pitches, "
        "briefings, digests, schedules), paper drafts and an exported starter kit, written by the agent; "
        "fetched after every rule was chosen, only measured",
    ),
    RealVault(
        "nasr-openclaw-memory",
        "agent-memory",
        "ahmednasr999/openclaw-workspace",
        "0d0c222bf5f0c13407637f801fc3cdeb34e6c236",
        "",
        "fresh4",
        "400 pages of an OpenClaw assistant's workspace written by the agent for one person's job search: its "
        "memory folder (dated session notes, briefings, archives, knowledge and entity notes) and a jobs bank "
        "(applications, company dossiers, scraped listings); fetched for the fresh4 split, only measured",
    ),
    RealVault(
        "cbillon-vault",
        "zettelkasten",
        "cbillon/obsidian-vault-cb",
        "e0a83ca57909c8dcc078c5ced6db606d323c2b9b",
        "",
        "fresh4",
        "490 pages of a sysadmin's personal Obsidian vault in French and English: short notes migrated from a "
        "DokuWiki (docker, kvm, linux, moodle), web clippings (Slurped Pages), an inbox; fetched for the fresh4 "
        "split, only measured",
    ),
    RealVault(
        "mattermost-handbook",
        "docs",
        "mattermost/mattermost-handbook",
        "46d7a8b6541cba3474cb4069725ffd1f3f68d514",
        "",
        "fresh4",
        "356 pages of Mattermost's company handbook (R&D, finance, workplace, operations, contributors), edited "
        "by over a hundred people; fetched for the fresh4 split, only measured",
    ),
    RealVault(
        "studium-de",
        "german",
        "DarkVanityOfLight/StudiumObsidianVault",
        "77afd1273007e1b66dda4929266f8aab66ea00ce",
        "",
        "fresh4",
        "1,090 pages of a German computer-science student's Obsidian vault (maths, logic, automata, an English "
        "SAT-solving course, exam preparation, 118 Excalidraw drawings); fetched for the fresh4 split, only "
        "measured",
    ),
    RealVault(
        "erlisk-openclaw-workspace",
        "agent-memory",
        "ErlisK/openclaw-workspace",
        "9bf64e84d68e9bd4153389d01551dbc2d036f989",
        "",
        "fresh5",
        "370 pages of an OpenClaw agent's workspace written by the agent: founding plans of some twenty startups "
        "(research, interviews, specs, launch notes, docs), its identity and tool notes; fetched for the fresh5 "
        "split, only measured",
    ),
    RealVault(
        "giwankim-vault",
        "zettelkasten",
        "giwankim/obsidian-vault",
        "8f6098bc7ffc8315e6750f58b7513be8b0ab2fff",
        "",
        "fresh5",
        "350 pages of a backend developer's personal Obsidian vault in Korean and English (book notes on Kafka and "
        "DDIA, Spring, system design, interview prep, web clippings on Claude Code); fetched for the fresh5 split, "
        "only measured",
    ),
    RealVault(
        "dxw-playbook",
        "docs",
        "dxw/playbook",
        "0c7fc5f8bde5bba127edaee94dbdde87ea259d6f",
        "src",
        "fresh5",
        "156 pages of the staff handbook of dxw, a UK digital agency (staff handbook, tech, user research, "
        "delivery, GovPress), edited by many people; fetched for the fresh5 split, only measured",
    ),
    RealVault(
        "school-de",
        "german",
        "currently-coding/school",
        "2c9ce8a314207076282fcaa000883a24e92579a1",
        "",
        "fresh5",
        "170 pages of a German pupil's and computer-science student's Obsidian vault (C++, hacking, school "
        "subjects, semester pages); fetched for the fresh5 split, only measured",
    ),
    RealVault(
        "rimaout-vault",
        "zettelkasten",
        "rimaout/Obsidian-Vault",
        "d98ff482888cb8c142edd6199b276488ceddb744",
        "",
        "fresh5",
        "750 pages of an Italian computer-science student's Obsidian vault (university course notes and programming "
        "notes kept in archive folders under MOCs, a few `X 1` copies, templates, web clippings); fetched for the "
        "fresh5 split, only measured",
    ),
    RealVault(
        "jsomwarux-memory",
        "agent-memory",
        "jsomwarux/openclaw-workspace",
        "9ff8d2a07c1a9c4171fcf3b09af4c06133c248f8",
        "memory",
        "fresh5",
        "The memory folder of an OpenClaw assistant's workspace, written by the agent for one consultant (content "
        "bank and drafts, client and consulting notes, research, audits, app-marketing and side-project notes); "
        "fetched for the fresh5 split, only measured",
    ),
    RealVault(
        "robertsong-openclaw-workspace",
        "agent-memory",
        "robertsong2019/openclaw-workspace",
        "c389e5e1a660fc66444e10bfdd6d35d23cae7e4c",
        "",
        "fresh6",
        "330 pages of an OpenClaw agent's workspace written by the agent (Chinese and English): its memory folder "
        "(daily logs, numbered 'key-development' logs, summaries), wiki, skills, dated documentation reports and the "
        "READMEs/tutorials of its experiment projects; fetched for the fresh6 split, only measured",
    ),
    RealVault(
        "madisonevans-zettelkasten",
        "zettelkasten",
        "MadisonEvans94/Zettelkasten",
        "c983e39603044ab12ee21b4e2fbdd4a7b3439079",
        "",
        "fresh6",
        "640 notes of a developer's personal Obsidian zettelkasten (AWS, machine learning, web frameworks, algorithms, "
        "course notes and exam guides) in one `Core Notes` folder; fetched for the fresh6 split, only measured",
    ),
    RealVault(
        "suncoast-handbook",
        "docs",
        "suncoast-devs/handbook",
        "67cd56c61018531d754a184c6f25e3637f34cdef",
        "",
        "fresh6",
        "590 pages of the Suncoast Developers Guild handbook, written by its staff (lessons, quick references, career "
        "support, a `meta/legacy` folder of older campus and curriculum pages); fetched for the fresh6 split, "
        "only measured",
    ),
    RealVault(
        "wissensdatenbank-de",
        "german",
        "schlummer13/Wissensdatenbank",
        "10b246027f1f196f2f3d6c9d0138be30e61ce79d",
        "",
        "fresh6",
        "160 German pages of a developer's personal knowledge base (MkDocs: HTML, CSS, JavaScript, security, FastAPI, "
        "databases; one page per element or concept); fetched for the fresh6 split, only measured",
    ),
    RealVault(
        "sleeptoken-zettelkasten",
        "zettelkasten",
        "sleeptoken/zettelkasten",
        "2f317143e972126097059dd5106f75c76629e4bb",
        "",
        "fresh6",
        "385 pages of a security researcher's Obsidian zettelkasten written over 18 months (web, Android and binary "
        "exploitation notes, CTF write-ups, tool notes, 143 tag pages); fetched for the fresh6 split, only measured",
    ),
    RealVault(
        "wrewsama-notes",
        "zettelkasten",
        "wrewsama/obsidian-vault",
        "c79d50ee53ca306d2e711db26eea1060b5095d7c",
        "",
        "search3",
        "425 English notes of a software engineer's Obsidian vault (short main notes on databases, networking, "
        "Python, Go, distributed systems, Linux; source-material notes on books and courses; tag pages); "
        "fetched for the third set of held-out search questions, only measured",
    ),
    RealVault(
        "mint-wiki-de",
        "german",
        "Mint-System/Wiki",
        "cd4de68e4d9b1048f12dc11590ca71435066dc53",
        "",
        "search3",
        "980 German pages of a Swiss IT company's Obsidian wiki (Odoo consulting, infrastructure, tools, "
        "methods, administration: one page per tool, process or topic, many short reference stubs); fetched "
        "for the third set of held-out search questions, only measured",
    ),
    RealVault(
        "trshpuppy-notes",
        "zettelkasten",
        "TrshPuppy/obsidian-notes",
        "13f0e0def88f33613a0c9295fb25eb867d4edc84",
        "",
        "search4",
        "700 English notes of a penetration tester's Obsidian vault (attack techniques, OSCP and PNPT course "
        "notes, networking protocols, Linux and Windows, wifi attacks, CLI tools); fetched for the fourth set "
        "of held-out search questions, only measured",
    ),
    RealVault(
        "ethanil-informatik-de",
        "german",
        "Ethanil/ObsidianInformatik",
        "e4fca291b87628ca95f06b744f783c5e83665f6e",
        "",
        "search4",
        "700 pages of a German computer-science student's Obsidian vault (one folder per semester and course: "
        "digital logic, maths, programming, algorithms, image processing, databases, security, a serious-games "
        "seminar; 46 Excalidraw drawings); fetched for the fourth set of held-out search questions, only measured",
    ),
    RealVault(
        "autizzm-zettelkasten",
        "zettelkasten",
        "autizzm/Zettelkasten",
        "26f2f5caddc115f637379de1a1f5338120a64c07",
        "Zettelkasten",
        "fresh7",
        "510 pages of a Java developer's Obsidian zettelkasten in Russian and English (main notes on Java, Spring, "
        "SQL, statistics, linear algebra, economics, most with a '- Flashcards' deck beside them; tag and index "
        "pages, templates); fetched for the fresh7 split, only measured",
    ),
    RealVault(
        "currin-dev-cheatsheets",
        "catalogue",
        "MichaelCurrin/dev-cheatsheets",
        "d19cea65edad95434a4b4fa1922463ceacd5251f",
        "cheatsheets",
        "fresh7",
        "1,360 pages of a developer's public cheat-sheet collection (one page per command, language feature, tool "
        "or library, in a folder per topic, with an index.md per folder); fetched for the fresh7 split, only measured",
    ),
    RealVault(
        "laycock-openclaw-workspace",
        "agent-memory",
        "julianlaycock/openclaw-workspace",
        "ff801c7f737fcb89e86834c8ebf81c538f91e255",
        "",
        "fresh7",
        "280 pages of an OpenClaw agent's workspace written by the agent for one founder's fund-administration startup "
        "(memory folder of dated logs and audits, product docs, research, outreach, an archive); fetched for the "
        "fresh7 split, only measured",
    ),
    RealVault(
        "kit-brain-de",
        "german",
        "KIT-Vault/brain",
        "99ffbd6e1006b4bb52ad63f918e980d89e7f8c08",
        "",
        "fresh7",
        "690 German pages of two KIT computer-science students' shared Obsidian vault (Informatik: theoretical, "
        "practical and technical computer science, networks, databases; Mathematik: analysis, linear algebra, "
        "stochastics; many short definition notes); fetched for the fresh7 split, only measured",
    ),
    RealVault(
        "sammlung-de",
        "german",
        "MonikaLobinger/Sammlung",
        "9d6d41b98cc6c5008e9273bc3b7453f5163fa0af",
        "",
        "trial",
        "378 pages of a German student's philosophy and history notes (published material pages `X` and private "
        "note-taking companions `Werkstatt/Mitschriften/@X` that link to each other); a new user's trial this "
        "session, the rule's 25 pairs labelled by reading, then tuned on",
    ),
    RealVault(
        "ericfbrown-openclaw-workspace",
        "agent-memory",
        "ericfbrown1-boop/openclaw-workspace",
        "bbfa5a66ade0508ec5f8459e1f86104ae51dc186",
        "",
        "trial",
        "292 pages of an OpenClaw agent's workspace (memory, plans, bilingual articles and their combined builds, "
        "node_modules and virtualenvs); a new user's trial this session, the rule's 7 pairs labelled by reading",
    ),
    RealVault(
        "smc242-uni-notes",
        "zettelkasten",
        "SMC242/uni-notes",
        "6a323e903b82b1078710bd233b1fa0157f4edbc2",
        "",
        "search5",
        "615 English pages of a Glasgow computing-science student's Obsidian vault (algorithmics, HCI, cybersecurity, "
        "networking, languages, data science, statistics, maths, sociology and criminology, archaeology, essays, "
        "research methods, templates); fetched for the fifth set of held-out search questions, only measured",
    ),
    RealVault(
        "janishuser-zhaw-de",
        "german",
        "JanisHuser/ZHAW-BSC-Informatik",
        "d4a8405e951c2fba706d6dff1d6159092d4da85d",
        "",
        "search5",
        "299 pages (13 Excalidraw) of a Swiss computer-science student's notes (mdBook/Obsidian, one folder per "
        "semester and course: numerics, statistics, databases, networks, C, microcontrollers, embedded Linux, "
        "software engineering, business, IT law, physics; the later courses partly in English); fetched for the "
        "fifth set of held-out search questions, only measured",
    ),
    RealVault(
        "zk-ech",
        "zettelkasten",
        "emilian-chiper/zettelkasten_ech",
        "f4918a3309148ae5628359d066b3ca42cc9fabca",
        "",
        "search6",
        "483 pages of a personal English Obsidian zettelkasten (short atomic notes on JavaScript, Python Crash "
        "Course, Express.js, Docker setup, colour theory/colour spaces, Neovim/tmux, plus tag/index hub pages); "
        "fetched for the sixth set of held-out search questions, only measured",
    ),
    RealVault(
        "hb-informatik",
        "german",
        "openpatch/hyperbook-informatik",
        "eddbc011f3cf33ec498b9d2077f71dd26ab65617",
        "book",
        "search6",
        "474 pages of a German school computer-science hyperbook (SQL/databases, Java OOP and data structures, "
        "HTML/CSS, Python turtle, OpenSCAD 3D printing, binary coding/pixel graphics, Scratch and Java projects); "
        "fetched for the sixth set of held-out search questions, only measured",
    ),
    RealVault(
        "govuk-devdocs",
        "docs",
        "alphagov/govuk-developer-docs",
        "972d1b4410ffd165f2f3e889eda30bcf7d1cc6b3",
        "source/manual",
        "remember3",
        "205 pages of the GOV.UK developers' manual (runbooks and pages on PagerDuty, Sentry, Logit, Fastly, "
        "Secrets Manager, Zendesk, backups, alerts; Markdown links, `.html.md` names); fetched for the third set "
        "of `remember` cases, only measured",
    ),
    RealVault(
        "svws-doku",
        "german",
        "SVWS-NRW/SVWS-Dokumentation",
        "1b426592c1e5c1556e4bcaffa6873070f6e614ed",
        "",
        "remember3",
        "223 pages of the German documentation of the NRW school-administration server (deployment with Docker "
        "and installers, backups, modules, client apps, team workflow; VitePress `index.md` folders, 24 heading-only "
        "stubs); fetched for the third set of `remember` cases, only measured",
    ),
    RealVault(
        "simonw-til",
        "docs",
        "simonw/til",
        "8d908b6d36cdd27bc6464392435ac6223a00caac",
        "",
        "search7",
        "578 pages of Simon Willison's English 'Today I Learned' notes (Python, SQLite, Docker, git, GitHub "
        "Actions, Cloudflare, macOS, JavaScript; Markdown links, a root README listing every page); fetched for "
        "the seventh set of held-out search questions, only measured",
    ),
    RealVault(
        "dhbw-sem3",
        "german",
        "heofthetea/dhbw",
        "20136c6899d858e32db796f995906897707919a7",
        "semester-3",
        "search7",
        "964 pages of a German student's Obsidian zettelkasten, third semester (networking, databases, formal "
        "languages, computer architecture, maths; many short pages of an image and links, some English); fetched "
        "for the seventh set of held-out search questions, only measured",
    ),
    RealVault(
        "homelab-en",
        "agent-memory",
        "scarredNinja/homelab-docs",
        "aacafdf0927e6f8981b67dcf05611757ecefbd02",
        "",
        "remember4",
        "250 pages of an English Obsidian homelab vault partly kept with an AI agent (a page per service and VM, "
        "about 70 dated session notes, home projects; wikilinks, frontmatter); fetched for the fourth set of "
        "`remember` cases, only measured",
    ),
    RealVault(
        "homelab-de",
        "german",
        "gatonero/homelab-docs",
        "9d730c50eff243eb59fcad9c1609e6af76cb91cd",
        "pages",
        "remember4",
        "108 pages of mostly German homelab documentation (Proxmox cluster, reverse proxy, DNS, monitoring, "
        "a WordPress site, e-ink displays; Markdown links, some English pages); fetched for the fourth set of "
        "`remember` cases, only measured",
    ),
    RealVault(
        "alternef-garden",
        "zettelkasten",
        "Soushi888/alternef-digital-garden",
        "6ede67c6de675116328f9c626a40d6fc506b8069",
        "content",
        "fresh8",
        "625 pages of an English digital garden (short notes on software, Holochain, blockchains, plus blog, "
        "Substack and LinkedIn essays; folder notes `index.md` beside same-named notes)",
    ),
    RealVault(
        "hacktricks-cloud",
        "catalogue",
        "HackTricks-wiki/hacktricks-cloud",
        "7932ebda682b9e0997c056817ffb0043951d132f",
        "src",
        "fresh8",
        "593 pages of a community cheat-sheet collection on cloud pentesting (one page per service and "
        "stage: enumeration, privilege escalation, persistence, post-exploitation)",
    ),
    RealVault(
        "wpcli-handbook",
        "docs",
        "wp-cli/handbook",
        "097b463ba79782edb20860108acad450f35e42fc",
        "",
        "fresh8",
        "720 pages of the WP-CLI handbook (483 generated command-reference pages, many kept in two folders "
        "and as aliases of another command)",
    ),
    RealVault(
        "glrunbooks",
        "agent-memory",
        "yujunz/gitlab.com-runbooks",
        "270d66d3798307991399ce20aaccb93921f71715",
        "",
        "remember5",
        "375 pages of GitLab.com's SRE runbooks (PgBouncer, Patroni, Gitaly, CI runners, Cloudflare, on-call "
        "checklists; a team's operations memory); fetched for the fifth set of `remember` cases, only measured",
    ),
    RealVault(
        "openlab",
        "german",
        "openlab-aux/wikidata",
        "a7db9c78695de936f5ab5002cfcbe1ad29d48939",
        "",
        "remember5",
        "230 pages of the German wiki of the OpenLab Augsburg hackerspace (servers, Home Assistant, backups, "
        "Matrix, machines, members, minutes; branch wikijs-migrate, the wiki as Markdown); fetched for the fifth "
        "set of `remember` cases, only measured",
    ),
    RealVault(
        "contao-manual-de",
        "german",
        "contao/docs",
        "ddf5a72e3148c1696b693eb6ce822f68a20b589d",
        "docs/manual",
        "search8",
        "152 German pages of the Contao CMS manual (back end, pages, forms, extensions, installation, command "
        "line, how-tos); only the `*.de.md` files, not their English twins; fetched for the eighth set of "
        "held-out search questions, only measured",
        ("docs/manual/**/*.de.md", "docs/manual/*.de.md"),
    ),
    RealVault(
        "ms-playbook",
        "docs",
        "microsoft/code-with-engineering-playbook",
        "016770e43d8a75be87b98c000c049f07c4a6e6f8",
        "docs",
        "search8",
        "243 pages of Microsoft's English engineering playbook (agile, code review, testing, CI/CD, security, "
        "observability, design, source control); fetched for the eighth set of held-out search questions, only "
        "measured",
    ),
    RealVault(
        "promrunbooks",
        "agent-memory",
        "prometheus-operator/runbooks",
        "a685d14cf5128bb30e2bf935c3983decd772d885",
        "",
        "remember6",
        "121 pages of the runbooks of the Prometheus/Kubernetes monitoring stack's alerts (one page an alert, "
        "under `content/runbooks/<component>/`); fetched for the sixth set of `remember` cases, only measured",
    ),
    RealVault(
        "ffhb",
        "german",
        "FreifunkBremen/wiki",
        "725b029fc4a07e313ac0175e7031717b33b151b8",
        "",
        "remember6",
        "392 pages of the German wiki of the Freifunk Bremen community network (how-tos, services, servers, "
        "firmware, events, about 270 meeting minutes); fetched for the sixth set of `remember` cases, only measured",
    ),
    RealVault(
        "greentilden-homelab",
        "agent-memory",
        "GreenTilden/proxmox-homelab",
        "beb39d67bec3db3ab74879afa219b74dedf51d2e",
        "",
        "remember7",
        "338 pages of one person's two-node Proxmox homelab notes, kept largely by AI agents (services, hardware, "
        "GPU switching, troubleshooting; an ARCHIVE folder of older copies); fetched for the seventh set of "
        "`remember` cases, only measured",
    ),
    RealVault(
        "ffhl",
        "german",
        "freifunk-luebeck/ffhl-wiki",
        "c67513ec318455a4557f7882d9fccaa8a7b40e8c",
        "",
        "remember7",
        "70 pages of the German wiki of Freifunk Lübeck (servers, gateways, DNS, IP networks, mesh VPN, sites, "
        "loan equipment, FAQ, minutes) under `content/`, without the site theme's example pages; fetched for the "
        "seventh set of `remember` cases, only measured",
        ("content/**/*.md", "content/*.md"),
    ),
    RealVault(
        "frank-ws",
        "agent-memory",
        "frankramblings/openclaw-workspace",
        "0210694d058fc88352568ddff127d15e84ece8ad",
        "",
        "remember8",
        "71 pages of one maintainer's working docs for a web front end to an AI agent (runbook, systemd notes, "
        "architecture, shipping plan, dated plans and audit logs); fetched for the eighth set of `remember` "
        "cases, only measured",
    ),
    RealVault(
        "mainframe-ol",
        "german",
        "ktt-ol/www",
        "fce7bc110a501b129124f490b85fb318b209f106",
        "",
        "remember8",
        "176 pages of the website of the Oldenburg hackspace Mainframe (rooms, the club, blog posts 2011-2025; "
        "many pages with an English `.en.md` copy beside them); fetched for the eighth set of `remember` cases, "
        "only measured",
    ),
    RealVault(
        "csrunbooks",
        "docs",
        "ContainerSolutions/runbooks",
        "6a8784888a79188b25f3eab28070c7bb7f27e026",
        "",
        "remember9",
        "43 pages of Container Solutions' public ops runbooks (a Hugo site: troubleshooting guides for "
        "Kubernetes, networking, Python, Go and Linux, each with an owner); fetched for the ninth set of "
        "`remember` cases, only measured",
    ),
    RealVault(
        "ffmuc",
        "german",
        "freifunkMUC/freifunkmuc.github.io",
        "92e8d290620f66b437514de419402b3bf90b998e",
        "",
        "remember9",
        "57 pages of the German website of Freifunk München (services, firmware and router guides, dated news "
        "posts, some with English sections); fetched for the ninth set of `remember` cases, only measured",
    ),
    RealVault(
        "alivenda",
        "docs",
        "alivenda/homelab-docs",
        "7dc7336df4ffff745382909283de8bd2199f623b",
        "",
        "remember10",
        "40 pages of English homelab runbooks (a four-node k3s cluster on a Turing Pi 2, a NAS, Raspberry Pi "
        "services; each page marked Live or Planned); fetched for the tenth set of `remember` cases",
    ),
    RealVault(
        "zabooz",
        "german",
        "zabooz/homelab_2",
        "f52c333e57c28a350bc465e00a33a336f557eab4",
        "",
        "remember10",
        "58 pages of a German homelab wiki (a three-node Proxmox cluster and a VPS: one setup page per "
        "service, network, VPN and operations pages); fetched for the tenth set of `remember` cases",
    ),
    RealVault(
        "turtlelab",
        "docs",
        "TurtlewareAU/homelab-docs",
        "07cf05ff0c06197f63486b73d90c1506cae3db23",
        "",
        "remember11",
        "60 pages of an English homelab runbook collection (a Proxmox cluster, Docker Swarm with Pi-hole "
        "and NFS, K3s and Argo CD, Bind9, Vault, NUT); fetched for the eleventh set of `remember` cases",
    ),
    RealVault(
        "rubms",
        "german",
        "oliverstickel/rubmakerspace-website",
        "ff119f4508dc243575a64592bcffc640022d9713",
        "docs",
        "remember11",
        "286 pages of a university makerspace's MkDocs site (Ruhr-Universität Bochum: workshops, safety "
        "rules, opening hours, team, dated news; German, 54 with an English `.en.md` copy); fetched for the "
        "eleventh set of `remember` cases",
    ),
    RealVault(
        "giohosted",
        "docs",
        "giohosted/homelab-docs",
        "65d5bbdfee0b57f79d65faf95d018c3c79f1aa28",
        "docs",
        "remember12",
        "61 pages of an English homelab's docs (hosts, network, storage, a page a service, runbooks, build-phase "
        "logs; nine empty); fetched for the twelfth set of `remember` cases",
    ),
    RealVault(
        "adminguide",
        "german",
        "felbinger/AdminGuide",
        "85f8a7e4692af057788b399b708cb38e0d3e6878",
        "",
        "remember12",
        "54 pages of a German admin guide to Docker Compose services behind Traefik or nginx (about 30 service "
        "pages, backup, monitoring, installation); fetched for the twelfth set of `remember` cases",
    ),
    RealVault(
        "homelab-wiki-de",
        "german",
        "derever-labs/homelab-wiki",
        "461508144d410cc570080f238661f83f68cd91c7",
        "docs",
        "remember13",
        "179 pages of a German (Swiss) homelab operations wiki in VitePress (Proxmox, Nomad, Consul, Vault, "
        "Traefik, Authentik, about 40 services, each a folder with `index.md`, often `betrieb.md` and "
        "`referenz.md`); fetched for the thirteenth set of `remember` cases",
    ),
    RealVault(
        "aimarket-runbooks",
        "agent-memory",
        "aidotmarket/runbooks",
        "7ece41a139a561dad77eb779c7ac32b6cf5740b5",
        "",
        "remember13",
        "171 pages of an English operations runbook corpus a company's AI agents keep with its operator (a page "
        "a system: AWS, Cloudflare, Infisical, Qdrant, backups, 2FA, Celery; about 30 lint test fixtures); "
        "fetched for the thirteenth set of `remember` cases",
    ),
    RealVault(
        "osp-kabelsatzbau-de",
        "german",
        "fuxbert79/OSP",
        "25b6a61a78ffb264a32af643fa5372118a270b30",
        "documents_erweitert",
        "remember14",
        "41 long pages of a German cable-harness maker's company knowledge base written for a RAG assistant (IT "
        "servers, network, Microsoft 365, cost centres, fleet, machine maintenance, audits); fetched for the "
        "fourteenth set of `remember` cases",
    ),
    RealVault(
        "eddy-homelab-en",
        "docs",
        "eddyacheung/homelab-documentation",
        "50c062eb370ad8f1788e047bc93d08040d84d8e7",
        "",
        "remember14",
        "80 pages of an English homelab ops wiki kept with AI help (a page a service, dated changes, incidents "
        "and troubleshooting runbooks); fetched for the fourteenth set of `remember` cases",
    ),
    RealVault(
        "fablab-cottbus-de",
        "german",
        "fablabcb/old_wiki",
        "d2baa7b07969b13761740b78eed5021eda21ebfa",
        "",
        "remember15",
        "124 pages of a German maker club's old wiki (Fablab Cottbus: a page a machine, working group, event or "
        "project); fetched for the fifteenth set of `remember` cases",
    ),
    RealVault(
        "ocf-docs-en",
        "docs",
        "ocf/ocfweb",
        "17d8aac7de4157ca28a03fa84e75e07832c4d01d",
        "ocfweb/docs/docs",
        "remember15",
        "133 pages of the English documentation a student team keeps about the lab and servers it runs (UC "
        "Berkeley's Open Computing Facility, mostly staff pages, a page a system or procedure); fetched for the "
        "fifteenth set of `remember` cases",
    ),
    RealVault(
        "ffw-baudenbach-de",
        "german",
        "FFW-Baudenbach/FE2_Documentation",
        "c27c06018205874ffff1ae569d0267edad64a30a",
        "",
        "remember16",
        "34 pages of a German volunteer fire brigade's IT documentation (a page a device, add-on container or "
        "outside service); fetched for the sixteenth set of `remember` cases",
    ),
    RealVault(
        "artifactory-tools-en",
        "docs",
        "Perth-Artifactory/wiki",
        "57ab79840101461c1f086f1ea0d92a5ff94ab537",
        "tools",
        "remember16",
        "42 pages of a makerspace's English equipment register (a page a machine or instrument, operating and "
        "maintenance guides); fetched for the sixteenth set of `remember` cases",
    ),
    RealVault(
        "mission-control-de",
        "agent-memory",
        "pmxller/mission-control",
        "ec9c940c502ba835b2fa75e507fd63a090837034",
        "",
        "remember17",
        "50 pages of a German AI agent's workspace for a consultant (memory logs, decisions, client and project "
        "pages, templates); fetched for the seventeenth set of `remember` cases",
    ),
    RealVault(
        "makerspace-ncl-wiki",
        "docs",
        "MakerSpaceNewcastle/wiki",
        "1cf00c995b59ae404d29f85ed2dd60ae19f2bc75",
        "src",
        "remember17",
        "69 pages of a makerspace's English wiki (a page a machine, piece of infrastructure or policy); fetched "
        "for the seventeenth set of `remember` cases",
    ),
    RealVault(
        "westwoodlabs-de",
        "german",
        "Westwoodlabs/wiki",
        "e0ded39aed62c2f457ffcb7ae24cdb8d60470b55",
        "wiki",
        "remember18",
        "35 pages of a German hackerspace club's wiki (statutes, fee rules and minutes; pages on the 3D printers, "
        "network, door lock, label printers); fetched for the eighteenth set of `remember` cases",
    ),
    RealVault(
        "reese-library-en",
        "docs",
        "orbital99-afk/homelab-wiki",
        "eaeebf5a400b231f876c7f8ed2308003c46fad37",
        "",
        "remember18",
        "46 pages of one person's English homelab wiki (a Mac mini server, a NAS, a UPS, Plex, backups; runbooks "
        "and long incident write-ups); fetched for the eighteenth set of `remember` cases",
    ),
    RealVault(
        "ffvogtland-verein-de",
        "german",
        "FreifunkVogtland/blog-content",
        "c7cccd3baab0603154606bb01100b77dfdc8ed42",
        "",
        "remember19",
        "36 pages of a German community Wi-Fi club's site (routers, firmware, node names, firewall ports, the "
        "backbone, partners, contact; a few 2017 posts), exported from WordPress; fetched for the nineteenth set "
        "of `remember` cases",
    ),
    RealVault(
        "vttc08-homelab-en",
        "docs",
        "vttc08/infra-docs",
        "7e45243d637e3542587c240689109ad9e72441cb",
        "!documentation",
        "remember19",
        "55 pages of one person's English homelab and VPS notes (a page a self-hosted Docker app, Oracle Cloud, "
        "Tailscale, Caddy, WireGuard, Samba); fetched for the nineteenth set of `remember` cases",
    ),
    RealVault(
        "frg-schulhilfe-de",
        "german",
        "rueckertgym/help",
        "999789200b19d2bca6534a2159fc7f467f141813",
        "book",
        "remember20",
        "43 pages of a German grammar school's IT help site (iPads, beamer boxes, the school's Nextcloud, the "
        "learning platform, timetable and class register; a third are index or stub pages); fetched for the "
        "twentieth set of `remember` cases",
    ),
    RealVault(
        "hogwarts-homelab-en",
        "docs",
        "JRFour/homelab-docs-public",
        "1d92e063de6ab06a55f7d5e9c8bcd464bfd18906",
        "docs",
        "remember20",
        "75 pages of one person's English homelab docs, a folder a service (pfSense and its VLAN rules, "
        "switches, a Proxmox cluster, Vault PKI, Traefik, Keycloak, Plex, an LLM box); fetched for the twentieth "
        "set of `remember` cases",
    ),
    RealVault(
        "hypha-handbook-en",
        "docs",
        "hyphacoop/handbook",
        "93623d14d374099b08d1fcc6bbae56803a0091cb",
        "",
        "remember21",
        "87 pages of a Toronto worker co-op's English handbook (payroll, HST, expenses, Proxmox on an OVH "
        "server, VPN, voicemail, offboarding, the board, meetings, holidays); fetched for the twenty-first set "
        "of `remember` cases",
    ),
    RealVault(
        "gbsl-ict-byod-de",
        "german",
        "GBSL-Informatik/ict-website",
        "d06524cf6e639df0b176ab521e85093d952a4dbe",
        "docs/byod",
        "remember21",
        "48 pages of a Swiss grammar school's German help for students' own devices (school Wi-Fi, printers, "
        "e-mail, OneDrive, Teams, the device check; most named README.md in a topic folder, several drafts); "
        "fetched for the twenty-first set of `remember` cases",
    ),
    RealVault(
        "fablab-siegen-de",
        "german",
        "FabLabSiegen/fabdocs",
        "d44390e9b61b3a34d1280284daf7603ee1308adb",
        "docs",
        "remember22",
        "50 pages of a university makerspace's German docs (laser, CNC mills, 3D printers, vinyl cutter, the "
        "lab rules, safety briefings, opening hours; about ten stubs, a few pages in English); fetched for the "
        "twenty-second set of `remember` cases",
    ),
    RealVault(
        "bills-homelab-en",
        "docs",
        "coocookanoo/homelab-wiki",
        "2dd7c656723c8d5dd3b0d30aedae4ac02bb38ef0",
        "",
        "remember22",
        "40 pages of one person's English homelab wiki (router, Pi-hole, WireGuard, a media stack, an NVR, a "
        "switch, backups, a desktop running local models, notes on a local AI agent); fetched for the "
        "twenty-second set of `remember` cases",
    ),
    RealVault(
        "eshd-wiki-de",
        "german",
        "esportheidelberg/ESHD-Docs",
        "37b5b9e9e73f1bfbf42fe42e2714035989cd73df",
        "docs",
        "remember23",
        "48 pages of the German wiki of a volunteer-run youth e-sports school tournament (venues, partners, "
        "people, games and their rulebooks, past events, stage, streaming, PC and network setup, costs); "
        "fetched for the twenty-third set of `remember` cases",
    ),
    RealVault(
        "protospace-guide-en",
        "docs",
        "Protospace/spaceport",
        "d598a59a75968b0e55c42b2d23c3ce5b2f2f1275",
        "guidebook/content",
        "remember23",
        "43 pages of a makerspace's English member guidebook kept as an Obsidian vault (rooms, lock-up, dues, "
        "vetting, pitches and motions, shelves, meetings, the members' portal and forums); fetched for the "
        "twenty-third set of `remember` cases",
    ),
    RealVault(
        "erfindergeist-wiki-de",
        "german",
        "ErfindergeistJuelichOfficial/erfindergeist-wiki",
        "9a6d0c12d9484f2145a79a144953e8ce8383772d",
        "content",
        "remember24",
        "73 pages of a makerspace club's German member wiki (workshop machines, network, Home Assistant, "
        "rules, board duties, finances, the website; several machine pages empty templates); fetched for "
        "the twenty-fourth set of `remember` cases",
    ),
    RealVault(
        "kirito-homelab-en",
        "docs",
        "marcoguastalli/homelab-docs",
        "bfd4ae1df203f6dcfc2b3f8aa7d2b72e419426fd",
        "",
        "remember24",
        "49 pages of one person's English Raspberry Pi homelab docs (architecture documents, decision "
        "records, runbooks, standards); fetched for the twenty-fourth set of `remember` cases",
    ),
    RealVault(
        "gewebe-vault-de",
        "german",
        "heimgewebe/vault-gewebe",
        "8260b99018345adbd4c3a5ecf1cc94af99ea6524",
        "",
        "remember25",
        "77 pages of one person's German Obsidian vault (a social-pedagogy school's practice diary, a garden "
        "railway, travel lists, a van breakdown, to-dos and docs of their software projects); fetched for "
        "the twenty-fifth set of `remember` cases",
    ),
    RealVault(
        "claw-workspace-en",
        "agent-memory",
        "robouden/openclaw-workspace",
        "dff47f5043fc50fc8beba3d6030255a367ae21b4",
        "",
        "remember25",
        "41 pages of an English OpenClaw agent's workspace (memory and daily notes on a VPS, its gateway, "
        "Tailscale, Slack, models and costs, an AnyType sync service); fetched for the twenty-fifth set of "
        "`remember` cases",
    ),
    RealVault(
        "openhsr-verein-de",
        "german",
        "openhsr/verein",
        "dabc4e841da3b6a42b1b317dd49324b5e7dde35b",
        "",
        "remember26",
        "34 pages of a Swiss student association's German handbook (mail, bank, sponsors, bookkeeping, the "
        "encrypted member database, newsletters, minutes 2016-2021); fetched for the twenty-sixth set of "
        "`remember` cases",
    ),
    RealVault(
        "zer0day-cb-memory-en",
        "agent-memory",
        "zer0daylabs/openclaw-workspace",
        "868850a5b89fc63c6e8a2f971164e1c84132df01",
        "memory",
        "remember26",
        "72 pages of an English OpenClaw agent's memory folder (MEMORY.md, infrastructure and projects, "
        "daily heartbeat logs, an error journal, notes on Ollama, Freqtrade, Graphiti, Stripe, Railway); "
        "fetched for the twenty-sixth set of `remember` cases",
    ),
    RealVault(
        "runtunfun-homelab-de",
        "german",
        "runtunfun/archive-consolidated",
        "72ce63ea8f77dd3aa5c51350cf219f29b7d694c1",
        "",
        "remember27",
        "118 pages of one person's German homelab docs (VLANs and devices by room, Pi-hole, Traefik, Home "
        "Assistant, backups, a camper van; large pages kept in several copies); fetched for the "
        "twenty-seventh set of `remember` cases",
    ),
    RealVault(
        "redbrick-docs-en",
        "docs",
        "redbrick/docs",
        "d2e871b6ac355f44d76dac29d513983ad2acbf14",
        "docs",
        "remember27",
        "59 pages of a university computing society's English admin wiki (one page per server, service and "
        "procedure); fetched for the twenty-seventh set of `remember` cases",
    ),
    RealVault(
        "awo-oberlar-de",
        "german",
        "kamkalian/awo-wiki",
        "aa434dac007439982495d2234eeb5ef2f98b328b",
        "",
        "remember28",
        "50 pages of a local welfare association's German internal wiki (its web server, office network, "
        "repair-café app; `en/` holds older German copies, not translations); fetched for the "
        "twenty-eighth set of `remember` cases",
    ),
    RealVault(
        "ike-openclaw-en",
        "agent-memory",
        "nicpanyard-svg/openclaw-workspace",
        "429a17e776e69546a370749790fcd2bb95af85c9",
        "",
        "remember28",
        "67 pages of an English OpenClaw sales assistant's workspace (persona files, heartbeat rules, "
        "service status notes, Mission Control plans, a stock board kept in two copies, quote-tool specs); "
        "fetched for the twenty-eighth set of `remember` cases",
    ),
    RealVault(
        "hoplab-wiki-en",
        "docs",
        "HOPLAB-LBP/hoplab-wiki",
        "dd15bd1cc48d8a6744fc56a6c3eff7a9db0273aa",
        "docs",
        "remember29",
        "54 pages of a university research lab's English wiki (onboarding, rooms, people, printers, "
        "participant recruitment, the EEG lab, fMRI scanning, the computing cluster, ethics, research data); "
        "fetched for the twenty-ninth set of `remember` cases",
    ),
    RealVault(
        "mustafah-zk",
        "zettelkasten",
        "mustafah15/zettelkasten",
        "1d8ae2d628c00ee2cfcfc43c01d16bc1b59093a9",
        "",
        "fresh9",
        "384 pages of an English software zettelkasten (book notes, blog articles kept in `output/` and in the "
        "notes); fetched and labelled by a helper before the rule at 117ea89 ran on it",
    ),
    RealVault(
        "ariffazil-oc",
        "agent-memory",
        "ariffazil/openclaw-workspace",
        "09fa74350d50d652b8e134eb29c0bf760d5848b0",
        "",
        "fresh9",
        "480 pages of an AI agent's OpenClaw workspace (memory, seeds and archive copies of its files, ADRs, "
        "daily logs)",
    ),
    RealVault(
        "cheatsheets-ctf",
        "catalogue",
        "0xb120/cheatsheets_and_ctf-notes",
        "e5e045bdb26fb2093054f5b7a38941f209f57a4d",
        "",
        "fresh9",
        "949 pages of security cheat sheets, CTF write-ups and Readwise imports (weekly newsletters, tweets)",
    ),
    RealVault(
        "lobinger-schule",
        "german",
        "MonikaLobinger/schule",
        "8cbf7cb592cf1a9ef58edfa11533be9c1de309f9",
        "",
        "fresh9",
        "312 pages of a German student's lecture link pages and notes (Mitschriften, an abandoned copy of them)",
    ),
    RealVault(
        "giglietto-zk",
        "zettelkasten",
        "fabiogiglietto/mine-zettelkasten",
        "4e84d12a575362df170ebf57b4224876b6bf9e9a",
        "vault",
        "fresh10",
        "262 pages of a researcher's English zettelkasten (paper notes by citekey, topic and structure notes); "
        "fetched and labelled by a helper before the rule at 2cb00df ran on it",
    ),
    RealVault(
        "nicola-oc",
        "agent-memory",
        "nicola-king/openclaw-workspace",
        "e430cf1a5c813ef3c2d85c14772ee029021532c8",
        "",
        "fresh10",
        "973 pages of an AI agent's workspace, mostly Chinese (cron and task reports, skills, daily notes, "
        "articles); fetched and labelled by a helper before the rule at 2cb00df ran on it",
    ),
    RealVault(
        "bonz-handbook",
        "docs",
        "BonzTM/coding-handbook",
        "16a57efce86f0add475b72b18c806417340fd3b4",
        "",
        "fresh10",
        "406 pages of a team's coding handbook kept as six parallel per-language handbooks; fetched and "
        "labelled by a helper before the rule at 2cb00df ran on it",
    ),
    RealVault(
        "menge-kurs-de",
        "german",
        "JacobMenge/kurs-25-06",
        "a76ec95245cd2e8fe8d6237955fa711c15aca9ca",
        "docs",
        "fresh10",
        "199 pages of a German course handbook (MkDocs: weekly overviews, exercise sheets of one template, "
        "code examples); fetched and labelled by a helper before the rule at 2cb00df ran on it",
    ),
    RealVault(
        "voidaowl-zk",
        "zettelkasten",
        "voidaowl/zettelkasten",
        "0924253011b8a751bc389c814b15c546355c487f",
        "",
        "fresh11",
        "243 pages of a student's English zettelkasten (JavaScript and C++ notes, tag and index pages); "
        "fetched and labelled by a helper before the rule at c83ee55 ran on it",
    ),
    RealVault(
        "lenny-oc",
        "agent-memory",
        "lennyfinn1974/openclaw-workspace",
        "b0805a54f52c9d1fe6cc86d54067fad65faccca8",
        "",
        "fresh11",
        "401 pages of an AI agent's workspace, most of them its files copied into backup folders and guides "
        "it regenerated on several nights; fetched and labelled by a helper before the rule at c83ee55 ran on it",
    ),
    RealVault(
        "openshift-runbooks",
        "docs",
        "openshift/runbooks",
        "82bd2d9d3789e76f8a8202f8a9ee0f0639cc5b73",
        "",
        "fresh11",
        "274 alert runbooks of one template by several teams, some deprecated for a newer one; fetched and "
        "labelled by a helper before the rule at c83ee55 ran on it",
    ),
    RealVault(
        "oberschule-de",
        "german",
        "audipz/Unterrichtsmaterial_Oberschule_Sachsen",
        "e6d82b695d97ae373e8bf717447162d5fb91cfe1",
        "Unterrichtsmaterial_Oberschule_Sachsen",
        "fresh11",
        "911 pages of German school lessons (workbook, teacher edition, solutions and slides of each lesson from "
        "templates, project forms); fetched and labelled by a helper before the rule at c83ee55 ran on it",
    ),
    RealVault(
        "karst-oc",
        "agent-memory",
        "karstagent/openclaw-workspace",
        "2f010afac4abc2a5a8d1472fe1921513ce6a9502",
        "",
        "fresh12",
        "151 pages of an AI agent's workspace (reports, task cards, daily memory, hourly summaries); fetched "
        "and labelled by a helper before the rule at 6932521 ran on it",
    ),
    RealVault(
        "matweiss-clawd",
        "agent-memory",
        "Matweiss/clawd-brain-data",
        "c1d66aba1cb761ecdc6a5afaf8d5df83cdddd234",
        "",
        "fresh12",
        "325 pages of an agent and about ten sub-agents' files (skills, personas, daily logs); fetched and "
        "labelled by a helper before the rule at 6932521 ran on it",
    ),
    RealVault(
        "picton-vault",
        "zettelkasten",
        "VinceHPicton/obsidian-vault",
        "ed91f895cf90edd22a590677dcc21c08976b84a1",
        "",
        "fresh12",
        "489 short notes of a developer's Obsidian vault (AWS, Docker, React); fetched and labelled by a "
        "helper before the rule at 6932521 ran on it",
    ),
    RealVault(
        "schwarz-optimierung-de",
        "german",
        "marcjulianschwarz/obsidian-vault-notes",
        "52d082475416ad6d178d909f5f5a908e04c0e848",
        "university/Optimization",
        "fresh12",
        "238 short German definition notes of an optimisation course; fetched and labelled by a helper "
        "before the rule at 6932521 ran on it",
    ),
    RealVault(
        "leejmairap-oc",
        "agent-memory",
        "LeeJMaiRap/openclaw-workspace",
        "dac572ccd700d7a99ec646bfb5f044cb66ded47b",
        "",
        "fresh13",
        "327 pages of an AI agent's workspace (English and Vietnamese: skills, templates, dashboards); "
        "fetched and labelled by a helper before the rule at 643e03b ran on it",
    ),
    RealVault(
        "masbr0d1n-oc",
        "agent-memory",
        "masbr0d1n/openclaw-workspace",
        "18121076aa1cc6e2e016180225dffff54bfb0efc",
        "",
        "fresh13",
        "210 pages of an AI agent's workspace (English and Indonesian: fix reports, memory notes, shared copies); "
        "fetched and labelled by a helper before the rule at 643e03b ran on it",
    ),
    RealVault(
        "seanfzc-oc",
        "agent-memory",
        "seanfzc/openclaw-workspace",
        "7bb95e8b9b5b025497274cba3f79771c59094e04",
        "",
        "fresh13",
        "384 pages of an AI agent's workspace (mirrored folders, requirement versions, exam notes); "
        "fetched and labelled by a helper before the rule at 643e03b ran on it",
    ),
    RealVault(
        "rmk-oc",
        "agent-memory",
        "rmk4ts2jjw-create/openclaw-workspace",
        "0bd3e4c30a33fb83b9feb92d498d1ce4b70eb25a",
        "",
        "fresh13",
        "817 pages of an AI agent's workspace, about 590 of them a vendored product's docs kept live "
        "and under _archive/; "
        "fetched and labelled by a helper before the rule at 643e03b ran on it",
    ),
    RealVault(
        "dingdyan-oc",
        "agent-memory",
        "dingdyan/openclaw-workspace-v2",
        "072bd971cc84faed902999e595a6911aa2f916a7",
        "",
        "fresh14",
        "222 pages of an AI agent's workspace (English and Chinese: memory snapshots, skills); "
        "fetched and labelled by a helper before the rule at 7c45ab7 ran on it",
    ),
    RealVault(
        "scchin-oc",
        "agent-memory",
        "scchin/openclaw-workspace",
        "a00dda93f4d7a9eb7bcb0b69054a9db28f2f2a75",
        "",
        "fresh14",
        "870 pages of an AI agent's workspace (English and Chinese: installed skills and their backups, reports); "
        "fetched and labelled by a helper before the rule at 7c45ab7 ran on it",
    ),
    RealVault(
        "russel-oc",
        "agent-memory",
        "russelopenclaw/openclaw-workspace",
        "174ea70ac1a8bbc65073af7d7932ed6e99cc3172",
        "",
        "fresh14",
        "273 pages of an AI agent's workspace (daily notes of one template, skills, workflows); "
        "fetched and labelled by a helper before the rule at 7c45ab7 ran on it",
    ),
    RealVault(
        "heimdall-oc",
        "agent-memory",
        "heimdall-prometheus/openclaw-workspace",
        "14aa5fe9da7c2f9f923e3f3d81a1e484e0113cc4",
        "",
        "fresh14",
        "381 pages of an AI agent's workspace (German and English: book chapters and their backups, plans); "
        "fetched and labelled by a helper before the rule at 7c45ab7 ran on it",
    ),
    RealVault(
        "arabbit-zk",
        "zettelkasten",
        "arabbitplays/Zettelkasten",
        "60c1855fd539fef0506206bda99d0c2dd4923f49",
        "",
        "fresh15",
        "222 pages of a personal zettelkasten of short notes; fetched and labelled by a helper before the "
        "rule at 7c45ab7 ran on it",
    ),
    RealVault(
        "bulka-itnotes",
        "zettelkasten",
        "bulka4/obsidian-notes-IT-personal-projects-and-knowledge-base",
        "58d75a43531953a2c123571ea272963ab89d3c35",
        "",
        "fresh15",
        "1,350 pages of one person's IT and machine-learning work notes, with '(Archive)' and old copies of "
        "notes; fetched and labelled by a helper before the rule at 7c45ab7 ran on it",
    ),
    RealVault(
        "clawd-oc",
        "agent-memory",
        "j33bs/clawd",
        "7755687650c5c8a24a5f09f63de496a564c3217c",
        "",
        "fresh16",
        "571 pages of an AI agent's workspace (bootstrap files kept in three folders, audit logs, paper "
        "notes); fetched and labelled by a helper before the rule at 114c82a ran on it",
    ),
    RealVault(
        "zmzm-vault",
        "zettelkasten",
        "zmzm/obsidian-vaults",
        "20e9b5575c64e1a66285c521186193f18256a68b",
        "",
        "fresh16",
        "978 pages of one person's work notes (a frontend wiki of newsletter clippings, coding skills, "
        "Russian notes on LLMs); fetched and labelled by a helper before the rule at 114c82a ran on it",
    ),
    RealVault(
        "theo-vault-de",
        "german",
        "alKerim/TheoVault",
        "baf751be6ae73ea5707660005b970c823d72d48c",
        "",
        "fresh17",
        "211 pages of German lecture notes on theoretical computer science (TUM, short concept notes); "
        "fetched and labelled by a helper before the rule at 114c82a ran on it",
    ),
    RealVault(
        "k8s-community",
        "docs",
        "kubernetes/community",
        "24e7d8f5409c1a0121394a613746e524f781e044",
        "",
        "fresh17",
        "964 pages of a community's handbook (SIG charters, annual reports, meeting notes, elections); "
        "fetched and labelled by a helper before the rule at 114c82a ran on it",
    ),
    RealVault(
        "yuchangxu-oc",
        "agent-memory",
        "yuchangxu1989-Openclaw/openclaw-workspace",
        "954b9c748f79c5fdb42ef43d2558ae99336f3def",
        "",
        "fresh18",
        "750 pages of a multi-agent workspace, mostly Chinese (sub-agents' rules files, skills in two "
        "folders, designs in several versions); fetched and labelled by a helper before the rule at "
        "7796d81 ran on it",
    ),
    RealVault(
        "randnotizen-de",
        "german",
        "benjamin-lam/randnotizen",
        "2f0d3fdf27831da584ac813b1d4e118bfad7f9b7",
        "",
        "fresh18",
        "225 pages of one person's German notes on web UI building blocks and 111 blog posts quoting "
        "them; fetched and labelled by a helper before the rule at 7796d81 ran on it",
    ),
    RealVault(
        "anish-notes",
        "zettelkasten",
        "AnishParab/Obsidian-Notes",
        "d4593b006ecd23f3e6810ab90e4e18c42f08ce8f",
        "",
        "fresh19",
        "1,396 pages of one student's Obsidian vault of short coding notes (Python, C/C++, DSA, Linux, "
        "web, CCNA; course folders that repeat topics, excalidraw drawings); fetched and labelled by a helper",
    ),
    RealVault(
        "tc-wiki",
        "docs",
        "TrinityCore/tc-wiki",
        "9bc42dab2d477cb7993518517f71e47b1c0cd70b",
        "",
        "fresh19",
        "1,453 pages of a game-server project's wiki (one page per database table for two server versions, "
        "DBC file pages, install and how-to guides); fetched and labelled by a helper",
    ),
    RealVault(
        "go2se-oc",
        "agent-memory",
        "goose2openclaw/openclaw-workspace",
        "7b7c88239f8db9cdc83c63b36d67726a310893ed",
        "",
        "fresh19",
        "823 pages of an AI agent's workspace, mostly Chinese (a trading platform's team files, reports in "
        "versions, ~500 vendored skills); fetched and labelled by a helper",
    ),
    RealVault(
        "lesleylai-garden",
        "zettelkasten",
        "LesleyLai/digital-garden",
        "6581960271f74bd75e29b66217fe0e23999577d2",
        "content",
        "fresh20",
        "1.18k short concept notes of one developer's Quartz digital garden (math, CS, C++, graphics), "
        "plus writings and fleeting notes; fetched and labelled by a helper",
    ),
    RealVault(
        "apoli-handbook",
        "docs",
        "0vergrown/Handbook",
        "3eefd396307dfe5cefe72812ec75756c7b5c516e",
        "src/content",
        "fresh20",
        "600 pages of the Apoli/Origins Minecraft-mod documentation (one page per power type, action, "
        "condition) and a few blog posts; fetched and labelled by a helper",
    ),
    RealVault(
        "clawagent-workspace",
        "agent-memory",
        "claw-agent/clawd-workspace",
        "343dbd3a265a32da747b20f0eb0d928b4c04de5d",
        "",
        "fresh20",
        "850 pages of an English OpenClaw agent workspace (daily memory, decisions and lessons, client "
        "projects, research digests, GitHub deep dives and bookmarks, skills; its ~590 node_modules "
        "Markdown files are skipped); fetched and labelled by a helper",
    ),
    RealVault(
        "heimnetz-infra-de",
        "german",
        "bernd-lab/heimnetzwerk-infra",
        "70b968a3bc0d4cdd4362db7c80fc2336527c4007",
        "",
        "search9",
        "253 pages of German home-lab notes written largely by AI agents (one-node Kubernetes, Pi-hole and "
        "FritzBox DNS, GitLab, ArgoCD, Jellyfin, Grafana) and the agents' prompt files; fetched for the ninth "
        "set of held-out search questions, only measured",
    ),
    RealVault(
        "java-webdev-concepts-en",
        "zettelkasten",
        "GoForGoldner/obsidian-vault",
        "c12cb71e3368109a267647cc2d30577816a24ab1",
        "",
        "search9",
        "275 pages of English study notes (algorithms, Java, design patterns, Spring, CSS/JS/React, system "
        "design write-ups); fetched for the ninth set of held-out search questions, only measured",
    ),
    RealVault(
        "moser-studyvault-de",
        "german",
        "DanielJMoser/ObsidianVault",
        "d2d56ab23efda12ce1ecea080a6472fca867bb98",
        "02-Areas",
        "search10",
        "459 pages of one student's German Obsidian course notes (operating systems, databases, networks, "
        "security, machine learning, business law); fetched for the tenth set of held-out search questions, "
        "only measured",
    ),
    RealVault(
        "nadoo-wiki-de",
        "german",
        "NADOOIT/NADOO-Wiki",
        "b0e90b064d051ac4c6fc05497d577f4c92bb23f2",
        "docs",
        "search10",
        "178 pages of a German company's onboarding wiki (working time, sick leave, meetings, GitHub, "
        "tutorials); fetched for the tenth set of held-out search questions, only measured",
    ),
    RealVault(
        "amitabha-clawd",
        "agent-memory",
        "AmitabhainArunachala/clawd",
        "c553ec972ff790ae0d86aa20f4237eea485942d2",
        "",
        "fresh21",
        "790 pages of an English agent workspace (PARA folders, skills, handoffs, daily memory, research "
        "and sprint reports); fetched and labelled by a helper; its one dangling symlink page is left out",
        pages=("*.md", "*.markdown", "!/hypernotes_symlink.md"),
    ),
    RealVault(
        "hugwi-obsidian",
        "zettelkasten",
        "hugwi/obsidian-vault",
        "1e28616ddf7706d6528e483cfa60605b75ab4ffb",
        "",
        "fresh21",
        "1.66k pages of one engineer's English Obsidian vault (short notes on data platforms and agentic "
        "coding, meeting notes, 350 daily notes, 420 Readwise clippings that often repeat a Web Clipper note "
        "at the root; one clipping with a too-long file name cannot be checked out); fetched and labelled by "
        "a helper",
    ),
    RealVault(
        "salman-handbook",
        "docs",
        "salman0butt/handbook",
        "7a8a85c1a9b2e0efd37feabe944d1cdf5d508ffd",
        "docs",
        "fresh21",
        "1.18k .md pages of one developer's generated English software handbook site (React, Node.js, AI "
        "engineering, PostgreSQL, JavaScript, React Native, TypeScript; numbered chapters beside topic "
        "folders on the same subjects; its ~715 .mdx pages are not read); fetched and labelled by a helper",
    ),
    RealVault(
        "selogaz-vault-ru",
        "zettelkasten",
        "Selogaz/Obsidian-vault-cpp",
        "54ee47271851a4cfcd9588cce287d150d0422f45",
        "",
        "fresh22",
        "2.17k pages of one developer's Russian Obsidian vault (Java/CS concept notes, hierarchy and meta "
        "notes, daily/periodic notes, sources, note templates); fetched and labelled by a helper; one page "
        "whose blob the snapshot lacks is left out",
        pages=("*.md", "*.markdown", "!/base/notes/Тз на разработку Seržákmarkeťák.md"),
    ),
    RealVault(
        "gitlab-handbook-ja",
        "docs",
        "kyama0/gitlab-handbook-ja",
        "6c5d70c82b0777faa6899ddcfc59d585cf397f91",
        "content/handbook/engineering",
        "fresh22",
        "1.33k pages of the engineering section of a Japanese machine translation of the GitLab team "
        "handbook (team pages, design documents, personal READMEs); fetched and labelled by a helper",
    ),
    RealVault(
        "yunosuke-oc",
        "agent-memory",
        "YunosukeYoshino/openclaw-workspace",
        "a4d25765315e8d2879434665bcc3b5478427238a",
        "",
        "fresh22",
        "2.76k pages of a Japanese/English OpenClaw agent workspace (about 1.8k generated agent READMEs, "
        "skills, feature-area docs, memory); fetched and labelled by a helper",
    ),
    RealVault(
        "f1nn-zettel-de",
        "german",
        "F1nnSBK/Zettel",
        "7fce3f3d4e5683b718e846465e9ee563befb5516",
        "",
        "fresh23",
        "about 410 pages of one student's German Obsidian zettelkasten (finance, statistics, IT security, "
        "databases, machine learning; quick notes, flash cards, templates; .trash not read); fetched and "
        "labelled by a helper",
    ),
    RealVault(
        "flexget-wiki",
        "docs",
        "Flexget/wiki",
        "aa973ee7fed94f30a77b92837fe16d0f8ea2f22c",
        "",
        "fresh23",
        "595 pages of the FlexGet community docs wiki in English (plugin pages, cookbook recipes, CLI, "
        "install wizard, searches, drafts), edited by many people; fetched and labelled by a helper",
    ),
    RealVault(
        "sophie-oc",
        "agent-memory",
        "MLorneSmith/sophie-workspace",
        "3271bf1d5f9c1c886befe45fed561941b964caf6",
        "",
        "fresh23",
        "about 700 pages of an OpenClaw agent's English workspace (MEMORY.md, daily and topic memory files, "
        "deliverables, .ai runs and contexts, skills, SOPs); fetched and labelled by a helper; six symlinks into "
        "the agent's home folder, broken in a checkout, are left out",
        pages=(
            "*.md",
            "*.markdown",
            "!/skills/linkedin-content/references/linkedin-guidelines.md",
            "!/skills/linkedin-content/references/linkedin-pillars.md",
            "!/skills/linkedin-content/references/drafting-sop.md",
            "!/skills/linkedin-content/references/ideation-sop.md",
            "!/skills/blog-writing/references/blog-writing-sop.md",
            "!/skills/blog-writing/references/blog-guidelines.md",
        ),
    ),
    RealVault(
        "enigma-notes-zh",
        "zettelkasten",
        "enigmaiiiiiiii/Learning-Record-Write-By-Obsidian",
        "5d39d9df229d428a70be281487d6c05f09d9f515",
        "",
        "trial",
        "2.15k pages of one developer's Chinese study notes in Obsidian (C++, Linux, .NET, JavaScript, Python, "
        "graphics; `sorted/` folders); fetched by a new user this session; search questions in Chinese",
    ),
]

BY_NAME = {v.name: v for v in VAULTS}
PAGE_PATTERNS = ["*.md", "*.markdown"]


class MirrorMissing(RuntimeError):
    pass


def mirror_dir(vault: RealVault) -> Path:
    owner, name = vault.repo.split("/", 1)
    return MIRROR_ROOT / f"{owner}+{name}" / "repo"


def checkout(name: str, cache: Path | str | None = None) -> Path:
    """The local folder of vault `name` at its pinned commit (cloned into `cache` on first use)."""
    vault = BY_NAME[name]
    if vault.repo.startswith("shared:"):
        path = SHARED_ROOT / vault.repo.split(":", 1)[1]
        if not path.is_dir():
            raise MirrorMissing(f"{name}: shared vault {path} is absent")
        return path / vault.subdir if vault.subdir else path
    cache = Path(cache) if cache is not None else DEFAULT_CACHE
    mirror = mirror_dir(vault)
    owner, repo = vault.repo.split("/", 1)
    dest = cache / f"{owner}+{repo}@{vault.commit[:12]}{'-' + vault.name if vault.pages else ''}"
    if not (dest / ".git").is_dir():
        if not mirror.is_dir():
            raise MirrorMissing(
                f"{name}: no git mirror at {mirror}. Bring {vault.repo} onto this machine first "
                f"(the search tool's fetch, github:{vault.repo}), or set CURATOR_MIRROR_ROOT; "
                f"then this clones commit {vault.commit}."
            )
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".partial")
        subprocess.run(["rm", "-rf", str(tmp)], check=True)
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(tmp)], check=True)
        # Only the pages: snapshots lack blobs of 4 MiB and more (videos, images), so a full
        # checkout can fail; a sparse checkout of Markdown files never needs them.
        subprocess.run(
            ["git", "-C", str(tmp), "sparse-checkout", "set", "--no-cone", *(vault.pages or PAGE_PATTERNS)],
            check=True,
        )
        subprocess.run(
            ["git", "-C", str(tmp), "-c", "advice.detachedHead=false", "checkout", "-q", vault.commit], check=True
        )
        tmp.rename(dest)
    path = dest / vault.subdir if vault.subdir else dest
    return path


LABELS_DIR = Path(__file__).with_name("labels")


def load_labels(name: str) -> list[dict]:
    """The labelled pairs of vault `name` (benchmarks/labels/<name>.jsonl): dicts with a, b (paths
    relative to the vault folder), label (merge | related | unsure), reason, found_by."""
    import json

    path = LABELS_DIR / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def available(name: str) -> bool:
    vault = BY_NAME[name]
    if vault.repo.startswith("shared:"):
        return (SHARED_ROOT / vault.repo.split(":", 1)[1]).is_dir()
    return mirror_dir(vault).is_dir()


def main(argv: list[str]) -> int:
    if argv:
        try:
            print(checkout(argv[0], argv[1] if len(argv) > 1 else None))
        except MirrorMissing as exc:
            print(exc, file=sys.stderr)
            return 2
        return 0
    for v in VAULTS:
        print(
            f"{v.name:22} {v.kind:13} {v.split:8} {v.repo:36} {v.commit[:12] or '-':12} "
            f"{'available' if available(v.name) else 'MISSING'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
