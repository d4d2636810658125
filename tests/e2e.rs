//! End-to-end tests: the real `kubectl-flink` binary against a real kube-apiserver + etcd with a
//! fake kubelet for logs (scripts/test-cluster.sh; scripts/test-cluster/README.md).
//!
//! Run them with `scripts/test-cluster.sh run cargo test --workspace` (or `--test e2e`): the script
//! starts one cluster for the whole run and exports `KUBE_HARNESS_DIR` and friends. Without it these
//! tests FAIL when `CI` is set (a harness that silently skips would hide a broken setup) and print
//! a loud SKIPPED message otherwise.
//!
//! Every test holds one lock while it uses the cluster, which holds one bundle at a time: a bundle
//! is seeded with `seed --reset` (removing what this binary seeded before) unless the cluster
//! already holds it unchanged. A scenario directory with a file `e2e.skip` (its first line says
//! why) is left out of the live comparison.

mod common;
use common::expect::{compare, exact, Expect};
use common::run::{findings, plugin, s, text, Run};
use common::{harness_dir, need};

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

const E2E_USER: &str = "kubectl-flink-e2e";
const LIMITED_USER: &str = "kubectl-flink-limited";

struct Harness {
    repo: PathBuf,
    script: PathBuf,
    /// The admin: seeding, fixtures, `kubectl auth can-i --as`.
    admin: PathBuf,
    /// The plugin's own identity (system:masters), so the audit log tells its requests apart.
    e2e: PathBuf,
    /// May only get and list pods, cluster-wide.
    limited: PathBuf,
    audit_log: PathBuf,
    kubectl: PathBuf,
    /// This test binary's record of what it seeded (for `seed --reset`).
    seed_record: PathBuf,
}

fn harness() -> Result<&'static Harness, String> {
    static H: OnceLock<Result<Harness, String>> = OnceLock::new();
    H.get_or_init(|| {
        let dir = harness_dir()?;
        let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        Ok(Harness {
            script: repo.join("scripts/test-cluster.sh"),
            repo,
            admin: need("KUBECONFIG")?,
            e2e: need("KUBE_E2E_KUBECONFIG")?,
            limited: need("KUBE_LIMITED_KUBECONFIG")?,
            audit_log: need("KUBE_AUDIT_LOG")?,
            kubectl: need("KUBE_HARNESS_KUBECTL")?,
            seed_record: dir.join(format!("seed-record.e2e-{}.tsv", std::process::id())),
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The harness, or None after a loud skip message; panics under CI.
fn harness_or_skip(test: &str) -> Option<&'static Harness> {
    common::or_skip("e2e", test, harness())
}

// ------------------------------------------------------------------------------------ the cluster

/// The bundle the cluster holds (one at a time: `seed --reset` removes the last one first), and
/// whether a test changed it since.
#[derive(Default)]
struct Seeded {
    bundle: Option<PathBuf>,
    dirty: bool,
}

fn cluster() -> MutexGuard<'static, Seeded> {
    static LOCK: OnceLock<Mutex<Seeded>> = OnceLock::new();
    LOCK.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn bundle_namespaces(h: &Harness, bundle: &Path) -> Result<Vec<String>, String> {
    let out = Command::new(&h.script)
        .args(["seed", "--list-namespaces"])
        .arg(bundle)
        .output()
        .map_err(|e| format!("run {}: {e}", h.script.display()))?;
    let (stdout, stderr) = text(&out);
    if !out.status.success() {
        return Err(format!(
            "seed --list-namespaces {}: {stderr}",
            bundle.display()
        ));
    }
    Ok(stdout
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect())
}

/// Makes the cluster hold `bundle` (and nothing else seeded) unless it already does, unchanged
/// (or changed, with `allow_dirty`); returns the bundle's namespaces.
fn ensure_seeded(
    h: &Harness,
    state: &mut Seeded,
    bundle: &Path,
    allow_dirty: bool,
) -> Result<Vec<String>, String> {
    let namespaces = bundle_namespaces(h, bundle)?;
    if state.bundle.as_deref() == Some(bundle) && (allow_dirty || !state.dirty) {
        return Ok(namespaces);
    }
    let start = Instant::now();
    // Until this seed succeeds, the cluster holds something half-made.
    state.bundle = None;
    let out = Command::new(&h.script)
        .args(["seed", "--reset"])
        .arg(bundle)
        // A record of its own: the reset removes only what this test binary seeded, never what
        // other test binaries seeded into the same cluster.
        .env("KUBE_HARNESS_SEED_RECORD", &h.seed_record)
        .output()
        .map_err(|e| format!("run {}: {e}", h.script.display()))?;
    let (stdout, stderr) = text(&out);
    if !out.status.success() {
        return Err(format!(
            "seeding {} failed:\n{stderr}{stdout}",
            bundle.display()
        ));
    }
    eprintln!(
        "e2e: {} ({:.1}s)",
        stdout.trim(),
        start.elapsed().as_secs_f64()
    );
    state.bundle = Some(bundle.to_path_buf());
    state.dirty = false;
    Ok(namespaces)
}

// ------------------------------------------------------------------------------------- the plugin

fn doctor_live(kubeconfig: &Path, ns: &str) -> Run {
    plugin(Some(kubeconfig), &["doctor", "-n", ns, "-o", "json"])
}

fn doctor_offline(bundle: &Path, ns: &str) -> Run {
    let b = bundle.to_string_lossy();
    plugin(None, &["doctor", "--from", &b, "-n", ns, "-o", "json"])
}

/// What live and offline must agree on: rule, category and object, in order.
fn key(f: &Value) -> String {
    format!(
        "{} {} {}/{}/{}",
        s(f, "/rule"),
        s(f, "/category"),
        s(f, "/object/kind"),
        f.pointer("/object/namespace")
            .and_then(Value::as_str)
            .unwrap_or("-"),
        s(f, "/object/name")
    )
}

fn kubectl(h: &Harness, args: &[&str], stdin: Option<&str>) -> Run {
    let mut cmd = Command::new(&h.kubectl);
    cmd.args(args).env("KUBECONFIG", &h.admin);
    Run::of(&mut cmd, stdin)
}

fn shell(h: &Harness, script: &str) -> Run {
    common::run::shell(&h.kubectl, &h.admin, script)
}

fn can_i(h: &Harness, verb: &str, resource: &str, ns: &str, user: &str) -> bool {
    let as_user = format!("--as={user}");
    let r = kubectl(
        h,
        &["auth", "can-i", verb, resource, "-n", ns, &as_user],
        None,
    );
    r.stdout.trim() == "yes"
}

/// The YAML document stream in a finding's `fix`: from the first line that starts with
/// `apiVersion:` to the end of that YAML block (a closing ``` fence, a heredoc's `EOF`, a line
/// indented less than the block, or the end).
fn fix_yaml(fix: &str) -> Option<String> {
    let lines: Vec<&str> = fix.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("apiVersion:"))?;
    let indent = lines[start].len() - lines[start].trim_start().len();
    let mut out = String::new();
    for l in &lines[start..] {
        let t = l.trim();
        if t.starts_with("```") || t == "EOF" || t == "YAML" {
            break;
        }
        let this_indent = l.len() - l.trim_start().len();
        if !t.is_empty() && this_indent < indent {
            break;
        }
        out.push_str(l.get(indent..).unwrap_or(l.trim_start()));
        out.push('\n');
    }
    Some(out)
}

/// Every bundle: the canonical example, then each scenario folder with its bundle.
/// Every bundle of the repository; `E2E_ONLY=real-webhook,quota` keeps those whose folder name
/// holds one of the words (to replay a new recording without the whole set; an assertion over
/// all bundles, such as "some fix removed a root cause", may then not hold).
fn repo_bundles(repo: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out = vec![(
        repo.join("examples/canonical"),
        repo.join("examples/canonical"),
    )];
    out.extend(
        common::scenarios::all()
            .into_iter()
            .map(|(name, b)| (common::scenarios::root().join(name), b)),
    );
    if let Ok(only) = std::env::var("E2E_ONLY") {
        let words: Vec<&str> = only.split(',').filter(|w| !w.is_empty()).collect();
        out.retain(|(folder, _)| {
            let name = folder.file_name().unwrap_or_default().to_string_lossy();
            words.iter().any(|w| name.contains(w))
        });
    }
    out
}

fn short(repo: &Path, p: &Path) -> String {
    p.strip_prefix(repo).unwrap_or(p).display().to_string()
}

/// Whether a finding is about one of `namespaces` (by its deployment, or else its object), or
/// about nothing namespaced.
fn in_namespaces(f: &Value, namespaces: &[String]) -> bool {
    let ns = f
        .pointer("/deployment/namespace")
        .or_else(|| f.pointer("/object/namespace"))
        .and_then(Value::as_str);
    ns.is_none_or(|ns| namespaces.iter().any(|o| o == ns))
}

/// Live and offline agree on the findings (rule, category, object), their order and the exit code.
/// With `only`, the live findings are first narrowed to those namespaces (and cluster-scoped ones),
/// and exit codes are not compared: other test binaries leave objects in namespaces of their own.
fn agree(what: &str, live: &Run, offline: &Run, only: Option<&[String]>) -> Result<(), String> {
    let (lj, oj) = match (live.try_json(), offline.try_json()) {
        (Ok(l), Ok(o)) => (l, o),
        (l, o) => {
            return Err(format!(
                "{what}: live: {}; offline: {}",
                l.err().unwrap_or_else(|| "ok".into()),
                o.err().unwrap_or_else(|| "ok".into())
            ))
        }
    };
    let in_scope = |f: &&Value| only.is_none_or(|only| in_namespaces(f, only));
    let lk: Vec<String> = findings(&lj).iter().filter(in_scope).map(key).collect();
    let ok: Vec<String> = findings(&oj).iter().map(key).collect();
    let codes_agree = only.is_some() || live.code == offline.code;
    eprintln!(
        "e2e: {what}: live {} finding(s) exit {}, offline {} exit {}",
        lk.len(),
        live.code,
        ok.len(),
        offline.code
    );
    if lk == ok && codes_agree {
        return Ok(());
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.join("\n    ")
        }
    };
    Err(format!(
        "{what}: live and offline disagree\n  live (exit {}):\n    {}\n  offline (exit {}):\n    {}{}",
        live.code,
        list(&lk),
        offline.code,
        list(&ok),
        if live.stderr.trim().is_empty() {
            String::new()
        } else {
            format!("\n  live stderr: {}", live.stderr.trim())
        }
    ))
}

// ------------------------------------------------------------------------------------------ tests

/// Every scenario bundle, seeded live: the live diagnosis agrees with the offline one on the
/// findings (rule, category, object), their order, and the exit code.
#[test]
fn live_diagnosis_agrees_with_offline_for_every_bundle() {
    let Some(h) = harness_or_skip("live_diagnosis_agrees_with_offline_for_every_bundle") else {
        return;
    };
    let mut state = cluster();
    let mut failures = Vec::new();
    let mut compared = 0;
    for (folder, bundle) in repo_bundles(&h.repo) {
        let name = short(&h.repo, &folder);
        if let Ok(reason) = std::fs::read_to_string(folder.join("e2e.skip")) {
            eprintln!(
                "e2e: {name}: not compared live ({})",
                reason.lines().next().unwrap_or("no reason given")
            );
            continue;
        }
        let namespaces = match ensure_seeded(h, &mut state, &bundle, false) {
            Ok(n) => n,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if namespaces.is_empty() {
            failures.push(format!(
                "{name}: the bundle uses no namespace; nothing to diagnose live"
            ));
        }
        // Per namespace, as a user runs it; and the whole bundle against all namespaces (the
        // cluster holds no other seeded bundle; what other test binaries made is filtered out).
        for ns in &namespaces {
            let live = doctor_live(&h.e2e, ns);
            let offline = doctor_offline(&bundle, ns);
            compared += 1;
            if let Err(e) = agree(&format!("{name} -n {ns}"), &live, &offline, None) {
                failures.push(e);
            }
        }
        let b = bundle.to_string_lossy();
        let live = plugin(Some(&h.e2e), &["doctor", "-A", "-o", "json"]);
        let offline = plugin(None, &["doctor", "--from", &b, "-o", "json"]);
        compared += 1;
        if let Err(e) = agree(&format!("{name} -A"), &live, &offline, Some(&namespaces)) {
            failures.push(e);
        }
        // And what the live diagnosis finds is what the bundle's expect.txt says it must.
        if folder.join("expect.txt").is_file() {
            match (Expect::read(&folder), live.try_json()) {
                (Ok(expect), Ok(report)) => {
                    let mine: Vec<Value> = findings(&report)
                        .into_iter()
                        .filter(|f| in_namespaces(f, &namespaces))
                        .collect();
                    let got = exact(&serde_json::json!({ "findings": mine }));
                    let diff = compare(expect.live().0, 0, &got, 0);
                    if !diff.is_empty() {
                        failures.push(format!(
                            "{name} -A: the live diagnosis differs from expect.txt:\n  {}",
                            diff.join("\n  ")
                        ));
                    }
                }
                (e, r) => failures.push(format!(
                    "{name}: {}",
                    e.err().or(r.err()).unwrap_or_default()
                )),
            }
        }
    }
    assert!(
        compared > 0 || !failures.is_empty(),
        "no bundle was compared"
    );
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// `doctor --fix` on every bundle, live. First checked: the combined YAML stream is accepted by
/// the API server (`kubectl apply --dry-run=server`) and every `kubectl patch` of `--fix=run`
/// applies cleanly to the object it names (`--dry-run=server`). Then applied for real, as a user
/// would (`doctor --fix | kubectl apply -f -`, then the patches): doctor then reports no new
/// problem, every root cause the fix could act on without an operator or kubelet is gone
/// (counted, and at least the RBAC ones), and applying the objects a second time changes nothing.
#[test]
fn every_bundle_s_fix_is_accepted_applied_and_removes_causes_without_adding_any() {
    let Some(h) = harness_or_skip(
        "every_bundle_s_fix_is_accepted_applied_and_removes_causes_without_adding_any",
    ) else {
        return;
    };
    let mut state = cluster();
    let mut failures = Vec::new();
    let (mut roots_before, mut roots_gone, mut bundles) = (0, 0, 0);
    let (mut documents, mut dry_patches) = (0, 0);
    let mut rules_covered: BTreeSet<String> = BTreeSet::new();
    for (folder, bundle) in repo_bundles(&h.repo) {
        let name = short(&h.repo, &folder);
        if folder.join("e2e.skip").exists() {
            continue;
        }
        let namespaces = match ensure_seeded(h, &mut state, &bundle, false) {
            Ok(n) => n,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for ns in &namespaces {
            let yaml = plugin(Some(&h.e2e), &["doctor", "-n", ns, "--fix"]).stdout;
            let run = plugin(Some(&h.e2e), &["doctor", "-n", ns, "--fix=run"]).stdout;
            let patches: Vec<&str> = run
                .lines()
                .filter(|l| l.starts_with("kubectl patch "))
                .collect();
            if !yaml.contains("apiVersion:") && patches.is_empty() {
                continue;
            }
            bundles += 1;
            if yaml.contains("apiVersion:") {
                documents += yaml.matches("\napiVersion: ").count()
                    + usize::from(yaml.starts_with("apiVersion: "));
                let dry = kubectl(h, &["apply", "--dry-run=server", "-f", "-"], Some(&yaml));
                if dry.code != 0 {
                    failures.push(format!(
                        "{name} -n {ns}: doctor --fix is refused by the API server: {}\n{yaml}",
                        dry.stderr.trim()
                    ));
                }
            }
            for p in &patches {
                dry_patches += 1;
                let r = shell(h, &format!("{p} --dry-run=server"));
                if r.code != 0 {
                    failures.push(format!(
                        "{name} -n {ns}: `{p}` does not apply: {}",
                        r.stderr.trim()
                    ));
                }
            }
            let before = findings(&doctor_live(&h.e2e, ns).try_json().expect("doctor -o json"));
            let keys_before: BTreeSet<String> = before.iter().map(key).collect();
            let roots: Vec<String> = before
                .iter()
                .filter(|f| f["causedBy"].is_null() && s(f, "/severity") != "info")
                .map(key)
                .collect();
            state.dirty = true;
            if yaml.contains("apiVersion:") {
                let r = kubectl(h, &["apply", "-f", "-"], Some(&yaml));
                if r.code != 0 {
                    failures.push(format!("{name} -n {ns}: apply failed: {}", r.stderr.trim()));
                    continue;
                }
            }
            for p in &patches {
                let r = shell(h, p);
                if r.code != 0 {
                    failures.push(format!("{name} -n {ns}: `{p}` failed: {}", r.stderr.trim()));
                }
            }
            // The authorizer reads RBAC from informers: give it a moment to see the new objects.
            let deadline = Instant::now() + Duration::from_secs(15);
            let after = loop {
                let after = findings(&doctor_live(&h.e2e, ns).try_json().expect("doctor -o json"));
                let rbac_left = after
                    .iter()
                    .any(|f| s(f, "/category") == "rbac_forbidden" && s(f, "/severity") != "info");
                if !rbac_left || Instant::now() > deadline {
                    break after;
                }
                std::thread::sleep(Duration::from_millis(300));
            };
            for f in &after {
                if s(f, "/severity") != "info" && !keys_before.contains(&key(f)) {
                    failures.push(format!(
                        "{name} -n {ns}: a new finding after the fix: {}",
                        key(f)
                    ));
                }
                if s(f, "/category") == "rbac_forbidden" && s(f, "/severity") != "info" {
                    failures.push(format!(
                        "{name} -n {ns}: the RBAC fix did not take: {}",
                        key(f)
                    ));
                }
            }
            let keys_after: BTreeSet<String> = after.iter().map(key).collect();
            roots_before += roots.len();
            roots_gone += roots.iter().filter(|k| !keys_after.contains(*k)).count();
            // A root cause gone, or left only as the info finding that waits for a controller.
            for k in &roots {
                let live = after
                    .iter()
                    .any(|f| key(f) == *k && s(f, "/severity") != "info");
                if !live {
                    rules_covered.insert(k.split(' ').next().unwrap_or("").to_string());
                }
            }
            if yaml.contains("apiVersion:") {
                let again = kubectl(h, &["apply", "-f", "-"], Some(&yaml));
                if again.code != 0 || !again.stdout.lines().all(|l| l.ends_with(" unchanged")) {
                    failures.push(format!(
                        "{name} -n {ns}: applying the fix again changed something:\n{}{}",
                        again.stdout, again.stderr
                    ));
                }
            }
        }
    }
    eprintln!(
        "e2e: doctor --fix: {documents} documents and {dry_patches} patches accepted by the API server; applied for real in {bundles} namespaces: {roots_gone} of {roots_before} root causes gone (the others need an operator or kubelet to act)"
    );
    eprintln!(
        "e2e: {} rules with a root cause gone or waiting for a controller after the fix, live: {}",
        rules_covered.len(),
        rules_covered.iter().cloned().collect::<Vec<_>>().join(" ")
    );
    assert!(bundles > 0, "no bundle had a fix");
    assert!(roots_gone > 0, "no fix removed anything");
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The canonical broken deployment, live: both root causes; the RBAC one confirmed by the real
/// authorizer; the tool's own fix applied makes it go away.
#[test]
fn canonical_root_causes_live_and_the_suggested_rbac_fix_works() {
    let Some(h) = harness_or_skip("canonical_root_causes_live_and_the_suggested_rbac_fix_works")
    else {
        return;
    };
    let mut state = cluster();
    let canonical = h.repo.join("examples/canonical");
    ensure_seeded(h, &mut state, &canonical, false).expect("seed examples/canonical");
    let ns = "analytics";
    let sa = "system:serviceaccount:analytics:default";
    let mut failures: Vec<String> = Vec::new();

    let run = doctor_live(&h.e2e, ns);
    let report = run.try_json().expect("doctor -o json");
    if run.code != 1 {
        failures.push(format!(
            "doctor exited {} (want 1: findings); stderr: {}",
            run.code,
            run.stderr.trim()
        ));
    }
    let all = findings(&report);
    let by_category = |c: &str| all.iter().find(|f| s(f, "/category") == c).cloned();
    let listing: Vec<String> = all.iter().map(key).collect();
    if by_category("main_container_misnamed").is_none() {
        failures.push(format!(
            "no main_container_misnamed finding live; found: {listing:?}"
        ));
    }
    let rbac = by_category("rbac_forbidden");
    match &rbac {
        None => failures.push(format!(
            "no rbac_forbidden finding live; found: {listing:?}"
        )),
        Some(f) => {
            let evidence = f
                .get("evidence")
                .map(Value::to_string)
                .unwrap_or_default()
                .to_lowercase();
            if !evidence.contains("subjectaccessreview") {
                failures.push(format!(
                    "the rbac_forbidden finding's evidence does not mention the access review: {evidence}"
                ));
            }
        }
    }
    // The real authorizer agrees: the JobManager's ServiceAccount may not watch pods.
    assert!(
        !can_i(h, "watch", "pods", ns, sa),
        "kubectl auth can-i watch pods -n analytics --as={sa} said yes before any fix"
    );

    // The tool's own fix: a shell snippet (`kubectl apply -f - <<'EOF'` with a ServiceAccount,
    // Role and RoleBinding, then a `kubectl patch` of the FlinkDeployment), run as printed with
    // the version-matched kubectl and the admin's kubeconfig.
    if let Some(f) = rbac {
        let fix = s(&f, "/fix").to_string();
        let verify = s(&f, "/verify").to_string();
        match fix_yaml(&fix) {
            None => failures.push(format!(
                "the rbac_forbidden fix has no YAML to apply:\n{fix}"
            )),
            Some(yaml) => {
                // Sanity: the YAML alone is valid for the API server.
                let dry = kubectl(h, &["apply", "--dry-run=server", "-f", "-"], Some(&yaml));
                if dry.code != 0 {
                    failures.push(format!(
                        "the fix's YAML is refused by the API server: {}\n{yaml}",
                        dry.stderr.trim()
                    ));
                }
            }
        }
        // can-i, asked about the same deployment, prints the same objects (one planner).
        if let Some(yaml) = fix_yaml(&fix) {
            let can_i_fix = plugin(Some(&h.e2e), &["can-i", "orders", "-n", ns, "--fix"]);
            let parse = |y: &str| -> Vec<Value> {
                let mut docs: Vec<Value> = serde_yaml::Deserializer::from_str(y)
                    .filter_map(|d| serde::Deserialize::deserialize(d).ok())
                    .filter(|d: &Value| !d.is_null())
                    .collect();
                docs.sort_by_key(|d| format!("{}/{}", d["kind"], d["metadata"]["name"]));
                docs
            };
            if parse(&can_i_fix.stdout) != parse(&yaml) {
                failures.push(format!(
                    "can-i --fix and doctor differ:\n--- can-i (exit {})\n{}\n--- doctor\n{yaml}",
                    can_i_fix.code, can_i_fix.stdout
                ));
            }
        }
        state.dirty = true;
        let applied = shell(h, &fix);
        // Who the fix says should now be allowed: the `--as=` of the verify command(s).
        let subjects: BTreeSet<String> = verify
            .split_whitespace()
            .filter_map(|w| w.strip_prefix("--as="))
            .map(str::to_string)
            .collect();
        if applied.code != 0 {
            failures.push(format!(
                "running the suggested fix failed (exit {}): {}\n{fix}",
                applied.code,
                applied.stderr.trim()
            ));
        } else if subjects.is_empty() {
            failures.push(format!(
                "the fix's verify command names no --as= subject: {verify}"
            ));
        } else {
            // The authorizer reads RBAC from informers: poll until the decision flips.
            let deadline = Instant::now() + Duration::from_secs(15);
            let allowed = |who: &String| can_i(h, "watch", "pods", ns, who);
            while !subjects.iter().all(allowed) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(200));
            }
            if !subjects.iter().all(allowed) {
                failures.push(format!(
                    "after the suggested fix, {subjects:?} still may not watch pods in {ns}:\n{fix}"
                ));
            } else {
                let again = doctor_live(&h.e2e, ns);
                let after = findings(&again.try_json().expect("doctor -o json after the fix"));
                // No new finding: what is left was there before (minus what the fix removed).
                for f in &after {
                    if !listing.contains(&key(f)) {
                        failures.push(format!("a new finding after the fix: {}", key(f)));
                    }
                }
                // Safe to apply twice: the second time changes nothing.
                if let Some(yaml) = fix_yaml(&fix) {
                    let twice = kubectl(h, &["apply", "-f", "-"], Some(&yaml));
                    if twice.code != 0 || !twice.stdout.lines().all(|l| l.ends_with(" unchanged")) {
                        failures.push(format!(
                            "applying the fix a second time changed something (exit {}):\n{}{}",
                            twice.code, twice.stdout, twice.stderr
                        ));
                    }
                }
                // The refusal is in the log of a JobManager that has not run since (no operator
                // redeploys it here): no longer a cause, only an info finding asking for the restart.
                let rbac_after: Vec<&Value> = after
                    .iter()
                    .filter(|f| s(f, "/category") == "rbac_forbidden")
                    .collect();
                if let Some(f) = rbac_after.iter().find(|f| s(f, "/severity") != "info") {
                    failures.push(format!("rbac_forbidden still reported after the fix: {f}"));
                }
                if !rbac_after
                    .iter()
                    .any(|f| s(f, "/title").contains("allowed now: restart"))
                {
                    failures.push(format!(
                        "no 'allowed now: restart' info finding for the stale refusal: {rbac_after:?}"
                    ));
                }
                let had_misnamed = listing
                    .iter()
                    .any(|k| k.contains("main_container_misnamed"));
                if had_misnamed
                    && !after
                        .iter()
                        .any(|f| s(f, "/category") == "main_container_misnamed")
                {
                    failures
                        .push("main_container_misnamed disappeared after an RBAC-only fix".into());
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A user who may only get and list pods: doctor completes and exits 1 (findings); what it may
/// not read is ONE finding, ranked after the critical problem it found, with a grant that, applied
/// (twice) by an admin, lets the same user see what the admin sees; and the FlinkDeployment, which
/// it may not read, is of unknown kind and mode in the overview, not guessed.
#[test]
fn limited_user_gets_a_diagnosis_of_what_it_could_not_inspect() {
    let Some(h) = harness_or_skip("limited_user_gets_a_diagnosis_of_what_it_could_not_inspect")
    else {
        return;
    };
    let mut state = cluster();
    let canonical = h.repo.join("examples/canonical");
    ensure_seeded(h, &mut state, &canonical, true).expect("seed examples/canonical");
    let run = doctor_live(&h.limited, "analytics");
    assert_eq!(
        run.code, 1,
        "doctor as the limited user: want exit 1 (findings)\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    let report = run.try_json().expect("doctor -o json as the limited user");
    let all = findings(&report);
    let keys: Vec<String> = all.iter().map(key).collect();
    let forbidden: Vec<usize> = (0..all.len())
        .filter(|&i| s(&all[i], "/category") == "inspect_forbidden")
        .collect();
    assert_eq!(
        forbidden.len(),
        1,
        "what the user may not read is one finding; found: {keys:#?}"
    );
    let gap = &all[forbidden[0]];
    let evidence: Vec<&str> = gap["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for resource in [
        "deployments.apps",
        "events",
        "flinkdeployments.flink.apache.org",
        "pods/log",
    ] {
        assert!(
            evidence
                .iter()
                .any(|e| e.starts_with(&format!("{resource}: "))),
            "the finding names {resource} by resource: {evidence:#?}"
        );
    }
    assert_eq!(s(gap, "/verify"), "kubectl auth can-i --list -n analytics");
    assert_eq!(s(gap, "/object/name"), "kubectl-flink-limited");
    // Ranked after every root cause the diagnosis found, the critical one first.
    let critical = all
        .iter()
        .position(|f| s(f, "/severity") == "critical")
        .unwrap_or_else(|| panic!("the limited user still sees the critical exit: {keys:#?}"));
    assert!(critical < forbidden[0], "{keys:#?}");
    assert!(
        all[forbidden[0] + 1..]
            .iter()
            .all(|f| !f["causedBy"].is_null()),
        "the access finding is the last root cause: {keys:#?}"
    );
    // The overview does not guess what it could not read.
    let clusters = report["clusters"].as_array().expect("clusters in -o json");
    assert_eq!(clusters.len(), 1, "{clusters:#?}");
    assert_eq!(
        (s(&clusters[0], "/kind"), s(&clusters[0], "/mode")),
        ("unknown", "unknown"),
        "a FlinkDeployment the user may not read is not shown as a plain native cluster"
    );
    let table = plugin(Some(&h.limited), &["doctor", "-n", "analytics"]);
    let row = table
        .stdout
        .lines()
        .find(|l| l.contains("orders") && l.contains("0/1"))
        .unwrap_or_else(|| panic!("no overview row for orders:\n{}", table.stdout));
    assert!(
        row.contains("unknown  unknown") && !row.contains("native"),
        "{}",
        table.stdout
    );

    // The grant, applied twice by an admin, is exactly enough: the user then sees what the
    // admin sees, and nothing is left unread.
    let grant = fix_yaml(s(gap, "/fix")).expect("a YAML grant in the fix");
    struct Revoke<'a>(&'a Harness, String);
    impl Drop for Revoke<'_> {
        fn drop(&mut self) {
            let _ = kubectl(
                self.0,
                &["delete", "--ignore-not-found", "-f", "-"],
                Some(&self.1),
            );
        }
    }
    let _revoke = Revoke(h, grant.clone());
    for round in 0..2 {
        let applied = kubectl(h, &["apply", "-f", "-"], Some(&grant));
        assert_eq!(applied.code, 0, "apply #{round}: {}", applied.stderr);
        if round == 1 {
            assert!(
                applied.stdout.lines().all(|l| l.ends_with(" unchanged")),
                "applying the grant twice changes nothing: {}",
                applied.stdout
            );
        }
    }
    let admin = doctor_live(&h.e2e, "analytics")
        .try_json()
        .expect("admin -o json");
    let granted = doctor_live(&h.limited, "analytics");
    let granted = findings(
        &granted
            .try_json()
            .expect("limited user -o json after the grant"),
    );
    assert_eq!(
        granted.iter().map(key).collect::<Vec<_>>(),
        findings(&admin).iter().map(key).collect::<Vec<_>>(),
        "after the grant the limited user sees what the admin sees"
    );
}

/// `doctor NAME` where NAME is not: one line that says where it looked (namespace and context, or
/// all namespaces) and, from one list across namespaces, where NAME exists, with exit 4; when
/// that list is forbidden, only where it looked.
#[test]
fn a_name_not_found_live_says_where_it_looked_and_where_it_exists() {
    let Some(h) = harness_or_skip("a_name_not_found_live_says_where_it_looked_and_where_it_exists")
    else {
        return;
    };
    let mut state = cluster();
    let canonical = h.repo.join("examples/canonical");
    ensure_seeded(h, &mut state, &canonical, true).expect("seed examples/canonical");
    let one_line = |r: &Run| {
        assert_eq!(
            r.code, 4,
            "exit 4\nstdout:\n{}\nstderr:\n{}",
            r.stdout, r.stderr
        );
        assert_eq!(r.stdout, "", "nothing on stdout");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {}", r.stderr);
        assert!(lines[0].starts_with("error: "), "{}", lines[0]);
        lines[0].to_string()
    };
    let line = one_line(&plugin(
        Some(&h.e2e),
        &["doctor", "orders", "-n", "default"],
    ));
    assert!(
        line.contains("named orders in namespace default (context ")
            && line.ends_with(
                "; it exists in namespace analytics (kubectl flink doctor orders -n analytics)"
            ),
        "{line}"
    );
    let line = one_line(&plugin(Some(&h.e2e), &["doctor", "nosuch", "-A"]));
    assert!(
        line.contains("named nosuch in all namespaces (context ") && !line.contains("exists in"),
        "{line}"
    );

    // A user who may read what names a Flink deployment in `default` only: the list across
    // namespaces is refused, so it says where it looked and nothing more.
    let user = "kubectl-flink-default-reader";
    let grant = format!(
        "apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: {user}, namespace: default}}
rules:
  - apiGroups: [\"\", \"apps\", \"flink.apache.org\"]
    resources: [pods, deployments, flinkdeployments, flinksessionjobs]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: {user}, namespace: default}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: {user}}}
subjects: [{{kind: User, apiGroup: rbac.authorization.k8s.io, name: {user}}}]
"
    );
    let applied = kubectl(h, &["apply", "-f", "-"], Some(&grant));
    assert_eq!(applied.code, 0, "{}", applied.stderr);
    let as_user = format!("--as={user}");
    let r = plugin(
        Some(&h.e2e),
        &["doctor", "orders", "-n", "default", &as_user],
    );
    let _ = kubectl(
        h,
        &["delete", "--ignore-not-found", "-f", "-"],
        Some(&grant),
    );
    let line = one_line(&r);
    assert!(
        line.contains("named orders in namespace default (context ") && !line.contains("exists in"),
        "{line}"
    );
}

/// The plugin only reads: in the API server's audit log, its users made no request but get, list,
/// watch and access reviews.
#[test]
fn plugin_requests_are_read_only_in_the_audit_log() {
    let Some(h) = harness_or_skip("plugin_requests_are_read_only_in_the_audit_log") else {
        return;
    };
    let mut state = cluster();
    let canonical = h.repo.join("examples/canonical");
    ensure_seeded(h, &mut state, &canonical, true).expect("seed examples/canonical");
    // Exercise every path: one namespace, all namespaces, the limited user.
    let before = count_user_entries(h);
    for run in [
        doctor_live(&h.e2e, "analytics"),
        plugin(Some(&h.e2e), &["doctor", "-A", "-o", "json"]),
        doctor_live(&h.limited, "analytics"),
    ] {
        assert!(
            run.code == 0 || run.code == 1,
            "doctor failed (exit {}): {}",
            run.code,
            run.stderr
        );
    }
    // The audit backend writes as requests complete; wait until the count settles.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last = usize::MAX;
    loop {
        let n = count_user_entries(h);
        if (n > before && n == last) || Instant::now() > deadline {
            break;
        }
        last = n;
        std::thread::sleep(Duration::from_millis(300));
    }

    // Reviews: the API server answers them and stores nothing.
    let allowed_creates: BTreeSet<(&str, &str)> = [
        ("authorization.k8s.io", "subjectaccessreviews"),
        ("authorization.k8s.io", "selfsubjectaccessreviews"),
        ("authorization.k8s.io", "selfsubjectrulesreviews"),
        // "who am I" for an impersonated subject (the access engine checks who it asks about)
        ("authentication.k8s.io", "selfsubjectreviews"),
    ]
    .into_iter()
    .collect();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut offenders = Vec::new();
    for e in audit_entries(h) {
        let user = s(&e, "/user/username");
        if user != E2E_USER && user != LIMITED_USER {
            continue;
        }
        let verb = s(&e, "/verb");
        let resource = s(&e, "/objectRef/resource");
        let sub = s(&e, "/objectRef/subresource");
        *seen
            .entry(format!(
                "{user} {verb} {resource}{}{sub}",
                if sub.is_empty() { "" } else { "/" }
            ))
            .or_default() += 1;
        let read = matches!(verb, "get" | "list" | "watch");
        let review =
            verb == "create" && allowed_creates.contains(&(s(&e, "/objectRef/apiGroup"), resource));
        if !read && !review {
            offenders.push(format!(
                "{user} {verb} {} ({})",
                s(&e, "/requestURI"),
                s(&e, "/userAgent")
            ));
        }
    }
    eprintln!("e2e: the plugin's requests by user, verb and resource: {seen:#?}");
    assert!(
        seen.keys().any(|k| k.starts_with(E2E_USER)),
        "no request by {E2E_USER} in the audit log {}",
        h.audit_log.display()
    );
    assert!(
        seen.keys().any(|k| k.starts_with(LIMITED_USER)),
        "no request by {LIMITED_USER} in the audit log"
    );
    assert!(
        offenders.is_empty(),
        "the plugin made non-read requests:\n{}",
        offenders.join("\n")
    );
}

fn audit_entries(h: &Harness) -> Vec<Value> {
    let text = std::fs::read_to_string(&h.audit_log).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| s(e, "/stage") == "ResponseComplete")
        .collect()
}

fn count_user_entries(h: &Harness) -> usize {
    audit_entries(h)
        .iter()
        .filter(|e| matches!(s(e, "/user/username"), E2E_USER | LIMITED_USER))
        .count()
}

/// Doctor reads the logs its rules need and no other: in the API server's audit log, its
/// `pods/log` reads of a namespace whose pods are in every state are exactly the previous log of
/// the crash-looping JobManager (the kubelet serves a waiting container's last instance for its
/// current log too, so that read would be the same bytes again), and the current and previous
/// logs of the TaskManager that restarted. None of the healthy TaskManager, none of the one that
/// never started (the kubelet has no log of it), though the fake kubelet would serve them all.
#[test]
fn doctor_reads_only_the_logs_its_rules_need() {
    let Some(h) = harness_or_skip("doctor_reads_only_the_logs_its_rules_need") else {
        return;
    };
    let ns = "e2e-log-reads";
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    let running = "{running: {startedAt: \"2026-11-28T09:00:00Z\"}}";
    let ended = "{terminated: {exitCode: 1, reason: Error, containerID: \"containerd://e1\", startedAt: \"2026-11-28T08:59:00Z\", finishedAt: \"2026-11-28T08:59:30Z\"}}";
    // (pod, component, phase, ready, restarts, state, lastState)
    let pods = [
        (
            "reads-5d8f9c7b6d-jm0",
            "jobmanager",
            "Running",
            false,
            4,
            "{waiting: {reason: CrashLoopBackOff}}",
            ended,
        ),
        (
            "reads-taskmanager-1-1",
            "taskmanager",
            "Running",
            true,
            0,
            running,
            "{}",
        ),
        (
            "reads-taskmanager-1-2",
            "taskmanager",
            "Running",
            true,
            1,
            running,
            ended,
        ),
        (
            "reads-taskmanager-1-3",
            "taskmanager",
            "Pending",
            false,
            0,
            "{waiting: {reason: ImagePullBackOff}}",
            "{}",
        ),
    ];
    let mut yaml = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n---\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: reads, namespace: {ns}}}\nspec:\n  image: flink:1.20\n  flinkVersion: v1_20\n  serviceAccount: flink\n  jobManager: {{resource: {{memory: 2048m, cpu: 1}}}}\n  taskManager: {{resource: {{memory: 2048m, cpu: 1}}}}\n  job: {{jarURI: \"local:///opt/flink/usrlib/job.jar\", parallelism: 2, upgradeMode: stateless}}\nstatus: {{jobManagerDeploymentStatus: ERROR, lifecycleState: DEPLOYED}}\n"
    );
    for (pod, component, phase, ready, restarts, state, last) in pods {
        yaml.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {pod}, namespace: {ns}, labels: {{app: reads, component: {component}, type: flink-native-kubernetes}}}}\nspec: {{serviceAccountName: flink, containers: [{{name: flink-main-container, image: \"flink:1.20\"}}]}}\nstatus: {{phase: {phase}, containerStatuses: [{{name: flink-main-container, image: \"flink:1.20\", imageID: \"\", ready: {ready}, restartCount: {restarts}, state: {state}, lastState: {last}}}]}}\n"
        ));
        // Every log there could be: what doctor leaves unread, it chose not to read.
        let logs = bundle.join("logs").join(ns).join(pod);
        std::fs::create_dir_all(&logs).unwrap();
        for file in [
            "flink-main-container.log",
            "flink-main-container.previous.log",
        ] {
            std::fs::write(logs.join(file), "2026-11-28 09:00:00,000 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - up\n").unwrap();
        }
    }
    yaml.push_str(&format!(
        "---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: flink, namespace: {ns}}}\n"
    ));
    std::fs::write(bundle.join("objects.yaml"), yaml).unwrap();

    let mut state = cluster();
    ensure_seeded(h, &mut state, &bundle, false).expect("seed the log-reads bundle");
    let audit_from = std::fs::metadata(&h.audit_log)
        .map(|m| m.len())
        .unwrap_or(0);
    let run = doctor_live(&h.e2e, ns);
    assert!(
        run.code == 0 || run.code == 1,
        "doctor failed (exit {}): {}",
        run.code,
        run.stderr
    );
    // Sorted, not deduplicated: the same log read twice is a read too many.
    let log_reads = || -> Vec<String> {
        let text = std::fs::read(&h.audit_log).unwrap_or_default();
        let from = (audit_from as usize).min(text.len());
        let mut reads = String::from_utf8_lossy(&text[from..])
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|e| {
                s(e, "/stage") == "ResponseComplete"
                    && s(e, "/user/username") == E2E_USER
                    && s(e, "/objectRef/namespace") == ns
                    && s(e, "/objectRef/subresource") == "log"
            })
            .map(|e| {
                let uri = s(&e, "/requestURI");
                let previous = uri.contains("previous=true");
                format!(
                    "{} {}",
                    s(&e, "/objectRef/name"),
                    if previous { "previous" } else { "current" }
                )
            })
            .collect::<Vec<_>>();
        reads.sort();
        reads
    };
    let want: Vec<String> = [
        "reads-5d8f9c7b6d-jm0 previous",
        "reads-taskmanager-1-2 current",
        "reads-taskmanager-1-2 previous",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    // The audit backend writes as requests complete; wait until the reads are there.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut got = log_reads();
    while got.len() < want.len() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(300));
        got = log_reads();
    }
    assert_eq!(got, want, "the pods/log reads doctor made in {ns}");
}

#[test]
fn fix_yaml_is_cut_out_of_its_block() {
    let fix = "Grant the ServiceAccount what Flink needs:\n\n```yaml\napiVersion: v1\nkind: ServiceAccount\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nrules:\n- verbs: [watch]\n```\nthen run it again";
    assert_eq!(
        fix_yaml(fix).unwrap(),
        "apiVersion: v1\nkind: ServiceAccount\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nrules:\n- verbs: [watch]\n"
    );
    let heredoc =
        "kubectl apply -f - <<EOF\n  apiVersion: v1\n  kind: X\n  metadata:\n    name: y\nEOF\n";
    assert_eq!(
        fix_yaml(heredoc).unwrap(),
        "apiVersion: v1\nkind: X\nmetadata:\n  name: y\n"
    );
    assert_eq!(fix_yaml("no yaml here"), None);
}

/// A FlinkSessionJob whose FlinkDeployment does not exist is diagnosed live, by namespace and by
/// its name (never "No Flink deployments found", never "No problems found"); `--save` keeps what
/// explains a scheduling fault (quotas, limits, the namespace's labels, nodes without their image
/// lists, priority classes) and `--from` reads it back with the same finding. Its healthy twin,
/// once the FlinkDeployment exists, is silent.
#[test]
fn an_orphan_session_job_is_diagnosed_live_and_save_keeps_the_scheduling_context() {
    let Some(h) = harness_or_skip(
        "an_orphan_session_job_is_diagnosed_live_and_save_keeps_the_scheduling_context",
    ) else {
        return;
    };
    let mut state = cluster();
    let canonical = h.repo.join("examples/canonical");
    ensure_seeded(h, &mut state, &canonical, true).expect("seed examples/canonical");
    state.dirty = true;
    let ns = "e2e-orphan-session-job";
    let objects = format!(
        "apiVersion: v1
kind: Namespace
metadata: {{name: {ns}, labels: {{team: streaming}}}}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkSessionJob
metadata: {{name: wordcount, namespace: {ns}}}
spec:
  deploymentName: session-cluster
  job: {{jarURI: \"https://example.org/wordcount.jar\", parallelism: 2, upgradeMode: stateless}}
---
apiVersion: flink.apache.org/v1beta1
kind: FlinkStateSnapshot
metadata: {{name: session-sp, namespace: {ns}}}
spec:
  jobReference: {{kind: FlinkDeployment, name: session-cluster}}
  savepoint: {{path: \"s3://bucket/savepoints\", alreadyExists: false, disposeOnDelete: false}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {{name: compute, namespace: {ns}}}
spec: {{hard: {{requests.cpu: \"4\"}}}}
---
apiVersion: v1
kind: LimitRange
metadata: {{name: limits, namespace: {ns}}}
spec: {{limits: [{{type: Container, max: {{memory: 4Gi}}}}]}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: e2e-flink-high}}
value: 1000
"
    );
    let applied = kubectl(h, &["apply", "-f", "-"], Some(&objects));
    assert_eq!(applied.code, 0, "{}", applied.stderr);
    let orphan_of = |r: &Run, name: &str| {
        assert_eq!(
            r.code, 1,
            "exit 1\nstdout:\n{}\nstderr:\n{}",
            r.stdout, r.stderr
        );
        let report: Value = serde_json::from_str(&r.stdout).expect("JSON");
        findings(&report)
            .into_iter()
            .find(|f| f["rule"] == "FLK402" && f["object"]["name"] == name)
            .unwrap_or_else(|| panic!("no FLK402 on {name} in {}", r.stdout))
    };
    let orphan = |r: &Run| orphan_of(r, "wordcount");
    // A FlinkStateSnapshot of no FlinkDeployment, listed live and by its own name.
    let f = orphan_of(
        &plugin(Some(&h.e2e), &["doctor", "-n", ns, "-o", "json"]),
        "session-sp",
    );
    assert_eq!(f["object"]["kind"], "FlinkStateSnapshot");
    let f = orphan_of(
        &plugin(
            Some(&h.e2e),
            &["doctor", "session-sp", "-n", ns, "-o", "json"],
        ),
        "session-sp",
    );
    assert!(
        f["title"]
            .as_str()
            .unwrap()
            .contains("FlinkDeployment session-cluster, which does not exist"),
        "{f}"
    );
    let f = orphan(&plugin(Some(&h.e2e), &["doctor", "-n", ns, "-o", "json"]));
    assert_eq!(f["category"], "session_cluster_missing");
    assert_eq!(f["object"]["name"], "wordcount");
    let f = orphan(&plugin(
        Some(&h.e2e),
        &["doctor", "wordcount", "-n", ns, "-o", "json"],
    ));
    assert!(
        f["title"]
            .as_str()
            .unwrap()
            .contains("no FlinkDeployment session-cluster exists in namespace"),
        "{f}"
    );

    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("bundle");
    let save = plugin(
        Some(&h.e2e),
        &[
            "doctor",
            "-n",
            ns,
            "--save",
            saved.to_str().unwrap(),
            "-o",
            "json",
        ],
    );
    assert_eq!(save.code, 1, "{}", save.stderr);
    let read = |file: &str| {
        std::fs::read_to_string(saved.join(format!("{file}.yaml")))
            .unwrap_or_else(|e| panic!("{file}.yaml: {e}"))
    };
    assert!(read("resourcequotas").contains("name: compute"));
    assert!(read("flinkstatesnapshots").contains("name: session-sp"));
    assert!(read("limitranges").contains("name: limits"));
    assert!(read("namespaces").contains("team: streaming"));
    assert!(read("priorityclasses").contains("name: e2e-flink-high"));
    let nodes = read("nodes");
    assert!(nodes.contains("kind: NodeList"), "{nodes}");
    assert!(!nodes.contains("images:"), "{nodes}");
    let from = plugin(
        None,
        &[
            "doctor",
            "--from",
            saved.to_str().unwrap(),
            "-n",
            ns,
            "-o",
            "json",
        ],
    );
    assert_eq!(orphan(&from)["object"]["name"], "wordcount");
    assert_eq!(
        orphan_of(&from, "session-sp")["object"]["kind"],
        "FlinkStateSnapshot"
    );

    // The healthy twin: the FlinkDeployment it names exists.
    let session = format!(
        "apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {{name: session-cluster, namespace: {ns}}}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  jobManager: {{resource: {{memory: 2048m, cpu: 1}}}}
  taskManager: {{resource: {{memory: 2048m, cpu: 1}}}}
"
    );
    let applied = kubectl(h, &["apply", "-f", "-"], Some(&session));
    assert_eq!(applied.code, 0, "{}", applied.stderr);
    let r = plugin(Some(&h.e2e), &["doctor", "-n", ns, "-o", "json"]);
    let _ = kubectl(
        h,
        &["delete", "--ignore-not-found", "--wait=false", "-f", "-"],
        Some(&format!("{objects}---\n{session}")),
    );
    let report: Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert!(
        !findings(&report).iter().any(|f| f["rule"] == "FLK402"),
        "{}",
        r.stdout
    );
}
