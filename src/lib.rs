//! kubectl-flink: why a Flink deployment on Kubernetes is broken, and how to fix it.
//!
//! One pipeline: gather (the only I/O) -> Snapshot -> rules -> rank -> render.

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod docs;
pub mod error;
pub mod files;
pub mod finding;
pub mod flink;
pub mod lint;
pub mod rank;
pub mod render;
pub mod rules;
pub mod shell;
pub mod signatures;
pub mod snapshot;
