//! Markdown, for pasting into a ticket. TODO(helper): full layout.

use super::Context;
use crate::rank::Report;
use std::io::{self, Write};

pub fn render(report: &Report, context: &Context, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# kubectl flink doctor: {}", context.scope)?;
    for f in &report.findings {
        writeln!(out, "- **{}** {} ({})", f.severity.as_str(), f.title, f.category)?;
    }
    Ok(())
}
