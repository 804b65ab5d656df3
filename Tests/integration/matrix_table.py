"""Prints the firmware matrix (test_firmware_matrix.py's cells, written where MO_MATRIX_TABLE
says) as a Markdown table: a row per behaviour, a column per flow, each cell "ok" or "WRONG"
with its detail in a list below. Usage: matrix_table.py CELLS.jsonl"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig.firmware import BEHAVIOURS  # noqa: E402 (the rig beside this script)

# The families in the order the matrix's tests are written (cells run in any order).
FAMILIES = ["orientation", "suspend", "tablet mode", "lifecycle"]


def main(path):
    cells = [json.loads(line) for line in open(path) if line.strip()]
    order = [b.name for b in BEHAVIOURS]
    cells.sort(key=lambda c: (FAMILIES.index(c["family"]), order.index(c["behaviour"])))
    behaviours, flows = [], []
    table = {}
    for cell in cells:
        if cell["behaviour"] not in behaviours:
            behaviours.append(cell["behaviour"])
        if cell["flow"] not in flows:
            flows.append(cell["flow"])
        # A flow run in more than one family (the first decision) is right only if right in all.
        key = (cell["behaviour"], cell["flow"])
        table[key] = table.get(key, True) and cell["ok"]
    print("| behaviour | " + " | ".join(flows) + " |")
    print("|---" * (len(flows) + 1) + "|")
    for behaviour in sorted(behaviours, key=order.index):
        row = [("ok" if table[(behaviour, flow)] else "**WRONG**") if (behaviour, flow) in table else "-"
               for flow in flows]
        print("| %s | %s |" % (behaviour, " | ".join(row)))
    right = sum(1 for ok in table.values() if ok)
    print("\n%d of %d cells right (%d checks)." % (right, len(table), len(cells)))
    for cell in cells:
        if not cell["ok"]:
            print("- %s, %s: %s" % (cell["behaviour"], cell["flow"], cell["detail"]))


if __name__ == "__main__":
    main(sys.argv[1])
