def _range_mul(u, srcs, safe):
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    products = (lo1 * lo2, lo1 * hi2, hi1 * lo2, hi1 * hi2)
    return _fit(min(products), max(products), safe)


