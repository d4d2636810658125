//! Where a field is in the text: a path (`spec.jobManager.podTemplate.spec.containers[0].name`)
//! to the line it was written on.
//!
//! Not a YAML parser: serde parses the values; this only rebuilds the block structure of the
//! document's lines (indentation, `key:` and `- ` items) so a path can be walked down to a line.
//! Block scalars (`|`, `>`) are skipped, flow collections (`{a: 1}`, `[a, b]`) stop the walk at
//! their line, and JSON documents get a small scanner of their own. A path that does not exist in
//! the text (a missing field) resolves to its deepest ancestor that does, which is where the
//! field would have to be added.

use std::fmt;

/// One step of a path into a document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path into a document, from its root.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(pub Vec<Seg>);

impl Path {
    pub fn root() -> Self {
        Path(Vec::new())
    }
    /// `spec.jobManager.podTemplate.spec.containers[0].name`; keys are split on dots, so a key
    /// that holds dots (a Flink option) must be added with [`Path::key`].
    pub fn parse(s: &str) -> Self {
        let mut segs = Vec::new();
        for part in s.split('.').filter(|p| !p.is_empty()) {
            let (key, mut rest) = match part.find('[') {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            if !key.is_empty() {
                segs.push(Seg::Key(key.to_string()));
            }
            while let Some(end) = rest.find(']') {
                if let Ok(i) = rest[1..end].parse() {
                    segs.push(Seg::Index(i));
                }
                rest = &rest[end + 1..];
            }
        }
        Path(segs)
    }
    pub fn key(&self, k: &str) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Key(k.to_string()));
        p
    }
    pub fn index(&self, i: usize) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Index(i));
        p
    }
    pub fn join(&self, other: &Path) -> Self {
        let mut p = self.clone();
        p.0.extend(other.0.iter().cloned());
        p
    }
    pub fn starts_with(&self, prefix: &Path) -> bool {
        self.0.starts_with(&prefix.0)
    }
    pub fn contains_key(&self, k: &str) -> bool {
        self.0.iter().any(|s| matches!(s, Seg::Key(x) if x == k))
    }
    pub fn last_key(&self) -> Option<&str> {
        self.0.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for s in &self.0 {
            match s {
                Seg::Key(k) => {
                    if !first {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Seg::Index(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Key(String),
    Item,
    Other,
}

#[derive(Debug, Clone)]
struct Node {
    /// 1-based line within the document's text.
    line: usize,
    col: usize,
    kind: Segment,
    /// A key with nothing after the colon (its value is on the next lines).
    open: bool,
    /// The value is a flow collection on this line (`{...}` or `[...]`): the walk stops here.
    flow: bool,
    children: Vec<usize>,
}

/// The block structure of one document's text.
#[derive(Debug, Clone, Default)]
pub struct Locator {
    nodes: Vec<Node>,
    roots: Vec<usize>,
}

impl Locator {
    pub fn new(text: &str) -> Self {
        let first = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if first.starts_with('{') || first.starts_with('[') {
            json::scan(text)
        } else {
            yaml(text)
        }
    }

    /// The line of the field at `path`, or of its deepest ancestor written in the text
    /// (1 when not even the first key is found).
    pub fn line(&self, path: &Path) -> usize {
        self.resolve(path).0
    }

    /// Whether the whole path is written in the text (a flow collection counts as written).
    pub fn exists(&self, path: &Path) -> bool {
        self.resolve(path).1 == path.0.len()
    }

    /// The line of a Flink option under `prefix` (`spec.flinkConfiguration`), written flat
    /// (`high-availability.type: kubernetes`) or nested (`high-availability: {type: ...}`).
    pub fn config_line(&self, prefix: &Path, key: &str) -> usize {
        let (line, matched, node) = self.walk(prefix);
        if matched < prefix.0.len() {
            return line;
        }
        let children = match node {
            Some(n) => &self.nodes[n].children,
            None => &self.roots,
        };
        self.config_in(children, key).unwrap_or(line)
    }

    fn config_in(&self, children: &[usize], key: &str) -> Option<usize> {
        if let Some(n) = self.child_key(children, key) {
            return Some(self.nodes[n].line);
        }
        for (i, _) in key.match_indices('.') {
            if let Some(n) = self.child_key(children, &key[..i]) {
                if self.nodes[n].flow {
                    return Some(self.nodes[n].line);
                }
                if let Some(l) = self.config_in(&self.nodes[n].children, &key[i + 1..]) {
                    return Some(l);
                }
            }
        }
        None
    }

    fn child_key(&self, children: &[usize], key: &str) -> Option<usize> {
        children
            .iter()
            .copied()
            .find(|&c| matches!(&self.nodes[c].kind, Segment::Key(k) if k == key))
    }

    /// (line, how many segments matched)
    fn resolve(&self, path: &Path) -> (usize, usize) {
        let (line, matched, _) = self.walk(path);
        (line, matched)
    }

    fn walk(&self, path: &Path) -> (usize, usize, Option<usize>) {
        let mut line = self.roots.first().map_or(1, |&r| self.nodes[r].line);
        let mut cur: Option<usize> = None;
        for (i, seg) in path.0.iter().enumerate() {
            if let Some(n) = cur {
                if self.nodes[n].flow {
                    // `{name: x, image: y}` on one line: everything below is on that line.
                    return (line, path.0.len(), cur);
                }
            }
            let children = match cur {
                Some(n) => &self.nodes[n].children,
                None => &self.roots,
            };
            let next = match seg {
                Seg::Key(k) => self.child_key(children, k),
                Seg::Index(want) => children
                    .iter()
                    .copied()
                    .filter(|&c| self.nodes[c].kind == Segment::Item)
                    .nth(*want),
            };
            match next {
                Some(n) => {
                    line = self.nodes[n].line;
                    cur = Some(n);
                }
                None => return (line, i, cur),
            }
        }
        (line, path.0.len(), cur)
    }

    fn push(&mut self, stack: &mut Vec<usize>, node: Node) {
        while let Some(&top) = stack.last() {
            let t = &self.nodes[top];
            if t.col < node.col {
                break;
            }
            // A sequence written at its key's indentation (`containers:\n- name: x`).
            if t.col == node.col
                && node.kind == Segment::Item
                && t.open
                && matches!(t.kind, Segment::Key(_))
            {
                break;
            }
            stack.pop();
        }
        let id = self.nodes.len();
        match stack.last() {
            Some(&parent) => self.nodes[parent].children.push(id),
            None => self.roots.push(id),
        }
        self.nodes.push(node);
        stack.push(id);
    }
}

fn yaml(text: &str) -> Locator {
    let mut loc = Locator::default();
    let mut stack: Vec<usize> = Vec::new();
    // Inside a block scalar: skip lines indented deeper than this column.
    let mut block_at: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_end_matches('\r');
        if raw.trim().is_empty() {
            continue;
        }
        let indent = raw.len() - raw.trim_start_matches(' ').len();
        if let Some(c) = block_at {
            if indent > c {
                continue;
            }
            block_at = None;
        }
        let mut rest = &raw[indent..];
        if rest.starts_with('#')
            || (indent == 0
                && (rest.starts_with("---") || rest.starts_with("...") || rest.starts_with('%')))
        {
            continue;
        }
        let mut col = indent;
        // `- - name: x`: each dash is an item, the content after the last is at its own column.
        while rest == "-" || rest.starts_with("- ") || rest.starts_with("-\t") {
            loc.push(
                &mut stack,
                Node {
                    line,
                    col,
                    kind: Segment::Item,
                    open: true,
                    flow: false,
                    children: Vec::new(),
                },
            );
            let after = &rest[1..];
            let trimmed = after.trim_start();
            col += 1 + (after.len() - trimmed.len());
            rest = trimmed;
        }
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        match split_key(rest) {
            Some((key, value)) => {
                let value = strip_comment(value).trim();
                let value = strip_props(value);
                if value.starts_with('|') || value.starts_with('>') {
                    block_at = Some(col);
                }
                loc.push(
                    &mut stack,
                    Node {
                        line,
                        col,
                        kind: Segment::Key(key),
                        open: value.is_empty(),
                        flow: value.starts_with('{') || value.starts_with('['),
                        children: Vec::new(),
                    },
                );
            }
            None => {
                let flow = rest.starts_with('{') || rest.starts_with('[');
                let block = rest.starts_with('|') || rest.starts_with('>');
                // A scalar item (`- value`) belongs to its dash; continuation lines of a
                // multi-line scalar hang below whatever they continue.
                if let Some(&top) = stack.last() {
                    if loc.nodes[top].kind == Segment::Item && loc.nodes[top].line == line {
                        loc.nodes[top].flow = flow;
                        loc.nodes[top].open = false;
                        if block {
                            block_at = Some(loc.nodes[top].col);
                        }
                        continue;
                    }
                }
                if block {
                    block_at = Some(col.saturating_sub(1));
                }
                loc.push(
                    &mut stack,
                    Node {
                        line,
                        col,
                        kind: Segment::Other,
                        open: false,
                        flow,
                        children: Vec::new(),
                    },
                );
            }
        }
    }
    loc
}

/// `key: value` -> (key, value). Keys may be quoted; a plain key ends at the first `: ` (or a
/// colon at the end of the line), which a plain key cannot contain.
fn split_key(s: &str) -> Option<(String, &str)> {
    if s.starts_with('{') || s.starts_with('[') || s.starts_with("? ") {
        return None;
    }
    let (key, after) = if let Some(q) = s.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let body = &s[1..];
        let mut end = None;
        let mut escaped = false;
        let mut chars = body.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if q == '"' && c == '\\' && !escaped {
                escaped = true;
                continue;
            }
            if c == q && !escaped {
                if q == '\'' && chars.peek().map(|(_, n)| *n) == Some('\'') {
                    chars.next();
                    continue;
                }
                end = Some(i);
                break;
            }
            escaped = false;
        }
        let end = end?;
        let key = body[..end].replace("\\\"", "\"").replace("''", "'");
        (key, body[end + 1..].trim_start())
    } else {
        let mut at = None;
        for (i, _) in s.match_indices(':') {
            let next = s[i + 1..].chars().next();
            if next.is_none() || next == Some(' ') || next == Some('\t') {
                at = Some(i);
                break;
            }
        }
        let i = at?;
        let key = s[..i].trim_end();
        if key.is_empty() || key.contains(" #") {
            return None;
        }
        (key.to_string(), &s[i..])
    };
    let value = after.strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with(' ') || value.starts_with('\t')) {
        return None;
    }
    Some((key, value))
}

fn strip_comment(v: &str) -> &str {
    let v = v.trim_start();
    if v.starts_with('#') {
        return "";
    }
    match v.find(" #") {
        Some(i) if !v.starts_with('"') && !v.starts_with('\'') => &v[..i],
        _ => v,
    }
}

/// Anchors and tags before a value (`&base`, `!!str`) say nothing about where it is.
fn strip_props(mut v: &str) -> &str {
    while v.starts_with('&') || v.starts_with('!') {
        v = v.split_once(' ').map_or("", |(_, rest)| rest.trim_start());
    }
    v
}

mod json {
    //! JSON documents (`kubectl get -o json`, generated manifests): a scanner that records the
    //! line of every member and array element.
    use super::{Locator, Node, Segment};

    pub fn scan(text: &str) -> Locator {
        let mut s = Scanner {
            b: text.as_bytes(),
            i: 0,
            line: 1,
            loc: Locator::default(),
        };
        s.value(None);
        s.loc
    }

    struct Scanner<'a> {
        b: &'a [u8],
        i: usize,
        line: usize,
        loc: Locator,
    }

    impl Scanner<'_> {
        fn ws(&mut self) {
            while let Some(&c) = self.b.get(self.i) {
                match c {
                    b'\n' => self.line += 1,
                    b' ' | b'\t' | b'\r' => {}
                    _ => return,
                }
                self.i += 1;
            }
        }

        fn node(&mut self, parent: Option<usize>, kind: Segment) -> usize {
            let id = self.loc.nodes.len();
            self.loc.nodes.push(Node {
                line: self.line,
                col: 0,
                kind,
                open: false,
                flow: false,
                children: Vec::new(),
            });
            match parent {
                Some(p) => self.loc.nodes[p].children.push(id),
                None => self.loc.roots.push(id),
            }
            id
        }

        fn string(&mut self) -> String {
            let mut out = Vec::new();
            self.i += 1;
            while let Some(&c) = self.b.get(self.i) {
                self.i += 1;
                match c {
                    b'"' => break,
                    b'\\' => {
                        if let Some(&e) = self.b.get(self.i) {
                            out.push(e);
                            self.i += 1;
                        }
                    }
                    b'\n' => {
                        self.line += 1;
                        out.push(c);
                    }
                    _ => out.push(c),
                }
            }
            String::from_utf8_lossy(&out).into_owned()
        }

        fn value(&mut self, parent: Option<usize>) {
            self.ws();
            match self.b.get(self.i) {
                Some(b'{') => {
                    self.i += 1;
                    loop {
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b'}') => {
                                self.i += 1;
                                return;
                            }
                            Some(b',') => self.i += 1,
                            Some(b'"') => {
                                let line = self.line;
                                let key = self.string();
                                let id = self.node(parent, Segment::Key(key));
                                self.loc.nodes[id].line = line;
                                self.ws();
                                if self.b.get(self.i) == Some(&b':') {
                                    self.i += 1;
                                }
                                self.value(Some(id));
                            }
                            _ => return,
                        }
                    }
                }
                Some(b'[') => {
                    self.i += 1;
                    loop {
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b']') => {
                                self.i += 1;
                                return;
                            }
                            Some(b',') => self.i += 1,
                            Some(_) => {
                                let before = self.i;
                                let id = self.node(parent, Segment::Item);
                                self.value(Some(id));
                                // Broken JSON (a `}` or `:` where an item should be): step over
                                // it, or the loop would add items forever (found by tests/fuzz.rs).
                                if self.i == before {
                                    self.i += 1;
                                }
                            }
                            None => return,
                        }
                    }
                }
                Some(b'"') => {
                    self.string();
                }
                Some(_) => {
                    while let Some(&c) = self.b.get(self.i) {
                        if matches!(c, b',' | b'}' | b']' | b'\n' | b' ' | b'\t' | b'\r') {
                            break;
                        }
                        self.i += 1;
                    }
                }
                None => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders   # the name
  namespace: prod
spec:
  image: "flink:1.20"
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
    high-availability:
      type: kubernetes
  jobManager:
    podTemplate:
      spec:
        containers:
        - name: flink-job-manager
          command: [sh, -c, "echo hi"]
          env:
            - name: A
              value: |
                line: one
                line: two
            - {name: B, value: b}
        - name: sidecar
  job:
    args:
      - --flag
      - "x: y"
    jarURI: local:///opt/flink/job.jar
"#;

    fn line(text: &str, path: &str) -> usize {
        Locator::new(text).line(&Path::parse(path))
    }

    #[test]
    fn broken_json_in_a_list_ends_the_scan() {
        // Found by tests/fuzz.rs: a `}` where an item should be looped forever.
        let text = "{\"items\": [ {\"a\": 1}, } ], \"kind\": \"List\"}";
        let loc = json::scan(text);
        assert!(loc.nodes.len() < 10, "{}", loc.nodes.len());
    }

    #[test]
    fn walks_keys_and_items() {
        assert_eq!(line(DOC, "kind"), 2);
        assert_eq!(line(DOC, "metadata.namespace"), 5);
        assert_eq!(
            line(DOC, "spec.jobManager.podTemplate.spec.containers[0].name"),
            16
        );
        assert_eq!(
            line(
                DOC,
                "spec.jobManager.podTemplate.spec.containers[0].command"
            ),
            17
        );
        assert_eq!(
            line(DOC, "spec.jobManager.podTemplate.spec.containers[0].env[1]"),
            23
        );
        assert_eq!(
            line(
                DOC,
                "spec.jobManager.podTemplate.spec.containers[0].env[1].value"
            ),
            23
        );
        assert_eq!(
            line(DOC, "spec.jobManager.podTemplate.spec.containers[1].name"),
            24
        );
        assert_eq!(line(DOC, "spec.job.args[1]"), 28);
        assert_eq!(
            line(DOC, "spec.job.jarURI"),
            29,
            "block scalar lines and quoted colons do not confuse the walk"
        );
    }

    #[test]
    fn missing_fields_resolve_to_their_deepest_ancestor() {
        let loc = Locator::new(DOC);
        assert_eq!(loc.line(&Path::parse("spec.serviceAccount")), 6);
        assert!(!loc.exists(&Path::parse("spec.serviceAccount")));
        assert!(loc.exists(&Path::parse("spec.image")));
        assert_eq!(
            loc.line(&Path::parse("spec.jobManager.resource.memory")),
            12
        );
    }

    #[test]
    fn flink_options_flat_or_nested() {
        let loc = Locator::new(DOC);
        let prefix = Path::parse("spec.flinkConfiguration");
        assert_eq!(loc.config_line(&prefix, "taskmanager.numberOfTaskSlots"), 9);
        assert_eq!(loc.config_line(&prefix, "high-availability.type"), 11);
        assert_eq!(loc.config_line(&prefix, "high-availability.storageDir"), 8);
    }

    #[test]
    fn compact_and_indented_sequences_and_nested_dashes() {
        let text = "a:\n- b: 1\n  c: 2\n- - x\n  - y: 3\nd: [1, 2]\n";
        assert_eq!(line(text, "a[0].c"), 3);
        assert_eq!(line(text, "a[1][1].y"), 5);
        assert_eq!(line(text, "d[1]"), 6);
    }

    #[test]
    fn json_documents() {
        let text = "{\n  \"kind\": \"FlinkDeployment\",\n  \"spec\": {\n    \"containers\": [\n      {\"name\": \"a\"},\n      {\n        \"name\": \"b\"\n      }\n    ]\n  }\n}\n";
        assert_eq!(line(text, "kind"), 2);
        assert_eq!(line(text, "spec.containers[0].name"), 5);
        assert_eq!(line(text, "spec.containers[1].name"), 7);
    }

    #[test]
    fn paths_parse_and_print() {
        let p = Path::parse("spec.containers[0].env[12].name");
        assert_eq!(p.to_string(), "spec.containers[0].env[12].name");
        assert_eq!(
            Path::parse("spec.flinkConfiguration")
                .key("a.b")
                .to_string(),
            "spec.flinkConfiguration.a.b"
        );
    }
}
