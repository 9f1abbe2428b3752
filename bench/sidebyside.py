#!/usr/bin/env python3
"""Side-by-side table of mcc-score JSON files: one column group per tool.

    bench/sidebyside.py LABEL=score.json [LABEL=score.json ...]

Per examination and tool: values answered right, wrong, asked, the share of
the values with a known answer that were answered right, the total wall
time of the runs and the largest peak memory of one run."""
import json
import sys


def load(arg):
    label, _, path = arg.partition("=")
    with open(path) as f:
        data = json.load(f)
    per = data["summary"]["per_exam"]
    unknown_oracle = {}
    for v in data.get("values", []):
        if not v.get("oracle_known", True):
            unknown_oracle[v["exam"]] = unknown_oracle.get(v["exam"], 0) + 1
    return label, per, unknown_oracle


def main(argv):
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        sys.stderr.write(__doc__)
        return 2
    tools = [load(a) for a in argv[1:]]
    exams = []
    for _, per, _ in tools:
        for e in per:
            if e not in exams:
                exams.append(e)
    head = "%-26s" % "examination"
    for label, _, _ in tools:
        head += " | %-44s" % label
    print(head)
    sub = "%-26s" % ""
    for _ in tools:
        sub += " | %6s %5s %6s %6s %8s %8s" % ("right", "WRONG", "asked", "known%", "time(s)", "peakMiB")
    print(sub)
    for e in exams:
        line = "%-26s" % e
        for _, per, unk in tools:
            s = per.get(e)
            if not s:
                line += " | %-44s" % "-"
                continue
            known = s["asked"] - unk.get(e, 0)
            pct = 100.0 * s["right"] / known if known else 0.0
            line += " | %6d %5d %6d %5.1f%% %8.0f %8.0f" % (
                s["right"], s["wrong"], s["asked"], pct, s["time"], s["peak_kb"] / 1024.0)
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
