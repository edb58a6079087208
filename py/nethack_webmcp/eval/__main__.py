"""python -m nethack_webmcp.eval"""

import sys

from .cli import main

sys.exit(main())
