"""The rules router on a hand-built catalog: question types, subjects, grounding, and the
approval questions that are never answered."""

from __future__ import annotations

import pytest

from companybrain.ask.catalog import (
    DECISION,
    PERSON,
    PROJECT,
    SERVICE,
    TEAM,
    Catalog,
    Entity,
)
from companybrain.ask.router import RulesRouter, check_model_choice, future_owner, grounded

ENTITIES = [
    Entity("billing-gateway", SERVICE, "Billing Gateway", ("Billing Gateway", "billing-gw", "BGW")),
    Entity("payments-api", SERVICE, "Payments API", ("Payments API", "pay-api")),
    Entity("ledger-service", SERVICE, "Ledger Service", ("Ledger Service", "ledger-svc")),
    Entity("halyard", PROJECT, "Project Halyard", ("Project Halyard", "Halyard"),
           {"services": ["billing-gateway", "ledger-service"]}),
    Entity("kofi", PERSON, "Kofi Mensah", ("Kofi Mensah", "Kofi", "kofi")),
    Entity("payments", TEAM, "Payments", ("Payments", "payments")),
    Entity("ADR-004", DECISION, "Publish ledger events through Kafka",
           ("Publish ledger events through Kafka", "ADR-004"),
           {"quote": "We will publish ledger events through Kafka, one topic per ledger book"}),
    Entity("ADR-009", DECISION, "Publish ledger events through a transactional outbox",
           ("Publish ledger events through a transactional outbox", "ADR-009"),
           {"quote": "We will stop publishing ledger events through Kafka and write them to a "
                     "transactional outbox table in Postgres instead"}),
]  # fmt: skip


@pytest.fixture
def catalog() -> Catalog:
    c = Catalog(company="Test", timezone="UTC")
    for e in ENTITIES:
        c.entities.setdefault(e.type, {})[e.id] = e
    return c


@pytest.mark.parametrize(
    ("question", "tool", "subject"),
    [
        ("Who owns the billing gateway?", "owner_of", "billing-gateway"),
        ("Who is the owner of billing-gw?", "owner_of", "billing-gateway"),
        ("Who is responsible for pay-api?", "owner_of", "payments-api"),
        ("Who owns the billing gateway in Project Halyard?", "owner_of", "billing-gateway"),
        ("Who should sign off the Halyard release?", "owner_of", "halyard"),
        ("Who knows the ledger service best?", "who_knows", "ledger-service"),
        ("Who has the most experience with ledger-svc?", "who_knows", "ledger-service"),
        ("What replaced ADR-004?", "trace_decision", "ADR-004"),
        ("Why did we stop publishing ledger events through Kafka?", "trace_decision", "ADR-009"),
        ("Tell me about Kofi.", "person_or_team", "kofi"),
        ("Who works on the Payments team?", "person_or_team", "payments"),
        ("Who is Kofi Mensah?", "person_or_team", "kofi"),
        # other words for the owner: these were refused, "names no person or team"
        ("Who's on the hook for the billing gateway?", "owner_of", "billing-gateway"),
        ("Who's accountable for pay-api?", "owner_of", "payments-api"),
        ("Who is the DRI for the ledger service?", "owner_of", "ledger-service"),
        # "who to ask" beside "who knows" asks who knows: it got the owner, cited
        ("Who knows the ledger service? Not sure who to ask.", "who_knows", "ledger-service"),
        ("Who should I ask about the ledger service?", "owner_of", "ledger-service"),
        ("Who looks after the ledger service?", "owner_of", "ledger-service"),
    ],
)
def test_question_types_and_subjects(
    catalog: Catalog, question: str, tool: str, subject: str
) -> None:
    route = RulesRouter().route(question, catalog)
    assert route.refusal is None, route.refusal
    assert route.tool == tool
    assert route.subject is not None and route.subject.id == subject


def test_sign_off_is_flagged_but_approval_status_is_out_of_scope(catalog: Catalog) -> None:
    sign = RulesRouter().route("Who should sign off the Halyard release?", catalog)
    assert sign.sign_off
    assert not RulesRouter().route("Who owns Halyard?", catalog).sign_off
    for question in (
        "Is the Halyard release approved?",
        "Has the billing gateway change been signed off?",
        "Can you approve the billing gateway deploy?",
        "Who can approve the Halyard release?",
        "Who has authority to ship the billing gateway?",
    ):
        route = RulesRouter().route(question, catalog)
        assert route.tool is None and route.refusal is not None
        assert route.refusal.code.value == "OUT_OF_SCOPE"


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("Who owns Project Zeus?", "NOT_IN_GRAPH"),
        ("Who owns the quantum scheduler?", "NOT_IN_GRAPH"),
        ("Who is Quentin Marlowe?", "NOT_IN_GRAPH"),
        ("Why did we pick a blue logo?", "NOT_IN_GRAPH"),
        ("What's the weather in Lisbon today?", "OUT_OF_SCOPE"),
        ("Who owns the billing gateway and the payments api?", "OUT_OF_SCOPE"),
    ],
)
def test_refusals_while_routing(catalog: Catalog, question: str, code: str) -> None:
    route = RulesRouter().route(question, catalog)
    assert route.refusal is not None and route.refusal.code.value == code


def test_search_keeps_the_words_that_matter(catalog: Catalog) -> None:
    route = RulesRouter().route("Find records about the outbox table bloat", catalog)
    assert route.tool == "search_records" and route.query == "outbox table bloat"


def test_grounding_needs_the_subject_named_in_the_question(catalog: Catalog) -> None:
    halyard = catalog.get("halyard")
    assert halyard is not None
    assert grounded("Who owns Halyard?", halyard, catalog)
    assert not grounded("Who owns Project Zeus?", halyard, catalog)
    outbox = catalog.get("ADR-009")
    assert outbox is not None
    assert grounded("Why the transactional outbox?", outbox, catalog)
    assert not grounded("Why Postgres?", outbox, catalog)
    route = check_model_choice(
        "Who owns Project Zeus?", catalog, "owner_of", {"subject": "halyard"}
    )
    assert route.refusal is not None and route.refusal.code.value == "NOT_IN_GRAPH"
    wrong_type = check_model_choice("Who owns Kofi?", catalog, "owner_of", {"subject": "kofi"})
    assert wrong_type.refusal is not None and wrong_type.refusal.code.value == "NOT_IN_GRAPH"
    ok = check_model_choice("Who owns BGW?", catalog, "owner_of", {"subject": "billing-gateway"})
    assert ok.subject is not None and ok.subject.id == "billing-gateway"


@pytest.mark.parametrize(
    "question",
    ["Why does the brain start its own FalkorDB?", "Do we run our own search cluster?"],
)
def test_a_possessive_own_is_not_an_ownership_question(question: str) -> None:
    from companybrain.ask.router import question_type

    assert question_type(question) != "owner_of"
    assert question_type("Who owns the billing gateway on its own?") == "owner_of"


def test_names_are_not_read_as_the_words_of_a_check(catalog: Catalog) -> None:
    """A service called "First Mile" or "Prior Auth" was read as a question for the first or
    an earlier owner, and a person called June as a vague month ("who will own it when June
    leaves"): the checks now read the question with the names it uses set aside."""
    for e in (
        Entity("first-mile", SERVICE, "First Mile", ("First Mile",)),
        Entity("prior-auth", SERVICE, "Prior Auth", ("Prior Auth", "Prior Auth Service")),
        Entity("else-router", SERVICE, "Else Router", ("Else Router",)),
        Entity("june", PERSON, "June Park", ("June Park", "June", "june")),
        Entity("will", PERSON, "Will Chen", ("Will Chen", "Will", "will")),
    ):
        catalog.entities.setdefault(e.type, {})[e.id] = e
    for question, subject in (
        ("Who owns First Mile?", "first-mile"),
        ("Who is responsible for the Prior Auth Service?", "prior-auth"),
        ("Who owns the Else Router?", "else-router"),
    ):
        route = RulesRouter().route(question, catalog)
        assert route.refusal is None, (question, route.refusal)
        assert route.subject is not None and route.subject.id == subject
    for question, words in (
        ("Who owned First Mile first?", "owned First Mile first"),
        ("Who would own First Mile if June Park left?", "if June Park left"),
    ):
        route = RulesRouter().route(question, catalog)
        assert route.refusal is not None and route.refusal.code.value == "OUT_OF_SCOPE", question
        assert f'"{words}"' in route.refusal.message, (question, route.refusal.message)
    # a one-word name is a name where it is capitalised: "will" here is the verb
    for question in (
        "Who will own the billing gateway when June leaves?",
        "Who will own the billing gateway when Will leaves?",
    ):
        assert future_owner(question, catalog.names()) == "will own", question


def test_a_team_named_like_a_service_is_the_team_when_called_a_team(catalog: Catalog) -> None:
    """With a team and a service both called Ledger, "Who owns the Ledger team?" was
    answered with the owner of the Ledger service."""
    for e in (
        Entity("ledger", SERVICE, "Ledger", ("Ledger",)),
        Entity("ledger-team", TEAM, "Ledger", ("Ledger", "ledger-team")),
    ):
        catalog.entities.setdefault(e.type, {})[e.id] = e
    team = RulesRouter().route("Who owns the Ledger team?", catalog)
    assert team.subject is None and team.refusal is not None
    assert team.refusal.code.value == "OUT_OF_SCOPE" and "names Ledger" in team.refusal.message
    for question in ("Who owns Ledger?", "Who on the Ledger team owns Ledger?"):
        route = RulesRouter().route(question, catalog)
        assert route.subject is not None and route.subject.id == "ledger", question
