"""eval - the benchmark harness: sealed seed suites, any agent, BALROG progression, results and a leaderboard.

    python -m nethack_webmcp.eval --agent autopilot --suite smoke --games 3 --out r.json
    python -m nethack_webmcp.eval --agent-cmd 'python my_agent.py' --suite standard --out mine.json
    python -m nethack_webmcp.eval --compare a.json b.json
    python -m nethack_webmcp.eval board results/*.json -o site/

docs/EVALUATION.md describes the suites, the sealing, the metrics and the results schema.
"""
