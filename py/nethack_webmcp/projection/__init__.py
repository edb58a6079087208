"""projection - low-protocol responses to DecisionFrame v2 (pure functions)."""
