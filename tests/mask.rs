//! One masker for everything that leaves the process: a bundle saved with `doctor --save`, the
//! report on stdout in every format, and triage's evidence hold none of the secrets a security
//! probe planted (issue #30), while ordinary lines pass unchanged.

mod common;

use common::run::plugin;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Secrets planted in a bundle, each outside `flinkConfiguration`.
const PLANTED: &[&str] = &[
    "Db-Pw-4711",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "jdbcpw99",
    "DeployPW77",
    "S3key-from-status",
    "event-pw-123",
    "log4j-pw-456",
    "log-line-pw-789",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
];

fn bundle(dir: &Path) {
    write(
        dir,
        "flinkdeployment.yaml",
        r#"apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: orders, namespace: analytics}
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: "2"
  podTemplate:
    spec:
      containers:
        - name: flink-main-container
          env:
            - {name: DB_PASSWORD, value: Db-Pw-4711}
            - {name: AWS_SECRET_ACCESS_KEY, value: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY}
            - {name: JDBC_URL, value: "jdbc:postgresql://app:jdbcpw99@db:5432/orders"}
            - {name: MODE, value: streaming-mode-kept}
      volumes:
        - {name: cert, secret: {secretName: webhook-server-cert}}
  jobManager:
    resource: {memory: 2048m, cpu: 1}
  taskManager:
    resource: {memory: 2048m, cpu: 1}
  job:
    jarURI: https://deploy:DeployPW77@repo.example.com/jobs/orders.jar
    parallelism: 2
    upgradeMode: stateless
status:
  jobManagerDeploymentStatus: ERROR
  error: "org.apache.flink.configuration.IllegalConfigurationException: s3.secret-key=S3key-from-status is not valid"
"#,
    );
    write(
        dir,
        "events.yaml",
        r#"apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Event
    metadata: {name: orders.1, namespace: analytics}
    involvedObject: {apiVersion: flink.apache.org/v1beta1, kind: FlinkDeployment, namespace: analytics, name: orders}
    reason: SubmitFailed
    type: Warning
    message: "submit failed: connecting with password=event-pw-123 refused; key sk_live_4eC39HqLyjWDarjtT1zdp7dc"
    count: 1
"#,
    );
    write(
        dir,
        "configmaps.yaml",
        r#"apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: flink-config-orders, namespace: analytics}
    data:
      config.yaml: "taskmanager.numberOfTaskSlots: 2\n"
      log4j-console.properties: "appender.kafka.password=log4j-pw-456\nappender.kafka.name=kafka-appender-kept\n"
"#,
    );
    write(
        dir,
        "logs/analytics/orders-5d8f9c7b6d-x7k2p/flink-main-container.log",
        "2026-11-28 08:00:02,001 INFO  Starting with jdbc password log-line-pw-789 now\n\
         2026-11-28 08:00:03,001 INFO  ordinary line kept as is\n",
    );
}

#[test]
fn a_saved_bundle_keeps_no_secret_outside_the_flink_configuration_either() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("from");
    bundle(&from);
    let saved = dir.path().join("saved");
    // `--save` is live only; the snapshot a live gather makes is the one a bundle loads, and the
    // same `save` writes it (the live path: tests/install_e2e.rs).
    let snapshot = kubectl_flink::snapshot::bundle::load(&from).unwrap();
    assert!(!snapshot.logs.is_empty() && !snapshot.events.is_empty());
    kubectl_flink::snapshot::bundle::save(&snapshot, &saved).unwrap();
    let mut all = String::new();
    let mut files = vec![saved.clone()];
    while let Some(p) = files.pop() {
        if p.is_dir() {
            files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else {
            all.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
    assert!(all.contains("flink-main-container"), "nothing saved: {all}");
    for secret in PLANTED {
        assert!(!all.contains(secret), "{secret} saved in clear:\n{all}");
    }
    // What is not a secret stays, for a later `--from` to diagnose the same.
    for kept in [
        "streaming-mode-kept",
        "kafka-appender-kept",
        "ordinary line kept as is",
        "repo.example.com/jobs/orders.jar",
        "DB_PASSWORD",
    ] {
        assert!(all.contains(kept), "{kept} lost:\n{all}");
    }
}

#[test]
fn no_report_format_prints_a_planted_secret() {
    let dir = tempfile::tempdir().unwrap();
    bundle(dir.path());
    for format in ["json", "table", "markdown"] {
        let run = plugin(
            None,
            &[
                "doctor",
                "--from",
                dir.path().to_str().unwrap(),
                "-o",
                format,
            ],
        );
        assert!(
            run.code == 0 || run.code == 1,
            "exit {}: {}",
            run.code,
            run.stderr
        );
        for secret in PLANTED {
            assert!(
                !run.stdout.contains(secret),
                "-o {format}: {secret}:\n{}",
                run.stdout
            );
            assert!(
                !run.stderr.contains(secret),
                "-o {format}: {secret}:\n{}",
                run.stderr
            );
        }
    }
}

#[test]
fn triage_prints_none_of_the_secret_shapes_the_probe_found() {
    // Each line is evidence of a problem triage reports (a fatal error, a refused request), so
    // that it is printed; each carries a secret in a shape the probe found printed in clear.
    let secrets = [
        (
            "key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI",
        ),
        ("password x9", "x9"),
        ("login with password letmein", "letmein"),
        ("secret=opensesame", "opensesame"),
        ("token: lowercasetokenvalue", "lowercasetokenvalue"),
        ("redis://:redispw@cache:6379", "redispw"),
        (
            "https://hooks.slack.com/services/T024TTTTT/BBB72BBL/AZAAA9u0pA4ad666eMgbi555",
            "AZAAA9u0pA4ad666eMgbi555",
        ),
        (
            "Loading configuration property: s3.secret-key, globalconfvalue",
            "globalconfvalue",
        ),
        (
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "4eC39HqLyjWDarjtT1zdp7dc",
        ),
        (
            "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
            "SyDMAScliyLx7F0NPDEJi1Q",
        ),
        (
            "npm_a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8",
            "a1b2c3d4e5f6a7b8c9d0",
        ),
        ("Passwort: geheimwort", "geheimwort"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jm.log");
    for (line, secret) in &secrets {
        // One line a run, so that the line is surely the finding's evidence.
        let text = format!("java.lang.OutOfMemoryError: Java heap space; {line}\n");
        std::fs::write(&path, &text).unwrap();
        for format in ["json", "table", "markdown"] {
            let run = plugin(None, &["triage", path.to_str().unwrap(), "-o", format]);
            assert_eq!(
                run.code, 1,
                "findings expected: {}{}",
                run.stdout, run.stderr
            );
            assert!(
                run.stdout.contains("Java heap space;"),
                "the line is not the evidence: {}",
                run.stdout
            );
            assert!(
                !run.stdout.contains(secret),
                "-o {format}: {line:?} printed in clear:\n{}",
                run.stdout
            );
        }
    }
}
