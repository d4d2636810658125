//! The reader's tests, most through `triage`, its first user (rank and lint included).

use super::*;
use crate::commands::triage::{triage_reader, triage_text, write_outcome, Triaged};
use crate::render::Style;
use std::path::Path;

fn ids(o: &Triaged) -> Vec<&'static str> {
    o.report.findings.iter().map(|f| f.rule).collect()
}

const CHAIN: &str = r#"2026-11-28 09:39:10,001 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] -  Starting KubernetesApplicationClusterEntrypoint (Version: 1.20.1, Scala: 2.12, Rev:abc, Date:2025-02-01T00:00:00+01:00)
2026-11-28 09:39:12,034 WARN  org.apache.flink.kubernetes.KubernetesResourceManagerDriver [] - Error while watching the pods
org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User "system:serviceaccount:analytics:flink" cannot watch resource "pods" in API group "" in the namespace "analytics".
Caused by: org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: pods is forbidden: User "system:serviceaccount:analytics:flink" cannot watch resource "pods" in API group "" in the namespace "analytics"
2026-11-28 09:39:13,301 ERROR org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Fatal error occurred in ResourceManager.
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
2026-11-28 09:39:13,305 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Fatal error occurred in the cluster entrypoint.
2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process...
"#;

#[test]
fn the_403_chain_is_one_root_with_its_symptoms() {
    let o = triage_text(CHAIN, "jm.log");
    let f = &o.report.findings;
    assert_eq!(f.len(), 2, "{f:#?}");
    assert_eq!(f[0].category, Category::RbacForbidden);
    assert!(f[0].caused_by.is_none());
    assert_eq!(f[0].count, 2);
    // The one RBAC plan doctor and can-i print: the JobManager's whole set, bound to the
    // account it runs as (flink, which exists: no new ServiceAccount).
    assert!(
        !f[0].fix.contains("kind: ServiceAccount\nmetadata"),
        "{}",
        f[0].fix
    );
    for part in [
        "resources: [\"pods\"]\n    verbs: [\"get\", \"list\", \"watch\", \"create\", \"delete\"]",
        "kind: RoleBinding\nmetadata:\n  name: flink-jobmanager",
    ] {
        assert!(f[0].fix.contains(part), "{part}\n{}", f[0].fix);
    }
    assert!(
        f[0].verify.contains(
            "kubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:flink"
        ),
        "{}",
        f[0].verify
    );
    assert_eq!(f[1].category, Category::FlinkFatalExit);
    assert_eq!(f[1].caused_by.as_deref(), Some(f[0].id.as_str()));
    assert_eq!(f[1].count, 4);
    assert!(f[0].evidence[0].starts_with("L3: "), "{:?}", f[0].evidence);
    assert_eq!(o.lines, 8);
}

#[test]
fn repeated_lines_fold_into_one_finding_with_a_count() {
    let line = "java.lang.OutOfMemoryError: Java heap space\n";
    let o = triage_text(&line.repeat(50), "tm.log");
    assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
    let f = &o.report.findings[0];
    assert_eq!(f.count, 50);
    // The kept lines are one text: shown once, with where it was printed (triage).
    assert_eq!(
        f.evidence,
        [
            "L1, L2, L3, L4, L5 (x5): java.lang.OutOfMemoryError: Java heap space",
            "… and 45 more matching lines"
        ]
    );
    assert_eq!(MAX_EVIDENCE, 5);
}

#[test]
fn status_error_json_is_decoded_in_every_quoting() {
    let json = r#"{"type":"org.apache.flink.kubernetes.operator.exception.ReconciliationException","message":"org.apache.flink.client.deployment.ClusterDeploymentException: Could not create Kubernetes cluster \"orders\".","throwableList":[{"type":"org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException","message":"Failure executing: POST at: https://10.96.0.1/apis/apps/v1/namespaces/analytics/deployments. Message: deployments.apps is forbidden: User \"system:serviceaccount:flink-operator:flink-operator\" cannot create resource \"deployments\" in API group \"apps\" in the namespace \"analytics\"."}]}"#;
    let escaped = serde_json::to_string(json).unwrap();
    for text in [
        json.to_string(),
        format!("  error: '{}'", json.replace('\'', "''")),
        format!("    \"error\": {escaped},"),
    ] {
        let o = triage_text(&text, "status");
        assert_eq!(ids(&o), ["SIG-K8S-FORBIDDEN-OPERATOR"], "{text}");
        let f = &o.report.findings[0];
        // The planner's chart rules in the refusing namespace (FLK005's objects), which grant
        // the refused `create deployments.apps`.
        assert!(
            f.fix
                .contains("kind: Role\nmetadata:\n  name: flink-operator\n  namespace: analytics")
                && f.fix
                    .contains("apiGroups: [\"apps\"]\n    resources: [\"deployments\"]"),
            "{}",
            f.fix
        );
        assert!(f.evidence[0].starts_with("L1: "));
    }
}

#[test]
fn empty_binary_and_crlf_inputs_are_safe() {
    assert!(triage_text("", "empty").report.findings.is_empty());
    let garbage: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let o = triage_reader(&garbage[..], "bin").unwrap();
    assert!(o.report.findings.is_empty());
    let crlf = "INFO ok\r\njava.lang.OutOfMemoryError: Metaspace\r\n";
    let o = triage_text(crlf, "crlf");
    assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
    assert!(!o.report.findings[0].evidence[0].contains('\r'));
    let mut bad =
        b"Caused by: java.lang.OutOfMemoryError: Direct buffer memory \xff\xfe\n".to_vec();
    bad.extend_from_slice(b"\xc3\x28 more\n");
    let o = triage_reader(&bad[..], "latin").unwrap();
    assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
}

#[test]
fn a_huge_single_line_is_read_in_bounded_segments() {
    let mut text = "x".repeat(MAX_SEGMENT * 2 + 10);
    text.push_str(" java.lang.OutOfMemoryError: Java heap space\nnext line\n");
    let o = triage_text(&text, "big");
    assert_eq!(o.lines, 2);
    assert_eq!(ids(&o), ["SIG-JVM-OOM"]);
    assert!(o.report.findings[0].evidence[0].starts_with("L1: "));
}

#[test]
fn the_flink_version_from_the_banner_names_the_plugin_jar() {
    let text = format!("{}\nCaused by: org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 's3'. The scheme is directly supported by Flink through the following plugin(s): flink-s3-fs-hadoop, flink-s3-fs-presto.\n", CHAIN.lines().next().unwrap());
    let o = triage_text(&text, "jm.log");
    assert!(
        o.report.findings[0]
            .fix
            .contains("ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-1.20.1.jar"),
        "{}",
        o.report.findings[0].fix
    );
}

#[test]
fn oomkilled_worker_explains_lost_taskmanagers_and_missing_slots() {
    let text = "Worker orders-taskmanager-1-1 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)
java.util.concurrent.TimeoutException: Heartbeat of TaskManager with id orders-taskmanager-1-2 timed out.
org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.
";
    let o = triage_text(text, "jm.log");
    let f = &o.report.findings;
    assert_eq!(f[0].category, Category::OomKilled, "{f:#?}");
    assert!(
        f[1..]
            .iter()
            .all(|s| s.caused_by.as_deref() == Some(f[0].id.as_str())),
        "{f:#?}"
    );
    assert_eq!(f.len(), 3);
}

/// A TaskManager container YARN killed for memory, as Flink's JobManager log quotes the
/// NodeManager's diagnostics (YarnResourceManagerDriver's `marked as failed` text, Hadoop 2 and 3
/// wordings), and the symptoms it leaves: the RPC association gated, the heartbeat timed out.
#[test]
fn a_yarn_memory_kill_is_the_first_finding_over_the_lost_taskmanager() {
    let symptoms = "2026-11-28 09:41:02,140 WARN  akka.remote.ReliableDeliverySupervisor [] - Association with remote system [akka.tcp://flink@worker-7.example.com:38211] has failed, address is now gated for [50] ms. Reason: [Disassociated]
2026-11-28 09:41:12,300 INFO  org.apache.flink.runtime.jobmaster.JobMaster [] - Heartbeat of TaskManager with id container_e05_1732780800000_0007_01_000003(worker-7.example.com:8041) timed out.
";
    for (kill, rule, option) in [
        (
            " Exit code:-104.\n Diagnostics:Container [pid=28417,containerID=container_e05_1732780800000_0007_01_000003] is running beyond physical memory limits. Current usage: 4.1 GB of 4 GB physical memory used; 6.3 GB of 8.4 GB virtual memory used. Killing container.",
            "SIG-YARN-PMEM-KILLED",
            "`taskmanager.memory.process.size: 5248m`",
        ),
        (
            " Exit code:-104.\n Diagnostics:[2026-11-28 09:41:02.118]Container [pid=28417,containerID=container_e05_1732780800000_0007_01_000003] is running 107374182B beyond the 'PHYSICAL' memory limit. Current usage: 4.1 GB of 4 GB physical memory used; 6.3 GB of 8.4 GB virtual memory used. Killing container.",
            "SIG-YARN-PMEM-KILLED",
            "`taskmanager.memory.jvm-overhead.fraction: 0.2`",
        ),
        (
            " Exit code:-103.\n Diagnostics:Container [pid=28417,containerID=container_e05_1732780800000_0007_01_000003] is running beyond virtual memory limits. Current usage: 1.3 GB of 2 GB physical memory used; 4.6 GB of 4.2 GB virtual memory used. Killing container.",
            "SIG-YARN-VMEM-KILLED",
            "`yarn.nodemanager.vmem-check-enabled` to `false`",
        ),
    ] {
        let text = format!(
            "2026-11-28 09:41:02,131 INFO  org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Worker container_e05_1732780800000_0007_01_000003 is terminated. Diagnostics: Container container_e05_1732780800000_0007_01_000003 marked as failed.\n{kill}\n{symptoms}"
        );
        let o = triage_text(&text, "jm.log");
        let f = &o.report.findings;
        assert_eq!(f[0].category, Category::OomKilled, "{f:#?}");
        assert_eq!(f[0].rule, rule, "{f:#?}");
        assert!(f[0].caused_by.is_none());
        assert!(f[0].fix.contains(option), "{}", f[0].fix);
        assert!(
            f[0].title.contains("a TaskManager (container_e05_1732780800000_0007_01_000003)"),
            "{}",
            f[0].title
        );
        // Every symptom hangs under the kill: the gated association, the worker terminated and
        // the heartbeat timeout (one taskmanager_lost finding).
        for rule in ["SIG-AKKA-GATED", "SIG-TM-WORKER-TERMINATED"] {
            let s = f.iter().find(|s| s.rule == rule).expect(rule);
            assert_eq!(s.caused_by.as_deref(), Some(f[0].id.as_str()), "{f:#?}");
        }
    }
}

#[test]
fn the_nearest_preceding_cause_wins() {
    let text = "pods is forbidden: User \"system:serviceaccount:prod:flink\" cannot watch resource \"pods\" in API group \"\" in the namespace \"prod\"
org.apache.flink.util.concurrent.FutureUtils$RetryException: Could not complete the operation. Number of retries has been exhausted.
Caused by: java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred.
";
    let o = triage_text(text, "jm.log");
    let f = &o.report.findings;
    let rbac = f
        .iter()
        .find(|f| f.category == Category::RbacForbidden)
        .unwrap();
    let fatal = f
        .iter()
        .find(|f| f.category == Category::FlinkFatalExit)
        .unwrap();
    assert_eq!(fatal.caused_by.as_deref(), Some(rbac.id.as_str()), "{f:#?}");
}

#[test]
fn a_pasted_flinkdeployment_is_linted_with_the_lines_of_the_paste() {
    let text = "My job does not start, here is my deployment:\n\n```yaml\napiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: basic-example\nspec:\n  image: flink:1.15\n  flinkVersion: v1_14\n  serviceAccount: flink\n  jobManager:\n    resource: {memory: 2048m, cpu: 1}\n  taskManager:\n    resource: {memory: 2048m, cpu: 1}\n```\nWhat is wrong?\n";
    let o = triage_text(text, "paste");
    let f = o
        .report
        .findings
        .iter()
        .find(|f| f.category == Category::FlinkVersionMismatch)
        .unwrap_or_else(|| panic!("{:#?}", o.report.findings));
    assert!(
        f.evidence
            .iter()
            .any(|e| e.starts_with("paste:10: spec.flinkVersion: v1_14")),
        "{:?}",
        f.evidence
    );
    // Prose after the fence is not part of the manifest; a paste without one stays quiet.
    assert!(
        triage_text("apiVersion: flink.apache.org/v1beta1 is what I use\n", "p")
            .report
            .findings
            .is_empty()
    );
}

#[test]
fn the_deepest_cause_of_a_java_chain_is_the_root() {
    let text = "org.apache.flink.client.program.ProgramInvocationException: The main method caused an error: Could not load the provided entrypoint class.\n\tat org.apache.flink.client.program.PackagedProgram.callMainMethod(PackagedProgram.java:372)\nCaused by: java.io.IOException: JAR file does not exist '/opt/flink/usrlib/job.jar'\n\tat org.apache.flink.util.JarUtils.checkJarFile(JarUtils.java:46)\n";
    let o = triage_text(text, "jm.log");
    let f = &o.report.findings;
    assert_eq!(f[0].category, Category::JobJarNotFound, "{f:#?}");
    assert!(f[1..].iter().all(|s| s.caused_by.is_some()), "{f:#?}");
}

#[test]
fn a_pasted_describe_names_the_pod_in_the_commands() {
    let text = "Name:             recommender-taskmanager-1-1\nNamespace:        analytics\nPriority:         0\nStart Time:       Sat, 28 Nov 2026 09:00:00 +0000\nContainers:\n  flink-main-container:\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    239\n";
    let o = triage_text(text, "describe");
    let f = &o.report.findings[0];
    assert!(
        f.fix
            .contains("kubectl logs recommender-taskmanager-1-1 -n analytics --previous"),
        "{}",
        f.fix
    );
    // A described Deployment has no pod of that name: the pod stays open, a variable to set.
    let o = triage_text(&text.replace("Start Time:", "Selector:  "), "describe");
    let fix = &o.report.findings[0].fix;
    assert!(
        fix.starts_with("POD=...  # the pod that printed this\n")
            && fix.contains("kubectl logs \"${POD}\" -n analytics"),
        "{fix}"
    );
}

/// The reading triage did before it searched whole chunks, kept as the reference: every
/// line (segments of at most `MAX_SEGMENT` bytes) read one by one, every line read for the
/// context words, and every line holding a literal or a marker matched.
fn triage_by_line(text: &[u8], source: &str) -> Triaged {
    use std::io::BufRead;
    let mut reader = io::BufReader::new(text);
    let mut state = State::default();
    let mut manifests = ManifestCapture::default();
    let (mut line_no, mut continuing, mut bytes) = (0usize, false, 0u64);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_SEGMENT as u64)
            .read_until(b'\n', &mut buf)
            .unwrap();
        if n == 0 {
            break;
        }
        bytes += n as u64;
        if !continuing {
            line_no += 1;
        }
        continuing = buf.last() != Some(&b'\n') && n == MAX_SEGMENT;
        let mut end = buf.len();
        while end > 0 && (buf[end - 1] == b'\n' || buf[end - 1] == b'\r') {
            end -= 1;
        }
        let raw = &buf[..end];
        manifests.line(raw, line_no);
        readings().note_context(raw, &mut state.context);
        if state.reads_prose() {
            state.join_wrapped(raw, line_no);
            state.read_description(raw, line_no);
        }
        if catalogue().is_candidate(raw) || markers().is_match(raw) {
            state.line(&String::from_utf8_lossy(raw), line_no);
        }
    }
    let (findings, fields) = state.findings(source);
    let read = ReadText {
        findings,
        fields,
        manifests: manifests.into_manifests(),
        lines: line_no,
        bytes,
    };
    // The names the text holds, from its start, as triage keeps it.
    let head = &text[..text.len().min(256 * 1024)];
    let known = crate::signatures::paste::known_from_text(&String::from_utf8_lossy(head));
    crate::commands::triage::triaged_knowing(read, source, &known)
}

/// Hands out a text a few bytes at a time (a pipe, a slow paste).
struct Trickle<'a>(&'a [u8], usize);
impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.1 = (self.1 * 7 + 3) % 4096;
        let n = (self.1 + 1).min(out.len()).min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn rendered(o: &Triaged) -> String {
    let mut out = Vec::new();
    write_outcome(o, crate::cli::Format::Json, &Style::PLAIN, &mut out).unwrap();
    format!(
        "{} lines, {} bytes\n{}",
        o.lines,
        o.bytes,
        String::from_utf8(out).unwrap()
    )
}

#[test]
fn searching_whole_chunks_finds_what_reading_every_line_finds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/triage");
    let mut fixtures: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    fixtures.sort();
    let mut text: Vec<u8> = Vec::new();
    for f in &fixtures {
        text.extend(std::fs::read(f).unwrap());
        text.extend(b"\r\n\n");
    }
    for s in crate::signatures::all() {
        for e in s.examples {
            text.extend(format!("  {e}\r\r\n").into_bytes());
        }
    }
    for r in READINGS {
        for e in r.examples {
            text.extend(format!("{e}\n").into_bytes());
        }
    }
    text.extend(CHAIN.as_bytes());
    text.extend(b"\xff\xfe Caused by: java.lang.OutOfMemoryError: Metaspace \xc3\x28\n");
    text.extend(b"apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: orders\nspec:\n  job:\n    upgradeMode: last-state\n---\n");
    // The prose is read in the first lines only; the context words anywhere. After the
    // first lines, chunks are searched on two threads.
    let late = [
        &b"ordinary line\n".repeat(PROSE_LINES)[..],
        &text.repeat(3 * CHUNK / text.len() + 1),
    ]
    .concat();
    for (name, text) in [("mixed", &text), ("late", &late)] {
        let want = rendered(&triage_by_line(text, name));
        assert_eq!(
            rendered(&triage_reader(&text[..], name).unwrap()),
            want,
            "{name}"
        );
        assert_eq!(
            rendered(&triage_reader(Trickle(text, 0), name).unwrap()),
            want,
            "{name} trickled"
        );
        // Without its last newline.
        let cut = &text[..text.len() - 1];
        assert_eq!(
            rendered(&triage_reader(cut, name).unwrap()),
            rendered(&triage_by_line(cut, name)),
            "{name} cut"
        );
    }
    assert!(rendered(&triage_reader(&text[..], "x").unwrap()).contains("SIG-"));
}

#[test]
fn lines_listed_by_two_threads_are_those_found_on_demand() {
    let mut text = Vec::new();
    let (mut i, mut planted) = (0usize, 0);
    while text.len() < 2 * PARALLEL_MIN {
        text.extend(format!("2026-11-28 INFO ordinary line {i}\n").as_bytes());
        if i % 97 == 0 {
            text.extend(b"Caused by: java.lang.OutOfMemoryError: Metaspace\n");
            planted += 1;
        }
        if i % 131 == 0 {
            text.extend(b"a \\ and apiVersion: v1 and Name: x\n");
            planted += 1;
        }
        i += 1;
    }
    let mut listed = LineStarts::search(&text);
    assert!(matches!(listed, LineStarts::Listed(..)));
    let mut on_demand = LineStarts::OnDemand;
    let mut hits = 0;
    let mut at = 0;
    while at < text.len() {
        let want = on_demand.next(&text, at);
        assert_eq!(listed.next(&text, at), want, "at {at}");
        hits += usize::from(want == Some(at));
        at += memchr::memchr(b'\n', &text[at..]).unwrap() + 1;
    }
    assert_eq!(hits, planted);
}

#[test]
fn lines_longer_than_a_segment_are_cut_as_before() {
    let oom = "java.lang.OutOfMemoryError: Java heap space";
    for (len, tail) in [
        (MAX_SEGMENT, "\n"),
        (MAX_SEGMENT - 1, "\n"),
        (MAX_SEGMENT, ""),
        (2 * MAX_SEGMENT - oom.len() / 2, "\r\nnext\n"),
    ] {
        let mut text = format!("{oom} first\n").into_bytes();
        text.extend(std::iter::repeat_n(b'x', len - oom.len()));
        text.extend(oom.as_bytes());
        text.extend(tail.as_bytes());
        text.extend(format!("Caused by: {oom}\n").as_bytes());
        let want = rendered(&triage_by_line(&text, "long"));
        assert_eq!(rendered(&triage_reader(&text[..], "long").unwrap()), want);
        assert_eq!(
            rendered(&triage_reader(Trickle(&text, 1), "long").unwrap()),
            want
        );
    }
}

#[test]
fn no_match_means_an_empty_report() {
    let o = triage_text("2026-11-28 INFO all good\nWARN nothing to see\n", "ok.log");
    assert!(o.report.findings.is_empty());
    let mut out = Vec::new();
    write_outcome(&o, crate::cli::Format::Table, &Style::PLAIN, &mut out).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .contains("No known problem found"));
}

#[test]
fn an_operator_error_wrapped_over_lines_is_read_whole() {
    // A mail archive's hard wrap of the operator's status.error (operator 1.3, FLINK-30266),
    // cut before it closes.
    let wrapped = "Status | Error   | UPGRADING       | \n{\"type\":\"org.apache.flink.kubernetes.operator.exception.DeploymentFailedException\",\"message\":\"HA\n metadata not available to restore from last state. It is possible that the \njob has finished or terminally failed, or the configmaps have been deleted. \nManual res\n";
    let o = triage_text(wrapped, "jira.txt");
    assert_eq!(ids(&o), ["SIG-HA-METADATA-MISSING"], "{:#?}", o.report);
    assert!(o.report.findings[0].evidence[0].starts_with("L2: "));
    // Closed on its line: read once, as before.
    let one = "{\"type\":\"org.apache.flink.kubernetes.operator.exception.UpgradeFailureException\",\"message\":\"HA metadata not available to restore from last state.\"}\n{\"type\":\"x\",\n\"message\":\"ok\"}\n";
    let o = triage_text(one, "x");
    assert_eq!(ids(&o), ["SIG-HA-METADATA-MISSING"]);
    assert_eq!(o.report.findings[0].count, 1);
    // Prose wrapped mid-sentence is not put together: only an operator error is.
    let prose = "the operator fails the restart with RestoreFailed (\"HA metadata is not \navailable to restore from last state\")\n";
    assert!(triage_text(prose, "x").report.findings.is_empty());
    assert!(json_closes("{\"a\":\"}{\\\"\"}") && !json_closes("{\"a\":{\"b\":1}"));
}

const STREAMPARK_WATCHER: &str = "2023-08-17 08:20:01 | WARN  | ForkJoinPool-1-worker-4 | org.apache.streampark.flink.kubernetes.watcher.FlinkJobStatusWatcher:220] Failed to visit remote flink jobs on kubernetes-native-mode cluster, and the retry access logic is performed.\n";

#[test]
fn streampark_watcher_alone_is_an_unreachable_rest_endpoint() {
    let o = triage_text(STREAMPARK_WATCHER, "streampark.log");
    assert_eq!(ids(&o), ["SIG-STREAMPARK-REST-UNREACHABLE"]);
}

#[test]
fn streampark_watcher_finding_the_deployment_gone_takes_the_unreachable_endpoint_back() {
    for line in [
        "2023-08-17 08:20:01 | INFO  | ForkJoinPool-1-worker-4 | org.apache.streampark.flink.kubernetes.watcher.FlinkJobStatusWatcher:265] The deployment is deleted and enters the task failure process.\n",
        "2023-08-17 08:20:01 | INFO  | ForkJoinPool-1-worker-4 | org.apache.streampark.flink.kubernetes.watcher.FlinkJobStatusWatcher:257] Enter the task failure deletion process.\n",
        "10:09:10.101 [pool-10-thread-5] INFO org.apache.streampark.flink.kubernetes.watcher.FlinkJobStatusWatcher - flink-sql-demo deployment is deleted and enters the task failure process.\n",
    ] {
        let text = format!("{STREAMPARK_WATCHER}{line}");
        let o = triage_text(&text, "streampark.log");
        assert!(ids(&o).is_empty(), "{:?}", ids(&o));
    }
}

#[test]
fn a_withdrawing_line_names_a_catalogue_signature() {
    for (id, literal) in WITHDRAWN {
        assert!(by_id(id).is_some(), "{id} ({literal})");
    }
}

#[test]
fn the_scope_counts_lines_in_words() {
    assert_eq!(triage_text("one line", "stdin").scope(), "stdin (1 line)");
    assert_eq!(triage_text("a\nb\n", "x.log").scope(), "x.log (2 lines)");
}

/// doctor's reading of a container log (`scan`) and `logs --highlight` (`line_matches`) see what
/// triage sees: the message inside a JSON log line is decoded, and one fact is kept per category.
#[test]
fn scan_and_line_matches_read_lines_as_triage_does() {
    let json = r#"{"level":"ERROR","message":"Exception: pods is forbidden: User \"system:serviceaccount:analytics:flink\" cannot watch resource \"pods\" in API group \"\" in the namespace \"analytics\""}"#;
    let text = format!(
        "INFO fine\n{json}\r\nINFO fine again\njava.lang.OutOfMemoryError: Java heap space\n"
    );
    let scanned = scan(&text);
    let got: Vec<(usize, &str)> = scanned
        .iter()
        .map(|m| (m.line_no, m.signature.category.id()))
        .collect();
    assert_eq!(
        got,
        vec![(2, "rbac_forbidden"), (4, "jvm_out_of_memory")],
        "{scanned:#?}"
    );
    // The OOM line names its pool, not the catch-all, once.
    assert_eq!(scanned[1].signature.id, "SIG-JVM-OOM");
    let first = |line: &str| line_matches(line, 1).first().map(|m| m.signature.id);
    assert_eq!(first(json), Some(scanned[0].signature.id));
    let triaged = triage_text(&text, "t");
    let categories: Vec<&str> = triaged
        .report
        .findings
        .iter()
        .map(|f| f.category.id())
        .collect();
    assert!(categories.contains(&"rbac_forbidden") && categories.contains(&"jvm_out_of_memory"));
}

/// Specific over generic (issue 31, item 4): a symptom category (flink_fatal_exit, taskmanager_lost,
/// container_exit_zero_restarting) never ranks above a specific cause read from the same text.
/// Every example of every non-symptom signature is put before Flink's fatal-exit lines, and the
/// first finding must be a cause, not the way the process ended.
#[test]
fn a_symptom_never_ranks_above_a_specific_cause_from_the_same_text() {
    const FATAL: &str = "2026-11-28 09:39:13,305 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Fatal error occurred in the cluster entrypoint.\n2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process...\n";
    let mut bad = Vec::new();
    let mut checked = 0;
    for s in crate::signatures::all() {
        if s.category.is_symptom() {
            continue;
        }
        for e in s.examples {
            let o = triage_text(&format!("{e}\n{FATAL}"), "test");
            let Some(first) = o.report.findings.first() else {
                continue;
            };
            // Only texts where a specific cause was read at all: the reading of the example itself
            // is tested with its signature.
            if !o.report.findings.iter().any(|f| !f.category.is_symptom()) {
                continue;
            }
            checked += 1;
            if first.category.is_symptom() {
                bad.push(format!("{}: {} first, over {e}", s.id, first.rule));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} examples read a specific cause"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Honest when unsure: with only the fatal exit in the text, triage says so and names the command
/// that gets the telling text.
#[test]
fn only_a_symptom_says_which_text_would_tell_and_how_to_get_it() {
    let o = triage_text("2026-11-28 09:39:13,309 ERROR org.apache.flink.util.FatalExitExceptionHandler [] - FATAL: Thread 'flink-pekko.actor.default-dispatcher-5' produced an uncaught exception. Stopping the process...\n", "test");
    assert!(!o.report.findings.is_empty());
    assert!(o.report.findings.iter().all(|f| f.category.is_symptom()));
    let fix = &o.report.findings[0].fix;
    assert!(
        fix.contains("Nothing in this text names the cause"),
        "{fix}"
    );
    assert!(
        fix.contains("--previous") && fix.contains("kubectl describe pod"),
        "{fix}"
    );
}
