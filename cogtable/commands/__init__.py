"""One module per ``cogtable`` subcommand; see :mod:`cogtable.cli` for the protocol."""
