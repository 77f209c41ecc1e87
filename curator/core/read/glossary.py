"""German words of software teams' notes and their English counterparts, for matching a text in
one language with a page in the other, and the German words compounds are split against.

A general vocabulary of operations, development and business notes (systems, failures, people,
time); it names no product. Each line: German words, then `=`, then the English words they mean.
"""

from __future__ import annotations

GERMAN_ENGLISH = """
abbruch abbrechen = abort cancel
ablauf ablaufdatum = expiry
abgelaufen ablaufen = expired expire
abhängigkeit = dependency
abrechnung = billing
absturz abstürzen abgestürzt = crash crashed
alarm alarme alarmierung = alert alerts alerting
änderung änderungen ändern = change changes
anfrage anfragen = request requests
anmeldung anmelden = login
anbieter = provider vendor
ansprechpartner = contact
antwortzeit = latency
anwendung = application
aufbewahrung aufbewahren aufbewahrt = retention retain kept
ausfall ausgefallen = outage failed
auslastung = load utilisation
aussetzer = outage
authentifizierung = authentication
bereitschaft rufbereitschaft = on-call
bereitstellung = deployment
berechtigung berechtigungen = permission permissions
bestellung bestellungen bestell = order orders
betrieb = operations
benutzer nutzer = user users
bericht = report
bezahlung zahlung zahlungen = payment payments
dienst dienste = service services
datei dateien = file files
datenbank datenbanken = database databases
daten = data
dokumentation = documentation
drosselung drosseln = throttling rate-limit
durchsatz = throughput
eintrag = entry
einstellung einstellungen = setting settings
empfänger = recipient
erneuerung erneuern erneuert = renewal renew renewed
fehler = error errors
fehlgeschlagen fehlschlagen scheitern = failed fail
festplatte platte = disk
freigabe = release approval
gebühr gebühren = fee fees
geheimnis = secret
kunde kunden = customer customers
konfiguration = configuration
kosten = cost costs
laufzeit = runtime
lastschrift lastschriften = debit debits
lastverteiler = load-balancer
leistung = performance
lieferung = delivery
netz netzwerk = network
passwort = password
plattform = platform
protokoll = log protocol
prüfung prüfen = check review
rechenzentrum = datacenter
rechnung rechnungen = invoice invoices
schlüssel = key keys
schnittstelle = interface api
schwachstelle schwachstellen = vulnerability vulnerabilities
sicherheit = security
sicherung sicherungen = backup backups
speicher = memory storage
sperre = lock
störung = incident outage
suche = search
überwachung = monitoring
umgebung = environment
verbindung verbindungen = connection connections
verfügbarkeit = availability
verschlüsselung = encryption
version = version
verzögerung = delay
vorfall = incident
wartung wartungsfenster = maintenance maintenance-window
warteschlange = queue
wiederherstellung = restore recovery
zeitüberschreitung = timeout
zertifikat zertifikate = certificate certificates
zugang zugriff = access
zuständig verantwortlich = responsible owner
""".strip()
