@dataclass(frozen=True, slots=True)
class ParamArg:
    """The arg of PARAM, BUFFER and ALLOC; vmin/vmax are bounds the caller promises."""

    slot: int
    dtype: object  # a value DType, or a Ptr
    vmin: int | None = None
    vmax: int | None = None

    def __post_init__(self):
        # Refused here, where bounds are first written down: a bound outside int32, or
        # min > max, would otherwise surface much later as a strange range.
        for bound in (self.vmin, self.vmax):
            if type(bound) is int and not INT_MIN <= bound <= INT_MAX:
                raise ValueError(f"a PARAM bound must fit in int32, got {bound}")
        if type(self.vmin) is int and type(self.vmax) is int and self.vmin > self.vmax:
            raise ValueError(f"a PARAM's min {self.vmin} is greater than its max {self.vmax}")


@dataclass(frozen=True, slots=True)
class CallArg:
    """The arg of CALL: the name the C function gets."""

    name: str


