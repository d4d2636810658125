//! A fix a person can paste. The catalogue's fix and verify texts name what a pasted text may not
//! hold as `<pod>`, `<namespace>`, `<cluster-id>`: a shell reads `<pod>` as a redirection, so a
//! pasted command fails (or reads a file called `pod`). Here each such name inside a command
//! becomes a shell variable (`"$POD"`), set once at the top of the fix
//! (`POD=...  # the pod that printed this`), or set to its value when the pasted text held it
//! (`kubectl describe` output's `Name:` / `Namespace:`, `kubectl logs --prefix`'s `[pod/NAME/C]`).
//!
//! Commands are the parts a person pastes: an indented line, a line that starts with a command,
//! a heredoc, and a backtick span that starts with a command. Prose keeps its words (a message's
//! shape, "`<resource> is forbidden`", is read, not run). `triage` and `explain` both lay their
//! fixes out with `paste_ready`, so the fix `explain ID` shows is the one triage prints.

use std::collections::BTreeMap;

/// Words a command starts with (a backtick span or a line that starts with one is a command).
const COMMANDS: &[&str] = &[
    "kubectl ", "helm ", "aws ", "gsutil ", "gcloud ", "az ", "openssl ", "curl ", "docker ",
    "flink ", "keytool ", "ls ", "cat ", "grep ", "yarn ",
];

/// What the names the catalogue leaves open stand for, for the comment beside the variable.
const MEANINGS: &[(&str, &str)] = &[
    ("pod", "the pod that printed this"),
    ("namespace", "its namespace"),
    ("ns", "its namespace"),
    ("container", "the container that printed this"),
    ("jobmanager-pod", "the JobManager pod"),
    ("taskmanager-pod", "the TaskManager pod that went away"),
    ("tm", "the TaskManager pod"),
    (
        "cluster-id",
        "the Flink cluster id (the FlinkDeployment's name)",
    ),
    (
        "deployment",
        "the FlinkDeployment (or the native cluster id)",
    ),
    ("name", "the Flink resource's name"),
    ("operator-namespace", "the namespace the operator runs in"),
    ("flinkdeployment.yaml", "the file you applied"),
    (
        "checkpoint-path",
        "the checkpoint directory (state.checkpoints.dir)",
    ),
    ("job", "the job jar's file name"),
    ("flink-version", "the Flink version in the image (1.20.1)"),
    ("image", "the image that failed"),
    ("sa", "the ServiceAccount"),
    (
        "application-id",
        "the YARN application to check (`yarn application -list`)",
    ),
];

/// Names the pasted text held: `pod`, `namespace`, `container`.
pub type Known = BTreeMap<&'static str, String>;

/// The pod, namespace and container a pasted text names: `kubectl describe pod`'s header, or
/// `kubectl logs --prefix`'s `[pod/NAME/CONTAINER]` (the first of each; several pods make it
/// ambiguous, and then nothing is taken).
pub fn known_from_text(text: &str) -> Known {
    let mut found: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut add = |k: &'static str, v: &str| {
        let v = v.trim();
        if !v.is_empty() && !v.contains(char::is_whitespace) {
            let list = found.entry(k).or_default();
            if !list.iter().any(|x| x == v) {
                list.push(v.to_string());
            }
        }
    };
    let mut kind_is_pod = false;
    for line in text.lines().take(20_000) {
        // `kubectl describe pod X`: the header's first lines (only a Pod has `Start Time:`,
        // as the reader tells them apart; a Deployment's `Name:` is not a pod).
        if let Some(v) = line.strip_prefix("Name:") {
            add("name", v);
        } else if let Some(v) = line.strip_prefix("Namespace:") {
            add("namespace", v);
        } else if line.starts_with("Start Time:") {
            kind_is_pod = true;
        } else if let Some(rest) = line.strip_prefix("[pod/") {
            if let Some((inside, _)) = rest.split_once(']') {
                if let Some((pod, container)) = inside.split_once('/') {
                    add("pod", pod);
                    add("container", container);
                }
            }
        }
    }
    let mut out = Known::new();
    let one = |k: &str| found.get(k).filter(|v| v.len() == 1).map(|v| v[0].clone());
    if kind_is_pod && one("pod").is_none() {
        if let Some(n) = one("name") {
            out.insert("pod", n);
        }
    }
    for k in ["pod", "namespace", "container"] {
        if let Some(v) = one(k) {
            out.insert(k, v);
        }
    }
    out
}

/// `fix` and `verify` with the open names in their commands as shell variables, set at the top
/// of the fix (from `known` when the text held them). Unchanged when nothing is open.
pub fn paste_ready(fix: &str, verify: &str, known: &Known) -> (String, String) {
    let mut used: Vec<String> = Vec::new();
    let fix = in_commands(fix, &mut used);
    let verify = commands_only(verify, &mut used);
    if used.is_empty() {
        return (fix, verify);
    }
    let mut top = String::new();
    for name in &used {
        let var = variable(name);
        let meaning = MEANINGS
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, m)| m.to_string())
            .unwrap_or_else(|| format!("the {}", name.replace(['-', '.'], " ")));
        let key = match name.as_str() {
            "ns" => "namespace",
            "tm" => "pod",
            n => n,
        };
        match known.get(key) {
            Some(v) => top.push_str(&format!(
                "{var}={}  # {meaning} (from the pasted text)\n",
                crate::shell::quote(v)
            )),
            None => top.push_str(&format!("{var}=...  # {meaning}\n")),
        }
    }
    (format!("{top}\n{fix}"), verify)
}

/// The variable a name becomes: `jobmanager-pod` -> `JOBMANAGER_POD`.
fn variable(name: &str) -> String {
    match name {
        "flinkdeployment.yaml" => "FILE".to_string(),
        "ns" => "NAMESPACE".to_string(),
        "tm" => "TASKMANAGER_POD".to_string(),
        _ => name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_uppercase()
                } else {
                    '_'
                }
            })
            .collect(),
    }
}

/// A text of prose and commands: the open names of its commands replaced.
fn in_commands(text: &str, used: &mut Vec<String>) -> String {
    let mut out = String::new();
    let mut heredoc: Option<String> = None;
    for line in text.split_inclusive('\n') {
        if let Some(end) = &heredoc {
            if line.trim_end() == end {
                heredoc = None;
            }
            out.push_str(line);
            continue;
        }
        let trimmed = line.trim_start();
        let is_command = line.starts_with("  ")
            || COMMANDS.iter().any(|c| trimmed.starts_with(c))
            || trimmed.starts_with('#');
        if is_command && !trimmed.starts_with('#') {
            out.push_str(&replace(line, used));
        } else if trimmed.starts_with('#') {
            out.push_str(line);
        } else {
            out.push_str(&in_backticks(line, used));
        }
        if let Some(end) = heredoc_end(line) {
            heredoc = Some(end);
        }
    }
    out
}

/// A verify text is commands, line by line (its `# expect` comments stay as they are).
fn commands_only(text: &str, used: &mut Vec<String>) -> String {
    text.split_inclusive('\n')
        .map(|l| match l.find("  # ") {
            Some(at) => format!("{}{}", replace(&l[..at], used), &l[at..]),
            None => replace(l, used),
        })
        .collect()
}

/// The word that ends a heredoc opened on this line (`<<'EOF'`, `<<EOF`).
fn heredoc_end(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = line[at + 2..].trim_start_matches('-');
    let word: String = rest
        .trim_matches(|c: char| c == '\'' || c == '"')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// Backtick spans of prose that start with a command get their open names replaced.
fn in_backticks(line: &str, used: &mut Vec<String>) -> String {
    let parts: Vec<&str> = line.split('`').collect();
    if parts.len() < 3 {
        return line.to_string();
    }
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are inside backticks (when the backticks pair up).
        let inside = i % 2 == 1 && i + 1 < parts.len();
        if inside && COMMANDS.iter().any(|c| part.starts_with(c)) {
            out.push_str(&replace(part, used));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// `<name>` in a command as `"$NAME"`; inside single quotes as `'"$NAME"'` (the quote closed
/// and opened again around it).
fn replace(command: &str, used: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(command.len() + 16);
    let mut in_single = false;
    let mut in_double = false;
    let mut rest = command;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some(name) = open_name(rest) {
                let var = variable(name);
                if !used.iter().any(|u| u == name) {
                    used.push(name.to_string());
                }
                if in_single {
                    out.push_str(&format!("'\"${{{var}}}\"'"));
                } else if in_double {
                    out.push_str(&format!("${{{var}}}"));
                } else {
                    out.push_str(&format!("\"${{{var}}}\""));
                }
                rest = &rest[name.len() + 2..];
                continue;
            }
        }
        match c {
            '\'' if !in_double => in_single = !in_single,
            '"' if !in_single => in_double = !in_double,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `<pod>` at the start of `s`: the name inside, when it is one (starting with a lower-case
/// letter; letters, digits, `-`, `.`, `_`: `<high-availability.storageDir>`).
fn open_name(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('<')?;
    let end = inner.find('>')?;
    let name = &inner[..end];
    let ok = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_');
    ok.then_some(name)
}

/// The commands of a fix: its indented and command lines, heredocs whole, and backtick spans
/// that start with a command. For tests that run them through `sh -n`.
pub fn commands(fix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut heredoc: Option<(String, String)> = None;
    for line in fix.lines() {
        if let Some((end, body)) = &mut heredoc {
            body.push_str(line);
            body.push('\n');
            if line.trim() == end {
                out.push(std::mem::take(body));
                heredoc = None;
            }
            continue;
        }
        let trimmed = line.trim_start();
        let is_command = line.starts_with("  ")
            || COMMANDS.iter().any(|c| trimmed.starts_with(c))
            || (trimmed.starts_with(|c: char| c.is_ascii_uppercase())
                && trimmed
                    .split_once('=')
                    .is_some_and(|(v, _)| v.chars().all(|c| c.is_ascii_uppercase() || c == '_')));
        if is_command {
            match heredoc_end(line) {
                Some(end) => heredoc = Some((end, format!("{}\n", trimmed))),
                None => out.push(trimmed.to_string()),
            }
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        for (i, part) in parts.iter().enumerate() {
            if i % 2 == 1 && i + 1 < parts.len() && COMMANDS.iter().any(|c| part.starts_with(c)) {
                out.push(part.to_string());
            }
        }
    }
    if let Some((_, body)) = heredoc {
        out.push(body);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_names_in_commands_become_variables_set_at_the_top() {
        let (fix, verify) = paste_ready(
            "check the path: `kubectl exec <pod> -- ls -l '/opt/x'`\n\n  kubectl logs <pod> -n <namespace> --previous\n",
            "kubectl logs <pod> -n <namespace> | grep -c 'a <b> c'   # expect 0",
            &Known::new(),
        );
        assert!(
            fix.starts_with("POD=...  # the pod that printed this\nNAMESPACE=...  # its namespace\nB=...  # the b\n\n"),
            "{fix}"
        );
        assert!(
            fix.contains("`kubectl exec \"${POD}\" -- ls -l '/opt/x'`"),
            "{fix}"
        );
        assert!(
            fix.contains("  kubectl logs \"${POD}\" -n \"${NAMESPACE}\" --previous"),
            "{fix}"
        );
        assert_eq!(
            verify,
            "kubectl logs \"${POD}\" -n \"${NAMESPACE}\" | grep -c 'a '\"${B}\"' c'   # expect 0"
        );
    }

    #[test]
    fn prose_and_heredocs_keep_their_words() {
        let text = "the message names it (`<resource> is forbidden`)\n\nkubectl apply -f - <<'EOF'\nname: <x>\nEOF\n";
        let (fix, _) = paste_ready(text, "", &Known::new());
        assert_eq!(fix, text);
    }

    #[test]
    fn names_the_pasted_text_holds_are_set_to_their_values() {
        let describe =
            "Name:             payments-tm-1\nNamespace:        prod\nStart Time:  Sat\n";
        let known = known_from_text(describe);
        let (fix, _) = paste_ready("  kubectl logs <pod> -n <namespace>\n", "", &known);
        assert!(
            fix.starts_with("POD=payments-tm-1  # the pod that printed this (from the pasted text)\nNAMESPACE=prod  # its namespace (from the pasted text)\n"),
            "{fix}"
        );
        let prefixed = known_from_text("[pod/orders-jm-1/flink-main-container] ERROR x\n");
        assert_eq!(prefixed.get("pod").map(String::as_str), Some("orders-jm-1"));
        assert_eq!(
            prefixed.get("container").map(String::as_str),
            Some("flink-main-container")
        );
        // Two pods: which one is meant is not known.
        let two = known_from_text("[pod/a/c] x\n[pod/b/c] y\n");
        assert!(!two.contains_key("pod"));
        // A Deployment's describe output has `Name:` but is not a pod.
        assert!(
            !known_from_text("Name:  orders\nNamespace: prod\nContainers:\n").contains_key("pod")
        );
    }

    #[test]
    fn the_commands_of_a_fix_are_found() {
        let fix = "X=...  # a\n\nprose `kubectl get pods` more\n\n  helm upgrade a b\nkubectl apply -f - <<'EOF'\na: b\nEOF\n";
        assert_eq!(
            commands(fix),
            vec![
                "X=...  # a",
                "kubectl get pods",
                "helm upgrade a b",
                "kubectl apply -f - <<'EOF'\na: b\nEOF\n"
            ]
        );
    }
}

/// Every signature's fix and verify for its example lines, laid out as triage lays them out,
/// parse in `sh -n`: what the catalogue says to run, runs.
#[cfg(test)]
mod every_signature {
    use super::*;
    use std::io::Write;
    use std::process::{Command, Stdio};

    #[test]
    fn every_signatures_commands_parse_in_sh() {
        let mut script = String::new();
        let mut blocks = Vec::new();
        for sig in crate::signatures::all() {
            for example in sig.examples {
                let matched = crate::signatures::catalogue()
                    .match_line(example, 1)
                    .into_iter()
                    .find(|m| m.signature.id == sig.id);
                let Some(m) = matched else { continue };
                let (fix, verify) = paste_ready(&m.fix(), &m.verify(), &Known::new());
                let block = format!("{}\n{verify}\n", commands(&fix).join("\n"));
                blocks.push((sig.id, block));
            }
        }
        let mut bad = Vec::new();
        for (id, block) in &blocks {
            let mut child = Command::new("sh")
                .arg("-n")
                .stdin(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("sh");
            child
                .stdin
                .take()
                .unwrap()
                .write_all(block.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            if !out.status.success() {
                bad.push(format!(
                    "{id}: {}\n{block}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            script.push_str(block);
        }
        assert!(blocks.len() > 250, "{}", blocks.len());
        assert!(
            bad.is_empty(),
            "{} do not parse:\n{}",
            bad.len(),
            bad.join("\n")
        );
    }
}
