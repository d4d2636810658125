//! FLK452 / FLK453: the ServiceAccount a FlinkDeployment runs as.
//!
//! Both are `default_service_account` in the taxonomy: without `spec.serviceAccount` the operator
//! would fall back to the namespace's `default` account, and refuses to (its validator rejects the
//! resource, so nothing is deployed: critical); with `serviceAccount: default` it deploys, and
//! the JobManager then lacks the rights to create TaskManager pods (warning, as doctor's FLK502
//! reports it on a live cluster, where it can also see whether `default` was given the rights).

use super::{At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::mode::{Component, Mode};
use crate::flink::permissions;
use crate::flink::rbac_fix::{self, Known, Need, RbacPlan, Workload};
use crate::lint::locate::Path;
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

/// apache/flink-kubernetes-operator@release-1.15.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/validation/DefaultValidator.java, verbatim.
pub const VALIDATOR_MESSAGE: &str =
    "spec.serviceAccount must be defined. If you use helm, its value should be the same with the name of jobServiceAccount.";

pub static MISSING: Check = Check {
    meta: RuleMeta {
        id: "FLK452",
        name: "service_account_missing",
        summary: "A FlinkDeployment has no spec.serviceAccount, which the operator's validator rejects.",
        category: Category::DefaultServiceAccount,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"set spec.serviceAccount to the job ServiceAccount the operator chart creates (`flink`), or to one bound to the Role Flink needs"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK452"#,
    },
    help: "The operator refuses a FlinkDeployment without spec.serviceAccount (\"spec.serviceAccount must be \
defined...\"), so nothing is deployed. Set it to the job ServiceAccount the operator's Helm chart creates \
(jobServiceAccount, `flink` by default), which is bound to the Role the JobManager needs to manage TaskManager pods \
and HA ConfigMaps.",
    run: missing,
};

pub static DEFAULT: Check = Check {
    meta: RuleMeta {
        id: "FLK453",
        name: "default_service_account",
        summary: "A FlinkDeployment runs as the namespace's default ServiceAccount, which normally has no rights.",
        category: Category::DefaultServiceAccount,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"run Flink as a dedicated ServiceAccount (`flink`) bound to a Role with the rights its mode needs, and set spec.serviceAccount to it: one plan, the same in doctor, lint, triage and `kubectl flink can-i --fix`"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK453"#,
    },
    help: "In native mode the JobManager creates, watches and deletes its TaskManager pods (and, with HA, ConfigMaps) \
through the Kubernetes API as spec.serviceAccount. The namespace's `default` account has none of those rights \
unless someone granted them, so the JobManager fails with 403 Forbidden. Use a dedicated ServiceAccount (the \
chart's `flink`) bound to a Role with those rights.",
    run: default,
};

fn missing(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkDeployment {
        return Vec::new();
    }
    let set = m
        .str_at("spec.serviceAccount")
        .is_some_and(|s| !s.trim().is_empty());
    // A wrong type (`serviceAccount: 1`) is the schema check's to report.
    if set || m.get("spec.serviceAccount").is_some_and(|v| !v.is_string()) {
        return Vec::new();
    }
    let at = if m.written(&Path::parse("spec.serviceAccount")) {
        "spec.serviceAccount"
    } else {
        "spec"
    };
    vec![Hit::new(
        At::Path(Path::parse(at)),
        "spec.serviceAccount is not set",
        "spec.serviceAccount is not set: the operator rejects the FlinkDeployment",
    )
    .evidence(format!("the operator's validator: {VALIDATOR_MESSAGE}"))
    .evidence("without it Flink would run as the namespace's `default` ServiceAccount, which normally may not create TaskManager pods")
    .fix(fix(m, "add"))
    .verify(verify(m))]
}

fn default(m: &Manifest, _: &Lint) -> Vec<Hit> {
    if m.kind != Kind::FlinkDeployment
        || m.str_at("spec.serviceAccount").map(str::trim) != Some("default")
    {
        return Vec::new();
    }
    vec![Hit::path(
        "spec.serviceAccount",
        "spec.serviceAccount: default",
        "Flink runs as the namespace's `default` ServiceAccount, which has no rights to manage TaskManager pods",
    )
    .evidence("the JobManager creates, watches and deletes TaskManager pods (and HA ConfigMaps) as this account; `default` normally has no Role")
    .fix(fix(m, "change"))
    .verify(verify(m))]
}

/// The planner's fix (the one doctor and can-i print), for a manifest: nothing is known of the
/// namespace, so it creates the account and the Role with the rights the JobManager needs in the
/// manifest's mode and configuration, and sets spec.serviceAccount.
fn plan(m: &Manifest) -> RbacPlan {
    let ns = m.namespace.as_deref().unwrap_or("default");
    let standalone = m.str_at("spec.mode") == Some("standalone");
    let need = Need {
        component: Component::JobManager,
        mode: if standalone {
            Mode::Standalone
        } else {
            Mode::Operator
        },
        ha: permissions::ha_enabled(&m.config.entries),
        refused: Vec::new(),
        namespace: ns.to_string(),
        service_account: "default".into(),
        workload: Workload::FlinkDeployment(m.name.clone()),
        account_missing: false,
    };
    rbac_fix::plan(&need, &Known::default())
}

fn fix(m: &Manifest, verb: &str) -> String {
    let plan = plan(m);
    format!(
        "{} the job ServiceAccount the operator's Helm chart creates (jobServiceAccount, `flink` by default):\n\n\
         spec:\n\
         \x20 serviceAccount: {}\n\n\
         In a namespace the chart does not manage, create it with the rights the JobManager needs:\n\n\
         kubectl apply -f - <<'EOF'\n{}EOF",
        if verb == "add" { "Add" } else { "Use" },
        plan.service_account,
        plan.yaml()
    )
}

fn verify(m: &Manifest) -> String {
    format!(
        "{}\nkubectl get flinkdeployment {}{} -o jsonpath='{{.status.error}}'   # after apply: no ValidationError",
        plan(m).verify().lines().filter(|l| l.starts_with("kubectl auth")).collect::<Vec<_>>().join("\n"),
        crate::shell::sh(&m.name),
        m.ns_flag()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    #[test]
    fn missing_quotes_the_validator() {
        let yaml = BASIC.replace("  serviceAccount: flink\n", "");
        let h = hits(&MISSING, &yaml);
        assert_eq!(h.len(), 1);
        assert!(h[0].evidence[0].ends_with(VALIDATOR_MESSAGE));
        assert!(h[0].fix.contains("serviceAccount: flink"));
        assert!(hits(&DEFAULT, &yaml).is_empty());
    }

    #[test]
    fn default_is_a_warning_of_its_own() {
        let yaml = BASIC.replace("serviceAccount: flink", "serviceAccount: default");
        let h = hits(&DEFAULT, &yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].what, "spec.serviceAccount: default");
        assert!(h[0].fix.contains("kind: Role"), "{}", h[0].fix);
        assert!(hits(&MISSING, &yaml).is_empty());
    }

    #[test]
    fn silent_on_the_operators_example() {
        assert!(hits(&MISSING, BASIC).is_empty());
        assert!(hits(&DEFAULT, BASIC).is_empty());
    }
}
