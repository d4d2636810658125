//! TODO(issue 9): not yet written.

use crate::cli::OutputArgs;
use crate::error::Error;

#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Manifest file or directory, or - for standard input
    #[arg(short = 'f', long = "filename", value_name = "FILE|DIR|-")]
    pub filename: Vec<std::path::PathBuf>,
}

pub fn run(_args: &LintArgs, _output: &OutputArgs) -> Result<i32, Error> {
    Err(Error::Input("lint: not implemented yet".into()))
}
