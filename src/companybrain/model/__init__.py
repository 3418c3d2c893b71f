"""Plain data shared by every layer: records, facts, answers, findings. No I/O."""
