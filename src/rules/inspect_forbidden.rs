//! FLK901: what the diagnosis could not read (403, timeout, error), or a Flink CRD the API server
//! does not know (404 on the list: `crd_missing`). The result is incomplete there, and says so.
//!
//! Every refusal (403) is one finding together: what the person may not read, by resource, the
//! one `kubectl auth can-i` to check it, and the read-only ClusterRole (for what was refused
//! cluster-wide) and Role (for what was refused in a namespace only) that grant exactly it, named
//! after the user so that applying it twice, or for another user, changes nothing else. Rank puts
//! it after every other root cause.

use super::{Rule, RuleMeta};
use crate::finding::{Category, Finding, ObjectRef, Severity};
use crate::flink::names::GROUP;

use crate::snapshot::{Gap, GapReason, Index, Snapshot};

pub struct InspectForbidden;

/// A gap in reading a kind of `kinds::SCHEDULING_CONTEXT`.
fn context_only(g: &Gap) -> bool {
    crate::flink::kinds::SCHEDULING_CONTEXT
        .iter()
        .any(|k| k.plural == g.resource && k.group == g.group)
}

static META: RuleMeta = RuleMeta {
    id: "FLK901",
    name: "inspect_forbidden",
    summary:
        "what the tool itself could not read (403, timeout), so the diagnosis is incomplete there",
    category: Category::InspectForbidden,
    severity: Severity::Warning,
    explains: &[],
    fix: r#"run kubectl flink as someone who may read what was refused (the finding lists it), or read the rest of the report knowing it is incomplete there"#,
    verify: r#"kubectl auth can-i --list -n <namespace>   # expect the verbs the finding names"#,
};

impl Rule for InspectForbidden {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, s: &Snapshot, _index: &Index) -> Vec<Finding> {
        // What is read only to explain (`kinds::SCHEDULING_CONTEXT`) leaves no hole in a
        // conclusion when it cannot be: `-v` says it, no finding does.
        // The Apache CRDs' 404 is no hole where another operator is the installation (the
        // GCP/Spotify or Lyft operator found, or probably there, no Apache one): that cluster
        // never had them.
        // What is probably an operator counts too (a Lyft install under its own labels).
        let ops = crate::rules::support::install::operators(s);
        let kinds: std::collections::BTreeSet<crate::flink::identity::OperatorKind> = ops
            .iter()
            .map(|o| o.flavor.kind())
            .chain(s.probable_operators.iter().map(|p| p.operator))
            .collect();
        let foreign_install =
            !kinds.is_empty() && !kinds.contains(&crate::flink::identity::OperatorKind::Apache);
        let (refused, other): (Vec<&Gap>, Vec<&Gap>) = s
            .gaps
            .iter()
            .filter(|g| !context_only(g))
            .filter(|g| {
                !(foreign_install && g.reason == GapReason::NotInstalled && g.group == GROUP)
            })
            .partition(|g| g.reason == GapReason::Forbidden);
        let mut out: Vec<Finding> = other.into_iter().map(finding).collect();
        match refused.as_slice() {
            [] => {}
            [one] => out.push(finding(one)),
            many => out.push(refusals(many)),
        }
        out
    }
}

/// The user a 403 names: `... is forbidden: User "alice" cannot list resource ...` (the API
/// server's RBAC authorizer, k8s.io/apiserver `forbiddenMessage`).
fn refused_user(gaps: &[&Gap]) -> Option<String> {
    gaps.iter().find_map(|g| {
        let rest = g.message.split_once("User \"")?.1;
        let user = rest.split_once('"')?.0;
        (!user.is_empty()).then(|| user.to_string())
    })
}

/// The verbs a read-only grant of `g` needs: a subresource (pods/log) is only read with get.
fn grant_verbs(g: &Gap) -> &'static [&'static str] {
    if g.verb == "create" {
        &["create"]
    } else if g.resource.contains('/') {
        &["get"]
    } else {
        &["get", "list", "watch"]
    }
}

/// RBAC's `rules:` for these refusals: one rule per API group and set of verbs.
fn rules_yaml(gaps: &[&Gap]) -> String {
    let mut rules: Vec<(&str, &[&str], Vec<&str>)> = Vec::new();
    for g in gaps {
        let verbs = grant_verbs(g);
        match rules
            .iter_mut()
            .find(|(group, v, _)| *group == g.group && *v == verbs)
        {
            Some((_, _, resources)) => {
                if !resources.contains(&g.resource.as_str()) {
                    resources.push(&g.resource);
                }
            }
            None => rules.push((&g.group, verbs, vec![&g.resource])),
        }
    }
    let quoted = |xs: &[&str]| {
        xs.iter()
            .map(|x| format!("\"{x}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    rules
        .iter()
        .map(|(group, verbs, resources)| {
            format!(
                "  - apiGroups: [\"{group}\"]\n    resources: [{}]\n    verbs: [{}]\n",
                quoted(resources),
                quoted(verbs)
            )
        })
        .collect()
}

/// A Role or ClusterRole name of the user's own: lower-case letters, digits, `-` and `.`.
fn reader_name(user: Option<&str>) -> String {
    let Some(user) = user else {
        return "kubectl-flink-reader".to_string();
    };
    let mut name = String::from("kubectl-flink-reader-");
    for c in user.to_ascii_lowercase().chars() {
        let c = if c.is_ascii_alphanumeric() || c == '.' {
            c
        } else {
            '-'
        };
        if !(c == '-' && name.ends_with('-')) {
            name.push(c);
        }
    }
    name.trim_end_matches(['-', '.']).to_string()
}

/// The binding's subject: a ServiceAccount (`system:serviceaccount:NS:NAME`) or a user; when the
/// 403 named nobody, the caller as `kubectl auth whoami` says (the heredoc is then unquoted).
fn subject_yaml(user: Option<&str>) -> String {
    match user {
        Some(u) => match u.strip_prefix("system:serviceaccount:").and_then(|r| r.split_once(':')) {
            Some((ns, sa)) => {
                format!("  - kind: ServiceAccount\n    name: {sa}\n    namespace: {ns}\n")
            }
            None => format!(
                "  - kind: User\n    apiGroup: rbac.authorization.k8s.io\n    name: \"{u}\"\n"
            ),
        },
        None => "  - kind: User\n    apiGroup: rbac.authorization.k8s.io\n    name: \"$(kubectl auth whoami -o jsonpath='{.status.userInfo.username}')\"\n".to_string(),
    }
}

/// Every refusal as one finding, grouped by resource.
fn refusals(gaps: &[&Gap]) -> Finding {
    let mut gaps = gaps.to_vec();
    gaps.sort_by(|a, b| {
        (&a.group, &a.resource, &a.namespace, &a.verb).cmp(&(
            &b.group,
            &b.resource,
            &b.namespace,
            &b.verb,
        ))
    });
    let gaps = gaps.as_slice();
    let user = refused_user(gaps);
    // What each resource was refused, and where.
    let mut by_resource: Vec<(String, Vec<String>)> = Vec::new();
    for g in gaps {
        let where_ = match &g.namespace {
            Some(n) => format!("{} in namespace {n}", g.verb),
            None => format!("{} cluster-wide", g.verb),
        };
        let res = resource_arg(g);
        match by_resource.iter_mut().find(|(r, _)| *r == res) {
            Some((_, w)) => {
                if !w.contains(&where_) {
                    w.push(where_);
                }
            }
            None => by_resource.push((res, vec![where_])),
        }
    }
    by_resource.sort();
    let names: Vec<&str> = by_resource.iter().map(|(r, _)| r.as_str()).collect();
    let title = format!(
        "kubectl-flink may not read {} of the resources it needs (403): the diagnosis is \
         incomplete there",
        names.len()
    );
    let object = match &user {
        Some(u) => ObjectRef::new("User", None, u),
        None => ObjectRef::new("Resource", None, &format!("{} resources", names.len())),
    };
    let mut f = Finding::new(&META, object, title);
    for (res, wheres) in &by_resource {
        f = f.evidence(format!("{res}: {} refused (403)", wheres.join(", ")));
    }
    if let Some(g) = gaps.first() {
        f = f.evidence(format!("the API server: {}", g.message));
    }

    // Cluster-wide refusals need a ClusterRole; what was refused only in a namespace, a Role there.
    let cluster: Vec<&Gap> = gaps
        .iter()
        .copied()
        .filter(|g| g.namespace.is_none())
        .collect();
    let covered = |g: &Gap| {
        cluster
            .iter()
            .any(|c| c.group == g.group && c.resource == g.resource && c.verb == g.verb)
    };
    let mut namespaces: Vec<&str> = gaps
        .iter()
        .filter(|g| !covered(g))
        .filter_map(|g| g.namespace.as_deref())
        .collect();
    namespaces.sort();
    namespaces.dedup();
    let name = reader_name(user.as_deref());
    let labels = format!(
        "  labels:\n    {}: {}\n",
        crate::flink::rbac_fix::MANAGED_BY.0,
        crate::flink::rbac_fix::MANAGED_BY.1
    );
    let subjects = subject_yaml(user.as_deref());
    let mut docs = Vec::new();
    if !cluster.is_empty() {
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {name}\n{labels}rules:\n{}",
            rules_yaml(&cluster)
        ));
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: {name}\n{labels}roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: {name}\nsubjects:\n{subjects}"
        ));
    }
    for ns in &namespaces {
        let here: Vec<&Gap> = gaps
            .iter()
            .copied()
            .filter(|g| g.namespace.as_deref() == Some(ns) && !covered(g))
            .collect();
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {name}\n  namespace: {ns}\n{labels}rules:\n{}",
            rules_yaml(&here)
        ));
        docs.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {name}\n  namespace: {ns}\n{labels}roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {name}\nsubjects:\n{subjects}"
        ));
    }
    let heredoc = if user.is_some() { "<<'EOF'" } else { "<<EOF" };
    // `--list` in a namespace shows the cluster-wide rules as well.
    let scope = gaps
        .iter()
        .find_map(|g| g.namespace.as_deref())
        .map(|n| format!(" -n {n}"))
        .unwrap_or_default();
    f.fix(format!(
        "Ask a cluster admin to let you read them (read-only, on exactly these resources; \
         applying it twice changes nothing):\n\n\
         kubectl apply -f - {heredoc}\n{}EOF\n\n\
         `kubectl flink can-i --for me` lists everything doctor reads.",
        docs.join("---\n")
    ))
    .verify(format!("kubectl auth can-i --list{scope}"))
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
        .map(|n| format!(" -n {}", crate::shell::sh(n)))
        .unwrap_or_default();
    let res = resource_arg(g);
    // Gaps are gather's own requests (resources from its list, namespaces already checked):
    // quoted all the same, so the commands stay right whatever a gap is made of.
    let res_w = crate::shell::quote(&res).into_owned();
    let object = ObjectRef::new("Resource", g.namespace.as_deref(), &res);
    if g.reason == GapReason::NotInstalled && g.group == GROUP {
        let kind = if g.resource.contains("session") {
            "FlinkSessionJob"
        } else {
            "FlinkDeployment"
        };
        let mut f = Finding::new(
            &META,
            object,
            format!("the {kind} CRD ({res}) is not installed"),
        )
        .evidence(format!("{} {res}{scope}: 404 {}", g.verb, g.message))
        .fix(format!(
            "Install the Flink Kubernetes Operator's CRDs (they ship with the Helm chart):\n\n{}",
            crate::rules::support::install::helm_install("flink-operator", "")
        ))
        .verify(format!(
            "kubectl get crd {}",
            crate::shell::quote(&format!("{}.{}", g.resource, g.group))
        ));
        f.category = Category::CrdMissing;
        f.layer = Category::CrdMissing.layer();
        f.severity = Severity::Critical;
        return f;
    }
    // Pods beyond the cap a live read keeps, as a bundle's (`bundle::beyond_the_cap`): nothing
    // failed, the rest were not looked at.
    if g.verb == crate::snapshot::bundle::LOOK_AT {
        return Finding::new(
            &META,
            object,
            format!("kubectl-flink did not look at every pod{scope}: the diagnosis is incomplete there"),
        )
        .severity(Severity::Info)
        .evidence(g.message.clone())
        .fix(format!(
            "Nothing failed: the pods beyond the first {} of the operators' namespaces were not looked at for an operator. List them, and diagnose the operator's namespace on its own (-n) if one of them is it.",
            crate::snapshot::bundle::ASIDE_MAX
        ))
        .verify(format!("kubectl get pods{ns_flag} -o wide"));
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
                 kubectl create {kind} kubectl-flink-reader{ns_flag} --verb={verb} --resource={res_w}\n\
                 kubectl create {binding} kubectl-flink-reader{ns_flag} --{kind}=kubectl-flink-reader \\\n  \
                 --user=\"$(kubectl auth whoami -o jsonpath='{{.status.userInfo.username}}')\"\n\n\
                 `kubectl flink can-i --for me` lists everything doctor reads."
            ))
            .verify(format!(
                "kubectl auth can-i {} {res_w}{ns_flag}",
                crate::shell::sh(&g.verb)
            ))
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
    fn what_is_read_only_to_explain_is_no_finding_when_refused() {
        let mut s = snapshot(HEALTHY);
        for (resource, group) in [
            ("nodes", ""),
            ("namespaces", ""),
            ("limitranges", ""),
            ("priorityclasses", "scheduling.k8s.io"),
        ] {
            s.gaps.push(gap(resource, group, GapReason::Forbidden));
        }
        assert!(run(&InspectForbidden, &s).is_empty());
        // A refused list of ResourceQuotas is one: FLK108 concludes from quotas.
        s.gaps.push(gap("resourcequotas", "", GapReason::Forbidden));
        assert_eq!(run(&InspectForbidden, &s).len(), 1);
    }

    #[test]
    fn pods_left_out_beyond_the_cap_are_an_info_not_a_failure() {
        let mut s = snapshot(HEALTHY);
        s.gaps
            .push(crate::snapshot::bundle::beyond_the_cap("ops", 40));
        let f = run(&InspectForbidden, &s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert_eq!(
            f[0].title,
            "kubectl-flink did not look at every pod in namespace ops: the diagnosis is incomplete there"
        );
        assert!(f[0].evidence[0].starts_with("40 Pod(s) of no Flink cluster beyond the first 1000"));
        assert!(!f[0].fix.contains("request-timeout"), "{}", f[0].fix);
        assert_eq!(f[0].verify, "kubectl get pods -n ops -o wide");
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
    fn every_refusal_is_one_finding_by_resource_with_one_can_i_and_a_minimal_grant() {
        let mut s = snapshot(HEALTHY);
        let refused = |verb: &str, group: &str, resource: &str, ns: Option<&str>| {
            Gap {
            verb: verb.into(),
            group: group.into(),
            resource: resource.into(),
            namespace: ns.map(str::to_string),
            reason: GapReason::Forbidden,
            message: format!(
                "{resource} is forbidden: User \"alice@example.com\" cannot {verb} resource \"{resource}\""
            ),
        }
        };
        s.gaps = vec![
            refused("list", "apps", "deployments", None),
            refused("list", "apps", "deployments", Some("prod")),
            refused("list", "", "events", Some("prod")),
            refused("get", "", "pods/log", Some("prod")),
            refused("list", GROUP, "flinkdeployments", Some("prod")),
            refused("list", "rbac.authorization.k8s.io", "clusterroles", None),
        ];
        s.gaps.push(gap("services", "", GapReason::Timeout));
        let f = run(&InspectForbidden, &s);
        assert_eq!(f.len(), 2, "{f:#?}");
        let one = f.iter().find(|f| f.evidence.len() > 1).unwrap();
        assert_eq!(
            one.object,
            ObjectRef::new("User", None, "alice@example.com")
        );
        assert!(
            one.title.contains("may not read 5 of the resources"),
            "{}",
            one.title
        );
        assert_eq!(
            one.evidence[1],
            "deployments.apps: list cluster-wide, list in namespace prod refused (403)"
        );
        assert_eq!(one.verify, "kubectl auth can-i --list -n prod");
        let remedy = crate::finding::Remedy::from_fix(&one.fix);
        let docs: Vec<serde_yaml::Value> = remedy
            .apply
            .iter()
            .map(|d| serde_yaml::from_str(d).unwrap())
            .collect();
        let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"]
        );
        let name = "kubectl-flink-reader-alice-example.com";
        assert!(
            docs.iter().all(|d| d["metadata"]["name"] == name),
            "{docs:?}"
        );
        // The ClusterRole holds what was refused cluster-wide; the Role only what it leaves.
        let resources = |d: &serde_yaml::Value| -> Vec<String> {
            d["rules"]
                .as_sequence()
                .unwrap()
                .iter()
                .flat_map(|r| r["resources"].as_sequence().unwrap().clone())
                .map(|r| r.as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(resources(&docs[0]), ["deployments", "clusterroles"]);
        assert_eq!(
            resources(&docs[2]),
            ["events", "pods/log", "flinkdeployments"]
        );
        assert_eq!(docs[2]["rules"][1]["verbs"][0], "get");
        assert_eq!(docs[2]["rules"][1]["verbs"].as_sequence().unwrap().len(), 1);
        assert_eq!(docs[1]["subjects"][0]["name"], "alice@example.com");
        // Never more than reading.
        for d in [&docs[0], &docs[2]] {
            for r in d["rules"].as_sequence().unwrap() {
                for v in r["verbs"].as_sequence().unwrap() {
                    assert!(["get", "list", "watch"].contains(&v.as_str().unwrap()));
                }
            }
        }
    }

    #[test]
    fn a_service_account_gets_a_service_account_subject() {
        let user = Some("system:serviceaccount:ci:runner");
        assert!(subject_yaml(user)
            .contains("kind: ServiceAccount\n    name: runner\n    namespace: ci"));
        assert_eq!(
            reader_name(user),
            "kubectl-flink-reader-system-serviceaccount-ci-runner"
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

    /// A cluster whose installation is the FlinkCluster operator never had the Apache CRDs.
    #[test]
    fn the_apache_crds_are_not_missing_where_another_operator_is_installed() {
        let yaml = r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: flink-operator-controller-manager, namespace: flink-operator-system,
  labels: {app: flink-operator, control-plane: controller-manager}}
spec:
  selector: {matchLabels: {app: flink-operator}}
  template:
    metadata: {labels: {app: flink-operator, control-plane: controller-manager}}
    spec: {containers: [{name: manager, image: "ghcr.io/spotify/flink-operator:v0.5.0"}]}
"#;
        let mut s = snapshot(yaml);
        crate::snapshot::bundle::classify_operator(&mut s);
        s.gaps
            .push(gap("flinkdeployments", GROUP, GapReason::NotInstalled));
        assert!(run(&InspectForbidden, &s).is_empty());
        // With the Apache operator beside it, the 404 is its missing CRD again.
        let apache = r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: flink-kubernetes-operator, namespace: flink-operator,
  labels: {app.kubernetes.io/name: flink-kubernetes-operator}}
spec:
  selector: {matchLabels: {app.kubernetes.io/name: flink-kubernetes-operator}}
  template:
    metadata: {labels: {app.kubernetes.io/name: flink-kubernetes-operator}}
    spec: {containers: [{name: flink-kubernetes-operator, image: "ghcr.io/apache/flink-kubernetes-operator:1.15.0"}]}
"#;
        let mut s = snapshot(&format!("{yaml}---{apache}"));
        crate::snapshot::bundle::classify_operator(&mut s);
        s.gaps
            .push(gap("flinkdeployments", GROUP, GapReason::NotInstalled));
        assert_eq!(run(&InspectForbidden, &s)[0].category, Category::CrdMissing);
    }

    #[test]
    fn silent_when_everything_was_read() {
        assert!(run(&InspectForbidden, &snapshot(HEALTHY)).is_empty());
    }
}
