class Rule(NamedTuple):
    name: str
    pat: UPat
    fn: object
    wants_ctx: bool


def rule(name: str, pat: UPat, registry: list):
    """Decorator: append the rule `name` to `registry`, leave the function unchanged."""

    def register(fn):
        wants_ctx = "ctx" in inspect.signature(fn).parameters
        registry.append(Rule(name, pat, fn, wants_ctx))
        return fn

    return register


