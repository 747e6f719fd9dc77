"""Known-deal hints at a deal's start: how often the best option is exact and at the optimum.

    python benchmarks/hints_known.py                       # seeds 1-12, 15 s a hint
    python benchmarks/hints_known.py --deals 6 --budget 10

Per deal, the first decision's hint (``solver.hints.hint_known``) two ways, one after the
other: as landed (with a budget of 10 s or more, the proof by cells gets 0.6 of it first)
and the baseline, every option solved on its share of the budget (the start proof off).
Each best option's value is compared with the deal's optimum, proven beforehand by the
proof by cells (``--optimum-limit`` seconds; a deal it does not prove is left out).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

import solver.hints as hints  # noqa: E402
from solver.cells import solve_by_cells  # noqa: E402
from solver.deal import seeded_deal  # noqa: E402
from solver.engine import Game  # noqa: E402

WAYS = ("landed", "baseline")


def first_hint(game: Game, budget: float, way: str) -> hints.Option:
    """The best option of the hint at the deal's start, ``way`` landed or baseline."""
    landed = hints.START_PROOF_SECONDS
    hints.START_PROOF_SECONDS = landed if way == "landed" else float("inf")
    try:
        return hints.hint_known(game, game.initial_state(), budget).best
    finally:
        hints.START_PROOF_SECONDS = landed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=float, default=15.0, help="seconds a hint")
    parser.add_argument("--optimum-limit", type=float, default=60.0, help="seconds to prove each deal's optimum")
    args = parser.parse_args()
    rows, exact, at_optimum, deals = [], dict.fromkeys(WAYS, 0), dict.fromkeys(WAYS, 0), 0
    for seed in range(1, args.deals + 1):
        game = Game(seeded_deal(seed))
        optimum = solve_by_cells(game, args.optimum_limit).solution
        if optimum.status != "optimal":
            print(f"seed {seed}: optimum not proven within {args.optimum_limit:g} s, left out", file=sys.stderr)
            continue
        deals += 1
        row = [seed, optimum.score]
        for way in WAYS:
            best = first_hint(game, args.budget, way)
            exact[way] += best.exact
            at_optimum[way] += best.value == optimum.score
            row += [f"{best.value:.0f}", best.bound, "yes" if best.exact else ""]
        rows.append(row)
        print(f"seed {seed} done", file=sys.stderr, flush=True)
    headers = ["seed", "optimum"] + [f"{way} {column}" for way in WAYS for column in ("value", "bound", "exact")]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    print()
    print(tabulate([[way, f"{exact[way]}/{deals}", f"{at_optimum[way]}/{deals}"] for way in WAYS],
                   headers=["way", "best option exact", "best option at the optimum"], tablefmt="github"))


if __name__ == "__main__":
    main()
