"""The web face of deckbuilder (`deckbuilder serve`): server-rendered pages over the same
library calls as the command line. It holds no game or deck logic of its own.

Needs the `web` extra (starlette, jinja2, uvicorn, python-multipart); nothing outside this
package imports it, so the command line works without them.
"""
