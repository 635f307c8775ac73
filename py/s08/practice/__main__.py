"""Entry point for ``python -m s08.practice``."""
from .cli import main

raise SystemExit(main())
