"""Reading a vault: its files, pages, links and how they resolve, its git history, the graph,
the typed relations and the query language over them."""
