"""What both faces need (layer 8, below `commands/` and `web/`): card details and searches,
deck verdicts, decks read for play, simulation plans, rule listings, overlay editing.

Nothing here prints or speaks HTTP: the command line and the web app call these functions
and present the answers, so both faces give the same answer to the same question.
"""
