//! Coverage of the swept message templates (`tests/sweep/*.tsv`, written by `scripts/sweep/run.sh`
//! from the sources at pinned versions) by the signature catalogue.
//!
//! Every template is filled with sample values (`{}` -> `x`) and matched as the line it prints (and,
//! for an exception, as the `Class: message` line a stack trace prints; for an event reason, as
//! the row `kubectl describe` prints). A template is *mapped* when a signature matches, *ignored*
//! when a rule of `tests/sweep/ignored.tsv` covers it (each rule says why triage has nothing to
//! say about that group), and *neither* otherwise. `docs/coverage.md` gives the figures per
//! component and version; `KUBECTL_FLINK_BLESS=1 cargo test --test sweep` rewrites it, and the
//! test fails when it is stale. `SWEEP_VERBOSE=1` prints every template that is neither, each ignored one with its rule, and each mapped one with its signature and category.

use kubectl_flink::signatures::{self, catalogue, prune_line};
use regex::Regex;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

struct Row {
    component: String,
    version: String,
    cite: String,
    kind: String,
    template: String,
}

fn rows() -> Vec<Row> {
    let dir = root().join("tests/sweep");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/sweep")
        .map(|e| e.expect("tests/sweep entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "tsv")
                && p.file_name().is_some_and(|n| n != "ignored.tsv")
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("sweep TSV is UTF-8");
        for (i, line) in text.lines().enumerate() {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                cols.len(),
                5,
                "{}:{}: a row has 5 columns (component version cite kind template)",
                f.display(),
                i + 1
            );
            out.push(Row {
                component: cols[0].to_string(),
                version: cols[1].to_string(),
                cite: cols[2].to_string(),
                kind: cols[3].to_string(),
                template: cols[4].to_string(),
            });
        }
    }
    out
}

struct Rule {
    line: usize,
    component: Regex,
    kind: Regex,
    cite: Regex,
    template: Regex,
    reason: String,
}

fn rules() -> Vec<Rule> {
    let text = std::fs::read_to_string(root().join("tests/sweep/ignored.tsv"))
        .expect("tests/sweep/ignored.tsv");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            cols.len(),
            5,
            "ignored.tsv:{}: component kind cite template reason",
            i + 1
        );
        let re = |s: &str| {
            Regex::new(if s.is_empty() { "" } else { s })
                .unwrap_or_else(|e| panic!("ignored.tsv:{}: {e}", i + 1))
        };
        assert!(
            cols[4].len() >= 20,
            "ignored.tsv:{}: a rule says why, in words",
            i + 1
        );
        out.push(Rule {
            line: i + 1,
            component: re(cols[0]),
            kind: re(cols[1]),
            cite: re(cols[2]),
            template: re(cols[3]),
            reason: cols[4].to_string(),
        });
    }
    out
}

/// The lines a template prints, filled with sample values.
fn lines(row: &Row) -> Vec<String> {
    // Akka's and Pekko's remoting print an `Address` in the first brackets (`[akka.tcp://flink@host:port]`):
    // the sample is one, so a reading keyed on the address shape is tested as it reads a real line.
    let remote = match row.component.as_str() {
        "akka-remote" => Some("[akka.tcp://flink@10.0.0.8:6122]"),
        "pekko-remote" => Some("[pekko.tcp://flink@10.0.0.8:6122]"),
        _ => None,
    };
    let filled = match remote {
        Some(address) => row.template.replacen("[{}]", address, 1),
        None => row.template.clone(),
    }
    .replace("{}", "x");
    let mut out = vec![filled.clone()];
    let class = row
        .kind
        .strip_prefix("throw ")
        .or_else(|| row.kind.strip_prefix("new "));
    if let Some(class) = class {
        out.push(format!("Caused by: x.{class}: {filled}"));
    }
    // A scheduler filter's reason is printed inside the FailedScheduling summary, after its node
    // count (pkg/scheduler/schedule_one.go joins them).
    if row.cite.contains(":pkg/scheduler/framework/plugins/")
        && (row.kind.starts_with("message ")
            || row.kind.starts_with("const ")
            || row.kind.ends_with("NewStatus"))
    {
        out.push(format!(
            "  Warning  FailedScheduling  10s  default-scheduler  0/3 nodes are available: 3 {filled}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
        ));
    }
    // The Apache operator's validator refuses a resource through its admission webhook, in these
    // words (flink-kubernetes-webhook's AdmissionHandler returns the validator's message).
    // So does the FlinkCluster operator's validating webhook (apis/.../flinkcluster_validate.go).
    if row.component == "flink-on-k8s-operator" && row.cite.contains("/flinkcluster_validate.go:") {
        out.push(format!(
            "Error from server (Forbidden): error when creating \"x.yaml\": admission webhook \"vflinkcluster.flinkoperator.k8s.io\" denied the request: {filled}"
        ));
    }
    if row.kind == "validation" && row.component == "flink-kubernetes-operator" {
        out.extend(validator_lines(&filled));
    }
    // Java 11's allocation path reports a heap exhaustion by its OutOfMemoryError's message
    // (memAllocator.cpp's report_java_out_of_memory("Java heap space")), which is thrown and printed
    if row.kind == "report_java_out_of_memory" {
        out.push(format!("java.lang.OutOfMemoryError: {filled}"));
    }
    if row.kind == "event-reason" {
        out.push(format!("  Warning  {}  10s  x  x", row.template));
    }
    if let Some(reason) = row.kind.strip_prefix("event ") {
        out.push(format!("  Warning  {reason}  10s  x  {filled}"));
    }
    out
}

/// The three ways the Apache operator's validator refusal reaches a person: the webhook's denial at
/// admission (flink-kubernetes-webhook's AdmissionHandler returns the message), and, when the webhook
/// is off or the refusal comes at reconcile time, the `ValidationError` Warning event and
/// `status.error` (FlinkDeploymentController.validateDeployment triggers the event with the message,
/// ReconciliationUtils.applyValidationErrorAndResetSpec records a ValidationException in the status:
/// apache/flink-kubernetes-operator@release-1.13.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/controller/FlinkDeploymentController.java:216
/// and .../reconciler/ReconciliationUtils.java:405).
fn validator_lines(filled: &str) -> [String; 3] {
    [
        format!(
            "Error from server: error when creating \"x.yaml\": admission webhook \"validationwebhook.flink.apache.org\" denied the request: {filled}"
        ),
        format!("  Warning  ValidationError  10s  JobManagerDeployment  {filled}"),
        format!(
            "    error: '{{\"type\":\"org.apache.flink.kubernetes.operator.exception.ValidationException\",\"message\":\"{filled}\",\"throwableList\":[]}}'"
        ),
    ]
}

/// The category (and signature) the catalogue names for a row, if any.
fn mapped(row: &Row) -> Option<(String, &'static str)> {
    for line in lines(row) {
        let m = prune_line(catalogue().match_line(&line, 1));
        if let Some(first) = m.first() {
            return Some((
                first.signature.category.id().to_string(),
                first.signature.id,
            ));
        }
    }
    None
}

#[derive(Default, Clone, Copy)]
struct Count {
    found: usize,
    mapped: usize,
    ignored: usize,
}

fn version_key(v: &str) -> Vec<u64> {
    v.trim_start_matches('v')
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|p| p.parse().ok())
        .collect()
}

fn coverage_markdown() -> String {
    let rows = rows();
    let rules = rules();
    let mut by: BTreeMap<(String, Vec<u64>, String), Count> = BTreeMap::new();
    let mut per_rule = vec![0usize; rules.len()];
    let mut per_category: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = Count::default();
    let verbose = std::env::var_os("SWEEP_VERBOSE").is_some();
    let mut neither_rows: Vec<String> = Vec::new();
    for r in &rows {
        let key = (
            r.component.clone(),
            version_key(&r.version),
            r.version.clone(),
        );
        let c = by.entry(key).or_default();
        c.found += 1;
        total.found += 1;
        if let Some((cat, id)) = mapped(r) {
            if verbose {
                println!("MAPPED:{id}:{cat}\t{}\t{}\t{}", r.cite, r.kind, r.template);
            }
            c.mapped += 1;
            total.mapped += 1;
            *per_category.entry(cat).or_default() += 1;
        } else if let Some(i) = rules.iter().position(|x| {
            x.component.is_match(&r.component)
                && x.kind.is_match(&r.kind)
                && x.cite.is_match(&r.cite)
                && x.template.is_match(&r.template)
        }) {
            c.ignored += 1;
            total.ignored += 1;
            per_rule[i] += 1;
            if verbose {
                println!(
                    "IGNORED:{}\t{}\t{}\t{}",
                    rules[i].line, r.cite, r.kind, r.template
                );
            }
        } else {
            if verbose {
                println!("NEITHER\t{}\t{}\t{}", r.cite, r.kind, r.template);
            }
            neither_rows.push(format!("{}\t{}\t{}", r.cite, r.kind, r.template));
        }
    }
    assert!(
        neither_rows.is_empty(),
        "{} swept templates are neither mapped by a signature nor marked by a rule of tests/sweep/ignored.tsv (map them, or add a rule that says why triage has nothing to name); the first:\n{}",
        neither_rows.len(),
        neither_rows.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
    let unused: Vec<String> = rules
        .iter()
        .zip(&per_rule)
        .filter(|(_, n)| **n == 0)
        .map(|(r, _)| format!("ignored.tsv:{} ({})", r.line, r.reason))
        .collect();
    assert!(
        unused.is_empty(),
        "ignore rules that cover no template (remove them or fix their patterns):\n{}",
        unused.join("\n")
    );
    let pct = |n: usize, d: usize| {
        if d == 0 {
            0.0
        } else {
            n as f64 * 100.0 / d as f64
        }
    };
    let mut out = String::from(
        "# Coverage of the swept message templates\n\n\
         <!-- generated by tests/sweep.rs from tests/sweep/*.tsv and tests/sweep/ignored.tsv; \
         `KUBECTL_FLINK_BLESS=1 cargo test --test sweep` rewrites it -->\n\n\
         `scripts/sweep/run.sh` lists every place in a component's source, at a pinned version, \
         that can print a failure, with the message template (`tests/sweep/<component>@<version>.tsv`: \
         component, version, `repo@tag:path:line`, kind, template). A template is **mapped** when \
         a catalogue signature matches it filled with sample values, **ignored** when a rule of \
         `tests/sweep/ignored.tsv` says why triage has nothing to name for it, and **neither** \
         otherwise: the catalogue's known gap.\n\n\
         | component | version | templates | mapped | ignored | neither | mapped+ignored |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    for ((comp, _, ver), c) in &by {
        let neither = c.found - c.mapped - c.ignored;
        let _ = writeln!(
            out,
            "| {comp} | {ver} | {} | {} | {} | {neither} | {:.1}% |",
            c.found,
            c.mapped,
            c.ignored,
            pct(c.mapped + c.ignored, c.found)
        );
    }
    let neither = total.found - total.mapped - total.ignored;
    let _ = writeln!(
        out,
        "| **all** | | **{}** | **{}** | **{}** | **{neither}** | **{:.1}%** |",
        total.found,
        total.mapped,
        total.ignored,
        pct(total.mapped + total.ignored, total.found)
    );
    out.push_str("\n## Mapped, by category\n\n| category | templates |\n|---|---:|\n");
    let mut cats: Vec<(&String, &usize)> = per_category.iter().collect();
    cats.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (cat, n) in cats {
        let _ = writeln!(out, "| {cat} | {n} |");
    }
    out.push_str("\n## Ignored, by rule\n\n| rule | templates | why |\n|---|---:|---|\n");
    for (r, n) in rules.iter().zip(&per_rule) {
        let _ = writeln!(
            out,
            "| ignored.tsv:{} | {n} | {} |",
            r.line,
            r.reason.replace('|', "\\|")
        );
    }
    out
}

#[test]
fn every_signature_cites_where_its_text_comes_from() {
    let missing: Vec<&str> = signatures::all()
        .iter()
        .filter(|s| s.sources.is_empty() || s.sources.iter().any(|x| x.trim().is_empty()))
        .map(|s| s.id)
        .collect();
    assert!(
        missing.is_empty(),
        "signatures with no `sources` (cite `owner/repo@version:path` or `observed:`): {missing:?}"
    );
}

#[test]
fn every_swept_row_cites_a_pinned_source_line() {
    let cite = Regex::new(r"^[\w.-]+/[\w.-]+@[\w.+-]+:[^\s:]+:\d+$").unwrap();
    let rows = rows();
    assert!(rows.len() > 1000, "the sweep has {} rows", rows.len());
    for r in &rows {
        assert!(
            cite.is_match(&r.cite),
            "not `repo@tag:path:line`: {}",
            r.cite
        );
        assert!(!r.template.trim().is_empty(), "{}: empty template", r.cite);
        assert!(!r.kind.is_empty(), "{}: no kind", r.cite);
    }
}

#[test]
fn the_sample_lines_of_a_known_template_map_to_its_category() {
    // The fill and the class prefix are what make a template a line: if they broke, every
    // figure in docs/coverage.md would drop to zero without this failing.
    let row = Row {
        component: "flink".into(),
        version: "1.20.0".into(),
        cite: "apache/flink@release-1.20.0:x.java:1".into(),
        kind: "throw UpgradeFailureException".into(),
        template: "HA metadata not available to restore from last state. It is possible that the job has finished or terminally failed, or the configmaps have been deleted. Manual restore required.".into(),
    };
    assert!(mapped(&row).is_some(), "{:?}", lines(&row));
    let none = Row {
        template: "nothing any signature reads {}".into(),
        ..row
    };
    assert!(mapped(&none).is_none());
}

#[test]
fn coverage_document_is_drawn_from_the_sweep() {
    let path = root().join("docs/coverage.md");
    let want = coverage_markdown();
    if std::env::var_os("KUBECTL_FLINK_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &want).expect("write docs/coverage.md");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/coverage.md is stale: run `KUBECTL_FLINK_BLESS=1 cargo test --test sweep` and commit the result"
    );
}

/// Each shape reader is tested on every wording of its shape that the sweep found, in every
/// component and version: the rows a selector picks out of `tests/sweep/*.tsv` must be read by the
/// reader (or a more precise signature of the same shape), and every selector must pick some.
#[test]
fn each_shape_reader_reads_every_swept_wording_of_its_shape() {
    let shapes: &[(&[&str], &str, &str)] = &[
        // a TaskManager taken away: preempted, its node shut down, restarted and re-registered
        (
            &["SIG-TM-TAKEN-AWAY"],
            "",
            r"^(Preempted by \{\} on node \{\}|Pod was preempted by Kubelet to accommodate a critical pod|Preempted in order to admit critical pod|Pod was terminated in response to imminent node shutdown|A registered TaskManager \{\} re-registered with a new session id)",
        ),
        // a TaskManager lost, as Flink's JobMaster and ResourceManager say it (every version)
        (
            &["SIG-TM-HEARTBEAT-TIMEOUT", "SIG-TM-UNREACHABLE"],
            r"^flink$",
            r"^(The heartbeat of TaskManager with id \{\} timed out|Heartbeat of TaskManager with id \{\} timed out|TaskManager with id \{\} is no longer reachable)",
        ),
        // a process killed for memory by the node's kernel
        (&["SIG-SYSTEM-OOM"], "", r"^System OOM encountered"),
        // an Akka/Pekko association gated
        (
            &[
                "SIG-AKKA-GATED",
                "SIG-AKKA-GATED-JM",
                "SIG-JM-ASSOCIATION-FAILED",
                "SIG-TM-RPC-UNREACHABLE",
            ],
            r"^(akka|pekko)-remote$",
            r"(Tried to associate with unreachable remote address|address is now gated for)",
        ),
        // the job jar not where the deployment says: Flink's CLI, PackagedProgram and JarUtils,
        // and the operator's check of a session job's jar, in every version swept
        (
            &["SIG-JAR-NOT-FOUND"],
            r"^(flink|flink-kubernetes-operator)$",
            r"^(JAR file (does not exist|is not a file|path is invalid|path invalid)|The jar file path is invalid|Java program should be specified a JAR file|No JAR found on classpath|The jar file \{\} not exists)",
        ),
        // a savepoint path that does not hold a savepoint, or no savepoint directory at all
        (
            &["SIG-SAVEPOINT-NOT-FOUND", "SIG-SAVEPOINT-DIR-MISSING"],
            r"^(flink|flink-kubernetes-operator)$",
            r"^(Cannot find checkpoint or savepoint file/directory|Cannot find meta data file '_metadata'|No savepoint location given and no default location configured|Either the savepoint path in the spec or configuration)",
        ),
        // ... or quarantined
        (
            &["SIG-AKKA-QUARANTINED"],
            r"^(akka|pekko)-remote$",
            r"^Association to \[\{\}\] (having|with) (UID \[\{\}\]|unknown UID) (is )?(irrecoverably failed|reported as quarantined)",
        ),
    ];
    let rows = rows();
    let mut bad = Vec::new();
    for (ids, component, selector) in shapes {
        let component = Regex::new(component).unwrap();
        let selector = Regex::new(selector).unwrap();
        let picked: Vec<&Row> = rows
            .iter()
            .filter(|r| component.is_match(&r.component) && selector.is_match(&r.template))
            .collect();
        assert!(
            !picked.is_empty(),
            "{ids:?}: the sweep found no wording for {selector}"
        );
        for r in picked {
            match mapped(r) {
                Some((_, id)) if ids.contains(&id) => {}
                other => bad.push(format!(
                    "{ids:?} does not read {} `{}` (read as {other:?})",
                    r.cite, r.template
                )),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Each refusal of the Apache operator's validator, in every release swept (1.4 to 1.15), is named
/// by a signature that reads its own wording, to the same category however it reaches the person:
/// the webhook's denial, the ValidationError event or status.error. The webhook's generic denial
/// reader (SIG-WEBHOOK-DENIED) alone is not enough: without the webhook there is no denial line.
#[test]
fn every_operator_validator_refusal_is_named_from_its_own_wording() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for r in rows()
        .iter()
        .filter(|r| r.component == "flink-kubernetes-operator" && r.kind == "validation")
    {
        seen += 1;
        let filled = r.template.replace("{}", "x");
        let mut cats = Vec::new();
        for line in std::iter::once(filled.clone()).chain(validator_lines(&filled)) {
            let m = prune_line(catalogue().match_line(&line, 1));
            match m.first() {
                Some(f) if f.signature.id != "SIG-WEBHOOK-DENIED" => {
                    cats.push(f.signature.category.id().to_string())
                }
                other => bad.push(format!(
                    "{} `{}` as `{line}`: read as {:?}",
                    r.cite,
                    r.template,
                    other.map(|f| f.signature.id)
                )),
            }
        }
        cats.dedup();
        if cats.len() > 1 {
            bad.push(format!(
                "{} `{}`: categories differ: {cats:?}",
                r.cite, r.template
            ));
        }
    }
    assert!(seen > 300, "the sweep lists {seen} validator refusals");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A refusal is read whichever client carries it. The API server's own refusal wordings (the
/// swept `forbiddenMessage` templates of every kube-apiserver minor), prefixed as apimachinery's
/// NewForbidden prints them (`%s is forbidden: %v`, kubernetes/apimachinery@v0.36.3:
/// pkg/api/errors/errors.go:214), are put into the message slot of every swept client wrapper that
/// carries a response message: fabric8 5/6/7's `Failure executing: VERB at: URL. Message: ...`
/// (OperationSupport.requestFailure), the Kubernetes Java client's ApiException.getMessage
/// (`Message: ... HTTP response code: ...`); the Java client's older `ApiException: Forbidden`
/// carries OkHttp's HTTP reason phrase (Watch.createWatch passes `response.message()`), which is
/// data, so that line is the class and RFC 9110's reason phrase. Each must be read as a refusal.
#[test]
fn the_refusal_readers_read_every_swept_refusal_wording_from_every_client() {
    const REFUSAL: &[&str] = &[
        "SIG-K8S-FORBIDDEN",
        "SIG-K8S-FORBIDDEN-DEFAULT-SA",
        "SIG-K8S-FORBIDDEN-OPERATOR",
        "SIG-K8S-FORBIDDEN-USER",
        "SIG-K8S-FORBIDDEN-ANONYMOUS",
        "SIG-FABRIC8-FORBIDDEN-CONFIGURED",
        "SIG-FABRIC8-STATUS-403",
        "SIG-JAVA-CLIENT-403",
    ];
    let rows = rows();
    let fill = |t: &str, values: &[&str]| {
        let mut out = t.to_string();
        for v in values {
            out = out.replacen("{}", v, 1);
        }
        out.replace("{}", "x")
    };
    let mut bodies: Vec<String> = rows
        .iter()
        .filter(|r| {
            r.component == "kube-apiserver"
                && r.kind == "message forbiddenMessage"
                && r.template.contains(" resource ")
        })
        .flat_map(|r| {
            let who = [
                "system:serviceaccount:flink:flink",
                "system:serviceaccount:flink:default",
                "jane@example.com",
            ];
            who.iter()
                .map(|u| {
                    format!(
                        "pods is forbidden: {}",
                        fill(&r.template, &[u, "watch", "pods", "", "flink"])
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    bodies.sort();
    bodies.dedup();
    assert!(
        bodies.len() >= 6,
        "the sweep lists {} API-server refusal wordings",
        bodies.len()
    );
    let mut wrappers: Vec<(String, String)> = rows
        .iter()
        .filter(|r| {
            (r.component == "fabric8-kubernetes-client"
                && r.template
                    .contains("Failure executing: {} at: {}. Message: {}."))
                || (r.component == "kubernetes-client-java"
                    && r.template.starts_with("Message: {} HTTP response code: {}"))
        })
        .map(|r| (r.cite.clone(), r.template.clone()))
        .collect();
    wrappers.sort();
    wrappers.dedup_by(|a, b| a.1 == b.1);
    assert!(
        wrappers.len() >= 2,
        "the sweep lists {} client refusal wrappers",
        wrappers.len()
    );
    let mut bad = Vec::new();
    let mut check = |line: String, what: &str| {
        let m = prune_line(catalogue().match_line(&line, 1));
        match m.first() {
            Some(f) if REFUSAL.contains(&f.signature.id) => {}
            other => bad.push(format!(
                "{what}: `{line}` read as {:?}",
                other.map(|f| f.signature.id)
            )),
        }
    };
    for body in &bodies {
        check(body.clone(), "the API server's body");
        for (cite, w) in &wrappers {
            let line = if w.starts_with("Message: ") {
                format!(
                    "io.kubernetes.client.openapi.ApiException: {}",
                    fill(w, &["Forbidden", "403", body, "{}"])
                )
            } else {
                // fabric8 prefixes the wrapper with its own message only when it has one
                fill(
                    w,
                    &[
                        "",
                        "GET",
                        "https://10.96.0.1/api/v1/namespaces/flink/pods?watch=true",
                        body,
                        "x",
                    ],
                )
                .trim_start_matches(". ")
                .to_string()
            };
            check(format!("Caused by: {line}"), cite);
        }
    }
    for class in [
        "io.kubernetes.client.ApiException",
        "io.kubernetes.client.openapi.ApiException",
    ] {
        check(
            format!("{class}: Forbidden"),
            "the Java client's reason phrase",
        );
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A connection refused, timed out, without a route or to a name that does not resolve is read when
/// it is to a Flink address and port, whichever layer words it and whichever wraps it.
///
/// The wordings: every swept connect failure of the JDK's sockets (`jdk-net`: Java 11's
/// PlainSocketImpl.c `Connection refused` / `connect timed out` / `Host unreachable`, Java 17's
/// NioSocketImpl and SocketChannelImpl `Connect timed out`) and the strerror text the JDK's
/// *WithLastError throws print instead (glibc's, for ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH and
/// ENETUNREACH: bminor/glibc@3d7d5c10c806ee24f8e35014e41e203002609a3f:sysdeps/gnu/errlist.h), each
/// as Netty annotates it (`<message>: host/ip:port`, AbstractChannel.annotateConnectException,
/// netty/netty@netty-4.1.100.Final:transport/src/main/java/io/netty/channel/AbstractChannel.java:1033,
/// with the classes AnnotatedConnectException / AnnotatedNoRouteToHostException / AnnotatedSocketException,
/// shaded by Flink or not), through every swept epoll wording (`connect(..) failed: <strerror>`, and
/// `null` for epoll's NoRouteToHostException without a message), every swept Netty connect
/// timeout (`connection timed out: ...`, `connection timed out after N ms: ...`), under Flink's
/// BlobClient (the swept `Could not connect to BlobServer at address {}`, apache/flink@release-1.20.0:
/// flink-runtime/src/main/java/org/apache/flink/runtime/blob/BlobClient.java:103); inside every
/// swept Akka/Pekko `Association with remote system [...] has failed` / `Tried to associate with
/// unreachable remote address [...]` cause slot; and an unresolved name as the JDK words it
/// (`host: <gai_strerror>`, openjdk/jdk17u@jdk-17.0.19+10:src/java.base/unix/native/libnet/net_util_md.c:209,
/// with glibc's texts, bminor/glibc@33d7c0e1cb712a3b7ea46d7f88569721805bc2db:sysdeps/posix/gai_strerror-strs.h).
/// Flink's RpcConnectionException (the swept `Could not connect to rpc endpoint under address {}`)
/// is read to the JobManager's endpoints and not to a TaskExecutor's.
/// Filled with a Flink address and each JobManager port (6123 RPC, 6124 the blob server, the port
/// flink-kubernetes gives it, 8081 REST), each must be read as the JobManager out of reach; on
/// another port (a database, a broker, a TaskManager's 6122 RPC) and on a healthy line it must not.
#[test]
fn the_network_readers_read_every_swept_connect_wording_on_every_flink_port() {
    // the readers of a JobManager out of reach: refused, timed out or unroutable (the port shape,
    // and the older refusal one it supersedes), the gated association to it, and its name unresolved
    const JM: &[&str] = &[
        "SIG-JM-PORT-UNREACHABLE",
        "SIG-JM-CONNECTION-REFUSED",
        "SIG-JM-ASSOCIATION-FAILED",
        "SIG-AKKA-GATED-JM",
        "SIG-JM-UNKNOWN-HOST",
        "SIG-RPC-CONNECT-FAILED",
        "SIG-RM-ADDRESS-UNRESOLVED",
    ];
    const GLIBC_STRERROR: &[&str] = &[
        "Connection refused",
        "Connection timed out",
        "No route to host",
        "Network is unreachable",
    ];
    const GLIBC_GAI: &[&str] = &[
        "Name or service not known",
        "Temporary failure in name resolution",
        "No address associated with hostname",
        "Non-recoverable failure in name resolution",
    ];
    const NETTY: &[&str] = &[
        "io.netty.channel",
        "org.apache.flink.shaded.netty4.io.netty.channel",
    ];
    const HOSTS: &[&str] = &[
        "flink-jobmanager/10.96.12.4",
        "orders-rest.analytics/10.96.14.2",
        "orders-jobmanager.flink.svc.cluster.local/10.96.3.7",
        "/10.0.0.7",
    ];
    const FLINK_PORTS: &[&str] = &["6123", "6124", "8081"];
    const OTHER_PORTS: &[&str] = &["5432", "9092", "6122"];
    let rows = rows();
    let fill = |t: &str, values: &[&str]| {
        let mut out = t.to_string();
        for v in values {
            out = out.replacen("{}", v, 1);
        }
        out.replace("{}", "x")
    };
    let uniq = |mut v: Vec<String>| {
        v.sort();
        v.dedup();
        v
    };
    let swept = |component: &str, re: &str| {
        let re = Regex::new(re).unwrap();
        uniq(
            rows.iter()
                .filter(|r| r.component == component && re.is_match(&r.template))
                .map(|r| r.template.clone())
                .collect(),
        )
    };
    // the JDK's messages: swept, and the strerror text the *WithLastError throws print
    let jdk = swept(
        "jdk-net",
        r"^(?:Connection refused|Connection timed out|[Cc]onnect timed out|Host unreachable)$",
    );
    assert!(
        jdk.len() >= 5,
        "the sweep lists {} JDK connect wordings: {jdk:?}",
        jdk.len()
    );
    let mut messages: Vec<(String, &str)> = jdk
        .iter()
        .map(|m| {
            let class = if m.contains("timed out")
                && m.starts_with(['c', 'C'])
                && m.contains("onnect timed")
            {
                "SocketTimeoutException"
            } else if m.contains("unreachable") {
                "NoRouteToHostException"
            } else {
                "ConnectException"
            };
            (m.clone(), class)
        })
        .collect();
    for m in GLIBC_STRERROR {
        let class = match *m {
            "No route to host" => "NoRouteToHostException",
            "Network is unreachable" => "SocketException",
            _ => "ConnectException",
        };
        messages.push((m.to_string(), class));
    }
    // epoll's: `connect(..) failed: <strerror>` (and the errno in 4.1.128), NoRouteToHostException's null
    let epoll = swept("netty", r"^\{\}\(\.\.\) failed");
    assert!(
        !epoll.is_empty(),
        "the sweep lists no epoll connect wording"
    );
    for t in &epoll {
        for m in &GLIBC_STRERROR[..2] {
            let values: &[&str] = if t.contains("error({})") {
                &["connect", "-111", m]
            } else {
                &["connect", m]
            };
            messages.push((fill(t, values), "ConnectException"));
        }
    }
    messages.push(("null".to_string(), "NoRouteToHostException"));
    let timeouts = swept("netty", r"^connection timed out");
    assert!(
        timeouts.len() >= 2,
        "the sweep lists {} Netty connect timeouts: {timeouts:?}",
        timeouts.len()
    );
    let blob = swept("flink", r"^Could not connect to BlobServer at address \{\}");
    assert!(
        !blob.is_empty(),
        "the sweep lists no BlobClient connect wording"
    );
    let remoting: Vec<(String, String)> = ["akka-remote", "pekko-remote"]
        .iter()
        .flat_map(|c| {
            swept(
                c,
                r"^(?:Association with remote system|Tried to associate with unreachable remote address) \[\{\}\]",
            )
            .into_iter()
            .map(move |t| (c.replace("-remote", ""), t))
        })
        .collect();
    assert!(
        remoting.len() >= 4,
        "the sweep lists {} remoting wordings",
        remoting.len()
    );

    // the lines a client prints for a connection to host:port
    let connect_lines = |host: &str, port: &str| {
        let address = format!("{host}:{port}");
        let mut out = Vec::new();
        for (m, class) in &messages {
            for pkg in NETTY {
                let annotated = match *class {
                    "NoRouteToHostException" => "AnnotatedNoRouteToHostException",
                    "SocketException" => "AnnotatedSocketException",
                    _ => "AnnotatedConnectException",
                };
                out.push(format!(
                    "Caused by: {pkg}.AbstractChannel${annotated}: {m}: {address}"
                ));
            }
        }
        for t in &timeouts {
            for pkg in NETTY {
                let values: Vec<&str> = if t.contains(" ms") {
                    vec!["10000", &address]
                } else {
                    vec![&address]
                };
                out.push(format!(
                    "Caused by: {pkg}.ConnectTimeoutException: {}",
                    fill(t, &values)
                ));
            }
        }
        // Flink's BlobClient: `Could not connect to BlobServer at address <InetSocketAddress>`
        for t in &blob {
            for (m, class) in &messages {
                out.push(format!(
                    "java.io.IOException: {}\nCaused by: java.net.{class}: {m}",
                    fill(t, &[&address])
                ));
            }
        }
        let ip = host.split('/').nth(1).unwrap_or(host);
        for (system, t) in &remoting {
            for (m, _) in messages.iter().filter(|(m, _)| m != "null") {
                let remote = format!("[{system}.tcp://flink@{ip}:{port}]");
                out.push(fill(
                    &t.replacen("[{}]", &remote, 1),
                    &[
                        "50",
                        &format!("Association failed with {remote}"),
                        &format!("Caused by: [{m}: /{ip}:{port}]"),
                    ],
                ));
            }
        }
        out
    };
    let read = |line: &str| -> Vec<&'static str> {
        line.lines()
            .flat_map(|l| prune_line(catalogue().match_line(l, 1)))
            .map(|f| f.signature.id)
            .collect()
    };
    let mut bad = Vec::new();
    let mut checked = 0;
    for host in HOSTS {
        for port in FLINK_PORTS {
            for line in connect_lines(host, port) {
                checked += 1;
                let ids = read(&line);
                if !ids.iter().any(|id| JM.contains(id)) {
                    bad.push(format!(
                        "not read on a Flink port: `{line}` read as {ids:?}"
                    ));
                }
            }
        }
        for port in OTHER_PORTS {
            for line in connect_lines(host, port) {
                checked += 1;
                let ids = read(&line);
                if ids.iter().any(|id| JM.contains(id)) {
                    bad.push(format!(
                        "over-read on port {port}: `{line}` read as {ids:?}"
                    ));
                }
            }
        }
    }
    // an unresolved name: the JobManager's Services (`<cluster>-rest`, a `*jobmanager*` Service),
    // bare or qualified, and a name that is not Flink's
    for host in [
        "flink-jobmanager",
        "orders-rest.analytics",
        "orders-jobmanager.flink.svc.cluster.local",
    ] {
        for gai in GLIBC_GAI {
            let line = format!("Caused by: java.net.UnknownHostException: {host}: {gai}");
            checked += 1;
            let ids = read(&line);
            if !ids.contains(&"SIG-JM-UNKNOWN-HOST") {
                bad.push(format!("unknown host not read: `{line}` read as {ids:?}"));
            }
        }
    }
    for gai in GLIBC_GAI {
        let line =
            format!("Caused by: java.net.UnknownHostException: kafka-0.kafka-headless: {gai}");
        checked += 1;
        let ids = read(&line);
        if ids.iter().any(|id| JM.contains(id)) {
            bad.push(format!("over-read: `{line}` read as {ids:?}"));
        }
    }
    // Flink's RPC: the swept RpcConnectionException wording, to the JobManager's endpoints (the
    // ResourceManager, Dispatcher and JobMaster a TaskExecutor or client resolves) on its RPC port,
    // and to a TaskExecutor (a JobMaster reaching a TaskManager: the other direction, not read here)
    let rpc = swept(
        "flink-rpc",
        r"^Could not connect to rpc endpoint under address \{\}",
    );
    assert!(
        !rpc.is_empty(),
        "the sweep lists no RpcConnectionException wording"
    );
    for t in &rpc {
        for system in ["akka", "pekko"] {
            for (address, jm) in [
                (
                    "flink@flink-jobmanager:6123/user/rpc/resourcemanager_*",
                    true,
                ),
                (
                    "flink@orders-jobmanager.flink:6123/user/rpc/dispatcher_1",
                    true,
                ),
                ("flink@10.0.0.7:6123/user/rpc/jobmanager_2", true),
                ("flink@10.0.0.8:6122/user/rpc/taskmanager_0", false),
            ] {
                let line = format!(
                    "org.apache.flink.runtime.rpc.exceptions.RpcConnectionException: {}",
                    fill(t, &[&format!("{system}.tcp://{address}")])
                );
                checked += 1;
                let ids = read(&line);
                if ids.iter().any(|id| JM.contains(id)) != jm {
                    bad.push(format!("rpc (JobManager: {jm}): `{line}` read as {ids:?}"));
                }
            }
        }
    }
    for line in [
        "INFO  org.apache.flink.runtime.taskexecutor.TaskExecutor [] - Successful registration at resource manager pekko.tcp://flink@flink-jobmanager:6123/user/rpc/resourcemanager_0 under registration id 5b0c.",
        "INFO  org.apache.flink.runtime.blob.BlobClient [] - Downloading from flink-jobmanager/10.96.12.4:6124",
        "INFO  org.apache.flink.runtime.rest.RestClient [] - Rest endpoint listening at flink-jobmanager:8081",
        "INFO  org.apache.flink.runtime.rpc.pekko.PekkoRpcService [] - Starting RPC endpoint for org.apache.flink.runtime.resourcemanager.StandaloneResourceManager at pekko://flink/user/rpc/resourcemanager_0 .",
        "INFO  org.apache.flink.runtime.net.ConnectionUtils [] - Trying to connect to flink-jobmanager/10.96.12.4:6123",
    ] {
        checked += 1;
        let ids = read(line);
        if ids.iter().any(|id| JM.contains(id)) {
            bad.push(format!("a healthy line over-read: `{line}` read as {ids:?}"));
        }
    }
    assert!(checked > 1000, "{checked} lines checked");
    assert!(
        bad.is_empty(),
        "{} of {checked}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The JobManager's address, unresolved, as the JDK words it (`<host>: <gai_strerror>` for a fresh
/// lookup, net_util_md.c; the bare `<host>` of a cached failure, InetAddress.java) under the frames
/// of the Flink code that resolves it (the RPC URL's getRpcUrl, Akka up to 1.17 and Pekko from 1.18,
/// and the REST address's getWebMonitorAddress): named for whatever name the JobManager has, native
/// mode's bare `<cluster-id>.<namespace>` included; the same lines under another client's frames
/// (Kafka's, JDBC's) are not the JobManager's address.
#[test]
fn the_jobmanager_address_reader_reads_every_unresolved_wording_under_flinks_resolvers() {
    use kubectl_flink::finding::Category;
    use kubectl_flink::signatures::reader::read_text;
    const GAI: &[&str] = &[
        "Name or service not known",
        "Temporary failure in name resolution",
        "No address associated with hostname",
        "Non-recoverable failure in name resolution",
    ];
    const RESOLVERS: &[&str] = &[
        "\tat org.apache.flink.runtime.rpc.akka.AkkaRpcServiceUtils.getRpcUrl(AkkaRpcServiceUtils.java:168)",
        "\tat org.apache.flink.runtime.rpc.pekko.PekkoRpcServiceUtils.getRpcUrl(PekkoRpcServiceUtils.java:167) ~[flink-rpc-akka_5f1e.jar:1.20.0]",
        "        at org.apache.flink.runtime.highavailability.HighAvailabilityServicesUtils.getWebMonitorAddress(HighAvailabilityServicesUtils.java:225)",
    ];
    const OTHERS: &[&str] = &[
        "\tat org.apache.kafka.clients.ClientUtils.parseAndValidateAddresses(ClientUtils.java:60)",
        "\tat org.postgresql.core.PGStream.<init>(PGStream.java:95)",
    ];
    let head = |host: &str, gai: Option<&str>| {
        let message = gai.map_or(host.to_string(), |g| format!("{host}: {g}"));
        [
            format!("java.net.UnknownHostException: {message}"),
            format!("Caused by: java.net.UnknownHostException: {message}"),
        ]
    };
    let wordings = |host: &str| {
        let mut out: Vec<String> = head(host, None).to_vec();
        for g in GAI {
            out.extend(head(host, Some(g)));
        }
        out
    };
    let frames = "\tat java.net.Inet6AddressImpl.lookupAllHostAddr(Native Method)\n\tat java.net.InetAddress.getByName(InetAddress.java:1077)";
    for host in [
        "orders.analytics",
        "orders",
        "my-cluster-rest",
        "flink-jobmanager.flink.svc.cluster.local",
    ] {
        for line in wordings(host) {
            for resolver in RESOLVERS {
                let text = format!("{line}\n{frames}\n{resolver}\n");
                let read = read_text(&text, "test");
                let f = read
                    .findings
                    .iter()
                    .find(|f| f.category == Category::JobmanagerUnreachable)
                    .unwrap_or_else(|| panic!("not read as the JobManager's address:\n{text}"));
                assert!(f.title.contains(host), "{}: no {host}\n{text}", f.title);
                assert!(
                    f.evidence
                        .iter()
                        .any(|e| e.contains("UnknownHostException")),
                    "{:?}",
                    f.evidence
                );
            }
        }
    }
    for host in ["kafka.prod", "db"] {
        for line in wordings(host) {
            for other in OTHERS {
                let text = format!("{line}\n{frames}\n{other}\n");
                let read = read_text(&text, "test");
                assert!(
                    read.findings
                        .iter()
                        .all(|f| f.category != Category::JobmanagerUnreachable),
                    "another client's address read as the JobManager's:\n{text}"
                );
            }
        }
    }
    // A frame far below an unrelated lookup does not borrow its host.
    let far = format!(
        "java.net.UnknownHostException: kafka.prod\n{}\n{}\n",
        "\tat x.Y.z(Y.java:1)\n".repeat(80),
        RESOLVERS[1]
    );
    let read = read_text(&far, "test");
    assert!(
        read.findings
            .iter()
            .all(|f| !f.title.contains("kafka.prod")),
        "{:?}",
        read.findings
    );
}

/// What Flink's REST client says about the endpoint it reached, in every swept release: plain text
/// where Flink's JSON was expected (not the JobManager's REST API) and a connection closed before
/// the answer are read; the rest of RestClient's wordings are about itself (ignored.tsv says why).
#[test]
fn the_rest_client_readers_read_every_swept_wording_about_the_endpoint() {
    let rows = rows();
    let rest: Vec<&Row> = rows
        .iter()
        .filter(|r| r.component == "flink" && r.cite.contains("/runtime/rest/RestClient.java:"))
        .collect();
    let versions: std::collections::BTreeSet<&str> =
        rest.iter().map(|r| r.version.as_str()).collect();
    assert!(versions.len() >= 5, "RestClient swept in {versions:?}");
    let about_endpoint =
        Regex::new(r"but plain-text|plain-text response|Channel became inactive").unwrap();
    let mut read = 0;
    for r in rest.iter().filter(|r| about_endpoint.is_match(&r.template)) {
        let filled = r.template.replace("{}", "404 page not found");
        for line in [
            filled.clone(),
            format!("Caused by: org.apache.flink.runtime.rest.util.RestClientException: {filled}"),
        ] {
            let m = prune_line(catalogue().match_line(&line, 1));
            let first = m
                .first()
                .unwrap_or_else(|| panic!("{} not read: {line}", r.cite));
            assert!(
                ["SIG-REST-NOT-FLINK", "SIG-REST-CHANNEL-CLOSED"].contains(&first.signature.id),
                "{line}: {}",
                first.signature.id
            );
        }
        read += 1;
    }
    assert!(
        read >= 3 * versions.len(),
        "{read} RestClient wordings about the endpoint"
    );
}
