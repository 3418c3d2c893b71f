"""Word lists for generated names. First names avoid common English words (the mention
index reads a lower-case "will" or "may" as a word, not a person) and words the service
names use."""

from __future__ import annotations

FIRST = (  # noqa: SIM905 (word lists read better as words)
    "Aria Bruno Celia Darius Elif Farid Greta Hamid Ines Jonas Kenji Linnea Marek Nadia Omar "
    "Priya Quentin Rafael Sunita Tomas Ugo Viktor Wanda Xiomara Yusuf Zofia Anong Beatriz "
    "Cyrus Dagny Emeka Fiona Goran Hana Ilse Joaquin Kofi Lena Mateo Nnamdi Oksana Pavel "
    "Rosalind Saanvi Thiago Ulrike Valentina Wojciech Ximena Yara Zeynep Amara Bongani Chiara "
    "Dmitri Esme Florin Gulnara Henrik Isidro Jurgen Kalani Ludmila Mirela Niamh Oren Petra "
    "Radek Svetlana Tariq Uma Vesna Wilhelmina Xavi Yannick Zuzana"
).split()
LAST = (  # noqa: SIM905 (word lists read better as words)
    "Novak Halvorsen Mensah Varga Duarte Karimi Srisuk Lindqvist Sato Yilmaz Abebe Rezaei "
    "Okafor Petrov Castillo Nakamura Oyelaran Kowalska Haddad Berg Sokolov Nwosu Eriksen "
    "Moreau Tanaka Fischer Rossi Kovacs Ibrahim Larsen Dubois Silva Horvath Jensen Popescu "
    "Andersson Virtanen Novotny Marquez Adeyemi Brennan Carvalho Dimitrov Esposito Fonseca "
    "Gallagher Hakimi Ivanova Jovanovic Kaur Lindgren Murphy Nieminen Ortega Pereira Quinlan "
    "Ramos Schneider Takahashi Uchida Valdez Weber Xu Yamamoto Zielinski Achterberg Bianchi"
).split()
INITIALS = "ABCDEFGHJKLMNPRSTVWZ"

SERVICE_ADJ = (  # noqa: SIM905 (word lists read better as words)
    "Amber Basalt Cedar Cobalt Copper Coral Crimson Dune Ember Flint Garnet Glacier Granite "
    "Harbor Indigo Iron Jade Juniper Kelp Lapis Lichen Marble Meadow Mica Nickel Obsidian "
    "Onyx Opal Quartz Russet Sable Saffron Sienna Slate Sorrel Spruce Tundra Umber Velvet "
    "Violet Willow Zinc Aspen Birch Bronze Canyon Delta Fjord Heron Larch Maple Osprey Pine "
    "Prairie Quill Raven Sequoia Tamarack"
).split()
SERVICE_NOUN = (  # noqa: SIM905 (word lists read better as words)
    "Ledger Gateway Queue Router Scheduler Vault Indexer Catalog Mailer Tracker Registry "
    "Broker Cache Ingestor Exporter Renderer Resolver Notifier Planner Auditor Billing Search "
    "Pricing Checkout Identity Payments Inventory Shipping Warehouse Analytics Telemetry "
    "Metering Ranking Storage Streams Workflow Signals Profiles Reports Uploads"
).split()
# Drawn on only past the names the lists above make (about 20,000 services), so a smaller
# company's names stay what they were.
SERVICE_ADJ_MORE = (  # noqa: SIM905 (word lists read better as words)
    "Acacia Agate Alder Azure Beryl Bramble Cypress Dusk Elm Fern Frost Gale Hazel Heather "
    "Ivory Jasper Laurel Lotus Moss Nectar Oak Olive Pebble Poplar Rowan Sage Shale Thistle "
    "Topaz Tulip"
).split()
SERVICE_SUFFIX = ("", "Core", "Edge", "East", "West", "North", "South", "Sync", "Relay")
PROJECT = (  # noqa: SIM905 (word lists read better as words)
    "Orion Halyard Lodestar Meridian Northwind Polaris Quasar Sextant Tidemark Zenith Aurora "
    "Bellwether Corvus Draco Equinox Fathom Gemini Horizon Isthmus Keystone"
).split()
TEAM = (  # noqa: SIM905 (word lists read better as words)
    "Falcons Otters Badgers Herons Lynxes Ravens Wolves Foxes Owls Hares Bisons Cranes "
    "Dolphins Eagles Geckos Ibises Jackals Koalas Lemurs Marmots Narwhals Ocelots Pumas "
    "Quokkas Robins Swifts Tapirs Urchins Vipers Walruses Yaks Zebras"
).split()

# Noise for chat, tickets and mail: no word here is a first name or a service word.
TOPICS = (
    "the deploy",
    "the latency spike",
    "yesterday's incident",
    "the migration",
    "the on-call handover",
    "the release notes",
    "the flaky test",
    "the dashboard",
    "the load test",
    "the budget review",
    "the retro",
    "the alert noise",
    "the rollout plan",
    "the schema change",
)
CHAT_OPENERS = (
    "quick q:",
    "fyi",
    "heads up,",
    "hey all,",
    "ok so",
    "lol",
    "hmm",
    "sorry to ping,",
    "morning!",
    "+1,",
    "any idea why",
    "btw",
    "not urgent but",
)
SYMPTOMS = (
    "returns 502 on retries",
    "times out under load",
    "drops messages after failover",
    "leaks connections",
    "double-charges on retry",
    "logs PII in debug mode",
    "is slow to start",
    "fails health checks after deploy",
    "returns stale data",
    "rejects valid tokens",
    "runs out of disk",
    "pages on-call at night for nothing",
)
