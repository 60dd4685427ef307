"""`hub4eval check`: validate a templette file (and its corpus)."""
