//! `kubectl flink triage`: explain a pasted log or error offline. TODO(helper).

use crate::cli::{OutputArgs, TriageArgs};
use crate::error::Error;

pub fn run(_args: &TriageArgs, _output: &OutputArgs) -> Result<i32, Error> {
    Err(Error::Input("triage: not implemented yet".into()))
}
