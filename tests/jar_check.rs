//! A job jar that is not where the deployment says is checked where it is read from: a path in
//! the image with `ls -l` (in the running container, or the image with `docker run`), an
//! https:// or s3:// URI with a fetch (`curl -fsIL`, `aws s3 ls`), anything else by the fetcher's
//! log. `ls -l` on an https URL (issue 34) checks nothing.

mod common;

use common::run::offline_json as run;

/// (fix, verify) of triage's job_jar_not_found finding for one log line.
fn triaged(line: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("jobmanager.log");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let report = run(&["triage", file.to_str().unwrap(), "-o", "json"]);
    let f = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["category"] == "job_jar_not_found")
        .unwrap_or_else(|| panic!("no job_jar_not_found finding: {report:#}"))
        .clone();
    (
        f["fix"].as_str().unwrap_or("").to_string(),
        f["verify"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn a_jar_in_the_image_is_listed_in_the_container_and_the_image() {
    let (fix, verify) = triaged(
        "java.io.FileNotFoundException: JAR file does not exist: /opt/flink/usrlib/orders.jar",
    );
    assert!(
        verify.contains("-c flink-main-container -- ls -l /opt/flink/usrlib/orders.jar"),
        "{verify}"
    );
    assert!(
        verify.contains(
            "docker run --rm --entrypoint ls \"${IMAGE}\" -l /opt/flink/usrlib/orders.jar"
        ),
        "{verify}"
    );
    assert!(!verify.contains('<'), "names are shell variables: {verify}");
    assert!(fix.contains("/opt/flink/usrlib/orders.jar"), "{fix}");
    assert!(
        !fix.contains("curl") && !verify.contains("curl"),
        "{fix}\n{verify}"
    );
}

#[test]
fn a_remote_jar_is_fetched_never_listed_with_ls() {
    for (uri, check) in [
        (
            "https://repo.example.com/jobs/orders-1.2.jar",
            "curl -fsIL https://repo.example.com/jobs/orders-1.2.jar",
        ),
        ("s3://jobs/orders.jar", "aws s3 ls s3://jobs/orders.jar"),
        (
            "ftp://files.example.com/orders.jar",
            "grep -F ftp://files.example.com/orders.jar",
        ),
    ] {
        let (fix, verify) = triaged(&format!(
            "Caused by: java.io.IOException: JAR file does not exist '{uri}'"
        ));
        for text in [&fix, &verify] {
            assert!(!text.contains("ls -l"), "{uri}: {text}");
            assert!(!text.contains("docker run"), "{uri}: {text}");
        }
        assert!(verify.contains(check), "{uri}: {verify}");
        assert!(fix.contains(check), "{uri}: {fix}");
    }
}

#[test]
fn doctor_checks_a_session_jobs_http_jar_by_fetching_it() {
    let report = run(&[
        "doctor",
        "--from",
        "tests/scenarios/real-session-job-jar-missing",
        "-o",
        "json",
    ]);
    let f = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["category"] == "job_jar_not_found")
        .unwrap_or_else(|| panic!("{report:#}"));
    let verify = f["verify"].as_str().unwrap_or("");
    assert!(
        verify
            .starts_with("curl -fsIL http://artifacts.analytics.svc.cluster.local/orders-job.jar"),
        "{verify}"
    );
    assert!(
        verify.contains("kubectl get flinksessionjob orders -n "),
        "{verify}"
    );
    assert!(!verify.contains("ls -l"), "{verify}");
}
