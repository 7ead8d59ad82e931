"""python tests/mutant_matrix.py [options]: every planted bug against every test layer.

The command the book quotes; the harness is book/mutant_matrix.py (with book/mutants.py, the
planted bugs and the private copies they go into).
"""

import sys

from book.mutant_matrix import entry

if __name__ == "__main__":
    sys.exit(entry())
