//! The tool's own failures (findings are data, not errors), each mapped to a documented exit code.

use std::fmt;

pub const EXIT_OK: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INCOMPLETE: i32 = 3;
/// `doctor` without NAME found no Flink deployment in scope and nothing else wrong, or `doctor
/// NAME` found none of that name: nothing was diagnosed, which is not the same as healthy (0).
pub const EXIT_NOTHING_FOUND: i32 = 4;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad flags or bad input: a missing bundle, invalid YAML, an unknown context (exit 2).
    #[error("{0}")]
    Input(String),
    /// The diagnosis could not be made: cluster unreachable, everything forbidden (exit 3).
    #[error("{0}")]
    Incomplete(String),
    /// `doctor NAME`: no Flink deployment of that name where it looked (exit 4).
    #[error("{0}")]
    NotFound(String),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => EXIT_USAGE,
            Error::Incomplete(_) => EXIT_INCOMPLETE,
            Error::NotFound(_) => EXIT_NOTHING_FOUND,
        }
    }
    pub fn input(action: &str, e: impl fmt::Display) -> Self {
        Error::Input(format!("{action}: {}", one_line(&e.to_string())))
    }
    pub fn incomplete(action: &str, e: impl fmt::Display) -> Self {
        Error::Incomplete(format!("{action}: {}", one_line(&e.to_string())))
    }
}

impl From<crate::snapshot::bundle::BundleError> for Error {
    fn from(e: crate::snapshot::bundle::BundleError) -> Self {
        Error::Input(one_line(&e.to_string()))
    }
}

/// Errors are printed on one line: newlines from nested causes are folded.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
