"""`python -m stepwise ...`: see stepwise.cli."""
import sys

from .cli import main

sys.exit(main())
