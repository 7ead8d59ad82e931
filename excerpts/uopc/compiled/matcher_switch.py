def matcher(rules, compiled: bool | None = None) -> PatternMatcher:
    """A matcher over rules: compiled unless `compiled` is False, or it is None and the
    environment says UOPC_MATCHER=plain."""
    if compiled is None:
        mode = os.environ.get("UOPC_MATCHER", "compiled")
        if mode not in MODES:
            raise ValueError(f"UOPC_MATCHER must be 'compiled' or 'plain', got {mode!r}")
        compiled = MODES[mode]
    return CompiledMatcher(rules) if compiled else PatternMatcher(rules)


