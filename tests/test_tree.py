"""The search-tree method: leaves, cutoffs, export."""

import json

import networkx as nx
import pytest

from solver.deal import seeded_deal
from solver.engine import Game
from solver.plan import replay
from solver.solve import solve
from solver.bounds import static_bound
from solver.tree import _prefixes, solve_tree, write_tree


def test_prefixes_are_the_engine_takes():
    game = Game(seeded_deal(5))
    first = _prefixes(game, 1)
    assert [p[0] for p in first] == game.legal_takes(game.initial_state())
    assert len(_prefixes(game, 2)) == sum(
        len(game.legal_takes(game.take_only(game.initial_state(), p[0]))) for p in first)


def test_static_bound_is_above_a_found_plan():
    game = Game(seeded_deal(2))
    assert solve(game, time_limit=3, workers=2).score <= static_bound(game)


def test_tree_search_exports_a_tree(tmp_path):
    game = Game(seeded_deal(2))
    search = solve_tree(game, depth=1, time_limit=6, workers=2)
    assert replay(game, search.solution.plan).score == search.solution.score
    assert search.bound >= search.solution.score
    graph = search.graph
    assert nx.is_tree(graph) and graph.nodes["root"]["turn"] == 0
    assert {graph.nodes[n]["take"] for n in graph.successors("root")} == {str(t) for t in game.legal_takes(game.initial_state())}
    write_tree(graph, tmp_path / "t.json")
    data = json.loads((tmp_path / "t.json").read_text())
    assert len(data["nodes"]) == graph.number_of_nodes() and len(data["edges"]) == graph.number_of_edges()
    write_tree(graph, tmp_path / "t.graphml")
    assert nx.read_graphml(tmp_path / "t.graphml").number_of_nodes() == graph.number_of_nodes()


@pytest.mark.slow
def test_tree_and_whole_model_agree_on_a_proven_deal():
    game = Game(seeded_deal(5))
    search = solve_tree(game, depth=1, time_limit=300)
    whole = solve(game, time_limit=300, workers=8)
    assert search.status == whole.status == "optimal"
    assert search.solution.score == whole.score == 2982
