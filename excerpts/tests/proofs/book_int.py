# ---- the book's claims: integer rules (25, bit vectors) ------------------------------------
G_INT = "integer rules (32-bit bit vectors)"
MERGE_PAIRS = ((3, 5), (-2, 7), (4, 4), (1, -1))
SLOW = {3, 7, (2, 3), (3, 5)}  # bit-vector division by 3, 5, 7: seconds, so full runs only


def book_integer(claims):
    for k1, k2 in MERGE_PAIRS:
        rewrite(claims, G_INT, f"(x*{k1})*{k2} -> x*{k1 * k2}", ((x * k1) * k2, x * (k1 * k2)))
    for k1, k2 in MERGE_PAIRS:
        rewrite(claims, G_INT, f"(x+{k1})+{k2} -> x+{k1 + k2}", ((x + k1) + k2, x + (k1 + k2)))
    for k1, k2 in MERGE_PAIRS:
        title = f"(x+{k1})*{k2} -> x*{k2} + {k1 * k2}"
        rewrite(claims, G_INT, title, ((x + k1) * k2, x * k2 + k1 * k2))
    for k in (2, 3, 4, 7, 16):  # a - b is ADD(a, NEG(b)): there is no SUB
        title, pair = f"x%{k} == x - {k}*(x//{k})", (x % k, x + -(const(k) * (x // k)))
        rewrite(claims, G_INT, title, pair, quick=k not in SLOW)
    for k1, k2 in ((2, 3), (4, 4), (3, 5), (8, 2)):
        title, pair = f"(x//{k1})//{k2} -> x//{k1 * k2}", ((x // k1) // k2, x // (k1 * k2))
        rewrite(claims, G_INT, title, pair, quick=(k1, k2) not in SLOW)
    rewrite(claims, G_INT, "x//1 -> x and x%1 -> 0", [(x // 1, x), (x % 1, const(0))])
    rewrite(claims, G_INT, "x//-1 -> -x and x%-1 -> 0", [(x // -1, -x), (x % -1, const(0))])
    rewrite(claims, G_INT, "x//0 -> 0 and x%0 -> x", [(x // 0, const(0)), (x % 0, x)])
    rewrite(claims, G_INT, "INT_MIN//-1 == INT_MIN", (const(INT_MIN) // -1, const(INT_MIN)))


