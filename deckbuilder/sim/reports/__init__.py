"""What a run, a ranking or a search tells its reader: text, HTML pages and charts."""
