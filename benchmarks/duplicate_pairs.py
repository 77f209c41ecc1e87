"""Hand-written page pairs for the duplicate evaluation (benchmarks/duplicates_eval.py).

REWORDED: the same knowledge written twice, in other words and under another title: a person
would merge them. SAME_TOPIC: two pages on one topic that say different things: a person would
link them, not merge them. Written for this benchmark; each pair is (title, body, title, body).
"""

from __future__ import annotations

REWORDED: list[tuple[str, str, str, str]] = [
    (
        "Flaky integration tests",
        "The integration suite fails at random in CI. Re-running the job usually makes it pass, so people "
        "stopped trusting red builds. Most failures come from tests that share one database and run in parallel.",
        "Intermittent CI test failures",
        "Some pipeline tests break now and then without any code change and go green on a second run. The cause "
        "is mostly tests running concurrently against the same shared database, and the team has learned to "
        "ignore failing builds.",
    ),
    (
        "Postgres connection pool exhaustion",
        "Under peak load the checkout database runs out of connections: each pod opens twenty connections and "
        "the server allows three hundred, so requests wait on the pool and time out.",
        "Checkout Postgres runs out of connections",
        "At peak traffic the checkout database has no free connections left. Every pod holds twenty and the "
        "server caps them at three hundred, so requests queue for a connection until they time out.",
    ),
    (
        "Certificate renewal",
        "TLS certificates from the internal CA expire after 90 days. Two gateways need manual renewal because "
        "their keys live in the hardware security module; the rest renew automatically.",
        "Renewing TLS certificates",
        "Certificates issued by our internal certificate authority are valid for ninety days. Most services "
        "renew on their own, but the two gateways whose keys sit in the HSM have to be renewed by hand.",
    ),
    (
        "Deploy freeze on Fridays",
        "We do not deploy to production after noon on Fridays. Incidents over the weekend are handled by a "
        "smaller on-call rotation and a bad Friday release once took the whole weekend to repair.",
        "No production releases late in the week",
        "Production releases stop at midday on Friday. Weekend on-call has fewer people, and after one Friday "
        "afternoon release broke checkout until Monday, the team agreed to hold changes until the next week.",
    ),
    (
        "Redis cache eviction",
        "The session cache in Redis evicts keys when memory hits the limit. With the allkeys-lru policy, busy "
        "hours push out active sessions and users get logged out.",
        "Users logged out when Redis is full",
        "When Redis reaches its memory cap it starts dropping keys, and because the eviction policy is "
        "allkeys-lru, sessions that are still in use disappear at peak times, which signs people out.",
    ),
    (
        "Onboarding a new engineer",
        "New engineers get a laptop, access to GitHub and the cloud console, a buddy for the first month, and "
        "a small ticket to ship in their first week.",
        "First week for new developers",
        "A developer who joins receives hardware, accounts for the code host and the cloud provider, an "
        "experienced colleague as a mentor for four weeks, and one small task to deliver within five days.",
    ),
    (
        "Kafka consumer lag",
        "The order consumer falls behind when a partition rebalance happens during deploys. Lag grows to "
        "several minutes and downstream emails go out late.",
        "Order events processed late after deploys",
        "Every rollout triggers a rebalance of the order topic's partitions, the consumer stops reading for "
        "a while, and the backlog of minutes delays the confirmation emails that depend on it.",
    ),
    (
        "Backup restore drill",
        "Once a quarter we restore last night's database backup into a scratch environment and time it. The "
        "last drill took 47 minutes, inside our one-hour recovery objective.",
        "Quarterly recovery test",
        "Every three months the team loads the latest nightly backup into a throwaway environment to check "
        "how long recovery takes. The most recent run finished in 47 minutes, under the target of an hour.",
    ),
    (
        "Rate limits of the payments API",
        "The payments provider allows 100 requests per second per merchant account. Above that it answers 429 "
        "and we retry with exponential backoff.",
        "Payment provider throttling",
        "Our payment processor throttles each merchant to a hundred calls a second and returns HTTP 429 beyond "
        "that; the client backs off exponentially before trying again.",
    ),
    (
        "Disk full on the log server",
        "The central log server fills its disk every few weeks because retention is set to 90 days while "
        "volume keeps growing. Logs older than 30 days are rarely read.",
        "Log host runs out of storage",
        "Every couple of weeks the machine that collects our logs has no space left: we keep ninety days of "
        "logs although hardly anyone looks past the last month, and the amount grows each week.",
    ),
    (
        "Feature flags cleanup",
        "Old feature flags stay in the code long after a rollout is complete. Each flag doubles the paths to "
        "test. Flags older than three months should be removed in the next sprint.",
        "Removing stale toggles",
        "Toggles linger in the codebase after features are fully released, and every one of them adds another "
        "branch to test. Any toggle that has existed for more than a quarter gets deleted in the following sprint.",
    ),
    (
        "DNS propagation delays",
        "After changing a DNS record, some customers still reach the old address for hours because resolvers "
        "cache the record for its TTL. Lower the TTL a day before a planned change.",
        "Old IP still used after a DNS change",
        "Resolvers keep a record until its time-to-live runs out, so a changed address reaches some clients "
        "only hours later. Reduce the TTL one day ahead of any planned switch.",
    ),
    (
        "Memory leak in the image service",
        "The image resizing service grows by about 200 MB an hour until the container is killed for running "
        "out of memory. The leak is in the thumbnail cache, which never evicts entries.",
        "Image resizer killed by OOM",
        "Memory use of the thumbnail service climbs roughly 200 megabytes per hour and the orchestrator ends "
        "up killing it. Its thumbnail cache keeps every entry forever, which is where the memory goes.",
    ),
    (
        "Customer data export requests",
        "Customers may ask for an export of all their data under GDPR. Support opens a ticket, engineering "
        "runs the export script, and the archive must be sent within 30 days.",
        "Handling GDPR data access requests",
        "When a customer requests a copy of their personal data, support files a ticket, an engineer runs the "
        "export tooling, and we have one month to deliver the archive to them.",
    ),
    (
        "Slow search queries",
        "Search takes several seconds for queries with many wildcard terms because the index has no n-gram "
        "field. Adding an edge n-gram field cut p95 latency from 4 s to 300 ms in staging.",
        "Wildcard searches are slow",
        "Queries full of wildcards need seconds to answer, since the search index lacks an n-gram field. In "
        "staging, an edge n-gram field brought the 95th percentile down from four seconds to 300 milliseconds.",
    ),
    (
        "Password rotation for service accounts",
        "Service account passwords rotate every 60 days. The rotation job updates the secret store first and "
        "then restarts the services that read the password at start-up.",
        "Rotating credentials of technical users",
        "Technical users get a new password every two months. The job writes the new value to the secret "
        "manager and afterwards restarts every service that loads the password when it boots.",
    ),
    (
        "Timezone bug in invoices",
        "Invoices created just before midnight UTC show the next day's date for customers in the Americas, "
        "because the PDF renderer formats dates in UTC instead of the customer's timezone.",
        "Invoice dates off by one day",
        "Customers in American time zones see tomorrow's date on invoices issued late in the evening. The PDF "
        "template prints dates in UTC rather than converting them to the customer's local zone.",
    ),
    (
        "On-call handover",
        "At the end of each on-call week the outgoing engineer writes a short handover: open incidents, "
        "noisy alerts and anything that needs follow-up, and walks the next person through it on Monday.",
        "Passing the pager to the next engineer",
        "When an on-call shift ends, the person leaving summarises unresolved incidents, alerts that fired "
        "too often and pending follow-ups in a brief note, and reviews it with their successor on Monday.",
    ),
    (
        "Docker image size",
        "Our API image is 1.8 GB because it contains the build toolchain. A multi-stage build that copies only "
        "the compiled binary brings it down to 90 MB and speeds up deploys.",
        "Shrinking the API container",
        "The container for the API weighs almost two gigabytes since the compilers ship inside it. Building "
        "in one stage and copying just the binary into a slim final stage makes it 90 MB and deploys faster.",
    ),
    (
        "Vendor call with Acme",
        "Acme wants single sign-on through their Okta tenant before they roll out to all 400 users. They also "
        "asked for an audit log export each month.",
        "Acme asks for SSO and audit logs",
        "In our call, Acme said they need to log in via their own Okta before extending the rollout to four "
        "hundred staff, and they would like a monthly export of the audit log.",
    ),
    (
        "Retry storms",
        "When the inventory service slows down, every caller retries three times at once, tripling the load "
        "and making the outage worse. Retries need jitter and a budget.",
        "Clients amplify inventory slowdowns",
        "A slow inventory service gets hit by simultaneous retries from all clients, which multiplies traffic "
        "and deepens the incident. We should add randomised delays and cap how many retries a client may send.",
    ),
    (
        "Staging data is stale",
        "The staging database was copied from production eight months ago, so new features are tested against "
        "data that lacks recent product types. Refresh it monthly with anonymised data.",
        "Outdated test data in staging",
        "Staging still runs on a production snapshot that is most of a year old, which means recent kinds of "
        "products are missing when we test. A monthly refresh with anonymised records would fix that.",
    ),
    (
        "Mobile app crash on login",
        "Version 5.2 of the Android app crashes on login for users with a plus sign in their email address, "
        "because the address is not URL-encoded before it is sent.",
        "Android login fails for emails with +",
        "Users whose email contains a '+' can't sign in on Android 5.2: the app sends the address without "
        "URL encoding and crashes when the server rejects it.",
    ),
    (
        "Cost of the analytics cluster",
        "The analytics cluster costs about 12,000 dollars a month, most of it for nodes that sit idle at night. "
        "Autoscaling to zero outside office hours would save roughly a third.",
        "Idle analytics nodes waste money",
        "We pay around twelve thousand a month for analytics compute, largely for machines doing nothing "
        "overnight. Scaling the cluster down to nothing after work hours could cut the bill by a third.",
    ),
    (
        "Code review turnaround",
        "Pull requests wait on average two days for a first review. The team agreed to check the review queue "
        "twice a day and to keep pull requests under 400 lines.",
        "PRs wait too long for review",
        "A change typically sits for two days before anyone reviews it. We decided to look at open reviews in "
        "the morning and the afternoon, and to split changes so each stays below four hundred lines.",
    ),
    (
        "Webhook signature validation",
        "Incoming webhooks from the shipping partner are signed with HMAC-SHA256. We must compare signatures in "
        "constant time and reject requests older than five minutes to prevent replays.",
        "Verifying partner webhook signatures",
        "The shipping partner signs each webhook using an HMAC with SHA-256. Our endpoint checks the signature "
        "with a constant-time comparison and refuses anything timestamped more than five minutes ago, against replay.",
    ),
    (
        "Sprint planning format",
        "Planning takes one hour on Monday. The product owner presents the top of the backlog, the team "
        "estimates in story points and commits to what fits the last three sprints' average velocity.",
        "How we plan an iteration",
        "Every Monday we spend an hour planning: the PO walks through the highest priority items, we size them "
        "in points, and we take on as much as our average over the previous three iterations allows.",
    ),
    (
        "Load balancer health checks",
        "The load balancer marks an instance unhealthy after three failed checks ten seconds apart. Our health "
        "endpoint queried the database, so a slow database took every instance out of rotation.",
        "Health check took all instances offline",
        "Because our health endpoint hit the database, a database slowdown failed the balancer's checks (three "
        "misses at ten-second intervals) on every instance at once, removing them all from the pool.",
    ),
    (
        "Translation workflow",
        "New UI strings go to the translation platform when a pull request merges. Translators have five "
        "working days; untranslated strings fall back to English in the release.",
        "Getting UI text translated",
        "Merging a pull request pushes its new interface strings to the translation service. Translators get "
        "a week of working days, and any string still missing at release time is shown in English.",
    ),
    (
        "Search relevance complaints",
        "Customers complain that searching for a product name shows accessories first. The ranking boosts "
        "popular items, and accessories are bought more often than the products themselves.",
        "Accessories outrank products in search",
        "People searching for a product see add-ons at the top of the results, since ranking favours items "
        "that sell a lot and accessories sell more than the main products.",
    ),
]

SAME_TOPIC: list[tuple[str, str, str, str]] = [
    (
        "Certificate renewal",
        "TLS certificates from the internal CA expire after 90 days. Two gateways need manual renewal because "
        "their keys live in the hardware security module; the rest renew automatically.",
        "Certificate expiry monitoring",
        "A Prometheus exporter reads the expiry date of every public certificate. An alert fires 14 days before "
        "expiry and pages on-call at 3 days. The dashboard lists certificates by days left.",
    ),
    (
        "Postgres connection pool exhaustion",
        "Under peak load the checkout database runs out of connections: each pod opens twenty connections and "
        "the server allows three hundred, so requests wait on the pool and time out.",
        "Postgres upgrade to version 16",
        "We upgrade the checkout database from Postgres 13 to 16 with logical replication: a new cluster "
        "follows the old one, we switch writes in a five-minute window, and keep the old one for a week.",
    ),
    (
        "Kafka consumer lag",
        "The order consumer falls behind when a partition rebalance happens during deploys. Lag grows to "
        "several minutes and downstream emails go out late.",
        "Kafka topic naming",
        "Topics are named domain.entity.event in lower case, for example orders.order.created. Each topic has "
        "an owner team in the registry and a retention of seven days unless agreed otherwise.",
    ),
    (
        "Deploy freeze on Fridays",
        "We do not deploy to production after noon on Fridays. Incidents over the weekend are handled by a "
        "smaller on-call rotation and a bad Friday release once took the whole weekend to repair.",
        "Deploy pipeline stages",
        "A commit to main is built, unit tested, deployed to staging, smoke tested, and promoted to production "
        "behind a canary that takes five percent of traffic for fifteen minutes.",
    ),
    (
        "Redis cache eviction",
        "The session cache in Redis evicts keys when memory hits the limit. With the allkeys-lru policy, busy "
        "hours push out active sessions and users get logged out.",
        "Redis cluster failover",
        "Redis runs as three primaries with one replica each. When a primary dies, its replica is promoted "
        "within ten seconds; clients must reconnect and retry commands that were in flight.",
    ),
    (
        "Onboarding a new engineer",
        "New engineers get a laptop, access to GitHub and the cloud console, a buddy for the first month, and "
        "a small ticket to ship in their first week.",
        "Offboarding checklist",
        "When someone leaves, IT disables their accounts on the last day, rotates shared secrets they knew, "
        "transfers ownership of their documents and collects the laptop.",
    ),
    (
        "Backup restore drill",
        "Once a quarter we restore last night's database backup into a scratch environment and time it. The "
        "last drill took 47 minutes, inside our one-hour recovery objective.",
        "Backup encryption keys",
        "Backups are encrypted with a key held in the cloud key management service. Only the platform team can "
        "decrypt; the key is rotated yearly and old keys are kept to read older backups.",
    ),
    (
        "Rate limits of the payments API",
        "The payments provider allows 100 requests per second per merchant account. Above that it answers 429 "
        "and we retry with exponential backoff.",
        "Payments API refunds",
        "Refunds go through the same provider as payments. A refund can be partial, must happen within 180 "
        "days of the charge, and is confirmed asynchronously by a webhook.",
    ),
    (
        "Docker image size",
        "Our API image is 1.8 GB because it contains the build toolchain. A multi-stage build that copies only "
        "the compiled binary brings it down to 90 MB and speeds up deploys.",
        "Docker base image updates",
        "Base images are rebuilt weekly to pick up security patches. Renovate opens a pull request when the "
        "upstream image changes, and the scanner blocks images with critical vulnerabilities.",
    ),
    (
        "Code review turnaround",
        "Pull requests wait on average two days for a first review. The team agreed to check the review queue "
        "twice a day and to keep pull requests under 400 lines.",
        "Code review checklist",
        "Reviewers check that tests cover the change, that errors are handled, that logs hold no personal data, "
        "and that the migration can be rolled back.",
    ),
    (
        "Mobile app crash on login",
        "Version 5.2 of the Android app crashes on login for users with a plus sign in their email address, "
        "because the address is not URL-encoded before it is sent.",
        "Mobile release process",
        "The mobile apps ship every two weeks. A release candidate goes to internal testers for three days, then "
        "to five percent of users, then to everyone if the crash rate stays below 0.5 percent.",
    ),
    (
        "Slow search queries",
        "Search takes several seconds for queries with many wildcard terms because the index has no n-gram "
        "field. Adding an edge n-gram field cut p95 latency from 4 s to 300 ms in staging.",
        "Search index rebuild",
        "The product index is rebuilt from the database every night in about forty minutes. During the rebuild "
        "queries go to the old index, and an alias switches to the new one when it is complete.",
    ),
    (
        "Vendor call with Acme",
        "Acme wants single sign-on through their Okta tenant before they roll out to all 400 users. They also "
        "asked for an audit log export each month.",
        "Acme contract renewal",
        "Acme's contract renews in March. They asked for a three-year term at a ten percent discount; finance "
        "agreed to five percent if they commit to the enterprise support plan.",
    ),
    (
        "Cost of the analytics cluster",
        "The analytics cluster costs about 12,000 dollars a month, most of it for nodes that sit idle at night. "
        "Autoscaling to zero outside office hours would save roughly a third.",
        "Analytics data retention",
        "Raw events stay in the analytics cluster for 13 months, aggregated tables for five years. Personal "
        "fields are hashed at ingestion so the data can be kept without consent records.",
    ),
    (
        "Timezone bug in invoices",
        "Invoices created just before midnight UTC show the next day's date for customers in the Americas, "
        "because the PDF renderer formats dates in UTC instead of the customer's timezone.",
        "Invoice numbering",
        "Invoice numbers are sequential per country and year, as tax law requires, for example DE-2026-000123. "
        "A cancelled invoice keeps its number and gets a credit note.",
    ),
]

# Pairs of the shared dendron-docs vault that the duplicate rule scores high (nearest neighbours:
# the hard cases), judged by reading both pages. True: the same page twice (tutorial variants that
# repeat each other word for word); False: two pages about different things that share a layout
# (the docs of two commands, two settings, a page and the template it was made from).
DENDRON_JUDGED: list[tuple[str, str, bool]] = [
    ("tutorial.main.rich-formatting", "tutorial.no-refactor.rich-formatting", True),
    ("tutorial.main.conclusion", "tutorial.no-refactor.conclusion", True),
    ("tutorial.quickstart-skip-welcome", "tutorial.quickstart-v1", True),
    ("tutorial.main.user-interface", "tutorial.no-refactor.user-interface", True),
    ("dendron.ref.config.preview.enableNoteTitleForLink", "dendron.topic.publish.config.enableNoteTitleForLink", True),
    ("tutorial.main.taking-notes", "tutorial.no-refactor.taking-notes", True),
    ("tutorial.main", "tutorial.no-refactor", True),
    ("dendron.tutorial.rich-formatting", "tutorial.main.rich-formatting", True),
    ("dendron.topic.publish.tree-view.config", "dendron.topic.sidebar.tree-view.config", True),
    ("dendron.tutorial.linking-notes", "tutorial.main.linking-notes", True),
    ("tutorial.quickstart-v1", "tutorial.quickstart-with-lock", True),
    ("dendron.tutorial.user-interface", "tutorial.main.user-interface", True),
    ("tags.feature.markdown.preview", "templates.tags.feature", False),
    (
        "dendron.topic.navigation.commands.go-next-sibling",
        "dendron.topic.navigation.commands.go-previous-sibling",
        False,
    ),
    ("dendron.topic.pod.import.cli", "dendron.topic.pod.publish.cli", False),
    (
        "dendron.topic.publish.config.enableHierarchyDisplay",
        "dendron.topic.publish.config.hierarchyDisplayTitle",
        False,
    ),
    ("dendron.topic.pod.export.cli", "dendron.topic.pod.import.cli", False),
    ("dendron.topic.templates.commands.apply-template", "dendron.topic.templates.config", False),
    ("dendron.topic.publish.config.enableFrontmatterTags", "dendron.topic.publish.config.enableHashesForFMTags", False),
    ("dendron.topic.tasks.config.priority-symbols", "dendron.topic.tasks.config.status-symbols", False),
    ("dendron.topic.notes.cli.delete", "dendron.topic.notes.cli.write", False),
    ("dendron.ref.stages", "tags.stage", False),
    ("dendron.topic.templates.config", "dendron.topic.templates.config.templateHierarchy", False),
    ("community.events.new-user-tuesdays", "community.events.office-hours", False),
    ("dendron.topic.pod.export.cli", "dendron.topic.pod.publish.cli", False),
    ("dendron.topic.templates.handlebars", "dendron.topic.templates", False),
    ("dendron.topic.notes.cli.find", "dendron.topic.notes.cli.get", False),
    ("dendron.topic.publish.config.github.editLinkText", "dendron.topic.publish.config.github.enableEditLink", False),
    ("tags.feature.cli", "tags.scope.common.cli", False),
    ("dendron.guides", "dendron.guides.workflows", False),
    ("dendron.topic.pod.builtin.airtable.export", "dendron.topic.pod.builtin.airtable.publish", False),
    ("dendron.topic.pod.builtin.github-issue", "dendron.topic.pod.builtin.google-docs", False),
    ("careers.senior-full-stack-engineer", "careers.senior-webdev", False),
    ("careers.head-of-content", "careers.head-of-growth", False),
    (
        "dendron.topic.traits.commands.configure-note-trait",
        "dendron.topic.traits.commands.create-note-with-trait",
        False,
    ),
]
