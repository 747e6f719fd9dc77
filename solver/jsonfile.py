"""Reading the project's JSON files (deals, plans) with one-line errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path

from solver.errors import ExhibitionError


def read_json(path: str | Path, what: str, error: type[ExhibitionError]) -> object:
    """The parsed JSON of ``path``; unreadable or malformed files raise ``error``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {what} file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise error(f"{what} file {path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} file {path}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
