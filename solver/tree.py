"""The design card's method: a search tree over market choices, CP-SAT below it.

The tree expands the first ``depth`` turns' takes with the rules engine (every card in
the vehicle's column, and every column a white card can send the vehicle to). Each leaf
is a CP-SAT solve with that prefix fixed and a cutoff: only plans strictly better than the
best so far count, so a leaf is either improved (new incumbent) or proven no better
(pruned). When every leaf is closed the incumbent is the proven optimum. The explored tree
is a networkx DiGraph whose nodes are the states after each take.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from solver.bounds import static_bound
from solver.engine import Game
from solver.errors import ExhibitionError
from solver.moves import Take
from solver.solve import Solution, solve


@dataclass
class TreeSearch:
    """The outcome: the best solution, the proven bound, and the explored tree."""

    solution: Solution
    bound: int
    graph: nx.DiGraph
    seconds: float

    @property
    def status(self) -> str:
        return "optimal" if self.bound == self.solution.score else "feasible"


def _prefixes(game: Game, depth: int) -> list[list[Take]]:
    """Every legal sequence of ``depth`` takes (fewer if a game could end sooner: never in solo)."""
    frontier = [([], game.initial_state())]
    for _ in range(depth):
        frontier = [(path + [take], game.take_only(state, take, check=False))
                    for path, state in frontier for take in game.legal_takes(state)]
    return [path for path, _ in frontier]


def node_id(prefix: list[Take]) -> str:
    return "/".join(str(t) for t in prefix) or "root"


def solve_tree(game: Game, depth: int = 1, time_limit: float | None = None, workers: int = 8,
               progress: bool = False) -> TreeSearch:
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    graph = nx.DiGraph()
    graph.add_node("root", turn=0, take="")
    # An incumbent first: a short whole-game solve, so that every leaf only has to beat it.
    warm = 10.0 if time_limit is None else min(10.0, 0.2 * time_limit)
    best = solve(game, time_limit=warm, workers=workers)
    graph.nodes["root"].update(warm_start=best.score, warm_bound=best.bound)
    if best.status == "optimal":
        return TreeSearch(best, best.bound, graph, time.perf_counter() - start)
    open_bounds: list[int] = []
    for prefix in _prefixes(game, depth):
        for k in range(1, len(prefix) + 1):
            parent, child = node_id(prefix[: k - 1]), node_id(prefix[:k])
            graph.add_node(child, turn=k, take=str(prefix[k - 1]))
            graph.add_edge(parent, child)
        leaf = node_id(prefix)
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            graph.nodes[leaf].update(status="open")
            open_bounds.append(static_bound(game))
            continue
        try:
            found = solve(game, time_limit=remaining, workers=workers, prefix=prefix, at_least=best.score + 1)
        except ExhibitionError:  # no plan within the time left: the leaf stays open
            graph.nodes[leaf].update(status="open")
            open_bounds.append(static_bound(game))
            continue
        if found is None:
            graph.nodes[leaf].update(status="pruned", at_most=best.score)
        else:
            graph.nodes[leaf].update(status="improved" if found.status == "optimal" else "open", best=found.score,
                                     bound=found.bound)
            if found.status != "optimal":
                open_bounds.append(found.bound)
            if found.score > best.score:
                best = found
        if progress:
            print(f"  {time.perf_counter() - start:7.2f}s  leaf {leaf}: {graph.nodes[leaf]['status']}"
                  f"  best {best.score}", file=sys.stderr, flush=True)
    _propagate(graph)
    bound = max([best.score] + open_bounds)
    return TreeSearch(best, bound, graph, time.perf_counter() - start)


def _propagate(graph: nx.DiGraph) -> None:
    """Each inner node's best reachable score is its children's best (where known)."""
    for node in reversed(list(nx.topological_sort(graph))):
        children = list(graph.successors(node))
        if not children:
            continue
        known = [graph.nodes[c]["best"] for c in children if "best" in graph.nodes[c]]
        limits = [graph.nodes[c].get("at_most", graph.nodes[c].get("best")) for c in children]
        if known:
            graph.nodes[node]["best"] = max(known)
        if all(v is not None for v in limits):
            graph.nodes[node]["at_most"] = max(limits)


def write_tree(graph: nx.DiGraph, path: str | Path) -> None:
    """GraphML for ``.graphml`` files, node-link JSON otherwise."""
    path = Path(path)
    if path.suffix.lower() == ".graphml":
        nx.write_graphml(graph, path)
    else:
        path.write_text(json.dumps(nx.node_link_data(graph, edges="edges")))
