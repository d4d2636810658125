//! What Flink and its operators are, once: the facts every stage reads (names, labels, exit
//! codes, units, the operator's error format, its installation) and the permission model with
//! the RBAC evaluator. Below snapshot, signatures, rules, lint and cluster; it uses none of them.

pub mod access;
pub mod artifact;
pub mod conf;
pub mod exit;
pub mod ha;
pub mod identity;
pub mod install;
pub mod kinds;
pub mod labels;
pub mod mode;
pub mod names;
pub mod operator_error;
pub mod permissions;
pub mod rbac;
pub mod rbac_fix;
pub mod spelling;
pub mod units;
