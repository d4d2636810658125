use super::*;
use std::collections::{BTreeSet, HashMap};

#[test]
fn ids_unique_patterns_compile_and_explains_resolve() {
    let mut ids = BTreeSet::new();
    for s in all() {
        assert!(ids.insert(s.id), "duplicate signature {}", s.id);
        assert!(
            s.id.starts_with("SIG-")
                && s.id
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'),
            "bad id {}",
            s.id
        );
        assert!(!s.literals.is_empty(), "{} has no literal", s.id);
        Regex::new(s.pattern).unwrap();
        for e in s.explains.iter().chain(s.supersedes) {
            assert!(by_id(e).is_some(), "{} refers to unknown {e}", s.id);
            assert_ne!(*e, s.id, "{} refers to itself", s.id);
        }
        assert!(
            !s.title.is_empty() && !s.explanation.is_empty() && !s.fix.is_empty(),
            "{} lacks text",
            s.id
        );
    }
    assert_eq!(catalogue().regexes.len(), all().len());
}

#[test]
fn explains_graph_has_no_cycle() {
    let graph: HashMap<&str, &[&str]> = all().iter().map(|s| (s.id, s.explains)).collect();
    fn visit<'a>(n: &'a str, g: &HashMap<&'a str, &'a [&'a str]>, path: &mut Vec<&'a str>) {
        assert!(!path.contains(&n), "cycle in explains: {path:?} -> {n}");
        path.push(n);
        for next in g.get(n).copied().unwrap_or(&[]) {
            visit(next, g, path);
        }
        path.pop();
    }
    for s in all() {
        visit(s.id, &graph, &mut Vec::new());
    }
}

/// Every signature says where its text comes from: a public source file at a version, or
/// `observed:` with what was seen.
#[test]
fn every_signature_cites_its_sources() {
    let cited = Regex::new(r"^[\w.-]+/[\w.-]+@[\w.+-]+:\S+$").unwrap();
    for s in all() {
        assert!(!s.sources.is_empty(), "{} cites no source", s.id);
        for src in s.sources {
            assert!(
                cited.is_match(src)
                    || src
                        .strip_prefix("observed:")
                        .is_some_and(|w| !w.trim().is_empty()),
                "{}: source {src:?} is neither owner/repo@version:path nor observed:<what>",
                s.id
            );
        }
    }
}

/// The prefilter must stay cheap: no literal so short or so common that most lines of a
/// healthy log become candidates.
#[test]
fn literals_are_specific() {
    for s in all() {
        for l in s.literals {
            assert!(
                l.chars().count() >= 8,
                "{}: literal {l:?} is too short to be specific",
                s.id
            );
            for common in [
                "Exception",
                "ERROR",
                "error",
                "failed",
                "Failed",
                "INFO",
                "WARN",
                "Caused by",
            ] {
                assert_ne!(*l, common, "{}: literal {l:?} is too common", s.id);
            }
        }
    }
}

/// The literal of a signature must occur in its own pattern's matches, or the regex would
/// never see lines it could match: every example contains one of the literals.
#[test]
fn every_signature_has_examples_that_it_matches_and_that_contain_a_literal() {
    for s in all() {
        assert!(!s.examples.is_empty(), "{} has no example line", s.id);
        for e in s.examples {
            assert!(
                s.literals.iter().any(|l| e.contains(l)),
                "{}: example contains none of its literals: {e}",
                s.id
            );
            let ms = catalogue().match_line(e, 1);
            assert!(
                ms.iter().any(|m| m.signature.id == s.id),
                "{} does not match its example: {e}\nmatched: {:?}",
                s.id,
                ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
            );
        }
    }
}

/// Examples of one signature match other signatures only where that is intended: the other
/// is in the same category, is superseded by (or supersedes) it, or one explains the other
/// (a line that carries both a cause and its effect), or it is listed here.
#[test]
fn examples_do_not_cross_match_unexpectedly() {
    const ALSO: &[(&str, &str)] = &[
        // a 403 message embedded in fabric8's websocket / exec / status wrappers
        ("SIG-FABRIC8-WEBSOCKET-403", "SIG-K8S-FORBIDDEN"),
        ("SIG-FABRIC8-WEBSOCKET-403", "SIG-K8S-FORBIDDEN-DEFAULT-SA"),
        ("SIG-FABRIC8-EXEC-403", "SIG-K8S-FORBIDDEN"),
        ("SIG-FABRIC8-STATUS-403", "SIG-K8S-FORBIDDEN"),
        ("SIG-FABRIC8-FORBIDDEN-CONFIGURED", "SIG-K8S-FORBIDDEN"),
        (
            "SIG-FABRIC8-FORBIDDEN-CONFIGURED",
            "SIG-K8S-FORBIDDEN-OPERATOR",
        ),
        ("SIG-FABRIC8-WEBSOCKET-403", "SIG-FABRIC8-STATUS-403"),
        // a worker killed by its limit is both "worker terminated" and "OOMKilled"
        ("SIG-TM-WORKER-OOMKILLED", "SIG-K8S-OOMKILLED"),
        ("SIG-TM-WORKER-OOMKILLED", "SIG-TM-WORKER-TERMINATED"),
        // hadoop-aws wraps the S3 403 in an AccessDeniedException on the same line
        ("SIG-ACCESS-DENIED-EXCEPTION", "SIG-S3-ACCESS-DENIED"),
        // a kubelet "Failed to pull image" event is also the generic pull failure
        ("SIG-IMAGE-PULL-DENIED", "SIG-IMAGE-PULL"),
        ("SIG-IMAGE-NOT-FOUND", "SIG-IMAGE-PULL"),
        ("SIG-IMAGE-PULL-X509", "SIG-IMAGE-PULL"),
    ];
    let related = |a: &Signature, b: &Signature| {
        a.category == b.category
            || a.supersedes.contains(&b.id)
            || b.supersedes.contains(&a.id)
            || a.explains.contains(&b.id)
            || b.explains.contains(&a.id)
            || ALSO
                .iter()
                .any(|(x, y)| (*x == a.id && *y == b.id) || (*x == b.id && *y == a.id))
    };
    let mut bad = Vec::new();
    for s in all() {
        for e in s.examples {
            for m in catalogue().match_line(e, 1) {
                if m.signature.id != s.id && !related(s, m.signature) {
                    bad.push(format!(
                        "{} example also matches {}: {e}",
                        s.id, m.signature.id
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn fill_takes_fields_fallbacks_and_leaves_the_rest() {
    let f: BTreeMap<String, String> = [
        ("verb".into(), "watch".into()),
        ("group".into(), String::new()),
    ]
    .into();
    assert_eq!(
        fill(
            "{verb} {resource|pods} {group}|{.status} {Upper} {missing}",
            &f
        ),
        "watch pods |{.status} {Upper} {missing}"
    );
    assert_eq!(fill("unclosed {verb", &f), "unclosed {verb");
    // values are not re-expanded
    let g: BTreeMap<String, String> = [("a".into(), "{b}".into()), ("b".into(), "x".into())].into();
    assert_eq!(fill("{a}", &g), "{b}");
}

#[test]
fn long_lines_are_cut_around_the_match_and_control_characters_neutralised() {
    let line = format!("{}pods is forbidden: User \"system:serviceaccount:ns:flink\" cannot watch resource \"pods\"{}", "x".repeat(5000), "y".repeat(5000));
    let m = &catalogue().match_line(&line, 7)[0];
    assert!(m.line.contains("is forbidden"), "{}", m.line);
    assert!(m.line.starts_with('…') && m.line.ends_with('…'));
    assert!(m.line.chars().count() <= MAX_LINE + 2);
    let esc = "\u{1b}[31mFATAL: Thread 'main' produced an uncaught exception. Stopping the process...\u{7}";
    let m = &catalogue().match_line(esc, 1)[0];
    assert!(
        !m.line.contains('\u{1b}') && !m.line.contains('\u{7}'),
        "{:?}",
        m.line
    );
}

#[test]
fn rbac_fields_and_fix_name_exactly_the_verb_and_resource() {
    let line = r#"Failure executing: GET at: https://10.96.0.1/apis/apps/v1/namespaces/prod/deployments/orders. Message: deployments.apps "orders" is forbidden: User "system:serviceaccount:prod:flink" cannot get resource "deployments" in API group "apps" in the namespace "prod"."#;
    let m = catalogue()
        .match_line(line, 1)
        .into_iter()
        .find(|m| m.signature.id == "SIG-K8S-FORBIDDEN")
        .unwrap();
    for (k, v) in [
        ("namespace", "prod"),
        ("sa", "flink"),
        ("verb", "get"),
        ("resource", "deployments"),
        ("group", "apps"),
        ("object_namespace", "prod"),
        ("resource_kind", "deployments.apps"),
        ("object", "orders"),
    ] {
        assert_eq!(m.field(k), Some(v), "{k}");
    }
    let fix = m.fix();
    assert!(
        fix.contains("resources: [\"deployments\"]\n    verbs: [\"get\"]"),
        "{fix}"
    );
    assert!(
        fix.contains("  - kind: ServiceAccount\n    name: flink\n    namespace: prod"),
        "{fix}"
    );
    assert!(
        !fix.contains("kind: ServiceAccount\nmetadata"),
        "flink runs already: {fix}"
    );
    assert!(
        m.verify().contains(
            "kubectl auth can-i get deployments.apps -n prod --as=system:serviceaccount:prod:flink"
        ),
        "{}",
        m.verify()
    );
}

#[test]
fn filesystem_fix_names_the_plugin_for_the_scheme() {
    for (scheme, plugin) in [
        ("s3", "flink-s3-fs-hadoop"),
        ("s3a", "flink-s3-fs-hadoop"),
        ("s3p", "flink-s3-fs-presto"),
        ("gs", "flink-gs-fs-hadoop"),
        ("abfss", "flink-azure-fs-hadoop"),
        ("wasb", "flink-azure-fs-hadoop"),
        ("oss", "flink-oss-fs-hadoop"),
    ] {
        let line = format!("org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme '{scheme}'. The scheme is directly supported by Flink through the following plugin(s): {plugin}. Please ensure that each plugin resides within its own subfolder within the plugins directory.");
        let m = &catalogue().match_line(&line, 1)[0];
        assert_eq!(m.field("scheme"), Some(scheme));
        let fix = m.fix();
        assert!(
            fix.contains(&format!(
                "ENABLE_BUILT_IN_PLUGINS={plugin}-<flink-version>.jar"
            )),
            "{scheme}: {fix}"
        );
    }
    // The lab's session job with a local:// jar: the operator fetches a session job's jar.
    let m = &catalogue().match_line("org.apache.flink.core.fs.UnsupportedFileSystemSchemeException: Could not find a file system implementation for scheme 'local'. The scheme is not directly supported by Flink and no Hadoop file system to support this scheme could be loaded.", 1)[0];
    assert!(
        m.fix().contains("spec.job.jarURI to an http(s):// URL"),
        "{}",
        m.fix()
    );
    assert!(!m.fix().contains("plugin that provides"), "{}", m.fix());
    let m = &catalogue().match_line("Could not find a file system implementation for scheme 'hdfs'. The scheme is not directly supported by Flink and no Hadoop file system to support this scheme could be loaded.", 1)[0];
    assert!(m.fix().contains("HADOOP_CLASSPATH"), "{}", m.fix());
    // with the Flink version known (triage reads it from the log banner)
    let mut f = m.fields.clone();
    f.insert("scheme".into(), "s3".into());
    f.insert("flink_version".into(), "1.20.1".into());
    derive_fields(&mut f);
    assert!(
        fill(m.signature.fix, &f).contains("ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-1.20.1.jar")
    );
}

#[test]
fn worker_terminated_extracts_exit_code_and_reason() {
    let line = "Worker flink-taskmanager-1-3 is terminated. Diagnostics: Pod terminated, container termination statuses: [flink-main-container(exitCode=137, reason=OOMKilled, message=null)], pod status: Failed(reason=null, message=null)";
    let ms = prune_line(catalogue().match_line(line, 1));
    assert_eq!(
        ms.len(),
        1,
        "{:?}",
        ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
    );
    assert_eq!(ms[0].signature.id, "SIG-TM-WORKER-OOMKILLED");
    assert_eq!(ms[0].field("exit_code"), Some("137"));
    assert_eq!(ms[0].field("reason"), Some("OOMKilled"));
    assert_eq!(ms[0].field("tm"), Some("flink-taskmanager-1-3"));
    let line = line.replace(
        "exitCode=137, reason=OOMKilled",
        "exitCode=239, reason=Error",
    );
    let ms = prune_line(catalogue().match_line(&line, 1));
    assert_eq!(
        ms.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
        ["SIG-TM-WORKER-TERMINATED"]
    );
    assert_eq!(ms[0].field("exit_code"), Some("239"));
    assert_eq!(ms[0].field("reason"), Some("Error"));
    assert!(ms[0]
        .field("exit_meaning")
        .unwrap()
        .contains("FatalExitExceptionHandler"));
}

#[test]
fn webhook_fields_name_the_webhook_and_its_service() {
    let line = r#"Error from server (InternalError): error when creating "basic.yaml": Internal error occurred: failed calling webhook "validationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink-operator.svc:443/validate?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority"#;
    let ms = prune_line(catalogue().match_line(line, 1));
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].signature.id, "SIG-WEBHOOK-X509");
    assert_eq!(
        ms[0].field("webhook"),
        Some("validationwebhook.flink.apache.org")
    );
    assert_eq!(
        ms[0].field("service"),
        Some("flink-operator-webhook-service")
    );
    assert_eq!(ms[0].field("service_namespace"), Some("flink-operator"));
    let line = r#"Internal error occurred: failed calling webhook "mutationwebhook.flink.apache.org": failed to call webhook: Post "https://flink-operator-webhook-service.flink.svc:443/mutate?timeout=10s": no endpoints available for service "flink-operator-webhook-service""#;
    let ms = prune_line(catalogue().match_line(line, 1));
    assert_eq!(ms[0].signature.id, "SIG-WEBHOOK-UNREACHABLE");
    assert_eq!(
        ms[0].field("service"),
        Some("flink-operator-webhook-service")
    );
}

/// Fields from the message forms the sources print (see each signature's `sources`).
#[test]
fn fields_come_from_the_printed_forms() {
    let field = |line: &str, id: &str, name: &str| -> Option<String> {
        catalogue()
            .match_line(line, 1)
            .into_iter()
            .find(|m| m.signature.id == id)
            .unwrap_or_else(|| panic!("{id} does not match {line}"))
            .field(name)
            .map(str::to_string)
    };
    // Checkpoints: the max-parallelism message names no path, only "Checkpoint Metadata"
    let l = "java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint Checkpoint Metadata. Max parallelism mismatch between checkpoint/savepoint state and new program.";
    assert_eq!(field(l, "SIG-SAVEPOINT-STATE-UNMAPPED", "path"), None);
    let l = "java.lang.IllegalStateException: Failed to rollback to checkpoint/savepoint s3://b/chk-7. Cannot map checkpoint/savepoint state for operator 77fec41789154996bfa76055dea29472 to the new program";
    assert_eq!(
        field(l, "SIG-SAVEPOINT-STATE-UNMAPPED", "path").as_deref(),
        Some("s3://b/chk-7")
    );
    // Flink >= 1.17 names the TaskManager after the address
    let l = "Lost connection to task manager '/10.244.1.17:6121 [ orders-taskmanager-1-2 ] '. This indicates that the remote task manager was lost.";
    assert_eq!(
        field(l, "SIG-TM-CONNECTION-LOST", "tm").as_deref(),
        Some("orders-taskmanager-1-2")
    );
    // the scheduler's pod-count reason
    let l = "0/2 nodes are available: 2 Too many pods.";
    assert_eq!(
        field(l, "SIG-SCHED-INSUFFICIENT", "resource").as_deref(),
        Some("pods")
    );
    // LimitRange, old capitalised form with its final period
    let l = "Maximum memory usage per Container is 2Gi.  No limit is specified.";
    assert_eq!(field(l, "SIG-LIMITRANGE", "value").as_deref(), Some("2Gi"));
    // JDK 16+ direct memory message gets the direct-memory advice
    let m = catalogue()
            .match_line("java.lang.OutOfMemoryError: Cannot reserve 8192 bytes of direct buffer memory (allocated: 1, limit: 2)", 1)
            .into_iter()
            .find(|m| m.signature.id == "SIG-JVM-OOM")
            .unwrap();
    assert!(m.fix().contains("off-heap"), "{}", m.fix());
    // the fabric8 5.x watch refusal without a Status body
    let l = "Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/analytics/pods?labelSelector=app%3Dorders&allowWatchBookmarks=true&watch=true. Message: Forbidden.";
    assert_eq!(
        field(l, "SIG-FABRIC8-EXEC-403", "namespace").as_deref(),
        Some("analytics")
    );
}

#[test]
fn host_and_jar_and_class_are_extracted() {
    let m = &catalogue().match_line("Could not resolve ResourceManager address pekko.tcp://flink@orders-jobmanager:6123/user/rpc/resourcemanager_*, retrying in 10000 ms: Could not connect to rpc endpoint under address pekko.tcp://flink@orders-jobmanager:6123/user/rpc/resourcemanager_*.", 1)[0];
    assert_eq!(m.field("host"), Some("orders-jobmanager"));
    let m = &catalogue().match_line(
        "Caused by: java.io.IOException: JAR file does not exist '/opt/flink/usrlib/orders.jar'",
        1,
    )[0];
    assert_eq!(m.field("jar"), Some("/opt/flink/usrlib/orders.jar"));
    let m = &catalogue().match_line("org.apache.flink.client.program.ProgramInvocationException: The program's entry point class 'com.acme.Orders' was not found in the jar file.", 1)[0];
    assert_eq!(m.field("class"), Some("com.acme.Orders"));
    // Hadoop's Configuration words it "Class <name> not found": the class, not "Class"; and a
    // Hadoop class missing so is Hadoop's classpath, not the job's.
    let m = &catalogue().match_line(
        "Caused by: java.lang.ClassNotFoundException: Class com.acme.OrderEnricher not found",
        1,
    )[0];
    assert_eq!(m.field("class"), Some("com.acme.OrderEnricher"));
    assert!(catalogue()
        .match_line("Caused by: java.lang.ClassNotFoundException: Class org.apache.hadoop.fs.obs.metrics.OBSAMetricsProvider not found", 1)
        .is_empty());
}

#[test]
fn healthy_lines_match_nothing() {
    let healthy = [
            "2026-11-28 09:39:11,511 INFO  org.apache.flink.core.fs.FileSystem [] - Hadoop is not in the classpath/dependencies. The extended set of supported File Systems via Hadoop is not available.",
            "2026-11-28 09:39:11,600 INFO  org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Terminating cluster entrypoint process StandaloneApplicationClusterEntryPoint with exit code 0.",
            "2026-11-28 09:39:12,001 INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - Completed checkpoint 42 for job 5b61d6019ab04da71a4e62533c1a8c40 (12345 bytes, checkpointDuration=120 ms, finalizationTime=2 ms).",
            "2026-11-28 09:39:12,002 INFO  org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager [] - Registering task executor orders-taskmanager-1-1 under 9d1 at the slot manager.",
            "2026-11-28 09:39:12,003 INFO  org.apache.flink.kubernetes.operator.reconciler.deployment.AbstractFlinkResourceReconciler [] - [prod/orders] Resource fully reconciled, nothing to do...",
            "    allowNonRestoredState: false",
            "  execution.savepoint.ignore-unclaimed-state: false",
            "2026-11-28 09:39:12,004 WARN  org.apache.flink.runtime.taskmanager.Task [] - Source: kafka (1/2) switched from RUNNING to FAILED with failure cause: java.lang.RuntimeException: boom",
            "    Reason:       Completed",
            "    Exit Code:    0",
            "  Normal  Pulled     12s   kubelet  Successfully pulled image \"flink:1.20\" in 1.2s",
            // docker-entrypoint.sh on the ConfigMap-mounted conf of native mode and the operator: it
            // goes on and Flink starts (apache/flink-cdc#2802, apache/streampark#2599).
            "sed: couldn't open temporary file /opt/flink/conf/sedBhAZOg: Read-only file system",
            "/docker-entrypoint.sh: line 73: /opt/flink/conf/flink-conf.yaml: Read-only file system",
            "/docker-entrypoint.sh: line 89: /opt/flink/conf/flink-conf.yaml.tmp: Read-only file system",
            "/docker-entrypoint.sh: 72: /docker-entrypoint.sh: cannot create /opt/flink/conf/flink-conf.yaml: Read-only file system",
        ];
    for h in healthy {
        let ms = catalogue().match_line(h, 1);
        assert!(
            ms.is_empty(),
            "{h} matched {:?}",
            ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
        );
    }
}

#[test]
fn prune_keeps_the_precise_match() {
    let line = r#"Received 403 on websocket. Failure executing: GET at: https://10.96.0.1/api/v1/namespaces/prod/pods?labelSelector=app%3Dorders&watch=true. Message: pods is forbidden: User "system:serviceaccount:prod:flink" cannot watch resource "pods" in API group "" in the namespace "prod"."#;
    let all = catalogue().match_line(line, 1);
    assert!(all.len() >= 2);
    let kept = prune_line(all);
    assert_eq!(
        kept.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
        ["SIG-K8S-FORBIDDEN"]
    );
    let line = line.replace("prod:flink", "flink-operator:flink-operator");
    let kept = prune_line(catalogue().match_line(&line, 1));
    assert_eq!(
        kept.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
        ["SIG-K8S-FORBIDDEN-OPERATOR"]
    );
    // "flink" in the namespace alone is enough; another operator's account is an ordinary 403.
    for (account, id) in [
        ("streaming:platform-operator", "SIG-K8S-FORBIDDEN"),
        ("flink-system:operator", "SIG-K8S-FORBIDDEN-OPERATOR"),
        ("ops:flinkoperator", "SIG-K8S-FORBIDDEN-OPERATOR"),
        (
            "ops:flink-operator-controller-manager",
            "SIG-K8S-FORBIDDEN-OPERATOR",
        ),
        (
            "am6-aerospikes99-preprod:aerospike-operator-controller-manager",
            "SIG-K8S-FORBIDDEN",
        ),
    ] {
        let line = line.replace("flink-operator:flink-operator", account);
        let kept = prune_line(catalogue().match_line(&line, 1));
        assert_eq!(
            kept.iter().map(|m| m.signature.id).collect::<Vec<_>>(),
            [id],
            "{account}"
        );
    }
}

#[test]
fn scan_finds_what_matching_every_line_finds() {
    let mut text = String::new();
    for (i, sig) in all().iter().enumerate() {
        text.push_str(&format!(
            "2026-11-28 09:39:{:02},118 INFO  ordinary line {i}\r\n",
            i % 60
        ));
        for e in sig.examples {
            text.push_str(e);
            text.push('\n');
        }
    }
    let c = catalogue();
    let slow: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| c.match_line(l, i + 1))
        .map(|m| (m.line_no, m.signature.id))
        .collect();
    let fast: Vec<(usize, &str)> = c
        .scan(&text)
        .into_iter()
        .map(|m| (m.line_no, m.signature.id))
        .collect();
    assert!(!fast.is_empty());
    assert_eq!(fast, slow);
}

#[test]
fn an_option_flink_cannot_parse_is_named_with_the_value_it_reads() {
    let text = "2026-12-01 10:00:00,000 ERROR org.apache.flink.runtime.entrypoint.ClusterEntrypoint [] - Could not start cluster entrypoint KubernetesApplicationClusterEntrypoint.\n\
                java.lang.IllegalArgumentException: Could not parse value '512Mi' for key 'taskmanager.memory.process.size'.\n\
                Caused by: java.lang.IllegalArgumentException: Memory size unit 'mi' does not match any of the recognized units: (b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / (t | tb | tebibytes)\n";
    let found = catalogue().scan(text);
    let m = found
        .iter()
        .find(|m| m.signature.id == "SIG-FLINK-CONFIG-UNPARSABLE" && m.field("key").is_some())
        .expect("the parse error is read");
    assert_eq!(
        m.title(),
        "Flink cannot parse the value of taskmanager.memory.process.size"
    );
    assert!(
        m.fix()
            .starts_with("set `taskmanager.memory.process.size: 512m` instead of `512Mi`"),
        "{}",
        m.fix()
    );
    // No line reads as a memory layout that does not add up.
    assert!(!found
        .iter()
        .any(|m| m.signature.id == "SIG-FLINK-MEMORY-CONFIG"));
    // A JobManager's wrapped message, and a quantity with a fraction.
    let wrapped = "IllegalConfigurationException: JobManager memory configuration failed: Could not parse value '1.5Gi' for key 'jobmanager.memory.process.size'.";
    let found = prune_line(catalogue().scan(wrapped));
    assert_eq!(found.len(), 1, "the more precise reading only: {found:?}");
    assert!(
        found[0]
            .fix()
            .starts_with("set `jobmanager.memory.process.size: 1536m`"),
        "{}",
        found[0].fix()
    );
    // A value that is no memory size: the key, and one marked placeholder.
    let other = "Could not parse value 'lots' for key 'taskmanager.memory.managed.fraction'.";
    let fix = catalogue().scan(other)[0].fix();
    assert!(
        fix.contains("`taskmanager.memory.managed.fraction: <value of the option's type>`"),
        "{fix}"
    );
    assert_eq!(fix.matches('<').count(), 1);
    // Another option is no memory configuration: the option's own signature, whose fix names
    // the key with one marked placeholder and corrects no unit.
    let interval = "IllegalArgumentException: Could not parse value '' for key 'execution.checkpointing.interval'";
    let found = catalogue().scan(interval);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].signature.id, "SIG-FLINK-OPTION-UNPARSABLE");
    assert_eq!(found[0].signature.category, Category::ConfigOptionInvalid);
    let fix = found[0].fix();
    assert!(
        fix.contains("`execution.checkpointing.interval: <value of the option's type>`"),
        "{fix}"
    );
    // A memory option's line is read as memory: its signature supersedes the option's on the line.
    let memory = "Could not parse value '512Mi' for key 'taskmanager.memory.process.size'.";
    let found = catalogue().scan(memory);
    let ids: Vec<&str> = crate::rules::support::containers::roots(&found)
        .iter()
        .map(|m| m.signature.id)
        .collect();
    assert_eq!(ids, ["SIG-FLINK-CONFIG-UNPARSABLE"]);
}

/// Every signature says how to check that its fix took, in its own words: a command that reads
/// what the fix changes (a pod's readiness, the job's state, the image's files, the authorizer's
/// answer), not the generic "the line is gone from the log" that `explain` used to borrow for
/// 36 of them. Laid out for pasting, its open names become shell variables.
#[test]
fn every_signature_has_a_verify_of_its_own() {
    let without: Vec<&str> = all()
        .iter()
        .filter(|s| s.verify.trim().is_empty())
        .map(|s| s.id)
        .collect();
    assert!(without.is_empty(), "no verify of their own: {without:?}");
    for s in all() {
        assert!(
            s.verify.contains("kubectl ")
                || s.verify.contains("docker ")
                || s.verify.contains("gcloud ")
                || s.verify.contains("az ")
                || s.verify.contains("aws ")
                || s.verify.contains("curl ")
                || s.verify.contains("yarn ")
                || s.verify.contains("{jar_verify"),
            "{}: not a command: {}",
            s.id,
            s.verify
        );
        let (_, verify) = paste::paste_ready("", s.verify, &paste::Known::new());
        assert!(!verify.contains(" <"), "{}: {verify}", s.id);
    }
}

#[test]
fn a_null_flink_version_is_no_version_the_operator_refuses() {
    let c = catalogue();
    let hit = |l: &str| {
        c.match_line(l, 1)
            .iter()
            .any(|m| m.signature.id == "SIG-FLINK-VERSION-UNSUPPORTED")
    };
    assert!(hit(
        "Flink version v1_13 is not supported by this operator version"
    ));
    // apache/flink-kubernetes-operator@release-1.7.0:flink-kubernetes-operator/src/main/java/org/apache/flink/kubernetes/operator/utils/ValidatorUtils.java
    // warns so when it has no version (a session job without its session cluster).
    assert!(!hit(
        "Flink version null is not supported by this operator version"
    ));
}

/// A session cluster without web submission: the operator's error (`[POST request not allowed]`,
/// Flink 1.19.1+) is a critical cause, the JobManager's startup lines (INFO, and harmless on a
/// cluster that takes no session jobs) are Info and name which of the two turned it off.
#[test]
fn web_submission_off_is_named_by_the_refusal_and_by_the_jobmanager_s_startup_line() {
    let c = catalogue();
    let one = |l: &str| {
        let ms = c.match_line(l, 1);
        assert_eq!(
            ms.len(),
            1,
            "{l}: {:?}",
            ms.iter().map(|m| m.signature.id).collect::<Vec<_>>()
        );
        (ms[0].signature.id, ms[0].signature.severity)
    };
    assert_eq!(
        one("org.apache.flink.runtime.rest.util.RestClientException: [POST request not allowed]"),
        ("SIG-WEB-SUBMIT-REFUSED", Severity::Critical)
    );
    assert_eq!(
        one("2026-12-06 00:06:12,410 INFO  org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Web-based job submission is not enabled."),
        ("SIG-WEB-SUBMIT-DISABLED", Severity::Info)
    );
    assert_eq!(
        one("2026-12-06 00:06:12,410 INFO  org.apache.flink.runtime.dispatcher.DispatcherRestEndpoint [] - Failed to load web based job submission extension. Probable reason: flink-runtime-web is not in the classpath."),
        ("SIG-WEB-SUBMIT-NO-RUNTIME-WEB", Severity::Info)
    );
    let refused = all()
        .iter()
        .find(|s| s.id == "SIG-WEB-SUBMIT-REFUSED")
        .unwrap();
    for named in [
        "web.submit.enable",
        "flink-runtime-web",
        "flink-dist",
        "/opt/flink/lib",
    ] {
        assert!(refused.fix.contains(named), "{named}: {}", refused.fix);
    }
}

/// A class of Flink's own RPC system (Pekko, Akka before 1.18) that a stopping JobManager could not
/// load is no class of the job's: what a real Flink 1.20.1 JobManager logged in the lab after
/// `BindException: Could not start actor system on any port in port range 6123`.
#[test]
fn a_class_of_flink_s_rpc_system_is_not_the_job_s_entry_class() {
    let pekko = "Caused by: java.lang.ClassNotFoundException: org.apache.pekko.actor.dungeon.FaultHandling$$anonfun$handleNonFatalOrInterruptedException$1";
    assert!(
        catalogue()
            .scan(pekko)
            .iter()
            .all(|m| m.signature.id != "SIG-CLASS-NOT-FOUND"),
        "{:?}",
        catalogue()
            .scan(pekko)
            .iter()
            .map(|m| m.signature.id)
            .collect::<Vec<_>>()
    );
    // The job's own class still is.
    let job = "Caused by: java.lang.ClassNotFoundException: com.example.OrdersJob";
    assert!(catalogue()
        .scan(job)
        .iter()
        .any(|m| m.signature.id == "SIG-CLASS-NOT-FOUND"));
}

/// What a running job prints when it fails on a TaskManager (flink-runtime io/network, the
/// failover, Task): the network-buffer fix is computed from the numbers NetworkBufferPool prints,
/// each Netty wording names the TaskManager, and running out of restarts names the strategy.
#[test]
fn the_network_and_failover_wordings_carry_their_numbers_and_names() {
    let first = |line: &str| {
        prune_line(catalogue().match_line(line, 1))
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("nothing matches {line}"))
    };
    // 2048 buffers of 32 KiB = 64 MiB; 65 asked for, 16 left: 49 more, 2097 buffers = 66 MiB (65.53)
    let m = first("java.io.IOException: Insufficient number of network buffers: required 65, but only 16 available. The total number of network buffers is currently set to 2048 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max'.");
    assert_eq!(m.signature.id, "SIG-NETWORK-BUFFERS-INSUFFICIENT");
    let fix = m.fix();
    // prose the catalogue wrote from parsed numbers: inserted as it is, not as one quoted word
    assert!(
        fix.starts_with("the network memory holds 2048 buffers"),
        "{fix}"
    );
    assert!(
        fix.contains("2048 buffers of 32768 bytes (64 MiB)"),
        "{fix}"
    );
    assert!(fix.contains("asked for 49 more"), "{fix}");
    assert!(
        fix.contains("`taskmanager.memory.network.min: \"66m\"`")
            && fix.contains("`taskmanager.memory.network.max: \"66m\"`"),
        "{fix}"
    );
    // the timeout wording gives only the pool's size: twice it
    let m = first("java.io.IOException: Timeout triggered when requesting exclusive buffers: The total number of network buffers is currently set to 4096 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max',  or you may increase the timeout which is 30000ms by setting the key 'taskmanager.network.memory.exclusive-buffers-request-timeout-ms'.");
    assert_eq!(m.signature.id, "SIG-NETWORK-BUFFERS-INSUFFICIENT");
    assert!(
        m.fix().contains("(128 MiB)") && m.fix().contains("\"256m\""),
        "{}",
        m.fix()
    );
    // without the numbers (a line cut short) the fix still names the keys, and no number
    let m = first("Insufficient number of network buffers: required 65, but only 16 available.");
    assert!(
        m.fix().contains("taskmanager.memory.network.fraction") && !m.fix().contains("MiB"),
        "{}",
        m.fix()
    );
    // nor when a wrapped paste cut the message after its head
    let m = first("java.io.IOException: Insufficient number of network buffers: required");
    assert!(
        m.fix().contains("taskmanager.memory.network.fraction") && !m.fix().contains('{'),
        "{}",
        m.fix()
    );

    for (line, id, tm) in [
        ("Connection unexpectedly closed by remote task manager '10.244.1.17/10.244.1.17:6121 [ orders-taskmanager-1-2 ] '. This might indicate that the remote task manager was lost.", "SIG-TM-CONNECTION-LOST", Some("orders-taskmanager-1-2")),
        ("Connection unexpectedly closed by remote task manager '/10.244.1.17:6121'. This might indicate that the remote task manager was lost.", "SIG-TM-CONNECTION-LOST", None),
        ("LocalTransportException: Sending the partition request to '/10.244.1.17:6121 [orders-taskmanager-1-2] (#3)' failed.", "SIG-TM-CONNECTION-LOST", Some("orders-taskmanager-1-2")),
        ("LocalTransportException: Sending the task event to '/10.244.1.17:6121 (#3)' failed.", "SIG-TM-CONNECTION-LOST", None),
        ("LocalTransportException: Channel to '/10.244.1.17:6121 [orders-taskmanager-1-2]' closed.", "SIG-TM-CONNECTION-LOST", Some("orders-taskmanager-1-2")),
        ("LocalTransportException: readAddress(..) failed: Connection timed out (connection to '/10.244.1.17:6121 [orders-taskmanager-1-2]')", "SIG-TM-CONNECTION-LOST", Some("orders-taskmanager-1-2")),
        ("RemoteTransportException: Connecting to remote task manager '/10.244.1.17:6121 [ orders-taskmanager-1-2 ] ' has failed. This might indicate that the remote task manager has been lost.", "SIG-TM-DATA-CONNECT-FAILED", Some("orders-taskmanager-1-2")),
    ] {
        let m = first(line);
        assert_eq!(m.signature.id, id, "{line}");
        assert_eq!(m.field("tm"), tm, "{line}");
        let host = if line.contains("'10.244") {
            "10.244.1.17/10.244.1.17:6121"
        } else {
            "/10.244.1.17:6121"
        };
        assert_eq!(m.field("host"), Some(host), "{line}");
    }

    let m = first("Caused by: org.apache.flink.runtime.io.network.partition.PartitionNotFoundException: Partition 5b0a4e53f1c6b5c8e1f0f7c2d4a3b2c1#0@a1b2c3d4e5f60718293a4b5c6d7e8f90_0_0 not found.");
    assert_eq!(m.signature.id, "SIG-PARTITION-NOT-FOUND");
    assert_eq!(
        m.field("partition"),
        Some("5b0a4e53f1c6b5c8e1f0f7c2d4a3b2c1#0@a1b2c3d4e5f60718293a4b5c6d7e8f90_0_0")
    );

    let m = first("org.apache.flink.runtime.JobException: Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)");
    assert_eq!(m.signature.id, "SIG-RESTARTS-EXHAUSTED");
    assert_eq!(
        m.field("strategy"),
        Some("FixedDelayRestartBackoffTimeStrategy")
    );
    // a healthy job's restarts are not this: only the suppressed recovery is
    assert!(catalogue()
        .match_line("INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Job orders (0c9e) switched from state RESTARTING to RUNNING.", 1)
        .is_empty());
}

/// A YARN memory kill names its container, the process it was (a YARN application's first
/// container is Flink's JobManager), the numbers the NodeManager printed and what to set: the
/// process size a quarter over what the process took, the application's log of that container;
/// the virtual check's fix is the NodeManager's setting with the ratio this container needed.
#[test]
fn a_yarn_memory_kill_carries_its_numbers_into_title_and_fix() {
    let one = |line: &str| {
        let ms = prune_line(catalogue().match_line(line, 1));
        assert_eq!(ms.len(), 1, "{line}");
        ms.into_iter().next().unwrap()
    };
    let m = one("Container [pid=9311,containerID=container_1732780800000_0007_01_000001] is running beyond physical memory limits. Current usage: 1.7 GB of 1.6 GB physical memory used; 3.1 GB of 3.3 GB virtual memory used. Killing container.");
    assert_eq!(m.signature.id, "SIG-YARN-PMEM-KILLED");
    assert_eq!(m.field("pmem_used"), Some("1.7 GB"));
    assert_eq!(m.field("pmem_limit"), Some("1.6 GB"));
    assert_eq!(
        m.title(),
        "YARN killed the JobManager (container_1732780800000_0007_01_000001) for physical memory: 1.7 GB used of a 1.6 GB container"
    );
    let fix = m.fix();
    // 1.7 GiB x 1.25 = 2176 MiB, in 128 MiB steps.
    assert!(
        fix.contains("`jobmanager.memory.process.size: 2176m`")
            && fix.contains("`jobmanager.memory.jvm-overhead.fraction: 0.2`")
            && !fix.contains("taskmanager.memory")
            && !fix.contains("rocksdb"),
        "{fix}"
    );
    assert!(
        fix.contains("`yarn logs -applicationId application_1732780800000_0007 -containerId container_1732780800000_0007_01_000001`"),
        "{fix}"
    );

    let m = one(" Diagnostics:[2026-11-28 09:41:02.118]Container [pid=28417,containerID=container_e05_1732780800000_0007_01_000002] is running 429496730B beyond the 'VIRTUAL' memory limit. Current usage: 1.3 GB of 2 GB physical memory used; 4.6 GB of 4.2 GB virtual memory used. Killing container.");
    assert_eq!(m.signature.id, "SIG-YARN-VMEM-KILLED");
    assert_eq!(m.field("over"), Some("429496730"));
    assert_eq!(
        m.title(),
        "YARN killed a TaskManager (container_e05_1732780800000_0007_01_000002) for virtual memory: 4.6 GB of address space reserved, over its 4.2 GB limit (2.1 x the 2 GB container; 1.3 GB of it physically used)"
    );
    let fix = m.fix();
    assert!(
        fix.contains("`yarn.nodemanager.vmem-check-enabled` to `false`")
            && fix.contains("above the 2.3 times its size this container reserved, e.g. to 4")
            && fix.contains("`containerized.taskmanager.env.MALLOC_ARENA_MAX: \"4\"`")
            && fix.contains("-applicationId application_1732780800000_0007 -containerId container_e05_1732780800000_0007_01_000002`"),
        "{fix}"
    );

    // Flink's exit-status line alone says which check, not which process or how much.
    let m = one(" Exit code:-104.");
    assert_eq!(m.signature.id, "SIG-YARN-PMEM-KILLED");
    assert_eq!(
        m.title(),
        "YARN killed a Flink process (exit status -104) for physical memory: more than its container's size"
    );
    assert!(
        m.fix()
            .contains("`taskmanager.memory.process.size` (e.g. a quarter over its current value)"),
        "{}",
        m.fix()
    );
    assert_eq!(one(" Exit code:-103.").signature.id, "SIG-YARN-VMEM-KILLED");
    // Other statuses are other causes (-102 preempted, -100 aborted): not these.
    for line in [" Exit code:-102.", " Exit code:-1040.", " Exit code:143."] {
        assert!(catalogue().match_line(line, 1).is_empty(), "{line}");
    }
}

mod placeholders;
