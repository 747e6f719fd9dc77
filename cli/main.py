"""The ``exhibition`` console script. Every command: ``--format``, help, logs on stderr only."""

from __future__ import annotations

from dataclasses import replace

import click

from cli.common import (BadInput, OneLineErrors, RuleOverrides, deal_options, emit_json, format_option, output_file,
                        positive_seconds, resolve_deal, rule_options)
from cli.render import breakdown_text, card_codes, hall_text, market_table
from cli.svg import write_hall_svg
from solver.cards import Continent, card
from solver.deck import default_deck
from solver.engine import Game
from solver.notation import format_deal, format_state
from solver.errors import ExhibitionError
from solver.plan import load_plan, plan_to_json, replay
from solver.solve import Solution, check_take_sequence, solve
from solver.cells import solve_by_cells
from solver.tree import solve_tree, write_tree
from cli.batch import batch_command
from cli.daily import check_command, daily_command
from cli.hinting import hint_command, review_command
from cli.play import play_command


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="exhibition-solver")
def main() -> None:
    """Exhibition: 20th Century - rules engine, solver and puzzles for the solo game.

    Errors are one line on stderr with exit status 2.
    """


@main.command()
@deal_options
@rule_options
@format_option()
def deal(deal_path: str | None, seed: int | None, deck_path: str | None, overrides: RuleOverrides, fmt: str) -> None:
    """Show a deal's market columns and the top of the stock."""
    the_deal = resolve_deal(deal_path, seed, deck_path, overrides)
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
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), callback=output_file, help="Draw the final hall as an SVG picture.")
@rule_options
@format_option()
def replay_command(deal_path: str, plan_path: str, svg_path: str | None, overrides: RuleOverrides, fmt: str) -> None:
    """Replay a plan through the rules engine; print the final score and breakdown."""
    the_deal = resolve_deal(deal_path, None, overrides=overrides)
    game = Game(the_deal)
    outcome = replay(game, load_plan(plan_path, game.layout))
    if svg_path:
        write_hall_svg(svg_path, game, outcome.final, outcome.breakdown, f"Replayed plan: {outcome.score}")
    if fmt == "json":
        emit_json({"score": outcome.score, "breakdown": outcome.breakdown.as_dict(), "turns": outcome.turns})
        return
    click.echo(hall_text(game, outcome.final))
    click.echo()
    click.echo(breakdown_text(outcome.breakdown, fmt))
    click.echo(f"\nscore {outcome.score} after {outcome.turns} turns")


def _solution_json(game: Game, solution: Solution, with_bound: bool) -> dict:
    out = {"score": solution.score}
    if with_bound:
        out.update(bound=solution.bound, status=solution.status)
    out["plan"] = plan_to_json(solution.plan, game.layout)["plan"]
    out["breakdown"] = solution.outcome.breakdown.as_dict()
    if with_bound:
        out["seconds"] = round(solution.seconds, 3)
    return out


def _show_solution(game: Game, solution: Solution, fmt: str, with_bound: bool) -> None:
    if fmt == "json":
        emit_json(_solution_json(game, solution, with_bound))
        return
    for number, move in enumerate(plan_to_json(solution.plan, game.layout)["plan"], 1):
        extra = "".join(f" {k}={v if not isinstance(v, dict) else ','.join(map(str, v.values()))}" for k, v in move.items()
                        if k not in ("take", "place"))
        click.echo(f"{number:>2}. take {move['take']:<7} -> {move['place']}{extra}")
    click.echo()
    click.echo(hall_text(game, solution.outcome.final))
    click.echo()
    click.echo(breakdown_text(solution.outcome.breakdown, fmt))
    status = f" ({solution.status}, bound {solution.bound}, {solution.seconds:.2f}s)" if with_bound else ""
    click.echo(f"\nscore {solution.score}{status}")


@main.command()
@click.option("--deal", "deal_path", required=True, type=click.Path(dir_okay=False), help="Deal file (JSON).")
@click.option("--takes", required=True, help="The cards taken, in turn order, comma-separated: 1903NA,1945,...")
@click.option("--time-limit", type=float, default=None, callback=positive_seconds, help="Seconds (default: none).")
@rule_options
@format_option()
def place(deal_path: str, takes: str, time_limit: float | None, overrides: RuleOverrides, fmt: str) -> None:
    """Best placement (spots, depot, END, white declarations) of a known take sequence."""
    game = Game(resolve_deal(deal_path, None, overrides=overrides))
    try:
        cards = [card(t) for t in takes.split(",") if t.strip()]
    except ExhibitionError as exc:
        raise BadInput(f"--takes: {exc}") from None
    if not cards:
        raise BadInput("--takes: no card given")
    check_take_sequence(game, cards)
    _show_solution(game, solve(game, takes=cards, time_limit=time_limit), fmt, with_bound=False)


@main.command(name="solve")
@deal_options
@click.option("--time-limit", type=float, default=60.0, show_default=True, callback=positive_seconds,
              help="Stop after this many seconds with the best plan and its bound.")
@click.option("--workers", type=click.IntRange(1, 64), default=8, show_default=True,
              help="CP-SAT search workers (a portfolio: more than the cores still helps proofs).")
@click.option("--method", type=click.Choice(["cells", "cpsat", "tree"]), default="cells", show_default=True,
              help="cells: dives from a greedy game (the warm start's beams, their best sequences "
                   "placed exactly) and the score split into item cells, each refuted or searched "
                   "(solver/cells.py; proves the most); cpsat: one CP-SAT model of the whole game; tree: a "
                   "search tree over the first takes, CP-SAT below.")
@click.option("--depth", type=click.IntRange(1, 4), default=1, show_default=True, help="Tree method: turns expanded.")
@click.option("--tree", "tree_path", type=click.Path(dir_okay=False), callback=output_file,
              help="Tree method: write the explored tree (GraphML if FILE ends in .graphml, else JSON).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), callback=output_file, help="Draw the best line's final hall as SVG.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@rule_options
@format_option()
def solve_command(deal_path: str | None, seed: int | None, deck_path: str | None, time_limit: float, workers: int,
                  method: str, depth: int, tree_path: str | None, svg_path: str | None, quiet: bool,
                  overrides: RuleOverrides, fmt: str) -> None:
    """Best solo score of a deal over every legal line of play, with its plan and bound."""
    game = Game(resolve_deal(deal_path, seed, deck_path, overrides))
    if tree_path is not None and method != "tree":
        raise BadInput("--tree needs --method tree")
    if method == "tree":
        search = solve_tree(game, depth=depth, time_limit=time_limit, workers=workers, progress=not quiet)
        solution = replace(search.solution, bound=search.bound, status=search.status, seconds=search.seconds)
        if tree_path is not None:
            write_tree(search.graph, tree_path)
    elif method == "cells":
        solution = solve_by_cells(game, time_limit=time_limit, workers=workers, progress=not quiet).solution
    else:
        solution = solve(game, time_limit=time_limit, workers=workers, progress=not quiet)
    if svg_path:
        title = f"Best line: {solution.score} ({solution.status}, bound {solution.bound})"
        write_hall_svg(svg_path, game, solution.outcome.final, solution.outcome.breakdown, title)
    _show_solution(game, solution, fmt, with_bound=True)


main.add_command(hint_command)
main.add_command(daily_command)
main.add_command(check_command)
main.add_command(play_command)
main.add_command(batch_command)
main.add_command(review_command)


if __name__ == "__main__":  # python -m cli.main, as the installed exhibition command
    main(prog_name="exhibition")
