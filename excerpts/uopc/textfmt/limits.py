# The documented limits: elements in one buffer or scratch array (64 MiB of f32), and the bytes
# of a text the command line reads. Beyond them memory, not the program, would decide.
MAX_ELEMENTS = 2**24
MAX_TEXT_BYTES = 64 * 2**20
