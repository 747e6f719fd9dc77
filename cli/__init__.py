"""The ``exhibition`` command line: a thin click layer over ``puzzles`` and ``solver``."""
