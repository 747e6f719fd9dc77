"""Time to place a known take sequence where the hints need it most, beside CP-SAT's default
parameters in the same run.

    python benchmarks/placement.py             # 10 deals, about a minute
    python benchmarks/placement.py --deals 3

The workload is what ``solver.hints`` solves for every option of every sample of an early
*place* decision: the held card put on one spot, then the exact placement of one sampled
stock order's beam line (the game free to stop after any take). The positions are the place
decisions of turns 1, 3 and 5 of greedy games of seeds 201 on; a white held card is left
out (its options are solved with the declaration free, as a whole solve).

Settings, each placement run once per setting, the order alternating:
- ``hints``: ``solver.solve.solve`` as the hints call it (one CP-SAT worker per placement);
- ``baseline``: the same model with CP-SAT's default parameters (all cores).

Prints per setting the median, 90th percentile, maximum and total seconds, how many engine
cuts the placements needed (a plan of the model that the engine refused: the model solved
again), and the median ratio to the baseline.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate  # noqa: E402

from benchmarks.solve import quantile  # noqa: E402

from solver.deal import seeded_deal  # noqa: E402
from solver.deck import default_deck  # noqa: E402
from solver.engine import Game  # noqa: E402
from solver.greedy import greedy_turn  # noqa: E402
from solver.hints import options_at, sampled_game  # noqa: E402
from solver.model import start_of  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.validate import hidden_stock  # noqa: E402
from solver.warmstart import HEURISTIC, beam_candidates  # noqa: E402

FIRST_SEED = 201
TURNS = (1, 3, 5)  # the place decisions measured, counted from 1
BEAM = replace(HEURISTIC, width=200, candidates=1)  # fixed width: the same lines on every machine
SETTINGS = {"hints": 1, "baseline": 0}  # CP-SAT workers (0: CP-SAT's default)


def positions(deals: int):
    """(sampled game, state after the place option, take line) of every place option measured."""
    for seed in range(FIRST_SEED, FIRST_SEED + deals):
        game = Game(seeded_deal(seed))
        state = game.initial_state()
        for turn in range(1, max(TURNS) + 1):
            if state.is_over:
                break
            played = greedy_turn(game, state)
            held = game.apply_take(state, played.take)
            if turn in TURNS and not held.holding.is_white:
                sample = sampled_game(game, held, hidden_stock(held, default_deck()), seed, turn)
                line = [t.card for t in beam_candidates(sample, held, start_of(sample, held).turns, BEAM)[0]]
                for option in options_at(sample, held):
                    after = sample.apply_place(held, option, check=False)
                    if not after.is_over:
                        yield sample, after, line
            state = game.apply_place(held, played.place)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10)
    args = parser.parse_args()
    seconds: dict[str, list[float]] = {name: [] for name in SETTINGS}
    cuts = dict.fromkeys(SETTINGS, 0)
    for number, (game, state, line) in enumerate(positions(args.deals)):
        scores = set()
        for name in (list(SETTINGS) if number % 2 == 0 else list(SETTINGS)[::-1]):
            began = time.perf_counter()
            solution = solve(game, takes=line, state=state, workers=SETTINGS[name], stop_early=True, warm_start=False)
            seconds[name].append(time.perf_counter() - began)
            cuts[name] += solution.cuts
            scores.add((solution.score, solution.status))
        if len(scores) != 1:
            raise SystemExit(f"the settings disagree on a placement: {sorted(scores)}")
    base = seconds["baseline"]
    rows = []
    for name, ts in seconds.items():
        ratio = statistics.median(t / b for t, b in zip(ts, base))
        rows.append([name, len(ts), f"{1000 * statistics.median(ts):.0f}", f"{1000 * quantile(ts, 0.9):.0f}",
                     f"{1000 * max(ts):.0f}", f"{sum(ts):.2f}", cuts[name], f"{ratio:.2f}"])
    print(tabulate(rows, headers=["setting", "placements", "median ms", "p90 ms", "max ms", "total s", "engine cuts",
                                  "median ratio to baseline"], tablefmt="github"))


if __name__ == "__main__":
    main()
