"""The offline reader: deterministic patterns, no model. It pulls out measurements ("0 out of
20", "16/20", "2.6x", "340 ms") with the sentence they stand in, experiments with their
verdicts (tried and disproven, confirmed, reverted), the files and concepts an entry is
about, and explicit relations ("supersedes ADR-7", "replaces", "reverts"). Its quotes are
the entry's own sentences; the worker still checks every finding."""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

from companybrain.board.file_summary import combine_summaries, summarise_file
from companybrain.board.reading import Context, Entry, Judgement, Reading
from companybrain.board.refs import RefIndex
from companybrain.model.findings import Finding, FindingKind
from companybrain.policy.experiments import field_verdict, sentence_verdict
from companybrain.policy.finding_checks import FILE_EXTENSIONS, NEGATED_RELATION, PASSIVE
from companybrain.policy.sentences import Sentence, sentences
from companybrain.policy.text import normalise

_NUM = r"\d+(?:[.,]\d+)*"
FIGURE = re.compile(
    rf"""(?<![\w./-])(?:
        {_NUM}\s+(?:times\s+)?(?:out\s+)?of\s+{_NUM}(?![\w/-])         # 0 out of 20, 3 of 4
      | \d{{1,4}}\s?/\s?\d{{1,4}}(?![\w/]|[.,]\d)                     # 16/20, not 2026/03/01
      | {_NUM}(?:\s?[-–]\s?{_NUM})?\s?[x×](?!\w)                      # 2.6x, 2.6–2.9x
      | {_NUM}(?:\s?[-–]\s?{_NUM})?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|minutes|mins|min
            |hours|h|%|percent|[KMGT]i?B|req/s|rps|qps|ops/s|tokens/s)(?![\w/])   # 340 ms
    )""",
    re.X,
)

# What a relation may point at: a link, ADR-7, a file, `code`, a "quoted title", or the
# code a log gives its entries (R1, D-12, DEC-7: capitals and a number, case kept).
_TARGET = (
    r"(?:\[[^\]]+\]\([^)\s]+\)|(?:ADR|RFC)[-\s_]?\d+|[\w./-]+\.md\b|`[^`]+`"
    r"|\"[^\"\n]{3,120}\"|“[^”\n]{3,120}”|(?-i:\b[A-Z]{1,6}-?\d{1,5}\b))"
)
_RELATION = re.compile(
    r"\b(supersedes?|superseded\s+by|replaces?|replaced\s+by|reverts?|reverted\s+by)\s*:?\s+"
    rf"({_TARGET}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*){_TARGET})*)",
    re.I,
)
_ONE_TARGET = re.compile(_TARGET, re.I)
_POSSESSIVE = re.compile(r"['’]s\b")
_VERB = re.compile(r"\b(?:supersed|replac|revert)\w*", re.I)
# A reference just before the verb is its subject: "ADR-8 supersedes", "ADR-1 was superseded
# by", "ADR-8, in turn, replaces", "ADR-8, which replaces", "ADR-8 (accepted) replaces".
_SUBJECT = re.compile(
    rf"({_TARGET})[\s,]*(?:(?:\([^()]*\)|is|was|were|are|has|have|had|been|will|be|also|"
    rf"then|later|in\s+turn|itself|now|which|that)[\s,]+)*$",
    re.I,
)
# Targets written this loosely count only when they name an entry: "replaces V2" is prose.
_LOOSE_TARGET = re.compile(r'^(?:"|“|[A-Z]{1,6}-?\d{1,5}$)')
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.I)
_PATH = re.compile(r"(?<![\w/.@-])((?:[\w.-]+/)*[\w-][\w.-]*\.([A-Za-z0-9]{1,10}))(?![\w/])")
_BACKTICKED = re.compile(r"`([^`\n]{2,60})`")
_BOLD = re.compile(r"\*\*([^*\n]{3,60})\*\*")
_TITLE_NUMBER = re.compile(
    r"^\s*(?:(?:ADR|RFC)[-\s_]?\d+|\d+|(?-i:[A-Z]{1,6}-?\d{1,5}))\b\s*[:.)-]?\s*", re.I
)
_STOP_WORDS = (
    "a an the of for to in on and or with without by from into over as at via we our is "
    "are be use using used adopt adopting keep keeping add adding remove removing stop "
    "stopping move moving switch switching replace replacing record decision decisions "
    "adr why how not no new old instead should must will through across between about up out "
    "off than"
)
_STOP = frozenset(_STOP_WORDS.split())
MAX_CONCEPTS = 8


def _verb(raw: str) -> str:
    words = raw.lower().split()
    if len(words) == 2:  # "superseded by" -> superseded_by
        return {"superseded": "superseded_by", "replaced": "replaced_by"}.get(
            words[0], "reverted_by"
        )
    return words[0].removesuffix("s") + "s"  # "supersede" reads as a (possibly negated) supersedes


class RulesReader:
    kind = "rules"

    # -- entries ---------------------------------------------------------------------------

    def read(self, entry: Entry, start: int, end: int, ctx: Context, by: str) -> Reading:
        found: dict[tuple[str, str, str], Finding] = {}

        def add(f: Finding) -> None:
            found.setdefault((f.kind.value, f.value, f.quote), f)

        section = list(sentences(entry.text, start, end))
        heading = next((s for s in section if s.heading), None)
        for s in section:
            for f in self._measurements(entry, s, by):
                add(f)
            experiment = self._experiment(entry, s, heading, by)
            if experiment:
                add(experiment)
            for f in self._files(entry, s, ctx, by):
                add(f)
            for f in self._relations(entry, s, ctx, by):
                add(f)
        for f in self._concepts(entry, section, by):
            add(f)
        return Reading(findings=list(found.values()))

    def _measurements(self, entry: Entry, s: Sentence, by: str) -> list[Finding]:
        return [
            Finding(entry.id, FindingKind.MEASUREMENT, s.text, " ".join(m.group(0).split()), by=by)
            for m in FIGURE.finditer(s.text)
        ]

    def _experiment(
        self, entry: Entry, s: Sentence, heading: Sentence | None, by: str
    ) -> Finding | None:
        """A sentence that reports something tried and its outcome (policy/experiments.py);
        or an entry whose `Status: disproven` field makes its heading the claim tested."""
        if s.heading:
            return None
        recorded = field_verdict(s.text)
        if recorded and heading is not None:
            return Finding(
                entry.id, FindingKind.EXPERIMENT, heading.text, heading.text, recorded, by=by
            )
        verdict = sentence_verdict(s.text)
        if verdict is None:
            return None
        return Finding(entry.id, FindingKind.EXPERIMENT, s.text, s.text, verdict, by=by)

    def _files(self, entry: Entry, s: Sentence, ctx: Context, by: str) -> list[Finding]:
        out = []
        for m in _PATH.finditer(_URL.sub(" ", s.text)):
            mention, ext = m.group(1).strip("."), m.group(2).lower()
            if ext not in FILE_EXTENSIONS and "/" not in mention:
                continue
            path = _resolve_path(mention, entry.path, ctx)
            out.append(Finding(entry.id, FindingKind.FILE, s.text, path, by=by))
        return out

    def _relations(self, entry: Entry, s: Sentence, ctx: Context, by: str) -> list[Finding]:
        return [
            Finding(entry.id, FindingKind.RELATION, s.text, target, relation=verb, by=by)
            for verb, target in _relation_mentions(s.text, entry.id, ctx)
        ]

    def _concepts(self, entry: Entry, section: list[Sentence], by: str) -> list[Finding]:
        terms: list[str] = []
        for s in section:
            terms += [t for t in _BACKTICKED.findall(s.text) if not _looks_like_path(t)]
            terms += _BOLD.findall(s.text)
        terms = _title_terms(entry.title) + terms
        out: list[Finding] = []
        seen: set[str] = set()
        for term in terms:
            key = normalise(term)
            if not key or key in seen:
                continue
            quote = next((s.text for s in section if key in normalise(s.text)), None)
            if quote is None:
                continue
            seen.add(key)
            out.append(Finding(entry.id, FindingKind.CONCEPT, quote, term.strip(), by=by))
            if len(out) >= MAX_CONCEPTS:
                break
        return out

    # -- files and folders -----------------------------------------------------------------

    def summarise_file(self, path: str, text: str) -> str:
        return summarise_file(path, text)

    def combine(self, path: str, summaries: list[tuple[str, str]]) -> str:
        return combine_summaries(path, summaries)

    # -- handoffs --------------------------------------------------------------------------

    def judge(
        self, relation: str, source: Entry, target: Entry, quote: str, ctx: Context
    ) -> Judgement:
        """Confirm that `source` `relation` `target` from both texts, or say why not."""
        src_side = self._relation_sentence(source, target.id, relation, ctx, passive=False)
        tgt_side = self._relation_sentence(target, source.id, relation, ctx, passive=True)
        said = [s for s in (src_side, tgt_side) if s]
        if not said:
            return Judgement(False, reason=f"neither {source.id} nor {target.id} states it")
        for sentence in said:
            if NEGATED_RELATION.search(sentence):
                return Judgement(False, reason=f"the sentence says it does not: {sentence!r}")
        older = _older(source.date, target.date)
        if older:
            return Judgement(
                False,
                reason=f"{source.id} ({source.date}) is older than {target.id} ({target.date}): "
                f"an entry cannot {relation} a newer one",
            )
        quote_from = src_side or _identifying_line(source)
        quote_to = tgt_side or _identifying_line(target)
        if not quote_from or not quote_to:
            return Judgement(False, reason="no quote identifies one side")
        return Judgement(True, quote_from=quote_from, quote_to=quote_to, reason="stated in text")

    def _relation_sentence(
        self, entry: Entry, other: str, relation: str, ctx: Context, *, passive: bool
    ) -> str | None:
        for s in sentences(entry.text):
            for verb, target in _relation_mentions(s.text, entry.id, ctx):
                active = PASSIVE.get(verb, verb)
                if active != relation or (verb in PASSIVE) != passive:
                    continue
                if target == other:
                    return s.text
        return None


def _relation_mentions(text: str, entry_id: str, ctx: Context) -> list[tuple[str, str]]:
    """(relation, target) for each entry a sentence says it supersedes, replaces or reverts
    (or is superseded, replaced, reverted by): "This supersedes R1 and D1." gives two. The
    target is the entry id when it resolves, else the reference as written."""
    out = []
    for m in _RELATION.finditer(text):
        subject = _SUBJECT.search(text, 0, m.start())
        if subject and ctx.refs.names_other(subject.group(1), entry_id):
            continue  # "ADR-8 supersedes ADR-9" written in ADR-21 is ADR-8's, not its own
        for t in _ONE_TARGET.finditer(m.group(2)):
            raw = t.group(0)
            if _POSSESSIVE.match(text, m.start(2) + t.end()):
                continue  # "replaces ADR-1's retry loop" replaces a part of ADR-1
            resolved = ctx.refs.resolve(raw, entry_id)
            if resolved is None and _LOOSE_TARGET.match(raw):
                continue
            out.append((_verb(m.group(1)), resolved or raw))
    return out


def relation_targets(refs: RefIndex, text: str, entry_id: str, relation: str) -> set[str]:
    """The entries `text` (read in `entry_id`) says it `relation`s (a form such as
    "supersedes" or "superseded_by"): the targets of its verb ("This supersedes ADR-1, not
    ADR-3" names ADR-1 only); in a sentence worded too loosely for that, the one entry it
    names after its verb, if only one ("ADR-1 supersedes this one" is ADR-1's relation)."""
    ctx = Context(refs=refs, known_paths=())
    mentions = _relation_mentions(text, entry_id, ctx)
    if mentions:
        return {target for verb, target in mentions if verb == relation and target in refs}
    verb = _VERB.search(text)
    after = text[verb.end() :] if verb else ""
    named = {
        e
        for m in _ONE_TARGET.finditer(after)
        if not _POSSESSIVE.match(after, m.end()) and (e := refs.resolve(m.group(0), entry_id))
    }
    return named if len(named) == 1 else set()


def _resolve_path(mention: str, entry_path: str | None, ctx: Context) -> str:
    """A mentioned file to the path git knows: exact, relative to the entry's folder, else
    the one known path ending in it."""
    mention = mention.removeprefix("./")
    if mention in ctx.known_paths:
        return mention
    if entry_path:
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(entry_path), mention))
        if beside in ctx.known_paths:
            return beside
    suffix = "/" + mention
    matches = [p for p in ctx.known_paths if p.endswith(suffix)]
    return matches[0] if len(matches) == 1 else mention


def _looks_like_path(term: str) -> bool:
    return "/" in term or PurePosixPath(term).suffix.lstrip(".").lower() in FILE_EXTENSIONS


def _title_terms(title: str) -> list[str]:
    """Runs of content words in a title: "Use FalkorDB for the board" -> FalkorDB, board."""
    words = _TITLE_NUMBER.sub("", title or "").split()
    runs: list[list[str]] = [[]]
    for word in words:
        bare = word.strip("`'\"“”,.:;()[]!?")
        if not bare or bare.lower() in _STOP:
            runs.append([])
            continue
        if bare != word.rstrip(",.:;!?"):  # a quoted or bracketed word stands alone
            runs += [[bare], []]
            continue
        runs[-1].append(bare)
    return [" ".join(r) for r in runs if r and len(" ".join(r)) >= 3][:4]


def _identifying_line(entry: Entry) -> str | None:
    """The heading (or else first sentence) that names an entry: the quote for its side
    when only the other side states the relation."""
    first = None
    for s in sentences(entry.text):
        if s.heading:
            return s.text
        first = first or s.text
    return first


def _older(a: str | None, b: str | None) -> bool:
    """Is date `a` strictly before date `b`? (ISO dates; unknown dates never are)."""
    day = re.compile(r"^\d{4}-\d{2}-\d{2}")
    if not a or not b or not day.match(str(a)) or not day.match(str(b)):
        return False
    return str(a)[:10] < str(b)[:10]
