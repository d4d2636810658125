//! Colour, decided once (`Style::decide`) and handed to the renderers.
//!
//! Painting writes SGR escape codes itself instead of going through `colored`, whose global
//! switch also looks at the terminal: a renderer given `Style { color: true }` always colours,
//! one given `Style::PLAIN` never does, whatever stdout is. That keeps renderers testable
//! against a `Vec<u8>`.

use crate::finding::Severity;
use std::io::IsTerminal;

/// When to paint: `auto` (a terminal, and neither NO_COLOR nor TERM=dumb), `always`, `never`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// The name `--color` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            ColorChoice::Auto => "auto",
            ColorChoice::Always => "always",
            ColorChoice::Never => "never",
        }
    }
}
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "1";
const DIM: &str = "2";
const RED: &str = "31";
const YELLOW: &str = "33";
const BLUE: &str = "34";
const CYAN: &str = "36";

impl Style {
    pub const PLAIN: Style = Style { color: false };
    pub const COLOR: Style = Style { color: true };

    /// kubectl's rule: colour only on a terminal, never with NO_COLOR set or TERM=dumb;
    /// `always` and `never` override it.
    pub fn decide(choice: ColorChoice) -> Style {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var("TERM").map(|t| t != "dumb").unwrap_or(true)
            }
        };
        // `colored` has its own global switch; keep it in step with ours for code that uses it.
        colored::control::set_override(color);
        Style { color }
    }

    /// The severity as a lowercase word (`critical`), coloured by severity.
    pub fn severity(&self, s: Severity) -> String {
        self.paint(s.as_str(), severity_codes(s))
    }

    /// The severity as an uppercase word (`CRITICAL`), for block headings.
    pub fn severity_label(&self, s: Severity) -> String {
        self.paint(&s.as_str().to_uppercase(), severity_codes(s))
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint(text, &[BOLD])
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint(text, &[DIM])
    }

    /// Commands and code the user may copy (verify lines).
    pub fn code(&self, text: &str) -> String {
        self.paint(text, &[CYAN])
    }

    fn paint(&self, text: &str, codes: &[&str]) -> String {
        if self.color && !text.is_empty() {
            format!("\x1b[{}m{text}{RESET}", codes.join(";"))
        } else {
            text.to_string()
        }
    }
}

fn severity_codes(s: Severity) -> &'static [&'static str] {
    match s {
        Severity::Critical => &[BOLD, RED],
        Severity::Warning => &[BOLD, YELLOW],
        Severity::Info => &[BLUE],
    }
}

/// Whether a string carries an ANSI escape sequence (for tests and assertions).
pub fn has_ansi(s: &str) -> bool {
    s.contains('\x1b')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_never_paints() {
        let s = Style::PLAIN;
        assert_eq!(s.severity(Severity::Critical), "critical");
        assert_eq!(s.severity_label(Severity::Warning), "WARNING");
        assert_eq!(s.bold("x"), "x");
        assert_eq!(s.dim("x"), "x");
        assert_eq!(s.code("x"), "x");
    }

    #[test]
    fn color_paints_whatever_stdout_is() {
        let s = Style::COLOR;
        assert_eq!(s.severity(Severity::Critical), "\x1b[1;31mcritical\x1b[0m");
        assert!(has_ansi(&s.bold("x")));
        assert_eq!(s.bold(""), "", "nothing to paint, no codes");
    }
}
