//! `--template`: stern's Go-template line format, the part of it a log line needs.
//!
//! stern renders each line with Go's text/template over its `Log` value, whose fields are
//! `Message`, `NodeName`, `Namespace`, `PodName`, `ContainerName`, `Labels`, `Annotations`,
//! `PodColor` and `ContainerColor` (stern/stern@v1.33.0:stern/tail_utils.go, `type Log`), and with
//! the function `color` (`{{color .PodColor .PodName}}`, stern/stern@v1.33.0:cmd/cmd.go
//! generateTemplate). This takes the same text: fields, `index .Labels "key"`, `color`, string
//! literals (`{{"\n"}}`) and `{{-`/`-}}` trimming. Anything else is refused when the template is
//! read, in one line (exit 2), never while lines are printed. One field is this tool's own, not
//! stern's: `.Context`, the kubeconfig context a line comes from with `--context a,b` (a template
//! that shows it takes the place of the `[CONTEXT]` prefix); empty for one context.

use crate::render::style::Look;
use std::collections::BTreeMap;

/// One value a line can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Message,
    NodeName,
    Namespace,
    PodName,
    ContainerName,
    /// The context of `--context a,b` (not one of stern's fields).
    Context,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Field(Field),
    /// `index .Labels "key"` (false: `.Annotations`).
    Index {
        labels: bool,
        key: String,
    },
    Text(String),
}

/// Which colour `color` paints with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Pod,
    Container,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Value(Value),
    Color(Paint, Value),
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

/// What one line fills the template with.
pub struct Line<'a> {
    pub message: &'a str,
    pub node: &'a str,
    pub namespace: &'a str,
    pub pod: &'a str,
    pub container: &'a str,
    /// The context the line comes from with several contexts; "" for one.
    pub context: &'a str,
    pub labels: Option<&'a BTreeMap<String, String>>,
    pub annotations: Option<&'a BTreeMap<String, String>>,
    /// The looks of the pod and the container names; None when colour is off.
    pub pod_color: Option<Look>,
    pub container_color: Option<Look>,
}

/// Why a `--template` does not parse: the first problem, on one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TemplateError(String);

impl Template {
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut trim_next = false;
        while !rest.is_empty() {
            let Some(open) = rest.find("{{") else {
                push_text(&mut parts, rest, trim_next, false);
                break;
            };
            let after = &rest[open + 2..];
            let trim_before = after.starts_with("- ") || after == "-" || after.starts_with("-\t");
            push_text(&mut parts, &rest[..open], trim_next, trim_before);
            let close = find_close(after).ok_or_else(|| {
                TemplateError(format!("unclosed action at {:?}", excerpt(&rest[open..])))
            })?;
            let mut action = &after[..close];
            rest = &after[close + 2..];
            if trim_before {
                action = &action[1..];
            }
            trim_next = action.ends_with(" -") || action.ends_with("\t-");
            if trim_next {
                action = &action[..action.len() - 1];
            }
            parts.push(action_part(action.trim())?);
        }
        Ok(Template { parts })
    }

    /// Whether it shows `.Context` anywhere.
    pub fn shows_context(&self) -> bool {
        let is_context = |v: &Value| *v == Value::Field(Field::Context);
        self.parts.iter().any(|p| match p {
            Part::Value(v) | Part::Color(_, v) => is_context(v),
            Part::Text(_) => false,
        })
    }

    /// Appends the rendering of one line (no line ending added).
    pub fn render(&self, l: &Line, out: &mut String) {
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Value(v) => out.push_str(&value(v, l)),
                Part::Color(paint, v) => {
                    let code = match paint {
                        Paint::Pod => l.pod_color,
                        Paint::Container => l.container_color,
                    };
                    match code {
                        Some(look) => out.push_str(&look.paint(&value(v, l))),
                        None => out.push_str(&value(v, l)),
                    }
                }
            }
        }
    }
}

fn value(v: &Value, l: &Line) -> String {
    match v {
        Value::Field(Field::Message) => l.message.to_string(),
        Value::Field(Field::NodeName) => l.node.to_string(),
        Value::Field(Field::Namespace) => l.namespace.to_string(),
        Value::Field(Field::PodName) => l.pod.to_string(),
        Value::Field(Field::ContainerName) => l.container.to_string(),
        Value::Field(Field::Context) => l.context.to_string(),
        Value::Index { labels, key } => {
            let map = if *labels { l.labels } else { l.annotations };
            // Go's index on a missing key gives the zero value: "".
            map.and_then(|m| m.get(key)).cloned().unwrap_or_default()
        }
        Value::Text(t) => t.clone(),
    }
}

fn push_text(parts: &mut Vec<Part>, text: &str, trim_start: bool, trim_end: bool) {
    let mut t = text;
    if trim_start {
        t = t.trim_start();
    }
    if trim_end {
        t = t.trim_end();
    }
    if !t.is_empty() {
        parts.push(Part::Text(t.to_string()));
    }
}

/// The `}}` that closes an action, skipping string literals.
fn find_close(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'}' if !in_str && b.get(i + 1) == Some(&b'}') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn excerpt(s: &str) -> String {
    s.chars().take(30).collect()
}

fn action_part(action: &str) -> Result<Part, TemplateError> {
    let words = split_words(action)?;
    match words.as_slice() {
        [] => Err(TemplateError("empty action {{}}".into())),
        [one] => Ok(Part::Value(operand(one)?)),
        [f, rest @ ..] if f == "color" => match rest {
            [which, v] => {
                let paint = match which.as_str() {
                    ".PodColor" => Paint::Pod,
                    ".ContainerColor" => Paint::Container,
                    other => {
                        return Err(TemplateError(format!(
                            "color takes .PodColor or .ContainerColor, not {other}"
                        )))
                    }
                };
                Ok(Part::Color(paint, operand(v)?))
            }
            _ => Err(TemplateError(format!(
                "{{{{{action}}}}}: use {{{{color .PodColor .PodName}}}}"
            ))),
        },
        [f, map, key] if f == "index" => {
            let labels = match map.as_str() {
                ".Labels" => true,
                ".Annotations" => false,
                other => {
                    return Err(TemplateError(format!(
                        "index takes .Labels or .Annotations, not {other}"
                    )))
                }
            };
            match operand(key)? {
                Value::Text(key) => Ok(Part::Value(Value::Index { labels, key })),
                _ => Err(TemplateError(format!(
                    "{{{{{action}}}}}: the key must be a quoted string, e.g. {{{{index .Labels \"app\"}}}}"
                ))),
            }
        }
        [f, ..] => Err(TemplateError(format!(
            "{{{{{action}}}}}: {f} is not supported here (fields: .Message .PodName .ContainerName \
             .Namespace .NodeName .Context; functions: color, index)"
        ))),
    }
}

fn operand(w: &str) -> Result<Value, TemplateError> {
    if let Some(lit) = w.strip_prefix('"') {
        return Ok(Value::Text(unquote(lit)?));
    }
    let field = match w {
        ".Message" => Field::Message,
        ".NodeName" => Field::NodeName,
        ".Namespace" => Field::Namespace,
        ".PodName" => Field::PodName,
        ".ContainerName" => Field::ContainerName,
        ".Context" => Field::Context,
        ".Labels" | ".Annotations" => {
            return Err(TemplateError(format!(
                "{w} is a map: use {{{{index {w} \"key\"}}}}"
            )))
        }
        other => {
            return Err(TemplateError(format!(
                "{other} is not a field (fields: .Message .PodName .ContainerName .Namespace \
                 .NodeName .Context, and index .Labels/.Annotations \"key\")"
            )))
        }
    };
    Ok(Value::Field(field))
}

/// The inside of a Go string literal (after the opening quote, up to and with the closing one).
fn unquote(s: &str) -> Result<String, TemplateError> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                return if chars.as_str().is_empty() {
                    Ok(out)
                } else {
                    Err(TemplateError(format!("text after the string \"{s}")))
                }
            }
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some(o) => return Err(TemplateError(format!("unknown escape \\{o} in a string"))),
                None => break,
            },
            c => out.push(c),
        }
    }
    Err(TemplateError(format!("unterminated string \"{s}")))
}

/// Words of an action: whitespace-separated, a quoted string is one word (quotes kept).
fn split_words(action: &str) -> Result<Vec<String>, TemplateError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_str = false;
    let mut escaped = false;
    for c in action.chars() {
        if in_str {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                cur.push(c);
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            '|' | '(' | ')' | '$' => {
                return Err(TemplateError(format!(
                    "{{{{{action}}}}}: pipelines, parentheses and variables are not supported"
                )))
            }
            c => cur.push(c),
        }
    }
    if in_str {
        return Err(TemplateError(format!(
            "unterminated string in {{{{{action}}}}}"
        )));
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use colored::Color;

    fn line<'a>(labels: Option<&'a BTreeMap<String, String>>) -> Line<'a> {
        Line {
            message: "hello",
            node: "node-1",
            namespace: "analytics",
            pod: "orders-jm",
            container: "flink-main-container",
            context: "",
            labels,
            annotations: None,
            pod_color: None,
            container_color: None,
        }
    }

    fn render(t: &str, l: &Line) -> String {
        let mut out = String::new();
        Template::parse(t).unwrap().render(l, &mut out);
        out
    }

    #[test]
    fn stern_templates_render() {
        let l = line(None);
        assert_eq!(
            render(
                "{{.Namespace}} {{.PodName}} {{.ContainerName}} {{.NodeName}}: {{.Message}}{{\"\\n\"}}",
                &l
            ),
            "analytics orders-jm flink-main-container node-1: hello\n"
        );
        // stern's own default template, with colour off and on.
        let default =
            "{{color .PodColor .PodName}} {{color .ContainerColor .ContainerName}} {{.Message}}";
        assert_eq!(render(default, &l), "orders-jm flink-main-container hello");
        let coloured = Line {
            pod_color: Some(Look::fg(Color::BrightCyan)),
            container_color: Some(Look::fg(Color::Cyan)),
            ..line(None)
        };
        assert_eq!(
            render(default, &coloured),
            "\x1b[96morders-jm\x1b[0m \x1b[36mflink-main-container\x1b[0m hello"
        );
        // Trim markers, labels by key (a missing key is empty, as Go's index gives).
        let labels: BTreeMap<String, String> = [("app".to_string(), "orders".to_string())].into();
        let l = line(Some(&labels));
        assert_eq!(
            render(
                "[{{- index .Labels \"app\" -}}] {{index .Labels \"x\"}}|",
                &l
            ),
            "[orders] |"
        );
        assert_eq!(render("no actions", &l), "no actions");
        // The context, with several (this tool's field, not stern's).
        let prod = Line {
            context: "prod-eu",
            ..line(None)
        };
        let t = "{{.Context}}/{{.PodName}}: {{.Message}}";
        assert_eq!(render(t, &prod), "prod-eu/orders-jm: hello");
        assert!(Template::parse(t).unwrap().shows_context());
        assert!(Template::parse("{{color .PodColor .Context}}")
            .unwrap()
            .shows_context());
        assert!(!Template::parse(default).unwrap().shows_context());
        assert_eq!(render("{{\"a}}b\"}}", &l), "a}}b");
    }

    #[test]
    fn what_is_not_understood_is_refused_in_one_line() {
        for bad in [
            "{{.Message",
            "{{.Nope}}",
            "{{}}",
            "{{.Labels}}",
            "{{json .}}",
            "{{.Message | upper}}",
            "{{color .Red .PodName}}",
            "{{index .Labels app}}",
            "{{\"open}}",
            "{{\"\\q\"}}",
        ] {
            let e = Template::parse(bad).expect_err(bad).to_string();
            assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
        }
    }
}
