import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from companybrain.policy.text import NameSet, fold_name, name_words, names_in, normalise, quote_in


def test_quotes_compare_after_folding_case_space_curly_quotes_and_dashes() -> None:
    record = "Omar wrote: \u201cAria  still owns\nthe billing\u2013gateway, ping her.\u201d"
    assert quote_in("aria still owns the billing-gateway, ping her", record)
    assert quote_in("\u201cAria still owns", record)
    assert not quote_in("Ben still owns the billing-gateway", record)
    assert not quote_in("   ", record)


def test_normalise_is_stable() -> None:
    assert normalise("  A\u2014B \u2019x\u2019 ") == "a-b 'x'"


def test_names_ignore_punctuation_and_match_whole_words() -> None:
    assert fold_name("Billing-GW!") == "billing gw"
    assert names_in("Who owns the BILLING-gw?", ["billing gw"])
    assert names_in("ping aria.", ["Aria"])
    assert not names_in("ping maria", ["Aria"])


@settings(max_examples=600, deadline=None)
@given(st.text())
@example("Ownership of the billing\u2013gateway: \u201cAria_Novak\u201d (İstanbul, ﬁle, Straße)")
@example("tab\tnew\nline\u00a0nbsp\u2028sep x\u0301 ①②")
def test_name_words_are_the_words_of_the_folded_name(text: str) -> None:
    assert name_words(text) == fold_name(text).split()


def test_a_name_set_finds_the_names_a_text_uses_as_reading_every_name_would() -> None:
    """NameSet looks names up by their first word instead of reading thousands of them for
    every check of every question; it must find what reading every one finds, at word
    starts (a name inside a word is never matched by its callers anyway)."""
    names = ["Billing Gateway", "billing-gw", "Q3 Reports", "S. Rao", "Ana", "Zoë", "O'Neil",
             "  Ledger  ", "ledger service", "3D Engine", ""]  # fmt: skip
    found = NameSet(names)
    texts = (
        "Who owns the billing-gw and the Billing Gateway?",
        "banana q3 reports",
        "ask s. rao or o'neil",
        "LEDGER SERVICE owner",
        "zoë's 3d engine",
        "nothing",
    )
    for text in texts:
        folded = text.casefold()
        starts = {m.start() for m in re.finditer(r"\w+", folded)}
        every = {
            n.strip()
            for n in names
            if n.strip() and any(folded.startswith(n.strip().casefold(), i) for i in starts)
        }
        assert found.present(text) == every, text
    assert found.non_ascii == ["Zoë"]
