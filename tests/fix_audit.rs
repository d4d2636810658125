//! Fixes built from the evidence, not canned per category (issue #33, item 1). Doctor runs over
//! every scenario bundle (`tests/scenarios/*`, overlays applied), every cluster-info dump
//! (`tests/dumps/*`) and `examples/*`; for each root finding (nothing explains it) that is not
//! info, its fix must
//!
//! - name something the diagnosis read: a value, a field path, an object or key name that one of
//!   the finding's evidence lines or its title holds, or an object's name or a value of the
//!   bundle's objects, other than the finding's own object and namespace (those are in every
//!   command, canned or not), as a word of its own in the fix, and
//! - change something, or say exactly what a person fills in: a command or manifest that changes
//!   the cluster, or a `<placeholder>`, next to the field path it goes into.
//!
//! The only fix allowed to send the reader to a log is the one for a Flink process whose exit
//! left no log to read (category `flink_fatal_exit`, the previous instance's log not in the
//! snapshot): it must name that pod and container.

mod common;

use common::run::offline_json;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// What the tool writes into fixes of its own accord, never read from a snapshot.
const GENERIC: &[&str] = &[
    "flink-main-container",
    "app.kubernetes.io/managed-by",
    "kubectl-flink",
    "rbac.authorization.k8s.io/v1",
    "flink.apache.org/v1beta1",
];

/// Every bundle the audit reads, by a name for the failure message.
fn bundles() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = common::scenarios::all()
        .into_iter()
        .map(|(n, p)| (format!("tests/scenarios/{n}"), p))
        .collect();
    for dir in ["tests/dumps", "examples"] {
        let mut more: Vec<PathBuf> = std::fs::read_dir(common::repo().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        more.sort();
        out.extend(more.into_iter().map(|p| {
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            (name, p)
        }));
    }
    out
}

/// The words of a text that are specific: a value, a path, a key or a name with a digit, a dot, a
/// slash, a colon, an equals sign, a dash or an underscore in it (`512Mi`,
/// `taskmanager.memory.process.size`, `registry.example.com`, `compute-resources`,
/// `disktype=ssd`), at least three characters long.
fn specific_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';' | '<' | '>' | '|'
            )
    })
    .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ':' | ',' | '!' | '?' | '*' | '#')))
    .filter(|w| w.chars().count() >= 3)
    .filter(|w| {
        w.chars()
            .any(|c| c.is_ascii_digit() || matches!(c, '.' | '/' | ':' | '=' | '-' | '_'))
    })
    .filter(|w| !GENERIC.contains(w))
    .map(str::to_string)
    .collect()
}

/// Every word of the bundle's objects a fix may take from them: each object's name, and each
/// specific word (`specific_words`) of the string values it holds.
fn snapshot_words(dir: &std::path::Path) -> BTreeSet<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::String(s) => out.extend(specific_words(s)),
            Value::Number(n) => {
                out.insert(n.to_string());
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(o) => o.iter().for_each(|(k, x)| {
                out.extend(specific_words(k));
                walk(x, out)
            }),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for (rel, text) in common::scenarios::files(dir).unwrap_or_default() {
        if !rel.extension().is_some_and(|x| x == "yaml" || x == "json") {
            continue;
        }
        for d in common::scenarios::docs(&text).unwrap_or_default() {
            let items = match d["items"].as_array() {
                Some(items) => items.clone(),
                None => vec![d],
            };
            for o in items {
                out.extend(o["metadata"]["name"].as_str().map(str::to_string));
                walk(&o["spec"], &mut out);
                walk(&o["data"], &mut out);
                walk(&o["status"], &mut out);
                walk(&o["metadata"]["labels"], &mut out);
            }
        }
    }
    out.retain(|w| w.chars().count() >= 2);
    out
}

/// The words of a fix, as `specific_words` splits them, specific or not.
fn words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';' | '<' | '>' | '|'
            )
    })
    .flat_map(|w| {
        let t = w.trim_matches(|c: char| matches!(c, '.' | ':' | ',' | '!' | '?' | '*' | '#'));
        // `name: value` and `key=value` pieces count on their own too.
        std::iter::once(t).chain(t.split([':', '=', '/']))
    })
    .filter(|w| !w.is_empty())
    .collect()
}

/// Whether the fix changes the cluster or names what a person fills in. A restartNonce alone
/// changes nothing but the redeploy.
fn acts(fix: &str) -> bool {
    let fix: String = fix
        .lines()
        .filter(|l| !l.contains("restartNonce"))
        .collect::<Vec<_>>()
        .join("\n");
    let fix = fix.as_str();
    CHANGES.iter().any(|c| fix.contains(c))
        || (fix.contains('<') && fix.contains('>') && fix.contains("spec."))
}

/// The lines of a fix that change something: a changing command's, and those of the manifest a
/// `kubectl apply` heredoc or a `spec:` block carries.
fn changing_lines(fix: &str) -> impl Iterator<Item = &str> {
    let mut in_manifest = false;
    fix.lines().filter(move |l| {
        let t = l.trim();
        if in_manifest {
            if t == "EOF" || t.is_empty() {
                in_manifest = false;
            }
            return true;
        }
        if t.ends_with("<<'EOF'") || t == "spec:" {
            in_manifest = true;
            return true;
        }
        CHANGES
            .iter()
            .filter(|c| !c.starts_with('\n'))
            .any(|c| l.contains(c))
    })
}

/// Commands and manifests that change the cluster. A native cluster (no operator) has no object
/// holding its configuration: its fix is the `-Dkey=value` of the command that starts it.
const CHANGES: &[&str] = &[
    "kubectl patch",
    "kubectl apply",
    "kubectl create",
    "kubectl scale",
    "kubectl label",
    "kubectl replace",
    "kubectl delete",
    "kubectl set ",
    "kubectl rollout",
    "kubectl annotate",
    "helm upgrade",
    "helm install",
    "flink run-application",
    "kubernetes-session.sh",
    "\nspec:",
];

/// What is wrong with one finding's fix, if anything.
fn fault(f: &Value, snapshot: &BTreeSet<String>) -> Option<String> {
    let fix = f["fix"].as_str().unwrap_or("");
    // The finding's own object and namespace are in every command, canned or not: they count
    // only on a line that changes something (`kubectl scale deployment/NAME --replicas=1`).
    let own: Vec<&str> = [&f["object"], &f["deployment"]]
        .iter()
        .flat_map(|o| [o["name"].as_str(), o["namespace"].as_str()])
        .flatten()
        .collect();
    let acted_on = |name: &str| changing_lines(fix).any(|l| words(l).contains(name));
    let mut read = specific_words(f["title"].as_str().unwrap_or(""));
    for e in f["evidence"].as_array().into_iter().flatten() {
        read.extend(specific_words(e.as_str().unwrap_or("")));
    }
    read.extend(snapshot.iter().cloned());
    read.extend(own.iter().map(|o| o.to_string()));
    read.retain(|w| !GENERIC.contains(&w.as_str()));
    let namespaces: Vec<&str> = [&f["object"], &f["deployment"]]
        .iter()
        .filter_map(|o| o["namespace"].as_str())
        .collect();
    read.retain(|w| !namespaces.contains(&w.as_str()));
    read.retain(|w| !own.contains(&w.as_str()) || acted_on(w));
    let in_fix = words(fix);
    let named: Vec<&String> = read
        .iter()
        .filter(|w| in_fix.contains(w.as_str()))
        .collect();
    let category = f["category"].as_str().unwrap_or("");
    if category == "flink_fatal_exit" && !acts(fix) {
        // The cause is in a log the snapshot does not hold: reading it is the fix, and it must
        // be that pod's, that container's.
        let pod = f["object"]["name"].as_str().unwrap_or("");
        return (!(fix.contains(pod) && fix.contains("-c ")))
            .then(|| "sends the reader to a log without naming the pod and container".into());
    }
    if named.is_empty() {
        return Some("names nothing read from the evidence".into());
    }
    if !acts(fix) {
        return Some(
            "changes nothing and names no field to fill in (only reading commands or prose)".into(),
        );
    }
    None
}

#[test]
fn every_root_fix_names_what_it_read_and_changes_it() {
    let mut failures = Vec::new();
    let mut audited = 0;
    for (name, dir) in bundles() {
        let report = offline_json(&[
            "doctor",
            "--from",
            dir.to_str().unwrap(),
            "-o",
            "json",
            "--color",
            "never",
        ]);
        let snapshot = snapshot_words(&dir);
        for f in report["findings"].as_array().into_iter().flatten() {
            let root = f["causedBy"].is_null();
            let fix = f["fix"].as_str().unwrap_or("");
            if !root || fix.is_empty() || f["severity"] == "info" {
                continue;
            }
            audited += 1;
            if let Some(why) = fault(f, &snapshot) {
                failures.push(format!(
                    "{name}: {} {} {}/{}: {why}\n    fix: {}",
                    f["rule"].as_str().unwrap_or(""),
                    f["category"].as_str().unwrap_or(""),
                    f["object"]["kind"].as_str().unwrap_or(""),
                    f["object"]["name"].as_str().unwrap_or(""),
                    fix.lines().take(4).collect::<Vec<_>>().join(" | ")
                ));
            }
        }
    }
    assert!(audited >= 50, "only {audited} root fixes audited");
    assert!(
        failures.is_empty(),
        "{} of {audited} root fixes are canned:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_audit_tells_a_canned_fix_from_a_built_one() {
    let finding = |fix: &str| {
        serde_json::json!({
            "category": "job_jar_not_found",
            "title": "the session job's jar cannot be fetched",
            "object": {"kind": "FlinkSessionJob", "namespace": "ns1", "name": "enricher"},
            "deployment": {"kind": "FlinkDeployment", "namespace": "ns1", "name": "shared"},
            "evidence": ["status.error: java.io.FileNotFoundException: https://a.example/e-1.4.jar"],
            "fix": fix,
        })
    };
    let none = BTreeSet::new();
    // Reading commands only, even with a value of the evidence in them.
    assert!(fault(&finding(
        "Read the operator's error: kubectl describe flinksessionjob enricher -n ns1\n\nRoot cause: https://a.example/e-1.4.jar"
    ), &none)
    .is_some());
    // A command that names only the finding's own object and namespace.
    assert!(fault(&finding(
        "kubectl patch flinksessionjob enricher -n ns1 --type=merge -p '{\"spec\":{\"restartNonce\":1}}'"
    ), &none)
    .is_some());
    // The field, the value read, and a placeholder for what only a person knows.
    assert!(fault(&finding(
        "https://a.example/e-1.4.jar does not exist: set spec.job.jarURI of enricher to the jar's URL\n\n  \
         kubectl patch flinksessionjob enricher -n ns1 --type=merge -p '{\"spec\":{\"job\":{\"jarURI\":\"<spec.job.jarURI>\"}}}'"
    ), &none)
    .is_none());
}
