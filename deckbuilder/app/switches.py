"""Rule switches chosen one by one (`--switch ID=VALUE`, or the web form's switches) and
modules (`--module A`, `--module "saloon duel"`), checked against what the game's installed
sets declare, and how a choice is named in headings and reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deckbuilder.app.spellings import normalized
from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.models.sets import Module
from deckbuilder.rulesets import UnknownRulesetError


class UnknownModuleError(DeckbuilderError):
    """A module asked for that no installed set of the game declares."""


def parse_switches(texts: Sequence[str], catalog: Catalog, game: str) -> dict[str, str]:
    """`--switch ID=VALUE` options as switch id -> variant, checked against the game's
    installed sets so that a typo is one line naming the choices."""
    declared = {switch.id: switch for loaded in catalog.sets.values()
                if loaded.card_set.game == game for switch in loaded.card_set.rule_switches}
    example = next(iter(declared.values()), None)
    sample = f"{example.id}={example.variants[-1].value}" if example is not None else "ID=VALUE"
    chosen: dict[str, str] = {}
    for text in texts:
        key, equals, value = (part.strip() for part in text.partition("="))
        if not equals or not key or not value:
            raise UnknownRulesetError(f"--switch '{text}' is not ID=VALUE",
                                      fix=f"e.g. --switch {sample}")
        switch = declared.get(key)
        if switch is None:
            raise UnknownRulesetError(
                f"--switch {text}: {game} has no rule switch '{key}'",
                fix=f"choose one of: {', '.join(sorted(declared)) or 'none'} "
                    f"(see `deckbuilder rules --game {game}`)")
        values = [variant.value for variant in switch.variants]
        if value not in values:
            raise UnknownRulesetError(f"--switch {text}: '{value}' is not a reading of {key}",
                                      fix=f"choose one of: {', '.join(values)}")
        if chosen.get(key, value) != value:
            raise UnknownRulesetError(f"--switch {key} is given twice ({chosen[key]}, {value})",
                                      fix=f"give --switch {key}=... once")
        chosen[key] = value
    return chosen


def describe_rules(ruleset: str, switches: Mapping[str, str]) -> str:
    """`rulebook-es` or `rulebook-es with poker-tie=guardians` (for headings and reports)."""
    if not switches:
        return ruleset
    return f"{ruleset} with " + ", ".join(f"{key}={value}" for key, value in switches.items())


def game_modules(catalog: Catalog, game: str) -> dict[str, Module]:
    """Every module the game's installed sets declare, by id, in the sets' order."""
    return {module.id: module for loaded in catalog.sets.values()
            if loaded.card_set.game == game for module in loaded.card_set.modules}


def module_title(module: Module) -> str:
    """`A. Duel outside the Black Dog Saloon`: the module as the rule sheet names it."""
    return f"{module.letter}. {module.name}" if module.letter else module.name


def _spellings(module: Module) -> set[str]:
    """What a player may type for a module: its letter (`A`, `Module A`), its id or its name,
    case, spaces and punctuation not counting (`saloon duel` is `saloon-duel`)."""
    names = {module.id, module.name, module_title(module)}
    if module.letter:
        names |= {module.letter, f"module {module.letter}"}
    return {normalized(name) for name in names}


def read_modules(texts: Sequence[str], catalog: Catalog, game: str) -> tuple[str, ...]:
    """Modules given by letter, id or name, as their ids (each once, in the order given); an
    unknown or ambiguous one is one line naming the choices."""
    known = game_modules(catalog, game)
    chosen: list[str] = []
    for text in texts:
        wanted = normalized(text)
        found = [module_id for module_id, module in known.items()
                 if wanted and wanted in _spellings(module)]
        if len(found) != 1:
            choices = "; ".join(f"{module_title(module)} ({module_id})"
                                for module_id, module in known.items()) or "none installed"
            said = "is ambiguous" if found else "is no module"
            raise UnknownModuleError(
                f"--module {text!r} {said} of {game}",
                fix=f"give a letter, id or name: {choices} (see `deckbuilder rules --game "
                    f"{game}`)")
        if found[0] not in chosen:
            chosen.append(found[0])
    return tuple(chosen)


def module_titles(catalog: Catalog, game: str, module_ids: Sequence[str]) -> dict[str, str]:
    """module id -> its title (`A. Duel outside the Black Dog Saloon`), for reports."""
    known = game_modules(catalog, game)
    return {module_id: module_title(known[module_id]) if module_id in known else module_id
            for module_id in module_ids}
