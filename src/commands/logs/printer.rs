//! Printing: one line at a time, as text (stern's prefix and colours, the catalogue's marks and\n//! hints), JSON or a `--template`; it decides nothing about colour (it is told).

use super::*;

/// Renders one line at a time; decides nothing about colour (it is told).
#[derive(Debug, Clone)]
pub struct Printer {
    /// `--context a,b`: the context this printer's lines come from, first on each line
    /// (`[prod] pod/container`, in its own colour as stern colours a pod) and `context` in JSON.
    pub context: Option<String>,
    pub json: bool,
    pub color: bool,
    pub prefix: bool,
    /// `-A` or several namespaces: the prefix starts with the namespace.
    pub namespaces: bool,
    /// The catalogue's failure marking.
    pub highlight: bool,
    /// `-e`: lines matching any are left out.
    pub exclude: Vec<Regex>,
    /// `-i` (`--grep`): when any, only lines matching one are kept.
    pub include: Vec<Regex>,
    /// What `-H` and `-i` match is marked in each line (with colour).
    pub marks: Option<Regex>,
    pub template: Option<Template>,
    /// `--timezone`: timestamps shown in this zone instead of the kubelet's UTC.
    pub timezone: Option<TimeZone>,
}

/// Colour pairs for pod and container names, bright and plain of one hue as stern's list has them
/// (stern/stern@v1.33.0:stern/color.go), less red and yellow, which mark failure lines here.
pub(super) const PALETTE: &[(Color, Color)] = &[
    (Color::BrightCyan, Color::Cyan),
    (Color::BrightGreen, Color::Green),
    (Color::BrightMagenta, Color::Magenta),
    (Color::BrightBlue, Color::Blue),
    (Color::AnsiColor(87), Color::AnsiColor(37)),
    (Color::AnsiColor(141), Color::AnsiColor(97)),
    (Color::AnsiColor(117), Color::AnsiColor(75)),
    (Color::AnsiColor(120), Color::AnsiColor(114)),
];
/// What `-H` matches: bold and reversed, apart from the catalogue's red and yellow.
pub(super) const MARK: Look = Look::BOLD.reversed();

/// stern's colour index: FNV-1 (32 bit) of the name, modulo the list (stern/stern@v1.33.0:
/// stern/tail.go colorIndex). The same name gets the same colour on every run.
pub(super) fn color_index(name: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = h.wrapping_mul(0x0100_0193);
        h ^= b as u32;
    }
    (h as usize) % PALETTE.len()
}

/// The pod's colour (bright) and the container's (plain, of the container name's own hue, as
/// stern's `--diff-container`): a pod keeps its colour, and a sidecar stands apart from the main
/// container.
pub fn prefix_colors(pod: &str, container: &str) -> (Look, Look) {
    (
        Look::fg(PALETTE[color_index(pod)].0),
        Look::fg(PALETTE[color_index(container)].1),
    )
}

/// Appends `text`, painted: in `base` colour if any, with what `marks` matches marked. Without
/// colour the text is appended as it is.
pub(super) fn paint(
    out: &mut Vec<u8>,
    text: &str,
    base: Option<Look>,
    marks: Option<&Regex>,
    color: bool,
) {
    if !color {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    let open = |out: &mut Vec<u8>| {
        if let Some(look) = base {
            out.extend_from_slice(look.start().as_bytes());
        }
    };
    open(out);
    let mut at = 0;
    if let Some(re) = marks {
        for m in re.find_iter(text).filter(|m| !m.is_empty()) {
            out.extend_from_slice(&text.as_bytes()[at..m.start()]);
            let _ = write!(out, "{RESET}{}", MARK.paint(m.as_str()));
            open(out);
            at = m.end();
        }
    }
    out.extend_from_slice(&text.as_bytes()[at..]);
    if base.is_some() {
        out.extend_from_slice(RESET.as_bytes());
    }
}

/// The kubelet's RFC 3339 time in another zone, as stern prints it (`2006-01-02T15:04:05.
/// 000000000Z07:00`, stern/stern@v1.33.0:stern/tail.go TimestampFormatDefault). A time that
/// does not parse is shown as it came.
pub(super) fn in_zone<'a>(ts: &'a str, tz: &TimeZone) -> std::borrow::Cow<'a, str> {
    match ts.parse::<Timestamp>() {
        Ok(t) => {
            let z = t.to_zoned(tz.clone());
            let offset = if z.offset().seconds() == 0 {
                "Z".to_string()
            } else {
                z.strftime("%:z").to_string()
            };
            std::borrow::Cow::Owned(format!("{}{offset}", z.strftime("%Y-%m-%dT%H:%M:%S.%N")))
        }
        Err(_) => std::borrow::Cow::Borrowed(ts),
    }
}

#[derive(Serialize)]
pub(super) struct JsonLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<&'a str>,
    namespace: &'a str,
    pod: &'a str,
    container: &'a str,
    previous: bool,
    timestamp: Option<&'a str>,
    line: &'a str,
    signature: Option<&'static str>,
    category: Option<&'static str>,
}

impl Printer {
    /// `[prod] `: the context first, bracketed, in the colour its name hashes to (the pod's
    /// palette, bold, so it stands apart from the pod name after it); nothing for one context.
    fn context_prefix(&self) -> String {
        match &self.context {
            Some(c) if !self.json && self.prefix => {
                let text = format!("[{c}]");
                if self.color {
                    format!(
                        "{} ",
                        Look::fg(PALETTE[color_index(c)].0).bold().paint(&text)
                    )
                } else {
                    format!("{text} ")
                }
            }
            _ => String::new(),
        }
    }
}

impl LineFormat for Printer {
    fn prefix(&self, s: &StreamSpec) -> String {
        if self.json || !self.prefix {
            return String::new();
        }
        if let Some(t) = &self.template {
            // A template that shows the context puts it where it wants.
            if t.shows_context() {
                return String::new();
            }
            return self.context_prefix();
        }
        let previous = if s.previous { " [previous]" } else { "" };
        let ns = if self.namespaces {
            format!("{}/", s.namespace)
        } else {
            String::new()
        };
        let context = self.context_prefix();
        if self.color {
            let (pod, container) = prefix_colors(&s.pod, &s.container);
            format!(
                "{context}{}/{}{previous} ",
                pod.paint(&format!("{ns}{}", s.pod)),
                container.paint(&s.container)
            )
        } else {
            format!("{context}{ns}{}/{}{previous} ", s.pod, s.container)
        }
    }

    fn line(
        &self,
        s: &StreamSpec,
        prefix: &str,
        timestamp: Option<&str>,
        text: &str,
        out: &mut Vec<u8>,
    ) {
        // stern's order: a line any -e matches is out, then one no -i matches
        // (stern/stern@v1.33.0:stern/tail.go consumeLine).
        if self.exclude.iter().any(|re| re.is_match(text)) {
            return;
        }
        if !self.include.is_empty() && !self.include.iter().any(|re| re.is_match(text)) {
            return;
        }
        // What is printed never holds a secret (the masker every output uses) and, on a
        // terminal's formats, no control sequence but colour.
        let redacted = signatures::redact::redact(text);
        let text = if self.json {
            redacted
        } else {
            match crate::render::terminal::safe(&redacted, self.color) {
                std::borrow::Cow::Borrowed(_) => redacted,
                std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s),
            }
        };
        let text = text.as_ref();
        let timestamp = match (&self.timezone, timestamp) {
            (Some(tz), Some(ts)) => Some(in_zone(ts, tz)),
            (_, ts) => ts.map(std::borrow::Cow::Borrowed),
        };
        let timestamp = timestamp.as_deref();
        let signature = if self.json || self.highlight {
            signatures::reader::line_matches(text, 0)
                .into_iter()
                .next()
                .map(|m| m.signature)
        } else {
            None
        };
        if self.json {
            let record = JsonLine {
                context: self.context.as_deref(),
                namespace: &s.namespace,
                pod: &s.pod,
                container: &s.container,
                previous: s.previous,
                timestamp,
                line: text,
                signature: signature.map(|g| g.id),
                category: signature.map(|g| g.category.id()),
            };
            // Serialising plain strings and bools cannot fail. serde_json writes DEL and C1
            // controls raw: escaped as `\u00XX`, the data is the same and no terminal acts on them.
            let json = serde_json::to_string(&record).unwrap_or_default();
            out.extend_from_slice(crate::render::terminal::json_controls_escaped(&json).as_bytes());
            out.push(b'\n');
            return;
        }
        let code = signature.and_then(|sig| match sig.severity {
            Severity::Critical => Some(Look::fg(Color::Red)),
            Severity::Warning => Some(Look::fg(Color::Yellow)),
            Severity::Info => None,
        });
        if let Some(t) = &self.template {
            // stern v1.33.0 puts the timestamp at the start of .Message (stern/tail.go
            // consumeLine); the catalogue colours the message, without its hint.
            let mut message = Vec::with_capacity(text.len() + 40);
            if let Some(ts) = timestamp {
                message.extend_from_slice(ts.as_bytes());
                message.push(b' ');
            }
            paint(&mut message, text, code, self.marks.as_ref(), self.color);
            let message = String::from_utf8_lossy(&message);
            let (pod_color, container_color) = if self.color {
                let (p, c) = prefix_colors(&s.pod, &s.container);
                (Some(p), Some(c))
            } else {
                (None, None)
            };
            let mut rendered = String::with_capacity(message.len() + 64);
            // Several contexts: the context first, before what the template draws.
            rendered.push_str(prefix);
            t.render(
                &template::Line {
                    message: &message,
                    node: &s.node,
                    namespace: &s.namespace,
                    pod: &s.pod,
                    container: &s.container,
                    context: self.context.as_deref().unwrap_or(""),
                    labels: Some(&s.labels),
                    annotations: Some(&s.annotations),
                    pod_color,
                    container_color,
                },
                &mut rendered,
            );
            out.extend_from_slice(rendered.as_bytes());
            if !rendered.ends_with('\n') {
                out.push(b'\n');
            }
            return;
        }
        out.extend_from_slice(prefix.as_bytes());
        if let Some(ts) = timestamp {
            out.extend_from_slice(ts.as_bytes());
            out.push(b' ');
        }
        match signature {
            None => paint(out, text, None, self.marks.as_ref(), self.color),
            Some(sig) => {
                let hint = format!("⟵ {}: {}", sig.category.id(), sig.explanation);
                paint(out, text, code, self.marks.as_ref(), self.color);
                match (self.color, code) {
                    (true, Some(look)) => {
                        let _ = write!(out, "  {}", look.bold().paint(&hint));
                    }
                    (true, None) => {
                        let _ = write!(out, "  {}", Look::DIM.paint(&hint));
                    }
                    (false, _) => {
                        let _ = write!(out, "  {hint}");
                    }
                }
            }
        }
        out.push(b'\n');
    }
}
