"""The book's machinery: what the programs, the tests and the build scripts share.

Not part of the compiler (`uopc` never imports it). It holds the output protocol (quoted
blocks, stated numbers, the machine mark), the table of producers, and the program generators
and references that the tests, demos, exercises and the planted-bug matrix all use. The
command-line entry points stay in `scripts/`.
"""
