"""What a game declares about itself, once: every table of a game's static facts (the `Game`
and `Faction` enums, deck titles, default rulesets, spellings, decision kinds) derives from
it. Declarations sit in layer 1 (models) so the enums can read them; each game's own sits in
its package and is listed once in `declared.py`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SideDeclaration:
    """One side of a game: its id (a faction, as card data and files spell it), its title
    and the other spellings a user may type."""

    id: str
    #: how a deck of this side is titled ("Colty gang")
    title: str
    #: other spellings a user may type ("Colti", "gang"); the title is one as well
    spellings: tuple[str, ...] = ()


@dataclass(frozen=True)
class DecisionKind:
    """One kind of decision a player may be asked (like OpenSpiel's per-game action enums):
    its code (carried by records; never reused), name, words, and whether it is secret."""

    code: int
    name: str
    #: how the open decision is named to a player ("choose a poker card")
    words: str
    #: the opponent may not see the answer (the web table and a second player's view)
    secret: bool = False
    #: what the opponent reads instead of a secret answer ("chooses a poker card face down")
    secret_words: str = ""


@dataclass(frozen=True)
class GameDeclaration:
    """A game's static facts, declared once (see the module's docstring)."""

    id: str
    title: str
    #: the two sides, player 0 first (the side that moves first and has the characters)
    sides: tuple[SideDeclaration, SideDeclaration]
    #: the singular word for the first side's characters ("bandit", "guardian")
    character_word: str
    #: the ruleset played when none is chosen (the game's own rulebook)
    default_ruleset: str
    #: other spellings of the game a user may type ("r2"); the title is one as well
    spellings: tuple[str, ...] = ()
    #: card factions of this game that are not sides (the Frontier deck's cards)
    other_factions: tuple[SideDeclaration, ...] = ()
    #: the decision kinds only this game asks (the table's own are in `engine/actions.py`)
    decision_kinds: tuple[DecisionKind, ...] = ()
    #: where the game's rules live: "package.module:attribute" of its `GameRules` registry
    #: entry (`GameEntry`), imported only when the game is played
    entry: str = ""
    #: where the game's own card data is modelled: "package.module" (importing only the
    #: models, like the declaration) whose `STEPS` are its effect steps' models and whose
    #: `CARD_FIELDS` its cards' own fields (name -> (type, `Field`)); `models/` adds them to
    #: the vocabulary and the card model. "": none
    card_model: str = ""
    #: the plural of `character_word` where adding an "s" is wrong ("deputies")
    character_plural: str = ""
    #: how each of the game's endings (its `Termination` values) reads to a player:
    #: (value, words) pairs, e.g. ("gang_wiped_out", "the gang is wiped out")
    ending_words: tuple[tuple[str, str], ...] = ()
    #: words its documents spell two ways, folded before a card name is looked up
    #: (variant, spelling): ("colti", "colty")
    name_folds: tuple[tuple[str, str], ...] = ()
    #: the counts the game's cards carry (symbols, a cost of its own), each as its card data
    #: field and the table's card record attribute (`CardDef`) it fills:
    #: ("powder_kegs", "kegs")
    card_counts: tuple[tuple[str, str], ...] = ()

    @property
    def characters_word(self) -> str:
        """The plural word for the characters ("bandits", "guardians")."""
        return self.character_plural or f"{self.character_word}s"

    @property
    def side_ids(self) -> tuple[str, str]:
        return (self.sides[0].id, self.sides[1].id)
