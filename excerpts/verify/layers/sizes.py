# (quick, full) per layer: full sizes from verification.md §5.3, quick sizes from §8.
SIZES = {
    "hash": {"programs": (70, 700)},
    "sound": {"programs": (70, 700), "inputs": (10, 40)},
    "special": {"programs": (40, 400), "inputs": (30, 300)},
    "exhaustive": {"programs": (120, 1200)},
    "fast": {"programs": (300, 2000), "inputs": (20, 20)},
    "overflow": {"programs": (30, 300)},
    "ranges": {"programs": (50, 500), "inputs": (10, 40)},
    "fold": {"programs": (40, 400), "inputs": (5, 20)},
    "text": {"programs": (30, 300)},
    "render": {"programs": (20, 250), "inputs": (10, 60)},
    "zerodiv": {},  # a grid (ZERODIV_GRID), not a count
}
# Program n of a layer is built from random.Random(SEED_BASE[layer] + n): each layer sees its
# own programs (hash and sound share theirs).
SEED_BASE = {
    "hash": 0,
    "sound": 0,
    "special": 100_000,
    "exhaustive": 200_000,
    "fast": 300_000,
    "overflow": 400_000,
    "ranges": 500_000,
    "fold": 600_000,
    "text": 700_000,
    "render": 800_000,
}
