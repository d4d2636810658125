//! End-to-end tests of `kubectl flink logs` with stern's filters (stern/stern@v1.33.0:cmd/cmd.go):
//! line regexes (-e, -i, -H), the pod query and --exclude-pod, container regexes, field selectors
//! and --node, several namespaces, --template, colours and --timezone; once and with -f, against
//! the real API server of the test cluster (scripts/test-cluster.sh).
//!
//! Run with `scripts/test-cluster.sh run cargo test --test logs_filters_e2e`. Without the harness
//! these tests FAIL when `CI` is set and print a loud SKIPPED message otherwise.

mod common;
mod logs_common;
use logs_common::*;

use std::io::Write;
use std::path::Path;

fn append(path: &Path, line: &str) {
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .expect("open log");
    writeln!(file, "{line}").expect("append");
}

/// One error line, exit 2.
fn usage_error(h: &Harness, args: &[&str], needle: &str) {
    let (code, out, err) = flink(h, args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn line_filters_highlight_and_bad_regexes() {
    let Some(h) = harness_or_skip("line_filters_highlight_and_bad_regexes") else {
        return;
    };
    let f = seed(h, "lines", 12);
    let ns = f.ns.as_str();
    let jm = ["logs", "orders", "-n", ns, "--component", "jobmanager"];
    let with = |extra: &[&str]| {
        let mut a = jm.to_vec();
        a.extend_from_slice(extra);
        let (code, out, err) = flink(h, &a);
        assert_eq!(code, 0, "{a:?}: {err}");
        out
    };

    // -e drops what any matches; -i keeps what one matches; -e wins, as stern's order has it.
    let out = with(&["-e", "line 1", "-e", "line [2-9]"]);
    assert!(out.contains("JM-CURRENT line 0"), "{out}");
    assert!(!out.contains("JM-CURRENT line 1"), "{out}");
    assert!(out.contains("is forbidden"), "{out}");
    let out = with(&[
        "-i",
        "line 1[01]$",
        "--include",
        "forbidden",
        "-e",
        "line 10",
    ]);
    let kept: Vec<&str> = out.lines().collect();
    assert_eq!(kept.len(), 2, "{out}");
    assert!(
        kept[0].contains("is forbidden") && kept[1].ends_with("JM-CURRENT line 11"),
        "{out}"
    );
    // --grep is -i, as before.
    let out = with(&["--grep", "JM-CURRENT line 3$"]);
    assert_eq!(out.lines().count(), 1, "{out}");

    // -H marks what matches (and what -i matches) only with colour; the catalogue still
    // colours the failure line and adds its hint; a bare --highlight still forces the catalogue.
    let out = with(&["-H", "line 5", "-i", "line [45]$", "--color", "always"]);
    assert!(out.contains("\x1b[1;7mline 5\x1b[0m"), "{out:?}");
    assert!(out.contains("JM-CURRENT \x1b[0m\x1b[1;7mline 4"), "{out:?}");
    let out = with(&["-H", "forbidden", "--color", "always", "-i", "forbidden"]);
    assert!(
        out.contains("\x1b[31m") && out.contains("\x1b[1;7mforbidden") && out.contains('⟵'),
        "{out:?}"
    );
    let out = with(&["-H", "forbidden"]);
    assert!(!out.contains('\x1b') && !out.contains('⟵'), "{out}");
    let out = with(&["--highlight"]);
    assert_eq!(out.matches('⟵').count(), 1, "{out}");

    // A bad regular expression of any flag: one line, exit 2, before anything is read.
    usage_error(h, &["logs", "orders", "-n", ns, "-e", "("], "--exclude (");
    usage_error(h, &["logs", "orders", "-n", ns, "-i", "["], "--include [");
    usage_error(
        h,
        &["logs", "orders", "-n", ns, "-H", "a{2,1}"],
        "--highlight",
    );
    usage_error(h, &["logs", "orders", "-n", ns, "-c", "("], "-c (");
    usage_error(
        h,
        &["logs", "orders", "-n", ns, "-E", "+"],
        "--exclude-container",
    );
    usage_error(h, &["logs", "orders(", "-n", ns], "pod query orders(");
    usage_error(
        h,
        &["logs", "-n", ns, "--exclude-pod", "[z"],
        "--exclude-pod",
    );
    usage_error(h, &["logs", "-n", ns, "-f", "-e", "("], "--exclude (");
    usage_error(
        h,
        &["logs", "-n", ns, "--template", "{{.Nope}}"],
        "--template",
    );
    usage_error(
        h,
        &[
            "logs",
            "-n",
            ns,
            "--timestamps",
            "--timezone",
            "Mars/Olympus",
        ],
        "--timezone Mars/Olympus",
    );
    usage_error(h, &["logs", "-n", &format!("{ns},Bad"), "orders"], "Bad");
}

#[test]
fn pod_queries_containers_fields_and_nodes() {
    let Some(h) = harness_or_skip("pod_queries_containers_fields_and_nodes") else {
        return;
    };
    let f = seed(h, "query", 5);
    let ns = f.ns.as_str();
    let run = |args: &[&str]| {
        let mut a = vec!["logs", "-n", ns];
        a.extend_from_slice(args);
        let (code, out, err) = flink(h, &a);
        assert_eq!(code, 0, "{a:?}: {err}");
        (out, err)
    };
    let pods = |out: &str| {
        let mut p: Vec<String> = out
            .lines()
            .filter_map(|l| l.split(' ').next())
            .map(str::to_string)
            .collect();
        p.dedup();
        p
    };

    // A regular expression: the Flink pods whose name matches, never another application's.
    let (out, _) = run(&["taskmanager-1-.$"]);
    assert_eq!(
        pods(&out),
        vec![format!("{TM1}/{MAIN}"), format!("{TM2}/{MAIN}")],
        "{out}"
    );
    // A plain name that is no deployment: read as the query, and said so.
    let (out, err) = run(&["orders-taskmanager"]);
    assert_eq!(pods(&out).len(), 2, "{out}");
    assert!(
        err.contains("no pods of a Flink deployment named orders-taskmanager")
            && err.contains("stern's pod query"),
        "{err}"
    );
    // A deployment's name stays the deployment (the web pod is not named like it anyway).
    let (out, err) = run(&["orders"]);
    assert_eq!(pods(&out).len(), 3, "{out}");
    assert!(!err.contains("pod query"), "{err}");
    // stern's KIND/NAME: one pod, or the deployment.
    let (out, _) = run(&[&format!("pod/{TM2}")]);
    assert_eq!(pods(&out), vec![format!("{TM2}/{MAIN}")], "{out}");
    let (out, _) = run(&["flinkdeployment/orders", "--exclude-pod", "taskmanager"]);
    assert_eq!(pods(&out), vec![format!("{JM}/{MAIN}")], "{out}");
    // -l with a query narrows the selector's pods by name.
    let (out, _) = run(&["-l", "app", "web|1-1"]);
    assert_eq!(
        pods(&out),
        vec![format!("{TM1}/{MAIN}"), format!("web-7f7f7f-abcde/{MAIN}")],
        "{out}"
    );
    // Nothing matches: the error says what was looked for, exit 2.
    let (code, _, err) = flink(h, &["logs", "-n", ns, "nothing-.*"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("named like `nothing-.*`"), "{err}");

    // Containers by regular expression (init containers too), less --exclude-container.
    let (out, _) = run(&["orders", "--component", "jobmanager", "-c", "."]);
    assert_eq!(
        pods(&out),
        vec![format!("{JM}/{MAIN}"), format!("{JM}/{SIDECAR}")],
        "{out}"
    );
    let (out, _) = run(&["orders", "-c", "ship"]);
    assert_eq!(pods(&out), vec![format!("{JM}/{SIDECAR}")], "{out}");
    let (out, _) = run(&[
        "orders",
        "--all-containers",
        "-E",
        "^log-",
        "--component",
        "jobmanager",
    ]);
    assert_eq!(pods(&out), vec![format!("{JM}/{MAIN}")], "{out}");
    let (code, _, err) = flink(h, &["logs", "-n", ns, "orders", "-c", "x$", "-E", "y"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a container matching `x$` not matching `y`") && err.contains(SIDECAR),
        "{err}"
    );

    // Field selectors and --node go to the API server.
    let (out, _) = run(&["--field-selector", &format!("metadata.name={TM1}")]);
    assert_eq!(pods(&out), vec![format!("{TM1}/{MAIN}")], "{out}");
    let (out, _) = run(&["orders", "--node", &h.node]);
    assert_eq!(pods(&out).len(), 3, "{out}");
    let (code, _, err) = flink(h, &["logs", "-n", ns, "orders", "--node", "nowhere"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("spec.nodeName=nowhere"), "{err}");
    let (code, _, err) = flink(h, &["logs", "-n", ns, "--field-selector", "nonsense=1"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("field selector `nonsense=1`"), "{err}");
}

#[test]
fn several_namespaces_templates_colours_and_time_zones() {
    let Some(h) = harness_or_skip("several_namespaces_templates_colours_and_time_zones") else {
        return;
    };
    let a = seed(h, "ns-a", 5);
    let b = seed(h, "ns-b", 5);
    let both = format!("{},{}", a.ns, b.ns);

    // -n a,b: both namespaces, each line's prefix starts with its namespace.
    let (code, out, err) = flink(
        h,
        &["logs", "orders", "-n", &both, "--component", "taskmanager"],
    );
    assert_eq!(code, 0, "{err}");
    for ns in [&a.ns, &b.ns] {
        for tm in [TM1, TM2] {
            assert!(
                out.contains(&format!("{ns}/{tm}/{MAIN} ")),
                "{ns}/{tm}: {out}"
            );
        }
    }
    assert!(
        out.lines()
            .all(|l| l.starts_with(&a.ns) || l.starts_with(&b.ns)),
        "{out}"
    );

    // --template: stern's fields, index on labels, a line ending added when missing.
    let (code, out, err) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &a.ns,
            "--component",
            "jobmanager",
            "--all-containers",
            "--tail",
            "1",
            "--template",
            "{{.Namespace}}|{{.PodName}}|{{.ContainerName}}|{{.NodeName}}|{{index .Labels \"component\"}}|{{.Message}}",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("{}|{JM}|{MAIN}|{}|jobmanager|", a.ns, h.node))
            && lines[0].ends_with("JM-CURRENT line 4"),
        "{out}"
    );
    assert!(
        lines[1].starts_with(&format!("{}|{JM}|{SIDECAR}|", a.ns)),
        "{out}"
    );
    let (_, out, _) = flink(
        h,
        &[
            "logs",
            "orders",
            "-n",
            &a.ns,
            "--tail",
            "1",
            "--template",
            "{{.Message}}{{\"\\n\"}}",
        ],
    );
    assert_eq!(
        out.lines().count(),
        3,
        "one line each, no blank ones: {out:?}"
    );
    assert!(!out.contains("\n\n"), "{out:?}");

    // Colour per pod and per container, the same on every run, only when colour is on.
    let args = [
        "logs",
        "orders",
        "-n",
        &a.ns,
        "--all-containers",
        "--tail",
        "1",
        "--color",
        "always",
    ];
    let (_, first, _) = flink(h, &args);
    let (_, again, _) = flink(h, &args);
    assert_eq!(first, again);
    let colour_of = |text: &str, name: &str| -> String {
        let at = text
            .find(&format!("m{name}\x1b[0m"))
            .unwrap_or_else(|| panic!("{name}: {text:?}"));
        let start = text[..at].rfind("\x1b[").expect("an SGR before the name");
        text[start + 2..at].to_string()
    };
    assert_ne!(
        colour_of(&first, MAIN),
        colour_of(&first, SIDECAR),
        "{first:?}"
    );
    for name in [JM, TM1, TM2, MAIN, SIDECAR] {
        let c = colour_of(&first, name);
        assert!(
            !["31", "33", "91", "93"].contains(&c.as_str()),
            "{name}: {c}"
        );
    }
    let (_, plain, _) = flink(h, &args[..7]);
    assert!(!plain.contains('\x1b'), "{plain:?}");

    // --timezone converts the kubelet's UTC times (stern's format); without it, as kubectl.
    let ts = |zone: Option<&str>| {
        let mut args = vec![
            "logs",
            "orders",
            "-n",
            &a.ns,
            "--component",
            "taskmanager",
            "--tail",
            "1",
            "--timestamps",
        ];
        if let Some(z) = zone {
            args.extend_from_slice(&["--timezone", z]);
        }
        let (code, out, err) = flink(h, &args);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .unwrap_or_default()
            .to_string()
    };
    let utc = ts(None);
    let plus2 = ts(Some("+02:00"));
    let named = ts(Some("UTC"));
    let t_utc = chrono::DateTime::parse_from_rfc3339(&utc).expect("kubelet time");
    let t_plus2 = chrono::DateTime::parse_from_rfc3339(&plus2).expect("zoned time");
    assert!(
        plus2.ends_with("+02:00") && plus2.len() == "2026-01-01T00:00:00.000000000+02:00".len(),
        "{plus2}"
    );
    assert_eq!(t_utc, t_plus2, "the same instant");
    assert!(named.ends_with('Z'), "{named}");
}

#[test]
fn follow_with_filters_query_namespaces_and_template() {
    let Some(h) = harness_or_skip("follow_with_filters_query_namespaces_and_template") else {
        return;
    };
    let a = seed(h, "follow-a", 5);
    let b = seed(h, "follow-b", 5);
    let both = format!("{},{}", a.ns, b.ns);
    // A plain name that is no deployment (a query), two namespaces, line filters, a template.
    let fl = Follower::start(
        h,
        &[
            "logs",
            "-f",
            "orders-taskmanager",
            "-n",
            &both,
            "--exclude-pod",
            "1-2$",
            "-e",
            "DROP",
            "--template",
            "{{.Namespace}}|{{.PodName}}|{{.Message}}",
        ],
    );
    for ns in [&a.ns, &b.ns] {
        fl.wait_out("TM1's lines in both namespaces", &format!("{ns}|{TM1}|"));
    }
    fl.wait_err(
        "the query note",
        "following the Flink pods whose name matches",
    );
    for ns in [&a.ns, &b.ns] {
        append(
            &h.log_root.join(ns).join(TM1).join(format!("{MAIN}.log")),
            &format!("{} INFO  x [] - DROP this {ns}", log4j(chrono::Utc::now())),
        );
        append(
            &h.log_root.join(ns).join(TM1).join(format!("{MAIN}.log")),
            &format!("{} INFO  x [] - KEEP-{ns}", log4j(chrono::Utc::now())),
        );
    }
    fl.wait_out("a line appended in a", &format!("KEEP-{}", a.ns));
    fl.wait_out("a line appended in b", &format!("KEEP-{}", b.ns));
    let (code, out, err) = fl.interrupt();
    assert_eq!(code, 0, "{}", err.join("\n"));
    let out = out.join("\n");
    assert!(!out.contains("DROP"), "{out}");
    assert!(!out.contains(TM2) && !out.contains(JM), "{out}");
    assert!(out.lines().all(|l| l.split('|').count() >= 3), "{out}");

    // A regular expression with container regexes and --node, following.
    let fl = Follower::start(
        h,
        &[
            "logs",
            "-f",
            "-n",
            &a.ns,
            "^orders-",
            "-c",
            "ship|main",
            "-E",
            "main",
            "--node",
            &h.node,
            "-i",
            "SIDECAR",
        ],
    );
    fl.wait_out("the sidecar's lines", "SIDECAR line 9");
    append(
        &h.log_root
            .join(&a.ns)
            .join(JM)
            .join(format!("{SIDECAR}.log")),
        &format!(
            "{} INFO  x [] - SIDECAR-APPENDED",
            log4j(chrono::Utc::now())
        ),
    );
    fl.wait_out("the appended sidecar line", "SIDECAR-APPENDED");
    let (code, out, err) = fl.interrupt();
    assert_eq!(code, 0, "{}", err.join("\n"));
    assert!(
        out.iter()
            .all(|l| l.starts_with(&format!("{JM}/{SIDECAR} "))),
        "{}",
        out.join("\n")
    );
}
