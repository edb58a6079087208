"""Helpers shared by more than one test directory (on sys.path via pyproject's pythonpath)."""
