"""python tests/mutant_matrix.py [options]: every planted bug against every test layer.

The command the book quotes; the harness is verify/mutant_matrix.py (with verify/mutants.py, the
planted bugs and the private copies they go into).
"""

import sys

from verify.mutant_matrix import entry

if __name__ == "__main__":
    sys.exit(entry())
