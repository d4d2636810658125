//! The command line as a user meets it: `--help` laid out as kubectl's (the command's own flags,
//! then "Global flags"; offline commands without the cluster flags; examples everywhere; `-o` with
//! only the formats the command prints), and a reader that closes the output early (`| head -1`)
//! is no error for any command.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// kubectl's connection flags: only commands that read a cluster show them.
const CLUSTER_FLAGS: &[&str] = &[
    "--kubeconfig",
    "--context",
    "--cluster",
    "--user",
    "-n, --namespace",
    "-A, --all-namespaces",
    "--as <",
    "--as-group",
    "--request-timeout",
];

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("KUBECONFIG")
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .expect("run kubectl-flink");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn help(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// The commands `kubectl flink --help` lists (so a new command is checked too).
fn commands() -> Vec<String> {
    let text = help(&["--help"]);
    let list = text
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands: section");
    let names: Vec<String> = list
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 7, "{names:?}");
    names
}

/// The sections of a help text: (heading, its lines), headings being the unindented lines
/// ending in ':'.
fn sections(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if is_heading(line) {
            out.push((line.trim_end_matches(':').to_string(), Vec::new()));
        } else if let Some((_, lines)) = out.last_mut() {
            lines.push(line.to_string());
        }
    }
    out
}

fn is_heading(line: &str) -> bool {
    !line.starts_with(' ') && line.ends_with(':')
}

fn section<'a>(all: &'a [(String, Vec<String>)], heading: &str) -> Option<&'a [String]> {
    all.iter()
        .find(|(h, _)| h == heading)
        .map(|(_, l)| l.as_slice())
}

fn has_flag(lines: &[String], flag: &str) -> bool {
    lines
        .iter()
        .any(|l| l.trim_start().starts_with(flag) || l.contains(&format!(" {flag}")))
}

#[test]
fn every_command_lists_its_own_flags_first_then_the_global_flags() {
    for cmd in commands() {
        for h in ["-h", "--help"] {
            let text = help(&[&cmd, h]);
            let all = sections(&text);
            let headings: Vec<&str> = all.iter().map(|(h, _)| h.as_str()).collect();
            let options = headings
                .iter()
                .position(|h| *h == "Options")
                .unwrap_or_else(|| panic!("{cmd} {h}: no Options: {headings:?}"));
            if let Some(global) = headings.iter().position(|h| *h == "Global flags") {
                assert!(options < global, "{cmd} {h}: {headings:?}");
                // Only the shared flags there; the command's own stay under Options.
                let globals = section(&all, "Global flags").unwrap();
                for flag in [
                    "--fail-on",
                    "--from",
                    "-f, --",
                    "--grep",
                    "--for",
                    "--fix",
                    "--sarif",
                ] {
                    assert!(
                        !has_flag(globals, flag),
                        "{cmd} {h}: {flag} under Global flags"
                    );
                }
                let options = section(&all, "Options").unwrap();
                assert!(
                    !has_flag(options, "--kubeconfig"),
                    "{cmd} {h}: cluster flags in Options"
                );
                assert!(
                    !has_flag(options, "--color"),
                    "{cmd} {h}: --color in Options"
                );
            }
        }
    }
}

#[test]
fn the_cluster_flags_are_shown_by_the_commands_that_read_a_cluster_and_no_other() {
    for cmd in commands() {
        let text = help(&[&cmd, "--help"]);
        let all = sections(&text);
        let global = section(&all, "Global flags").unwrap_or(&[]);
        let reads_cluster = ["doctor", "logs", "can-i", "watch"].contains(&cmd.as_str());
        for flag in CLUSTER_FLAGS {
            if reads_cluster {
                assert!(
                    has_flag(global, flag),
                    "{cmd}: {flag} not under Global flags:\n{text}"
                );
            } else {
                assert!(
                    !text.contains(flag),
                    "{cmd} reads no cluster but shows {flag}:\n{text}"
                );
            }
        }
    }
    // The root lists them all: they apply before any command too.
    let root = help(&["--help"]);
    let all = sections(&root);
    for flag in CLUSTER_FLAGS {
        assert!(
            has_flag(section(&all, "Global flags").unwrap(), flag),
            "root: {flag}"
        );
    }
}

#[test]
fn the_flags_an_offline_command_hides_are_still_accepted() {
    // Command lines that worked before the help was reshaped keep working.
    let triage = "tests/triage/describe-tm-oomkilled.txt";
    for args in [
        &[
            "triage",
            "--kubeconfig",
            "/nowhere",
            "-A",
            "--as",
            "x",
            triage,
        ][..],
        &["-n", "prod", "--context", "c", "triage", triage][..],
        &[
            "lint",
            "-f",
            "tests/lint/good",
            "-n",
            "prod",
            "--request-timeout",
            "5s",
        ][..],
        &["explain", "FLK501", "-o", "json", "--color", "never", "-v"][..],
        &["-o", "json", "explain", "FLK501"][..],
    ] {
        let (code, out, err) = run(args);
        assert!(code == 0 || code == 1, "{args:?}: exit {code}: {err}");
        assert!(!out.is_empty(), "{args:?}");
    }
}

#[test]
fn every_command_has_examples() {
    for cmd in commands() {
        for h in ["-h", "--help"] {
            let text = help(&[&cmd, h]);
            let all = sections(&text);
            let examples = section(&all, "Examples")
                .unwrap_or_else(|| panic!("{cmd} {h}: no Examples:\n{text}"));
            let runs = examples
                .iter()
                .filter(|l| {
                    l.contains(&format!("kubectl flink {cmd}"))
                        || l.contains(&format!("kubectl-flink {cmd}"))
                })
                .count();
            assert!(
                runs >= 2,
                "{cmd} {h}: fewer than two examples run it:\n{examples:?}"
            );
        }
    }
}

/// The formats `cmd --help` offers for -o (None: no -o shown).
fn formats(cmd: &str) -> Option<Vec<String>> {
    let text = help(&[cmd, "--help"]);
    let mut lines = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("-o, --output"));
    let first = lines.next()?;
    // The flag's line and its continuation, up to the next flag or heading.
    let entry: String = std::iter::once(first)
        .chain(lines.take_while(|l| !l.trim_start().starts_with('-') && !is_heading(l)))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let values = entry
        .split("[possible values: ")
        .nth(1)
        .and_then(|v| v.split(']').next())
        .unwrap_or_else(|| panic!("{cmd}: -o without possible values:\n{text}"));
    Some(values.split(", ").map(str::to_string).collect())
}

#[test]
fn each_command_offers_only_the_output_formats_it_prints() {
    let all = ["table", "json", "markdown", "sarif", "html"];
    let reports = ["table", "json", "markdown", "sarif"];
    let three = ["table", "json", "markdown"];
    let want: &[(&str, Option<&[&str]>)] = &[
        ("doctor", Some(&all)),
        ("triage", Some(&three)),
        ("logs", Some(&["table", "json"])),
        ("can-i", Some(&three)),
        ("lint", Some(&reports)),
        ("explain", None),
        ("completion", None),
        ("watch", None),
    ];
    let listed = commands();
    for (cmd, formats_wanted) in want {
        assert!(listed.iter().any(|c| c == cmd), "{cmd} is not a command");
        let got = formats(cmd);
        assert_eq!(
            got.as_deref()
                .map(|v| v.iter().map(String::as_str).collect::<Vec<_>>()),
            formats_wanted.map(|f| f.to_vec()),
            "{cmd}"
        );
        // What is not offered is refused as a usage error, naming what is.
        if let Some(offered) = formats_wanted {
            for f in all.iter().filter(|f| !offered.contains(f)) {
                let (code, out, err) = run(&[cmd, "-o", f]);
                assert_eq!(code, 2, "{cmd} -o {f}: {err}");
                assert_eq!(out, "");
                assert!(
                    err.contains("possible values: table, json"),
                    "{cmd} -o {f}: {err}"
                );
            }
        }
    }
    assert_eq!(
        listed.len(),
        want.len(),
        "a command without an -o expectation: {listed:?}"
    );
    // Every format offered by an offline command prints.
    for (args, formats) in [
        (&["doctor", "--from", "examples/canonical"][..], &all[..]),
        (
            &["triage", "tests/triage/describe-tm-oomkilled.txt"][..],
            &three[..],
        ),
        (&["lint", "-f", "tests/lint/bad"][..], &reports[..]),
    ] {
        for f in formats {
            let mut a = args.to_vec();
            a.extend(["-o", f]);
            let (code, out, err) = run(&a);
            assert_eq!(code, 1, "{a:?}: {err}");
            assert!(!out.is_empty(), "{a:?}");
        }
    }
}

/// Runs `args` with standard output closed before the command writes (`| head -1` with a reader
/// that is already gone): the exit code and stderr must be those of a run whose output is read.
fn with_output_closed(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("KUBECONFIG")
        .env("HOME", std::env::temp_dir())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kubectl-flink");
    drop(child.stdout.take());
    if let (Some(text), Some(mut input)) = (stdin, child.stdin.take()) {
        let _ = input.write_all(text);
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_output_is_no_error_for_any_command_or_format() {
    let dir = tempfile::tempdir().unwrap();
    // Far more than a pipe buffers, so the write really fails.
    let log: String = (0..300)
        .map(|i| format!("pods is forbidden: User \"system:serviceaccount:ns{i}:sa{i}\" cannot watch resource \"pods\" in API group \"\" in the namespace \"ns{i}\"\n"))
        .collect();
    let many = dir.path().join("many.log");
    std::fs::write(&many, &log).unwrap();
    let many = many.to_str().unwrap();
    let mut cases: Vec<Vec<&str>> = Vec::new();
    for f in ["table", "json", "markdown", "sarif"] {
        cases.push(vec!["doctor", "--from", "examples/canonical", "-o", f]);
        cases.push(vec!["triage", many, "-o", f]);
        cases.push(vec!["lint", "-f", "tests/lint/bad", "-o", f]);
        cases.push(vec!["lint", "-f", "tests/lint/good", "-o", f]);
    }
    cases.push(vec!["lint", "-f", "tests/lint/bad", "--sarif"]);
    cases.push(vec!["doctor", "--from", "examples/canonical", "--fix"]);
    cases.push(vec!["doctor", "--from", "examples/canonical", "--fix=run"]);
    cases.push(vec!["explain", "FLK501"]);
    cases.push(vec!["completion", "bash"]);
    cases.push(vec!["--help"]);
    cases.push(vec!["doctor", "--help"]);
    cases.push(vec!["__complete", ""]);
    for args in &cases {
        let (code, _, err) = run(args);
        let (closed_code, closed_err) = with_output_closed(args, None);
        assert_eq!(closed_code, code, "{args:?}: stderr {closed_err}");
        assert_eq!(closed_err, err, "{args:?}: quiet on a closed pipe");
        assert!(
            !closed_err.contains("Broken pipe"),
            "{args:?}: {closed_err}"
        );
    }
    // Standard input too.
    let (code, err) = with_output_closed(&["triage", "-"], Some(log.as_bytes()));
    assert_eq!((code, err.as_str()), (1, ""));
    assert!(Path::new(BIN).exists());
}

/// The README's first screen shows a real run, as it prints at 80 columns: every command in a
/// README block that starts with `$ kubectl flink` and runs without a cluster (`--from`, triage,
/// lint, explain) is run, and the lines shown (up to a final `   ...`) must be the first lines
/// it prints. `KUBECTL_FLINK_BLESS=1` rewrites them from the run.
#[test]
fn the_readme_shows_each_command_as_it_prints_at_80_columns() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let mut rewritten = String::new();
    let mut rest = readme.as_str();
    let mut checked = 0;
    while let Some(at) = rest.find("```\n$ kubectl flink ") {
        let start = at + "```\n".len();
        let end = start + rest[start..].find("\n```").expect("the block ends");
        let block = &rest[start..end];
        let (command, shown) = block.split_once('\n').unwrap_or((block, ""));
        let args: Vec<&str> = command["$ kubectl flink ".len()..]
            .split_whitespace()
            .collect();
        let offline = args.contains(&"--from") || ["triage", "lint", "explain"].contains(&args[0]);
        assert!(
            offline,
            "README: `{command}` needs a cluster: show an offline run"
        );
        let out = Command::new(BIN)
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("COLUMNS", "80")
            .env("NO_COLOR", "1")
            .env_remove("KUBECONFIG")
            .output()
            .expect("run kubectl-flink");
        let printed = String::from_utf8_lossy(&out.stdout).into_owned();
        let shown_lines: Vec<&str> = shown.lines().collect();
        let cut = shown_lines.last() == Some(&"   ...");
        let kept = if cut {
            &shown_lines[..shown_lines.len() - 1]
        } else {
            &shown_lines[..]
        };
        let real: Vec<&str> = printed.lines().collect();
        let blessed = if std::env::var_os("KUBECTL_FLINK_BLESS").is_some() {
            // Up to the end of the first finding (its verify command and what continues it).
            let first_symptoms = real
                .iter()
                .position(|l| l.starts_with("   symptoms ("))
                .unwrap_or(real.len().min(60));
            let mut lines: Vec<&str> = real[..first_symptoms].to_vec();
            if first_symptoms < real.len() {
                lines.push("   ...");
            }
            Some(lines.join("\n"))
        } else {
            None
        };
        match blessed {
            Some(lines) => {
                rewritten.push_str(&rest[..start]);
                rewritten.push_str(command);
                rewritten.push('\n');
                rewritten.push_str(&lines);
            }
            None => {
                assert!(
                    kept.len() >= 10 && real.len() >= kept.len() && real[..kept.len()] == *kept,
                    "README's `{command}` is not what it prints at 80 columns \
                     (KUBECTL_FLINK_BLESS=1 cargo test --test help rewrites it):\n{printed}"
                );
                rewritten.push_str(&rest[..end]);
            }
        }
        rest = &rest[end..];
        checked += 1;
    }
    rewritten.push_str(rest);
    assert!(checked >= 1, "the README shows no run");
    if std::env::var_os("KUBECTL_FLINK_BLESS").is_some() {
        std::fs::write(&path, rewritten).unwrap();
    }
}
