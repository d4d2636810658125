//! The terminal view. TODO(helper): full layout.

use super::{Context, Style};
use crate::rank::Report;
use std::io::{self, Write};

pub fn render(report: &Report, context: &Context, style: &Style, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", style.bold(&format!("kubectl flink doctor: {}", context.scope)))?;
    for f in &report.findings {
        let indent = if f.caused_by.is_some() { "    " } else { "" };
        writeln!(out, "{indent}{} {} [{}] {}", style.severity(f.severity), f.rule, f.category, f.title)?;
        for e in &f.evidence {
            writeln!(out, "{indent}    {e}")?;
        }
        if !f.fix.is_empty() {
            writeln!(out, "{indent}  fix:\n{}", f.fix)?;
        }
        if !f.verify.is_empty() {
            writeln!(out, "{indent}  verify: {}", f.verify)?;
        }
    }
    Ok(())
}
