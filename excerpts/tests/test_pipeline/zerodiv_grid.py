# (dividend ranges, divisor ranges): declared ranges of x and y in x // y and x % y. The plain
# C path needs a dividend range >= 0 and a divisor range > 0; (0, 4) and (-1, 0) sit at its edge.
ZERODIV_GRID = {
    "quick": (((0, 100), (INT_MIN, INT_MAX)), ((0, 4), (-3, 3), (-1, 0))),
    "full": (
        ((0, 100), (-100, 100), (0, INT_MAX), (INT_MIN, INT_MAX)),
        ((0, 4), (-4, 0), (-3, 3), (-1, 0), (1, 5), (INT_MIN, INT_MAX)),
    ),
}
DIVIDEND_VALUES = (INT_MIN, INT_MIN + 1, -100, -7, -1, 0, 1, 7, 99, 100, INT_MAX - 1, INT_MAX)
WIDE_DIVISOR_VALUES = (INT_MIN, -7, -2, -1, 0, 1, 2, 7, INT_MAX)
