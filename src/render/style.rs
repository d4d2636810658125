//! Colour and width, decided once (`Style::decide`) and handed to the renderers.
//!
//! Painting is one layer built on `colored`: a [`Look`] is a `colored::Color` and emphasis, its
//! escape codes are colored's, and whether to paint is decided here, not by colored's global
//! switch (which looks at the terminal itself): a renderer given `Style { color: true }` always
//! colours, one given `Style::PLAIN` never does, whatever stdout is. That keeps renderers testable
//! against a `Vec<u8>`. The width is the same: decided once from `COLUMNS` or the terminal, 80
//! columns when stdout is not a terminal, and renderers only read `style.width`.

use crate::finding::Severity;
use colored::Color;
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    /// The columns the layout is made for (wrapping, what fits beside what).
    pub width: usize,
}

impl Default for Style {
    fn default() -> Self {
        Style::PLAIN
    }
}

/// The width when stdout is not a terminal and `COLUMNS` says nothing (a pipe, a file, a test).
pub const DEFAULT_WIDTH: usize = 80;
/// Narrower than this, nothing useful fits beside the labels: lay out at this width anyway.
pub const MIN_WIDTH: usize = 40;
/// Wider than this, lines stop being readable: a wider terminal gets this width.
pub const MAX_WIDTH: usize = 400;

/// Ends every painted span.
pub const RESET: &str = "\x1b[0m";

/// How a span of text looks on a colour terminal: a colour (colored's) and emphasis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Look {
    color: Option<Color>,
    bold: bool,
    dim: bool,
    reversed: bool,
}

impl Look {
    pub const fn fg(color: Color) -> Look {
        Look {
            color: Some(color),
            bold: false,
            dim: false,
            reversed: false,
        }
    }
    pub const BOLD: Look = Look {
        color: None,
        bold: true,
        dim: false,
        reversed: false,
    };
    pub const DIM: Look = Look {
        color: None,
        bold: false,
        dim: true,
        reversed: false,
    };
    pub const fn bold(self) -> Look {
        Look { bold: true, ..self }
    }
    pub const fn reversed(self) -> Look {
        Look {
            reversed: true,
            ..self
        }
    }

    /// The escape sequence that starts the look (`\x1b[1;31m`); empty for no look at all.
    pub fn start(&self) -> String {
        let mut codes: Vec<std::borrow::Cow<'static, str>> = Vec::new();
        if self.bold {
            codes.push("1".into());
        }
        if self.dim {
            codes.push("2".into());
        }
        if self.reversed {
            codes.push("7".into());
        }
        if let Some(c) = self.color {
            codes.push(c.to_fg_str());
        }
        if codes.is_empty() {
            String::new()
        } else {
            format!("\x1b[{}m", codes.join(";"))
        }
    }

    /// `text` in this look, reset after it.
    pub fn paint(&self, text: &str) -> String {
        format!("{}{text}{RESET}", self.start())
    }
}

impl Style {
    pub const PLAIN: Style = Style {
        color: false,
        width: DEFAULT_WIDTH,
    };
    pub const COLOR: Style = Style {
        color: true,
        width: DEFAULT_WIDTH,
    };

    /// The same style laid out for `width` columns (kept within MIN_WIDTH..=MAX_WIDTH).
    pub fn with_width(self, width: usize) -> Style {
        Style {
            width: width.clamp(MIN_WIDTH, MAX_WIDTH),
            ..self
        }
    }

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
        Style {
            color,
            width: DEFAULT_WIDTH,
        }
        .with_width(terminal_width())
    }

    /// The severity as a lowercase word (`critical`), coloured by severity.
    pub fn severity(&self, s: Severity) -> String {
        self.paint(s.as_str(), severity_look(s))
    }

    /// The severity as an uppercase word (`CRITICAL`), for block headings.
    pub fn severity_label(&self, s: Severity) -> String {
        self.paint(&s.as_str().to_uppercase(), severity_look(s))
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint(text, Look::BOLD)
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint(text, Look::DIM)
    }

    /// Commands and code the user may copy (verify lines).
    pub fn code(&self, text: &str) -> String {
        self.paint(text, Look::fg(Color::Cyan))
    }

    fn paint(&self, text: &str, look: Look) -> String {
        if self.color && !text.is_empty() {
            look.paint(text)
        } else {
            text.to_string()
        }
    }
}

/// The width to lay out for: `COLUMNS` when it holds a number (as less and ls read it), else the
/// terminal's when stdout is one (comfy-table asks the terminal), else 80.
pub fn terminal_width() -> usize {
    width_from(std::env::var("COLUMNS").ok().as_deref(), || {
        if std::io::stdout().is_terminal() {
            comfy_table::Table::new().width().map(usize::from)
        } else {
            None
        }
    })
}

fn width_from(columns: Option<&str>, terminal: impl FnOnce() -> Option<usize>) -> usize {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or_else(terminal)
        .filter(|&c| c > 0)
        .unwrap_or(DEFAULT_WIDTH)
}

/// A severity's look: the same red and yellow mark failure lines in `logs`.
pub fn severity_look(s: Severity) -> Look {
    match s {
        Severity::Critical => Look::fg(Color::Red).bold(),
        Severity::Warning => Look::fg(Color::Yellow).bold(),
        Severity::Info => Look::fg(Color::Blue),
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

    #[test]
    fn width_comes_from_columns_then_the_terminal_then_80() {
        assert_eq!(width_from(Some("120"), || Some(90)), 120);
        assert_eq!(width_from(Some(" 200 "), || None), 200);
        assert_eq!(width_from(Some("wide"), || Some(90)), 90);
        assert_eq!(width_from(Some("0"), || Some(90)), 90);
        assert_eq!(width_from(None, || Some(132)), 132);
        assert_eq!(width_from(None, || Some(0)), DEFAULT_WIDTH);
        assert_eq!(width_from(None, || None), DEFAULT_WIDTH);
        assert_eq!(Style::PLAIN.with_width(10).width, MIN_WIDTH);
        assert_eq!(Style::PLAIN.with_width(100_000).width, MAX_WIDTH);
        assert_eq!(Style::default(), Style::PLAIN);
    }
}
