"""What every command shares: one-line errors with exit 2, ``--format``, loading a deal."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from solver.deal import Deal, load_deal, seeded_deal
from solver.deck import default_deck, load_deck
from solver.errors import ExhibitionError

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
        if isinstance(result, int):
            sys.exit(result)
        return result


def format_option(choices: tuple[str, ...] = FORMATS) -> Any:
    return click.option(
        "--format", "fmt", type=click.Choice(choices), default="text", show_default=True,
        help="text for people, json for tools (one JSON object on stdout), table for a tabulated view.",
    )


def emit_json(obj: object) -> None:
    """Write exactly one JSON object on stdout."""
    click.echo(json.dumps(obj, separators=(", ", ": ")))


def resolve_deal(deal_path: str | None, seed: int | None, deck_path: str | None = None) -> Deal:
    """The deal of ``--deal FILE`` or ``--seed N`` (exactly one of them)."""
    if (deal_path is None) == (seed is None):
        raise BadInput("give exactly one of --deal FILE or --seed N")
    if deal_path is not None:
        return load_deal(deal_path)
    deck = load_deck(deck_path) if deck_path else default_deck()
    return seeded_deal(seed, deck=deck)


def deal_options(func: Any) -> Any:
    """``--deal FILE`` / ``--seed N`` / ``--deck FILE``."""
    func = click.option("--deck", "deck_path", type=click.Path(dir_okay=False), help="Deck CSV for --seed (default: the shipped deck).")(func)
    func = click.option("--seed", type=int, help="Deal by shuffling the deck with this seed (the same on every machine).")(func)
    func = click.option("--deal", "deal_path", type=click.Path(dir_okay=False), help='Deal file: JSON {"deal": [card codes], "rules": {...}}.')(func)
    return func
