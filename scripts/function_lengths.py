#!/usr/bin/env python3
"""Lists the functions of C++ and JavaScript sources longer than a bound, by brace matching.

  function_lengths.py [--max N] [--allow FILE] PATH...

A function's length counts the lines from its name to its closing brace, as ctags reports them
(`ctags --fields=+ne`): nested lambdas and JavaScript inner functions belong to the function that
holds them, and a JavaScript inner function is also measured on its own; a file's outermost
anonymous function, its module wrapper, is not measured. Comments, strings,
template literals, regular expression literals and preprocessor lines are blanked before the
braces are matched, so braces inside them do not count.

Prints one line per function over N lines (default 150), "LINES PATH:LINE NAME", longest first, and
exits 1 when there is one that the --allow file does not list as "PATH NAME" (a line each; '#'
starts a comment); a listed function that is no longer over the bound is reported too (exit 1), so
the list only shrinks.
"""
import argparse
import os
import re
import sys

CPP_EXT = (".cpp", ".cc", ".h", ".hpp")
JS_EXT = (".js", ".mjs")
JS_NOT_METHODS = {"if", "for", "while", "switch", "catch", "with", "function", "return", "do", "else", "try", "finally"}


def blank(text, js):
    """The text with comments, strings and (JS) regex literals replaced by spaces, newlines kept."""
    out = list(text)
    i, n = 0, len(text)
    prev_sig = ""  # last significant character, to tell a JS regex from a division

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif not js and c == "#" and (i == 0 or text[text.rfind("\n", 0, i) + 1:i].strip() == ""):
            j = i
            while True:  # a preprocessor line, with its backslash continuations
                e = text.find("\n", j)
                if e < 0:
                    e = n
                    break
                if text[e - 1] != "\\":
                    break
                j = e + 1
            wipe(i, e)
            i = e
        elif not js and c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delim = text[i + 2:open_paren]
            j = text.find(")" + delim + '"', open_paren)
            j = n if j < 0 else j + len(delim) + 2
            wipe(i, j)
            i = j
            prev_sig = '"'
        elif c in "\"'" or (js and c == "`"):
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    j += 1
                elif js and c == "`" and text.startswith("${", j):
                    depth = 0  # an interpolation: skip to its closing brace
                    while j < n:
                        if text[j] == "{":
                            depth += 1
                        elif text[j] == "}":
                            depth -= 1
                            if depth == 0:
                                break
                        j += 1
                elif c != "`" and text[j] == "\n":
                    break
                j += 1
            wipe(i, min(j + 1, n))
            i = j + 1
            prev_sig = '"'
        elif js and c == "/" and (prev_sig == "" or prev_sig in "(,=:[!&|?{};+-*%<>~^" or re.search(r"\b(return|typeof|case)\s*$", text[max(0, i - 8):i])):
            j = i + 1
            in_class = False
            while j < n and text[j] != "\n":
                if text[j] == "\\":
                    j += 1
                elif text[j] == "[":
                    in_class = True
                elif text[j] == "]":
                    in_class = False
                elif text[j] == "/" and not in_class:
                    break
                j += 1
            wipe(i, min(j + 1, n))
            i = j + 1
            prev_sig = '"'
        else:
            if not c.isspace():
                prev_sig = c
            i += 1
    return "".join(out)


def function_name_cpp(head):
    """The name before the parameter list of a C++ function head, or None when it is not one."""
    h = re.sub(r"\s+", " ", head).strip()
    if re.search(r"\b(namespace|extern)\b", h) and "(" not in h:
        return None
    if re.match(r"^(template ?<.*> ?)?(class|struct|union|enum)\b", h) and "(" not in h.split("{")[0].split(":")[0]:
        return None
    depth, first_paren = 0, -1
    for k, ch in enumerate(h):  # the first top-level '(' (a template argument list may hold one)
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif ch == "(" and depth == 0:
            first_paren = k
            break
    if first_paren < 0:
        return None
    m = re.search(r"((?:[\w~]+(?:<[^()]*>)?::)*(?:operator\s*[^\s(]+|[\w~]+))\s*$", h[:first_paren])
    if not m or m.group(1) in ("if", "for", "while", "switch", "catch", "return", "sizeof", "decltype"):
        return None
    if "=" in h[:first_paren].replace("operator", "").replace("==", ""):
        return None
    return m.group(1)


def function_name_js(head):
    h = re.sub(r"\s+", " ", head).strip()
    m = re.search(r"\bfunction\b\s*\*?\s*([\w$]*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$", h)
    if m:
        if m.group(1):
            return m.group(1)
        n = re.search(r"([\w$.]+)\s*[:=]\s*(?:async\s*)?function\b", h)
        return n.group(1) if n else "(anonymous)"
    if re.search(r"=>\s*$", h):
        n = re.search(r"([\w$.]+)\s*[:=]\s*(?:async\s*)?(?:\([^()]*\)|[\w$]+)\s*=>\s*$", h)
        return n.group(1) if n else "(arrow)"
    m = re.search(r"(?:^|[;,{}]\s*|\b(?:async|static|get|set)\s+)([\w$]+)\s*\([^()]*\)\s*$", h)
    if m and m.group(1) not in JS_NOT_METHODS:
        return m.group(1)
    return None


def functions(path):
    """(name, first line, last line) of every function of one file."""
    js = path.endswith(JS_EXT)
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank(f.read(), js)
    found = []
    stack = []  # (kind, name, start offset) per open brace; kind: scope, function, block
    head_start = 0
    line_at = []
    line = 1
    for ch in text:
        line_at.append(line)
        if ch == "\n":
            line += 1
    for i, ch in enumerate(text):
        if ch == "{":
            head = text[head_start:i]
            in_function = any(k == "function" for k, _, _ in stack)
            if js:
                name = function_name_js(head)
                kind = "function" if name else "block"
                if name == "(anonymous)" and not in_function:
                    kind = "block"  # a file's module wrapper, (function (global) { ... })(this)
            elif in_function:
                name, kind = None, "block"
            else:
                name = function_name_cpp(head)
                kind = "function" if name else "scope"
                tail = head.rstrip()
                if name and not re.search(r"(\)|\}|\bconst|\bnoexcept|\boverride|\bfinal|\bmutable|&|\btry|->\s*[\w:<>,* &]+)$", tail):
                    kind, name = "init", None  # a brace initializer in a constructor's initializer list
                if kind == "scope" and re.search(r"=\s*$|\w\s*$", tail) and not re.search(
                        r"\b(namespace|class|struct|union|enum|extern)\b", head):
                    kind = "init"  # an aggregate's initializer
            if kind != "function" and head.count("(") > head.count(")"):
                kind, name = "init", None  # inside a parameter list: a default value's braces
            start = i
            if kind == "function":
                # the line of the name: the last line of the head that holds the name
                idx = head.rfind(name.split("::")[-1]) if name not in ("(anonymous)", "(arrow)") else len(head.rstrip())
                start = head_start + max(idx, 0)
            stack.append((kind, name, start))
            if kind != "init":
                head_start = i + 1
        elif ch == "}":
            if not stack:
                head_start = i + 1
                continue
            kind, name, start = stack.pop()
            if kind == "function":
                found.append((name, line_at[start], line_at[i]))
            if kind != "init":
                head_start = i + 1
        elif ch == ";" and not (stack and stack[-1][0] == "init"):
            head_start = i + 1
    return found


def sources(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "vendor", "third_party"))
            for f in sorted(files):
                if f.endswith(CPP_EXT + JS_EXT) and not f.endswith(".min.js"):
                    yield os.path.join(root, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--max", type=int, default=150)
    ap.add_argument("--allow", help="file of 'PATH NAME' lines: functions known to be over the bound")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    allowed = set()
    if a.allow:
        with open(a.allow) as f:
            for l in f:
                l = l.split("#")[0].split()
                if len(l) == 2:
                    allowed.add((l[0], l[1]))
    long_ones = []
    for path in sources(a.paths):
        for name, first, last in functions(path):
            if last - first + 1 > a.max:
                long_ones.append((last - first + 1, path, first, name))
    failed = False
    seen = set()
    for n, path, first, name in sorted(long_ones, key=lambda r: (-r[0], r[1], r[2])):
        ok = (path, name) in allowed
        seen.add((path, name))
        failed |= not ok
        print(f"{n} {path}:{first} {name}{'  (allowed)' if ok else ''}")
    for path, name in sorted(allowed - seen):
        print(f"{path} {name}: allowed as over {a.max} lines but no longer is; remove it from the list")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
