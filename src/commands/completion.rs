//! Shell completion. `kubectl flink completion SHELL` prints a completion script for the shell
//! (clap_complete), for `kubectl-flink` run directly. `kubectl flink <TAB>` goes through kubectl's
//! plugin completion (kubectl 1.26+): kubectl runs `kubectl_complete-flink ARGS...` (a script
//! shipped beside the plugin, `scripts/kubectl_complete-flink`), which calls `kubectl flink
//! __complete ARGS...`; the answer is cobra's format: one candidate a line (`value<TAB>help`),
//! then `:DIRECTIVE`.

use clap::{Arg, Command};
use std::io::Write;

/// cobra's ShellCompDirectiveDefault: let the shell complete file names.
const FILES: u32 = 0;
/// cobra's ShellCompDirectiveNoFileComp.
const NO_FILES: u32 = 4;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  source <(kubectl-flink completion bash)
  kubectl-flink completion zsh > \"${fpath[1]}/_kubectl-flink\"
  kubectl-flink completion fish | source

For `kubectl flink <TAB>` (kubectl 1.26 or newer), put scripts/kubectl_complete-flink on your PATH
beside kubectl-flink.")]
pub struct CompletionArgs {
    /// The shell to write the script for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(args: &CompletionArgs, command: &mut Command) -> Result<i32, crate::error::Error> {
    // Into memory first: clap_complete panics on a write error (a closed pipe).
    let mut script = Vec::new();
    command.set_bin_name("kubectl-flink");
    clap_complete::generate(args.shell, command, "kubectl-flink", &mut script);
    let mut out = std::io::stdout().lock();
    super::report_written(out.write_all(&script).and_then(|_| out.flush()))?;
    Ok(0)
}

/// kubectl's plugin completion: the candidates for the last of `words` (the word being typed,
/// possibly empty) after the words before it, and the directive.
pub fn answer(command: &Command, words: &[String]) -> (Vec<String>, u32) {
    let (typed, before) = match words.split_last() {
        Some((last, rest)) => (last.as_str(), rest),
        None => ("", &[][..]),
    };
    let sub = before
        .iter()
        .find_map(|w| command.get_subcommands().find(|s| s.get_name() == w));
    let scope = sub.unwrap_or(command);
    // The value of the flag just before: its possible values, or files for a path.
    if let Some(prev) = before.last().filter(|w| w.starts_with('-')) {
        if let Some(arg) = find_flag(scope, command, prev).filter(|a| takes_value(a)) {
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set() && v.get_name().starts_with(typed))
                .map(|v| line(v.get_name(), v.get_help().map(|h| h.to_string())))
                .collect();
            return (values, if wants_path(arg) { FILES } else { NO_FILES });
        }
    }
    if typed.starts_with('-') {
        // A command's own copy of a global flag (shaped for it) stands for the root's.
        let inherited = sub.map_or_else(Vec::new, |_| {
            command
                .get_arguments()
                .filter(|a| scope.get_arguments().all(|own| own.get_id() != a.get_id()))
                .collect()
        });
        let flags: Vec<String> = scope
            .get_arguments()
            .chain(inherited)
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| (format!("--{l}"), a)))
            .filter(|(l, _)| l.starts_with(typed))
            .map(|(l, a)| line(&l, a.get_help().map(|h| h.to_string())))
            .collect();
        return (flags, NO_FILES);
    }
    if sub.is_none() {
        let names = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name().starts_with(typed))
            .map(|s| line(s.get_name(), s.get_about().map(|h| h.to_string())))
            .collect();
        return (names, NO_FILES);
    }
    // A positional argument: files where the command reads one.
    let wants_file = scope
        .get_positionals()
        .any(|a| wants_path(a) || a.get_id() == "file");
    (Vec::new(), if wants_file { FILES } else { NO_FILES })
}

/// Prints the answer as cobra does (a closed pipe is not an error).
pub fn print(command: &Command, words: &[String]) -> i32 {
    let (candidates, directive) = answer(command, words);
    let mut text: String = candidates.iter().map(|c| format!("{c}\n")).collect();
    text.push_str(&format!(":{directive}\n"));
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    0
}

fn line(value: &str, help: Option<String>) -> String {
    match help {
        Some(h) if !h.is_empty() => format!("{value}\t{}", h.lines().next().unwrap_or("")),
        _ => value.to_string(),
    }
}

fn find_flag<'a>(scope: &'a Command, root: &'a Command, word: &str) -> Option<&'a Arg> {
    let matches = |a: &&Arg| {
        word.strip_prefix("--")
            .is_some_and(|l| a.get_long() == Some(l))
            || (word.len() == 2
                && word.strip_prefix('-').and_then(|s| s.chars().next()) == a.get_short())
    };
    scope
        .get_arguments()
        .find(matches)
        .or_else(|| root.get_arguments().find(matches))
}

fn takes_value(a: &Arg) -> bool {
    a.get_num_args().is_none_or(|n| n.takes_values())
        && !matches!(
            a.get_action(),
            clap::ArgAction::SetTrue | clap::ArgAction::Count | clap::ArgAction::SetFalse
        )
}

fn wants_path(a: &Arg) -> bool {
    a.get_value_names().is_some_and(|names| {
        names
            .iter()
            .any(|n| ["FILE", "PATH", "DIR"].contains(&n.as_str()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(words: &[&str]) -> (Vec<String>, u32) {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        answer(&crate::cli::command(), &words)
    }

    fn values(c: &[String]) -> Vec<&str> {
        c.iter().map(|l| l.split('\t').next().unwrap()).collect()
    }

    #[test]
    fn subcommands_flags_and_values() {
        let (c, d) = ask(&[""]);
        assert!(
            values(&c).contains(&"doctor") && values(&c).contains(&"can-i"),
            "{c:?}"
        );
        assert_eq!(d, NO_FILES);
        let (c, _) = ask(&["do"]);
        assert_eq!(values(&c), vec!["doctor"]);
        let (c, _) = ask(&["doctor", "--fa"]);
        assert_eq!(values(&c), vec!["--fail-on"]);
        let (c, _) = ask(&["doctor", "--n"]);
        assert!(
            values(&c).contains(&"--namespace"),
            "global flags too: {c:?}"
        );
        let (c, d) = ask(&["doctor", "-o", ""]);
        assert_eq!(values(&c), vec!["table", "json", "markdown"]);
        assert_eq!(d, NO_FILES);
        let (_, d) = ask(&["doctor", "--from", ""]);
        assert_eq!(d, FILES);
        let (_, d) = ask(&["triage", ""]);
        assert_eq!(d, FILES);
        // Each command's own shape: logs prints no Markdown, lint reads no cluster.
        let (c, _) = ask(&["logs", "-o", ""]);
        assert_eq!(values(&c), vec!["table", "json"]);
        let (c, _) = ask(&["lint", "--"]);
        assert!(values(&c).contains(&"--filename"), "{c:?}");
        assert!(!values(&c).contains(&"--kubeconfig"), "{c:?}");
        assert!(!values(&c).contains(&"--namespace"), "{c:?}");
        let (c, _) = ask(&["explain", "--"]);
        assert!(!values(&c).contains(&"--output"), "{c:?}");
    }
}
