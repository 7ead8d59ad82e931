class Program:
    """A CALL rendered, compiled (or found in the cache) and loaded: call it like a function."""

    def __init__(self, call: UOp):
        _require_call("Program", call)
        _check_argument_count(call)
        self.call = call
        self.source = render(call)
        self.lib = ctypes.CDLL(compile_c(self.source))
        self.fn = self.lib[call.arg.name]  # never getattr: _handle, _FuncPtr are attributes
        self.arg_dtypes = [argument.dtype for argument in call.src[1:]]
        self.converters = [VALUE_OF.get(dtype, _unchanged) for dtype in self.arg_dtypes]
        self.fn.argtypes = [ctype_of(dtype) for dtype in self.arg_dtypes]
        body = call.src[0]
        self.fn.restype = None if body.dtype is VOID else CTYPE[body.dtype]
        self.pointers = [i for i, dtype in enumerate(self.arg_dtypes) if isinstance(dtype, Ptr)]
        self.ranges = declared_ranges(body)

    def __call__(self, *args, allow_alias: bool = False):
        """Scalars are checked, each Buffer passed as its array; the result as a Python value."""
        if len(args) != len(self.arg_dtypes):
            raise TypeError(
                f"{self.call.arg.name} takes {len(self.arg_dtypes)} arguments, got {len(args)}"
            )
        args = self._values(args)  # each must fit its dtype: ctypes would wrap an i32
        if self.ranges:
            _check_ranges(self.call.arg.name, args, self.ranges)
        if not self.pointers:
            return self.fn(*args)  # the common scalar case stays one ctypes call
        for position in self.pointers:
            args[position] = self._array(position, args[position])
        if not allow_alias:
            _refuse_alias(args, self.pointers)
        return self.fn(*args)

