//! What several rules share, kept out of the rule files so that no rule imports another: container
//! views and their evidence, the operator's installation, the deployment modes.

pub mod containers;
pub mod ended_job;
pub mod flink_image;
pub mod flink_versions;
pub mod flinkcluster_memory;
pub(crate) mod install;
pub mod java_opts;
pub(crate) mod modes;
pub mod named_option;
pub mod pod_status;
pub mod rbac_plan;
pub mod refused_since;
pub mod rollout;
pub mod scheduling;
