"""Statistics over runs, number formatting, and the table of figures (text and JSON rows)."""

import statistics


def stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values),
            "n": len(values), "values": values}


def central(value):
    if value is None:
        return None
    if isinstance(value, dict):
        return value["median"]
    return value


def fmt_number(v, digits):
    if v is None:
        return "n/a"
    if isinstance(v, str):
        return v
    if abs(v) >= 1e6:
        return "%.2fM" % (v / 1e6)
    if digits == 0 or abs(v) >= 1000:
        return "%.0f" % v
    return "%.*f" % (digits, v)


def fmt(value, digits=1):
    if value is None:
        return "n/a"
    if isinstance(value, dict):
        if value["n"] > 1 and value["min"] != value["max"]:
            return "%s [%s-%s]" % (fmt_number(value["median"], digits),
                                   fmt_number(value["min"], digits),
                                   fmt_number(value["max"], digits))
        return fmt_number(value["median"], digits)
    return fmt_number(value, digits)


class Table:
    def __init__(self):
        self.rows = []
        self.missing = []

    def add(self, key, label, unit, ours, isp=None, digits=1, target=None, met=None,
            ratio=True, required=True, note=None):
        o, i = central(ours), central(isp)
        r = None
        if ratio and isinstance(o, (int, float)) and isinstance(i, (int, float)) and i:
            r = o / i
        if required and ours is None:
            self.missing.append(label)
        row = {"key": key, "label": label, "unit": unit, "ours": ours, "isp": isp, "ratio": r,
               "target": target, "met": met, "digits": digits}
        if note:
            row["note"] = note
        self.rows.append(row)

    def render(self):
        header = ("figure", "unit", "motion-orientationd", "iio-sensor-proxy", "ratio", "target")
        lines = []
        for row in self.rows:
            if row.get("section"):
                lines.append(("-- %s" % row["section"], "", "", "", "", ""))
                continue
            target = row["target"] or ""
            if row["met"] is not None:
                target = "%s %s" % (target, "ok" if row["met"] else "MISSED")
            lines.append((row["label"], row["unit"], fmt(row["ours"], row["digits"]),
                          "-" if row["isp"] is None else fmt(row["isp"], row["digits"]),
                          "-" if row["ratio"] is None else "%.2f" % row["ratio"], target.strip()))
        widths = [max(len(str(x[c])) for x in lines + [header]) for c in range(len(header))]
        out = []
        sep = "  "
        out.append(sep.join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
        out.append(sep.join("-" * w for w in widths))
        for line in lines:
            if line[0].startswith("-- "):
                out.append(line[0])
                continue
            cells = [str(line[0]).ljust(widths[0]), line[1].ljust(widths[1]),
                     line[2].rjust(widths[2]), line[3].rjust(widths[3]),
                     line[4].rjust(widths[4]), line[5]]
            out.append(sep.join(cells).rstrip())
        return "\n".join(out)

    def section(self, title):
        self.rows.append({"section": title})

    def json_rows(self):
        return [{k: v for k, v in row.items() if k != "digits"} for row in self.rows]


def render_grid(header, rows):
    """A plain table: the first column left-aligned, the others right-aligned."""
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[c]) for row in cells) for c in range(len(header))]

    def line(row):
        return "  ".join([row[0].ljust(widths[0])]
                         + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]).rstrip()
    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)]
                     + [line(row) for row in cells[1:]])
