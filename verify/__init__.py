"""The verification kit: what the tests, demos, exercises and the planted-bug matrix share.

Not part of the compiler (`uopc` never imports it) and not the book's build (`book/`). It holds
the random program generators and the special values (generators.py), the test layers as the
book names them (layers.py), the shrinker (shrink.py), and the planted bugs with the harness
that runs the layers on each (mutants.py, mutant_matrix.py, coverage_lines.py): the evidence
chapter 15 teaches.
"""
