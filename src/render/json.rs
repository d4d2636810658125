//! JSON: `{"version": 1, "findings": [...]}`, findings in rank order. A public contract.

use crate::rank::Report;
use std::io::{self, Write};

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}
