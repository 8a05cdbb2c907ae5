"""One game step by step: sessions, what a seat sees, take-backs, records and their replay."""
