"""The ``exhibition`` console script. Every command: ``--format``, help, logs on stderr only."""

from __future__ import annotations

import click

from cli.common import OneLineErrors, deal_options, emit_json, format_option, resolve_deal
from cli.render import breakdown_text, card_codes, hall_text, market_table
from solver.cards import Continent
from solver.deck import default_deck
from solver.engine import Game
from solver.notation import format_deal, format_state
from solver.plan import load_plan, replay


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="exhibition-solver")
def main() -> None:
    """Exhibition: 20th Century - rules engine, solver and puzzles for the solo game.

    Errors are one line on stderr with exit status 2.
    """


@main.command()
@deal_options
@format_option()
def deal(deal_path: str | None, seed: int | None, deck_path: str | None, fmt: str) -> None:
    """Show a deal's market columns and the top of the stock."""
    the_deal = resolve_deal(deal_path, seed, deck_path)
    game = Game(the_deal)
    state = game.initial_state()
    stock_top = the_deal.stock[0] if the_deal.stock else None
    if fmt == "json":
        emit_json({
            **the_deal.to_json(),
            "market": {Continent(i).name: card_codes(col) for i, col in enumerate(state.market)},
            "stock_top": stock_top.code if stock_top else None,
            "state": format_state(state, the_deal.rules),
            "notation": format_deal(the_deal),
        })
        return
    click.echo(market_table(state, default_deck(), fmt))
    click.echo(f"\nstock top: {stock_top.code if stock_top else '-'}   (vehicle on {Continent(state.board.vehicle).name})")
    click.echo(f"state: {format_state(state, the_deal.rules)}")


@main.command(name="replay")
@click.option("--deal", "deal_path", required=True, type=click.Path(dir_okay=False), help="Deal file (JSON).")
@click.option("--plan", "plan_path", required=True, type=click.Path(dir_okay=False), help='Plan file: JSON {"plan": [moves]}.')
@format_option()
def replay_command(deal_path: str, plan_path: str, fmt: str) -> None:
    """Replay a plan through the rules engine; print the final score and breakdown."""
    the_deal = resolve_deal(deal_path, None)
    game = Game(the_deal)
    outcome = replay(game, load_plan(plan_path, game.layout))
    if fmt == "json":
        emit_json({"score": outcome.score, "breakdown": outcome.breakdown.as_dict(), "turns": outcome.turns})
        return
    click.echo(hall_text(game, outcome.final))
    click.echo()
    click.echo(breakdown_text(outcome.breakdown, fmt))
    click.echo(f"\nscore {outcome.score} after {outcome.turns} turns")
