"""Daily puzzles, deal generation, difficulty and answer checking (built on ``solver``)."""
