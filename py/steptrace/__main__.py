"""`python -m steptrace ...`: see steptrace.cli."""
import sys

from .cli import main

sys.exit(main())
