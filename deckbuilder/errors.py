"""Narrow exceptions that carry what went wrong, where, and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class Location:
    path: Path | str
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based

    def __str__(self) -> str:
        text = str(self.path)
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        return text


class DeckbuilderError(Exception):
    """Base of every error a user can cause; the CLI prints it as one line, exit code 2."""

    def __init__(self, message: str, where: Location | None = None, fix: str | None = None):
        super().__init__(message)
        self.message = message
        self.where = where
        self.fix = fix

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.fix:
            text += f" (fix: {self.fix})"
        return text


class DataFileError(DeckbuilderError):
    """A file could not be read or does not have the expected shape."""


class CardDataError(DataFileError):
    """Card-set data is inconsistent (duplicate ids, dangling references, ...)."""


class DeckError(DeckbuilderError):
    """A deck cannot be built or edited as asked."""


class SetInstallError(DeckbuilderError):
    """An expansion could not be installed or removed; nothing was changed."""
