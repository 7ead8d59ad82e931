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
    self is filled in, srcs first (ranges.fill_ranges)."""
    if self._range is None:
        ranges.fill_ranges(self)
    return self._range

