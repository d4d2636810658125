//! What the `logs` end-to-end test files share: the test cluster's paths, a seeded namespace with
//! a native Flink deployment `orders` (a JobManager pod with two containers, two TaskManager
//! pods, current and previous logs) plus a pod of another application, and ways to run the
//! plugin once or following.
#![allow(dead_code)] // each test binary uses its own subset

use crate::common::{harness_dir, need, no_cluster};
use chrono::{DateTime, Duration as ChronoDuration, Utc};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");
pub const JM: &str = "orders-5d8f9c7b6d-x7k2p";
pub const TM1: &str = "orders-taskmanager-1-1";
pub const TM2: &str = "orders-taskmanager-1-2";
pub const TM3: &str = "orders-taskmanager-1-3";
pub const MAIN: &str = "flink-main-container";
pub const SIDECAR: &str = "log-shipper";
/// The plugin's identity with the e2e kubeconfig (the harness's static token).
pub const E2E_USER: &str = "kubectl-flink-e2e";
pub const FORBIDDEN_LINE: &str = "org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: \
Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/NS/pods. Message: pods is forbidden: \
User \"system:serviceaccount:NS:default\" cannot watch resource \"pods\" in API group \"\" in the namespace \"NS\".";

pub struct Harness {
    pub admin: PathBuf,
    pub e2e: PathBuf,
    pub limited: PathBuf,
    pub kubectl: PathBuf,
    pub log_root: PathBuf,
    pub audit_log: PathBuf,
    pub node: String,
}

pub fn harness() -> Result<&'static Harness, String> {
    static H: OnceLock<Result<Harness, String>> = OnceLock::new();
    H.get_or_init(|| {
        harness_dir()?;
        Ok(Harness {
            admin: need("KUBECONFIG")?,
            e2e: need("KUBE_E2E_KUBECONFIG")?,
            limited: need("KUBE_LIMITED_KUBECONFIG")?,
            kubectl: need("KUBE_HARNESS_KUBECTL")?,
            log_root: need("KUBE_HARNESS_LOG_ROOT")?,
            audit_log: need("KUBE_AUDIT_LOG")?,
            node: std::env::var("KUBE_HARNESS_NODE").unwrap_or_else(|_| "fake-node".into()),
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

pub fn harness_or_skip(test: &str) -> Option<&'static Harness> {
    match harness() {
        Ok(h) => Some(h),
        Err(why) => {
            no_cluster(env!("CARGO_CRATE_NAME"), test, &why);
            None
        }
    }
}

// ------------------------------------------------------------------------------------ fixtures

pub fn log4j(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S,%3f").to_string()
}

pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// `n` lines for one stream, the first ones two hours old, the last `recent` ones a few seconds old.
pub fn lines(marker: &str, n: usize, recent: usize, now: DateTime<Utc>) -> Vec<String> {
    (0..n)
        .map(|i| {
            let t = if i + recent >= n {
                now - ChronoDuration::seconds(5) + ChronoDuration::milliseconds(i as i64)
            } else {
                now - ChronoDuration::hours(2) + ChronoDuration::seconds(i as i64)
            };
            format!(
                "{} INFO  org.apache.flink.Test [] - {marker} line {i}",
                log4j(t)
            )
        })
        .collect()
}

pub fn container_status(
    name: &str,
    restarts: i32,
    last_exit: Option<i32>,
    started: DateTime<Utc>,
) -> String {
    let last = match last_exit {
        Some(code) => format!(
            ", lastState: {{terminated: {{exitCode: {code}, reason: Error, startedAt: \"{}\", finishedAt: \"{}\"}}}}",
            rfc3339(started - ChronoDuration::minutes(5)),
            rfc3339(started - ChronoDuration::seconds(10))
        ),
        None => String::new(),
    };
    format!(
        "    - {{name: {name}, image: flink:1.20, imageID: \"docker.io/library/flink@sha256:00\", ready: true, started: true, \
         restartCount: {restarts}, state: {{running: {{startedAt: \"{}\"}}}}{last}}}",
        rfc3339(started)
    )
}

pub fn pod_yaml(
    ns: &str,
    name: &str,
    labels: &str,
    containers: &[&str],
    statuses: &[String],
    node: &str,
    started: DateTime<Utc>,
) -> String {
    let specs: String = containers
        .iter()
        .map(|c| format!("    - {{name: {c}, image: flink:1.20}}\n"))
        .collect();
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: {ns}\n  labels: {labels}\nspec:\n  nodeName: {node}\n  \
         containers:\n{specs}status:\n  phase: Running\n  startTime: \"{}\"\n  hostIP: 127.0.0.1\n  podIP: 10.244.0.9\n  \
         containerStatuses:\n{}\n",
        rfc3339(started),
        statuses.join("\n")
    )
}

pub const JM_LABELS: &str = "{app: orders, component: jobmanager, type: flink-native-kubernetes, pod-template-hash: 5d8f9c7b6d}";
pub const TM_LABELS: &str = "{app: orders, component: taskmanager, type: flink-native-kubernetes}";

pub struct Fixture {
    pub ns: String,
    pub now: DateTime<Utc>,
    pub _dir: tempfile::TempDir,
}

static SEQ: AtomicUsize = AtomicUsize::new(0);

/// A namespace name for one test's objects, `<prefix>-<test>-<pid>-<n>`: no other test of this
/// binary (`n`) nor of another test binary on the same cluster (the process id) uses it.
pub fn unique_namespace(prefix: &str, test: &str) -> String {
    format!(
        "{prefix}-{test}-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::SeqCst)
    )
}

/// Seeds a fresh namespace with the `orders` deployment and returns its name.
pub fn seed(h: &Harness, test: &str, jm_lines: usize) -> Fixture {
    let ns = unique_namespace("logs", test);
    let now = Utc::now();
    let started = now - ChronoDuration::minutes(30);
    let dir = tempfile::tempdir().expect("temp dir");
    let b = dir.path();
    let mut yaml = format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n---\n");
    yaml += &pod_yaml(
        &ns,
        JM,
        JM_LABELS,
        &[MAIN, SIDECAR],
        &[
            container_status(MAIN, 1, Some(239), started),
            container_status(SIDECAR, 0, None, started),
        ],
        &h.node,
        started,
    );
    for tm in [TM1, TM2] {
        yaml += "---\n";
        yaml += &pod_yaml(
            &ns,
            tm,
            TM_LABELS,
            &[MAIN],
            &[container_status(MAIN, 0, None, started)],
            &h.node,
            started,
        );
    }
    yaml += "---\n";
    yaml += &pod_yaml(
        &ns,
        "web-7f7f7f-abcde",
        "{app: web}",
        &[MAIN],
        &[container_status(MAIN, 0, None, started)],
        &h.node,
        started,
    );
    std::fs::write(b.join("objects.yaml"), yaml).expect("write bundle");

    let write = |pod: &str, file: &str, content: Vec<String>| {
        let d = b.join("logs").join(&ns).join(pod);
        std::fs::create_dir_all(&d).expect("mkdir logs");
        std::fs::write(d.join(file), content.join("\n") + "\n").expect("write log");
    };
    let mut jm = lines("JM-CURRENT", jm_lines, 3, now);
    jm.insert(
        jm.len() - 3,
        format!(
            "{} WARN  Fabric8FlinkKubeClient [] - {}",
            log4j(now - ChronoDuration::seconds(6)),
            FORBIDDEN_LINE.replace("NS", &ns)
        ),
    );
    write(JM, &format!("{MAIN}.log"), jm);
    let mut prev = lines("JM-PREVIOUS", 20, 0, now - ChronoDuration::minutes(31));
    prev.push(format!(
        "{} ERROR ClusterEntrypoint [] - Fatal error occurred in the cluster entrypoint.",
        log4j(now - ChronoDuration::minutes(31))
    ));
    write(JM, &format!("{MAIN}.previous.log"), prev);
    write(JM, &format!("{SIDECAR}.log"), lines("SIDECAR", 10, 2, now));
    write(
        TM1,
        &format!("{MAIN}.log"),
        lines("TM1-CURRENT", 10, 2, now),
    );
    write(
        TM2,
        &format!("{MAIN}.log"),
        lines("TM2-CURRENT", 10, 2, now),
    );
    write(
        "web-7f7f7f-abcde",
        &format!("{MAIN}.log"),
        lines("WEB", 5, 1, now),
    );

    crate::common::seed(b, &[]).unwrap_or_else(|e| panic!("{e}"));
    Fixture { ns, now, _dir: dir }
}

// ------------------------------------------------------------------------------------ running

pub fn flink_cmd(h: &Harness, kubeconfig: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(PLUGIN);
    c.args(args)
        .env("KUBECONFIG", kubeconfig)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let _ = h;
    c
}

/// Runs to completion (60 s at most).
pub fn flink(h: &Harness, args: &[&str]) -> (i32, String, String) {
    run_as(h, &h.e2e, args)
}

pub fn run_as(h: &Harness, kubeconfig: &Path, args: &[&str]) -> (i32, String, String) {
    let mut child = flink_cmd(h, kubeconfig, args)
        .spawn()
        .expect("start kubectl-flink");
    let out = wait_output(&mut child, Duration::from_secs(60), args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn wait_output(child: &mut Child, limit: Duration, what: &[&str]) -> Output {
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut r) = stdout {
            let _ = r.read_to_end(&mut v);
        }
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut r) = stderr {
            let _ = r.read_to_end(&mut v);
        }
        v
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("kubectl-flink {what:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
    }
}

pub fn kubectl(h: &Harness, args: &[&str], stdin: Option<&str>) {
    let mut c = Command::new(&h.kubectl);
    c.arg("--kubeconfig").arg(&h.admin).args(args);
    let out = super::common::output(&mut c, stdin);
    assert!(
        out.status.success(),
        "kubectl {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A running `logs -f`, its output collected line by line as it comes.
pub struct Follower {
    pub child: Child,
    pub stdout: Arc<Mutex<Vec<String>>>,
    pub stderr: Arc<Mutex<Vec<String>>>,
}

impl Follower {
    pub fn start(h: &Harness, args: &[&str]) -> Follower {
        let mut child = flink_cmd(h, &h.e2e, args)
            .spawn()
            .expect("start kubectl-flink -f");
        let collect = |r: Box<dyn Read + Send>| {
            let sink = Arc::new(Mutex::new(Vec::new()));
            let s = sink.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(r).lines() {
                    match line {
                        Ok(l) => s.lock().unwrap().push(l),
                        Err(_) => break,
                    }
                }
            });
            sink
        };
        let stdout = collect(Box::new(child.stdout.take().expect("stdout")));
        let stderr = collect(Box::new(child.stderr.take().expect("stderr")));
        Follower {
            child,
            stdout,
            stderr,
        }
    }

    pub fn wait_for(
        &self,
        what: &str,
        stream: &Arc<Mutex<Vec<String>>>,
        pred: impl Fn(&[String]) -> bool,
    ) {
        let deadline = Instant::now() + Duration::from_secs(40);
        while Instant::now() < deadline {
            if pred(&stream.lock().unwrap()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "timed out waiting for {what}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.stdout.lock().unwrap().join("\n"),
            self.stderr.lock().unwrap().join("\n")
        );
    }

    pub fn wait_out(&self, what: &str, needle: &str) {
        let n = needle.to_string();
        self.wait_for(what, &self.stdout, move |l| {
            l.iter().any(|x| x.contains(&n))
        });
    }

    pub fn wait_err(&self, what: &str, needle: &str) {
        let n = needle.to_string();
        self.wait_for(what, &self.stderr, move |l| {
            l.iter().any(|x| x.contains(&n))
        });
    }

    pub fn count_out(&self, needle: &str) -> usize {
        self.stdout
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(needle))
            .count()
    }

    /// Ctrl-C: must exit 0 promptly.
    pub fn interrupt(mut self) -> (i32, Vec<String>, Vec<String>) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("kubectl-flink -f did not stop within 10 s of SIGINT");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        std::thread::sleep(Duration::from_millis(200));
        (
            status.code().unwrap_or(-1),
            self.stdout.lock().unwrap().clone(),
            self.stderr.lock().unwrap().clone(),
        )
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The plugin's requests on the pods of `ns` (not their logs), from the API server's audit log:
/// (verb, stage) each.
pub fn pod_requests(h: &Harness, ns: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(&h.audit_log).expect("read the audit log");
    let s = |e: &Value, p: &str| {
        e.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| {
            s(e, "/user/username") == E2E_USER
                && s(e, "/objectRef/namespace") == ns
                && s(e, "/objectRef/resource") == "pods"
                && s(e, "/objectRef/subresource").is_empty()
        })
        .map(|e| (s(&e, "/verb"), s(&e, "/stage")))
        .collect()
}

pub fn pos(out: &str, needle: &str) -> usize {
    out.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in output:\n{out}"))
}
