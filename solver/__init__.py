"""Exhibition: 20th Century - rules engine, scoring and solvers.

The rules engine (:mod:`solver.engine`) is the single authority on what is legal
and what scores; every other part of the project asks it.
"""
