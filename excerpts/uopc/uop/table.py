# Two buckets per op, so that the key can be the node's own src tuple: one tuple
# (op, src, arg key) per node, as a single table would need, was a sixth of a graph's memory.
TABLE: dict = {op: _Bucket() for op in Ops}  # nodes without arg (most), by their src
ARG_TABLE: dict = {op: _Bucket() for op in Ops}  # the others, by arg key or (src, arg key)
