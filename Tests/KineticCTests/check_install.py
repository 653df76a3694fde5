#!/usr/bin/env python3
"""Checks an installed Kinetic C library (`make install PREFIX=...`), run by `make test-c`:

- layout: lib/libKineticC.so.X.Y.Z is the real file, libKineticC.so.X links to it and
  libKineticC.so to libKineticC.so.X; the SONAME is libKineticC.so.X;
- exports: the library's exported dynamic symbols (readelf --dyn-syms: defined, global or
  weak) are exactly the functions kinetic.h declares (both ways; any other exported symbol,
  function or data, fails);
- no toolchain: RUNPATH / RPATH at most $ORIGIN, no libswift* / libdispatch / libBlocksRuntime
  in NEEDED, and nothing `ldd` resolves lies in the Swift toolchain's folder;
- kinetic.pc names no absolute path outside the prefix.

    check_install.py PREFIX VERSION TOOLCHAIN_DIR [CC]

The header is read through the C preprocessor (CC, default cc), independently of the version
script generator (Sources/KineticC/kinetic-exports.py).
"""
import os
import re
import subprocess
import sys

failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message, file=sys.stderr)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def header_functions(header, cc):
    """The functions kinetic.h declares: kn_ names called with "(" in the preprocessed header."""
    text = run(*cc.split(), "-E", "-P", "-x", "c", header)
    return set(re.findall(r"\b(kn_[A-Za-z0-9_]*)\s*\(", text))


def exported_symbols(library):
    """Defined dynamic symbols another object can bind to: {name: symbol type}. From
    `readelf --dyn-syms`: defined (Ndx not UND), binding GLOBAL, WEAK or UNIQUE, visibility
    DEFAULT or PROTECTED. (The linker may leave LOCAL entries in .dynsym for relocations;
    they are not exported.)"""
    symbols = {}
    for line in run("readelf", "--dyn-syms", "-W", library).splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(parts) < 8 or not parts[0].endswith(":") or parts[6] == "UND":
            continue
        if parts[4] in ("GLOBAL", "WEAK", "UNIQUE") and parts[5] in ("DEFAULT", "PROTECTED"):
            symbols[parts[7].split("@")[0]] = parts[3]
    return symbols


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    prefix, version, toolchain = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.realpath(sys.argv[3])
    cc = sys.argv[4] if len(sys.argv) == 5 else "cc"
    lib = os.path.join(prefix, "lib")
    major = version.split(".")[0]
    real, soname = f"libKineticC.so.{version}", f"libKineticC.so.{major}"
    library = os.path.join(lib, real)

    # Layout.
    if not os.path.isfile(library) or os.path.islink(library):
        fail(f"{library} is not a regular file")
        return report()
    for link, target in ((soname, real), ("libKineticC.so", soname)):
        path = os.path.join(lib, link)
        if not os.path.islink(path) or os.readlink(path) != target:
            fail(f"{path} is not a symlink to {target}")
    print(f"layout: {real}, {soname} -> {real}, libKineticC.so -> {soname}")

    # Dynamic section.
    dynamic = run("readelf", "-d", library)
    sonames = re.findall(r"\(SONAME\).*\[(.*)\]", dynamic)
    if sonames != [soname]:
        fail(f"SONAME is {sonames}, expected [{soname}]")
    for kind in ("RUNPATH", "RPATH"):
        for value in re.findall(r"\(" + kind + r"\).*\[(.*)\]", dynamic):
            extra = [p for p in value.split(":") if p not in ("$ORIGIN", "")]
            if extra:
                fail(f"{kind} {value} names more than $ORIGIN: {extra}")
    needed = re.findall(r"\(NEEDED\).*\[(.*)\]", dynamic)
    swift = [n for n in needed if re.match(r"lib(swift|dispatch|BlocksRuntime|Foundation)", n)]
    if swift:
        fail(f"NEEDED names Swift runtime libraries: {swift}")
    paths = re.findall(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", dynamic) or "none"
    print(f"readelf -d: SONAME {sonames}, NEEDED {needed}, RUNPATH {paths}")

    # ldd: nothing from the toolchain, nothing missing.
    ldd = run("ldd", library)
    for line in ldd.splitlines():
        if "not found" in line:
            fail(f"ldd: {line.strip()}")
        paths = re.findall(r"(/\S+)", line)
        if any(os.path.realpath(p).startswith(toolchain + os.sep) for p in paths):
            fail(f"ldd resolves from the toolchain ({toolchain}): {line.strip()}")
    print("ldd: " + "; ".join(l.strip() for l in ldd.splitlines()))

    # Exports against the header, both ways.
    declared = header_functions(os.path.join(prefix, "include", "kinetic.h"), cc)
    symbols = exported_symbols(library)
    functions = {n for n, t in symbols.items() if t in ("FUNC", "IFUNC")}
    others = {n: t for n, t in symbols.items() if n not in functions}
    for name in sorted(declared - functions):
        fail(f"declared in kinetic.h, not exported: {name}")
    for name in sorted(functions - declared):
        fail(f"exported, not declared in kinetic.h: {name}")
    for name, t in sorted(others.items()):
        fail(f"exported non-function symbol ({t}): {name}")
    print(f"exports: {len(functions)} functions, {len(others)} other symbols; kinetic.h declares {len(declared)}")

    # kinetic.pc: every absolute path lies in the prefix (after ${...} substitution).
    pc_path = os.path.join(lib, "pkgconfig", "kinetic.pc")
    with open(pc_path, encoding="utf-8") as f:
        pc = f.read()
    variables = dict(re.findall(r"^(\w+)=(.*)$", pc, flags=re.M))

    def expand(text):
        for _ in range(5):
            text = re.sub(r"\$\{(\w+)\}", lambda m: variables.get(m.group(1), ""), text)
        return text
    for path in re.findall(r"(?<![\w$])(/[^\s,:]+)", expand(pc)):
        if not os.path.abspath(path).startswith(prefix):
            fail(f"kinetic.pc names a path outside the prefix: {path}")
    if "swift" in pc.lower():
        fail("kinetic.pc mentions swift")
    print("kinetic.pc: " + expand(re.search(r"^Libs:(.*)$", pc, flags=re.M).group(1)).strip())
    return report()


def report():
    if failures:
        print(f"check_install: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("check_install: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
