"""conftest.py - tests/watch: the native spectator (board, routes, listener) against real games."""
