"""Proof by cells: every split is a cover of its parent's plans with true bounds, and the
proof reaches the optimum that the whole-game model proves."""

from dataclasses import replace

import pytest
from ortools.sat.python import cp_model

import solver.cells as cells
from puzzles.daily import known_line, load_solved
from solver.cells import (CHILD_SECONDS, DESCENT, GROUPED_SLICE, MAX_PROFILES, SLICES, SMALL_GROUP, STEP_MIN, Cell,
                          Limit, _ask_whole_model, _ask_without_walk, _fixed, _OpenCells, _Splitter, _target,
                          opening_reaches, prove_by_cells, solve_by_cells)
from solver.cards import Continent
from solver.deal import Deal, seeded_deal
from solver.engine import Game
from solver.greedy import greedy_plan
from solver.model import MID_POSITION, build_solo_model, candidate_cards, fix_prefix, start_of
from solver.notation import parse_rules
from solver.plan import replay
from solver.rules import HALL_SIZE, showcase_of
from solver.scoring import continent_focus, decade_count, longest_chain
from solver.solve import Solution
from tests.helpers import RULE_SETS, random_plan


def holds(limit, splitter, outcome) -> bool:
    """Whether the replayed plan ``outcome`` satisfies one limit of a cell (independently of
    the model: from the engine's final hall and breakdown)."""
    items = outcome.breakdown.as_dict()
    hall = outcome.final.board.hall
    cards = [p.card for p in hall if p is not None]
    if limit.kind == "item_eq":
        return items[limit.item] == limit.value
    if limit.kind == "run":
        first, last = limit.value
        years = {c.year for c in cards if c.year is not None}
        return all(y in years for y in range(first, last + 1)) and longest_chain(cards) == last - first + 1
    if limit.kind == "focus":
        counts = [sum(1 for c in cards if c.continent is not None and int(c.continent) == k) for k in range(6)]
        return counts[limit.value] == max(counts)
    mid = next((p.card for flat, p in enumerate(hall) if p is not None and showcase_of(flat)[0] == MID_POSITION), None)
    return mid is None if limit.value is None else mid == splitter.model.cards[limit.value]


def assert_covered(game, outcome):
    """At every split, some child holds the plan, and each child holding it has a bound at
    least the plan's score: no split loses a plan, no bound cuts one off."""
    splitter = _Splitter(game)
    cell = Cell(sum(splitter.caps.values()), 0)
    assert cell.bound >= outcome.score
    while True:
        children = splitter.children(cell, outcome.score - 1)
        if children is None:
            return
        holding = [c for c in children if all(holds(limit, splitter, outcome) for limit in c.limits)]
        assert holding, f"no child of [{cell}] holds the plan"
        assert all(c.bound >= outcome.score for c in holding)
        cell = holding[0]


@pytest.mark.parametrize("seed", range(16))
def test_every_split_covers_a_random_game(seed):
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(RULE_SETS[seed % len(RULE_SETS)])))
    assert_covered(game, replay(game, random_plan(game, seed, spot_share=0.95)[0]))


def test_every_split_covers_the_greedy_game():
    game = Game(seeded_deal(3))
    assert_covered(game, replay(game, greedy_plan(game, game.initial_state())))


def test_a_run_cell_holds_every_game_whose_chain_is_that_run():
    """A run's cell ties the run's stock cards to the columns they land in
    (``tie_stock_takes_to_columns``): a game whose chain is that run, its takes fixed, is
    still a plan of the cell at its score. Random games of 40 deals; several of their runs
    hold a stock card the game took, so the tie is in play."""
    tied = 0
    for seed in range(40):
        game = Game(seeded_deal(seed))
        plan, _ = random_plan(game, seed, spot_share=0.95)
        outcome = replay(game, plan)
        h = build_solo_model(game)
        run = next((r for r in h.runs if holds(Limit("run", r), None, outcome)), None)  # the chain's run, if any
        if run is None:
            continue
        cards = [p.card for p in outcome.final.board.hall if p is not None]
        tied += any(c in game.deal.stock and run[0] <= c.year <= run[1] for c in cards if c.year is not None)
        fix_prefix(h, [turn.take for turn in plan])
        Cell(0, 2, (Limit("run", run),)).restrict(h)
        h.model.add(h.score >= outcome.score)
        h.model.clear_objective()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 2
        solver.parameters.max_time_in_seconds = 20
        assert solver.solve(h.model) in (cp_model.FEASIBLE, cp_model.OPTIMAL), f"seed {seed}, run {run}"
    assert tied >= 3


def test_a_profile_that_needs_a_card_near_1950_is_split_by_that_card():
    """Seed 19: a profile summing to 2500 beats the best plan of 2592 only with a MID
    CENTURY card of 1947-1953 (worth 93-100), so it is split by that card: fewer live
    children than its ten runs or three focus continents. Against 2499 every card is live,
    and the run or the focus comes first. After all three splits, none is left."""
    game = Game(seeded_deal(19))
    splitter = _Splitter(game)
    profile = {"chain": 200, "continent_focus": 700, "decades": 1000, "years_gap": 500, "all_continents": 100,
               "empty_spots": 0, "depot": 0}
    assert set(profile) == set(splitter.profiled)
    cell = Cell(sum(profile.values()) + splitter.caps["mid_century"], 1,
                tuple(Limit("item_eq", v, item) for item, v in profile.items()))
    near = splitter.children(cell, 2592)
    assert all(any(limit.kind == "mid" for limit in child.limits) for child in near)
    live = [child for child in near if child.bound > 2592]
    assert 0 < len(live) < 6 and all(child.bound - 2500 >= 93 for child in live)
    # one card only, 1950, could beat 2592: that child is split at once, by the focus continent
    assert {str(limit) for child in live for limit in child.limits if limit.kind == "mid"} == {"mid 35"}
    far = splitter.children(cell, 2499)
    assert {child.limits[-1].kind for child in far} <= {"run", "focus"}
    while not splitter.is_last(cell):
        cell = splitter.children(cell, 2499)[0]
    assert {limit.kind for limit in cell.limits} == {"item_eq", "run", "focus", "mid"} and cell.stage == 4
    assert splitter.children(cell, 2499) is None


def test_a_split_with_one_live_child_is_made_with_the_next_one():
    """Seed 4: its candidate cards hold one run of four years (1969-1972), so the profile
    with a chain of 4 split by run has one child: the profile again. It is split at once
    by the next split, the focus continent, instead of being tried again as it was; and
    only South America (9 candidate cards) and North America (8) can hold a focus of 7."""
    game = Game(seeded_deal(4))
    splitter = _Splitter(game)
    assert [run for run in splitter.model.runs if run[1] - run[0] == 3] == [(1969, 1972)]
    profile = {"chain": 400, "continent_focus": 700, "decades": 1000, "years_gap": 500, "all_continents": 100,
               "empty_spots": 0, "depot": 0}
    cell = Cell(sum(profile.values()) + splitter.caps["mid_century"], 1,
                tuple(Limit("item_eq", v, item) for item, v in profile.items()))
    assert splitter.is_exact(cell)
    children = splitter.children(cell, 2690)
    assert [str(child.limits[-2]) for child in children] == ["run 1969-1972"] * 2
    assert [child.limits[-1] for child in children] == [Limit("focus", Continent.SA), Limit("focus", Continent.NA)]
    assert all(child.bound == cell.bound and child.stage == 3 for child in children)
    assert _target(cell.bound, 2690, exact=True) == 2691  # beat the best plan at once
    assert _target(cell.bound, 2590, exact=True) == 2591
    assert cell.bound - DESCENT + 1 - STEP_MIN < 2690 < cell.bound - DESCENT + 1
    assert _target(cell.bound, 2690, exact=False) == 2691  # a step just above the best plan: at once
    far = cell.bound - DESCENT - STEP_MIN
    assert _target(cell.bound, far, exact=False) == cell.bound - DESCENT + 1  # far above the best plan: a step first


def test_a_cell_split_only_by_a_free_mid_century_card_is_tried_again_instead():
    """Seed 3: against its optimum 2594, the profile 2600 + MID CENTURY (chain 3, focus 7)
    has one run and one focus continent that can hold it, so its split is by the MID
    CENTURY card: 37 children, each able to beat 2594 (the other items sum to 2600), a
    partition by a card that does not matter. Its slice running out, it is tried again
    with twice the slice, however often (the whole model refutes it whole in about 1.6 s,
    the 37 took 5 s one by one). Against 2650 the card matters (worth 51 at least, within
    24 years of 1950): the cell is split once the next slice would pass half of what the
    16 children that may beat it are expected to take. A profile whose split leaves four
    children that may beat 2594 is split at once."""
    game = Game(seeded_deal(3))
    splitter = _Splitter(game)
    profile = {"chain": 300, "continent_focus": 700, "decades": 1000, "years_gap": 500, "all_continents": 100,
               "empty_spots": 0, "depot": 0}
    cell = Cell(sum(profile.values()) + splitter.caps["mid_century"], 1,
                tuple(Limit("item_eq", v, item) for item, v in profile.items()))
    children = splitter.children(cell, 2594)
    assert len(children) == 37 and all(child.bound > 2594 and child.limits[-1].kind == "mid" for child in children)
    slices = [splitter.slice_of(replace(cell, retries=r)) for r in range(5)]
    assert slices == [SLICES[0] * 2 ** r for r in range(5)]
    assert all(splitter.worth_retrying(replace(cell, retries=r), children, 2594) for r in range(5))
    assert 37 * CHILD_SECONDS < 4 * slices[0]  # the count alone would split it at once
    near = splitter.children(cell, 2650)
    live = [child for child in near if child.bound > 2650]
    assert 0 < len(live) < len(near) and all(child.limits[-1].kind == "mid" for child in near)
    later = replace(cell, stage=2)  # as if one split were made before: a slice of SLICES[1]
    retried = [splitter.worth_retrying(replace(later, retries=r), near, 2650) for r in range(3)]
    assert retried == [len(live) * CHILD_SECONDS >= 4 * SLICES[1] * 2 ** r for r in range(3)] == [True, False, False]
    narrower = Cell(cell.caps - 100, 1, tuple(Limit("item_eq", v - 100 * (item == "continent_focus"), item)
                                              for item, v in profile.items()))
    live = [child for child in splitter.children(narrower, 2594) if child.bound > 2594]
    assert len(live) == 4 and not splitter.worth_retrying(narrower, live, 2594)


def test_many_exact_profiles_are_grouped_by_their_first_items():
    """Seed 28: above its optimum (2696) and under the whole-game bound (2969) lie 112 exact
    profiles, within ``MAX_PROFILES``: the split makes them all. Above 2596 they are 293,
    more than that: the split fixes the first five items instead, 105 grouped profiles with
    a longer slice, each split into its exact profiles after it."""
    game = Game(seeded_deal(28))
    splitter = _Splitter(game)
    root = Cell(sum(splitter.caps.values()), 0, refuted_from=2970)
    profiles = splitter.children(root, 2696)
    assert len(profiles) == 112 <= MAX_PROFILES and all(splitter.is_exact(profile) for profile in profiles)
    groups = splitter.children(root, 2596)
    assert len(groups) == 105 <= MAX_PROFILES
    assert {tuple(limit.item for limit in group.limits) for group in groups} == {
        ("chain", "continent_focus", "decades", "years_gap", "all_continents")}
    assert all(not splitter.is_exact(group) and splitter.slice_of(group) == GROUPED_SLICE for group in groups)
    exact = [profile for group in groups for profile in splitter.children(group, 2596)]
    assert len(exact) == 293 > MAX_PROFILES
    assert all(splitter.is_exact(profile) and splitter.slice_of(profile) == SLICES[0] for profile in exact)


def test_a_small_group_is_split_at_once():
    """Seed 28's groups with a best plan 100 under its optimum: one whose split leaves at
    most ``SMALL_GROUP`` exact profiles that may beat the best plan is split into them
    unasked; with a best plan far lower, more of its profiles may beat it and the group is
    asked whole first. An exact profile is never a small group."""
    game = Game(seeded_deal(28))
    splitter = _Splitter(game)
    root = Cell(sum(splitter.caps.values()), 0, refuted_from=2970)
    groups = splitter.children(root, 2596)
    sizes = [len(splitter.children(group, 2596)) for group in groups]
    small = [splitter.is_small_group(group, 2596) for group in groups]
    assert small == [size <= SMALL_GROUP for size in sizes] and any(small) and not all(small)
    assert not any(splitter.is_small_group(group, 2100) for group in groups)
    assert not any(splitter.is_small_group(profile, 2596) for profile in splitter.children(groups[0], 2596))


def test_cells_prove_an_optimum_from_a_weaker_plan():
    """Seed 7: the whole-game model proves 2888 in seconds; the cells, told that the best
    plan so far scores 100 less, must find a plan of 2888 themselves and prove it."""
    game = Game(seeded_deal(7))
    optimum = solve_by_cells(game, time_limit=120, workers=2)
    assert optimum.status == "optimal" and optimum.solution.score == 2888
    assert replay(game, optimum.solution.plan).score == 2888
    assert_covered(game, optimum.solution.outcome)  # a plan at nearly every cap: the all-caps cells hold it
    weaker = replace(optimum.solution, score=2788, status="feasible")
    proof = prove_by_cells(game, weaker, time_limit=120, workers=2)
    assert proof.status == "optimal" and proof.bound == proof.solution.score == 2888
    assert replay(game, proof.solution.plan).score == 2888
    at_ceiling = prove_by_cells(game, replace(optimum.solution, status="feasible"), time_limit=120, workers=2,
                                ceiling=2888)  # a plan at a bound known from elsewhere: nothing left to refute
    assert at_ceiling.status == "optimal" and at_ceiling.refuted == 0 and at_ceiling.seconds < 1


def test_an_opening_reaches_the_optimum_as_the_whole_model_says():
    """Seed 7 (optimum 2888), each first take with the optimum as the goal: the whole-game
    model with the take fixed found 2888 after 1932OC (33 s) and after 1958AS (13 s) and
    refuted it after 1969NA (30 s); the dives and cells with the take fixed must answer the
    same (about 2, 17 and 6 s), and refute one point more."""
    game = Game(seeded_deal(7))
    takes = {str(take): take for take in game.legal_takes(game.initial_state())}
    assert {name: opening_reaches(game, take, 2888, 120, workers=2) for name, take in takes.items()} == {
        "1932OC": True, "1958AS": True, "1969NA": False}
    assert opening_reaches(game, takes["1932OC"], 2889, 120, workers=2) is False


def _seed_4_cells(game):
    """Seed 4's profile 2600 + MID CENTURY with an empty spot, which cannot reach 2691 (its
    optimum is 2690), and the cell of the greedy game's own profile with that game's score."""
    items = {"chain": 400, "continent_focus": 700, "decades": 1000, "years_gap": 500, "all_continents": 100,
             "empty_spots": -100, "depot": 0}
    refutable = Cell(2700, 1, tuple(Limit("item_eq", v, item) for item, v in items.items()))
    greedy = replay(game, greedy_plan(game, game.initial_state()))
    own = Cell(greedy.score, 1, tuple(Limit("item_eq", v, item) for item, v in greedy.breakdown.as_dict().items()
                                      if item != "mid_century"))
    return (refutable, 2691), (own, greedy.score)


def test_the_relaxation_without_the_walk_refutes_a_profile_and_holds_a_games_own():
    """The relaxation sees seed 4's profile refuted without the vehicle's walk (the whole
    model took 0.65 s with 8 workers); a cell of a real game's profile at its score is not
    refuted, and the hall of the plan it finds there (read back for a guided dive) has the
    profile's focus, decades and chain, and as many cards as its empty spots leave."""
    game = Game(seeded_deal(4))
    (refutable, above), (own, score) = _seed_4_cells(game)
    relaxed = build_solo_model(game, walk=False)
    assert _ask_without_walk(relaxed, refutable, above, 10, 2).refuted
    answer = _ask_without_walk(relaxed, own, score, 10, 2)
    assert not answer.refuted and answer.hall <= set(candidate_cards(start_of(game)))
    items = _fixed(own)
    assert 100 * continent_focus(list(answer.hall)) == items["continent_focus"]
    assert 100 * decade_count(list(answer.hall)) == items["decades"]
    assert 100 * longest_chain(list(answer.hall)) == items["chain"]
    filled = HALL_SIZE + items["empty_spots"] // 100
    assert filled - 1 <= len(answer.hall) <= filled  # Einstein, if in the hall, is not read back: it has no year


def test_a_cell_left_unsettled_is_followed_by_a_guided_dive(monkeypatch):
    """When a cell's slice runs out, the cells hand the relaxed plan's hall and the best plan
    to their guide, and go on from the plan it returns; a refuted cell calls no guide."""
    game = Game(seeded_deal(7))
    plan = greedy_plan(game, game.initial_state())
    greedy = replay(game, plan)
    start = Solution(greedy.score, greedy.score, "feasible", plan, greedy, 0.0)
    better = replace(start, score=greedy.score + 1)
    hall = frozenset(c for c in candidate_cards(start_of(game))[:3] if c.year is not None)
    answers = iter([("split", None, hall), ("refuted", None, frozenset())])
    monkeypatch.setattr(cells, "_try_cell", lambda *args: next(answers, ("refuted", None, frozenset())))
    guided = []

    def guide(best, wanted):
        guided.append((best, wanted))
        return better

    open_cells = _OpenCells(game, _Splitter(game), None, None, 2, False, guide=guide)
    assert open_cells.work(start, None) is better
    assert guided == [(start, hall)]


def test_cells_asked_on_copies_of_the_deals_model_leave_it_as_built():
    """The whole model built once for the deal answers each cell on a copy: the refutable
    profile is refuted, then the greedy game's own cell still yields a plan, and the model
    copied from keeps its constraints (8 workers, as the proof asks: 2 do not refute the
    profile within 30 s)."""
    game = Game(seeded_deal(4))
    (refutable, above), (own, score) = _seed_4_cells(game)
    whole = build_solo_model(game)
    constraints = len(whole.model.proto.constraints)
    assert _ask_whole_model(game, whole, refutable, above, 60, 8) == ("refuted", None)
    outcome, found = _ask_whole_model(game, whole, own, score, 60, 8)
    assert outcome == "better" and found.score >= score
    assert len(whole.model.proto.constraints) == constraints


def _exact_cell(splitter, outcome) -> Cell:
    """The cell of every split that holds the replayed plan ``outcome``: its profile, and
    its run (if its chain has one), focus continent and MID CENTURY card; its caps are the
    plan's score, as the splits make them."""
    items = outcome.breakdown.as_dict()
    limits = [Limit("item_eq", items[item], item) for item in splitter.profiled]
    splits = ([Limit("run", run) for run in splitter.model.runs], [Limit("focus", k) for k in range(6)],
              [Limit("mid", i) for i, p in splitter.model.shelf if p == MID_POSITION] + [Limit("mid", None)])
    for options in splits:
        limits += [limit for limit in options if holds(limit, splitter, outcome)][:1]
    return Cell(outcome.score, 4, tuple(limits))


def _holds_the_game(h, plan, cell, score) -> bool:
    """Whether the model ``h`` (a copy) has the plan's takes fixed, the cell's limits and a
    score of ``score`` at least."""
    fix_prefix(h, [turn.take for turn in plan])
    cell.restrict(h)
    h.model.add(h.score >= score)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = 20
    return solver.solve(h.model) in (cp_model.FEASIBLE, cp_model.OPTIMAL)


def _check_models_of_fewer_turns(game, plan, rules: str = "") -> int:
    """A game's own exact cell (its profile fixes the empty spots and depot cards) is asked
    of models of exactly as many turns as the game, every one played (at most, where a full
    depot ends the game: ``DFE``); its grouped cell (every item fixed but those two, its
    caps as the split makes them) of at least as many. On both the game is a plan of the
    cell at its score (its takes fixed in the whole model; the relaxation without the walk
    not refuted). Returns the grouped cell's turns."""
    outcome = replay(game, plan)
    splitter = _Splitter(game)
    models = cells._CellModels(game, splitter.model)
    exact = _exact_cell(splitter, outcome)
    whole, relaxed = models.for_cell(exact, outcome.score)
    assert whole.turns == relaxed.turns and (whole.turns == len(plan) or rules == "DFE" and whole.turns > len(plan))
    items = outcome.breakdown.as_dict()
    kept = [item for item in splitter.profiled if item not in ("empty_spots", "depot")]
    grouped = Cell(sum(items[item] for item in kept) + splitter.caps["mid_century"], 1,
                   tuple(Limit("item_eq", items[item], item) for item in kept))
    grouped_whole, grouped_relaxed = models.for_cell(grouped, outcome.score)
    assert grouped_whole.turns == grouped_relaxed.turns >= len(plan)
    for cell, h, r in ((exact, whole, relaxed), (grouped, grouped_whole, grouped_relaxed)):
        assert _holds_the_game(h.copy(), plan, cell, outcome.score), cell
        assert not _ask_without_walk(r, cell, outcome.score, 20, 2).refuted, cell
    return grouped_whole.turns


@pytest.mark.parametrize("seed", range(15))
def test_a_random_game_is_a_plan_of_its_cells_on_the_models_of_fewer_turns(seed):
    """Cells are asked of models built for the turns their plans that reach the target may
    play (``_CellModels.for_cell``, ``_turns_of``): random games of five rule sets, most
    with empty spots (their grouped cells get the whole model). One turn fewer loses the
    games with a full hall, or an END, as their last turn."""
    rules = RULE_SETS[seed % len(RULE_SETS)]
    game = Game(Deal(seeded_deal(seed).cards, parse_rules(rules)))
    plan, _ = random_plan(game, seed, spot_share=0.95 if rules != "DFE" else 0.6)
    _check_models_of_fewer_turns(game, plan, rules)


def test_the_shipped_optimal_lines_are_plans_of_their_cells_on_the_models_of_fewer_turns():
    """The same for proven optimal lines (every fortieth shipped daily puzzle, all rule
    sets), which score near every cap: their grouped cells, whose empty spots and depot
    cards may cost the caps' slack at most, get models of fewer turns than 19."""
    turns = []
    for entry in sorted(load_solved().values(), key=lambda e: e.id)[::40]:
        game, line = known_line(entry)
        turns.append(_check_models_of_fewer_turns(game, line.plan))
    assert sum(t < 19 for t in turns) >= len(turns) // 2, turns
