#!/usr/bin/env python3
"""Writes a P/T net of a PNML file as a Promela model for Spin, for the
reference runs of bench/spin.sh: one process whose loop offers every
transition as an indivisible guarded step, so that Spin's state graph is
the net's marking graph (a marking is the vector of place variables; the
process adds its program counter, the same in every state).

    bench/pnml2promela.py MODEL.pnml [TYPE]

TYPE is the Promela type of a place (byte, short or int; byte by default).
Spin wraps a count that outgrows it without a word: bench/spin.sh checks
the number of states against mck's, and a wrong TYPE shows there.
Colored nets and nets with inhibitor or read arcs are refused."""
import sys
import xml.etree.ElementTree as ET


def text_int(node, ns, tag, default):
    child = node.find(ns + tag)
    if child is None:
        return default
    value = child.find(ns + "text")
    return int(value.text.strip()) if value is not None and value.text else default


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] not in ("byte", "short", "int")):
        sys.stderr.write(__doc__)
        return 2
    kind = argv[2] if len(argv) == 3 else "byte"
    # ElementTree never fetches external entities or DTDs
    root = ET.parse(argv[1]).getroot()
    ns = root.tag.split("}")[0] + "}" if root.tag.startswith("{") else ""
    for net in root.iter(ns + "net"):
        if "ptnet" not in net.get("type", ""):
            sys.stderr.write("%s: not a P/T net (%s)\n" % (argv[1], net.get("type")))
            return 2
    places = {}
    for p in root.iter(ns + "place"):
        places[p.get("id")] = text_int(p, ns, "initialMarking", 0)
    transitions = [t.get("id") for t in root.iter(ns + "transition")]
    pre = {t: {} for t in transitions}
    post = {t: {} for t in transitions}
    for a in root.iter(ns + "arc"):
        if a.get("type", "normal") != "normal":
            sys.stderr.write("%s: arc %s of type %s\n" % (argv[1], a.get("id"), a.get("type")))
            return 2
        src, dst = a.get("source"), a.get("target")
        weight = text_int(a, ns, "inscription", 1)
        if src in places:
            pre[dst][src] = pre[dst].get(src, 0) + weight
        else:
            post[src][dst] = post[src].get(dst, 0) + weight
    name = {p: "p%d" % i for i, p in enumerate(places)}
    out = ["%s %s = %d;" % (kind, name[p], m) for p, m in places.items()]
    out.append("active proctype net() {")
    out.append("do")
    for t in transitions:
        guard = " && ".join("%s >= %d" % (name[p], w) for p, w in pre[t].items()) or "true"
        change = {}
        for p, w in pre[t].items():
            change[p] = change.get(p, 0) - w
        for p, w in post[t].items():
            change[p] = change.get(p, 0) + w
        body = "; ".join("%s = %s %s %d" % (name[p], name[p], "+" if d > 0 else "-", abs(d))
                         for p, d in change.items() if d) or "skip"
        out.append(":: d_step { %s -> %s }  /* %s */" % (guard, body, t.replace("*/", "")))
    out.append("od")
    out.append("}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
