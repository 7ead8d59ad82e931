"""The machine and the software the benchmark ran on (appendix D), one labelled line each.

The CPU and the memory from /proc on Linux (elsewhere `unknown`), the versions from the
installed distributions (`not installed` when missing), the compiler from `clang --version`.
Everything it prints depends on the machine.
"""

import importlib.metadata
import os
import platform
import re
import subprocess

from book.protocol import MACHINE_MARK, state  # the numbers appendix D quotes


def proc_field(path: str, field: str) -> str | None:
    """The value of the first `field : value` line of a /proc file, or None."""
    try:
        with open(path, encoding="utf-8") as file:
            for line in file:
                name, colon, value = line.partition(":")
                if colon and name.strip() == field:
                    return value.strip()
    except OSError:
        pass
    return None


def cpu_model() -> str:
    return proc_field("/proc/cpuinfo", "model name") or platform.processor() or "unknown"


def memory_mib() -> str:
    total = proc_field("/proc/meminfo", "MemTotal")  # "24684392 kB"
    if total is None or not total.endswith(" kB"):
        return "unknown"
    return f"{int(total.removesuffix(' kB')) // 1024:,}"


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def clang_version() -> str:
    try:
        done = subprocess.run(["clang", "--version"], capture_output=True, text=True)
    except FileNotFoundError:
        return "not installed"
    return (done.stdout or done.stderr).split("\n", 1)[0].strip()


def main() -> None:
    lines = [
        ("CPU", cpu_model()),
        ("cores", str(os.cpu_count())),
        ("memory, MiB", memory_mib()),
        ("system", platform.platform()),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("NumPy", version("numpy")),
        ("z3", version("z3-solver")),
        ("clang", clang_version()),
        ("tinygrad", version("tinygrad")),
    ]
    print(f"the machine and the software of this run  {MACHINE_MARK}")
    width = max(len(label) for label, _ in lines)
    for label, value in lines:
        print(f"  {label + ':':<{width + 1}} {value}")
    state_machine(dict(lines))


def state_machine(labels: dict) -> None:
    """machine_<label> for each line (the cores also as a number) and the bare versions."""
    for label, value in labels.items():
        key = "machine_" + re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
        value = int(value) if key == "machine_cores" else value
        state(key, value, f"the benchmark machine's {label} {MACHINE_MARK}")
    for label in ("Python", "NumPy", "z3", "tinygrad"):  # the bare version: "3.11.7 (CPython)"
        value = labels[label].split()[0] if label == "Python" else labels[label]
        state(f"{label.lower()}_version", value, f"{label}'s version {MACHINE_MARK}")
    clang = re.search(r"clang version ([\d.]+)", labels["clang"])
    state("clang_version", clang[1] if clang else "unknown", f"clang's version {MACHINE_MARK}")


if __name__ == "__main__":
    main()
