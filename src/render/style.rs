//! Colour, decided once.

use crate::cli::ColorChoice;
use crate::finding::Severity;
use colored::{ColoredString, Colorize};
use std::io::IsTerminal;

#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub const PLAIN: Style = Style { color: false };

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
        // `colored` has its own global switch; keep it in step with ours.
        colored::control::set_override(color);
        Style { color }
    }

    pub fn severity(&self, s: Severity) -> String {
        self.paint(s.as_str(), |t| match s {
            Severity::Critical => t.red().bold(),
            Severity::Warning => t.yellow().bold(),
            Severity::Info => t.blue(),
        })
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint(text, |t| t.bold())
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint(text, |t| t.dimmed())
    }

    fn paint(&self, text: &str, f: impl Fn(ColoredString) -> ColoredString) -> String {
        if self.color {
            f(text.normal()).to_string()
        } else {
            text.to_string()
        }
    }
}
