"""The web face of deckbuilder (`deckbuilder serve`): server-rendered pages over the command
line's library calls. Needs the `web` extra; nothing outside this package imports it.
"""
