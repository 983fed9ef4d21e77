#!/usr/bin/env python3
"""The shape of the tree that docs/architecture.md promises, checked on every test run.

  layers      no include points up a layer: runtime < tls < http < libraries < endpoints < service
              (tools, tests and perf sit on top and may include anything);
  file_sizes  no source file over 600 lines;
  function_sizes
              no function body in a .cc file over 80 lines (found by braces: a block opened
              outside any function on a line that is not a namespace, class, struct, enum
              or initializer is a function body; the house style puts the brace on the
              signature's line);
  self_contained
              no code or doc points outside the repository for a contract (the design notes
              the project started from are not shipped with it, nor is its spec: docs/ states
              every contract, so neither a spec section nor "the [s]pec's" rule is a source).

Usage: check_structure.py SOURCE_DIR layers|file_sizes|function_sizes|self_contained
"""
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".h", ".cc"}
# Folders that hold no product code of their own layer: they may include anything.
TOP = ("tools/", "tests/", "perf/", "clients/", "packaging/", "build")

# Longest prefix wins. Endpoints are the HTTP handlers and what only they use.
LAYERS = [
    ("runtime/", 0, "runtime"),
    # The client's address under TLS: bytes and addresses, the PROXY protocol header.
    ("proxy_protocol/", 0.25, "proxy_protocol"),
    # A transport over the reactor's sockets; http/ is handed it and never names it.
    ("tls/", 0.5, "tls"),
    ("http/", 1, "http"),
    ("caps/", 2, "libraries"),
    ("cel/", 2, "libraries"),
    ("api_versions/", 2, "libraries"),
    ("redis_cluster/", 2, "libraries"),
    ("nats_jetstream/", 2, "libraries"),
    ("invalid_traffic/", 2, "libraries"),
    ("decision/", 2, "libraries"),
    ("tracking/", 2, "libraries"),
    ("decision/endpoint/", 3, "endpoints"),
    ("decision/explain/", 3, "endpoints"),
    ("decision/vast_tag/", 3, "endpoints"),
    ("tracking/endpoint/", 3, "endpoints"),
    ("service/", 4, "service"),
]

# Within the libraries, what one side must never see of another: tracking (tokens, dedup,
# the event log) sits under deciding, and the general libraries know neither.
NEVER = [
    # http/ reads and writes plaintext and does not know which transport carries it.
    ("http/", "tls/"),
    # The PROXY header is read below TLS; http/ gets the address it carries, never the layer.
    ("http/", "proxy_protocol/"), ("tls/", "proxy_protocol/"),
    ("tracking/", "decision/"),
    ("caps/", "decision/"), ("caps/", "tracking/"),
    ("cel/", "decision/"), ("cel/", "tracking/"), ("cel/", "caps/"),
    ("api_versions/", "decision/"), ("api_versions/", "tracking/"),
    # The Redis Cluster client speaks RESP to a cluster; what the keys mean is the cap store's.
    ("redis_cluster/", "decision/"), ("redis_cluster/", "tracking/"), ("redis_cluster/", "caps/"),
    # The NATS JetStream client moves messages, streams and buckets; events and catalogs are
    # what its users make of them.
    ("nats_jetstream/", "decision/"), ("nats_jetstream/", "tracking/"), ("nats_jetstream/", "caps/"),
    # Who is a robot is a judgement of user agents; what a robot's request gets is the
    # endpoints'.
    ("invalid_traffic/", "decision/"), ("invalid_traffic/", "tracking/"), ("invalid_traffic/", "caps/"),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    best = None
    for prefix, rank, name in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, rank, name)
    return best


def sources(root):
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and not rel.startswith(TOP) \
                and "node_modules" not in rel and not rel.startswith("."):
            yield rel, path


def check_layers(root):
    failures = []
    for rel, path in sources(root):
        own = layer_of(rel)
        if own is None:
            failures.append(f"{rel}: in no layer (add its folder to tests/structure/check_structure.py)")
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            included = match.group(1)
            target = layer_of(included)
            if target is not None and target[1] > own[1]:
                failures.append(f"{rel}:{number}: {own[2]} includes {target[2]}: {included}")
            for source, forbidden in NEVER:
                if rel.startswith(source) and included.startswith(forbidden):
                    failures.append(f"{rel}:{number}: {source} must not include {forbidden}: {included}")
    return failures


def check_file_sizes(root, limit=600):
    failures = []
    for rel, path in sources(root):
        lines = path.read_text(errors="replace").count("\n")
        if lines > limit:
            failures.append(f"{rel}: {lines} lines (at most {limit})")
    return failures


NOT_A_FUNCTION = re.compile(r"\b(namespace|class|struct|enum|union)\b|^\s*extern\b|=\s*\{|^\s*\{?\s*$|\[\]\s*=")


def without_literals(line):
    line = re.sub(r"//.*", "", line)
    line = re.sub(r'"([^"\\]|\\.)*"', '""', line)
    return re.sub(r"'([^'\\]|\\.)*'", "''", line)


def check_function_sizes(root, limit=80):
    failures = []
    for rel, path in sources(root):
        if not rel.endswith(".cc"):
            continue
        stack, start = [], None
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            code = without_literals(line)
            for char in code:
                if char == "{":
                    in_function = "function" in stack
                    kind = "block" if in_function else ("scope" if NOT_A_FUNCTION.search(code) else "function")
                    stack.append(kind)
                    if kind == "function":
                        start = number
                elif char == "}" and stack:
                    if stack.pop() == "function" and number - start + 1 > limit:
                        failures.append(f"{rel}:{start}: a function of {number - start + 1} lines (at most {limit})")
    return failures


# The design notes and the spec the project started from live outside the repository: the
# notes' name in any form; a spec section named as the source of a rule (a quoted section
# or "<Name> rules" after the word, with or without a comma between); and anything of
# "the [s]pec's" (its table, its minimum, its envelope): docs/ states the rule instead. A
# named public standard (the CEL spec, cel-spec) is not the project's spec. Names and forms
# are spelled with a character class so that these lines do not match themselves.
OUTSIDE = re.compile(r'\b[D]ESIGN\b|\.\./shared/spec|(?<![-\w])spec(,? "[A-Z]|,? [A-Z][a-z]+ rules?\b|: ")'
                     r"|\b[Tt]he [s]pec's\b")


def check_self_contained(root):
    failures = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.startswith(("build", ".git/")) or "node_modules" in rel:
            continue
        if path.suffix not in SOURCE_SUFFIXES | {".md", ".txt", ".cmake", ".py", ".sh", ".mjs", ".js", ".yaml", ".in"} \
                and path.name not in ("CMakeLists.txt", "Makefile", "run", "install-deps"):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                failures.append(f"{rel}:{number}: points outside the repository: {line.strip()[:120]}")
    return failures


def main():
    root = pathlib.Path(sys.argv[1])
    check = {"layers": check_layers, "file_sizes": check_file_sizes, "function_sizes": check_function_sizes,
             "self_contained": check_self_contained}[sys.argv[2]]
    failures = check(root)
    for failure in failures:
        print(failure)
    print(f"{sys.argv[2]}: {len(failures)} finding(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
