"""`hub4eval score`: score a hypothesis templette file against a reference."""
