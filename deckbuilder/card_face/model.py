"""A card face: what a player reads on a card, built from its catalog record alone. Each value
carries its standing (stated, confirmed by a player, unconfirmed) and the renderers mark the
last two, so a guess is never read as a fact and a player's reading never as a document's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckbuilder.card_face.words import (
    PLACEMENT_WORDS,
    characters_word,
    cost_words,
    faction_title,
    game_title,
    icon_words,
    plural,
    recruitment_words,
    space_labels,
    step_names,
)
from deckbuilder.data_packs.standing import Standing, standing_of_source, standing_words
from deckbuilder.models.effects import game_declared

if TYPE_CHECKING:
    from deckbuilder.catalog import Catalog, Entry

#: Fields shown apart from the facts (the title, the text) or not shown at all.
_SHOWN_APART = frozenset({"id", "aliases", "text", "provenance"})
#: The fields whose steps the record's text puts in words.
STEP_FIELDS = ("effect", "modes", "triggers", "abilities", "on_death")
TEXT_PARAPHRASE = "a paraphrase; no document is named for it"
#: Who a homebrew set's own named sources are (`_Builder.standing`): the player's set, not a
#: rule document; and its text without a named source, which is the set's own, not a paraphrase.
SET_NOTES = "your set's notes"
SET_TEXT = "your set's own text; it names no source for it"
#: Each game's own pieces on a face, from its card model: costs beside the discards (field,
#: unit), symbols a card shows (field, label, one, many), and special cards of a kind of their
#: own (the field holding their data -> what such a card is called, its rows, its summary).
_COSTS: tuple[tuple[str, str], ...] = tuple(
    each for own in game_declared("FACE_COSTS") for each in own)
_SYMBOLS: tuple[tuple[str, str, str, str], ...] = tuple(
    each for own in game_declared("FACE_SYMBOLS") for each in own)
_SPECIALS: dict[str, tuple[str, Callable[..., None], Callable[..., list[str]]]] = {
    field: kind for own in game_declared("SPECIAL_FACES") for field, kind in own.items()}


@dataclass(frozen=True)
class Fact:
    """One row of a face with its standing (`confirmed_by`: who, for a player's value), its
    sources in words ("" for defaults) and the record's fields it shows."""

    label: str
    value: str
    unconfirmed: bool = False
    fields: tuple[str, ...] = ()
    confirmed_by: str = ""
    source: str = ""

    @property
    def standing(self) -> Standing:
        if self.unconfirmed:
            return Standing.UNCONFIRMED
        return Standing.PLAYER if self.confirmed_by else Standing.STATED


@dataclass(frozen=True)
class CardFace:
    """Everything a face shows, as words; `face_text` and `face_html` only lay it out."""

    id: str
    kind: str  # the catalog's kind: card, character, battlefield, special, token
    game: str
    title: str
    title_unconfirmed: bool
    #: what the record is, in words: `card of Revolver`, `bandit of Revolver`, `poker card ...`
    subtitle: str
    facts: tuple[Fact, ...]
    #: flags in words (`unique gunslinger`, `cannot be moved`); each a Fact with an empty value
    marks: tuple[Fact, ...]
    text: tuple[str, ...]
    text_unconfirmed: bool
    #: where the text comes from, when a player should know (`a paraphrase ...`), else ""
    text_note: str
    #: the record's fields no document states (see `unconfirmed_fields`)
    unconfirmed: tuple[str, ...]
    #: the name's and the text's standing beside `title_unconfirmed`/`text_unconfirmed`:
    #: who confirmed them ("" when no player did) and their source in words (see `Fact`)
    title_confirmed_by: str = ""
    title_source: str = ""
    text_confirmed_by: str = ""
    text_source: str = ""

    def rows(self) -> tuple[Fact, ...]:
        """The name, the facts, the marks and the text, each as a Fact with its standing."""
        title = Fact("Name", self.title, self.title_unconfirmed, ("name",),
                     self.title_confirmed_by, self.title_source)
        text = Fact("Text", " ".join(self.text), self.text_unconfirmed, ("text", *STEP_FIELDS),
                    self.text_confirmed_by, self.text_source)
        return (title, *self.facts, *self.marks, text)

    def confirmed_by(self) -> tuple[str, ...]:
        """Who confirmed the player's values, once each, in the face's order."""
        return tuple(dict.fromkeys(who for row in self.rows() if row.confirmed_by
                                   for who in row.confirmed_by.split(", ")))

    def field_order(self) -> tuple[str, ...]:
        """The record's fields in the order the face shows them: the order a review asks them."""
        shown = ("name", *(name for row in (*self.marks, *self.facts) for name in row.fields))
        return tuple(dict.fromkeys(shown))

    def has_unconfirmed(self) -> bool:
        """Whether some part of the face is unconfirmed (the renderers then add the legend)."""
        return any(row.unconfirmed for row in self.rows())


def unconfirmed_fields(record: Any) -> tuple[str, ...]:
    """The record's values no document states: those its provenance lists, then those the
    data sets without a source (not the text: a paraphrase by definition, and said so)."""
    provenance = record.provenance
    return (*provenance.unconfirmed, *(
        name for name in sorted(record.model_fields_set) if name not in _SHOWN_APART
        and name not in provenance.unconfirmed and name not in provenance.sources))


class _Builder:
    """Collects a face's rows, each marked when any field it shows is unconfirmed."""

    def __init__(self, record: Any, catalog: Catalog, game: str, homebrew: bool) -> None:
        self.record = record
        self.catalog = catalog
        self.game = game
        self.homebrew = homebrew
        self.unconfirmed = unconfirmed_fields(record)
        self.facts: list[Fact] = []
        self.marks: list[Fact] = []

    def is_unconfirmed(self, *fields: str) -> bool:
        return any(name in self.unconfirmed for name in fields)

    def is_noted(self, *fields: str) -> bool:
        """Whether a row the face leaves out at its default value must show: a guess, or a
        value a player confirmed (`no icons`, confirmed, is worth reading)."""
        return self.is_unconfirmed(*fields) or any(
            standing_of_source(self.record.provenance.sources.get(name, ""))[0]
            is Standing.PLAYER for name in fields)

    def standing(self, *fields: str) -> tuple[str, str]:
        """(confirmed_by, source) of a row showing `fields` (see `Fact`); a homebrew set's
        named sources are the player's (`SET_NOTES`), not a document's."""
        if self.is_unconfirmed(*fields):
            return "", ""
        who: dict[str, None] = {}  # each once, in order
        words: dict[str, None] = {}
        for name in fields:
            source = self.record.provenance.sources.get(name)
            if not source:
                continue
            standing, by = standing_of_source(source)
            if self.homebrew and standing is Standing.STATED:
                standing, by = Standing.PLAYER, SET_NOTES
            if standing is Standing.PLAYER and by:
                who[by] = None
            said = f"{SET_NOTES}: {source}" if by == SET_NOTES else standing_words(source, name)
            words[said] = None
        return ", ".join(who), "; ".join(words)

    def fact(self, label: str, value: object, *fields: str) -> None:
        self.facts.append(Fact(label, str(value), self.is_unconfirmed(*fields), fields,
                               *self.standing(*fields)))

    def fact_if(self, shown: object, label: str, value: object, field: str) -> None:
        """A row shown when `shown` (its value is not the default) or the value is noted."""
        if shown or self.is_noted(field):
            self.fact(label, value, field)

    def mark(self, words: str, *fields: str) -> None:
        self.marks.append(Fact(words, "", self.is_unconfirmed(*fields), fields,
                               *self.standing(*fields)))

    def flag(self, name: str, when_set: str, when_unset: str, default: bool) -> None:
        """A yes/no field: its words when it differs from the default, a guess, or a value a
        player confirmed."""
        value = bool(getattr(self.record, name))
        if value != default or self.is_noted(name):
            self.mark(when_set if value else when_unset, name)

    def name_of(self, record_id: str) -> str:
        entry = self.catalog.entries.get(record_id)
        return entry.name if entry is not None else record_id

    def names_of(self, record_ids: list[str]) -> str:
        return ", ".join(self.name_of(each) for each in record_ids)


def face(entry: Entry, catalog: Catalog) -> CardFace:
    """The face of a catalog entry (a card, character, battlefield, special card or token).

    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog(use_user_data=False)
    >>> face(catalog.entries["whiskey-canyon"], catalog).title
    'Whiskey Canyon'
    """
    record = entry.record
    loaded = catalog.sets.get(entry.set_id)
    build = _Builder(record, catalog, entry.game,
                     loaded is not None and loaded.card_set.kind == "homebrew")
    set_name = loaded.card_set.name if loaded is not None else entry.set_id
    if loaded is not None and loaded.card_set.kind == "base":
        set_name += " (base game)"
    subtitle = _kind_words(entry)
    faction = getattr(record, "faction", None)
    if faction is not None and entry.kind != "battlefield":
        build.fact("Faction", faction_title(entry.game, faction), "faction")
    build.fact("Set", set_name, "set")
    {"card": _card, "character": _character, "battlefield": _battlefield, "special": _special,
     "token": lambda made: made.fact("In the box", made.record.count, "count")}[entry.kind](build)
    text, text_unconfirmed, note = _text(record, build)
    covered = {field for row in (*build.facts, *build.marks) for field in row.fields}
    covered |= {"name", "text", *STEP_FIELDS}
    rest = [name for name in build.unconfirmed if name not in covered]
    if rest:  # a guessed value the face has no row for: named, never hidden
        build.facts.append(Fact("Also unconfirmed", ", ".join(
            name.replace("_", " ") for name in rest), True, tuple(rest)))
    title_by, title_source = build.standing("name")
    text_by, text_source = build.standing("text", *STEP_FIELDS)
    return CardFace(
        id=entry.id, kind=entry.kind, game=entry.game, title=record.name,
        title_unconfirmed=build.is_unconfirmed("name"), subtitle=subtitle,
        facts=tuple(build.facts), marks=tuple(build.marks), text=text,
        text_unconfirmed=text_unconfirmed, text_note=note, unconfirmed=build.unconfirmed,
        title_confirmed_by=title_by, title_source=title_source,
        text_confirmed_by=text_by, text_source=text_source,
    )


def _kind_words(entry: Entry) -> str:
    record = entry.record
    game = game_title(entry.game)
    if entry.kind == "character":
        leader = "leader, " if getattr(record, "leader", False) else ""
        return f"{characters_word(entry.game)} ({leader}{game})"
    if entry.kind == "special":
        own = _own_special(record)
        return f"{_SPECIALS[own[0]][0] if own else 'table card'} ({game})"
    if entry.kind == "token":
        return f"table piece ({game})"
    return f"{entry.kind} ({game})"


def _own_special(record: object) -> tuple[str, object] | None:
    """(field, data) of a special card of a game's own kind (`_SPECIALS`), else None."""
    return next(((field, getattr(record, field)) for field in _SPECIALS
                 if getattr(record, field, None) is not None), None)


def _card(build: _Builder) -> None:
    card = build.record
    build.fact("Plays as", card.play, "play")
    build.fact("Category", str(card.category).replace("-", " "), "category")
    cost = cost_words(card.cost)
    for field, unit in _COSTS:
        if getattr(card, field, 0):
            cost += f" and pay {plural(getattr(card, field), unit)}"
    if card.cost_waived_at:
        cost += f" (free at {build.names_of(card.cost_waived_at)})"
    build.fact("Cost", cost, "cost", *(field for field, _ in _COSTS), "cost_waived_at")
    build.fact_if(card.firepower is not None, "Firepower",
                  "none" if card.firepower is None else card.firepower, "firepower")
    build.fact_if(card.chip is not None, "Chip", card.chip or "none", "chip")
    build.fact_if(card.icons, "Icons", icon_words(card.icons) or "none", "icons")
    for name, label, _, _ in _SYMBOLS:
        build.fact_if(getattr(card, name, 0), label, getattr(card, name, 0), name)
    build.fact_if(card.placement != "current", "Placed",
                  PLACEMENT_WORDS.get(str(card.placement), str(card.placement)), "placement")
    build.fact("Copies in its set", card.copies, "copies")
    if card.gunslinger:
        build.mark("unique gunslinger", "unique", "gunslinger")
    elif card.unique:
        build.mark("unique", "unique", "gunslinger")
    elif build.is_noted("unique", "gunslinger"):
        build.mark("not unique", "unique", "gunslinger")
    build.flag("deckable", "may stand in a deck", "not for players' decks", True)
    build.flag("counts_toward_limit", "counts toward the card limit",
               "not counted toward the card limit", True)
    build.flag("movable", "can be moved", "cannot be moved", True)
    build.flag("reshuffles", "reshuffled with the discard pile",
               "removed from the game when the discard pile is reshuffled", True)
    build.flag("played_when_drawn", "played at once when drawn", "played from the hand", False)
    if card.not_at or build.is_noted("not_at"):
        build.mark(f"cannot be used at {build.names_of(card.not_at) or 'no battlefield'}",
                   "not_at")


def _character(build: _Builder) -> None:
    character = build.record
    build.fact("Survival rating", character.survival, "survival")
    build.fact_if(character.true_grit, "True grit", plural(character.true_grit, "token"),
                  "true_grit")
    build.fact_if(character.power_tokens, "Power tokens",
                  f"{character.power_tokens} (each an extra life)", "power_tokens")
    has_death = bool(character.on_death) or any(
        trigger.when == "on-death" for trigger in character.triggers)
    build.fact_if(has_death, "On death", "an effect (see the text)" if has_death else "none",
                  "on_death")
    build.flag("leader", "leader", "not the leader", False)
    build.flag("starting", "in play at set-up", "not in play at set-up", True)


def _battlefield(build: _Builder) -> None:
    battlefield = build.record
    build.fact("Place in the row", battlefield.order, "order")
    build.fact_if(battlefield.group != "fixed", "Group", str(battlefield.group).replace("-", " "),
                  "group")
    build.fact("Defence", battlefield.defence, "defence")
    build.fact("Turn spaces", space_labels(battlefield.spaces), "spaces")
    recruits = recruitment_words(battlefield.spaces, build.game)
    if recruits:
        build.fact("Recruitment", recruits, "spaces")


def _special(build: _Builder) -> None:
    special = build.record
    build.fact_if(special.tokens, "Tokens at set-up", special.tokens, "tokens")
    build.fact_if(special.beside is not None, "Lies beside",
                  build.name_of(special.beside) if special.beside else "nothing", "beside")
    own = _own_special(special)
    if own is not None:
        _SPECIALS[own[0]][1](own[1], build)


def _text(record: Any, build: _Builder) -> tuple[tuple[str, ...], bool, str]:
    """The record's text in paragraphs, whether any of it (or the steps it words) is a
    guess, and a note on where it comes from."""
    steps = [step for name in STEP_FIELDS for step in _steps_of(record, name)]
    unconfirmed = build.is_unconfirmed("text", *STEP_FIELDS)
    if record.text:
        paragraphs = tuple(" ".join(part.split()) for part in record.text.split("\n\n")
                           if part.strip())
        source = record.provenance.sources.get("text")
        return paragraphs, unconfirmed, "" if source else (
            SET_TEXT if build.homebrew else TEXT_PARAPHRASE)
    if steps:
        names = ", ".join(step_names(steps))
        return ((f"The data gives no text for this card; its effect uses the steps: {names}.",),
                unconfirmed, "")
    return (), unconfirmed, ""


def _steps_of(record: Any, name: str) -> list[Any]:
    """The steps of a field: a step itself, or a trigger's, ability's or mode's steps."""
    return [step for item in getattr(record, name, None) or []
            for step in ([item] if hasattr(item, "do") else
                         getattr(item, "steps", None) or getattr(item, "effect", None) or [])]


def one_line(entry: Entry, confirmed_mark: str = "\u2713") -> str:
    """The short summary a hand card or an action button shows, unconfirmed values with `?`
    and a player's with `confirmed_mark`.

    >>> from deckbuilder.catalog import build_catalog
    >>> catalog = build_catalog(use_user_data=False)
    >>> one_line(catalog.entries["whiskey-canyon"]).startswith("Whiskey Canyon - battlefield")
    True
    """
    record = entry.record
    unconfirmed = unconfirmed_fields(record)
    sources = record.provenance.sources

    def shown(value: object, *fields: str) -> str:
        if any(name in unconfirmed for name in fields):
            return f"{value}?"
        if any(standing_of_source(sources.get(name, ""))[0] is Standing.PLAYER
               for name in fields):
            return f"{value}{confirmed_mark}"
        return str(value)

    parts: list[str] = []
    if entry.kind == "card":
        parts.append("cost " + shown(cost_words(record.cost), "cost"))  # as the face says
        for field, unit in _COSTS:
            if getattr(record, field, 0):
                parts[-1] += " + " + shown(plural(getattr(record, field), unit), field)
        if record.firepower is not None:
            chip = f" ({shown(record.chip, 'chip')})" if record.chip else ""
            parts.append(f"firepower {shown(record.firepower, 'firepower')}{chip}")
        else:
            parts.append(shown(record.play, "play"))
        for name, _, one, many in _SYMBOLS:
            count = getattr(record, name, 0)
            if count:
                parts.append(shown(plural(count, one, many), name))
    elif entry.kind == "character":
        parts.append(characters_word(entry.game))
        parts.append(f"survival {shown(record.survival, 'survival')}")
        if record.true_grit:
            parts.append(shown(f"{record.true_grit} true grit", "true_grit"))
    elif entry.kind == "battlefield":
        parts += ["battlefield", f"defence {shown(record.defence, 'defence')}",
                  f"spaces {shown(space_labels(record.spaces), 'spaces')}"]
    elif entry.kind == "special" and (own := _own_special(record)) is not None:
        parts += _SPECIALS[own[0]][2](own[1], shown)
    elif entry.kind == "special":
        parts.append("table card")
        if record.tokens:
            parts.append(shown(plural(record.tokens, "token"), "tokens"))
    elif entry.kind == "token":
        parts.append(f"table piece, {shown(record.count, 'count')} in the box")
    # The name is marked only when unconfirmed: callers cut the summary after "NAME - ".
    name = f"{record.name}?" if "name" in unconfirmed else record.name
    return f"{name} - {', '.join(parts)}" if parts else name
