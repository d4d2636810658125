//! TODO(helper): not yet written.

use crate::cli::{KubeArgs, OutputArgs};
use crate::error::Error;

#[derive(Debug, clap::Args)]
pub struct CanIArgs {
    /// The Flink deployment
    pub name: Option<String>,
}

pub async fn run(_args: &CanIArgs, _kube: &KubeArgs, _output: &OutputArgs) -> Result<i32, Error> {
    Err(Error::Input("not implemented yet".into()))
}
