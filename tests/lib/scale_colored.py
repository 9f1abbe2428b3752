#!/usr/bin/env python3
"""Writes a smaller instance of an MCC colored model: the colored families
scale by the number of constants of their sorts, so keeping the first K
constants of a sort (or shortening a range) and renaming the constants the
guards name gives the model at another parameter.

usage: scale_colored.py MODEL OUT SORT=K ... [OLD:NEW ...]
"""
import sys
import xml.etree.ElementTree as ET

NS = "http://www.pnml.org/version-2009/grammar/pnml"


def local(tag):
    return tag.rsplit("}", 1)[-1]


def main(argv):
    model, out = argv[1], argv[2]
    sizes, renames = {}, {}
    for arg in argv[3:]:
        if "=" in arg:
            sort, k = arg.split("=", 1)
            sizes[sort] = int(k)
        else:
            old, new = arg.split(":", 1)
            renames[old] = new
    ET.register_namespace("", NS)
    tree = ET.parse(model)
    done = set()
    for el in tree.iter():
        if local(el.tag) == "namedsort" and el.get("id") in sizes:
            k = sizes[el.get("id")]
            for body in el:
                if local(body.tag) in ("cyclicenumeration", "finiteenumeration"):
                    consts = [c for c in body if local(c.tag) == "feconstant"]
                    for c in consts[k:]:
                        body.remove(c)
                elif local(body.tag) == "finiteintrange":
                    body.set("end", str(int(body.get("start")) + k - 1))
            done.add(el.get("id"))
        decl = el.get("declaration")
        if decl in renames:
            el.set("declaration", renames[decl])
    missing = set(sizes) - done
    if missing:
        sys.exit("scale_colored: no sort " + ", ".join(sorted(missing)))
    tree.write(out, xml_declaration=True, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv)
