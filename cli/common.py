"""What every command shares: one-line errors with exit 2, ``--format``, loading a deal."""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from dataclasses import replace

from solver.deal import Deal, load_deal, seeded_deal
from solver.deck import default_deck, load_deck
from solver.errors import ExhibitionError
from solver.rules import Rules, parse_variations

EXIT_BAD_INPUT = 2
FORMATS = ("text", "json", "table")


class BadInput(click.ClickException):
    """Bad input of any kind: one line on stderr, exit status 2."""

    exit_code = EXIT_BAD_INPUT


class OneLineErrors(click.Group):
    """A click group whose every error, its own usage errors included, is one line and exit 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:  # noqa: D102 - click API
        kwargs["standalone_mode"] = False
        try:
            result = super().main(*args, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("exhibition: aborted", err=True)
            sys.exit(1)
        except click.ClickException as exc:
            message = " ".join(exc.format_message().split())
            click.echo(f"exhibition: error: {message}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except ExhibitionError as exc:
            click.echo(f"exhibition: error: {' '.join(str(exc).split())}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except OSError as exc:  # a file that cannot be read or written: name it, no traceback
            click.echo(f"exhibition: error: {exc.filename or 'file'}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        if isinstance(result, int):
            sys.exit(result)
        return result


def format_option(choices: tuple[str, ...] = FORMATS) -> Any:
    return click.option(
        "--format", "fmt", type=click.Choice(choices), default="text", show_default=True,
        help="text for people, json for tools (one JSON object on stdout), table for a tabulated view.",
    )


def positive_seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Click callback: a time option must be a positive, finite number of seconds."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a positive number of seconds", ctx, param)
    return value


def output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Click callback: a file to write must have an existing, writable folder, checked
    before the work (a solve of minutes) rather than when the file is written after it."""
    if value is not None:
        folder = Path(value).parent
        if not folder.is_dir():
            raise click.BadParameter(f"{value}: there is no folder {folder}", ctx, param)
        if not os.access(folder, os.W_OK):
            raise click.BadParameter(f"{value}: the folder {folder} is not writable", ctx, param)
    return value


def emit_json(obj: object) -> None:
    """Write exactly one JSON object on stdout."""
    click.echo(json.dumps(obj, separators=(", ", ": ")))


def resolve_deal(deal_path: str | None, seed: int | None, deck_path: str | None = None,
                 overrides: RuleOverrides | None = None) -> Deal:
    """The deal of ``--deal FILE`` or ``--seed N`` (exactly one of them), with the rule
    options of the command line in place of the deal file's."""
    if (deal_path is None) == (seed is None):
        raise BadInput("give exactly one of --deal FILE or --seed N")
    if deal_path is not None:
        the_deal = load_deal(deal_path)
    else:
        deck = load_deck(deck_path) if deck_path else default_deck()
        the_deal = seeded_deal(seed, deck=deck)
    return replace(the_deal, rules=overrides.apply(the_deal.rules)) if overrides else the_deal


class RuleOverrides:
    """``--variation NAME`` (repeatable), ``--secret-decade D``, ``--depot-full-ends-game``:
    each one given replaces the same choice of the deal file; the others are kept."""

    def __init__(self, variations: tuple[str, ...], secret_decade: int | None, depot_full_ends_game: bool | None) -> None:
        self.variations = variations
        self.secret_decade = secret_decade
        self.depot_full_ends_game = depot_full_ends_game

    def apply(self, rules: Rules) -> Rules:
        variations = parse_variations(list(self.variations)) if self.variations else rules.variations
        decade = rules.secret_decade if self.secret_decade is None else self.secret_decade
        depot = rules.depot_full_ends_game if self.depot_full_ends_game is None else self.depot_full_ends_game
        return Rules(variations, decade, depot, rules.solo_unique_decades)


def _secret_decade(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and not 0 <= value <= 9:
        raise click.BadParameter(f"{value} is outside 0-9 (0 = the 1900s ... 9 = the 1990s)", ctx, param)
    return value


def rule_options(func: Any) -> Any:
    """The rule options; the command receives them as one ``overrides`` argument."""
    @functools.wraps(func)
    def command(*args: Any, variations: tuple[str, ...], secret_decade: int | None,
                depot_full_ends_game: bool | None, **kwargs: Any) -> Any:
        return func(*args, overrides=RuleOverrides(variations, secret_decade, depot_full_ends_game), **kwargs)

    options = click.option("--depot-full-ends-game/--no-depot-full-ends-game", "depot_full_ends_game", default=None,
                           help="Rule option: the game ends as soon as the depot holds 3 cards (default: the deal's).")(command)
    options = click.option("--secret-decade", type=int, callback=_secret_decade,
                           help="Secret decade variant: +100 per hall card of this decade (0-9; default: the deal's).")(options)
    return click.option("--variation", "variations", multiple=True, metavar="NAME",
                        help="Variation showcase (repeatable), replacing the deal's: SPREAD_THE_YEARS, LINKS, "
                             "SHORT_ERA, ONE_DECADE, ANTIQUITY, UNIQUE_DECADES.")(options)


def deal_options(func: Any) -> Any:
    """``--deal FILE`` / ``--seed N`` / ``--deck FILE``."""
    func = click.option("--deck", "deck_path", type=click.Path(dir_okay=False), help="Deck CSV for --seed (default: the shipped deck).")(func)
    func = click.option("--seed", type=int, help="Deal by shuffling the deck with this seed (the same on every machine).")(func)
    func = click.option("--deal", "deal_path", type=click.Path(dir_okay=False), help='Deal file: JSON {"deal": [card codes], "rules": {...}}.')(func)
    return func


def write_atomically(path: str | Path, text: str) -> None:
    """Write the whole file or nothing (a temporary file renamed into place)."""
    path = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.")
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
