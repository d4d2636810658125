//! Text from a cluster made safe for a terminal: a log line can carry escape sequences that move
//! the cursor, clear the screen or set the window title (`ESC]0;...BEL`, `ESC[2J`). Colour (SGR,
//! `ESC[...m`) is kept when the output is coloured, since Flink operator logs are coloured by
//! log4j's `%highlight`; every other control character and sequence is shown as `�`.

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
