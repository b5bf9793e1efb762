"""Rules: rule sets, checks on a scene, verdicts (and, later, the per-frame engines)."""
