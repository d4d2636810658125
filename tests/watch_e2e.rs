//! `kubectl flink watch` end to end on the real test cluster
//! (`scripts/test-cluster.sh run cargo test --test watch_e2e`), run as it runs in a pod: as the
//! ServiceAccount of deploy/ (its token from a TokenRequest, `kubectl create token`), with
//! deploy/'s ClusterRole and the Events' one bound, and `--post-events`.
//!
//! It seeds a fault (tests/scenarios/oom-killed: a TaskManager OOMKilled), sees its finding on
//! /metrics and /api/v1/findings, in a real Prometheus that scrapes /metrics every second (Debian's
//! `prometheus`, asked through its HTTP API), and an Event on the FlinkDeployment; removes the
//! fault, sees the finding and the metric go (from Prometheus too) and the clearing Event come;
//! then reads the API server's audit log: the watch's requests are get, list and watch, and create
//! only for Events; everything it reads was listed once (no periodic re-list, no list per
//! diagnosis) but after a 410 Gone. It also measures the time from the change to the metric and
//! the CPU the process uses while nothing changes.
//!
//! Without the cluster, or without a `prometheus` binary, it FAILS when `CI` is set and prints a
//! loud SKIPPED otherwise (without Prometheus, only the scrape is skipped).

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SA: &str = "system:serviceaccount:kubectl-flink:kubectl-flink-watch";
const NS: &str = "scn-oom-killed";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Harness {
    kubectl: PathBuf,
    admin: PathBuf,
    audit: PathBuf,
}

fn harness() -> Option<Harness> {
    let get = |k: &str| std::env::var_os(k).map(PathBuf::from);
    match (
        get("KUBE_HARNESS_KUBECTL"),
        get("KUBECONFIG"),
        get("KUBE_AUDIT_LOG"),
        get("KUBE_HARNESS_DIR"),
    ) {
        (Some(kubectl), Some(admin), Some(audit), Some(_)) => Some(Harness {
            kubectl,
            admin,
            audit,
        }),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "no test cluster: run scripts/test-cluster.sh run cargo test --test watch_e2e"
            );
            eprintln!(
                "\n*** SKIPPED watch_e2e: no test cluster (scripts/test-cluster.sh run cargo test --test watch_e2e) ***\n"
            );
            None
        }
    }
}

impl Harness {
    fn kubectl(&self, args: &[&str]) -> String {
        let out = Command::new(&self.kubectl)
            .env("KUBECONFIG", &self.admin)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "kubectl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A kubeconfig that authenticates as the watch's ServiceAccount with a requested token.
    fn service_account_kubeconfig(&self, dir: &Path) -> PathBuf {
        let token = self.kubectl(&[
            "create",
            "token",
            "kubectl-flink-watch",
            "-n",
            "kubectl-flink",
            "--duration=3600s",
        ]);
        let mut config: Value = serde_json::from_str(&self.kubectl(&[
            "config",
            "view",
            "--raw",
            "--minify",
            "--flatten",
            "-o",
            "json",
        ]))
        .unwrap();
        config["users"][0]["user"] = serde_json::json!({"token": token.trim()});
        let path = dir.join("watch.kubeconfig");
        std::fs::write(&path, serde_json::to_string(&config).unwrap()).unwrap();
        path
    }
}

/// The watch process, ended when dropped.
struct Watch {
    child: Child,
    addr: String,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watch {
    fn start(kubeconfig: &Path) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kubectl-flink"))
            .args([
                "watch",
                "-A",
                "--listen",
                "127.0.0.1:0",
                "--debounce",
                "300ms",
                "--post-events",
            ])
            .env("KUBECONFIG", kubeconfig)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim()
            .to_string();
        // Keep reading stderr so the process never blocks on it.
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
            if !rest.is_empty() {
                eprintln!("watch stderr: {rest}");
            }
        });
        Watch { child, addr }
    }

    fn get(&self, path: &str) -> (u16, String) {
        http_get(&self.addr, path)
    }

    /// CPU time (user + system) the process used so far, in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        let fields: Vec<&str> = stat.rsplit_once(") ").unwrap().1.split(' ').collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }
}

/// A GET on a loopback server: its status (0 when it does not answer) and body. HTTP/1.0, so
/// that no server answers in chunks.
fn http_get(addr: &str, path: &str) -> (u16, String) {
    {
        let Ok(mut s) = std::net::TcpStream::connect(addr) else {
            return (0, String::new());
        };
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.0\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }
}

/// A real Prometheus (Debian's `prometheus`) scraping the watch's /metrics every second: its own
/// temporary directory and loopback port, ended when dropped.
struct Prometheus {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn prometheus_binary() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("prometheus"))
            .find(|p| p.is_file())
    })
}

/// A loopback port free now (Prometheus is told it; a race with another process is possible but
/// then Prometheus does not answer and the test says so).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

impl Prometheus {
    /// Started, scraping `target`; `None` (with a SKIPPED line) when there is no `prometheus`
    /// binary, which FAILS the test under CI (.ci/run installs Debian's prometheus package).
    fn start(target: &str) -> Option<Prometheus> {
        let Some(bin) = prometheus_binary() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "prometheus is required under CI (Debian: apt-get install prometheus; .ci/run installs it)"
            );
            eprintln!(
                "\n*** SKIPPED watch_e2e's Prometheus scrape: no prometheus binary on PATH (Debian: apt-get install prometheus) ***\n"
            );
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n\
                 scrape_configs:\n- job_name: kubectl-flink-watch\n  scrape_interval: 1s\n  \
                 scrape_timeout: 1s\n  static_configs:\n  - targets: ['{target}']\n"
            ),
        )
        .unwrap();
        let addr = format!("127.0.0.1:{}", free_port());
        let log = std::fs::File::create(dir.path().join("prometheus.log")).unwrap();
        let child = Command::new(bin)
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("data").display()
            ))
            .arg(format!("--web.listen-address={addr}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let p = Prometheus {
            child,
            addr,
            _dir: dir,
        };
        let log = p._dir.path().join("prometheus.log");
        let ready = Instant::now();
        while http_get(&p.addr, "/-/ready").0 != 200 {
            assert!(
                ready.elapsed() < Duration::from_secs(60),
                "prometheus not ready in 60 s: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        Some(p)
    }

    /// The series an instant query returns (`/api/v1/query`).
    fn query(&self, promql: &str) -> Vec<Value> {
        let encoded: String = promql
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect();
        let (status, body) = http_get(&self.addr, &format!("/api/v1/query?query={encoded}"));
        assert_eq!(status, 200, "{promql}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["status"], "success", "{body}");
        v["data"]["result"].as_array().cloned().unwrap_or_default()
    }
}

/// The OOMKilled finding as Prometheus stored it from the watch's /metrics.
const OOM_QUERY: &str =
    r#"kubectl_flink_findings{namespace="scn-oom-killed",deployment="sessionize",rule="FLK107"}"#;

fn wait_for(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while start.elapsed() < limit {
        if ok() {
            return start.elapsed();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{what}: not within {limit:?}");
}

fn oom_metric(metrics: &str) -> bool {
    metrics.lines().any(|l| {
        l.starts_with("kubectl_flink_findings{")
            && l.contains(&format!("namespace=\"{NS}\""))
            && l.contains("rule=\"FLK107\"")
            && l.contains("deployment=\"sessionize\"")
            && l.contains("severity=")
    })
}

fn events(h: &Harness, reason: &str) -> Vec<Value> {
    let list: Value =
        serde_json::from_str(&h.kubectl(&["get", "events", "-n", NS, "-o", "json"])).unwrap();
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["reason"] == reason)
        .cloned()
        .collect()
}

#[test]
fn watch_as_its_service_account_sees_a_fault_come_and_go() {
    let Some(h) = harness() else { return };
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "namespace.yaml",
        "serviceaccount.yaml",
        "clusterrole.yaml",
        "clusterrolebinding.yaml",
        "events-clusterrole.yaml",
    ] {
        h.kubectl(&[
            "apply",
            "-f",
            repo().join("deploy").join(f).to_str().unwrap(),
        ]);
    }
    let kubeconfig = h.service_account_kubeconfig(dir.path());
    let audit_from = std::fs::metadata(&h.audit).map(|m| m.len()).unwrap_or(0);

    let watch = Watch::start(&kubeconfig);
    assert_eq!(watch.get("/healthz").0, 200);
    let ready = wait_for("ready", Duration::from_secs(90), || {
        watch.get("/readyz").0 == 200
    });
    eprintln!("watch_e2e: ready after {ready:?}");
    assert!(!oom_metric(&watch.get("/metrics").1));
    let prometheus = Prometheus::start(&watch.addr);
    if let Some(p) = &prometheus {
        wait_for(
            "Prometheus scraping the watch",
            Duration::from_secs(30),
            || p.query(r#"up{job="kubectl-flink-watch"} == 1"#).len() == 1,
        );
        assert!(p.query(OOM_QUERY).is_empty());
        // What the watch serves is a metric Prometheus stores.
        assert!(!p.query("kubectl_flink_diagnoses_total").is_empty());
    }

    // The fault.
    let seeded = Command::new(repo().join("scripts/test-cluster.sh"))
        .args([
            "seed",
            repo().join("tests/scenarios/oom-killed").to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(seeded.success());
    let seen = wait_for(
        "the OOMKilled finding on /metrics",
        Duration::from_secs(30),
        || oom_metric(&watch.get("/metrics").1),
    );
    eprintln!("watch_e2e: fault seeded -> metric in {seen:?}");
    let (status, body) = watch.get("/api/v1/findings");
    assert_eq!(status, 200);
    let json: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["version"], 1);
    assert!(
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule"] == "FLK107" && f["object"]["name"] == "sessionize-taskmanager-1-1"),
        "{body}"
    );
    let metrics = watch.get("/metrics").1;
    assert!(
        metrics.contains("kubectl_flink_deployment_healthy{namespace=\"scn-oom-killed\",deployment=\"sessionize\""),
        "{metrics}"
    );
    if let Some(p) = &prometheus {
        let scraped = wait_for(
            "the OOMKilled finding in Prometheus",
            Duration::from_secs(30),
            || !p.query(OOM_QUERY).is_empty(),
        );
        eprintln!("watch_e2e: finding on /metrics -> in Prometheus in {scraped:?}");
        let series = p.query(OOM_QUERY);
        assert_eq!(
            series[0]["metric"]["job"], "kubectl-flink-watch",
            "{series:?}"
        );
        assert!(series[0]["metric"]["severity"].is_string(), "{series:?}");
    }
    wait_for("the FlinkRootCause Event", Duration::from_secs(30), || {
        events(&h, "FlinkRootCause").iter().any(|e| {
            e["involvedObject"]["kind"] == "FlinkDeployment"
                && e["involvedObject"]["name"] == "sessionize"
                && e["message"].as_str().unwrap_or("").starts_with("FLK107")
        })
    });

    // Nothing changes: the process is idle.
    std::thread::sleep(Duration::from_secs(2));
    let (ticks, idle_from) = (watch.cpu_ticks(), Instant::now());
    std::thread::sleep(Duration::from_secs(5));
    let used = watch.cpu_ticks() - ticks;
    eprintln!(
        "watch_e2e: CPU while idle: {used} ticks in {:?}",
        idle_from.elapsed()
    );
    // 100 ticks a second: under 0.2 s of CPU in 5 s, with Prometheus scraping /metrics every
    // second meanwhile.
    assert!(used < 20, "{used} ticks of CPU in 5 s of nothing");

    // The fault removed: the OOMKilled pod goes.
    h.kubectl(&[
        "delete",
        "pod",
        "sessionize-taskmanager-1-1",
        "-n",
        NS,
        "--grace-period=0",
        "--force",
    ]);
    let cleared = wait_for("the finding cleared", Duration::from_secs(30), || {
        !oom_metric(&watch.get("/metrics").1)
    });
    eprintln!("watch_e2e: fault removed -> metric cleared in {cleared:?}");
    if let Some(p) = &prometheus {
        // Gone from the scrape: Prometheus marks the series stale at the next one.
        wait_for(
            "the OOMKilled finding gone from Prometheus",
            Duration::from_secs(30),
            || p.query(OOM_QUERY).is_empty(),
        );
        assert!(!p.query(r#"kubectl_flink_deployment_healthy{namespace="scn-oom-killed",deployment="sessionize"}"#).is_empty());
    }
    drop(prometheus);
    wait_for(
        "the FlinkRootCauseCleared Event",
        Duration::from_secs(30),
        || {
            events(&h, "FlinkRootCauseCleared")
                .iter()
                .any(|e| e["involvedObject"]["name"] == "sessionize")
        },
    );
    // De-duplicated: one Event each way.
    assert_eq!(events(&h, "FlinkRootCause").len(), 1);
    let relists = relists(&watch.get("/metrics").1);
    drop(watch);

    // The audit log: only reads, the Events and questions to the authorizer.
    let mut text = String::new();
    let mut f = std::fs::File::open(&h.audit).unwrap();
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(audit_from)).unwrap();
    f.read_to_string(&mut text).unwrap();
    // One entry per request (auditID): a watch is logged when its answer starts (it completes only
    // when it ends); lists are counted only when they succeeded (a list of a CRD not installed
    // yet fails with 404 and is tried again, with backoff).
    let mut seen = std::collections::BTreeSet::new();
    let mut verbs = std::collections::BTreeMap::<(String, String), usize>::new();
    let mut ok_lists = std::collections::BTreeMap::<String, usize>::new();
    // Successful lists by what they read: path and selectors (a list's first page; the pages
    // after it carry `continue`).
    let mut lists_of = std::collections::BTreeMap::<(String, String), usize>::new();
    for line in text.lines() {
        let Ok(e) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if e["user"]["username"] != SA {
            continue;
        }
        let verb = e["verb"].as_str().unwrap_or("").to_string();
        let resource = e["objectRef"]["resource"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let sub = e["objectRef"]["subresource"].as_str().unwrap_or("");
        let resource = if sub.is_empty() {
            resource
        } else {
            format!("{resource}/{sub}")
        };
        let uri = e["requestURI"].as_str().unwrap_or("");
        let (path, query) = uri.split_once('?').unwrap_or((uri, ""));
        let params: Vec<&str> = query.split('&').collect();
        if e["stage"] == "ResponseComplete"
            && verb == "list"
            && e["responseStatus"]["code"] == 200
            && !params.iter().any(|p| p.starts_with("continue="))
        {
            *ok_lists.entry(resource.clone()).or_default() += 1;
            let selectors: Vec<&str> = params
                .iter()
                .copied()
                .filter(|p| p.starts_with("labelSelector=") || p.starts_with("fieldSelector="))
                .collect();
            *lists_of
                .entry((resource.clone(), format!("{path}?{}", selectors.join("&"))))
                .or_default() += 1;
        }
        if seen.insert(e["auditID"].as_str().unwrap_or("").to_string()) {
            *verbs.entry((verb, resource)).or_default() += 1;
        }
    }
    eprintln!("watch_e2e: the watch's requests (verb, resource): {verbs:?}");
    assert!(!verbs.is_empty(), "no request of {SA} in the audit log");
    for (verb, resource) in verbs.keys() {
        let read = ["get", "list", "watch"].contains(&verb.as_str());
        // Access reviews are questions to the authorizer, stored nowhere: doctor confirms a refusal
        // a log shows with them (a SelfSubjectAccessReview needs no grant: system:basic-user).
        let allowed_create = verb == "create"
            && ["events", "subjectaccessreviews", "selfsubjectaccessreviews"]
                .contains(&resource.as_str());
        assert!(read || allowed_create, "{verb} {resource}");
    }
    assert!(verbs.contains_key(&("watch".into(), "flinkdeployments".into())));
    assert!(verbs.contains_key(&("create".into(), "events".into())));
    // Listed once, then watched: no periodic re-list, and no list per diagnosis, of anything the
    // diagnosis reads (the first wave's kinds and the installation's and other modes' reads, each
    // a watch of its own). A list again only after a 410 Gone, which the watch counts: other test
    // binaries replace the flinkdeployments CRD (releases_e2e seeds each release's), and the API
    // server then ends that CRD's watches and answers the resumed one with 410 (its watch cache
    // began again).
    eprintln!("watch_e2e: successful lists: {lists_of:?}, re-lists after 410: {relists:?}");
    // The diagnosis ran several times (the start, the fault, its removal), so a read made per
    // diagnosis would show here as several lists of one path.
    for (kind, n) in &ok_lists {
        let gone = relists.get(kind).copied().unwrap_or(0);
        let reads: Vec<_> = lists_of.iter().filter(|((k, _), _)| k == kind).collect();
        let again: usize = reads.iter().map(|(_, n)| **n - 1).sum();
        assert!(
            again <= gone,
            "{kind}: {n} lists of {} reads, {gone} after 410: {reads:?}",
            reads.len()
        );
    }
    // The installation's reads are among them: the operator's Deployments wherever they run
    // (every Deployment, kept only when it runs an operator's image), the webhooks, the CRDs by
    // name.
    for kind in [
        "deployments",
        "validatingwebhookconfigurations",
        "customresourcedefinitions",
        "configmaps",
    ] {
        assert!(ok_lists.contains_key(kind), "{kind}: {ok_lists:?}");
    }
    for kind in ["flinkdeployments", "namespaces", "serviceaccounts", "nodes"] {
        let gone = relists.get(kind).copied().unwrap_or(0);
        assert_eq!(
            ok_lists.get(kind),
            Some(&(1 + gone)),
            "{kind}: {ok_lists:?}"
        );
        let watches = verbs.get(&("watch".into(), kind.into())).copied();
        // A custom resource's watches end when its CRD's spec or accepted names change (the API
        // server then tears that resource's storage down and builds it anew:
        // kubernetes@v1.36.3:staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
        // `updateCustomResourceDefinition`), and the watcher resumes from its resourceVersion with
        // no list: the CRDs seeded just before the watch started may still have their names
        // being accepted.
        // The one list above shows no re-list happened; a resumed watch is allowed for those.
        let custom = kind.starts_with("flink");
        if gone == 0 && !custom {
            assert_eq!(watches, Some(1), "{kind}: {verbs:?}");
        } else if gone == 0 {
            assert!(watches >= Some(1), "{kind}: {verbs:?}");
        } else {
            // A watch after each new list (and the resumed watches the 410 answered).
            assert!(watches >= Some(1 + gone), "{kind}: {verbs:?}");
        }
    }
    // Secrets are read by name, never listed or watched.
    assert!(!ok_lists.contains_key("secrets"), "{ok_lists:?}");
}

/// `kubectl_flink_relists_total` by resource.
fn relists(metrics: &str) -> std::collections::BTreeMap<String, usize> {
    metrics
        .lines()
        .filter_map(|l| l.strip_prefix("kubectl_flink_relists_total{resource=\""))
        .filter_map(|l| {
            let (kind, rest) = l.split_once('"')?;
            let n: f64 = rest.rsplit(' ').next()?.parse().ok()?;
            Some((kind.to_string(), n as usize))
        })
        .collect()
}
