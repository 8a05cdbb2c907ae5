"""The service both faces and scripts call (below `commands/`, `web/` and `api/`): nothing
here prints or speaks HTTP, so every face gives the same answer to the same question."""
