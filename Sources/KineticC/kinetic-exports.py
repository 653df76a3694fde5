#!/usr/bin/env python3
"""Writes the linker version script of the installed libKineticC: the functions kinetic.h
declares are global, everything else (Kinetic's Swift symbols, the static Swift runtime's,
KineticSIMD's kernels) is local.

    kinetic-exports.py Sources/KineticC/include/kinetic.h OUT.map

Used by `make install`; Tests/KineticCTests/check_install.py checks the installed library's
dynamic symbols against the header independently.
"""
import re
import sys


def declared_functions(header_text):
    """The kn_ names followed by "(" outside comments and preprocessor lines, in order."""
    text = re.sub(r"/\*.*?\*/", " ", header_text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    names = []
    for name in re.findall(r"\b(kn_[A-Za-z0-9_]*)\s*\(", text):
        if name not in names:
            names.append(name)
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        names = declared_functions(f.read())
    if not names:
        sys.exit("kinetic-exports.py: no kn_ function in " + sys.argv[1])
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("/* Generated from kinetic.h by Sources/KineticC/kinetic-exports.py. */\n{\n  global:\n")
        f.writelines(f"    {name};\n" for name in names)
        f.write("  local:\n    *;\n};\n")
    print(f"kinetic-exports.py: {len(names)} functions global, everything else local -> {sys.argv[2]}")


if __name__ == "__main__":
    main()
