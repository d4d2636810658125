//! Text from a cluster made safe for a terminal: a log line can carry escape sequences that move
//! the cursor, clear the screen or set the window title (`ESC]0;...BEL`, `ESC[2J`). Colour (SGR,
//! `ESC[...m`) is kept when the output is coloured, since Flink operator logs are coloured by
//! log4j's `%highlight`; every other control character and sequence is shown as `�`.
//!
//! This is the one sanitiser for text the tool did not write itself (from the API server, a
//! kubeconfig, a bundle, a log): [`safe`] for a log line, [`plain`] for a message on stderr (an
//! error, a warning, a gap, a Status message), [`plain_lines`] for a whole table or document on
//! stdout. [`plain`] and [`plain_lines`] also mask secrets (the one masker,
//! `signatures::redact`).

use std::borrow::Cow;

const REPLACEMENT: char = '\u{FFFD}';

/// The text with every control character but tab replaced by `�`, keeping SGR colour sequences
/// when `keep_color` (else dropping them). Borrowed unchanged when there is nothing to do.
pub fn safe(text: &str, keep_color: bool) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            if let Some(len) = sgr_len(rest) {
                if keep_color {
                    out.push_str(&rest[..len]);
                }
                rest = &rest[len..];
                continue;
            }
        }
        if c.is_control() && c != '\t' {
            out.push(REPLACEMENT);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// A message for stderr: secrets masked, every control character (escape, bell, C1, newline)
/// shown as `�`, so that nothing a server says can drive the terminal or break the line.
pub fn plain(text: &str) -> String {
    safe(&crate::signatures::redact::redact(text), false).into_owned()
}

/// A whole output (lines of a table, a Markdown document): each line made [`safe`] (colour kept
/// when `keep_color`), newlines kept. Borrowed when there is nothing to do.
pub fn plain_lines(text: &str, keep_color: bool) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\t' && c != '\n')
    {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(|l| safe(l, keep_color)).collect();
    Cow::Owned(lines.join("\n"))
}

/// JSON text with DEL and the C1 controls (U+0080..U+009F), which serde_json writes raw, written
/// as `\u00XX` escapes: the same data, and nothing a terminal acts on.
pub fn json_controls_escaped(json: &str) -> Cow<'_, str> {
    let c1 = |c: char| ('\u{7f}'..='\u{9f}').contains(&c);
    if !json.chars().any(c1) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if c1(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The `eprintln!` of every message the tool prints on stderr: the text goes through [`plain`].
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::signatures::terminal::plain(&format!($($arg)*)))
    };
}

/// The length of an SGR sequence (`ESC [ digits;digits m`) at the start of `s`.
fn sgr_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() < 3 || b[0] != 0x1b || b[1] != b'[' {
        return None;
    }
    let params = b[2..]
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b';')
        .count();
    (b.get(2 + params) == Some(&b'm')).then_some(3 + params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_for_stderr_is_one_line_without_control_characters_or_secrets() {
        let m = "forbidden: \x1b]0;pwned\x07 \x1b[2J\u{9b}31m password=hunter2\nnext";
        let p = plain(m);
        assert!(!p.chars().any(|c| c.is_control()), "{p:?}");
        assert!(!p.contains("hunter2"), "{p}");
        assert!(p.starts_with("forbidden: "), "{p}");
    }

    #[test]
    fn json_keeps_its_data_without_raw_c1() {
        let j = serde_json::to_string("a\u{9b}b").unwrap();
        let e = json_controls_escaped(&j);
        assert_eq!(e, "\"a\\u009bb\"");
        assert_eq!(serde_json::from_str::<String>(&e).unwrap(), "a\u{9b}b");
    }

    #[test]
    fn a_whole_output_keeps_its_lines() {
        assert_eq!(plain_lines("a\x1b[2J\nb\n", false), "a\u{FFFD}[2J\nb\n");
        assert!(matches!(plain_lines("a\tb\nc", false), Cow::Borrowed(_)));
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(safe("a\tb", true), Cow::Borrowed(_)));
    }

    #[test]
    fn title_and_screen_sequences_are_neutralised_and_colour_kept_or_dropped() {
        let line = "\x1b]0;pwned\x07x \x1b[2J\x1b[33mWARN\x1b[m done\r";
        assert_eq!(
            safe(line, true),
            "\u{FFFD}]0;pwned\u{FFFD}x \u{FFFD}[2J\x1b[33mWARN\x1b[m done\u{FFFD}"
        );
        assert_eq!(
            safe(line, false),
            "\u{FFFD}]0;pwned\u{FFFD}x \u{FFFD}[2JWARN done\u{FFFD}"
        );
    }
}
