//! Renderers draw a finished Report; they never decide anything. Colour is decided once
//! (`style::Style::decide`) and handed in.

pub mod json;
pub mod markdown;
pub mod style;
pub mod table;

use crate::cli::Format;
use crate::rank::Report;
use std::io::{self, Write};

pub use style::Style;

/// What the report is about, for headings: "namespace prod", "bundle examples/canonical".
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub scope: String,
}

pub fn render(
    report: &Report,
    context: &Context,
    format: Format,
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => table::render(report, context, style, out),
        Format::Markdown => markdown::render(report, context, out),
        Format::Json => json::render(report, out),
    }
}
