"""told: what an agent instruction file (CLAUDE.md, AGENTS.md, .cursorrules …) said at a
commit or on a day. For a commit, the instructions in force when it was written are those
in its parent's tree; for a day, those on the branch at the end of that day."""

from __future__ import annotations

import posixpath
import re
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from companybrain.ask.repo import answers
from companybrain.ask.repo.answers import Row
from companybrain.ask.repo.review import repository_path
from companybrain.ask.repo.subjects import clean, looks_like_path, resolve_commit
from companybrain.ask.repo.topic import STOPWORDS, stem, term_set
from companybrain.errors import InputError
from companybrain.graph.queries import repo_read
from companybrain.model.answer import Answer, Citation, RefusalCode
from companybrain.policy.time import VagueDate, format_instant, parse_question_time
from companybrain.repo import gitcmd
from companybrain.repo.gitcmd import GitError
from companybrain.repo.instructions import (
    Span,
    applies_to,
    glob_matches,
    governs,
    is_instruction_file,
    matching,
    scope_folder,
)

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

LONG_SECTION = 20  # lines; longer sections are quoted by their matching lines only
_WORDS = re.compile(r"[a-z0-9][a-z0-9_-]*")
_AFTER_PATH = re.compile(r"\s*\b(?:for|in|of|on|under|to)\s*$", re.I)  # "money for <path>"
_GENERIC = {"agent", "agents", "instruction", "instructions", "file", "ai", "claude", "copilot",
            "cursor", "gemini", "md", "rules"}  # fmt: skip


def topic_words(topic: str) -> list[str]:
    words = _WORDS.findall(topic.lower())
    return [w for w in dict.fromkeys(words) if w not in STOPWORDS and w not in _GENERIC]


def _file_matches(path: str, wanted: str) -> bool:
    wanted = wanted.strip().strip("`").lower()
    return path.lower() == wanted or posixpath.basename(path).lower() == wanted


def _links(versions: list[Row]) -> dict[str, str]:
    """Instruction files that are symbolic links to another in the same tree (`ln -s
    AGENTS.md CLAUDE.md`: git keeps the link as a blob holding the path it points to) ->
    the file they point to, which is what an agent reading them reads."""
    paths = {v["file"] for v in versions}
    out: dict[str, str] = {}
    for v in versions:
        text = (v.get("text") or "").strip()
        if not text or "\n" in text or len(text) > 1000:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(v["file"]), text))
        if target != v["file"] and target in paths:
            out[v["file"]] = target
    return out


def _named_files(versions: list[Row], wanted: str) -> list[Row]:
    """The versions of the file asked for: the one at that very path when there is one
    ("AGENTS.md" is the one at the root, not services/billing/AGENTS.md), else by name."""
    exact = [v for v in versions if v["file"].lower() == wanted.strip().strip("`").lower()]
    return exact or [v for v in versions if _file_matches(v["file"], wanted)]


def _scope(store: Store, *texts: str) -> list[str]:
    """The files and folders of the history a question names ("... for
    services/api/app.py"): the instructions in force for them are the only ones asked about."""
    out: list[str] = []
    for text in texts:
        for token in text.split():
            word = clean(token)
            if not looks_like_path(word) or is_instruction_file(word):
                continue
            word = word.rstrip("/")  # a folder: "services/billing/"
            if not word or word in out:
                continue
            if repo_read.file_exists(store, word) or repo_read.files_under(store, word, 1):
                out.append(word)
    return out


def _folder(path: str) -> str | None:
    """The folder whose files an instruction file is for (None: every file)."""
    return scope_folder(path) or None


def _spans(version: Row) -> list[Span]:
    return [
        Span(s["heading"] or "", int(s["level"] or 0), int(s["line_start"]), int(s["line_end"]),
             s["text"] or "")
        for s in version["sections"]
        if s.get("line_start") is not None
    ]  # fmt: skip


def _nearest_first(path: str, asked: list[str]) -> tuple[int, int, int, str]:
    """Sort key: an instruction file whose folder holds every file asked about, the nearest
    first (services/billing/AGENTS.md takes precedence over the root's AGENTS.md for
    services/billing/pay.py, as the agents read them); without files asked about, the root's
    first."""
    folder = scope_folder(path)
    holds = bool(asked) and all(f"{f}/".startswith(folder) for f in asked)
    depth = folder.count("/")
    return (0 if holds else 1, -depth if holds else depth, path.count("/"), path)


def _says(text: str, words: list[str]) -> bool:
    """Whether `text` mentions one of `words` in any form ("testing": "## Tests")."""
    return bool({stem(w) for w in words} & term_set(text))


_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}\s")


def _said(spans: list[Span], words: list[str]) -> list[tuple[int, str]]:
    """What a file says of the topic: the lines of its matching sections that name it, else
    their lines, without headings (line number, text)."""
    lines = [
        (s.line_start + i, line.strip())
        for s in spans
        for i, line in enumerate(s.text.splitlines())
        if line.strip() and not _HEADING_LINE.match(line)
    ]
    named = [(n, t) for n, t in lines if any(w in t.lower() for w in words) or _says(t, words)]
    return named or lines


def _overridden(path: str, found: list[tuple[Row, list[Span]]], about: list[str]) -> bool:
    """Whether a nearer file of the same name (services/billing/AGENTS.md over AGENTS.md)
    speaks of the topic for every file asked about: the agent reading that name reads it."""
    name, folder = posixpath.basename(path).lower(), scope_folder(path)
    return any(
        posixpath.basename(v["file"]).lower() == name
        and len(theirs := scope_folder(v["file"])) > len(folder)
        and theirs.startswith(folder)
        and _nearest_first(v["file"], about)[0] == 0
        for v, _ in found
    )


def _disagree(found: list[tuple[Row, list[Span]]], words: list[str], about: list[str]) -> list[Row]:
    """When files of the same standing (for the same files: the root's AGENTS.md, CLAUDE.md,
    .github/copilot-instructions.md, .cursor/rules/*, each read by its own agent; and, for
    files asked about in a folder, its AGENTS.md beside the root's CLAUDE.md, which no
    nearer CLAUDE.md overrides) say different things of the topic, what each says: no one
    of them is the one in force."""
    mine = scope_folder(found[0][0]["file"])
    peers = [
        (v, ss) for v, ss in found
        if (scope_folder(v["file"]) == mine or _nearest_first(v["file"], about)[0] == 0)
        and not _overridden(v["file"], found, about)
    ]  # fmt: skip
    if not words or len(peers) < 2:
        return []
    said = {v["file"]: _said(ss, words) for v, ss in peers}
    versions = {frozenset(" ".join(t.lower().split()) for _, t in lines) for lines in said.values()}
    if all(a <= b or b <= a for a in versions for b in versions):  # one says all the other does
        return []
    return [{"file": f, "line": n, "quote": t} for f, lines in said.items() for n, t in lines]


SAID_SHOWN = 3  # lines of each file a disagreement's text quotes (the result has them all)


def _lines_said(file: str, said: list[Row]) -> str:
    shown = "; ".join(f"{file} line {d['line']} “{d['quote']}”" for d in said[:SAID_SHOWN])
    more = len(said) - SAID_SHOWN
    return shown + (
        f" (and {more} more line{'s' if more > 1 else ''} of {file})" if more > 0 else ""
    )


def _citations(version: Row, spans: list[Span], words: list[str]) -> list[Citation]:
    out = []
    for s in spans:
        lines = s.text.splitlines()
        if len(lines) <= LONG_SECTION or not words:
            out.append(
                Citation(record=version["file"], kind="instruction", at=version["date"],
                         quote=s.text, lines=(s.line_start, s.line_end))
            )  # fmt: skip
            continue
        for i, line in enumerate(lines):
            if line.strip() and (any(w in line.lower() for w in words) or _says(line, words)):
                n = s.line_start + i
                out.append(
                    Citation(record=version["file"], kind="instruction", at=version["date"],
                             quote=line.strip(), lines=(n, n))
                )  # fmt: skip
    return out


def _named_revision(store: Store, text: str) -> str | None:
    """The commit a revision names in the repository ingested here (`HEAD`, `main~2`, a
    tag), when git knows it and so does the graph; None for anything else."""
    word = clean(text)
    if not word or word.startswith("-") or any(c.isspace() or c == "\x00" for c in word):
        return None
    try:
        full = gitcmd.resolve(repository_path(store), word)
    except (InputError, GitError):
        return None
    return full if full and repo_read.commit(store, full) else None


def branch_tip(last: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Of the first-parent commits that landed last (in the same second), the one no other
    of them has as its first parent: the tip of the branch then. Their order by time is a
    tie, and the database returns ties in no particular order."""
    parents = {c["first_parent"] for c in last}
    tips = [c for c in last if c["commit"] not in parents] or last
    return max(tips, key=lambda c: (c["committer_at"] or "", c["commit"]), default=None)


MAX_STEPS = 1000  # first-parent commits walked up from the last one landed by a day


def branch_at(
    store: Store, until_ms: int, day: str, now_ms: int | None = None
) -> dict[str, Any] | str | None:
    """The tip of the branch at `until_ms`: the last first-parent commit landed by then, and
    past it any that follow it committed by then too (a child committed before its parent:
    a rebase, a clock behind). None when nothing had landed. A reason when a commit landed
    by then has a first parent that landed after it: which of the two dates is wrong, and
    so what the branch held on `day`, the history cannot tell (the child holds the
    parent's later changes; the parent was not there yet). `now_ms`: the clock, to say a
    parent dated after it is dated in the future."""
    tip = branch_tip(repo_read.mainline_last_landed(store, until_ms))
    if tip is None:
        return None
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    for c in repo_read.mainline_landed_before_parent(store, until_ms):
        future = (c.get("parent_landed_ms") or 0) > now_ms
        return (
            f"the branch's commit dates are out of order: {c['commit'][:12]}, dated "
            f"{c['landed_at']}, comes after its first parent {c['parent'][:12]}, dated "
            f"{c['parent_landed_at']}" + (", in the future (a clock set wrong?)" if future
                                          else "")
            + f"; by {day} {c['commit'][:12]} had landed by its date but not yet its "
            "parent, so what the branch held then cannot be told from its history (ask about "
            "a commit instead: a sha, HEAD or a branch)"
        )  # fmt: skip
    for _ in range(MAX_STEPS):  # a child committed before its parent, both by then
        child = repo_read.mainline_child(store, tip["commit"])
        if child is None or child["landed_ms"] > until_ms:
            return tip
        tip = child
    return (
        f"the branch's commit dates are out of order: more than {MAX_STEPS} commits follow "
        f"{tip['commit'][:12]} on it, each committed by {day} and no later than its parent"
    )


def before_history(store: Store, day: str) -> str:
    """Why nothing is known of `day`: no commit had landed, or a shallow clone's history
    begins later (commits had landed; the history read does not hold them)."""
    if repo_read.shallow_boundary(store):
        return (
            f"the history read is a shallow clone that begins after {day}, so what the "
            "repository held then is not in it (fetch the whole history and run ingest-repo "
            "again)"
        )
    return f"no commit had landed by {day}"


def told(
    store: Store,
    when: str,
    topic: str = "",
    file: str | None = None,
    *,
    question: str | None = None,
    now: datetime | None = None,
    tz: str = "UTC",
) -> Answer:
    q = question or f"What did {file or 'the agent instructions'} say about {topic} at {when}?"
    now = now or datetime.now(UTC)
    subject: dict[str, Any] = {"id": file or "agent instructions", "type": "Instruction",
                               "name": file or "agent instructions"}  # fmt: skip
    sha = resolve_commit(store, when)
    reading = None if sha else parse_question_time(when, now, tz)
    if reading is not None and (isinstance(reading, VagueDate) or reading.phrase is None):
        sha = _named_revision(store, when)  # HEAD, a branch, a tag: not a day
    as_of: str
    agents: list[str] = []
    if sha and sha in repo_read.shallow_boundary(store):
        return answers.not_recorded(
            q, "told", subject, now,
            f"the history read is a shallow clone that begins at {sha[:12]}: the tree it was "
            "written on (its parent's) is not in it (fetch the whole history and run "
            "ingest-repo again)",
        )  # fmt: skip
    if sha:
        commit = repo_read.commit(store, sha)
        assert commit is not None
        parent = repo_read.commit(store, commit["first_parent"]) if commit["first_parent"] else None
        tree_commit = parent["commit"] if parent else None
        ids = list(parent["instructions"] or []) if parent else []
        as_of = commit.get("author_at") or commit["committer_at"]
        context = f"when {sha[:12]} was written (its parent's tree)"
        agents = [p["id"] for p in repo_read.co_authors_of(store, sha) if p["is_agent"]]
        if commit["author_is_agent"]:
            agents.insert(0, commit["author"])
    else:
        assert reading is not None
        if isinstance(reading, VagueDate):
            return Answer.refused(q, RefusalCode.VAGUE_DATE, reading.message, tool="told",
                                  subject=subject, as_of=answers.as_of_text(now))  # fmt: skip
        if reading.phrase is None:
            return Answer.refused(
                q, RefusalCode.VAGUE_DATE,
                f"“{when}” is neither a commit in the history nor one specific day",
                tool="told", subject=subject, as_of=answers.as_of_text(now),
            )  # fmt: skip
        as_of = format_instant(reading.as_of, tz)
        moment = f"now ({as_of})" if abs(reading.as_of - now) < timedelta(seconds=1) else as_of
        landed = branch_at(store, reading.as_of_ms, moment, int(now.timestamp() * 1000))
        if not isinstance(landed, dict):
            why = landed or before_history(store, as_of)
            return answers.not_recorded(q, "told", subject, now, why, as_of=as_of)
        tree_commit, ids = landed["commit"], list(landed["instructions"] or [])
        day = (
            f", {reading.day.isoformat()}"
            if reading.day and reading.day.isoformat() not in (reading.phrase or "")
            else ""
        )
        context = f"on {reading.phrase}{day} (the branch at {landed['commit'][:12]})"
    versions = repo_read.instructions(store, ids)
    links = _links(versions)
    linked = ""  # "CLAUDE.md is a link to AGENTS.md": said when the file asked for is one
    if file and len(named := _named_files(versions, file)) == 1 and named[0]["file"] in links:
        linked = f"{named[0]['file']} is a link to {links[named[0]['file']]}; "
        file = links[named[0]["file"]]
    versions = [v for v in versions if v["file"] not in links]  # the file it links to says it
    elsewhere: dict[str, str] = {}  # instruction file -> the files it is for, none asked about
    scope = [] if file else _scope(store, topic, question or "")
    for path in scope:  # a path is no topic word: "services/api/app.py" is not "api"
        topic = _AFTER_PATH.sub("", " ".join(topic.replace(path, " ").split()))
    if file:
        versions = _named_files(versions, file)
    about: list[str] = []  # the files the question is about, when it is about some
    if not file and (sha or scope):  # a file in a folder is for that folder's files only
        about = repo_read.files_changed(store, sha) if sha else scope
        files = about if sha else [f for f in scope if repo_read.file_exists(store, f)]
        for v in versions:
            patterns = applies_to(v.get("text") or "") if len(files) == len(about) else []
            if not governs(v["file"], about):
                elsewhere[v["file"]] = f"of {scope_folder(v['file'])}"
            elif patterns and not any(glob_matches(p, f) for p in patterns for f in files):
                elsewhere[v["file"]] = f"matching {', '.join(patterns)} (its front matter)"
        versions = [v for v in versions if v["file"] not in elsewhere]
    if not versions and not elsewhere:
        what = f"{file} was not" if file else "no agent instruction file was"
        return answers.not_recorded(
            q, "told", subject, now, f"{what} in the tree {context}", as_of=as_of
        )
    words = topic_words(topic)
    found = [(v, matching(_spans(v), words, _says)) for v in versions]
    found = [(v, spans) for v, spans in found if spans]
    if not found:
        names = ", ".join(v["file"] for v in versions)
        why = f"{linked}{names} in force {context} say nothing about “{topic}”" if versions else ""
        if elsewhere:
            asked = (f"{str(sha)[:12]} changed none of them" if sha
                     else f"{', '.join(scope)} {'is' if len(scope) == 1 else 'are'} not among "
                     "them")  # fmt: skip
            groups: dict[str, list[str]] = {}
            for f, where in elsewhere.items():
                groups.setdefault(where, []).append(f)
            why += (f"{'; ' if why else ''}"
                    + "; ".join(f"{', '.join(fs)} in the tree {context} "
                                f"{'is' if len(fs) == 1 else 'are'} for the files {where}"
                                for where, fs in groups.items())
                    + f", and {asked}")  # fmt: skip
        return answers.not_recorded(q, "told", subject, now, why, as_of=as_of)
    found.sort(key=lambda vs: _nearest_first(vs[0]["file"], about))
    for v, ss in found:
        bad = [
            n for n in v.get("not_utf8") or [] if any(s.line_start <= n <= s.line_end for s in ss)
        ]
        if bad:
            return answers.not_recorded(
                q, "told", subject, now,
                f"{v['file']} (version {v['blob'][:10]}) in force {context} says it on lines "
                f"that are not UTF-8 text or hold a NUL byte (line {bad[0]}): they cannot be "
                "quoted as the file has them",
                as_of=as_of,
            )  # fmt: skip
    main, spans = found[0]
    result = {
        "file": main["file"],
        "commit": tree_commit,
        "blob": main["blob"],
        "text": "\n\n".join(s.text for s in spans),
        "version_commit": main["commit"],
        "version_date": main["date"],
        "sections": [s.heading for s in spans],
    }
    if _folder(main["file"]):  # a folder's file is in force for that folder's files only
        result["for_files_under"] = _folder(main["file"])
    if patterns := applies_to(main.get("text") or ""):  # a rule for the files it matches
        result["for_files_matching"] = patterns
    if agents:
        result["agents"] = agents  # the agents that wrote the commit asked about
    if len(found) > 1:
        result["others"] = [
            {"file": v["file"], "blob": v["blob"], "text": "\n\n".join(s.text for s in ss)}
            | ({"for_files_under": folder} if (folder := _folder(v["file"])) else {})
            for v, ss in found[1:]
        ]
    citations = [c for v, ss in found for c in _citations(v, ss, words)]
    heads = ", ".join(f"“{s.heading}”" for s in spans if s.heading) or "its text"
    disagree = _disagree(found, words, about)
    if disagree:
        result["disagree"] = disagree
        files = list(dict.fromkeys(d["file"] for d in disagree))
        where = "; ".join(_lines_said(f, [d for d in disagree if d["file"] == f]) for f in files)
        under = f" for the files under {mine}" if (mine := scope_folder(main["file"])) else ""
        return answers.answered(
            q, "told", {**subject, "id": main["file"], "name": main["file"]}, now, result,
            citations,
            f"The {len(files)} agent instruction files in force {context}{under} disagree "
            f"about “{topic}”: {where}. None takes precedence over another (each agent reads "
            "its own), so none is named as the one in force: reconcile them.",
            as_of=as_of,
        )  # fmt: skip
    mine = scope_folder(main["file"])
    over = [  # files of the folders above it, saying something of the topic too
        v["file"] for v, _ in found[1:]
        if (theirs := scope_folder(v["file"])) != mine and mine.startswith(theirs)
        and posixpath.basename(v["file"]).lower() == posixpath.basename(main["file"]).lower()
    ]  # fmt: skip
    if mine and over and _nearest_first(main["file"], about)[0] == 0:
        heads += (f" (nearer to the files asked about than {', '.join(over)}, it takes "
                  f"precedence over {'it' if len(over) == 1 else 'them'})")  # fmt: skip
    return answers.answered(
        q, "told", {**subject, "id": main["file"], "name": main["file"]}, now, result, citations,
        f"{linked}{main['file']} (version {main['blob'][:10]}, from {main['commit'][:12]}) was in "
        "force "
        f"{context}"
        + (f" for the files under {result['for_files_under']}" if "for_files_under" in result
           else "")
        + (f" for the files matching {', '.join(patterns)}" if patterns else "")
        + f"; {heads}.",
        as_of=as_of,
    )  # fmt: skip
