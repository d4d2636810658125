//! End-to-end tests of `kubectl flink can-i` on the real test cluster (scripts/test-cluster.sh):
//! the real binary against a real kube-apiserver with RBAC, its decisions checked against the real
//! authorizer (`kubectl auth can-i`).
//!
//! Run with `scripts/test-cluster.sh run cargo test --workspace` (or `--test can_i_e2e`). Without
//! the harness these tests FAIL when `CI` is set and print a loud SKIPPED message otherwise.
//!
//! Isolation: every test works in namespaces of its own (`cani-<test>-<unique>`), and the few
//! cluster-scoped objects it makes (ClusterRoles, ClusterRoleBindings) carry the same unique
//! prefix. The plugin runs as the harness admin or as ServiceAccount tokens made here, never as the
//! shared e2e or limited users, whose rights and audit trail other tests rely on.
//!
//! There is no kube-controller-manager in the test cluster, so the ClusterRole aggregation
//! controller never fills an aggregated ClusterRole's rules. The real authorizer therefore denies
//! what such a role would grant on a real cluster, while can-i's offline evaluation (the "from RBAC
//! objects" method) computes the rules as the controller would. The aggregation test shows both,
//! then fills the rules by hand as the controller would and checks the two agree.

mod common;
use common::run::Run;
use common::{env_path, harness_dir, need, repo};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

struct Harness {
    /// The harness admin (system:masters): fixtures, `kubectl auth can-i --as`, and the plugin's
    /// identity where it needs every right.
    admin: PathBuf,
    kubectl: PathBuf,
    /// Where this run's kubeconfigs for ServiceAccount callers go.
    scratch: PathBuf,
}

fn harness() -> Result<&'static Harness, String> {
    static H: OnceLock<Result<Harness, String>> = OnceLock::new();
    H.get_or_init(|| {
        harness_dir()?;
        let scratch =
            std::env::temp_dir().join(format!("kubectl-flink-can-i-e2e-{}", std::process::id()));
        std::fs::create_dir_all(&scratch)
            .map_err(|e| format!("create {}: {e}", scratch.display()))?;
        Ok(Harness {
            admin: need("KUBECONFIG")?,
            kubectl: need("KUBE_HARNESS_KUBECTL")?,
            scratch,
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The harness, or None after a loud skip message; panics under CI.
fn harness_or_skip(test: &str) -> Option<&'static Harness> {
    common::or_skip("can_i_e2e", test, harness())
}

fn kubectl(h: &Harness, args: &[&str], stdin: Option<&str>) -> Run {
    let mut cmd = Command::new(&h.kubectl);
    cmd.args(args).env("KUBECONFIG", &h.admin);
    Run::of(&mut cmd, stdin)
}

/// kubectl as the admin, which must succeed.
fn k(h: &Harness, args: &[&str], stdin: Option<&str>) -> String {
    let r = kubectl(h, args, stdin);
    assert_eq!(
        r.code,
        0,
        "kubectl {} failed: {}{}",
        args.join(" "),
        r.stdout,
        r.stderr
    );
    r.stdout
}

/// The plugin as the given kubeconfig's user.
fn plugin(kubeconfig: &Path, args: &[&str]) -> Run {
    common::run::plugin(Some(kubeconfig), args)
}

/// Deletes objects when dropped (also when the test fails): objects that other tests' live
/// diagnoses would see cluster-wide (an operator Deployment, FlinkDeployments, Flink pods) must not
/// outlive the test that made them.
struct Cleanup<'a> {
    h: &'a Harness,
    /// (namespace, kind, name, wait): cluster-scoped kinds ignore the namespace.
    objects: Vec<(String, String, String, bool)>,
}

impl<'a> Cleanup<'a> {
    fn new(h: &'a Harness) -> Self {
        Cleanup {
            h,
            objects: Vec::new(),
        }
    }

    /// Deletes `kind/name` in `ns` at the end of the test.
    fn later(&mut self, ns: &str, kind: &str, name: &str) {
        self.objects
            .push((ns.to_string(), kind.to_string(), name.to_string(), false));
    }

    /// Deletes the cluster-scoped `kind/name` at the end of the test, waiting until it is gone.
    fn later_and_wait(&mut self, kind: &str, name: &str) {
        self.objects.push((
            "default".to_string(),
            kind.to_string(),
            name.to_string(),
            true,
        ));
    }
}

impl Drop for Cleanup<'_> {
    fn drop(&mut self) {
        for (ns, kind, name, wait) in self.objects.iter().rev() {
            let wait = if *wait {
                "--timeout=120s"
            } else {
                "--wait=false"
            };
            let r = kubectl(
                self.h,
                &["delete", kind, name, "-n", ns, "--ignore-not-found", wait],
                None,
            );
            if r.code != 0 {
                eprintln!(
                    "can-i e2e: could not delete {kind}/{name} in {ns}: {}",
                    r.stderr
                );
            }
        }
    }
}

/// A name no other test and no earlier run uses.
fn unique(prefix: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    format!(
        "cani-{prefix}-{:x}{:x}{}",
        std::process::id(),
        t % 0xfffff,
        N.fetch_add(1, Ordering::SeqCst)
    )
}

/// A fresh namespace with the given ServiceAccounts.
fn namespace(h: &Harness, prefix: &str, service_accounts: &[&str]) -> String {
    let ns = unique(prefix);
    let mut y = format!("apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n");
    for sa in service_accounts {
        y.push_str(&format!("---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: {sa}, namespace: {ns}}}\n"));
    }
    k(h, &["create", "-f", "-"], Some(&y));
    ns
}

/// A kubeconfig whose user is the ServiceAccount `ns/sa` (a token from the TokenRequest API), on
/// the admin kubeconfig's cluster.
fn service_account_kubeconfig(h: &Harness, ns: &str, sa: &str) -> PathBuf {
    let token = k(h, &["create", "token", sa, "-n", ns, "--duration=1h"], None)
        .trim()
        .to_string();
    let admin: Value =
        serde_yaml::from_str(&std::fs::read_to_string(&h.admin).expect("read admin kubeconfig"))
            .expect("admin kubeconfig is YAML");
    let cluster = admin["clusters"][0]["cluster"].clone();
    let config = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "test", "cluster": cluster}],
        "users": [{"name": sa, "user": {"token": token}}],
        "contexts": [{"name": "test", "context": {"cluster": "test", "user": sa, "namespace": ns}}],
        "current-context": "test",
    });
    let path = h.scratch.join(format!("{ns}-{sa}.kubeconfig"));
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&config).expect("encode"),
    )
    .expect("write kubeconfig");
    path
}

/// The real authorizer's answer, via `kubectl auth can-i --as` as the admin.
fn authorizer(h: &Harness, verb: &str, group: &str, resource: &str, ns: &str, user: &str) -> bool {
    let (base, sub) = resource.split_once('/').unwrap_or((resource, ""));
    let typ = if group.is_empty() {
        base.to_string()
    } else {
        format!("{base}.{group}")
    };
    let as_user = format!("--as={user}");
    let mut args = vec![
        "auth",
        "can-i",
        verb,
        typ.as_str(),
        "-n",
        ns,
        as_user.as_str(),
    ];
    let subresource = format!("--subresource={sub}");
    if !sub.is_empty() {
        args.push(&subresource);
    }
    let r = kubectl(h, &args, None);
    r.stdout.trim() == "yes"
}

/// Polls until `f` holds (RBAC changes reach the authorizer through informers, not at once).
fn eventually(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if f() {
            return;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    panic!("timed out after {timeout:?} waiting until {what}");
}

fn sa_user(ns: &str, sa: &str) -> String {
    format!("system:serviceaccount:{ns}:{sa}")
}

fn decisions(v: &Value) -> Vec<Value> {
    v["decisions"].as_array().cloned().unwrap_or_default()
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

/// (group, resource, verb) -> allowed, in order.
fn matrix(v: &Value) -> Vec<(String, String, String, Value)> {
    decisions(v)
        .iter()
        .map(|d| {
            (
                s(d, "group").to_string(),
                s(d, "resource").to_string(),
                s(d, "verb").to_string(),
                d["allowed"].clone(),
            )
        })
        .collect()
}

/// Every decision of a can-i JSON report agrees with `kubectl auth can-i`.
fn agrees_with_authorizer(h: &Harness, v: &Value, ns: &str, user: &str) {
    for (group, resource, verb, allowed) in matrix(v) {
        let real = authorizer(h, &verb, &group, &resource, ns, user);
        assert_eq!(
            allowed,
            Value::Bool(real),
            "{verb} {resource} ({group}) for {user}: can-i says {allowed}, the authorizer {real}"
        );
    }
}

/// Every decision of a can-i JSON report agrees with a SubjectAccessReview created as the admin
/// (unlike `kubectl auth can-i`, it needs no discovery of the resource: the FlinkCluster and
/// Volcano CRDs are not installed).
fn agrees_with_review(h: &Harness, v: &Value, ns: &str, user: &str) {
    for (group, resource, verb, allowed) in matrix(v) {
        let (base, sub) = resource.split_once('/').unwrap_or((resource.as_str(), ""));
        let review = format!(
            "apiVersion: authorization.k8s.io/v1\nkind: SubjectAccessReview\nspec:\n  user: \"{user}\"\n  \
             resourceAttributes: {{namespace: \"{ns}\", verb: {verb}, group: \"{group}\", resource: {base}, subresource: \"{sub}\"}}\n"
        );
        let out = k(
            h,
            &["create", "-f", "-", "-o", "jsonpath={.status.allowed}"],
            Some(&review),
        );
        let real = out.trim() == "true";
        assert_eq!(
            allowed,
            Value::Bool(real),
            "{verb} {resource} ({group}) for {user}: can-i says {allowed}, the review {real}"
        );
    }
}

const PARTIAL_ROLE: &str = "rules:
- apiGroups: [\"\"]
  resources: [pods]
  verbs: [get, list, watch]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get]
";

/// A Role NAME with PARTIAL_ROLE's rules, bound to ServiceAccount `sa`.
fn partial_role(h: &Harness, ns: &str, sa: &str) {
    let y = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: partial, namespace: {ns}}}\n{PARTIAL_ROLE}---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: partial-{sa}, namespace: {ns}}}\n\
         roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: partial}}\n\
         subjects: [{{kind: ServiceAccount, name: {sa}, namespace: {ns}}}]\n"
    );
    k(h, &["apply", "-f", "-"], Some(&y));
    let user = sa_user(ns, sa);
    eventually(
        "the partial Role reaches the authorizer",
        Duration::from_secs(20),
        || authorizer(h, "list", "", "pods", ns, &user),
    );
}

/// A cluster-wide role for a caller ServiceAccount, bound with a ClusterRoleBinding of the same
/// (unique) name.
fn caller_rights(h: &Harness, name: &str, ns: &str, sa: &str, rules: &str) {
    let y = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {{name: {name}}}\nrules:\n{rules}---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {{name: {name}}}\n\
         roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {name}}}\n\
         subjects: [{{kind: ServiceAccount, name: {sa}, namespace: {ns}}}]\n"
    );
    k(h, &["apply", "-f", "-"], Some(&y));
}

const READ_RBAC: &str = "- apiGroups: [rbac.authorization.k8s.io]
  resources: [roles, rolebindings, clusterroles, clusterrolebindings]
  verbs: [get, list]
";

const CREATE_SAR: &str = "- apiGroups: [authorization.k8s.io]
  resources: [subjectaccessreviews]
  verbs: [create]
";

// ------------------------------------------------------------------------------------------ tests

/// A ServiceAccount with nothing: every JobManager permission denied, decided by impersonation
/// (the admin may impersonate), exit 1, and each decision is the real authorizer's.
#[test]
fn service_account_with_nothing_is_denied_everything() {
    let Some(h) = harness_or_skip("service_account_with_nothing_is_denied_everything") else {
        return;
    };
    let ns = namespace(h, "nothing", &["flink"]);
    let user = sa_user(&ns, "flink");
    let as_arg = format!("--as={user}");
    let r = plugin(&h.admin, &["can-i", "-n", &ns, &as_arg, "-o", "json"]);
    assert_eq!(r.code, 1, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["version"], 1);
    assert_eq!(v["subject"], user.as_str());
    assert_eq!(v["namespace"], ns.as_str());
    let ds = decisions(&v);
    // Native JobManager, HA checked as on (no deployment named): pods, deployments, finalizers, configmaps.
    assert_eq!(ds.len(), 5 + 1 + 1 + 7, "{ds:#?}");
    for d in &ds {
        assert_eq!(d["allowed"], false, "{d}");
        assert_eq!(d["method"], "impersonation", "{d}");
        assert!(!s(d, "why").is_empty());
    }
    agrees_with_authorizer(h, &v, &ns, &user);

    // The table: the matrix, every row labelled with the method, the denials with a reason.
    let r = plugin(&h.admin, &["can-i", "-n", &ns, &as_arg]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("RESOURCE"), "{}", r.stdout);
    assert!(
        r.stdout.contains("impersonation + SelfSubjectAccessReview"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("denied all 14: no rule allows it"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("0 of 14 needed permissions allowed"),
        "{}",
        r.stdout
    );
    // -q: nothing at all on stdout, the same exit code.
    let r = plugin(&h.admin, &["can-i", "-n", &ns, &as_arg, "-q"]);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
}

/// A ServiceAccount with a partial Role: some allowed, some denied, exactly as the authorizer
/// says; the subject found from a native cluster's `flink-config-NAME` ConfigMap (HA on there).
#[test]
fn partial_role_found_through_the_flink_config_map() {
    let Some(h) = harness_or_skip("partial_role_found_through_the_flink_config_map") else {
        return;
    };
    let ns = namespace(h, "partial", &["flink"]);
    partial_role(h, &ns, "flink");
    let cm = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: flink-config-orders, namespace: {ns}, labels: {{app: orders, type: flink-native-kubernetes}}}}\n\
         data:\n  flink-conf.yaml: |\n    kubernetes.cluster-id: orders\n    kubernetes.service-account: flink\n    high-availability.type: kubernetes\n"
    );
    k(h, &["create", "-f", "-"], Some(&cm));
    let r = plugin(&h.admin, &["can-i", "orders", "-n", &ns, "-o", "json"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    let user = sa_user(&ns, "flink");
    assert_eq!(v["subject"], user.as_str());
    assert_eq!(v["ha"], true);
    assert!(
        s(&v, "source").contains("kubernetes.service-account in ConfigMap flink-config-orders"),
        "{v}"
    );
    let allowed = |res: &str, verb: &str| {
        decisions(&v)
            .iter()
            .find(|d| s(d, "resource") == res && s(d, "verb") == verb)
            .map(|d| d["allowed"].clone())
    };
    assert_eq!(allowed("pods", "watch"), Some(Value::Bool(true)));
    assert_eq!(allowed("pods", "create"), Some(Value::Bool(false)));
    assert_eq!(allowed("deployments", "get"), Some(Value::Bool(true)));
    assert_eq!(allowed("configmaps", "update"), Some(Value::Bool(false)));
    agrees_with_authorizer(h, &v, &ns, &user);
    let allowed_reason = decisions(&v)
        .into_iter()
        .find(|d| s(d, "resource") == "pods" && s(d, "verb") == "get")
        .map(|d| s(&d, "reason").to_string())
        .unwrap_or_default();
    assert!(
        allowed_reason.contains("RoleBinding"),
        "the authorizer's reason: {allowed_reason}"
    );
}

/// The --fix round trip, verified by the real authorizer: the printed YAML is a Role and a
/// RoleBinding (no ClusterRole, no wildcard, no edit/admin), `kubectl apply -f -` takes it, and
/// can-i then exits 0 with everything allowed.
#[test]
fn fix_round_trip() {
    let Some(h) = harness_or_skip("fix_round_trip") else {
        return;
    };
    let ns = namespace(h, "fix", &["flink"]);
    partial_role(h, &ns, "flink");
    let user = sa_user(&ns, "flink");
    let as_arg = format!("--as={user}");
    let r = plugin(&h.admin, &["can-i", "-n", &ns, &as_arg, "--fix"]);
    assert_eq!(
        r.code, 1,
        "before the fix something is denied: {}",
        r.stderr
    );
    let yaml = r.stdout.clone();
    assert!(
        yaml.contains("kind: Role\n") && yaml.contains("kind: RoleBinding\n"),
        "{yaml}"
    );
    for banned in [
        "*",
        "kind: ClusterRole",
        "cluster-admin",
        "name: edit\n",
        "name: admin\n",
    ] {
        assert!(!yaml.contains(banned), "{banned:?} in the fix:\n{yaml}");
    }
    assert!(
        r.stderr.contains("denied"),
        "a summary on stderr: {}",
        r.stderr
    );
    // The planner's complete Role for the JobManager (what doctor, lint and triage print too),
    // named predictably and labelled as kubectl-flink's, not a Role of only the denied verbs.
    let docs: Vec<Value> = serde_yaml::Deserializer::from_str(&yaml)
        .map(|d| serde::Deserialize::deserialize(d).expect("fix YAML parses"))
        .filter(|d: &Value| !d.is_null())
        .collect();
    let role = docs.iter().find(|d| d["kind"] == "Role").expect("a Role");
    let pods = role["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["resources"][0] == "pods")
        .expect("a pods rule");
    assert_eq!(
        pods["verbs"],
        serde_json::json!(["get", "list", "watch", "create", "delete"]),
        "{yaml}"
    );
    assert_eq!(role["metadata"]["name"], "flink-jobmanager", "{yaml}");
    assert_eq!(
        role["metadata"]["labels"]["app.kubernetes.io/managed-by"], "kubectl-flink",
        "{yaml}"
    );

    k(h, &["apply", "-f", "-"], Some(&yaml));
    // Safe to apply twice: the second apply changes nothing.
    let again = k(h, &["apply", "-f", "-"], Some(&yaml));
    assert!(
        again.lines().all(|l| l.ends_with(" unchanged")),
        "second apply changed something:\n{again}"
    );
    eventually(
        "can-i exits 0 after the fix",
        Duration::from_secs(30),
        || plugin(&h.admin, &["can-i", "-n", &ns, &as_arg, "-q"]).code == 0,
    );
    let r = plugin(&h.admin, &["can-i", "-n", &ns, &as_arg, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v = r.json();
    assert!(
        decisions(&v)
            .iter()
            .all(|d| d["allowed"] == true && d["method"] == "impersonation"),
        "{v}"
    );
    agrees_with_authorizer(h, &v, &ns, &user);
    // Nothing left to fix: nothing on stdout, so `| kubectl apply -f -` is never fed a stale Role.
    let r = plugin(&h.admin, &["can-i", "-n", &ns, &as_arg, "--fix"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert!(r.stderr.contains("nothing to fix"), "{}", r.stderr);
}

/// A caller who may not impersonate falls back, and says so: to SubjectAccessReview when it may
/// create one, to the RBAC objects when it may only read them (labelled not authoritative), and
/// to "unknown" (exit 3) when it may do neither. Every method gives the same answers here.
#[test]
fn caller_without_impersonation_falls_back_to_the_next_method() {
    let Some(h) = harness_or_skip("caller_without_impersonation_falls_back_to_the_next_method")
    else {
        return;
    };
    let ns = namespace(
        h,
        "fallback",
        &["flink", "sar-caller", "rbac-reader", "nobody"],
    );
    partial_role(h, &ns, "flink");
    let prefix = unique("fallback");
    caller_rights(h, &format!("{prefix}-sar"), &ns, "sar-caller", CREATE_SAR);
    caller_rights(h, &format!("{prefix}-rbac"), &ns, "rbac-reader", READ_RBAC);
    let user = sa_user(&ns, "flink");
    let as_arg = format!("--as={user}");
    let args = ["can-i", "-n", ns.as_str(), as_arg.as_str(), "-o", "json"];

    let reference = plugin(&h.admin, &args);
    assert_eq!(reference.code, 1, "{}", reference.stderr);
    let reference = reference.json();

    let sar_caller = service_account_kubeconfig(h, &ns, "sar-caller");
    eventually(
        "sar-caller may create SubjectAccessReviews",
        Duration::from_secs(20),
        || {
            authorizer(
                h,
                "create",
                "authorization.k8s.io",
                "subjectaccessreviews",
                &ns,
                &sa_user(&ns, "sar-caller"),
            )
        },
    );
    let r = plugin(&sar_caller, &args);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert!(
        decisions(&v)
            .iter()
            .all(|d| d["method"] == "subjectaccessreview"),
        "{v}"
    );
    assert_eq!(matrix(&v), matrix(&reference));

    let reader = service_account_kubeconfig(h, &ns, "rbac-reader");
    eventually(
        "rbac-reader may list rolebindings",
        Duration::from_secs(20),
        || {
            authorizer(
                h,
                "list",
                "rbac.authorization.k8s.io",
                "rolebindings",
                &ns,
                &sa_user(&ns, "rbac-reader"),
            )
        },
    );
    let r = plugin(&reader, &args);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert!(
        decisions(&v).iter().all(|d| d["method"] == "rbac-objects"),
        "{v}"
    );
    assert_eq!(matrix(&v), matrix(&reference));
    let table = plugin(&reader, &["can-i", "-n", &ns, &as_arg]);
    assert!(
        table
            .stdout
            .contains("from RBAC objects, not authoritative"),
        "{}",
        table.stdout
    );
    let granted = decisions(&v)
        .into_iter()
        .find(|d| d["allowed"] == true)
        .expect("something allowed");
    assert!(
        s(&granted, "reason").contains("RoleBinding \"partial-flink/"),
        "{granted}"
    );

    let nobody = service_account_kubeconfig(h, &ns, "nobody");
    let r = plugin(&nobody, &args);
    assert_eq!(
        r.code, 3,
        "nothing decidable is exit 3: {}\n{}",
        r.stdout, r.stderr
    );
    let v = r.json();
    for d in decisions(&v) {
        assert_eq!(d["allowed"], Value::Null, "{d}");
        assert!(s(&d, "reason").contains("could not list"), "{d}");
    }
}

/// A ServiceAccount bound through a ClusterRoleBinding to an aggregated ClusterRole. With no
/// aggregation controller in the test cluster the role's stored rules stay empty: the real
/// authorizer denies (impersonation, exit 1), while the RBAC-object evaluation fills the rules as
/// the controller would (allowed, exit 0, and it says the stored rules lack them). Filling the
/// rules by hand, as the controller would, makes both agree.
#[test]
fn aggregated_cluster_role_as_the_controller_would_fill_it() {
    let Some(h) = harness_or_skip("aggregated_cluster_role_as_the_controller_would_fill_it") else {
        return;
    };
    let ns = namespace(h, "aggregate", &["flink", "rbac-reader"]);
    let prefix = unique("agg");
    let label = format!("kubectl-flink.e2e/{prefix}");
    let part_rules = "- apiGroups: [\"\"]
  resources: [pods]
  verbs: [get, list, watch, create, delete]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get]
- apiGroups: [apps]
  resources: [deployments/finalizers]
  verbs: [update]
- apiGroups: [\"\"]
  resources: [configmaps]
  verbs: [get, list, watch, create, update, patch, delete]
";
    let y = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {{name: {prefix}-flink}}\n\
         aggregationRule:\n  clusterRoleSelectors:\n  - matchLabels: {{\"{label}\": \"true\"}}\nrules: []\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {prefix}-flink-part\n  labels: {{\"{label}\": \"true\"}}\n\
         rules:\n{part_rules}---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {{name: {prefix}-flink}}\n\
         roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {prefix}-flink}}\n\
         subjects: [{{kind: ServiceAccount, name: flink, namespace: {ns}}}]\n"
    );
    k(h, &["create", "-f", "-"], Some(&y));
    caller_rights(
        h,
        &format!("{prefix}-reader"),
        &ns,
        "rbac-reader",
        READ_RBAC,
    );
    let reader = service_account_kubeconfig(h, &ns, "rbac-reader");
    let user = sa_user(&ns, "flink");
    let as_arg = format!("--as={user}");
    let args = ["can-i", "-n", ns.as_str(), as_arg.as_str(), "-o", "json"];
    eventually(
        "rbac-reader may list clusterroles",
        Duration::from_secs(20),
        || {
            authorizer(
                h,
                "list",
                "rbac.authorization.k8s.io",
                "clusterroles",
                "",
                &sa_user(&ns, "rbac-reader"),
            )
        },
    );

    // The real authorizer sees the stored (empty) rules.
    let r = plugin(&h.admin, &args);
    assert_eq!(
        r.code, 1,
        "no aggregation controller runs, so the authorizer denies: {}",
        r.stdout
    );
    let v = r.json();
    assert!(
        decisions(&v)
            .iter()
            .all(|d| d["allowed"] == false && d["method"] == "impersonation"),
        "{v}"
    );

    // The offline evaluation aggregates as the controller would, and says the stored rules differ.
    let r = plugin(&reader, &args);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    for d in decisions(&v) {
        assert_eq!(
            (d["allowed"].clone(), s(&d, "method")),
            (Value::Bool(true), "rbac-objects"),
            "{d}"
        );
        assert!(
            s(&d, "reason").contains(&format!("ClusterRoleBinding \"{prefix}-flink\"")),
            "{d}"
        );
        assert!(
            s(&d, "reason").contains("stored rules do not include it yet"),
            "{d}"
        );
    }

    // Fill the aggregated role's rules by hand, as the controller would: now both agree.
    let part: Value = serde_json::from_str(&k(
        h,
        &[
            "get",
            "clusterrole",
            &format!("{prefix}-flink-part"),
            "-o",
            "json",
        ],
        None,
    ))
    .unwrap();
    let patch = serde_json::json!({"rules": part["rules"]}).to_string();
    k(
        h,
        &[
            "patch",
            "clusterrole",
            &format!("{prefix}-flink"),
            "--type=merge",
            "-p",
            &patch,
        ],
        None,
    );
    eventually(
        "the authorizer sees the filled rules",
        Duration::from_secs(30),
        || plugin(&h.admin, &args).code == 0,
    );
    let by_authorizer = plugin(&h.admin, &args).json();
    let by_objects = plugin(&reader, &args);
    assert_eq!(by_objects.code, 0);
    let by_objects = by_objects.json();
    assert_eq!(matrix(&by_authorizer), matrix(&by_objects));
    assert!(
        decisions(&by_objects)
            .iter()
            .all(|d| !s(d, "reason").contains("do not include it yet")),
        "{by_objects}"
    );
    agrees_with_authorizer(h, &by_authorizer, &ns, &user);
}

/// The subject from a FlinkDeployment's spec.serviceAccount (its HA setting decides the set), and
/// from the JobManager pods' serviceAccountName when there is no FlinkDeployment.
#[test]
fn subject_from_flinkdeployment_and_from_pods() {
    let Some(h) = harness_or_skip("subject_from_flinkdeployment_and_from_pods") else {
        return;
    };
    let ns = namespace(h, "resolve", &["flink", "jm-sa"]);
    let mut cleanup = Cleanup::new(h);
    // The CRD, unless the cluster has it already. One made here is removed again at the end: a
    // lone FlinkDeployment CRD would change other tests' live diagnoses (a partial install).
    let crd_name = "flinkdeployments.flink.apache.org";
    if kubectl(h, &["get", "crd", crd_name], None).code != 0 {
        let crd = env_path("KUBE_HARNESS_CRDS")
            .unwrap_or_else(|| repo().join("src/lint/crds"))
            .join("flinkdeployments.flink.apache.org-v1.yml");
        let doc: Value =
            serde_yaml::from_str(&std::fs::read_to_string(&crd).expect("read the CRD fixture"))
                .expect("the CRD fixture is YAML");
        let r = kubectl(h, &["create", "-f", "-"], Some(&doc.to_string()));
        if r.code == 0 {
            cleanup.later_and_wait("crd", crd_name);
        } else {
            assert!(r.stderr.contains("AlreadyExists"), "{}", r.stderr);
        }
    }
    eventually("the CRD is Established", Duration::from_secs(60), || {
        let r = kubectl(
            h,
            &[
                "get",
                "crd",
                "flinkdeployments.flink.apache.org",
                "-o",
                r#"jsonpath={.status.conditions[?(@.type=="Established")].status}"#,
            ],
            None,
        );
        r.stdout.trim() == "True"
    });
    let fd = format!(
        r#"apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: orders, namespace: {ns}}}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  flinkConfiguration: {{"high-availability.type": kubernetes}}
  jobManager: {{resource: {{memory: 2048m, cpu: 1}}}}
  taskManager: {{resource: {{memory: 2048m, cpu: 1}}}}
"#
    );
    cleanup.later(&ns, "flinkdeployment", "orders");
    cleanup.later(&ns, "pod", "plain-jm");
    // Discovery of a new CRD takes a moment to reach every part of the API server.
    eventually(
        "the FlinkDeployment is created (CRD served)",
        Duration::from_secs(30),
        || kubectl(h, &["create", "-f", "-"], Some(&fd)).code == 0,
    );
    let r = plugin(&h.admin, &["can-i", "orders", "-n", &ns, "-o", "json"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["subject"], sa_user(&ns, "flink").as_str());
    assert_eq!(v["ha"], true);
    assert_eq!(v["source"], "spec.serviceAccount of FlinkDeployment orders");
    assert!(decisions(&v)
        .iter()
        .any(|d| s(d, "resource") == "configmaps"));

    // No FlinkDeployment: the JobManager pod's ServiceAccount (Flink's labels).
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: plain-jm\n  namespace: {ns}\n  labels: {{app: plain, component: jobmanager, type: flink-native-kubernetes}}\n\
         spec:\n  serviceAccountName: jm-sa\n  automountServiceAccountToken: false\n  containers: [{{name: flink-main-container, image: flink:1.20}}]\n"
    );
    k(h, &["create", "-f", "-"], Some(&pod));
    let r = plugin(&h.admin, &["can-i", "plain", "-n", &ns, "-o", "json"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["subject"], sa_user(&ns, "jm-sa").as_str());
    assert_eq!(v["source"], "serviceAccountName of pod plain-jm");
    // No flink-config-plain ConfigMap: HA unknown, checked as on, and said.
    assert_eq!(v["ha"], Value::Null);
    assert!(v["notes"].to_string().contains("HA"), "{v}");

    // --as overrides the deployment's ServiceAccount.
    let as_arg = format!("--as={}", sa_user(&ns, "jm-sa"));
    let v = plugin(
        &h.admin,
        &["can-i", "orders", "-n", &ns, &as_arg, "-o", "json"],
    )
    .json();
    assert_eq!(v["subject"], sa_user(&ns, "jm-sa").as_str());
}

/// `--for operator` finds the operator Deployment's ServiceAccount; `--for me` checks the caller.
#[test]
fn operator_and_me() {
    let Some(h) = harness_or_skip("operator_and_me") else {
        return;
    };
    let ns = namespace(h, "operator", &["flink-operator", "doctor-user"]);
    let dep = format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: flink-kubernetes-operator
  namespace: {ns}
  labels: {{app.kubernetes.io/name: flink-kubernetes-operator}}
spec:
  replicas: 0
  selector: {{matchLabels: {{app.kubernetes.io/name: flink-kubernetes-operator}}}}
  template:
    metadata: {{labels: {{app.kubernetes.io/name: flink-kubernetes-operator}}}}
    spec:
      serviceAccountName: flink-operator
      containers: [{{name: flink-kubernetes-operator, image: "flink-kubernetes-operator:1.15.0"}}]
"#
    );
    let mut cleanup = Cleanup::new(h);
    cleanup.later(&ns, "deployment", "flink-kubernetes-operator");
    k(h, &["create", "-f", "-"], Some(&dep));
    let r = plugin(
        &h.admin,
        &["can-i", "--for", "operator", "-n", &ns, "-o", "json"],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["subject"], sa_user(&ns, "flink-operator").as_str());
    assert!(s(&v, "source").contains("operator Deployment"), "{v}");
    assert!(decisions(&v)
        .iter()
        .any(|d| s(d, "resource") == "flinkdeployments/status"));

    // The caller: the admin may do everything doctor needs.
    let r = plugin(&h.admin, &["can-i", "--for", "me", "-n", &ns, "-o", "json"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert!(
        decisions(&v)
            .iter()
            .all(|d| d["method"] == "selfsubjectaccessreview"),
        "{v}"
    );
    // A caller with only pods: list: the rest denied, and --fix binds the caller itself.
    let rb = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: pods, namespace: {ns}}}\nrules: [{{apiGroups: [\"\"], resources: [pods], verbs: [list]}}]\n---\n\
         apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: pods, namespace: {ns}}}\n\
         roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: pods}}\nsubjects: [{{kind: ServiceAccount, name: doctor-user, namespace: {ns}}}]\n"
    );
    k(h, &["create", "-f", "-"], Some(&rb));
    let me = service_account_kubeconfig(h, &ns, "doctor-user");
    eventually("doctor-user may list pods", Duration::from_secs(20), || {
        authorizer(h, "list", "", "pods", &ns, &sa_user(&ns, "doctor-user"))
    });
    let r = plugin(&me, &["can-i", "--for", "me", "-n", &ns, "-o", "json"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["subject"], sa_user(&ns, "doctor-user").as_str());
    let pods = decisions(&v)
        .into_iter()
        .find(|d| s(d, "resource") == "pods")
        .unwrap();
    assert_eq!(pods["allowed"], true);
    assert!(decisions(&v)
        .iter()
        .filter(|d| s(d, "resource") != "pods")
        .all(|d| d["allowed"] == false));
    let r = plugin(&me, &["can-i", "--for", "me", "-n", &ns, "--fix"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("kind: ClusterRole\n"),
        "cluster-scoped reads need a ClusterRole: {}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains(&format!("name: doctor-user\n    namespace: {ns}")),
        "{}",
        r.stdout
    );
    k(h, &["apply", "-f", "-"], Some(&r.stdout));
    eventually(
        "doctor-user may do everything doctor needs",
        Duration::from_secs(30),
        || plugin(&me, &["can-i", "--for", "me", "-n", &ns, "-q"]).code == 0,
    );
}

/// `--for operator` with the GCP/Spotify FlinkCluster operator's Deployment (`app: flink-operator`):
/// its ServiceAccount is checked against that operator's rules, and granting exactly the
/// ClusterRole of its release (tests/can_i/flinkcluster-operator-role.yaml) allows everything.
#[test]
fn flinkcluster_operator_needs_exactly_its_release_role() {
    let Some(h) = harness_or_skip("flinkcluster_operator_needs_exactly_its_release_role") else {
        return;
    };
    let ns = namespace(h, "fcop", &["flink-operator"]);
    let dep = format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: flink-operator-controller-manager
  namespace: {ns}
  labels: {{app: flink-operator, control-plane: controller-manager}}
spec:
  replicas: 0
  selector: {{matchLabels: {{app: flink-operator, control-plane: controller-manager}}}}
  template:
    metadata: {{labels: {{app: flink-operator, control-plane: controller-manager}}}}
    spec:
      serviceAccountName: flink-operator
      containers: [{{name: flink-operator, image: "ghcr.io/spotify/flink-operator:v0.6.0"}}]
"#
    );
    let mut cleanup = Cleanup::new(h);
    cleanup.later(&ns, "deployment", "flink-operator-controller-manager");
    k(h, &["create", "-f", "-"], Some(&dep));
    let user = sa_user(&ns, "flink-operator");
    let r = plugin(
        &h.admin,
        &["can-i", "--for", "operator", "-n", &ns, "-o", "json"],
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["subject"], user.as_str());
    assert!(s(&v, "source").contains("operator Deployment"), "{v}");
    let resources: Vec<String> = decisions(&v)
        .iter()
        .map(|d| s(d, "resource").to_string())
        .collect();
    for r in ["flinkclusters/status", "statefulsets", "jobs", "pods/log"] {
        assert!(resources.iter().any(|x| x == r), "{r} not asked: {v}");
    }
    assert!(
        !resources.iter().any(|x| x.starts_with("flinkdeployments")),
        "{v}"
    );
    assert!(decisions(&v).iter().all(|d| d["allowed"] == false), "{v}");
    agrees_with_review(h, &v, &ns, &user);

    // The release's ClusterRole, bound to the operator's ServiceAccount: nothing is missing.
    let role = std::fs::read_to_string(repo().join("tests/can_i/flinkcluster-operator-role.yaml"))
        .expect("read the release's role");
    let name = unique("fcop-manager-role");
    let role = role.replace("name: manager-role", &format!("name: {name}"));
    assert!(role.contains(&format!("name: {name}")));
    let binding = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {{name: {name}}}\n\
         roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {name}}}\n\
         subjects: [{{kind: ServiceAccount, name: flink-operator, namespace: {ns}}}]\n"
    );
    cleanup.later_and_wait("clusterrolebinding", &name);
    cleanup.later_and_wait("clusterrole", &name);
    k(h, &["create", "-f", "-"], Some(&role));
    k(h, &["create", "-f", "-"], Some(&binding));
    eventually(
        "the operator's ServiceAccount has its release's rules",
        Duration::from_secs(30),
        || plugin(&h.admin, &["can-i", "--for", "operator", "-n", &ns, "-q"]).code == 0,
    );
    let r = plugin(
        &h.admin,
        &["can-i", "--for", "operator", "-n", &ns, "-o", "json"],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let v = r.json();
    agrees_with_review(h, &v, &ns, &user);
    let r = plugin(&h.admin, &["can-i", "--for", "operator", "-n", &ns]);
    assert!(
        r.stdout
            .contains("operator (FlinkCluster, config/rbac/role.yaml rules)"),
        "{}",
        r.stdout
    );
}

/// Bad input: one clear line on stderr and exit 2.
#[test]
fn bad_input_is_one_line_and_exit_2() {
    let Some(h) = harness_or_skip("bad_input_is_one_line_and_exit_2") else {
        return;
    };
    let ns = namespace(h, "badinput", &["flink"]);
    let missing_ns = unique("missing");
    let flink = format!("--as={}", sa_user(&ns, "flink"));
    let nope = format!("--as={}", sa_user(&ns, "nope"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["-n", &ns, "--as=system:serviceaccount:onlyns"],
            "system:serviceaccount:NAMESPACE:NAME",
        ),
        (
            vec!["-n", &ns, "--as=system:serviceaccount:ns:a:b"],
            "not a valid ServiceAccount",
        ),
        (vec!["-n", &ns, "--as= alice"], "whitespace"),
        (vec!["-n", &ns, &nope], "not found"),
        (
            vec!["-n", &ns, "nosuch"],
            "no Flink deployment named nosuch",
        ),
        (vec!["-n", &missing_ns, &flink], "not found"),
        (vec!["-n", &ns], "name a Flink deployment"),
        (
            vec!["-n", &ns, "Not_A_Name"],
            "not a valid Flink deployment name",
        ),
        (
            vec!["-A", &flink],
            "-A/--all-namespaces only goes with --for me",
        ),
    ];
    for (extra, expect) in cases {
        let mut args = vec!["can-i"];
        args.extend(extra.iter().copied());
        let r = plugin(&h.admin, &args);
        assert_eq!(
            r.code, 2,
            "{args:?}: exit {} stdout {} stderr {}",
            r.code, r.stdout, r.stderr
        );
        assert_eq!(
            r.stderr.trim_end().lines().count(),
            1,
            "{args:?}: one line: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains(expect),
            "{args:?}: {expect:?} in {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
    let r = plugin(
        &h.admin,
        &[
            "can-i",
            "-n",
            &ns,
            &format!("--as={}", sa_user(&ns, "nope")),
        ],
    );
    assert!(
        r.stderr.contains(&format!("ServiceAccount {ns}/nope")),
        "{}",
        r.stderr
    );
    let r = plugin(
        &h.admin,
        &[
            "can-i",
            "-n",
            &missing_ns,
            &format!("--as={}", sa_user(&ns, "flink")),
        ],
    );
    assert!(
        r.stderr
            .contains(&format!("namespace \"{missing_ns}\" not found")),
        "{}",
        r.stderr
    );
}

/// An unreachable API server is exit 3, with one line.
#[test]
fn unreachable_cluster_is_exit_3() {
    // Needs no harness: a kubeconfig pointing at a closed port.
    let dir = std::env::temp_dir().join(format!(
        "kubectl-flink-can-i-e2e-unreachable-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let kc = dir.join("kubeconfig");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\", insecure-skip-tls-verify: true}}]\n\
         users: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u, namespace: default}}]\ncurrent-context: c\n",
    )
    .unwrap();
    let r = plugin(
        &kc,
        &[
            "can-i",
            "-n",
            "default",
            "--as=system:serviceaccount:default:flink",
            "--request-timeout=5s",
        ],
    );
    assert_eq!(r.code, 3, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    // Malformed --as is caught before any connection.
    let r = plugin(&kc, &["can-i", "--as=system:serviceaccount::x"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--as=USER"),
        "says what is accepted: {}",
        r.stderr
    );
}

/// doctor's engine: the 403s in a Flink log, confirmed or contradicted by the authorizer for
/// exactly that ServiceAccount, verb, resource and namespace (`access::review_refusals`, the
/// drop-in for gather's own).
#[test]
fn refusals_in_logs_are_confirmed_or_contradicted_by_the_authorizer() {
    use kubectl_flink::cluster::{access, client};
    use kubectl_flink::snapshot::{LogKey, Snapshot};
    let Some(h) =
        harness_or_skip("refusals_in_logs_are_confirmed_or_contradicted_by_the_authorizer")
    else {
        return;
    };
    let ns = namespace(h, "refusals", &["flink"]);
    partial_role(h, &ns, "flink");
    let refusal = |verb: &str, resource: &str| {
        format!(
            "io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: POST at: https://10.96.0.1/api/v1/namespaces/{ns}/{resource}. \
             Message: {resource} is forbidden: User \"system:serviceaccount:{ns}:flink\" cannot {verb} resource \"{resource}\" in API group \"\" in the namespace \"{ns}\"."
        )
    };
    let mut s = Snapshot::default();
    // Still refused: create pods. Fixed since the crash: watch pods (the partial Role has it now).
    s.logs.insert(
        LogKey::new(&ns, "orders-jm", "flink-main-container", true),
        format!(
            "{}\n{}\n",
            refusal("create", "pods"),
            refusal("watch", "pods")
        ),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (reviews, gaps) = runtime.block_on(async {
        let args = client::ConnectOptions {
            kubeconfig: Some(h.admin.clone()),
            request_timeout: "30s".into(),
            ..Default::default()
        };
        let cluster = client::connect(&args).await.expect("connect");
        let mut gaps = Vec::new();
        let reviews = access::review_refusals(&cluster.client, &s, &mut gaps).await;
        (reviews, gaps)
    });
    assert!(gaps.is_empty(), "{gaps:?}");
    assert_eq!(reviews.len(), 2, "{reviews:?}");
    let user = sa_user(&ns, "flink");
    for r in &reviews {
        assert_eq!(
            (r.user.as_str(), r.namespace.as_str(), r.resource.as_str()),
            (user.as_str(), ns.as_str(), "pods")
        );
        assert!(
            r.reason
                .starts_with("impersonation + SelfSubjectAccessReview: "),
            "{}",
            r.reason
        );
    }
    let create = reviews.iter().find(|r| r.verb == "create").unwrap();
    assert!(!create.allowed, "the refusal is confirmed: {create:?}");
    let watch = reviews.iter().find(|r| r.verb == "watch").unwrap();
    assert!(watch.allowed, "RBAC fixed since the crash: {watch:?}");
    assert!(
        watch.reason.contains("RoleBinding \"partial-flink/"),
        "{}",
        watch.reason
    );
}

/// A token the API server does not accept is exit 3 "Unauthorized", as doctor and logs say, not
/// exit 2 "no Flink deployment named ...".
#[test]
fn an_invalid_token_is_exit_3_unauthorized() {
    let Some(h) = harness_or_skip("an_invalid_token_is_exit_3_unauthorized") else {
        return;
    };
    let admin = std::fs::read_to_string(&h.admin).expect("read the admin kubeconfig");
    let bad: String = admin
        .lines()
        .map(|l| match l.split_once("token:") {
            Some((indent, _)) => format!("{indent}token: not-a-valid-token\n"),
            None => format!("{l}\n"),
        })
        .collect();
    assert_ne!(bad, admin, "the admin kubeconfig has a token line");
    let dir = tempfile::tempdir().expect("tmp");
    let kc = dir.path().join("kubeconfig");
    std::fs::write(&kc, bad).unwrap();
    let r = plugin(&kc, &["can-i", "orders", "-n", "default"]);
    assert_eq!(r.code, 3, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("Unauthorized"), "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
}
