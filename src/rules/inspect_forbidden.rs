//! FLK901: what the diagnosis could not read (403, timeout, error), or a Flink CRD the API server
//! does not know (404 on the list: `crd_missing`). The result is incomplete there, and says so.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::names::GROUP;

use crate::snapshot::{Gap, GapReason, Index, Snapshot};

pub struct InspectForbidden;

static META: RuleMeta = RuleMeta {
    id: "FLK901",
    name: "inspect_forbidden",
    summary:
        "what the tool itself could not read (403, timeout), so the diagnosis is incomplete there",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
};

impl Rule for InspectForbidden {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        s.gaps.iter().map(finding).collect()
    }
}

fn resource_arg(g: &Gap) -> String {
    let (res, _) = g.resource.split_once('/').unwrap_or((&g.resource, ""));
    if g.group.is_empty() {
        g.resource.clone()
    } else {
        format!("{res}.{}", g.group)
    }
}

fn finding(g: &Gap) -> Finding {
    let scope = g
        .namespace
        .as_deref()
        .map(|n| format!(" in namespace {n}"))
        .unwrap_or_else(|| " cluster-wide".to_string());
    let ns_flag = g
        .namespace
        .as_deref()
        .map(|n| format!(" -n {n}"))
        .unwrap_or_default();
    let res = resource_arg(g);
    let object = ObjectRef::new("Resource", g.namespace.as_deref(), &res);
    if g.reason == GapReason::NotInstalled && g.group == GROUP {
        let kind = if g.resource.contains("session") {
            "FlinkSessionJob"
        } else {
            "FlinkDeployment"
        };
        let mut f = Finding::new(&META, object, format!("the {kind} CRD ({res}) is not installed"))
            .evidence(format!("{} {res}{scope}: 404 {}", g.verb, g.message))
            .fix(
                "Install the Flink Kubernetes Operator's CRDs (they ship with the Helm chart):\n\n\
                 helm repo add flink-operator-repo https://downloads.apache.org/flink/flink-kubernetes-operator-1.15.0/\n\
                 helm upgrade --install flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator -n flink-operator --create-namespace"
                    .to_string(),
            )
            .verify(format!("kubectl get crd {}.{}", g.resource, g.group));
        f.category = Category::CrdMissing;
        f.layer = Category::CrdMissing.layer();
        f.severity = Severity::Critical;
        return f;
    }
    let what = match g.reason {
        GapReason::Forbidden => "may not",
        GapReason::Timeout => "timed out trying to",
        GapReason::NotInstalled => "found no API for",
        GapReason::Error => "failed to",
    };
    let f = Finding::new(
        &META,
        object,
        format!(
            "kubectl-flink {what} {} {res}{scope}: the diagnosis is incomplete there",
            g.verb
        ),
    )
    .evidence(format!(
        "{} {res}{scope}: {:?}: {}",
        g.verb, g.reason, g.message
    ));
    match g.reason {
        GapReason::Forbidden => {
            let (kind, binding) = if g.namespace.is_some() { ("role", "rolebinding") } else { ("clusterrole", "clusterrolebinding") };
            let verb = if g.verb == "create" { "create" } else { "get,list,watch" };
            f.fix(format!(
                "Ask a cluster admin to let you read it (read-only):\n\n\
                 kubectl create {kind} kubectl-flink-reader{ns_flag} --verb={verb} --resource={res}\n\
                 kubectl create {binding} kubectl-flink-reader{ns_flag} --{kind}=kubectl-flink-reader \\\n  \
                 --user=\"$(kubectl auth whoami -o jsonpath='{{.status.userInfo.username}}')\"\n\n\
                 `kubectl flink can-i --for me` lists everything doctor reads."
            ))
            .verify(format!("kubectl auth can-i {} {res}{ns_flag}", g.verb))
        }
        _ => f
            .fix("Retry with a longer --request-timeout (e.g. --request-timeout=2m), or check the API server's health.".to_string())
            .verify("kubectl get --raw='/readyz?verbose'".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{run, snapshot, HEALTHY};

    fn gap(resource: &str, group: &str, reason: GapReason) -> Gap {
        Gap {
            verb: "list".into(),
            group: group.into(),
            resource: resource.into(),
            namespace: Some("prod".into()),
            reason,
            message: "flinkdeployments.flink.apache.org is forbidden: User \"alice\" cannot list resource".into(),
        }
    }

    #[test]
    fn a_forbidden_list_names_verb_and_resource_and_the_fix() {
        let mut s = snapshot(HEALTHY);
        s.gaps
            .push(gap("flinkdeployments", GROUP, GapReason::Forbidden));
        let f = run(&InspectForbidden, &s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].category, Category::InspectForbidden);
        assert!(f[0]
            .title
            .contains("may not list flinkdeployments.flink.apache.org in namespace prod"));
        assert!(f[0].fix.contains("kubectl create role kubectl-flink-reader -n prod --verb=get,list,watch --resource=flinkdeployments.flink.apache.org"));
        assert_eq!(
            f[0].verify,
            "kubectl auth can-i list flinkdeployments.flink.apache.org -n prod"
        );
    }

    #[test]
    fn a_missing_flink_crd_is_crd_missing() {
        let mut s = snapshot(HEALTHY);
        s.gaps
            .push(gap("flinkdeployments", GROUP, GapReason::NotInstalled));
        let f = run(&InspectForbidden, &s);
        assert_eq!(f[0].category, Category::CrdMissing);
        assert_eq!(
            f[0].verify,
            "kubectl get crd flinkdeployments.flink.apache.org"
        );
    }

    #[test]
    fn silent_when_everything_was_read() {
        assert!(run(&InspectForbidden, &snapshot(HEALTHY)).is_empty());
    }
}
