"""The games this installation knows, by their declarations: the packaged games, and those
other packages plug in through the `deckbuilder.games` entry point group (naming a
`GameDeclaration`, whose `entry` names the rules, imported only when the game is played).
"""

from __future__ import annotations

from importlib.metadata import entry_points

from deckbuilder.declaration import GameDeclaration
from deckbuilder.games.revolver.declaration import DECLARATION as REVOLVER
from deckbuilder.games.revolver2.declaration import DECLARATION as REVOLVER2

#: The entry point group a package plugs a game in under.
ENTRY_POINT_GROUP = "deckbuilder.games"


def _plugged_in(known: tuple[GameDeclaration, ...]) -> tuple[GameDeclaration, ...]:
    """The declarations other packages plug in (a broken or clashing one is left out with a
    warning: a bad plug-in must not stop the packaged games)."""
    import warnings

    found: list[GameDeclaration] = []
    taken = {declaration.id for declaration in known}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda point: point.name):
        try:
            declaration = point.load()
        except Exception as error:
            warnings.warn(f"game plug-in '{point.name}' ({point.value}) cannot be loaded: "
                          f"{error}", stacklevel=2)
            continue
        if not isinstance(declaration, GameDeclaration) or declaration.id in taken:
            warnings.warn(f"game plug-in '{point.name}' ({point.value}) is not a new "
                          "GameDeclaration; left out", stacklevel=2)
            continue
        taken.add(declaration.id)
        found.append(declaration)
    return tuple(found)


_PACKAGED: tuple[GameDeclaration, ...] = (REVOLVER, REVOLVER2)
#: Every game's declaration, the packaged games first.
DECLARATIONS: tuple[GameDeclaration, ...] = (*_PACKAGED, *_plugged_in(_PACKAGED))
#: game id -> its declaration
BY_ID: dict[str, GameDeclaration] = {declaration.id: declaration for declaration in DECLARATIONS}


def declaration_of(game: str) -> GameDeclaration | None:
    """The declaration of game `game`, None for a game this installation does not know."""
    return BY_ID.get(game)
