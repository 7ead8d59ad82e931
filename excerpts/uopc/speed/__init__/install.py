def install(without: tuple = ()) -> None:
    """Put every twin in place (and Ops under a metaclass without 3.11's slow fallback), but
    those named in `without` ("infer", ..., "enum"), which keep their plain function (the
    benchmark weighs each twin so)."""
    global _installed
    uninstall()
    for where, name, twin in TWINS:
        if name.strip("_") not in without:
            setattr(where, name, twin)
    if node.LEAN_ENUM_TYPE is not None and "enum" not in without:
        ops.Ops.__class__ = node.LEAN_ENUM_TYPE
    _installed = True


def uninstall() -> None:
    """Put every plain function back: the code the chapters show, and nothing else, runs."""
    global _installed
    for (where, name), function in _PLAIN.items():
        setattr(where, name, function)
    ops.Ops.__class__ = _PLAIN_ENUM_TYPE
    _installed = False


