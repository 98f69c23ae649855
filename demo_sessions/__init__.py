"""Bundled demo scenarios: a deterministic, seeded generator and the logs it writes."""
