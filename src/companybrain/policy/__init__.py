"""Pure functions that decide: time, access, authority, answers, checks. No I/O."""
