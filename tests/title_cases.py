"""Sentences an agent hands to `curator remember`, each with the titles a person would accept for
a new page about it: a noun phrase from the text naming the thing, never a date, a trailing verb or
adverb, or a word cut off. Written before the title code was changed for them."""

from __future__ import annotations

TITLE_CASES: list[tuple[str, set[str]]] = [
    # Sentences that open with a preposition (a new user's memories, and their kind)
    ("Bei JWT-Angriffen kann man den Algorithmus auf none setzen.", {"JWT-Angriffen", "JWT-Angriffe"}),
    ("Für den Login-Dienst gilt jetzt ein Timeout von 5 s.", {"Login-Dienst"}),
    ("In the checkout service the database pool ran out.", {"Checkout service"}),
    ("On Friday the payments API returned 502s.", {"Payments API"}),
    # English
    ("The rate limiter now allows a burst of 20 requests.", {"Rate limiter"}),
    ("Checkout database ran out of connections at 14:00.", {"Checkout database"}),
    ("Renewed the certificates on both gateways.", {"Certificates", "Gateway certificates", "Gateways"}),
    (
        "Postgres replica lag alerts fire after 30 seconds on the EU cluster.",
        {"Postgres replica lag", "Postgres replica lag alerts"},
    ),
    (
        "Kafka consumer group billing-events must be reset after schema changes.",
        {"Kafka consumer group", "Kafka consumer group billing-events"},
    ),
    (
        "The Redis cache cluster evicts keys with allkeys-lru; the memory limit is 8 GB per node.",
        {"Redis cache cluster"},
    ),
    ("Our CDN is Fastly; purges by surrogate key take about two seconds.", {"CDN"}),
    ("The mobile app release train ships every second Wednesday.", {"Mobile app release train"}),
    ("Terraform state for production lives in a locked S3 bucket with versioning on.", {"Terraform state"}),
    ("Feature flags are managed in Unleash; stale flags are removed every quarter.", {"Feature flags"}),
    ("The VPN for contractors uses WireGuard; configs are issued by the IT desk.", {"VPN", "VPN for contractors"}),
    ("The data warehouse loads orders nightly into BigQuery at 01:00 UTC.", {"Data warehouse"}),
    ("Grafana alerts route to Opsgenie; the payments rotation has its own schedule.", {"Grafana alerts"}),
    ("Incident 2026-08-14: the orders database ran out of connections during the sale.", {"Orders database"}),
    ("On 3 March 2026 the search cluster lost a data node.", {"Search cluster"}),
    ("Yesterday the nightly backup job silently skipped the audit database.", {"Nightly backup job"}),
    ("certificate expired on api-2", {"Certificate"}),
    ("Login service returns 500 when the session store is full.", {"Login service"}),
    ("The staging environment is rebuilt from scratch every Sunday night.", {"Staging environment"}),
    ("Image uploads larger than 10 MB are rejected by the gateway.", {"Image uploads"}),
    ("The billing export job quietly stopped sending invoices after the upgrade.", {"Billing export job"}),
    ("Webhook retries back off exponentially up to one hour.", {"Webhook retries"}),
    ("JIRA-4411: the invoice PDF renderer crashes on Arabic names.", {"Invoice PDF renderer"}),
    ("Our on-call handbook recommends paging the database owner first.", {"On-call handbook"}),
    # German
    ("Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen", {"Zertifikat"}),
    ("Rate-Limiter erlaubt jetzt einen Burst von 20 Anfragen.", {"Rate-Limiter"}),
    ("Der CI-Build schlägt bei jedem Pull Request fehl.", {"CI-Build"}),
    ("Die Buchhaltung exportiert Rechnungen monatlich als DATEV-Datei.", {"Buchhaltung"}),
    (
        "Der Redis-Cache verdrängt Schlüssel mit allkeys-lru; das Speicherlimit liegt bei 8 GB je Knoten.",
        {"Redis-Cache"},
    ),
    ("Feature-Flags verwalten wir in Unleash; alte Flags werden jedes Quartal entfernt.", {"Feature-Flags"}),
    (
        "Das VPN für Externe läuft über WireGuard, die Konfigurationen verteilt der IT-Service.",
        {"VPN", "VPN für Externe"},
    ),
    ("Unser CDN ist Fastly; ein Purge per Surrogate-Key dauert etwa zwei Sekunden.", {"CDN"}),
    ("Die Bestelldatenbank hatte am 03.09.2026 keine freien Verbindungen.", {"Bestelldatenbank"}),
    ("Zertifikatsfehler beim Kartennetz-Handshake heute Nacht, Gateway 1 betroffen.", {"Zertifikatsfehler"}),
    ("Die CI-Runner cachen Docker-Images jetzt in einem lokalen Registry-Mirror.", {"CI-Runner"}),
    ("Der Zahlungsdienst hat ein Limit von 100 Anfragen pro Sekunde je Händler.", {"Zahlungsdienst"}),
    (
        "Die nächtliche Sicherung der Kundendatenbank ist gestern fehlgeschlagen.",
        {"Nächtliche Sicherung", "Sicherung der Kundendatenbank", "Nächtliche Sicherung der Kundendatenbank"},
    ),
    (
        "Das Monitoring für den Checkout meldet seit Montag falsche Fehlerraten.",
        {"Monitoring", "Monitoring für den Checkout"},
    ),
    ("Störung am 14.08.2026: Der Login-Dienst antwortet nicht.", {"Login-Dienst"}),
    ("Die Staging-Umgebung wird jeden Sonntag neu aufgebaut.", {"Staging-Umgebung"}),
    ("Neue Mitarbeiter bekommen ihren Laptop am ersten Tag von der IT.", {"Neue Mitarbeiter"}),
    ("Der Export nach SAP läuft jede Nacht um 2 Uhr.", {"Export nach SAP"}),
    (
        "Die Kafka-Consumer-Gruppe billing-events muss nach Schemaänderungen zurückgesetzt werden.",
        {"Kafka-Consumer-Gruppe", "Kafka-Consumer-Gruppe billing-events"},
    ),
    ("Wir haben das Zertifikat auf beiden Gateways erneuert.", {"Zertifikat"}),
    # An adjective kept only in the form a title takes (nominative, base form), never one that says
    # how new a thing is: the "new" rate limiter is the rate limiter a month later (a new user's trial)
    ("Mit dem neuen Rate-Limiter sind 100 Anfragen pro Minute erlaubt.", {"Rate-Limiter"}),
    ("Der neue Rate-Limiter erlaubt 100 Anfragen pro Minute.", {"Rate-Limiter"}),
    ("Wir haben einen neuen Rate-Limiter vor die Login-API gesetzt.", {"Rate-Limiter"}),
    ("Seit heute gilt der neue Rate-Limiter auch für die Suche.", {"Rate-Limiter"}),
    ("Das neue Dashboard zeigt die Fehlerraten je Dienst.", {"Dashboard"}),
    ("Ein neues Dashboard zeigt die Fehlerraten je Dienst.", {"Dashboard"}),
    ("Die neuen Runner haben 8 CPUs und 16 GB Speicher.", {"Runner"}),
    ("Das alte Monitoring-Skript läuft noch auf dem Jumphost.", {"Monitoring-Skript"}),
    (
        "Der nächtliche Export nach SAP bricht seit Montag ab.",
        {"Nächtlicher Export", "Export nach SAP", "Nächtlicher Export nach SAP"},
    ),
    (
        "Das tägliche Backup der Wiki-Datenbank dauert 40 Minuten.",
        {"Tägliches Backup", "Backup der Wiki-Datenbank", "Tägliches Backup der Wiki-Datenbank"},
    ),
    ("Der Login Service antwortet seit dem Update mit 500.", {"Login Service"}),  # English nouns, capital
    ("Die Payment API lehnt SEPA-Lastschriften ohne Mandat ab.", {"Payment API"}),
    ("The new rate limiter allows a burst of 50 requests.", {"Rate limiter"}),
    ("Our current VPN gateway drops idle connections after ten minutes.", {"VPN gateway"}),
    # mixed
    ("Der Deploy-Job in der CI pipeline hängt seit dem Runner-Update.", {"Deploy-Job"}),
    ("Payments API liefert seit gestern Fehler 502 für SEPA.", {"Payments API"}),
    # A new user's memories on a real vault: an event's verb right after a name, a pronoun's verb
    # and its preposition, a page an agent hands over whole (its frontmatter or heading names it)
    ("GIMP crashed when exporting a 4k PNG, fixed by updating to 2.10.36.", {"GIMP"}),
    ("Anna moved to the platform team on Monday.", {"Anna"}),
    ("The deploy failed because the runner ran out of disk.", {"Deploy"}),
    ("Nginx reloaded without dropping connections.", {"Nginx"}),
    ("Python embed mode needs the zip of the standard library.", {"Python embed mode"}),
    ("We switched from npm to pnpm for the monorepo.", {"npm", "pnpm"}),
    (
        "---\ntitle: Redis eviction\ntype: fact\n---\nRedis evicts keys with allkeys-lru at maxmemory.\n",
        {"Redis eviction"},
    ),
    ("# Redis eviction\n\nRedis evicts keys with allkeys-lru when maxmemory is hit.\n", {"Redis eviction"}),
    # a German sentence that opens with its date puts the verb next (a new user's trial: "Ist Uptime Kuma")
    ("Am 2026-11-25 ist Uptime Kuma nach einem Image-Update nicht mehr gestartet.", {"Uptime Kuma"}),
    ("Seit Montag läuft Grafana auf docker-02.", {"Grafana"}),
    ("2026-03-01 War room setup for the launch.", {"War room setup"}),
    # an attacker's: a day's part and "ab sofort" are the event's words
    ("Gestern Abend wurde der Varnish-Cache für zwei Stunden abgeschaltet.", {"Varnish-Cache"}),
    ("Ab sofort läuft der Cronjob cleanup-carts stündlich auf prod-k8s.", {"Cronjob", "Cronjob cleanup-carts"}),
    # a verb's particle and an adverb before the verb are no words of the thing
    ("On 2026-11-25 I set up Immich for the family photos on docker-02.", {"Immich"}),
    ("We rolled out Authelia in front of Grafana.", {"Authelia"}),
    # a new user's and an attacker's: a verb in -s before its object ("its", "the", "every")
    ("The Nutzendenbeirat meets every semester.", {"Nutzendenbeirat"}),
    ("Mealie keeps its data in /srv/mealie on docker-01.", {"Mealie"}),
    ("Kathrin wants the recipes sorted by season.", {"Kathrin", "Recipes"}),
    ("The Docker images for CI are built nightly.", {"Docker images"}),
    # a new user's: a condition or a purpose first names its thing after it, never the conjunction
    ("Wenn man die Git-History über einen Orphan-Branch bereinigt, sind die alten Tags verwaist.", {"Git-History"}),
    ("If the backup job fails, restart the NAS first.", {"Backup job"}),
    ("Falls der Zigbee-Stick nicht erkannt wird, hilft ein anderer USB-Port.", {"Zigbee-Stick"}),
    # remember sets' new things: a log line's verb and particle, a kind of note before a colon, a
    # role after "als", what there is
    ("Started Audiobookshelf as a new swarm stack on worker-media-01.", {"Audiobookshelf"}),
    ("Set up Immich for the family photos on docker-vm, library stored on the TS-464.", {"Immich"}),
    ("Spun up a Minecraft server for the kids as LXC 107 on pve-prod-02.", {"Minecraft server"}),
    ("Picked up a Reolink doorbell; it is on a static lease and streams RTSP.", {"Reolink doorbell"}),
    ("Neues Tool: Seit 01.12.2026 nutzen wir Loom für aufgezeichnete Onboarding-Walkthroughs.", {"Loom"}),
    ("Neu im Team: Jonas Becker ist seit 01.12.2026 Senior Platform Engineer.", {"Jonas Becker"}),
    ("There's an AED (defibrillator) on the wall next to the main entrance upstairs.", {"AED"}),
    ("Vaultwarden als Passwortmanager auf der docker-vm eingerichtet.", {"Vaultwarden"}),
    ("Mealie als Rezeptverwaltung für die Familie läuft jetzt als eigener Stack.", {"Mealie"}),
    ("Es gibt jetzt eine Tischtennisplatte im Keller.", {"Tischtennisplatte"}),
    # a gerund's object, a size left out, a name written in lower case kept so, a ticket's number
    # before a colon, a pronoun ending the phrase
    (
        "Incident: copying a 6 GB VM image to a FAT32-formatted USB stick failed because FAT32 allows 4 GB per file.",
        {"VM image", "FAT32", "USB stick"},
    ),
    ("Running the nightly export on the replica avoids locking the primary.", {"Nightly export"}),
    ("Am 08.02.2026 war vpn03 knapp zwei Stunden weg, alle Gatemons für vpn03 waren rot.", {"vpn03"}),
    ("Auf srv02 liegen die Zonefiles jetzt unter /etc/powerdns/zones.", {"Zonefiles"}),
    ("srv02: am 21.01.2026 lief /var/www/firmware voll, alte Verzeichnisse gelöscht.", {"srv02"}),
    (
        "restic-backup.sh ist am 15.07.2026 um 03:00 mit 'repository is already locked' abgebrochen.",
        {"restic-backup.sh"},
    ),
    ("T1234: Nach dem Debian-Update hingen die Phabricator-Daemons.", {"Debian-Update", "Phabricator-Daemons"}),
    ("A KVG we talked to says anevis quoted them EUR 18,000 a year.", {"KVG", "anevis"}),
    ("Am 04.10.2025 bootete pihole-01 nach einem Stromausfall nicht mehr.", {"pihole-01"}),
    # a new user's agent workspace: the phrase ended at a possessive ("MusicGen's")
    ("MusicGen's generated audio is stored in the Cloudflare R2 bucket musicgen-renders.", {"MusicGen"}),
    ("The OpenClaw gateway's primary model is now ollama/qwen3.5:27b.", {"OpenClaw gateway"}),
    # a tuning set's change: a sentence whose German words were all outside the marker list read as English
    ("Prometheus scrapt jetzt alle 15 Sekunden statt alle 30.", {"Prometheus"}),
    # when a thing is, said before it: the title "Since", "Seit Update startet"; a name ending in "-ed"
    ("Since the upgrade the NAS fans spin at full speed all night.", {"NAS fans"}),
    ("After the reboot Grafana lost its dashboards.", {"Grafana"}),
    ("Since 2025 Backblaze B2 holds the offsite copies.", {"Backblaze B2"}),
    ("Seit dem Update auf 7.2 startet der Container nicht mehr automatisch.", {"Container"}),
    ("Im Keller steht der neue Server für die Backups.", {"Server"}),
    ("Node-RED flows are now backed up to the git repo every night.", {"Node-RED flows"}),
    # an attacker's: "Every", "According", "Jeden", "Vor", "Hinter", "Tomorrow" for titles
    ("Every Monday the trash goes out before 7.", {"Trash"}),
    ("According to the landlord the boiler gets serviced in October.", {"Boiler"}),
    ("Apparently the garage door opener needs a new battery every winter.", {"Garage door opener"}),
    ("Tomorrow the electrician replaces the fuse box.", {"Electrician", "Fuse box"}),
    ("Behind the fridge is the water shutoff valve for the kitchen.", {"Water shutoff valve"}),
    ("Jeden Montag wird der Müll rausgestellt.", {"Müll"}),
    ("Laut Hausverwaltung wird die Heizung im Oktober gewartet.", {"Heizung"}),
    ("Vor dem Deploy muss der Cache des CDN geleert werden.", {"Cache des CDN", "Cache"}),
    ("Hinter dem Kühlschrank ist das Absperrventil für die Küche.", {"Absperrventil"}),
    ("Letzte Woche hat der Verein beschlossen, die Treffen auf Donnerstag zu legen.", {"Verein"}),
    ("Laut Doku braucht Immich 4 GB RAM für die Gesichtserkennung.", {"Immich"}),
    ("Seit dem Update startet Nextcloud nicht mehr automatisch.", {"Nextcloud"}),
    ("Mittlerweile synchronisiert Syncthing alle Ordner.", {"Syncthing"}),
    # a new user's and two attackers': a verb after a name taken for a plural noun, and the reverse
    ("Jellyseerr handles media requests from family members and forwards them to Sonarr.", {"Jellyseerr"}),
    ("Paperless stores scanned letters on the NAS share.", {"Paperless"}),
    ("Grafana Dashboards run on the monitoring host and read from Prometheus.", {"Grafana Dashboards"}),
    ("Wi-Fi 6 access points were installed in the workshop and the office.", {"Wi-Fi 6 access points"}),
    ("The Indexer needs more memory when the whole library is rescanned.", {"Indexer"}),
    ("Backup jobs run nightly at 02:00 from the NAS.", {"Backup jobs"}),
    ("Loki keeps logs for 30 days on the NAS.", {"Loki"}),
    ("The Azure Kubernetes service is down in the west region.", {"Azure Kubernetes service"}),
    ("Kafka consumers lag behind during deploys.", {"Kafka consumers"}),
    ("Backup jobs fail every night since the update.", {"Backup jobs"}),
    ("Grafana sends alerts to Slack when a host is down.", {"Grafana"}),
    # an attacker's: a plural noun before its verb, and a verb before its object
    ("GitLab runners need docker on every host.", {"GitLab runners"}),
    ("Zigbee sensors report battery levels every hour.", {"Zigbee sensors"}),
    ("Backups run nightly to the NAS.", {"Backups"}),
    ("The logs show errors on sda.", {"Logs"}),
    ("Deluge downloads went missing because the path ended in a blank.", {"Deluge downloads"}),
    ("Supporting members pay 60 EUR a year.", {"Supporting members"}),
    ("Pi-hole blocks ads for the whole network.", {"Pi-hole"}),
    ("Hashcat rules files mangle a wordlist before cracking.", {"Hashcat rules", "Hashcat rules files"}),
    # A time or a reason the sentence opens with (the twenty-second set's memories)
    ("As of March 2026 the WASP TopDLP is still experimental.", {"WASP TopDLP"}),
    ("As the NAS is full, backups go to the cloud bucket.", {"NAS"}),
    # How it is said, not what it is about (an attacker's: "Now", "Moment", "Way", "Übrigens", "Fall")
    ("For now the old Mac mini stays in the office as a print server.", {"Mac mini", "Old Mac mini"}),
    ("At the moment the Plex server runs on the NAS.", {"Plex server"}),
    ("By the way, the Wi-Fi password is on the fridge.", {"Wi-Fi password"}),
    ("As discussed with Priya, the board deck is due quarterly.", {"Board deck"}),
    ("It is important that the fridge door is closed.", {"Fridge door"}),
    ("Of all the backup tools, restic is the fastest here.", {"Restic"}),
    ("Übrigens: die Hausratversicherung läuft bei der HUK.", {"Hausratversicherung"}),
    ("Auf jeden Fall muss die Heizung entlüftet werden.", {"Heizung"}),
    ("Wie besprochen wird das WLAN-Passwort monatlich geändert.", {"WLAN-Passwort"}),
    ("Je nach Wetter läuft die Bewässerung morgens.", {"Bewässerung"}),
    ("Da der Keller feucht ist, läuft der Entfeuchter.", {"Keller", "Entfeuchter"}),
    # A thing and a common verb's third person (a new user's "Tiago plays", an attacker's "NAS backs")
    ("Tiago plays padel on Wednesdays at Padel Club Matosinhos.", {"Tiago", "Padel"}),
    ("The printer needs new toner.", {"Printer"}),
    ("The NAS backs up to B2 every night.", {"NAS"}),
    # Two attackers' and a new user's: a purpose before a comma, a bidding, what is said of a name
    ("For restores, use the B2 bucket rather than /mnt/nvme/share directly.", {"B2 bucket"}),
    ("Instead of rebooting pve-02, restart the pvestatd service first.", {"Pvestatd service", "pvestatd service"}),
    ("Restic no longer backs up /mnt/nvme/share/media, only the documents.", {"Restic"}),
    ("Jonas no longer has a BahnCard 50, he now has a BahnCard 100.", {"Jonas", "BahnCard"}),
    ("From now on, ping Carlos Diaz instead of PagerDuty for infrastructure questions.", {"Carlos Diaz"}),
    ("Manchmal kaufen wir bei Lidl statt bei Rewe.", {"Lidl"}),
    ("Use Redis for sessions.", {"Redis"}),
    # A new user's: a repair names its thing after it
    ("PR #214 gemergt: Fix für die Take-Away-Bons im Kassensystem.", {"Take-Away-Bons"}),
    ("Merged PR #12: fix for the login timeout in the members area.", {"Login timeout"}),
    ("Workaround for the flaky DNS on vpn03: restart systemd-resolved.", {"Flaky DNS", "DNS"}),
    ("Fix the login page first.", {"Login page"}),
    # An attacker's repairs
    ("Fix zum Login-Problem: Cookies löschen.", {"Login-Problem"}),
    ("Hotfix: the login page needs a CSP header.", {"Login page"}),
    ("Fix to the mail relay: use port 587.", {"Mail relay"}),
    ("Patch for CVE-2026-1234 applied on all hosts.", {"Patch", "CVE-2026-1234"}),
]
