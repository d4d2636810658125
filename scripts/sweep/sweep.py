#!/usr/bin/env python3
"""Lists every place in a source tree that can print a failure, with its message template.

The sweep reads a source tree at a pinned version and writes one TSV row per printing site:

    component  version  repo@tag:path:line  kind  template

`template` is the message as the code writes it, string literals kept and everything else (a
variable, a call, a `%s`, a `{}`, a `%v`) normalised to `{}`. Tabs and newlines inside a message are
written as spaces so a row stays a row.

Sources (one of):
  --git-dir DIR --ref TAG      a git directory (e.g. a mirror) at a tag or commit; read with
                               `git ls-tree` / `git cat-file`, nothing is checked out
  --zip FILE                   a zip (a Maven `-sources.jar`, a Go module zip)
  --dir DIR                    a plain folder

Options:
  --component NAME --version V   the first two columns
  --cite OWNER/REPO@TAG          the citation prefix of the third column
  --under PATH                   only files under PATH (repeatable; relative to the tree root)
  --strip PREFIX                 drop PREFIX from paths inside the source before `--under`
  --cite-prefix PREFIX           put PREFIX before each path in the citation (a sources jar's
                                 `org/...` lives under `<module>/src/main/java/` in the repo)
  --exclude REGEX                skip paths matching REGEX (default: tests and generated code)

What is read (see scripts/sweep/README.md for the full list and what is not):
  Java   throw/new XxxException(...) and XxxError(...), LOG/log/logger .error/.warn(...),
         Preconditions checkArgument/checkState/checkNotNull messages, String.format and
         MessageFormat inside them, `static final String X = "..."` constants whose name says
         error/message/reason, the Apache operator's EventRecorder.Reason.* events.
  Go     fmt.Errorf, errors.New/Errorf/Wrap/Wrapf, klog.Error*/Warning*/Fatal*/Exit*,
         log/logger .Error*/.Warn*, framework.NewStatus/AsStatus, recorder.Event/Eventf,
         `ErrReason... = "..."`, `Reason... = "..."`, `Err... = errors.New(...)` constants.
  shell  echo/printf to stderr, and echo lines followed by `exit N` (N != 0).
  C++    vm_exit_during_initialization, vm_exit_out_of_memory, report_vm_error, jio_fprintf /
         log_warning / warning / fatal with a literal format.
Python 3 standard library only.
"""

import argparse
import io
import os
import re
import subprocess
import sys
import zipfile

DEFAULT_EXCLUDE = r"(^|/)(src/test|test|tests|testdata|testing|e2e|fixtures?|examples?|vendor|third_party|hack|docs?)/|_test\.go$|Test[A-Z]?\w*\.java$|\.pb\.go$|zz_generated|generated\."

EXTS = {".java": "java", ".go": "go", ".sh": "sh", ".cpp": "cpp", ".hpp": "cpp", ".c": "cpp", ".h": "cpp", ".scala": "scala"}
FORCED_LANG = None


# ---------------------------------------------------------------------------------------------
# sources


def git_files(git_dir, ref, unders, strip):
    args = ["git", "--git-dir", git_dir, "ls-tree", "-r", "--full-tree", ref]
    out = subprocess.run(args, check=True, capture_output=True).stdout.decode("utf-8", "replace")
    wanted = []
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        mode, typ, sha = meta.split()
        if typ != "blob":
            continue
        wanted.append((path, sha))
    wanted = [(p, s) for p, s in wanted if keep(p, unders, strip)]
    if not wanted:
        return
    proc = subprocess.Popen(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    for path, sha in wanted:
        proc.stdin.write((sha + "\n").encode())
        proc.stdin.flush()
        header = proc.stdout.readline().decode().split()
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)
        yield path, data.decode("utf-8", "replace")
    proc.stdin.close()
    proc.wait()


def zip_files(zip_path, unders, strip):
    with zipfile.ZipFile(zip_path) as z:
        for name in sorted(z.namelist()):
            if name.endswith("/") or not keep(name, unders, strip):
                continue
            yield name, z.read(name).decode("utf-8", "replace")


def dir_files(root, unders, strip):
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            full = os.path.join(base, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if keep(rel, unders, strip):
                with open(full, encoding="utf-8", errors="replace") as fh:
                    yield rel, fh.read()


EXCLUDE = None


def keep(path, unders, strip):
    if strip and path.startswith(strip):
        path = path[len(strip):]
    ext = os.path.splitext(path)[1]
    if ext not in EXTS and not path.endswith(".sh") and not FORCED_LANG:
        return False
    if unders and not any(path == u or path.startswith(u.rstrip("/") + "/") for u in unders):
        return False
    if EXCLUDE.search(path):
        return False
    return True


# ---------------------------------------------------------------------------------------------
# a small lexer shared by Java, Go and C++: string literals, comments, balanced brackets


def blank_comments(src, lang):
    """The source with comments replaced by spaces (newlines kept), so offsets and lines hold."""
    out = list(src)
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == '"' and lang == "java" and src.startswith('"""', i):
            j = src.find('"""', i + 3)
            i = n if j < 0 else j + 3
        elif c == '"':
            i = skip_string(src, i, '"')
        elif c == "'" and lang in ("java", "cpp", "go"):
            i = skip_string(src, i, "'")
        elif c == "`" and lang == "go":
            j = src.find("`", i + 1)
            i = n if j < 0 else j + 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out)


def skip_string(src, i, q):
    n = len(src)
    j = i + 1
    while j < n:
        if src[j] == "\\":
            j += 2
            continue
        if src[j] == q or src[j] == "\n":
            return j + 1
        j += 1
    return n


def call_args(src, open_paren):
    """The top-level arguments (source text) of the call whose `(` is at open_paren, and the
    index after its `)`; None when unbalanced."""
    depth = 0
    args, start = [], open_paren + 1
    i, n = open_paren, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            if src.startswith('"""', i):
                j = src.find('"""', i + 3)
                i = n if j < 0 else j + 3
                continue
            i = skip_string(src, i, '"')
            continue
        if c == "'":
            i = skip_string(src, i, "'")
            continue
        if c == "`":
            j = src.find("`", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(src[start:i])
                return [a.strip() for a in args if a.strip()], i + 1
        elif c == "," and depth == 1:
            args.append(src[start:i])
            start = i + 1
        elif c == ";" and depth <= 1:
            return None
        i += 1
    return None


def split_top(expr, sep):
    """Splits an expression on a one-character operator at bracket depth 0, outside strings."""
    parts, depth, start, i, n = [], 0, 0, 0, len(expr)
    while i < n:
        c = expr[i]
        if c == '"':
            if expr.startswith('"""', i):
                j = expr.find('"""', i + 3)
                i = n if j < 0 else j + 3
                continue
            i = skip_string(expr, i, '"')
            continue
        if c == "'":
            i = skip_string(expr, i, "'")
            continue
        if c == "`":
            j = expr.find("`", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(expr[start:i])
            start = i + 1
        i += 1
    parts.append(expr[start:])
    return [p.strip() for p in parts]


ESCAPES = {"n": " ", "t": " ", "r": " ", '"': '"', "'": "'", "\\": "\\", "0": ""}


def decode_literal(tok):
    """The text of one string literal token ("...", `...`, \"\"\"...\"\"\"), or None."""
    if tok.startswith('"""') and tok.endswith('"""') and len(tok) >= 6:
        body = tok[3:-3]
        return " ".join(l.strip() for l in body.splitlines() if l.strip())
    if len(tok) >= 2 and tok[0] == "`" and tok[-1] == "`":
        return tok[1:-1].replace("\n", " ")
    if len(tok) >= 2 and tok[0] == '"' and tok[-1] == '"':
        body, out, i = tok[1:-1], [], 0
        while i < len(body):
            c = body[i]
            if c == "\\" and i + 1 < len(body):
                nxt = body[i + 1]
                if nxt == "u" and re.match(r"[0-9a-fA-F]{4}", body[i + 2 : i + 6]):
                    out.append(chr(int(body[i + 2 : i + 6], 16)))
                    i += 6
                    continue
                out.append(ESCAPES.get(nxt, nxt))
                i += 2
                continue
            out.append(c)
            i += 1
        return "".join(out)
    return None


# printf verbs (Java's String.format, Go's fmt, C's printf) and MessageFormat's {0}
PRINTF = re.compile(r"%(?:\[\d+\])?[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t|" r"SIZE_FORMAT|INTX_FORMAT|UINTX_FORMAT)?[a-zA-Z]")
MSGFMT = re.compile(r"\{\d+(?:,[^}]*)?\}")
FORMAT_CALLS = re.compile(
    r"^(?:String\.format|MessageFormat\.format|fmt\.Sprintf|fmt\.Errorf|errors\.Errorf|\w+\.formatted|"
    r"StringUtils\.format|ExceptionUtils\.format|format|Strings\.lenientFormat|err_msg)\s*\($"
)


def normalise(t):
    t = t.replace("%%", "\x00")
    # Go's %q prints its value quoted: keep the quotes, they are part of the printed line
    t = re.sub(r"%(?:\[\d+\])?[-+# 0]*q", '"\x03"', t)
    t = PRINTF.sub("{}", t)
    t = t.replace("\x00", "%")
    t = MSGFMT.sub("{}", t)
    t = t.replace("\x03", "{}")
    t = re.sub(r"\{\}(\s*\{\})+", "{}", t)
    t = re.sub(r"[\t\r\n]+", " ", t)
    return t.strip()


class Consts:
    """String constants of one file (`NAME = "..."`), so a message held in one resolves."""

    def __init__(self, src, lang):
        self.map = {}
        if lang == "java":
            pat = re.compile(r"\bString\s+([A-Z][A-Z0-9_]*)\s*=\s*((?:\"(?:[^\"\\\n]|\\.)*\"\s*\+?\s*)+);")
        else:
            pat = re.compile(r"\b([A-Za-z_]\w*)\s*(?:string\s*)?=\s*((?:\"(?:[^\"\\\n]|\\.)*\"|`[^`]*`)(?:\s*\+\s*(?:\"(?:[^\"\\\n]|\\.)*\"))*)\s*$", re.M)
        for m in pat.finditer(src):
            parts = [decode_literal(p) for p in split_top(m.group(2).rstrip("+ "), "+")]
            if all(p is not None for p in parts):
                self.map[m.group(1)] = "".join(parts)


# String constants of other files (`--consts-under`), by class: a message assembled with a constant
# another module declares (`MSG_HA_METADATA_NOT_AVAILABLE + " to restore from last state."`, the
# constant in the operator API's CommonStatus) resolves when the file imports it statically or names
# it `Class.NAME`.
GLOBAL_CONSTS = {}


def add_global_consts(path, src):
    if not path.endswith(".java"):
        return
    cls = os.path.splitext(os.path.basename(path))[0]
    c = Consts(blank_comments(src, "java"), "java")
    if c.map:
        GLOBAL_CONSTS.setdefault(cls, {}).update(c.map)


def import_consts(code, consts):
    for m in re.finditer(r"^\s*import\s+static\s+[\w.]*?\b([A-Z]\w*)\.([A-Z][A-Z0-9_]*)\s*;", code, re.M):
        v = GLOBAL_CONSTS.get(m.group(1), {}).get(m.group(2))
        if v is not None:
            consts.map.setdefault(m.group(2), v)
    for cls, names in GLOBAL_CONSTS.items():
        if cls + "." in code:
            for n, v in names.items():
                consts.map.setdefault(cls + "." + n, v)


def template(expr, consts, depth=0):
    """The message template of an argument expression: literals kept, the rest `{}`; None when
    the expression holds no literal text."""
    expr = expr.strip()
    if depth > 4 or not expr:
        return None
    # a cast or parenthesised expression
    while expr.startswith("(") and expr.endswith(")") and call_args(expr, 0) and call_args(expr, 0)[1] == len(expr):
        inner = expr[1:-1].strip()
        if not inner:
            return None
        expr = inner
    terms = split_top(expr, "+")
    out, literal = [], False
    for t in terms:
        lit = decode_literal(t)
        if lit is not None:
            out.append(lit.replace("{}", "\x01"))
            literal = True
            continue
        if t in consts.map:
            out.append(consts.map[t].replace("{}", "\x01"))
            literal = True
            continue
        m = re.match(r"^([\w.]+)\s*\(", t)
        if m and FORMAT_CALLS.match(t[: m.end()]):
            a = call_args(t, m.end() - 1)
            if a and a[0] and a[1] == len(t):
                inner = template(a[0][0], consts, depth + 1)
                if inner is not None:
                    out.append(inner.replace("{}", "\x01"))
                    literal = True
                    continue
        # `"...".formatted(x)` (Java 15+)
        m = re.match(r'^("(?:[^"\\]|\\.)*")\s*\.\s*formatted\s*\(', t)
        if m:
            out.append(normalise(decode_literal(m.group(1))).replace("{}", "\x01"))
            literal = True
            continue
        out.append("\x01")
    if not literal:
        return None
    text = "".join(out)
    text = normalise(text).replace("\x01", "{}")
    text = re.sub(r"\{\}(\s*\{\})+", "{}", text)
    if not re.search(r"[A-Za-z]{2}", text):
        return None
    return text


# ---------------------------------------------------------------------------------------------
# Java

JAVA_CALL = re.compile(
    r"(?P<throw>\bthrow\s+)?\bnew\s+(?P<exc>[A-Z]\w*(?:Exception|Error|Failure))\s*\("
    r"|\b(?P<logger>LOG|LOGGER|log|logger|LOG_ERROR)\s*\.\s*(?P<level>error|warn)\s*\("
    r"|\b(?:Preconditions\s*\.\s*)?(?P<check>checkArgument|checkState|checkNotNull|checkElementIndex)\s*\("
    r"|\b(?P<event>triggerEvent|triggerEventOnce|triggerEventByKey)\s*\("
    r"|\bupdateStatusForError\s*\("
    r"|\breturn\s+(?P<valid>Optional\s*\.\s*of)\s*\("
    r"|\b(?P<append>builder|sb|errors?|errorBuilder)\s*\.\s*append\s*\("
)
JAVA_CONST = re.compile(
    r"\bString\s+(?P<name>[A-Z][A-Z0-9_]*(?:ERR|ERROR|MSG|MESSAGE|REASON|WARN|WARNING|FAILURE|FAILED)[A-Z0-9_]*)\s*=\s*"
)


JAVA_MSGVAR = re.compile(
    r"\b(?:final\s+)?String\s+(?P<var>\w*(?:[mM]essage|[mM]sg|[eE]rror[A-Za-z]*|[dD]iagnostics?|[rR]eason))\s*=\s*"
)


def java(path, src):
    code = blank_comments(src, "java")
    consts = Consts(code, "java")
    import_consts(src, consts)
    rows = []
    # a message built into a local variable, then logged or thrown (`final String message =
    # String.format("The heartbeat of TaskManager with id %s timed out.", id); ... new
    # TimeoutException(message)`): the variable's text is the printed one
    for m in JAVA_MSGVAR.finditer(code):
        end = m.end()
        depth, i, n = 0, end, len(code)
        while i < n:
            c = code[i]
            if c == '"':
                i = skip_string(code, i, '"')
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif c == ";" and depth == 0:
                break
            i += 1
        expr = code[end:i]
        if '"' not in expr:
            continue
        t = template(expr, consts)
        if t and " " in t:
            rows.append((code.count("\n", 0, m.start()) + 1, "message " + m.group("var"), t))
    # a message assembled in a StringBuilder and thrown or returned whole (fabric8's
    # `sb.append("Failure executing: ").append(request.method()).append(" at: ")...`, then
    # `new KubernetesClientException(sb.toString(), ...)`): the appends in order, `{}` for values
    for m in re.finditer(r"\bStringBuilder\s+(?P<var>\w+)\s*=\s*new\s+StringBuilder\s*\(\s*\)\s*;", code):
        var, start = m.group("var"), m.end()
        depth, i = 0, start
        while i < len(code):
            c = code[i]
            if c == '"':
                i = skip_string(code, i, '"')
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth < 0:
                    break
            i += 1
        region = code[start:i]
        use = re.search(r"(?:(?P<throw>\bthrow\s+)?\bnew\s+(?P<exc>[A-Z]\w*(?:Exception|Error))\s*\(\s*" + var + r"\.toString\(\)|\breturn\s+" + var + r"\.toString\(\))", region)
        if not use:
            continue
        parts, literal = [], False
        for am in re.finditer(r"\.\s*append\s*\(", region[: use.start()]):
            a = call_args(region, am.end() - 1)
            if not a or not a[0]:
                continue
            lit = decode_literal(a[0][0].strip())
            if lit is not None:
                parts.append(lit)
                literal = True
            else:
                t = template(a[0][0], consts)
                parts.append(t if t else "{}")
                literal = literal or bool(t)
        if not literal:
            continue
        t = re.sub(r"\{\}(\s*\{\})+", "{}", normalise("".join(parts)))
        if re.search(r"[A-Za-z]{3}", t) and " " in t:
            kind = ("throw " if use.group("throw") else "new ") + use.group("exc") if use.group("exc") else "message " + var
            rows.append((code.count("\n", 0, m.start()) + 1, kind, t))
    # an exception's own getMessage() that formats its fields (the Kubernetes Java client's
    # ApiException: `String.format(Locale.ROOT, "Message: %s%nHTTP response code: %s...", ...)`)
    for m in re.finditer(r"\bString\s+getMessage\s*\(\s*\)\s*\{\s*return\s+String\s*\.\s*format\s*\(", code):
        a = call_args(code, m.end() - 1)
        if not a or not a[0]:
            continue
        args = [x for x in a[0] if "Locale" not in x]
        t = template(args[0].replace("%n", " "), consts) if args else None
        if t:
            rows.append((code.count("\n", 0, m.start()) + 1, "message getMessage", t))
    for m in JAVA_CALL.finditer(code):
        a = call_args(code, m.end() - 1)
        if not a:
            continue
        args = a[0]
        line = code.count("\n", 0, m.start()) + 1
        if m.group("exc"):
            kind = ("throw " if m.group("throw") else "new ") + m.group("exc")
            cand = args
        elif m.group("logger"):
            kind = "log." + m.group("level")
            cand = args[:1]
        elif m.group("check"):
            kind = m.group("check")
            cand = args[1:2]
        elif m.group("event"):
            reason = next((x for x in args if "Reason." in x), None)
            kind = "event"
            if reason:
                r = re.search(r"Reason\.(\w+)", reason).group(1)
                kind = "event " + r
                rows.append((line, "event-reason", r))
            idx = args.index(reason) if reason in args else 0
            cand = [x for x in args[idx + 1 :] if "Component." not in x and "EventRecorder.Type" not in x]
        elif m.group("valid") or m.group("append"):
            # a validator's refusal: `return Optional.of("...")`, or a part of the message it
            # collects in a StringBuilder and returns as one (`builder.append(component + " resource
            # memory parse error: " + e.getMessage())` ... `return Optional.of(errorMessage)`)
            if "alidat" not in path:
                continue
            kind = "validation"
            cand = args[:1]
        else:
            kind = "status.error"
            cand = args
        for x in cand:
            t = template(x, consts)
            if t:
                rows.append((line, kind, t))
                break
    for m in JAVA_CONST.finditer(code):
        name = m.group("name")
        if name in consts.map:
            t = normalise(consts.map[name])
            if re.search(r"[A-Za-z]{2}", t) and " " in t:
                rows.append((code.count("\n", 0, m.start()) + 1, "const " + name, t))
    # EventRecorder.Reason enum: each reason is a printed event reason
    em = re.search(r"\benum\s+Reason\s*\{([^}]*)\}", code)
    if em and path.endswith("EventRecorder.java"):
        start = code.count("\n", 0, em.start()) + 1
        for i, l in enumerate(code[em.start() : em.end()].splitlines()):
            for r in re.findall(r"^\s*([A-Z]\w*)\s*[,;]?\s*$", l):
                rows.append((start + i, "event-reason", r))
    return rows


# ---------------------------------------------------------------------------------------------
# Scala (Akka's and Pekko's remoting): read as Java once its interpolated strings are plain ones

SCALA_INTERP = re.compile(r'\b[sf](?P<q>"""|")(?P<body>.*?)(?P=q)', re.S)
SCALA_LOG = re.compile(
    r"\b(?P<logger>log|markerLog|logger)\s*\.\s*(?P<level>error|warning)\s*\("
)


def scala(path, src):
    """`s"...${x}..."` and `f"..."` become `"...{}..."` (one line each, so line numbers hold:
    a triple-quoted string keeps its newlines as spaces plus the same count of newlines after
    it); `log.warning(...)` / `log.error(...)` (Akka's LoggingAdapter, with `{}` placeholders)
    are read like Java's loggers; `throw new XxxException(...)` as in Java."""

    def plain(m):
        body = m.group("body")
        lines = body.count("\n")
        body = re.sub(r"\$\{(?:[^{}]|\{[^{}]*\})*\}|\$[A-Za-z_]\w*", "{}", body).replace("$$", "$")
        body = body.replace("\n", " ").replace('"', '\\"') if m.group("q") == '"""' else body
        return '"' + body + '"' + "\n" * lines

    code = SCALA_INTERP.sub(plain, src)
    code = re.sub(r'"""(.*?)"""', lambda m: '"' + m.group(1).replace("\n", " ").replace('"', '\\"') + '"' + "\n" * m.group(1).count("\n"), code, flags=re.S)
    rows = [r for r in java(path, code) if not r[1].startswith("log.")]
    blank = blank_comments(code, "java")
    consts = Consts(blank, "java")
    for m in SCALA_LOG.finditer(blank):
        a = call_args(blank, m.end() - 1)
        if not a or not a[0]:
            continue
        line = blank.count("\n", 0, m.start()) + 1
        # Akka's log.error(cause, template, args...) puts the cause first
        for x in a[0][:2]:
            t = template(x, consts)
            if t:
                rows.append((line, "log." + m.group("level"), t))
                break
    return rows


# ---------------------------------------------------------------------------------------------
# Go

GO_CALL = re.compile(
    r"\b(?P<name>fmt\.Errorf|errors\.New|errors\.Errorf|errors\.Wrapf?|pkgerrors\.Wrapf?|"
    r"klog\.(?:V\(\d+\)\.)?(?:ErrorS|Errorf|Error|Warningf|Warning|WarningS|Fatalf|Fatal|Exitf|Exit|ErrorSDepth)|"
    r"(?:framework|fwk)\.NewStatus|(?:framework|fwk)\.AsStatus|"
    r"\w*(?:[lL]og|[lL]ogger)\.(?:Errorf|Error|Warnf|Warn|Warningf|Warning)|"
    r"\w*(?:[rR]ecorder|Recorder\(\))\.(?:Eventf|Event|AnnotatedEventf)|"
    r"field\.(?:Invalid|Required|Forbidden|NotSupported|Duplicate|TooLong|TooMany)|"
    r"apierrors\.New\w+|status\.Errorf)\s*\("
)
GO_CONST = re.compile(
    r"^\s*(?P<name>(?:Err|Reason|Msg|Message|Failed|Fail)[A-Za-z0-9_]*|[A-Za-z0-9_]*(?:Reason|Err|Error|Msg|Message))\s*(?:string\s*)?=\s*(?P<val>\"(?:[^\"\\\n]|\\.)*\"|`[^`]*`|errors\.New\(|fmt\.Errorf\()",
    re.M,
)


GO_SPRINTF = re.compile(
    r"\b(?P<var>\w*(?:[eE]rr|[rR]eason|[mM]sg|[mM]essage)\w*)\s*(?::=|=|:)\s*"
    r"(?:(?P<call>fmt\.Sprintf)\s*\(|(?P<lit>\"(?:[^\"\\\n]|\\.)*\"))"
)


def go(path, src):
    code = blank_comments(src, "go")
    consts = Consts(code, "go")
    rows = []
    for m in GO_CALL.finditer(code):
        a = call_args(code, m.end() - 1)
        if not a:
            continue
        args = a[0]
        name = m.group("name")
        line = code.count("\n", 0, m.start()) + 1
        kind = name if name.startswith("klog.") else re.sub(r"^\w*([lL]og|[lL]ogger)\.", r"log.", name)
        kind = re.sub(r"^\w*(?:[rR]ecorder|Recorder\(\))\.", "event.", kind)
        if kind.startswith("event."):
            # Event(obj, type, reason, message) / Eventf(obj, type, reason, format, args...)
            off = 1 if kind == "event.AnnotatedEventf" else 0
            if len(args) >= 3 + off:
                r = template(args[2 + off], consts)
                if r:
                    rows.append((line, "event-reason", r))
                if len(args) >= 4 + off:
                    t = template(args[3 + off], consts)
                    if t:
                        rows.append((line, "event " + (r or "{}"), t))
            continue
        if name.startswith("field."):
            cand = args[2:3] if name != "field.Required" else args[1:2]
        elif "ErrorS" in name:
            cand = args[1:2]
        elif name.endswith("Wrap") or name.endswith("Wrapf"):
            cand = args[1:2]
        elif name.endswith("NewStatus"):
            cand = args[1:]
        else:
            cand = args
        for x in cand:
            t = template(x, consts)
            if t:
                rows.append((line, kind, t))
                break
    # a message built into a variable or a struct field, printed later:
    # `errReason := fmt.Sprintf("node(s) had untolerated taint {%s: %s}", ...)`, `Reason: "..."`
    for m in GO_SPRINTF.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        if m.group("call"):
            a = call_args(code, m.end() - 1)
            t = template(a[0][0], consts) if a and a[0] else None
        else:
            lit = decode_literal(m.group("lit"))
            t = normalise(lit) if lit else None
            if t and " " not in t and "eason" not in m.group("var"):
                t = None
        if t and re.search(r"[A-Za-z]{3}", t):
            rows.append((line, "message " + m.group("var"), t))
    # a message a function builds and returns, printed by its caller (the API server's
    # `forbiddenMessage` returns `User %q cannot %s resource %q ...` for responsewriters.Forbidden)
    for fm in re.finditer(r"^func\s+(?:\([^)]*\)\s*)?(?P<fn>\w*(?:[Mm]essage|[Rr]eason|[Ee]rror[A-Z]?\w*))\s*\(", code, re.M):
        body_start = code.find("{", fm.end())
        if body_start < 0:
            continue
        depth, i = 0, body_start
        while i < len(code):
            c = code[i]
            if c == '"':
                i = skip_string(code, i, '"')
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        for rm in re.finditer(r"\breturn\s+fmt\.Sprintf\s*\(", code[body_start:i]):
            at = body_start + rm.end() - 1
            a = call_args(code, at)
            t = template(a[0][0], consts) if a and a[0] else None
            if t and " " in t:
                rows.append((code.count("\n", 0, body_start + rm.start()) + 1, "message " + fm.group("fn"), t))
    # the event reasons a package declares (`FailedMountVolume = "FailedMount"` in events.go)
    if re.search(r"(^|/)events?\.go$", path):
        for m in re.finditer(r'^\s*([A-Z]\w*)\s*(?:string\s*)?=\s*"([A-Za-z]+)"\s*$', code, re.M):
            rows.append((code.count("\n", 0, m.start()) + 1, "event-reason", m.group(2)))
    for m in GO_CONST.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        val = m.group("val")
        if val.endswith("("):
            a = call_args(code, m.end() - 1)
            t = template(a[0][0], consts) if a and a[0] else None
        else:
            lit = decode_literal(val)
            t = normalise(lit) if lit else None
        if t and " " in t or (t and m.group("name").startswith("Reason")):
            rows.append((line, "const " + m.group("name"), t))
    return rows


# ---------------------------------------------------------------------------------------------
# shell

SH_ECHO = re.compile(r"^\s*(?:echo|printf|>&2\s+echo)\b(?P<rest>.*)$")


def shell(path, src):
    rows = []
    lines = src.splitlines()
    # `USAGE="Usage: jobmanager.sh ..."` then `echo $USAGE; exit 1`: the variable's text is printed
    assigned = {}
    for l in lines:
        a = re.match(r'^\s*([A-Z][A-Z0-9_]*)="([^"$`]*)"\s*$', l)
        if a and " " in a.group(2):
            assigned[a.group(1)] = a.group(2)
    for i, l in enumerate(lines):
        m = SH_ECHO.match(l)
        if not m:
            continue
        rest = m.group("rest")
        to_err = bool(re.search(r"(?:1?>&2|>\s*/dev/stderr)", l))
        exits = any(re.match(r"^\s*(?:exit|return)\s+[1-9]", x) for x in lines[i + 1 : i + 4])
        warns = bool(re.search(r"(?i)warn|error|fail|cannot|can't|not exist|unable|invalid|missing", rest))
        if not (to_err or exits or warns):
            continue
        rest = re.sub(r"\s*(?:1?>&2|>\s*/dev/stderr|\|\|.*|;\s*exit.*|&&.*)\s*$", "", rest).strip()
        rest = re.sub(r"^-[neE]+\s+", "", rest)
        v = re.fullmatch(r'"?\$\{?([A-Z][A-Z0-9_]*)\}?"?', rest)
        if v and v.group(1) in assigned:
            rest = assigned[v.group(1)]
        # the words as the shell prints them: quotes dropped, expansions `{}`
        text = re.sub(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|\$\{[^}]*\}|\$\w+|\$[@*#?0-9]", "\x01", rest)
        text = text.replace('"', "").replace("'", "")
        text = normalise(text).replace("\x01", "{}")
        text = re.sub(r"\{\}(\s*\{\})+", "{}", text)
        if re.search(r"[A-Za-z]{3}", text):
            rows.append((i + 1, "stderr" if to_err else "before-exit" if exits else "echo", text))
    return rows


# ---------------------------------------------------------------------------------------------
# C++ (HotSpot)

CPP_CALL = re.compile(
    r"\b(?P<name>vm_exit_during_initialization|vm_exit_out_of_memory|vm_abort|report_vm_error|"
    r"report_java_out_of_memory|jio_fprintf|jio_snprintf|log_warning\([\w,\s]*\)|log_error\([\w,\s]*\)|"
    r"warning|fatal|vm_shutdown_during_initialization|THROW_MSG|THROW_MSG_NULL|THROW_MSG_0|"
    r"Exceptions::fthrow|st->print_cr|out->print_cr|st->print|tty->print_cr|JLI_ReportErrorMessage|"
    r"JLI_ReportErrorMessageSys|java_lang_String::create_from_str)\s*\("
)
# the JDK's native code throwing a Java exception (libnet, libnio, libjava): `JNU_ThrowByName(env,
# "java/net/SocketTimeoutException", "Read timed out")`; the *WithLastError forms print strerror(errno)
# and use the literal only when errno has no text (jni_util.c), so the literal is a wording too.
# NET_ThrowNew(env, errno, msg) throws SocketException (net_util_md.c).
JNI_THROW = re.compile(
    r"\b(?P<name>JNU_ThrowByName|JNU_ThrowByNameWithLastError|JNU_ThrowByNameWithMessageAndLastError|"
    r"NET_ThrowByNameWithLastError|NET_ThrowNew)\s*\("
)
JNI_PKG = {"JNU_JAVANETPKG": "java/net/", "JNU_JAVAIOPKG": "java/io/"}
# a message chosen by a condition into a variable (`const char* message = limit_exceeded ?
# "GC overhead limit exceeded" : "Java heap space";`): each branch is a printed message
CPP_MSGVAR = re.compile(
    r"\bconst\s+char\s*\*\s*(?P<var>\w*(?:message|msg|string|reason)\w*)\s*=\s*(?P<expr>[^;]*\?[^;]*);"
)
# a message macro (`#define JVM_ERROR1 "Error: Could not create the Java Virtual Machine.\n" GEN_ERROR`)
CPP_DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(?P<name>[A-Z][A-Z0-9_]*)[ \t]+(?P<val>"[^\n]*)$', re.M)


def cpp_text(x, defines):
    """The template of C/C++ argument text: adjacent literals concatenate, a message macro of the
    same file is resolved, `err_msg(...)` is unwrapped, anything else is `{}`; None without text."""
    x = x.strip()
    m = re.match(r"^(?:err_msg|err_msg_res|os::\w+)\s*\(", x)
    if m and x.startswith("err_msg"):
        a = call_args(x, m.end() - 1)
        if a and a[0]:
            x = a[0][0]
    if '"' not in x and x not in defines:
        return None
    pieces = re.findall(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*', x)
    if not pieces or not (pieces[0].startswith('"') or pieces[0] in defines):
        return None
    text = "".join(
        decode_literal(p) if p.startswith('"') else defines[p].replace("{}", "\x01") if p in defines else "\x01"
        for p in pieces
    )
    text = normalise(text).replace("\x01", "{}")
    text = re.sub(r"\{\}(\s*\{\})+", "{}", text)
    return text if re.search(r"[A-Za-z]{3}", text) else None


def cpp(path, src):
    code = blank_comments(src, "cpp")
    defines = {}
    rows = []
    for m in CPP_DEFINE.finditer(code):
        raw = m.group("val").strip()
        pieces = re.findall(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*', raw)
        if pieces and pieces[0].startswith('"'):
            defines[m.group("name")] = "".join(
                decode_literal(p) if p.startswith('"') else defines.get(p, "{}") for p in pieces
            )
    for m in CPP_DEFINE.finditer(code):
        name = m.group("name")
        t = normalise(defines.get(name, ""))
        if " " in t and re.search(r"[A-Za-z]{3}", t):
            # os.hpp's native-thread message is the one jvm.cpp's JVM_StartThread throws as an
            # OutOfMemoryError (`THROW_MSG(java_lang_OutOfMemoryError, native_thread_creation_failed_msg())`)
            kind = "new java.lang.OutOfMemoryError" if name == "OS_NATIVE_THREAD_CREATION_FAILED_MSG" else "define " + name
            rows.append((code.count("\n", 0, m.start()) + 1, kind, t))
    for m in CPP_CALL.finditer(code):
        a = call_args(code, m.end() - 1)
        if not a:
            continue
        name = re.sub(r"\(.*", "", m.group("name"))
        line = code.count("\n", 0, m.start()) + 1
        if name == "java_lang_String::create_from_str":
            # the messages of the OutOfMemoryErrors the VM preallocates (universe.cpp)
            if "universe" not in path:
                continue
            name = "new java.lang.OutOfMemoryError"
        for x in a[0]:
            text = cpp_text(x, defines)
            if text:
                rows.append((line, name, text))
                break
    for m in JNI_THROW.finditer(code):
        a = call_args(code, m.end() - 1)
        if not a or len(a[0]) < 3 or m.group("name").startswith("JNU_ThrowByName") and "jni_util" in path:
            continue
        args = [x.strip() for x in a[0]]
        line = code.count("\n", 0, m.start()) + 1
        if m.group("name") == "NET_ThrowNew":
            cls = "java.net.SocketException"
        else:
            parts = re.findall(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*', args[1])
            if not parts or not all(p.startswith('"') or p in JNI_PKG for p in parts):
                continue
            cls = "".join(decode_literal(p) if p.startswith('"') else JNI_PKG[p] for p in parts).replace("/", ".")
        text = cpp_text(args[2], defines)
        if text:
            rows.append((line, "new " + cls, text))
    for m in CPP_MSGVAR.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        kind = "message " + m.group("var")
        if "memAllocator" in path or "metaspace" in path:
            # the heap's and Metaspace's allocation failures: the message of the OutOfMemoryError thrown
            kind = "new java.lang.OutOfMemoryError"
        for lit in re.findall(r'"(?:[^"\\\n]|\\.)*"', m.group("expr")):
            t = normalise(decode_literal(lit))
            if re.search(r"[A-Za-z]{3}", t):
                rows.append((line, kind, t))
    return rows


HANDLERS = {"java": java, "go": go, "sh": shell, "cpp": cpp, "scala": scala}


def main():
    global EXCLUDE, FORCED_LANG
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--component", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--cite", required=True, help="owner/repo@tag")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--git-dir")
    src.add_argument("--zip")
    src.add_argument("--dir")
    p.add_argument("--ref", help="tag or commit (with --git-dir)")
    p.add_argument("--under", action="append", default=[])
    p.add_argument("--strip", default="")
    p.add_argument("--cite-prefix", default="")
    p.add_argument("--exclude", default=DEFAULT_EXCLUDE)
    p.add_argument("--lang", help="force one language for every file (e.g. sh for scripts with no extension)")
    p.add_argument("--consts-under", action="append", default=[],
                   help="also read the Java string constants of these paths (not swept), for messages that use them")
    o = p.parse_args()
    EXCLUDE = re.compile(o.exclude)
    FORCED_LANG = o.lang
    if o.git_dir:
        if not o.ref:
            p.error("--git-dir needs --ref")
        if o.consts_under:
            for path, text in git_files(o.git_dir, o.ref, o.consts_under, o.strip):
                add_global_consts(path, text)
        files = git_files(o.git_dir, o.ref, o.under, o.strip)
    elif o.zip:
        files = zip_files(o.zip, o.under, o.strip)
    else:
        files = dir_files(o.dir, o.under, o.strip)
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    seen = set()
    for path, text in files:
        rel = path[len(o.strip):] if o.strip and path.startswith(o.strip) else path
        lang = o.lang or EXTS.get(os.path.splitext(rel)[1], "sh")
        for line, kind, tmpl in HANDLERS[lang](rel, text):
            tmpl = tmpl.replace("\t", " ")
            key = (rel, line, kind, tmpl)
            if key in seen:
                continue
            seen.add(key)
            out.write(f"{o.component}\t{o.version}\t{o.cite}:{o.cite_prefix}{rel}:{line}\t{kind}\t{tmpl}\n")
    out.flush()


if __name__ == "__main__":
    main()
