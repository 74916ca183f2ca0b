"""``python -m meeplex.cli``: the same as the ``meeplex`` command."""

import sys

from . import main

# The guard matters: `arena --jobs` starts worker processes that import this module as __mp_main__.
if __name__ == "__main__":
    sys.exit(main())
