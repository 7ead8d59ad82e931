# (where, the name there, its twin): each twin stands in for the plain function of that name
TWINS = [
    (typecheck, "infer", node.infer),  # the checker: two common nodes looked up
    (uop.UOp, "__new__", staticmethod(node.new)),  # the table by the op's value
    (uop.UOp, "_binary", node._binary),  # the constructor without the class call
    (ranges, "fill_ranges", node.fill_ranges),  # a node's range from its srcs' at once
    (uop.UOp, "range", property(node.node_range)),  # the same, a call sooner
    (uop.UOp, "_build", classmethod(node._build)),  # fields set through the slots' setters
    (uop.UOp, "replace_src", node.replace_src),  # a rebuild over srcs of the same dtypes
    (rewrite.PatternMatcher, "rewrite", matcher.rewrite),  # patterns compiled to Python
    (rewrite, "_rewrite_to_fixed_point", walk._rewrite_to_fixed_point),  # fewer loop trips
]
