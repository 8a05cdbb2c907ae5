"""CLI command groups; each module registers its commands on the typer app and holds no logic."""
