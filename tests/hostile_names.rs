//! Names are data, never code (issue #30): a support bundle is someone else's input, and what
//! `doctor --from` prints a person runs (`doctor --fix=run | sh`). Every scenario bundle is
//! rewritten with shell payloads in its namespace (refused at load: the API server would never
//! have stored it) and in the free values a live cluster does hold as written (images, service
//! account references, jarURI, configuration values, volume sources); `doctor` runs with `--fix`,
//! `--fix=run`, `-o json` and text, and every command and script it prints must (a) pass `sh -n`
//! and (b) run under `sh` with `kubectl` and `helm` that only exit 0 without leaving a payload's
//! file behind. Triage's fix templates (a pasted log naming hostile pods and namespaces) and
//! lint's fixes (a manifest holding them) get the same treatment.

mod common;

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

/// Payloads, each leaving a file `pwn*` in the working directory when the shell runs it as code.
/// Only shell built-ins (`:` and a redirection): the scripts run with a PATH of fakes alone.
const PAYLOADS: &[&str] = &[
    "x$(:>pwn1)`:>pwn2`;:>pwn3|:>pwn4&&:>pwn5 :>pwn6",
    "q'$(:>pwn7)'\"$(:>pwn8)\"'\\''",
    "n\nEOF\n:>pwn9\nkubectl patch x;:>pwn10\n",
];

/// What marks a payload in printed text (its first characters survive any quoting).
fn marked(text: &str) -> bool {
    text.contains(":>pwn")
}

fn scratch(label: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile")
        .join(format!("{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A folder of fake tools that accept anything and do nothing.
fn fake_bin(root: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in [
        "kubectl", "helm", "jq", "base64", "openssl", "curl", "grep", "sed", "awk", "head", "cat",
        "cut",
    ] {
        let p = bin.join(tool);
        std::fs::write(&p, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

struct Shell {
    bin: PathBuf,
    work: PathBuf,
    /// Scripts checked and run, for the figures.
    runs: usize,
    failures: Vec<String>,
}

impl Shell {
    fn new(root: &Path) -> Shell {
        let work = root.join("work");
        std::fs::create_dir_all(&work).unwrap();
        Shell {
            bin: fake_bin(root),
            work,
            runs: 0,
            failures: Vec::new(),
        }
    }

    /// `sh -n` the script, then run it in the empty working folder; nothing may appear there.
    fn check(&mut self, origin: &str, script: &str) {
        self.runs += 1;
        let syntax = Command::new("/bin/sh")
            .arg("-n")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::null())
            .output()
            .expect("sh -n");
        // A prose line that happens to start with `kubectl` (`kubectl apply (strict ...) refuses`)
        // is no command; only what carries a payload must parse.
        if !syntax.status.success() && marked(script) {
            self.failures.push(format!(
                "{origin}: sh -n fails ({}) on:\n{script}",
                String::from_utf8_lossy(&syntax.stderr).trim()
            ));
        }
        let _ = Command::new("/bin/sh")
            .arg("-c")
            .arg(script)
            .current_dir(&self.work)
            .env_clear()
            .env("PATH", &self.bin)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("sh");
        let left: Vec<String> = std::fs::read_dir(&self.work)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        // A command may write a file of its own (`-o yaml > x.yaml` for a person to edit).
        let (pwned, other): (Vec<String>, Vec<String>) =
            left.into_iter().partition(|f| f.starts_with("pwn"));
        for f in other {
            let _ = std::fs::remove_file(self.work.join(f));
        }
        let left = pwned;
        if !left.is_empty() {
            self.failures
                .push(format!("{origin}: running it created {left:?}:\n{script}"));
            for f in left {
                let _ = std::fs::remove_file(self.work.join(f));
            }
        }
    }

    /// Every command in a text (fix, verify, a rendered report): the lines that start with
    /// `kubectl` or `helm` (after indentation and `$ `), joined over trailing backslashes, and
    /// each `<<'EOF'` heredoc with its body. A line holding a `<placeholder>` is for a person to
    /// fill in, not to run.
    fn commands_in(&mut self, origin: &str, text: &str) -> usize {
        let mut n = 0;
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let t = line.trim().trim_start_matches("$ ");
            // Inline code in prose: `kubectl ...` up to its closing backtick.
            let t = match t.strip_prefix('`') {
                Some(code) => code.rsplit_once('`').map_or(code, |(c, _)| c),
                None => t,
            };
            if !(t.starts_with("kubectl ") || t.starts_with("helm ")) {
                continue;
            }
            // The tool's own headers (`kubectl flink triage: FILE`).
            if t.strip_prefix("kubectl flink ")
                .and_then(|r| r.split_whitespace().next())
                .is_some_and(|w| w.ends_with(':'))
            {
                continue;
            }
            let mut cmd = t.to_string();
            if cmd.ends_with("<<'EOF'") || cmd.ends_with("<<EOF") {
                for l in lines.by_ref() {
                    cmd.push('\n');
                    cmd.push_str(l);
                    if l.trim() == "EOF" {
                        break;
                    }
                }
            } else {
                while cmd.ends_with('\\') {
                    match lines.next() {
                        Some(next) => {
                            cmd.pop();
                            cmd.push(' ');
                            cmd.push_str(next.trim());
                        }
                        None => break,
                    }
                }
                if placeholder(&cmd) {
                    continue;
                }
            }
            if marked(&cmd) {
                n += 1;
            }
            self.check(origin, &cmd);
        }
        n
    }
}

/// The fix and verify blocks of a text report (`   fix` then its indented lines, `   verify    CMD`),
/// every other line left empty: a title or evidence line wrapped so that a word of a value starts
/// a line is prose nobody pastes (that they stay one line is checked on `-o json`).
fn fix_blocks(text: &str) -> String {
    let mut out = String::new();
    let (mut on, mut heredoc) = (false, false);
    for line in text.lines() {
        let t = line.trim_start();
        if heredoc {
            heredoc = t.trim_end() != "EOF";
        } else if line.len() - t.len() <= 3 && !t.is_empty() {
            if t == "fix" {
                on = true;
                out.push('\n');
                continue;
            }
            if let Some(cmd) = t.strip_prefix("verify ") {
                on = true;
                out.push_str(cmd.trim_start());
                out.push('\n');
                continue;
            }
            on = false;
        }
        if on {
            heredoc = heredoc || line.trim_end().ends_with("<<'EOF'");
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Titles and evidence lines of a JSON report: each one line (an object's name is data there,
/// JSON-escaped; the text report shows it escaped).
fn one_line_fields(v: &Value, origin: &str, failures: &mut Vec<String>) {
    for f in v["findings"].as_array().into_iter().flatten() {
        let fields =
            std::iter::once(&f["title"]).chain(f["evidence"].as_array().into_iter().flatten());
        for x in fields {
            if x.as_str().is_some_and(|s| s.contains(['\n', '\r'])) {
                failures.push(format!("{origin} {}: a line break in {x}", f["rule"]));
            }
        }
    }
}

/// A `<word>` a person replaces, outside single quotes.
fn placeholder(cmd: &str) -> bool {
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '\'' => quoted = !quoted,
            '<' if !quoted => return true,
            _ => {}
        }
    }
    false
}

/// Every string of a JSON report under the keys `fix` and `verify`, and the commands of each
/// `remedy.run`, with the rule of the finding that holds them.
fn fixes_of(v: &Value, rule: &str, out: &mut Vec<(String, String, String)>) {
    match v {
        Value::Object(m) => {
            let rule = m
                .get("rule")
                .and_then(Value::as_str)
                .unwrap_or(rule)
                .to_string();
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("fix" | "verify", Value::String(s)) => {
                        out.push((rule.clone(), k.clone(), s.clone()))
                    }
                    ("remedy", r) => {
                        for c in r["run"].as_array().into_iter().flatten() {
                            out.push((
                                rule.clone(),
                                "remedy.run".into(),
                                c.as_str().unwrap_or("").into(),
                            ));
                        }
                    }
                    _ => fixes_of(x, &rule, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| fixes_of(x, rule, out)),
        _ => {}
    }
}

fn run(args: &[&str], dir: &Path) -> (String, String) {
    let out = Command::new(PLUGIN)
        .args(args)
        .arg("--from")
        .arg(dir)
        .args(["--color", "never"])
        .stdin(Stdio::null())
        .output()
        .expect("run kubectl-flink");
    let code = out.status.code();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        matches!(code, Some(0..=4)),
        "{args:?} {}: exit {code:?}, a crash? {stderr}",
        dir.display()
    );
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// The files of a folder, relative to it (a scenario's own notes left out), as the scenario
/// tests read them.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    common::scenarios::files(dir).unwrap_or_else(|e| panic!("{e}"))
}

/// Keys whose string values the API server stores as written (no name validation), below
/// `spec` or in a pod template: references to other objects, images, URIs, configuration.
const FREE: &[&str] = &[
    "image",
    "serviceAccount",
    "serviceAccountName",
    "jarURI",
    "jarFile",
    "entryClass",
    "secretName",
    "claimName",
    "savepointsDir",
    "initialSavepointPath",
    "deploymentName",
    "className",
    "mainClass",
    "priorityClassName",
    "storageClassName",
    "schedulerName",
];

/// The free values of a document (FREE keys, every value of a `flinkConfiguration` /
/// `flinkProperties` / `nodeSelector`, a configMap volume's name, an imagePullSecret's name, the
/// Service a webhook calls).
fn free_values(v: &Value, parent: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if FREE.contains(&k.as_str()) => {
                        out.insert(s.clone());
                    }
                    Value::String(s)
                        if matches!(
                            parent,
                            "flinkConfiguration"
                                | "flinkProperties"
                                | "nodeSelector"
                                | "service"
                                | "configMap"
                                | "imagePullSecrets"
                                | "pullSecrets"
                        ) && (k != "name" || parent != "flinkConfiguration") =>
                    {
                        if parent.ends_with("Secrets")
                            || parent == "configMap"
                            || parent == "service"
                        {
                            if k == "name" {
                                out.insert(s.clone());
                            }
                        } else if s.len() > 2 {
                            out.insert(s.clone());
                        }
                    }
                    Value::Array(a) if matches!(k.as_str(), "imagePullSecrets" | "pullSecrets") => {
                        for e in a {
                            free_values(e, k, out);
                        }
                    }
                    _ => free_values(x, k, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| free_values(x, parent, out)),
        _ => {}
    }
}

/// Every string of `v` with `from` replaced by `to`: a whole string always, a part of one
/// when `from` is long enough to be unambiguous (an image in an event message).
fn replace_in(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::String(s) => {
            if s == from {
                *s = to.to_string();
            } else if from.len() >= 8 && s.contains(from) {
                *s = s.replace(from, to);
            }
        }
        Value::Object(m) => m.values_mut().for_each(|x| replace_in(x, from, to)),
        Value::Array(a) => a.iter_mut().for_each(|x| replace_in(x, from, to)),
        _ => {}
    }
}

fn docs(text: &str) -> Option<Vec<Value>> {
    use serde::Deserialize;
    let mut out = Vec::new();
    for d in serde_yaml::Deserializer::from_str(text) {
        let v = Value::deserialize(d).ok()?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Some(out)
}

/// `bundle` rewritten into `into` with each (from, to): in every YAML document's strings, in the
/// logs' text and in the logs' paths.
fn rewrite(bundle: &Path, into: &Path, swaps: &[(String, String)]) {
    let _ = std::fs::remove_dir_all(into);
    for (rel, text) in files(bundle) {
        let mut rel_s = rel.to_string_lossy().into_owned();
        let is_yaml = rel.extension().is_some_and(|x| x == "yaml" || x == "yml");
        let content = match (is_yaml, docs(&text).filter(|_| is_yaml)) {
            (_, Some(mut ds)) => {
                for d in &mut ds {
                    for (from, to) in swaps {
                        replace_in(d, from, to);
                    }
                }
                ds.iter()
                    .map(|d| serde_yaml::to_string(d).unwrap())
                    .collect::<Vec<_>>()
                    .join("---\n")
            }
            _ => {
                let mut t = text.clone();
                for (from, to) in swaps {
                    t = t.replace(from.as_str(), to);
                }
                t
            }
        };
        if rel_s.starts_with("logs/") {
            for (from, to) in swaps {
                rel_s = rel_s
                    .split('/')
                    .map(|seg| {
                        if seg == from {
                            to.replace('/', "_")
                        } else {
                            seg.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("/");
            }
        }
        let p = into.join(rel_s);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
    }
}

/// What one bundle printed: the fix and verify texts and the `--fix` outputs, all checked.
fn check_bundle(
    sh: &mut Shell,
    label: &str,
    dir: &Path,
    rules: &mut BTreeSet<String>,
) -> (usize, String) {
    let mut marked_commands = 0;
    let (json, stderr) = run(&["doctor", "-o", "json"], dir);
    if json.trim().is_empty() && stderr.contains("not a valid") {
        // Every object refused: nothing to diagnose, and the error says why.
        return (0, stderr);
    }
    let report: Value = match serde_json::from_str(&json) {
        Ok(v) => v,
        Err(e) => panic!("{label}: -o json is not JSON ({e}): {json}"),
    };
    one_line_fields(&report, label, &mut sh.failures);
    let mut texts = Vec::new();
    fixes_of(&report, "", &mut texts);
    for (rule, key, text) in &texts {
        let origin = format!("{label} {rule} {key}");
        let n = if key == "remedy.run" {
            sh.check(&origin, text);
            usize::from(marked(text))
        } else {
            sh.commands_in(&origin, text)
        };
        if n > 0 {
            rules.insert(rule.clone());
        }
        marked_commands += n;
    }
    let (text, _) = run(&["doctor"], dir);
    sh.commands_in(&format!("{label} text"), &fix_blocks(&text));
    let (script, _) = run(&["doctor", "--fix=run"], dir);
    if !script.trim().is_empty() {
        sh.check(&format!("{label} --fix=run"), &script);
    }
    let (stream, _) = run(&["doctor", "--fix"], dir);
    if let Err(e) = docs(&stream).ok_or("not YAML") {
        sh.failures.push(format!("{label} --fix: {e}:\n{stream}"));
    }
    // The apply stream's documents, run as the heredoc a person would paste it into.
    if !stream.trim().is_empty() {
        let delimiter_inside = stream.lines().any(|l| l.trim() == "EOF");
        if delimiter_inside {
            sh.failures
                .push(format!("{label} --fix: a line EOF inside:\n{stream}"));
        }
        sh.check(
            &format!("{label} --fix | kubectl apply"),
            &format!("kubectl apply -f - <<'EOF'\n{stream}EOF\n"),
        );
    }
    (marked_commands, stderr)
}

/// Payloads on one line: `$()`, backticks, `;`, `|`, `&&`, spaces and both quotes.
const ONE_LINE: std::ops::Range<usize> = 0..2;
/// A line break in a value, then `EOF` and command lines.
const LINE_BREAK: std::ops::Range<usize> = 2..3;

#[test]
fn hostile_values_in_a_bundle_never_run_as_commands() {
    doctor_with(ONE_LINE);
}

#[test]
fn hostile_values_with_line_breaks_in_a_bundle_never_run_as_commands() {
    doctor_with(LINE_BREAK);
}

/// What one worker of `doctor_with` found.
#[derive(Default)]
struct Tally {
    runs: usize,
    failures: Vec<String>,
    rules: BTreeSet<String>,
    marked_commands: usize,
    refused: usize,
    bundles: usize,
}

fn doctor_with(payloads: std::ops::Range<usize>) {
    let root = scratch(&format!("doctor-{}", payloads.start));
    let scenarios = common::scenarios::all();
    // Most of the time is spent starting the plugin and `sh`: a few workers, each with its own
    // working folder, keep the test within a minute.
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 6);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (root, scenarios, payloads) = (&root, &scenarios, payloads.clone());
                scope.spawn(move || {
                    let mine = scenarios.iter().skip(w).step_by(workers);
                    doctor_part(&root.join(format!("w{w}")), mine, payloads)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all = Tally::default();
    for t in tallies {
        all.runs += t.runs;
        all.failures.extend(t.failures);
        all.rules.extend(t.rules);
        all.marked_commands += t.marked_commands;
        all.refused += t.refused;
        all.bundles += t.bundles;
    }
    let Tally {
        runs,
        failures,
        rules,
        marked_commands,
        refused,
        bundles,
    } = all;
    eprintln!(
        "hostile bundles: {bundles}; scripts checked and run: {runs}; commands carrying a payload: {marked_commands}; bundles with names refused: {refused}; rules whose commands carried one: {rules:?}"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // Not vacuous: the payloads reached the commands of several rules, and names were refused.
    assert!(
        marked_commands > 10 * payloads.len() && rules.len() >= 2 && refused > 20,
        "payloads reached too few commands: {marked_commands}, {rules:?}, {refused} refused"
    );
}

fn doctor_part<'a>(
    root: &Path,
    scenarios: impl Iterator<Item = &'a (String, PathBuf)>,
    payloads: std::ops::Range<usize>,
) -> Tally {
    std::fs::create_dir_all(root).unwrap();
    let mut sh = Shell::new(root);
    let mut t = Tally::default();
    for (name, dir) in scenarios {
        for (i, payload) in PAYLOADS
            .iter()
            .enumerate()
            .filter(|(i, _)| payloads.contains(i))
        {
            // Free values: the same bundle, its references, images, URIs and configuration
            // values carrying the payload.
            let mut values = BTreeSet::new();
            for (rel, text) in files(dir) {
                if rel.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                    for d in docs(&text).unwrap_or_default() {
                        free_values(&d["spec"], "spec", &mut values);
                        // A webhook's clientConfig.service names a Service as written.
                        free_values(&d["webhooks"], "webhooks", &mut values);
                    }
                }
            }
            let swaps: Vec<(String, String)> = values
                .iter()
                .filter(|v| !v.is_empty())
                .map(|v| (v.clone(), format!("{v}{payload}")))
                .collect();
            let into = root.join(format!("free-{name}-{i}"));
            rewrite(dir, &into, &swaps);
            let (n, _) = check_bundle(
                &mut sh,
                &format!("{name} (free values, payload {i})"),
                &into,
                &mut t.rules,
            );
            t.marked_commands += n;
            t.bundles += 1;

            // Names: the namespace carries the payload. The loader refuses every object in it
            // (no API server would have stored one) and says so. One payload per test is
            // enough: any character outside a DNS name is refused alike.
            if i != payloads.start {
                continue;
            }
            let namespaces = common::scenarios::namespaces(dir);
            let swaps: Vec<(String, String)> = namespaces
                .iter()
                .filter(|n| n.len() >= 8)
                .map(|n| (n.clone(), format!("{n}{payload}")))
                .collect();
            if swaps.is_empty() {
                continue;
            }
            let into = root.join(format!("name-{name}-{i}"));
            rewrite(dir, &into, &swaps);
            let (n, stderr) = check_bundle(
                &mut sh,
                &format!("{name} (namespace, payload {i})"),
                &into,
                &mut t.rules,
            );
            t.marked_commands += n;
            t.bundles += 1;
            if stderr.contains("not a valid") {
                t.refused += 1;
            } else {
                sh.failures.push(format!(
                    "{name} (namespace, payload {i}): no note of the objects refused for their names; stderr: {stderr}"
                ));
            }
        }
    }
    t.runs = sh.runs;
    t.failures = std::mem::take(&mut sh.failures);
    t
}

#[test]
fn hostile_names_in_a_pasted_log_never_run_as_commands() {
    let root = scratch("triage");
    let mut sh = Shell::new(&root);
    let inputs = common::repo().join("tests/triage");
    let token = regex::Regex::new(
        r#"system:serviceaccount:([a-z0-9.-]+):([a-z0-9.-]+)|(?m)^(?:Name|Namespace|Service Account):\s+([a-z0-9.-]+)$|namespace[: "]+([a-z0-9-]{3,})"|pod[s]?[/ "]+([a-z0-9.-]{6,})"#,
    )
    .unwrap();
    let mut marked_commands = 0;
    let mut runs = 0;
    for e in std::fs::read_dir(&inputs).unwrap() {
        let path = e.unwrap().path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut names = BTreeSet::new();
        for c in token.captures_iter(&text) {
            for g in c.iter().skip(1).flatten() {
                if g.as_str().len() >= 4 && g.as_str() != "default" {
                    names.insert(g.as_str().to_string());
                }
            }
        }
        // Longest first, so a pod name is replaced before the deployment name inside it.
        let mut names: Vec<String> = names.into_iter().collect();
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for payload in &PAYLOADS[..2] {
            let mut hostile = text.clone();
            for n in &names {
                hostile = hostile.replace(n.as_str(), &format!("{n}{payload}"));
            }
            let file = root.join(path.file_name().unwrap());
            std::fs::write(&file, &hostile).unwrap();
            for format in ["json", "table"] {
                let out = Command::new(PLUGIN)
                    .args(["triage", "-o", format, "--color", "never"])
                    .arg(&file)
                    .output()
                    .expect("triage");
                runs += 1;
                let stdout = String::from_utf8_lossy(&out.stdout);
                let origin = format!("triage {} -o {format}", path.display());
                if format == "json" {
                    let v: Value = serde_json::from_str(&stdout).unwrap_or_default();
                    let mut texts = Vec::new();
                    fixes_of(&v, "", &mut texts);
                    for (rule, key, t) in texts {
                        marked_commands += sh.commands_in(&format!("{origin} {rule} {key}"), &t);
                    }
                } else {
                    sh.commands_in(&origin, &stdout);
                }
            }
        }
    }
    eprintln!("triage runs: {runs}; scripts checked and run: {}; commands carrying a payload: {marked_commands}", sh.runs);
    assert!(
        sh.failures.is_empty(),
        "{} failure(s):\n{}",
        sh.failures.len(),
        sh.failures.join("\n\n")
    );
    assert!(
        marked_commands > 5,
        "payloads reached too few commands: {marked_commands}"
    );
}

#[test]
fn hostile_values_in_a_manifest_never_run_as_commands() {
    lint_with(ONE_LINE);
}

#[test]
fn hostile_values_with_line_breaks_in_a_manifest_never_run_as_commands() {
    lint_with(LINE_BREAK);
}

fn lint_with(payloads: std::ops::Range<usize>) {
    let root = scratch(&format!("lint-{}", payloads.start));
    let mut sh = Shell::new(&root);
    let mut marked_commands = 0;
    let bad = common::repo().join("tests/lint/bad");
    for e in std::fs::read_dir(&bad).unwrap() {
        let path = e.unwrap().path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(ds) = docs(&text) else { continue };
        for payload in &PAYLOADS[payloads.clone()] {
            let mut values = BTreeSet::new();
            for d in &ds {
                free_values(&d["spec"], "spec", &mut values);
                for k in ["name", "namespace"] {
                    if let Some(s) = d["metadata"][k].as_str() {
                        values.insert(s.to_string());
                    }
                }
            }
            let mut hostile = ds.clone();
            for d in &mut hostile {
                for v in &values {
                    replace_in(d, v, &format!("{v}{payload}"));
                }
            }
            let file = root.join(path.file_name().unwrap());
            std::fs::write(
                &file,
                hostile
                    .iter()
                    .map(|d| serde_yaml::to_string(d).unwrap())
                    .collect::<Vec<_>>()
                    .join("---\n"),
            )
            .unwrap();
            for format in ["json", "table"] {
                let out = Command::new(PLUGIN)
                    .args(["lint", "-o", format, "--color", "never", "-f"])
                    .arg(&file)
                    .output()
                    .expect("lint");
                let stdout = String::from_utf8_lossy(&out.stdout);
                let origin = format!("lint {} -o {format}", path.display());
                if format == "json" {
                    let v: Value = serde_json::from_str(&stdout).unwrap_or_default();
                    one_line_fields(&v, &origin, &mut sh.failures);
                    let mut texts = Vec::new();
                    fixes_of(&v, "", &mut texts);
                    for (rule, key, t) in texts {
                        marked_commands += sh.commands_in(&format!("{origin} {rule} {key}"), &t);
                    }
                } else {
                    sh.commands_in(&origin, &fix_blocks(&stdout));
                }
            }
        }
    }
    eprintln!(
        "lint: scripts checked and run: {}; commands carrying a payload: {marked_commands}",
        sh.runs
    );
    assert!(
        sh.failures.is_empty(),
        "{} failure(s):\n{}",
        sh.failures.len(),
        sh.failures.join("\n\n")
    );
}
