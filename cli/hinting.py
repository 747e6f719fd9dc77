"""``exhibition hint`` and ``exhibition review``: options ranked by value, and a played game
graded move by move (``solver/hints.py`` does the valuing)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import click
from tabulate import tabulate

from cli.common import BadInput, RuleOverrides, emit_json, format_option, positive_seconds, rule_options
from cli.render import value_precision
from puzzles.daily import deal_optimum, proven_line
from solver.deal import FULL_DEAL, Deal, load_deal
from solver.deck import Deck, default_deck, load_deck
from solver.engine import Game
from solver.hints import Hint, Option, hint_hidden, hint_known, move_json, move_text, same_option
from solver.notation import format_state, parse_state
from solver.plan import load_plan, replay
from solver.state import State
from solver.validate import check_against_deal, check_solo_state, hidden_stock

# Grades of a played option by its loss against the best option (x100 points, RULES.md 6).
GRADES = ((0, "best"), (50, "good"), (150, "inaccuracy"), (400, "mistake"))
BLUNDER = "blunder"


def grade(loss: float) -> str:
    """best: no loss; good: under half a fame point; inaccuracy: under 1.5; mistake: under 4;
    blunder: 4 fame points (400) or more."""
    for limit, name in GRADES:
        if loss <= limit if limit == 0 else loss < limit:
            return name
    return BLUNDER


def _hidden_contents(state: State, deal: Deal | None, deck: Deck) -> list:
    """What the hidden stock holds: the rest of a full deal, else the deck minus what is seen."""
    if deal is not None and len(deal.cards) == FULL_DEAL:
        seen = set(state.visible_cards())
        return sorted((c for c in deal.cards if c not in seen), key=lambda c: c.sort_key())
    return hidden_stock(state, deck)




def _option_json(game: Game, option: Option, mode: str) -> dict:
    out = {"move": move_json(option.move, game), "value": round(option.value, 1) if mode == "hidden" else int(option.value),
           "loss": round(option.loss, 1) if mode == "hidden" else int(option.loss), "stderr": None}
    if mode == "hidden":
        out["stderr"] = round(option.stderr, 1)
        out["samples"] = option.samples
    else:
        out.update(bound=option.bound, exact=option.exact)
    return out


def _resolve_rules(state_rules, deal: Deal | None, overrides: RuleOverrides):
    if deal is not None and deal.rules != state_rules and deal.rules != type(state_rules)():
        raise BadInput("the state's rules and the deal file's rules differ; give the rules with --variation etc.")
    return overrides.apply(state_rules)


@click.command(name="hint")
@click.option("--state", "state_text", required=True, help="Game state notation (see `exhibition deal`).")
@click.option("--deal", "deal_path", type=click.Path(dir_okay=False),
              help="The deal (JSON): the stock order is known and values are exact (puzzle mode). Without it the stock is hidden.")
@click.option("--budget", type=float, default=5.0, show_default=True, callback=positive_seconds,
              help="Seconds for the whole hint (a known deal's start: with 10 s or more the deal is proven first).")
@click.option("--samples", type=click.IntRange(1, 10_000), default=16, show_default=True,
              help="Hidden stock: at most this many sampled stock orders (fewer if the budget runs out).")
@click.option("--seed", type=int, default=0, show_default=True, help="Hidden stock: seed of the sampled orders.")
@click.option("--deck", "deck_path", type=click.Path(dir_okay=False), help="Hidden stock: the deck CSV (default: the shipped deck).")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="CP-SAT workers per solve (hidden stock: placements run this many at a time, one worker each).")
@rule_options
@format_option()
def hint_command(state_text: str, deal_path: str | None, budget: float, samples: int, seed: int, deck_path: str | None,
                 workers: int, overrides: RuleOverrides, fmt: str) -> None:
    """Every legal option at the current decision, best first, with its value and loss."""
    state, state_rules = parse_state(state_text)
    deal = load_deal(deal_path) if deal_path else None
    rules = _resolve_rules(state_rules, deal, overrides)
    check_solo_state(state, rules)
    deck = load_deck(deck_path) if deck_path else default_deck()
    if deal is not None:
        check_against_deal(state, deal)
        game, mode = Game(replace(deal, rules=rules)), "known"
    else:
        game, mode = Game(Deal(tuple(state.visible_cards()) + tuple(hidden_stock(state, deck)), rules)), "hidden"
    if mode == "known":
        found = hint_known(game, state, budget, workers, optimal_line=proven_line(game.deal))
    else:
        found = hint_hidden(game, state, hidden_stock(state, deck), budget, samples, seed, workers)
    if fmt == "json":
        emit_json({"decision": found.decision, "mode": found.mode,
                   "options": [_option_json(game, o, mode) for o in found.options],
                   "samples": found.samples, "seconds": round(found.seconds, 3), "state": format_state(state, rules)})
        return
    rows = []
    for rank, o in enumerate(found.options, 1):
        rows.append([rank, move_text(o.move, game), f"{o.value:.0f}", f"{o.loss:.0f}", value_precision(o, mode)])
    headers = ["#", found.decision, "value", "loss", "stderr" if mode == "hidden" else "proof"]
    click.echo(tabulate(rows, headers=headers, tablefmt="github" if fmt == "table" else "simple"))
    what = f"{found.samples} sampled stock orders" if mode == "hidden" else "the deal known"
    click.echo(f"\n{mode} mode ({what}), {found.seconds:.1f}s")


@dataclass(frozen=True)
class Judged:
    """One decision of a played game, judged in one mode."""

    best: Option
    played: Option

    @property
    def loss(self) -> float:
        return max(0.0, self.best.value - self.played.value)


def judge(hint: Hint, played_move) -> Judged:
    played = next(o for o in hint.options if same_option(o.move, played_move))
    return Judged(hint.best, played)


@click.command(name="review")
@click.option("--deal", "deal_path", required=True, type=click.Path(dir_okay=False), help="Deal file (JSON).")
@click.option("--plan", "plan_path", required=True, type=click.Path(dir_okay=False), help="The played game (plan file).")
@click.option("--budget", type=float, default=2.0, show_default=True, callback=positive_seconds,
              help="Seconds per decision and mode (the optimum, proven first, gets 20 times this).")
@click.option("--samples", type=click.IntRange(1, 10_000), default=8, show_default=True, help="Hidden stock: sampled orders.")
@click.option("--seed", type=int, default=0, show_default=True, help="Hidden stock: seed of the sampled orders.")
@click.option("--deck", "deck_path", type=click.Path(dir_okay=False), help="Hidden stock: the deck CSV (default: the shipped deck).")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="CP-SAT workers per solve (hidden stock: placements run this many at a time, one worker each).")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@rule_options
@format_option()
def review_command(deal_path: str, plan_path: str, budget: float, samples: int, seed: int, deck_path: str | None,
                   workers: int, quiet: bool, overrides: RuleOverrides, fmt: str) -> None:
    """Move-by-move review of a played solo game: best option, played option, loss and grade,
    with the deal known (hindsight) and as the player saw it (stock hidden)."""
    deal = load_deal(deal_path)
    game = Game(replace(deal, rules=overrides.apply(deal.rules)))
    turns = load_plan(plan_path, game.layout)
    outcome = replay(game, turns)
    deck = load_deck(deck_path) if deck_path else default_deck()
    if not quiet:
        click.echo(f"  the optimum (at most {20 * budget:g} s)", err=True)
    optimum, status, bound, optimal_line = deal_optimum(game, 20 * budget, reached=outcome.score)
    if not quiet:
        click.echo(f"  the optimum: {optimum} ({status}, bound {bound})", err=True)
    rows = []
    for number, (turn, before) in enumerate(zip(turns, outcome.states), 1):
        held = game.apply_take(before, turn.take)
        for decision, state, move in (("take", before, turn.take), ("place", held, turn.place)):
            row = {"turn": number, "decision": decision, "played": move_json(move, game)}
            hints = {"known": hint_known(game, state, budget, workers, optimal_line=optimal_line),
                     "hidden": hint_hidden(game, state, _hidden_contents(state, deal, deck), budget, samples, seed, workers)}
            for mode, found in hints.items():
                judged = judge(found, move)
                row[mode] = {"best": move_json(judged.best.move, game), "best_value": round(judged.best.value, 1),
                             "played_value": round(judged.played.value, 1), "loss": round(judged.loss, 1),
                             "grade": grade(judged.loss)}
            rows.append(row)
            if not quiet:
                click.echo(f"  turn {number} {decision}: {row['known']['grade']} / {row['hidden']['grade']}", err=True)
    summary = {"score": outcome.score, "optimum": optimum, "optimum_status": status, "bound": bound,
               "total_loss": optimum - outcome.score,
               "known_loss": round(sum(r["known"]["loss"] for r in rows), 1),
               "hidden_loss": round(sum(r["hidden"]["loss"] for r in rows), 1)}
    if fmt == "json":
        emit_json({"decisions": rows, "summary": summary})
        return
    table = [[r["turn"], r["decision"], _short(r["played"]), _short(r["known"]["best"]), f"{r['known']['loss']:.0f}",
              r["known"]["grade"], _short(r["hidden"]["best"]), f"{r['hidden']['loss']:.0f}", r["hidden"]["grade"]]
             for r in rows]
    headers = ["turn", "decision", "played", "best (known)", "loss", "grade", "best (hidden)", "loss", "grade"]
    click.echo(tabulate(table, headers=headers, tablefmt="github" if fmt == "table" else "simple"))
    proven = "proven optimum" if status == "optimal" else f"best found (bound {bound})"
    click.echo(f"\nscore {outcome.score}; {proven} {optimum}; total loss {summary['total_loss']} "
               f"(sum of decision losses: known {summary['known_loss']:.0f}, hidden {summary['hidden_loss']:.0f})")


def _short(move: dict) -> str:
    if "take" in move:
        return move["take"] + (f">{move['to']}" if "to" in move else "")
    return move["place"]
