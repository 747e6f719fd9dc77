"""Time to a proven optimum on 30 fixed seeded deals, per method, beside a baseline run in
the same process; and the time to place a known take sequence.

    python benchmarks/solve.py                 # 30 deals, 60 s limit each (about an hour at worst)
    python benchmarks/solve.py --deals 5 --limit 20
    python benchmarks/solve.py --variants --deals 5 --methods cpsat-w8   # the variants section only
    python benchmarks/solve.py --variants --deals 3 --methods cells --sets ONE_DECADE,LINKS

Variants section (``--variants``): the same deals under each single variation, under
two mixed sets and under the secret decade alone, with the CLI's method; per rule set the
median and worst time to proof and how many were proven within the limit.

Methods:
- ``cpsat``: ``solver.solve.solve`` as the CLI runs it (2 workers, fixed seed).
- ``cpsat-w8``: the same with 8 CP-SAT workers time-sliced on the machine's cores.
- ``tree``: ``solver.tree.solve_tree`` (the first take expanded, CP-SAT with a cutoff below).
- ``cells``: ``solver.cells.solve_by_cells`` (wide dives from a greedy game, then
  item cells refuted or searched one by one, with the second wide dive and guided dives in
  turn; 8 workers).
- ``baseline``: the same single CP-SAT model with CP-SAT's default parameters.

An unproven deal counts as ``inf`` in the time columns (so a median over more than half
unproven deals reads ``inf``). Ratios are per-deal time / baseline time, median.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from solver.cells import solve_by_cells  # noqa: E402
from solver.deal import seeded_deal  # noqa: E402
from solver.engine import Game  # noqa: E402
from solver.errors import ExhibitionError  # noqa: E402
from solver.notation import parse_rules  # noqa: E402
from solver.rules import Rules  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.tree import solve_tree  # noqa: E402

SEEDS = list(range(1, 31))
# Each variation alone, two mixed sets, and the secret decade alone: the daily puzzles play
# it one day in seven, and in the sixty-eighth session's batch of 147 dates five of its 23
# days were left open within 60 s, against one of the other 124 (benchmarks/README.md).
VARIANT_SETS = ["SPREAD_THE_YEARS", "LINKS", "SHORT_ERA", "ONE_DECADE", "ANTIQUITY", "UNIQUE_DECADES",
                "LINKS+SHORT_ERA+ANTIQUITY", "SPREAD_THE_YEARS+ONE_DECADE+SD4", "SD4"]


METHODS = ("cpsat", "cpsat-w8", "tree", "cells", "baseline")  # what ``run_method`` runs


def run_method(method: str, game: Game, limit: float):
    if method == "cpsat":
        return solve(game, time_limit=limit, workers=2)
    if method == "cpsat-w8":
        return solve(game, time_limit=limit, workers=8)
    if method == "tree":
        search = solve_tree(game, depth=1, time_limit=limit, workers=8)
        return replace(search.solution, bound=search.bound, status=search.status, seconds=search.seconds)
    if method == "cells":
        return solve_by_cells(game, time_limit=limit, workers=8).solution
    if method == "baseline":
        return solve(game, time_limit=limit, workers=0, warm_start=False)  # 0: CP-SAT picks (its default)
    raise SystemExit(f"unknown method {method}")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def random_takes(game: Game, seed: int) -> list:
    """The take sequence of a random legal game (placement benchmark input)."""
    rng = random.Random(seed)
    state, takes = game.initial_state(), []
    while not state.is_over:
        take = rng.choice(game.legal_takes(state))
        after = game.apply_take(state, take)
        spots = [p for p in game.legal_places(after) if p.is_spot]
        state = game.apply_place(after, rng.choice(spots or game.legal_places(after)))
        takes.append(take.card)
    return takes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=len(SEEDS))
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--methods", default="baseline,cpsat,cpsat-w8,tree")
    parser.add_argument("--variants", action="store_true", help="run the variants section instead")
    parser.add_argument("--sets", default=",".join(VARIANT_SETS),
                        help="--variants: the rule sets, comma-separated (default: all nine)")
    args = parser.parse_args()
    seeds = SEEDS[: args.deals]
    methods = args.methods.split(",")
    if args.variants:
        sets = []
        for text in args.sets.split(","):
            try:
                sets.append((text, parse_rules(text)))
            except ExhibitionError as exc:
                parser.error(f"--sets: {text}: {exc}")
        variants(seeds, methods[0], args.limit, sets)
        return
    times: dict[str, list[float]] = {m: [] for m in methods}
    rows = []
    for seed in seeds:
        game = Game(seeded_deal(seed))
        row = [seed]
        for method in methods:
            solution = run_method(method, game, args.limit)
            proven = solution.status == "optimal"
            times[method].append(solution.seconds if proven else math.inf)
            row += [solution.score, solution.bound, f"{solution.seconds:.1f}" if proven else "-"]
            print(f"seed {seed} {method}: {solution.score}/{solution.bound} {solution.status} {solution.seconds:.1f}s",
                  file=sys.stderr, flush=True)
        rows.append(row)
    headers = ["seed"] + [f"{m} {x}" for m in methods for x in ("score", "bound", "s")]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    print()
    summary = []
    base = times.get("baseline")
    for method in methods:
        ts = times[method]
        ratios = [t / b for t, b in zip(ts, base) if math.isfinite(t) and math.isfinite(b)] if base else []
        summary.append([method, f"{statistics.median(ts):.2f}", f"{quantile(ts, 0.9):.2f}", f"{max(ts):.2f}",
                        f"{sum(math.isfinite(t) and t <= 60 for t in ts)}/{len(ts)}",
                        f"{statistics.median(ratios):.2f}" if ratios else "-"])
    print(tabulate(summary, headers=["method", "median s", "p90 s", "max s", "proven <= 60 s", "median ratio to baseline"],
                   tablefmt="github"))
    placement = []
    for seed in seeds:
        game = Game(seeded_deal(seed))
        takes = random_takes(game, seed)
        start = time.perf_counter()
        solve(game, takes=takes)
        placement.append(time.perf_counter() - start)
    print(f"\nplacement of a known take sequence ({len(placement)} random legal games): "
          f"median {1000 * statistics.median(placement):.0f} ms, max {1000 * max(placement):.0f} ms")


def variants(seeds: list[int], method: str, limit: float, sets: list[tuple[str, Rules]]) -> None:
    """Time to proof of the deals under each rule set (by default each variation and two mixed sets)."""
    rows = []
    for rules_text, rules in sets:
        ts = []
        for seed in seeds:
            solution = run_method(method, Game(seeded_deal(seed, rules)), limit)
            ts.append(solution.seconds if solution.status == "optimal" else math.inf)
            print(f"{rules_text} seed {seed}: {solution.score}/{solution.bound} {solution.status} "
                  f"{solution.seconds:.1f}s", file=sys.stderr, flush=True)
        rows.append([rules_text, f"{statistics.median(ts):.2f}", f"{max(ts):.2f}",
                     f"{sum(math.isfinite(t) for t in ts)}/{len(ts)}"])
    print(tabulate(rows, headers=["rules", "median s", "worst s", f"proven <= {limit:g} s"], tablefmt="github"))


if __name__ == "__main__":
    main()
