"""Known-deal hints along a proven line: how often the best option is exact and at the optimum.

    python benchmarks/hints_known.py                       # seeds 1-12, the start, 15 s a hint
    python benchmarks/hints_known.py --deals 6 --budget 5 --turns 2,4,6,8,10

Each deal's optimum is proven first by the proof by cells (``--optimum-limit`` seconds; a
deal it does not prove is left out). At each position of its proven line asked for (the take
decision of each turn in ``--turns``, 0 being the deal's start, and the place decision after
that take; at the start the take decision only), the hint (``solver.hints.hint_known``) is
asked two ways, one after the other: as landed (the position solved first: by cells at the
start, with a budget of 10 s or more, by the whole-game model later) and the baseline,
every option solved on its share of the budget. The position lies on a proven line, so the
best option's value should be the deal's optimum.
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
from solver.moves import Turn  # noqa: E402
from solver.state import State  # noqa: E402

WAYS = ("landed", "baseline")


def best_option(game: Game, state: State, budget: float, way: str) -> hints.Option:
    """The best option of the hint at ``state``, ``way`` landed or baseline (no solve of the
    position first)."""
    landed = hints.START_PROOF_SECONDS, hints.POSITION_SHARE
    if way == "baseline":
        hints.START_PROOF_SECONDS, hints.POSITION_SHARE = float("inf"), 0.0
    try:
        return hints.hint_known(game, state, budget).best
    finally:
        hints.START_PROOF_SECONDS, hints.POSITION_SHARE = landed


def positions(game: Game, line: list[Turn], turns: list[int]) -> list[tuple[str, State]]:
    """The positions along ``line`` at the given turns (0-based): the take decision, then
    the place decision after the line's take (not at the deal's start, whose proof differs)."""
    out, state = [], game.initial_state()
    for turn, played in enumerate(line):
        if turn in turns:
            out.append((f"turn {turn} take", state))
            if turn > 0:
                out.append((f"turn {turn} place", game.apply_take(state, played.take)))
        state = game.apply_turn(state, played)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--budget", type=float, default=15.0, help="seconds a hint")
    parser.add_argument("--turns", default="0", help="turns of the proven line, comma-separated (0: the start)")
    parser.add_argument("--optimum-limit", type=float, default=60.0, help="seconds to prove each deal's optimum")
    args = parser.parse_args()
    turns = [int(t) for t in args.turns.split(",")]
    rows, exact, at_optimum, asked = [], dict.fromkeys(WAYS, 0), dict.fromkeys(WAYS, 0), 0
    for seed in range(1, args.deals + 1):
        game = Game(seeded_deal(seed))
        optimum = solve_by_cells(game, args.optimum_limit).solution
        if optimum.status != "optimal":
            print(f"seed {seed}: optimum not proven within {args.optimum_limit:g} s, left out", file=sys.stderr)
            continue
        for name, state in positions(game, optimum.plan, turns):
            asked += 1
            row = [seed, name, optimum.score]
            for way in WAYS:
                best = best_option(game, state, args.budget, way)
                exact[way] += best.exact
                at_optimum[way] += best.value == optimum.score
                row += [f"{best.value:.0f}", best.bound, "yes" if best.exact else ""]
            rows.append(row)
        print(f"seed {seed} done", file=sys.stderr, flush=True)
    headers = ["seed", "position", "optimum"] + [f"{way} {column}" for way in WAYS for column in ("value", "bound", "exact")]
    print(tabulate(rows, headers=headers, tablefmt="github"))
    print()
    print(tabulate([[way, f"{exact[way]}/{asked}", f"{at_optimum[way]}/{asked}"] for way in WAYS],
                   headers=["way", "best option exact", "best option at the optimum"], tablefmt="github"))


if __name__ == "__main__":
    main()
