"""The book's build: what the programs and the build scripts share to make the book.

Not part of the compiler (`uopc` never imports it). It holds the output protocol (quoted
blocks, stated numbers, the machine mark), the table of producers, the record of what each
run used, and the check that a program runs its own tree's uopc. The command-line entry
points stay in `scripts/`; the generators and the planted-bug harness are in `verify/`.
"""
