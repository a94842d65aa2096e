"""``python -m cogtable`` runs the command line."""

from cogtable.cli import main

raise SystemExit(main())
