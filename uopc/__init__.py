"""uopc: a small compiler from graphs of scalar arithmetic to C.

Re-exports the names a program needs most; everything else is imported from its module.
Importing the package installs the speed overlay (`uopc.speed`): tested twins of a few plain
functions, which `uopc.speed.uninstall()` takes away again.
"""

from . import speed
from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, DType, Ptr
from .ops import ALU, Ops
from .uop import CallArg, ParamArg, UOp, UOpError

__all__ = [
    "ALU",
    "BOOL",
    "F32",
    "I32",
    "INT_MAX",
    "INT_MIN",
    "VOID",
    "CallArg",
    "DType",
    "Ops",
    "ParamArg",
    "Ptr",
    "UOp",
    "UOpError",
]

speed.install()
