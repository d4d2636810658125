//! The only part of kubectl-flink that talks to the API server.

pub mod access;
pub mod body;
pub mod client;
pub mod gather;
pub mod in_cluster;
pub mod install;
pub mod kubeconfig;
pub(crate) mod list;
pub mod logs;
pub mod lookup;
pub mod modes;
pub mod proxy;
pub(crate) mod reader;
pub mod watch;
pub mod watch_events;
pub mod watch_rbac;
