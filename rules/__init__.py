"""Rules: rule sets, checks on a scene, verdicts, and the per-frame engines (``rules.engine``)."""
