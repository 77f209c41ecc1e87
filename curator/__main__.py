from curator.cli.main import entry

entry()
