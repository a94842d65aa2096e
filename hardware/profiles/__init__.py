"""Table profiles shipped with cogtable: ``mock.toml`` (the default) and ``reference.toml``."""
