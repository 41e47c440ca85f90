#!/usr/bin/env python3
"""Fails when modules inside a crate import each other in a circle.

A module is one .rs file under a crate's src/. An edge A -> B is a path in A that names B:
`crate::b::...`, `super::b` or `self::b`. A module and its own submodules count as one unit (a
parent that re-exports its children, and children that use the parent's shared types, is
Rust's facade pattern), so edges between a module and its ancestors or descendants are ignored.
Usage: module_cycles.py [ROOT]
"""
import re
import sys
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def module_of(src: Path, f: Path) -> tuple:
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("lib", "main", "mod"):
        parts = parts[:-1]
    return tuple(parts)


def strip(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def expand(path: str) -> list:
    """`a::{b, c::d}` -> [a::b, a::c::d] (enough depth for resolution)."""
    m = re.match(r"(.*?)\{(.*)\}$", path, flags=re.S)
    if not m:
        return [path]
    head, body = m.group(1), m.group(2)
    items, depth, cur = [], 0, ""
    for ch in body:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    out = []
    for i in items:
        i = i.strip()
        if i:
            out += expand(head + i)
    return out


def resolve(mods: set, base: tuple, rest: list) -> tuple:
    best = base
    for i in range(1, len(rest) + 1):
        cand = base + tuple(rest[:i])
        if cand in mods:
            best = cand
    return best


def edges_of(mods: set, me: tuple, text: str) -> set:
    out = set()
    paths = [p for u in re.findall(r"\buse\s+([^;]+);", text) for p in expand(re.sub(r"\s+", "", u))]
    paths += re.findall(rf"\b((?:crate|super|self)(?:::{IDENT})+)", text)
    for p in paths:
        segs = [s for s in p.split("::") if s and s != "*"]
        segs = [re.sub(r"\bas\b.*", "", s) for s in segs]
        if not segs:
            continue
        if segs[0] == "crate":
            base, rest = (), segs[1:]
        elif segs[0] in ("super", "self"):
            base = me
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    base = base[:-1]
                segs = segs[1:]
            rest = segs
        else:
            continue
        target = resolve(mods, base, rest)
        related = target[: len(me)] == me or me[: len(target)] == target
        if not related:
            out.add(target)
    return out


def cycles(graph: dict) -> list:
    index, low, stack, on, found, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    bad = 0
    for manifest in sorted(ROOT.glob("**/Cargo.toml")):
        src = manifest.parent / "src"
        if "target" in manifest.parts or "node_modules" in manifest.parts or not src.is_dir():
            continue
        files = {module_of(src, f): f for f in src.rglob("*.rs")}
        mods = set(files)
        graph = {m: edges_of(mods, m, strip(f.read_text())) for m, f in files.items()}
        for comp in cycles(graph):
            bad += 1
            names = sorted("::".join(m) or "(crate root)" for m in comp)
            print(f"{manifest.parent.relative_to(ROOT)}: modules import each other in a circle: {', '.join(names)}")
            for m in sorted(comp):
                for t in sorted(graph[m] & set(comp)):
                    print(f"    {'::'.join(m) or '(root)'} -> {'::'.join(t) or '(root)'}")
    if bad:
        print(f"{bad} circle(s); move the shared item to the lower module", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
