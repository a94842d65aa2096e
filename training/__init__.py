"""Scripts that rebuild shipped models (the ``train`` extra; the table never imports them)."""
