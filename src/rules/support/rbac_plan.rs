//! The RBAC fix planner (`flink::rbac_fix`) fed with what a Snapshot knows about the namespace:
//! its ServiceAccounts, which Roles and RoleBindings exist and whose they are, and what each
//! account may already do (the authorizer's answer, else the RBAC objects').

use super::modes::may;
use crate::flink::mode::{Component, Mode};
use crate::flink::permissions;
use crate::flink::rbac_fix::{self, Known, Need, RbacPlan, Workload, MANAGED_BY};
use crate::snapshot::index::{meta_name, Cluster, Index};
use crate::snapshot::Snapshot;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::collections::BTreeMap;

/// The plan for `need`, knowing what `s` read of its namespace.
pub fn plan(s: &Snapshot, need: &Need) -> RbacPlan {
    let ns = need.namespace.as_str();
    let in_ns = |m: &ObjectMeta| m.namespace.as_deref() == Some(ns);
    let allows = |sa: &str, group: &str, resource: &str, verb: &str| {
        may(s, ns, sa, verb, group, resource).map(|(allowed, _)| allowed)
    };
    let known = Known {
        service_accounts: s.holds("ServiceAccount").then(|| {
            s.service_accounts
                .iter()
                .filter(|a| in_ns(&a.metadata))
                .filter_map(|a| a.metadata.name.clone())
                .collect()
        }),
        allows: Some(&allows),
        ..roles_and_bindings(s, ns)
    };
    rbac_fix::plan(need, &known)
}

/// The grant for an account refused outside its own namespace, or for the operator
/// (`rbac_fix::plan_grant`), knowing which Roles and RoleBindings of `namespace` are whose.
pub fn grant(
    s: &Snapshot,
    component: Component,
    mode: Mode,
    subject_namespace: &str,
    service_account: &str,
    namespace: &str,
    refused: &[(String, String, String)],
) -> RbacPlan {
    let known = roles_and_bindings(s, namespace);
    rbac_fix::plan_grant(
        component,
        mode,
        subject_namespace,
        service_account,
        namespace,
        refused,
        &known,
    )
}

/// The plan for a JobManager of `cluster` (when the snapshot knows it) that runs as NS's
/// `default` ServiceAccount: an account of its own with the rights it needs, and the switch
/// (FLK502's fix, and FLK401's when the validator asks for an account).
pub fn off_default(s: &Snapshot, index: &Index, cluster: Option<&Cluster>, ns: &str) -> RbacPlan {
    let need = need(
        index,
        cluster,
        Component::JobManager,
        ns,
        "default",
        Vec::new(),
    );
    plan(s, &need)
}

/// Which Roles and RoleBindings of NS exist (name -> whether kubectl-flink manages it), when
/// the snapshot read them all; nothing else known.
fn roles_and_bindings<'a>(s: &Snapshot, ns: &str) -> Known<'a> {
    let names = |metas: Vec<&ObjectMeta>| -> BTreeMap<String, bool> {
        metas
            .into_iter()
            .filter(|m| m.namespace.as_deref() == Some(ns))
            .filter_map(|m| {
                let ours = m
                    .labels
                    .as_ref()
                    .and_then(|l| l.get(MANAGED_BY.0))
                    .is_some_and(|v| v == MANAGED_BY.1);
                Some((m.name.clone()?, ours))
            })
            .collect()
    };
    Known {
        roles: s
            .rbac_complete
            .then(|| names(s.roles.iter().map(|r| &r.metadata).collect())),
        role_bindings: s
            .rbac_complete
            .then(|| names(s.role_bindings.iter().map(|r| &r.metadata).collect())),
        ..Default::default()
    }
}

/// What a component of `cluster` (when the snapshot knows it) needs, running as `service_account`
/// in `namespace`, besides the requests seen refused.
pub fn need(
    index: &Index,
    cluster: Option<&Cluster>,
    component: Component,
    namespace: &str,
    service_account: &str,
    refused: Vec<(String, String, String)>,
) -> Need {
    let (mode, ha, workload) = match cluster {
        Some(c) => (
            c.mode,
            permissions::ha_enabled(&index.conf(c).flat()),
            if let Some(fd) = c.flink_deployment {
                Workload::FlinkDeployment(fd.name().to_string())
            } else if let Some(app) = c.flink_application {
                Workload::FlinkApplication(meta_name(&app.metadata).to_string())
            } else if c.mode == Mode::FlinkCluster {
                Workload::FlinkCluster(c.name().to_string())
            } else if c.mode == Mode::Native {
                Workload::NativeCluster(c.name().to_string())
            } else {
                Workload::Unknown
            },
        ),
        // Not known: the native set, the larger one.
        None => (Mode::Unknown, false, Workload::Unknown),
    };
    Need {
        component,
        mode,
        ha,
        refused,
        namespace: namespace.to_string(),
        service_account: service_account.to_string(),
        workload,
        account_missing: false,
    }
}
