use super::printer::{color_index, in_zone, PALETTE};
use super::*;
use crate::flink::mode::Component;

fn printer_for(a: &LogsArgs, json: bool, color: bool, ns: bool) -> Result<Printer, Error> {
    super::printer(a, json, color, ns)
}

fn spec(previous: bool) -> StreamSpec {
    StreamSpec {
        namespace: "analytics".into(),
        pod: "orders-5d8f9c7b6d-x7k2p".into(),
        container: "flink-main-container".into(),
        previous,
        role: Some(Component::JobManager),
        node: "node-1".into(),
        labels: Default::default(),
        annotations: Default::default(),
    }
}

fn printer() -> Printer {
    Printer {
        context: None,
        json: false,
        color: false,
        prefix: true,
        namespaces: false,
        highlight: true,
        exclude: Vec::new(),
        include: Vec::new(),
        marks: None,
        template: None,
        timezone: None,
    }
}

const FORBIDDEN: &str = "Message: pods is forbidden: User \"system:serviceaccount:analytics:flink\" cannot watch resource \"pods\" in API group \"\" in the namespace \"analytics\".";

fn render(p: &Printer, s: &StreamSpec, ts: Option<&str>, text: &str) -> String {
    let prefix = p.prefix(s);
    let mut out = Vec::new();
    p.line(s, &prefix, ts, text, &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn several_contexts_put_the_context_first_on_each_line_and_in_json() {
    let p = Printer {
        context: Some("prod-eu".into()),
        ..printer()
    };
    assert_eq!(
        render(&p, &spec(true), None, "hello"),
        "[prod-eu] orders-5d8f9c7b6d-x7k2p/flink-main-container [previous] hello\n"
    );
    let all_ns = Printer {
        namespaces: true,
        ..p.clone()
    };
    assert!(render(&all_ns, &spec(false), None, "x")
        .starts_with("[prod-eu] analytics/orders-5d8f9c7b6d-x7k2p/"));
    let coloured = Printer {
        color: true,
        ..p.clone()
    };
    let line = render(&coloured, &spec(false), None, "x");
    assert!(line.starts_with("\u{1b}["), "{line:?}");
    assert!(line.contains("[prod-eu]"), "{line:?}");
    let json = Printer {
        json: true,
        ..p.clone()
    };
    let v: serde_json::Value =
        serde_json::from_str(render(&json, &spec(false), None, "x").trim_end()).unwrap();
    assert_eq!(v["context"], "prod-eu");
    // One context: no `context` key, as before.
    let one = Printer {
        json: true,
        ..printer()
    };
    let v: serde_json::Value =
        serde_json::from_str(render(&one, &spec(false), None, "x").trim_end()).unwrap();
    assert!(v.get("context").is_none(), "{v}");
    let templated = Printer {
        template: Some(Template::parse("{{.PodName}}: {{.Message}}").unwrap()),
        ..p.clone()
    };
    assert_eq!(
        render(&templated, &spec(false), None, "hi"),
        "[prod-eu] orders-5d8f9c7b6d-x7k2p: hi\n"
    );
    // A template that shows the context places it itself: no prefix before it.
    let placed = Printer {
        template: Some(Template::parse("{{.PodName}}@{{.Context}}: {{.Message}}").unwrap()),
        ..p.clone()
    };
    assert_eq!(
        render(&placed, &spec(false), None, "hi"),
        "orders-5d8f9c7b6d-x7k2p@prod-eu: hi\n"
    );
    let bare = Printer { prefix: false, ..p };
    assert_eq!(render(&bare, &spec(false), None, "hello"), "hello\n");
}

#[test]
fn plain_lines_with_prefix_and_previous() {
    let p = printer();
    assert_eq!(
        render(&p, &spec(false), None, "hello"),
        "orders-5d8f9c7b6d-x7k2p/flink-main-container hello\n"
    );
    assert_eq!(
        render(&p, &spec(true), Some("2026-11-28T09:39:02Z"), "hello"),
        "orders-5d8f9c7b6d-x7k2p/flink-main-container [previous] 2026-11-28T09:39:02Z hello\n"
    );
    let bare = Printer {
        prefix: false,
        ..printer()
    };
    assert_eq!(render(&bare, &spec(false), None, "hello"), "hello\n");
    let all_ns = Printer {
        namespaces: true,
        ..printer()
    };
    assert!(
        render(&all_ns, &spec(false), None, "x").starts_with("analytics/orders-5d8f9c7b6d-x7k2p/")
    );
}

#[test]
fn printed_lines_hold_no_secret_and_no_terminal_sequence_but_colour() {
    let p = printer();
    let out = render(
        &p,
        &spec(false),
        None,
        "jdbc:postgresql://db/orders?user=app&password=hunter2 \x1b]0;pwned\x07\x1b[2J",
    );
    assert!(!out.contains("hunter2"), "{out}");
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    let coloured = Printer {
        color: true,
        ..printer()
    };
    let out = render(&coloured, &spec(false), None, "\x1b[33mWARN\x1b[m ok");
    assert!(out.contains("\x1b[33mWARN\x1b[m ok"), "{out:?}");
    let json = Printer {
        json: true,
        ..printer()
    };
    let out = render(&json, &spec(false), None, "password=hunter2");
    assert!(!out.contains("hunter2"), "{out}");
}

/// `--highlight` names a line as triage and doctor do (one reader): a 403 to the namespace's
/// `default` ServiceAccount is that account's missing rights, not any refusal.
#[test]
fn highlight_names_a_line_as_triage_does() {
    let line = FORBIDDEN.replace("analytics:flink", "analytics:default");
    let out = render(&printer(), &spec(false), None, &line);
    assert!(out.contains("⟵ default_service_account"), "{out}");
    let triaged = crate::commands::triage::triage_text(&line, "t");
    assert_eq!(
        triaged.report.findings[0].category,
        crate::finding::Category::DefaultServiceAccount
    );
}

#[test]
fn highlight_marks_the_403_line_with_its_category() {
    let out = render(&printer(), &spec(false), None, FORBIDDEN);
    assert!(
        out.contains("⟵ rbac_forbidden: the API server refused"),
        "{out}"
    );
    let coloured = Printer {
        color: true,
        ..printer()
    };
    let out = render(&coloured, &spec(false), None, FORBIDDEN);
    assert!(out.contains(&format!("\x1b[31m{FORBIDDEN}")), "{out:?}");
    let quiet = Printer {
        highlight: false,
        ..printer()
    };
    assert!(!render(&quiet, &spec(false), None, FORBIDDEN).contains('⟵'));
    assert!(!render(&printer(), &spec(false), None, "INFO all good").contains('⟵'));
}

#[test]
fn colours_per_pod_and_container_are_stable_and_never_red_or_yellow() {
    assert_eq!(prefix_colors("a", "b"), prefix_colors("a", "b"));
    // stern's FNV-1, not FNV-1a: the index of "" is the offset basis modulo the list.
    assert_eq!(color_index(""), (0x811c_9dc5u32 as usize) % PALETTE.len());
    let mut seen = std::collections::HashSet::new();
    for pod in [
        "orders-jm",
        "orders-taskmanager-1-1",
        "orders-taskmanager-1-2",
        "x",
    ] {
        for c in ["flink-main-container", "log-shipper"] {
            let (p, k) = prefix_colors(pod, c);
            for look in [p, k] {
                let start = look.start();
                assert!(
                    !["31m", "33m", "91m", "93m"]
                        .iter()
                        .any(|c| start.ends_with(c)),
                    "{start:?}"
                );
            }
            seen.insert(p.start());
        }
    }
    assert!(seen.len() > 1, "pods get different colours: {seen:?}");
    let coloured = Printer {
        color: true,
        ..printer()
    };
    let (p, c) = prefix_colors("orders-5d8f9c7b6d-x7k2p", "flink-main-container");
    assert_eq!(
        coloured.prefix(&spec(true)),
        format!(
            "{}orders-5d8f9c7b6d-x7k2p\x1b[0m/{}flink-main-container\x1b[0m [previous] ",
            p.start(),
            c.start()
        )
    );
    // The container's colour is its name's, whatever the pod.
    assert_eq!(
        prefix_colors("a", "sidecar").1,
        prefix_colors("b", "sidecar").1
    );
}

#[test]
fn exclude_include_and_marks_as_stern_filters() {
    let p = Printer {
        exclude: vec![Regex::new("DEBUG").unwrap(), Regex::new("noise").unwrap()],
        include: vec![
            Regex::new("orders").unwrap(),
            Regex::new("forbidden").unwrap(),
        ],
        ..printer()
    };
    assert_eq!(render(&p, &spec(false), None, "DEBUG orders"), "");
    assert_eq!(render(&p, &spec(false), None, "INFO payments"), "");
    assert!(render(&p, &spec(false), None, "INFO orders").ends_with("INFO orders\n"));
    // The catalogue still marks what the filters keep.
    assert!(render(&p, &spec(false), None, FORBIDDEN).contains("⟵ rbac_forbidden"));

    // -H marks matches (and -i's) only with colour, apart from the catalogue's red.
    let include = [Regex::new("ord").unwrap()];
    let highlight = [
        Regex::new("orders").unwrap(),
        Regex::new("forbidden").unwrap(),
    ];
    let m = marks(&include, &highlight).unwrap();
    assert_eq!(
        m.find("xorders").unwrap().as_str(),
        "orders",
        "longest first"
    );
    let plain = Printer {
        marks: Some(m.clone()),
        ..printer()
    };
    assert_eq!(
        render(&plain, &spec(false), None, "orders ok"),
        "orders-5d8f9c7b6d-x7k2p/flink-main-container orders ok\n"
    );
    let coloured = Printer {
        color: true,
        prefix: false,
        marks: Some(m),
        ..printer()
    };
    assert_eq!(
        render(&coloured, &spec(false), None, "see orders ok"),
        "see \x1b[0m\x1b[1;7morders\x1b[0m ok\n"
    );
    let out = render(&coloured, &spec(false), None, FORBIDDEN);
    assert!(
        out.starts_with("\x1b[31mMessage: pods is \x1b[0m\x1b[1;7mforbidden\x1b[0m\x1b[31m: User"),
        "{out:?}"
    );
    assert!(out.contains("\x1b[1;31m⟵ rbac_forbidden"), "{out:?}");
    assert!(marks(&[], &[]).is_none());
}

#[test]
fn templates_and_time_zones() {
    let p = Printer {
        template: Some(
            Template::parse(
                "{{.Namespace}}/{{.PodName}}/{{.ContainerName}}@{{.NodeName}} {{.Message}}",
            )
            .unwrap(),
        ),
        ..printer()
    };
    assert_eq!(p.prefix(&spec(false)), "");
    assert_eq!(
            render(&p, &spec(false), Some("2026-11-28T09:39:02.5Z"), "hello"),
            "analytics/orders-5d8f9c7b6d-x7k2p/flink-main-container@node-1 2026-11-28T09:39:02.5Z hello\n"
        );
    // No second line ending when the template has one; no hint, the message only.
    let nl = Printer {
        template: Some(Template::parse("{{.Message}}{{\"\\n\"}}").unwrap()),
        ..printer()
    };
    assert_eq!(
        render(&nl, &spec(false), None, FORBIDDEN),
        format!("{FORBIDDEN}\n")
    );

    let berlin = Printer {
        timezone: Some(parse_timezone("+01:00").unwrap()),
        ..printer()
    };
    assert!(
        render(&berlin, &spec(false), Some("2026-11-28T09:39:02.118Z"), "x")
            .contains(" 2026-11-28T10:39:02.118000000+01:00 x")
    );
    let utc = Printer {
        timezone: Some(parse_timezone("UTC").unwrap()),
        json: true,
        ..printer()
    };
    let out = render(&utc, &spec(false), Some("2026-11-28T09:39:02Z"), "x");
    assert!(
        out.contains("\"timestamp\":\"2026-11-28T09:39:02.000000000Z\""),
        "{out}"
    );
    assert_eq!(in_zone("not a time", &TimeZone::UTC), "not a time");
    assert!(parse_timezone("-05:30").is_ok() && parse_timezone("+0200").is_ok());
    assert!(parse_timezone("Local").is_ok());
    for bad in ["+25:00", "+1", "Mars/Olympus", "+ab"] {
        let e = parse_timezone(bad).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("--timezone {bad}:")) && !e.contains('\n'),
            "{e}"
        );
    }
}

#[test]
fn grep_filters_and_json_lines_carry_the_signature() {
    let grep = Printer {
        include: vec![Regex::new("forbidden").unwrap()],
        ..printer()
    };
    assert_eq!(render(&grep, &spec(false), None, "INFO fine"), "");
    assert!(!render(&grep, &spec(false), None, FORBIDDEN).is_empty());

    let json = Printer {
        json: true,
        ..printer()
    };
    let out = render(&json, &spec(true), Some("2026-11-28T09:39:12Z"), FORBIDDEN);
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(v["pod"], "orders-5d8f9c7b6d-x7k2p");
    assert_eq!(v["container"], "flink-main-container");
    assert_eq!(v["previous"], true);
    assert_eq!(v["timestamp"], "2026-11-28T09:39:12Z");
    assert_eq!(v["line"], FORBIDDEN);
    assert_eq!(v["signature"], "SIG-K8S-FORBIDDEN");
    assert_eq!(v["category"], "rbac_forbidden");
    let out = render(&json, &spec(false), None, "plain \u{fffd} line");
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert!(v["signature"].is_null() && v["category"].is_null() && v["timestamp"].is_null());
    // A container's C1 controls (CSI as one byte) and DEL leave as JSON escapes, never raw.
    let hostile = "a \u{9b}2J b \u{7f} c \u{1b}]0;t\u{7}";
    let out = render(&json, &spec(false), None, hostile);
    assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    let v: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(v["line"], hostile);
}

#[test]
fn since_durations_as_kubectl_takes_them() {
    assert_eq!(parse_since("10m").unwrap(), 600);
    assert_eq!(parse_since("1h30m").unwrap(), 5400);
    assert_eq!(parse_since("1.5s").unwrap(), 2);
    assert_eq!(parse_since("500ms").unwrap(), 1);
    for bad in ["", "10", "ten", "5x", "0s", "-1m"] {
        assert!(parse_since(bad).is_err(), "{bad}");
    }
}

#[test]
fn flags_become_options() {
    use clap::Parser;
    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        a: LogsArgs,
    }
    let parse = |args: &[&str]| {
        T::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map(|t| t.a)
    };
    let a = parse(&["orders"]).unwrap();
    let o = options(&a, 0).unwrap();
    assert_eq!(o.tail, Some(DEFAULT_TAIL));
    assert_eq!(o.containers, Containers::default_choice());
    // A plain NAME: the deployment, read as stern's pod query when it has no pods.
    assert_eq!(o.target.name.as_deref(), Some("orders"));
    let fb = o.fallback.as_ref().unwrap();
    assert_eq!(fb.pod_query.as_ref().unwrap().as_str(), "orders");
    assert_eq!(fb.or_deployment.as_deref(), Some("orders"));
    assert_eq!(o.max_requests, 50);
    assert_eq!(
        options(&parse(&["orders", "--tail", "-1"]).unwrap(), 0)
            .unwrap()
            .tail,
        None
    );
    assert_eq!(
        options(&parse(&["orders", "--since", "10m"]).unwrap(), 0)
            .unwrap()
            .tail,
        None
    );
    assert_eq!(
        options(
            &parse(&["orders", "--since", "10m", "--tail=5"]).unwrap(),
            0
        )
        .unwrap()
        .tail,
        Some(5)
    );
    assert!(options(&parse(&["orders", "--tail", "-2"]).unwrap(), 0).is_err());
    // KIND/NAME as stern takes it: a deployment (never a query), or one pod.
    let o = options(&parse(&["flinkdeployment/orders"]).unwrap(), 0).unwrap();
    assert_eq!(o.target.name.as_deref(), Some("orders"));
    assert!(o.fallback.is_none());
    let o = options(&parse(&["pod/orders-jm.1"]).unwrap(), 0).unwrap();
    assert_eq!(o.target.pod_query.unwrap().as_str(), "^orders\\-jm\\.1$");
    assert!(options(&parse(&["bad/na me"]).unwrap(), 0).is_err());
    assert!(options(&parse(&["a/b", "-l", "x=y"]).unwrap(), 0).is_err());
    // Not a plain name: a regular expression over the Flink pods' names.
    let o = options(&parse(&["orders-taskmanager-.*"]).unwrap(), 0).unwrap();
    assert!(o.target.name.is_none() && o.fallback.is_none());
    assert_eq!(
        o.target.pod_query.unwrap().as_str(),
        "orders-taskmanager-.*"
    );
    // With -l, NAME is the query.
    let o = options(&parse(&["-l", "team=data", "orders"]).unwrap(), 0).unwrap();
    assert_eq!(o.target.selector.as_deref(), Some("team=data"));
    assert_eq!(o.target.pod_query.unwrap().as_str(), "orders");
    // Bad regular expressions: one line each, exit 2.
    for args in [
        &["orders(", "--tail", "1"][..],
        &["orders", "-c", "("],
        &["orders", "-E", "["],
        &["orders", "--exclude-pod", "*x"],
    ] {
        let e = options(&parse(args).unwrap(), 0).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{args:?}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    let o = options(
        &parse(&[
            "orders",
            "-c",
            "main|ship",
            "-E",
            "istio",
            "--exclude-pod=-1$",
            "--exclude-pod",
            "2$",
            "--field-selector",
            "status.phase=Running",
            "--node",
            "node-1",
        ])
        .unwrap(),
        0,
    )
    .unwrap();
    assert_eq!(o.containers.exclude.len(), 1);
    assert_eq!(o.target.exclude_pods.len(), 2);
    assert_eq!(
        o.target.fields.as_deref(),
        Some("status.phase=Running,spec.nodeName=node-1")
    );
    assert_eq!(o.fallback.unwrap().fields, o.target.fields);
    assert!(options(&parse(&["--node", "a,b"]).unwrap(), 0).is_err());
    // Line filters and their flags, stern's spelling; --grep is -i.
    let a = parse(&[
        "-e",
        "x",
        "--exclude",
        "y",
        "-i",
        "a",
        "--grep",
        "b",
        "-H",
        "c",
        "--highlight",
        "d",
    ])
    .unwrap();
    assert_eq!(
        (a.exclude.len(), a.include.len(), a.highlight.len()),
        (2, 2, 2)
    );
    // A bare --highlight still forces the catalogue marking, as before.
    let a = parse(&["orders", "--highlight"]).unwrap();
    assert_eq!(a.highlight, vec![String::new()]);
    let p = printer_for(&a, false, false, false).unwrap();
    assert!(p.highlight && p.marks.is_none());
    let a = parse(&["orders", "-H", "x", "--no-highlight"]).unwrap();
    let p = printer_for(&a, false, true, false).unwrap();
    assert!(!p.highlight && p.marks.is_some());
    for bad in [
        &["-e", "("][..],
        &["-i", "["],
        &["-H", "+"],
        &["--template", "{{.Nope}}"],
    ] {
        let e = printer_for(&parse(bad).unwrap(), false, false, false).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }
    assert!(printer_for(
        &parse(&["--template", "{{.Message}}"]).unwrap(),
        true,
        false,
        false
    )
    .is_err());
    assert!(
        parse(&["--timezone", "UTC"]).is_err(),
        "--timezone needs --timestamps"
    );
    assert!(parse(&["--timezone", "UTC", "--timestamps"]).is_ok());
    assert!(options(&parse(&["orders", "--component", "operator"]).unwrap(), 0).is_err());
    assert!(options(&parse(&["--since-time", "yesterday"]).unwrap(), 0).is_err());
    assert!(
        parse(&["orders", "-l", "a=b"]).is_ok(),
        "NAME with -l is a pod query"
    );
    assert!(parse(&["orders", "-p", "-f"]).is_err());
    assert!(parse(&[
        "orders",
        "--since",
        "1m",
        "--since-time",
        "2026-01-01T00:00:00Z"
    ])
    .is_err());
    assert!(parse(&["orders", "--max-log-requests", "0"]).is_err());
    let a = parse(&["--prefix=false", "orders"]).unwrap();
    assert_eq!((a.prefix, a.no_prefix), (Some(false), false));
    let a = parse(&["--no-prefix", "--prefix"]).unwrap();
    assert_eq!((a.prefix, a.no_prefix), (Some(true), false));
    let a = parse(&["--component", "taskmanager", "-c", "x", "orders"]).unwrap();
    let o = options(&a, 0).unwrap();
    assert_eq!(o.target.component, Some(Component::TaskManager));
    assert_eq!(
        o.containers,
        Containers::matching(Pattern(Regex::new("x").unwrap()))
    );
}

#[test]
fn several_namespaces_are_namespace_names() {
    let ns = |n: &str| KubeArgs {
        namespace: Some(n.into()),
        ..KubeArgs::default()
    };
    assert!(check_namespaces(&ns("analytics")).is_ok());
    assert!(check_namespaces(&ns("analytics,payments")).is_ok());
    assert!(check_namespaces(&KubeArgs::default()).is_ok());
    for bad in ["a,,b", "a,B", "a,-b", "a,b_c"] {
        let e = check_namespaces(&ns(bad)).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{bad}");
    }
}
