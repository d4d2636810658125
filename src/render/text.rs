//! Text laid out for a width: prose wrapped at spaces (a word longer than the line breaks after
//! `/`, `.`, `-`, never in the middle), shell commands broken before a flag with `\`
//! continuations, and fixes indented with the report without changing what they mean when copied
//! from the terminal and pasted into a shell.

/// Width of a line as the terminal shows it: display columns (two for CJK and most emoji, none
/// for combining marks), as comfy-table and the terminal count them.
pub(crate) fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` padded with spaces to `columns` display columns (`format!("{:<w$}")` pads by characters,
/// which misaligns a row holding CJK or emoji).
pub(crate) fn pad_to(s: &str, columns: usize) -> String {
    format!("{s}{}", " ".repeat(columns.saturating_sub(width(s))))
}

/// A name over lines of at most `room` columns: broken after `-`, `.` or `_` where it can, else
/// cut at the room (nothing is lost: the rest goes on the next line).
pub(crate) fn break_name(name: &str, room: usize) -> Vec<String> {
    let room = room.max(1);
    let mut out: Vec<String> = Vec::new();
    let mut rest = name;
    while width(rest) > room {
        let mut cut = 0;
        let mut last_sep = None;
        for (i, c) in rest.char_indices() {
            if width(&rest[..i + c.len_utf8()]) > room {
                break;
            }
            cut = i + c.len_utf8();
            if matches!(c, '-' | '.' | '_') {
                last_sep = Some(cut);
            }
        }
        let at = last_sep
            .unwrap_or(cut)
            .max(rest.chars().next().map_or(1, char::len_utf8));
        out.push(rest[..at].to_string());
        rest = &rest[at..];
    }
    out.push(rest.to_string());
    out
}

/// A long token may break after one of these (URLs, paths, Java class names, dashed names).
const BREAK_AFTER: &[char] = &['/', '.', '-', '_', ':', ',', '='];

/// Greedy word wrap. A span in backticks stays on one line when it fits one; a word longer than
/// the line breaks after `/`, `.`, `-` (and `_ : , =`), and is cut only when it has none of them.
/// Lines that fit are kept as they are.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(20);
    if self::width(text) <= width {
        return vec![text.to_string()];
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for unit in units(text) {
        let pieces: Vec<String> = if self::width(&unit) <= width {
            vec![unit]
        } else if unit.contains(' ') {
            // A backtick span too long for a line: its words, each placed on its own.
            unit.split(' ').map(str::to_string).collect()
        } else {
            vec![unit]
        };
        for piece in pieces {
            place(&mut lines, &mut line, &piece, width);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Words separated by whitespace, a backtick span with spaces kept as one unit.
fn units(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for word in text.split_whitespace() {
        if open {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(word);
            }
        } else {
            out.push(word.to_string());
        }
        if word.matches('`').count() % 2 == 1 {
            open = !open;
        }
    }
    out
}

/// Puts one word on the current line, or on a fresh one; a word longer than a whole line is laid
/// out in pieces, starting on the current line when its first piece fits there.
fn place(lines: &mut Vec<String>, line: &mut String, word: &str, width: usize) {
    let len = width_of(line);
    let sep = usize::from(len > 0);
    if len + sep + width_of(word) <= width {
        if sep == 1 {
            line.push(' ');
        }
        line.push_str(word);
        return;
    }
    if width_of(word) <= width {
        lines.push(std::mem::take(line));
        line.push_str(word);
        return;
    }
    let mut first = true;
    for piece in pieces(word, width) {
        let len = width_of(line);
        let sep = usize::from(len > 0 && first);
        if len + sep + width_of(&piece) > width && len > 0 {
            lines.push(std::mem::take(line));
        } else if sep == 1 {
            line.push(' ');
        }
        line.push_str(&piece);
        first = false;
    }
}

fn width_of(s: &str) -> usize {
    width(s)
}

/// A long word cut after its break characters; a stretch with none longer than `width` is cut at
/// `width` (the only place a word is split in the middle).
fn pieces(word: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut piece = String::new();
    for c in word.chars() {
        piece.push(c);
        if BREAK_AFTER.contains(&c) {
            out.push(std::mem::take(&mut piece));
        }
    }
    if !piece.is_empty() {
        out.push(piece);
    }
    out.into_iter()
        .flat_map(|p| {
            // Cut at `width` display columns, never inside a wide character.
            let mut cut = Vec::new();
            let mut chunk = String::new();
            for c in p.chars() {
                let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                if !chunk.is_empty() && self::width(&chunk) + w > width {
                    cut.push(std::mem::take(&mut chunk));
                }
                chunk.push(c);
            }
            if !chunk.is_empty() {
                cut.push(chunk);
            }
            cut
        })
        .collect()
}

/// The first word of a line that runs something (as opposed to prose, YAML or a comment).
const COMMANDS: &[&str] = &[
    "kubectl", "helm", "curl", "openssl", "echo", "printf", "sed", "grep", "cat", "jq", "base64",
    "export", "docker", "flink", "sh", "bash", "$",
];

/// Whether a line of a fix is a shell command: a known program, or `NAME=value ...`.
pub(crate) fn is_command(line: &str) -> bool {
    let t = line.trim_start();
    let first = t.split_whitespace().next().unwrap_or("");
    if COMMANDS.contains(&first) {
        return true;
    }
    match first.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }
        None => false,
    }
}

/// Whether a line must be printed as it is: a command, or what is laid out by its indentation or
/// its punctuation (YAML, a flag continued from the line above). The rest is prose.
fn is_code(line: &str) -> bool {
    if is_command(line) || line.starts_with([' ', '\t']) {
        return true;
    }
    let t = line.trim();
    if t.starts_with(['-', '{', '[', '}', ']', '|', '"', '\'']) {
        return true;
    }
    // `key: value` or `key:` (YAML, a Flink option)
    let first = t.split_whitespace().next().unwrap_or("");
    first.ends_with(':') && !first.contains(['(', ')'])
}

/// A shell command line cut into lines of at most `width` columns, each but the last ending in
/// ` \`: only before a flag (`-x`, `--x`), a pipe or `&&`/`||`, or the trailing comment, never
/// inside quotes. Continuation lines are indented two more than the first. A part that does not
/// fit alone stays whole on its own line.
pub(crate) fn break_command(line: &str, width: usize) -> Vec<String> {
    if self::width(line) <= width {
        return vec![line.to_string()];
    }
    let lead: String = line.chars().take_while(|c| c.is_whitespace()).collect();
    let body = &line[lead.len()..];
    let room = width.saturating_sub(lead.len() + 4);
    // A part too long for a line of its own (a long command name with its arguments) may still
    // break between its words.
    let parts: Vec<(String, String)> = command_parts(body)
        .into_iter()
        .flat_map(|(gap, part)| {
            // A flag stays with its value.
            if self::width(&part) <= room || part.starts_with(['#', '-']) {
                return vec![(gap, part)];
            }
            let words = shell_words(&part);
            let mut out = Vec::with_capacity(words.len());
            for (i, w) in words.into_iter().enumerate() {
                out.push((if i == 0 { gap.clone() } else { " ".into() }, w));
            }
            out
        })
        .collect();
    if parts.len() < 2 {
        return vec![line.to_string()];
    }
    let more = format!("{lead}  ");
    let mut out: Vec<String> = Vec::new();
    let mut current = format!("{lead}{}", parts[0].1);
    for (i, (gap, part)) in parts.iter().enumerate().skip(1) {
        let last = i + 1 == parts.len();
        // A line that is continued needs room for " \".
        let room = if last { width } else { width.saturating_sub(2) };
        if self::width(&current) + self::width(gap) + self::width(part) <= room {
            current.push_str(gap);
            current.push_str(part);
        } else {
            out.push(format!("{current} \\"));
            current = format!("{more}{part}");
        }
    }
    out.push(current);
    out
}

/// The command cut where a break is allowed, each part with the whitespace before it.
fn command_parts(body: &str) -> Vec<(String, String)> {
    let mut parts: Vec<(String, String)> = Vec::new();
    let mut gap_before = String::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if escaped {
            escaped = false;
            current.push(c);
            continue;
        }
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                }
                current.push(c);
            }
            None if c == '\\' => {
                escaped = true;
                current.push(c);
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                current.push(c);
            }
            None if c.is_whitespace() => {
                let mut gap = String::from(c);
                while let Some(&n) = chars.peek() {
                    if !n.is_whitespace() {
                        break;
                    }
                    gap.push(n);
                    chars.next();
                }
                let rest: String = chars.clone().collect();
                let breaks = current.ends_with(';')
                    || rest.starts_with('-')
                    || rest.starts_with("| ")
                    || rest.starts_with("|| ")
                    || rest.starts_with("&& ")
                    || rest.starts_with('#');
                if breaks && !current.is_empty() {
                    parts.push((
                        std::mem::take(&mut gap_before),
                        std::mem::take(&mut current),
                    ));
                    gap_before = gap;
                    if rest.starts_with('#') {
                        // The comment runs to the end of the line.
                        parts.push((gap_before, rest));
                        return parts;
                    }
                } else {
                    current.push_str(&gap);
                }
            }
            None => current.push(c),
        }
    }
    if !current.is_empty() {
        parts.push((gap_before, current));
    }
    parts
}

/// The words of a command part, split at whitespace outside quotes (the whitespace dropped).
fn shell_words(part: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in part.chars() {
        if escaped {
            escaped = false;
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if c == '\\' && q == '"' {
                escaped = true;
            }
        } else if c == '\\' {
            escaped = true;
        } else if c == '\'' || c == '"' {
            quote = Some(c);
        } else if c.is_whitespace() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// YAML document markers only work at the start of a line.
fn document_marker(line: &str) -> bool {
    let l = line.trim_end();
    l == "---" || l == "..." || l.starts_with("--- ")
}

/// The terminator word of the first heredoc (`<<EOF`, `<<'EOF'`, `<<-"EOF"`) in `text`.
pub(crate) fn heredoc_terminator(text: &str) -> Option<String> {
    let at = text.find("<<")?;
    let rest = text[at + 2..].trim_start_matches('-').trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// A fix (or a multi-line verify) laid out for `width` columns, indented by `indent`:
/// - prose is wrapped, a comment (`# ...`) too, each of its lines starting with `# `;
/// - a command longer than the line is broken before its flags with `\` continuations;
/// - YAML and other code lines are kept as they are;
/// - a heredoc that feeds YAML to kubectl is indented like the rest, except its document markers
///   (`---`) and its terminator, which only work at column 0; any other heredoc's body is printed
///   at column 0, as it is.
///
/// Copied from the terminal and pasted into a shell, the result does what the text did.
pub(crate) fn fix_lines(text: &str, width: usize, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let room = width.saturating_sub(indent).max(20);
    let mut out = Vec::new();
    let mut heredoc: Option<(String, bool)> = None;
    let mut continued = false;
    for line in text.trim_end().lines() {
        if let Some((terminator, indented)) = &heredoc {
            if line.trim_end() == terminator {
                out.push(line.trim_end().to_string());
                heredoc = None;
            } else if !indented || document_marker(line) || line.trim().is_empty() {
                out.push(line.trim_end().to_string());
            } else {
                out.push(format!("{pad}{line}"));
            }
            continue;
        }
        if line.trim().is_empty() {
            out.push(String::new());
            continued = false;
            continue;
        }
        if document_marker(line) {
            out.push(line.trim_end().to_string());
            continue;
        }
        if continued || is_command(line) {
            if let Some(t) = heredoc_terminator(line) {
                let yaml_to_kubectl = line.trim_start().starts_with("kubectl ")
                    && (line.contains(" -f -") || line.contains(" -f- "));
                heredoc = Some((t, yaml_to_kubectl));
            }
            continued = line.trim_end().ends_with('\\');
            out.extend(
                break_command(line, room)
                    .into_iter()
                    .map(|l| format!("{pad}{l}")),
            );
        } else if is_code(line) {
            out.push(format!("{pad}{line}"));
        } else if let Some(comment) = line.strip_prefix('#') {
            let comment = comment.trim_start();
            for l in wrap(comment, room.saturating_sub(2)) {
                out.push(format!("{pad}# {l}"));
            }
        } else {
            for l in wrap(line.trim(), room) {
                out.push(format!("{pad}{l}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_display_columns_so_cjk_and_emoji_lines_fit() {
        assert_eq!(width("作业失败"), 8);
        assert_eq!(width("ok 🚀"), 5);
        assert_eq!(width("e\u{301}"), 1);
        assert_eq!(pad_to("作业", 6), "作业  ");
        let prose = "作业管理器无法启动，因为服务账户没有权限列出容器组 ".repeat(4);
        let lines = wrap(&prose, 30);
        assert!(lines.iter().all(|l| width(l) <= 30), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), prose.replace(' ', ""));
    }

    #[test]
    fn wrap_keeps_short_lines_and_breaks_long_words_at_punctuation() {
        assert_eq!(wrap("a  b", 30), ["a  b"]);
        let long = "word ".repeat(30);
        assert!(wrap(&long, 40).iter().all(|l| width(l) <= 40));
        let class = "at org.apache.flink.kubernetes.shaded.io.fabric8.kubernetes.client.KubernetesClientException: denied";
        let lines = wrap(class, 40);
        assert!(lines.iter().all(|l| width(l) <= 40), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), class.replace(' ', ""));
        // Every line but the last of the long name ends at a dot: no word split in the middle.
        assert!(lines.iter().any(|l| l.ends_with("client.")), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("KubernetesClientException:")),
            "{lines:?}"
        );
        // Only a stretch with no break character at all is cut.
        let blob = format!("see {}", "x".repeat(95));
        let lines = wrap(&blob, 40);
        assert!(lines.iter().all(|l| width(l) <= 40), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), blob.replace(' ', ""));
    }

    #[test]
    fn wrap_keeps_a_backtick_span_on_one_line() {
        let text = "raise the quota (`kubectl edit resourcequota compute-resources`) or lower the requests";
        let lines = wrap(text, 50);
        assert!(
            lines
                .iter()
                .any(|l| l.contains("`kubectl edit resourcequota compute-resources`)")),
            "{lines:?}"
        );
    }

    #[test]
    fn commands_break_before_flags_outside_quotes() {
        let cmd = "kubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:flink   # expect: yes";
        let lines = break_command(cmd, 60);
        assert_eq!(
            lines,
            [
                "kubectl auth can-i watch pods -n analytics \\",
                "  --as=system:serviceaccount:analytics:flink   # expect: yes",
            ]
        );
        assert_eq!(
            break_command(cmd, 50),
            [
                "kubectl auth can-i watch pods -n analytics \\",
                "  --as=system:serviceaccount:analytics:flink \\",
                "  # expect: yes",
            ]
        );
        let patch =
            "kubectl patch fd orders -n a --type=merge -p '{\"spec\": {\"x\": \"a -b --c\"}}'";
        let lines = break_command(patch, 40);
        assert_eq!(
            lines,
            [
                "kubectl patch fd orders -n a \\",
                "  --type=merge \\",
                "  -p '{\"spec\": {\"x\": \"a -b --c\"}}'"
            ]
        );
        assert_eq!(break_command("kubectl get pods", 16), ["kubectl get pods"]);
        assert_eq!(
            break_command("kubectl get pods --output-watch-events=true", 20),
            ["kubectl get pods \\", "  --output-watch-events=true"]
        );
        let helm = "helm repo add flink-operator-repo https://downloads.apache.org/flink/flink-kubernetes-operator-1.15.0/ 2>/dev/null; helm repo update flink-operator-repo";
        assert_eq!(
            break_command(helm, 80),
            [
                "helm repo add flink-operator-repo \\",
                "  https://downloads.apache.org/flink/flink-kubernetes-operator-1.15.0/ \\",
                "  2>/dev/null; helm repo update flink-operator-repo"
            ]
        );
        let piped = "  kubectl logs p -c main --previous | sed -n '1,26p'";
        assert_eq!(
            break_command(piped, 40),
            [
                "  kubectl logs p -c main --previous \\",
                "    | sed -n '1,26p'"
            ]
        );
    }

    /// What a POSIX shell would join back: a line ending in `\` continues on the next.
    fn joined(lines: &[String]) -> String {
        let mut out = String::new();
        for l in lines {
            match l.strip_suffix('\\') {
                Some(head) => out.push_str(head),
                None => {
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
        out
    }

    #[test]
    fn a_broken_command_means_what_it_meant() {
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        for cmd in [
            "kubectl patch flinkdeployment orders -n analytics --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/x\",\"value\":\"a b\"}]'",
            "helm upgrade flink-kubernetes-operator flink-operator-repo/flink-kubernetes-operator -n op --version 1.15.0 --reuse-values --set webhook.create=false",
            "kubectl get pods -n analytics -l app=orders,component=jobmanager -o jsonpath='{range .items[*]}{.metadata.name}{\"\\n\"}{end}'   # expect only flink-main-container",
        ] {
            for w in [40, 60, 80, 100] {
                let lines = break_command(cmd, w);
                assert_eq!(words(&joined(&lines)), words(cmd), "{w}: {lines:?}");
            }
        }
    }

    #[test]
    fn fixes_wrap_prose_keep_yaml_and_indent_heredocs_copy_safely() {
        let fix = "Give the JobManager's ServiceAccount the rights native Kubernetes mode needs (the JobManager keeps retrying; only a switch of account restarts it):\n\nkubectl apply -f - <<'EOF'\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flink\n---\napiVersion: v1\nkind: ConfigMap\nEOF\n# switching spec.serviceAccount to flink makes the operator redeploy: the JobManager and TaskManager pods restart\nspec:\n  serviceAccount: flink   # was: default\n";
        let lines = fix_lines(fix, 60, 5);
        let text = lines.join("\n");
        assert!(lines.iter().all(|l| width(l) <= 60), "{text}");
        assert!(
            text.starts_with(
                "     Give the JobManager's ServiceAccount the rights native\n     Kubernetes mode"
            ),
            "{text}"
        );
        assert!(
            text.contains("\n     kubectl apply -f - <<'EOF'\n     apiVersion: v1\n"),
            "{text}"
        );
        assert!(
            text.contains("\n       name: flink\n---\n     apiVersion: v1\n"),
            "{text}"
        );
        assert!(text.contains("\n     kind: ConfigMap\nEOF\n"), "{text}");
        assert!(
            text.contains(
                "\n     # switching spec.serviceAccount to flink makes the\n     # operator"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("\n     spec:\n       serviceAccount: flink   # was: default"),
            "{text}"
        );
    }

    /// What `sh` does with a fix, kubectl and helm replaced by a function that prints its
    /// arguments and, for `-f -`, the YAML documents it reads (parsed, so indentation that keeps
    /// the meaning compares equal).
    fn shell_effect(script: &str) -> Vec<String> {
        let prelude = "kubectl() { echo \"ARGS $*\"; case \"$*\" in *'-f -'*) cat;; esac; }\nhelm() { echo \"ARGS $*\"; }\n";
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{prelude}{script}"))
            .output()
            .expect("sh");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let mut effect = Vec::new();
        let mut yaml = String::new();
        let flush = |yaml: &mut String, effect: &mut Vec<String>| {
            for doc in yaml.split("\n---\n") {
                if !doc.trim().is_empty() {
                    let v: serde_yaml::Value = serde_yaml::from_str(doc).expect(doc);
                    effect.push(format!("{v:?}"));
                }
            }
            yaml.clear();
        };
        for line in text.lines() {
            if let Some(args) = line.strip_prefix("ARGS ") {
                flush(&mut yaml, &mut effect);
                effect.push(args.split_whitespace().collect::<Vec<_>>().join(" "));
            } else {
                yaml.push_str(line);
                yaml.push('\n');
            }
        }
        flush(&mut yaml, &mut effect);
        effect
    }

    #[test]
    fn a_fix_laid_out_and_pasted_into_a_shell_does_what_the_fix_does() {
        let plan = "Give it an account:\n\nkubectl apply -f - <<'EOF'\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flink\n  namespace: analytics\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: flink-jobmanager\nrules:\n  - apiGroups: [\"\"]\n    resources: [\"pods\"]\n    verbs: [\"get\", \"watch\"]\nEOF\nkubectl patch flinkdeployment orders -n analytics --type=merge -p '{\"spec\":{\"serviceAccount\":\"flink\"}}'\n# switching the account restarts the JobManager and TaskManager pods, which resume per the upgrade mode\nkubectl patch flinkdeployment orders -n analytics --type=json \\\n  -p '[{\"op\":\"replace\",\"path\":\"/spec/x\",\"value\":\"a -b c\"}]'\nkubectl auth can-i watch pods -n analytics --as=system:serviceaccount:analytics:flink   # expect: yes\n";
        let want = shell_effect(plan);
        assert!(want.len() >= 6, "{want:#?}");
        for (width, indent) in [(40, 5), (80, 5), (100, 3), (200, 5)] {
            let laid = fix_lines(plan, width, indent).join("\n");
            // Prose is not a command: drop it as a reader would when pasting the commands.
            let pasted: String = laid
                .lines()
                .filter(|l| !(l.starts_with("     Give") || l.trim_start().starts_with("it an")))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(shell_effect(&pasted), want, "{width}:\n{laid}");
        }
    }

    #[test]
    fn a_heredoc_that_does_not_feed_kubectl_keeps_its_body_at_column_zero() {
        let fix = "cat > conf.yaml <<'EOF'\n  key: value\nEOF\n";
        assert_eq!(
            fix_lines(fix, 80, 4),
            ["    cat > conf.yaml <<'EOF'", "  key: value", "EOF"]
        );
    }

    #[test]
    fn prose_and_code_are_told_apart() {
        assert!(is_command("kubectl get pods"));
        assert!(is_command("CA=$(kubectl get secret x)"));
        assert!(!is_command("Rename the container to flink-main-container:"));
        assert!(is_code("spec:"));
        assert!(is_code("high-availability.type: kubernetes"));
        assert!(is_code("  -p '[]'"));
        assert!(!is_code(
            "Root cause reported by the operator: JAR file does not exist"
        ));
        assert!(!is_code("(or in the manifest: spec.podTemplate)"));
    }
}
