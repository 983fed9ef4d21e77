#!/usr/bin/env python3
"""docs.grafana_dashboard: every metric a panel of docs/grafana/decisiond-dashboard.json
queries is one the real server exports. Starts the built decisiond on free loopback ports
with a private state directory, scrapes its /metrics, and compares the family names (a
histogram's _bucket, _sum and _count included) with the decisiond_* names in every panel
expression. Also checks the shape Grafana needs to import the file: a Prometheus
datasource variable every panel and target uses, unique panel ids, rows and panels on the
24-column grid.

usage: check_dashboard.py DECISIOND_BINARY DASHBOARD_JSON
"""
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

METRIC = re.compile(r"\bdecisiond_[a-z0-9_]+")


def exported_names(binary):
    with tempfile.TemporaryDirectory(prefix="decisiond-grafana-") as state:
        server = subprocess.Popen(
            [binary, "--cores=2", "--listen=127.0.0.1:0", "--admin-listen=127.0.0.1:0", "--state-dir=" + state],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={k: v for k, v in os.environ.items()
                                                                   if not k.startswith("DECISIOND_")})
        try:
            admin = None
            seen = b""
            deadline = time.monotonic() + 10
            while admin is None and time.monotonic() < deadline:
                ready, _, _ = select.select([server.stderr], [], [], 0.2)
                if ready:
                    chunk = os.read(server.stderr.fileno(), 4096)
                    if not chunk:
                        break
                    seen += chunk
                    match = re.search(rb"serving public=\S+ admin=(\S+)", seen)
                    if match:
                        admin = match.group(1).decode()
            if admin is None:
                sys.exit("decisiond did not start:\n" + seen.decode(errors="replace"))
            text = urllib.request.urlopen("http://%s/metrics" % admin, timeout=10).read().decode()
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    names = set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[:2] == ["#", "TYPE"]:
            name, kind = parts[2], parts[3]
            names.add(name)
            if kind == "histogram":
                names.update({name + "_bucket", name + "_sum", name + "_count"})
    return names


def all_panels(panels):
    for panel in panels:
        yield panel
        yield from all_panels(panel.get("panels", []))


def main():
    binary, dashboard_path = sys.argv[1], sys.argv[2]
    with open(dashboard_path) as f:
        dashboard = json.load(f)
    problems = []

    variables = {v.get("name"): v for v in dashboard.get("templating", {}).get("list", [])}
    source = variables.get("datasource")
    if source is None or source.get("type") != "datasource" or source.get("query") != "prometheus":
        problems.append("no Prometheus datasource template variable named 'datasource'")

    exported = exported_names(binary)
    if not exported:
        problems.append("the server exported no metric family")
    ids = set()
    used = set()
    queried_panels = 0
    for panel in all_panels(dashboard.get("panels", [])):
        title = panel.get("title", "?")
        if panel.get("id") in ids:
            problems.append("panel id %s used twice" % panel.get("id"))
        ids.add(panel.get("id"))
        grid = panel.get("gridPos", {})
        if not (grid.get("w", 0) > 0 and grid.get("x", -1) >= 0 and grid["x"] + grid["w"] <= 24):
            problems.append("panel '%s' is off the 24-column grid: %s" % (title, grid))
        if panel.get("type") == "row":
            continue
        targets = panel.get("targets", [])
        if not targets:
            problems.append("panel '%s' has no query" % title)
        queried_panels += 1
        for target in [panel] + targets:
            uid = target.get("datasource", {}).get("uid")
            if uid != "${datasource}":
                problems.append("panel '%s' does not query the ${datasource} variable (uid %r)" % (title, uid))
        for target in targets:
            names = METRIC.findall(target.get("expr", ""))
            if not names:
                problems.append("panel '%s' target %s queries no decisiond metric" % (title, target.get("refId")))
            for name in names:
                used.add(name)
                if name not in exported:
                    problems.append("panel '%s' queries %s, which the server does not export" % (title, name))
    query = json.dumps(variables.get("instance", {}).get("query", ""))
    for name in METRIC.findall(query):
        if name not in exported:
            problems.append("variable 'instance' queries %s, which the server does not export" % name)

    if problems:
        print("\n".join(problems))
        return 1
    print("%d panels query %d metric names, all exported by %s" % (queried_panels, len(used), binary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
