# Range analysis (section 6.4) -----------------------------------------------------------
@property
def vmin(self):
    return self.range[0]

@property
def vmax(self):
    return self.range[1]

@property
def safe(self) -> bool:
    return self.range[2]

@property
def range(self) -> tuple:
    """(vmin, vmax, safe), computed on first use and cached: every missing triple under
    self is filled in, srcs first (at once when the srcs have theirs, else by one walk)."""
    if self._range is None:
        fill_ranges_quickly(self)  # speed only: fill_ranges, sooner (end of ranges.py)
    return self._range

