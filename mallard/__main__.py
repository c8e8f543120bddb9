"""``python -m mallard``: the ``mallard`` command (mallard.cli), e.g. ``python -m mallard
simulate`` simulates mallard's acrobot; ``python -m mallard --help`` lists the commands."""

import sys

from mallard.cli import main

if __name__ == "__main__":
    sys.exit(main())
