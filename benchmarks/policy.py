"""How good are the hints? Play fixed seeded deals with the stock hidden, three ways, beside
the clairvoyant optimum of each deal (the whole deal known, solved as ``exhibition solve``
does: ``solver.cells.solve_by_cells``).

    python benchmarks/policy.py                       # 20 deals, 5 s per decision
    python benchmarks/policy.py --deals 3 --budget 2  # a quick look

Policies (none of them sees the stock order):
- ``hint``: at every decision (take, then place) the hidden-stock hint of ``solver.hints``
  with the given budget; it plays the best option.
- ``greedy``: the take and placement with the best immediate score (``solver.greedy``).
- ``random``: a uniformly random legal take and placement (one option per spot).

Prints per deal the final scores, then each policy's mean and mean as a percentage of the
clairvoyant mean, and the hint policy's mean and worst seconds per decision. Beside the hint
policy, ``hint takes``: its own take sequence placed exactly with hindsight (``solve`` with
the takes fixed), which splits what it loses into takes (clairvoyant minus this) and
placements (this minus its score).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from solver.cards import Card  # noqa: E402
from solver.cells import solve_by_cells  # noqa: E402
from solver.deal import seeded_deal  # noqa: E402
from solver.deck import default_deck  # noqa: E402
from solver.engine import Game  # noqa: E402
from solver.greedy import greedy_turn  # noqa: E402
from solver.hints import hint_hidden  # noqa: E402
from solver.scoring import solo_breakdown  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.validate import hidden_stock  # noqa: E402

SEEDS = list(range(101, 121))
HINDSIGHT_LIMIT = 30.0  # seconds for placing the hint policy's takes exactly (most are proven in well under 1 s)


def play_hint(game: Game, budget: float, samples: int, timings: list[tuple[float, str]],
              seed: int) -> tuple[int, list[Card]]:
    """The hint policy's final score, and the cards it took in order."""
    deck = default_deck()
    state = game.initial_state()
    takes = []
    while not state.is_over:
        for _ in range(2):  # the take decision, then the place decision
            began = time.perf_counter()
            found = hint_hidden(game, state, hidden_stock(state, deck), budget, samples, seed=state.turn)
            move = found.best.move  # a white card's spot comes with the declaration its samples picked
            decision = "take" if state.holding is None else f"place {state.holding}"
            timings.append((time.perf_counter() - began, f"deal {seed}, turn {state.turn + 1}, {decision}"))
            if state.holding is None:
                takes.append(move.card)
                state = game.apply_take(state, move)
            else:
                state = game.apply_place(state, move)
    return solo_breakdown(game, state).total, takes


def play_greedy(game: Game) -> int:
    state = game.initial_state()
    while not state.is_over:
        state = game.apply_turn(state, greedy_turn(game, state))
    return solo_breakdown(game, state).total


def play_random(game: Game, seed: int) -> int:
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.is_over:
        after = game.apply_take(state, rng.choice(game.legal_takes(state)))
        state = game.apply_place(after, rng.choice(game.place_options(after)))
    return solo_breakdown(game, state).total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=len(SEEDS))
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per decision for the hint policy")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--optimum-limit", type=float, default=60.0, help="seconds for each clairvoyant solve")
    args = parser.parse_args()
    rows, timings = [], []
    for seed in SEEDS[: args.deals]:
        game = Game(seeded_deal(seed))
        best = solve_by_cells(game, time_limit=args.optimum_limit).solution
        hint, takes = play_hint(game, args.budget, args.samples, timings, seed)
        hindsight = solve(game, takes=takes, time_limit=HINDSIGHT_LIMIT)
        row = [seed, best.score, best.status, hint, hindsight.score, play_greedy(game), play_random(game, seed)]
        rows.append(row)
        print("  " + "  ".join(map(str, row)), file=sys.stderr, flush=True)
    print(tabulate(rows, headers=["seed", "clairvoyant", "status", "hint", "hint takes", "greedy", "random"],
                   tablefmt="github"))
    clair = statistics.mean(r[1] for r in rows)
    summary = [["clairvoyant", f"{clair:.0f}", "100.0%"]]
    for name, k in (("hint", 3), ("hint takes", 4), ("greedy", 5), ("random", 6)):
        mean = statistics.mean(r[k] for r in rows)
        summary.append([name, f"{mean:.0f}", f"{100 * mean / clair:.1f}%"])
    print()
    print(tabulate(summary, headers=["policy", "mean score", "% of clairvoyant"], tablefmt="github"))
    proven = sum(1 for r in rows if r[2] == "optimal")
    print(f"\nclairvoyant proven optimal on {proven}/{len(rows)} deals (else best found, a lower bound)")
    worst = max(timings)
    print(f"hint policy: {len(timings)} decisions, {statistics.mean(t for t, _ in timings):.2f} s mean, "
          f"{worst[0]:.2f} s worst ({worst[1]}; budget {args.budget} s)")


if __name__ == "__main__":
    main()
