//! Shell completion. `kubectl flink completion SHELL` prints a completion script for the shell
//! (clap_complete), for `kubectl-flink` run directly. `kubectl flink <TAB>` goes through kubectl's
//! plugin completion (kubectl 1.26+): kubectl runs `kubectl_complete-flink ARGS...` (a script
//! shipped beside the plugin, `scripts/kubectl_complete-flink`), which calls `kubectl flink
//! __complete ARGS...`; the answer is cobra's format: one candidate a line (`value<TAB>help`),
//! then `:DIRECTIVE`.

use crate::cli::KubeArgs;
use crate::cluster::client::{kubeconfig_names, ConnectOptions, KubeconfigNames};
use crate::cluster::lookup;
use clap::{Arg, Command, FromArgMatches};
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
    if args.shell == clap_complete::Shell::Bash {
        script = bash_arms_named_as_looked_up(&script);
    }
    if args.shell == clap_complete::Shell::Fish {
        script.extend_from_slice(FISH_POSITIONALS.as_bytes());
    }
    let mut out = std::io::stdout().lock();
    super::report_written(out.write_all(&script).and_then(|_| out.flush()))?;
    Ok(0)
}

/// clap_complete 4.6's fish script completes no positional argument's values (`completion
/// <TAB>` offered files): the plugin's own engine answers for them, in cobra's format, which is
/// fish's (`value<TAB>description`), its `:DIRECTIVE` line left out. Explain's ids come the same way.
const FISH_POSITIONALS: &str = "
# Positional values (completion SHELL, explain ID) from kubectl-flink's own completion engine.
complete -c kubectl-flink -n \"__fish_kubectl_flink_using_subcommand completion; and not string match -q -- '-*' (commandline -ct)\" -f -a \"(kubectl-flink __complete completion (commandline -ct) | string match -rv '^:')\"
complete -c kubectl-flink -n \"__fish_kubectl_flink_using_subcommand explain; and not string match -q -- '-*' (commandline -ct)\" -f -a \"(kubectl-flink __complete explain (commandline -ct) | string match -rv '^:')\"
";

/// clap_complete 4.6's bash script looks a subcommand's arm up as `kubectl__flink__subcmd__doctor`
/// (the binary's `-` made `__`) but names the arm `kubectl__subcmd__flink__subcmd__doctor` (every
/// `-` of the path made `__subcmd__`), so no flag or value of a subcommand ever completed. The
/// arms are renamed to what the lookup builds (clap-rs/clap clap_complete/src/aot/shells/bash.rs:
/// `all_subcommands` against `subcommand_details`).
fn bash_arms_named_as_looked_up(script: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(script)
        .replace(
            "kubectl__subcmd__flink__subcmd__",
            "kubectl__flink__subcmd__",
        )
        .into_bytes()
}

/// What the candidates for a word need from outside the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// The namespaces, from the API server.
    Namespaces,
    /// The Flink deployments in the namespace the words name, from the API server.
    Deployments,
    /// Names in the kubeconfig.
    Kubeconfig(KubeconfigNames),
}

/// The candidates for the word being typed, the directive for the shell, and what is still to be
/// looked up (then `candidates` is empty).
#[derive(Debug)]
pub struct Answer {
    pub candidates: Vec<String>,
    pub directive: u32,
    pub lookup: Option<Lookup>,
}

/// The commands whose first positional argument names a Flink deployment.
const TAKE_A_DEPLOYMENT: [&str; 3] = ["doctor", "logs", "can-i"];

/// kubectl's plugin completion: the candidates for the last of `words` (the word being typed,
/// possibly empty) after the words before it, and the directive.
pub fn answer(command: &Command, words: &[String]) -> Answer {
    let (typed, before) = match words.split_last() {
        Some((last, rest)) => (last.as_str(), rest),
        None => ("", &[][..]),
    };
    let sub = before
        .iter()
        .find_map(|w| command.get_subcommands().find(|s| s.get_name() == w));
    let scope = sub.unwrap_or(command);
    let done = |candidates: Vec<String>, directive: u32| Answer {
        candidates,
        directive,
        lookup: None,
    };
    let look_up = |lookup: Lookup| Answer {
        candidates: Vec::new(),
        directive: NO_FILES,
        lookup: Some(lookup),
    };
    // The value of the flag just before: its possible values, or files for a path.
    if let Some(prev) = before.last().filter(|w| w.starts_with('-')) {
        if let Some(arg) = find_flag(scope, command, prev).filter(|a| takes_value(a)) {
            match arg.get_id().as_str() {
                "namespace" => return look_up(Lookup::Namespaces),
                "context" => return look_up(Lookup::Kubeconfig(KubeconfigNames::Contexts)),
                "cluster" => return look_up(Lookup::Kubeconfig(KubeconfigNames::Clusters)),
                "user" => return look_up(Lookup::Kubeconfig(KubeconfigNames::Users)),
                _ => {}
            }
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set() && v.get_name().starts_with(typed))
                .map(|v| line(v.get_name(), v.get_help().map(|h| h.to_string())))
                .collect();
            return done(values, if wants_path(arg) { FILES } else { NO_FILES });
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
        return done(flags, NO_FILES);
    }
    let Some(sub) = sub else {
        let names = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name().starts_with(typed))
            .map(|s| line(s.get_name(), s.get_about().map(|h| h.to_string())))
            .collect();
        return done(names, NO_FILES);
    };
    let first_positional = positionals(sub, command, before) == 0;
    if first_positional && TAKE_A_DEPLOYMENT.contains(&sub.get_name()) {
        return look_up(Lookup::Deployments);
    }
    if first_positional && sub.get_name() == "explain" {
        let ids = super::explain::ids()
            .into_iter()
            .filter(|(id, _)| id.starts_with(typed))
            .map(|(id, about)| line(&id, Some(about)))
            .collect();
        return done(ids, NO_FILES);
    }
    // A positional argument with values of its own (`completion bash`): those.
    if let Some(arg) = sub.get_positionals().nth(positionals(sub, command, before)) {
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set() && v.get_name().starts_with(typed))
            .map(|v| line(v.get_name(), v.get_help().map(|h| h.to_string())))
            .collect();
        if !values.is_empty() {
            return done(values, NO_FILES);
        }
    }
    // A positional argument: files where the command reads one.
    let wants_file = scope
        .get_positionals()
        .any(|a| wants_path(a) || a.get_id() == "file");
    done(Vec::new(), if wants_file { FILES } else { NO_FILES })
}

/// How many positional words follow the command `sub` in `before` (flags and their values left
/// out).
fn positionals(sub: &Command, root: &Command, before: &[String]) -> usize {
    let mut words = before
        .iter()
        .skip_while(|w| w.as_str() != sub.get_name())
        .skip(1);
    let mut count = 0;
    while let Some(w) = words.next() {
        if w == "--" {
            return count + words.count();
        }
        if w.starts_with('-') && w.len() > 1 {
            let value_follows =
                !w.contains('=') && find_flag(sub, root, w).is_some_and(takes_value);
            if value_follows {
                words.next();
            }
        } else {
            count += 1;
        }
    }
    count
}

/// Prints the answer as cobra does (a closed pipe is not an error), after looking up what it
/// needs: names from the API server (with the connection flags among the words, each request
/// bounded by 5 s unless `--request-timeout` says otherwise) or from the kubeconfig. A failed
/// lookup offers nothing, as kubectl's completion does.
pub fn print(command: &Command, words: &[String]) -> i32 {
    let mut answer = answer(command, words);
    if let Some(lookup) = answer.lookup {
        let typed = words.last().map_or("", String::as_str);
        answer.candidates = look_up(command, words, lookup)
            .into_iter()
            .filter(|(name, _)| name.starts_with(typed))
            .map(|(name, about)| line(&name, about))
            .collect();
    }
    let mut text: String = answer.candidates.iter().map(|c| format!("{c}\n")).collect();
    text.push_str(&format!(":{}\n", answer.directive));
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    0
}

/// The names `lookup` asks for, each with what it is.
fn look_up(command: &Command, words: &[String], lookup: Lookup) -> Vec<(String, Option<String>)> {
    let mut options = ConnectOptions::from(&connection_flags(command, words));
    if options.request_timeout.is_empty()
        || !words.iter().any(|w| w.starts_with("--request-timeout"))
    {
        options.request_timeout = "5s".to_string();
    }
    if let Lookup::Kubeconfig(which) = lookup {
        return kubeconfig_names(&options, which)
            .into_iter()
            .map(|n| (n, None))
            .collect();
    }
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return Vec::new();
    };
    runtime.block_on(async {
        let Ok(cluster) = crate::cluster::client::connect(&options).await else {
            return Vec::new();
        };
        match lookup {
            Lookup::Namespaces => lookup::namespace_names(&cluster.client)
                .await
                .into_iter()
                .map(|n| (n, None))
                .collect(),
            _ => lookup::flink_names(&cluster.client, cluster.namespace.as_deref())
                .await
                .into_iter()
                .map(|(n, kind)| (n, Some(kind.to_string())))
                .collect(),
        }
    })
}

/// kubectl's connection flags among the words (the word being typed left out), as clap reads
/// them; the defaults where the words are not a whole command yet.
fn connection_flags(command: &Command, words: &[String]) -> KubeArgs {
    let before = words.split_last().map_or(&[][..], |(_, rest)| rest);
    let args = std::iter::once("kubectl-flink").chain(before.iter().map(String::as_str));
    command
        .clone()
        .ignore_errors(true)
        .try_get_matches_from(args)
        .ok()
        .and_then(|m| KubeArgs::from_arg_matches(&m).ok())
        .unwrap_or_default()
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
        let a = full(words);
        (a.candidates, a.directive)
    }

    fn full(words: &[&str]) -> Answer {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        answer(&crate::cli::command(), &words)
    }

    fn values(c: &[String]) -> Vec<&str> {
        c.iter().map(|l| l.split('\t').next().unwrap()).collect()
    }

    /// `kubectl flink completion <TAB>` offers the shells (it offered nothing).
    #[test]
    fn a_positional_with_values_offers_them() {
        let (c, d) = ask(&["completion", ""]);
        assert_eq!(
            values(&c),
            vec!["bash", "elvish", "fish", "powershell", "zsh"],
            "{c:?}"
        );
        assert_eq!(d, NO_FILES);
        let (c, _) = ask(&["completion", "z"]);
        assert_eq!(values(&c), vec!["zsh"]);
        assert!(ask(&["completion", "zsh", ""]).0.is_empty());
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
        assert_eq!(
            values(&c),
            vec!["table", "json", "markdown", "sarif", "html"]
        );
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

    #[test]
    fn names_are_looked_up_where_a_deployment_namespace_or_context_is_typed() {
        assert_eq!(full(&["doctor", ""]).lookup, Some(Lookup::Deployments));
        assert_eq!(
            full(&["logs", "-n", "analytics", "or"]).lookup,
            Some(Lookup::Deployments)
        );
        assert_eq!(
            full(&["can-i", "--for", "operator", ""]).lookup,
            Some(Lookup::Deployments)
        );
        // A name is given already, or the command names none.
        assert_eq!(full(&["doctor", "orders", ""]).lookup, None);
        assert_eq!(
            full(&["doctor", "-n", "x", "orders", "--fail-on", "critical", ""]).lookup,
            None
        );
        assert_eq!(full(&["lint", ""]).lookup, None);
        assert_eq!(full(&["doctor", "-n", ""]).lookup, Some(Lookup::Namespaces));
        assert_eq!(
            full(&["logs", "--namespace", "a"]).lookup,
            Some(Lookup::Namespaces)
        );
        assert_eq!(
            full(&["doctor", "--context", ""]).lookup,
            Some(Lookup::Kubeconfig(KubeconfigNames::Contexts))
        );
        assert_eq!(
            full(&["--user", ""]).lookup,
            Some(Lookup::Kubeconfig(KubeconfigNames::Users))
        );
        // A flag's value is not the positional: `-o json` then NAME.
        assert_eq!(
            full(&["doctor", "-o", "json", ""]).lookup,
            Some(Lookup::Deployments)
        );
    }

    #[test]
    fn explain_completes_rule_ids_names_and_categories_offline() {
        let (c, d) = ask(&["explain", "FLK10"]);
        assert!(values(&c).contains(&"FLK103"), "{c:?}");
        assert!(values(&c).iter().all(|v| v.starts_with("FLK10")), "{c:?}");
        assert_eq!(d, NO_FILES);
        let (c, _) = ask(&["explain", "rbac_"]);
        assert!(values(&c).contains(&"rbac_forbidden"), "{c:?}");
        assert!(full(&["explain", "FLK103", ""]).candidates.is_empty());
    }

    #[test]
    fn connection_flags_are_read_from_the_words() {
        let words: Vec<String> = [
            "doctor",
            "--context",
            "lab",
            "-n",
            "analytics",
            "--as",
            "bob",
            "",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect();
        let k = connection_flags(&crate::cli::command(), &words);
        assert_eq!(k.context.as_deref(), Some("lab"));
        assert_eq!(k.namespace.as_deref(), Some("analytics"));
        assert_eq!(k.as_user.as_deref(), Some("bob"));
        assert!(!k.all_namespaces);
    }
}
