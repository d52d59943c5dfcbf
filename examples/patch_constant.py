"""Change a constant inside a compiled DXIL shader and write a valid container.

This is the patch engines such as Godot and O3DE make when they use
constants in DXIL as stand-ins for specialization constants: find the
constant, give it another value, put the module back, bring the parts that
describe the module up to date and re-sign the container.

    python examples/patch_constant.py IN.dxil OUT.dxil TYPE OLD NEW

TYPE is the constant's LLVM type (i32, i8, float, half, double, ...), OLD its
value now and NEW the value to give it. The constant is changed in the DXIL
part and, when the container carries one, in the debug module (ILDB), so the
two stay the same program. Then the derived parts (SFI0, ISG1, OSG1, PSG1,
PSV0, HASH) are rebuilt from the module, the container is signed with the
retail digest, written to OUT, read back and checked: `dxinfo --verify`'s
checks pass and the module read back has the new value.

Every use of the constant in its scope (its function, or the whole module)
sees the new value, as LLVM constants are shared. A new value that another
constant of the type already has makes the two one constant, and the module's
values are numbered again as dxc numbers them. The library refuses a constant
that metadata names (the entry point or resource records would change too).
"""

import argparse
import struct
import sys

import dxcopy

# Parts whose module holds the shader's code.
CODE_PARTS = ("DXIL", "ILDB")


def as_type(type_name: str, text: str):
    """The value `text` as the library reports it for `type_name`: an int
    for an integer type, the float rounded to the type for the others."""
    if type_name.startswith("i"):
        return int(text, 0)
    value = float(text)
    if type_name == "float":
        return struct.unpack("<f", struct.pack("<f", value))[0]
    if type_name == "half":
        return struct.unpack("<e", struct.pack("<e", value))[0]
    return value


def patch(container: dxcopy.Container, type_name: str, old, new) -> bytes:
    """The container with constant `type_name old` set to `new` in each code
    part, its derived parts rebuilt and its digest made again."""
    edit = container.edit()
    for name in CODE_PARTS:
        if name not in container:
            continue
        module = container.module(name)

        def matching():
            return [k for k in module.constants() if k.type == type_name and k.value == old]

        count = len(matching())
        if not count:
            raise SystemExit(f"{name}: no constant {type_name} {old}")
        # LLVM keeps one constant per type and value in a scope: one per
        # function that uses it, or one for the whole module. A change that
        # merges two constants numbers the values again, so list them anew.
        for _ in range(count):
            found = matching()
            if not found:
                break
            module.set_constant(found[0].id, new, function=found[0].function)
        edit.update(name, module.to_program())
    return edit.rebuild_parts().finish(digest="retail")


def check(data: bytes, type_name: str, new) -> None:
    """Raises AssertionError unless `data` verifies and its module has the new value."""
    c = dxcopy.Container.from_bytes(data)
    problems = [str(f) for f in c.verify() if f.is_problem]
    assert not problems, problems
    assert c.digest_kind == "retail", c.digest_kind
    values = [k.value for k in c.module("DXIL").constants() if k.type == type_name]
    assert new in values, (type_name, new, values)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("type", help="the constant's LLVM type: i32, float, half, ...")
    p.add_argument("old", help="its value now")
    p.add_argument("new", help="the value to give it")
    args = p.parse_args(argv)
    old = as_type(args.type, args.old)
    new = as_type(args.type, args.new)
    container = dxcopy.Container.open(args.input)
    try:
        data = patch(container, args.type, old, new)
    except dxcopy.Error as e:
        print(f"patch_constant: {e}", file=sys.stderr)
        return 1
    check(data, args.type, new)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"{args.output}: {args.type} {old} -> {new}, parts rebuilt, signed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
