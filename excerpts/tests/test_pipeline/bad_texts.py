BAD_TEXTS = [
    # the five of the book's error demo
    ("no header", P0 + "%1 = add %0, %0\n"),
    ("use before definition", H + "%0 = add %1, %1\n%1 = param : dtype=i32 slot=0\n"),
    ("unknown op", H + "%0 = sqrt\n"),
    ("bad source token", H + P0 + "%1 = add %0, %x\n"),
    ("ill-typed line", H + P0 + P1F + "%2 = add %0, %1\n"),
    # ten more
    ("wrong format version", "; uop v2\n" + P0),
    ("no nodes after the header", H),
    ("a key the op does not take", H + "%0 = const : dtype=i32 value=1 slot=0\n"),
    ("a line without '='", H + "%0 const : dtype=i32 value=1\n"),
    ("a name defined twice", H + P0 + "%0 = neg %0\n"),
    ("a missing key", H + "%0 = param : dtype=f32\n"),
    ("an int written as a float", H + "%0 = const : dtype=i32 value=1.5\n"),
    ("an unknown dtype", H + "%0 = const : dtype=f64 value=1.0\n"),
    ("a bool written as a number", H + "%0 = const : dtype=bool value=1\n"),
    ("an int beyond int32", H + "%0 = const : dtype=i32 value=2147483648\n"),
]
