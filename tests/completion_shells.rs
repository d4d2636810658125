//! Completion in real shells: bash (with bash-completion), zsh (compinit) and fish, each started
//! interactively in tmux, typing `kubectl flink ...` (kubectl's plugin completion, through
//! scripts/kubectl_complete-flink) and `kubectl-flink ...` (the script `completion SHELL` prints),
//! pressing TAB and reading the screen. What must appear is what the plugin's own completion
//! engine answers (`kubectl-flink __complete`): every subcommand, every flag of every subcommand,
//! and every value of a flag or positional argument that has a fixed set. With the test cluster
//! (`scripts/test-cluster.sh run cargo test --test completion_shells`), Flink deployment names and
//! namespaces complete from the API server in each shell.
//!
//! The shells come from Debian (`scripts/completion-shells.sh` installs zsh, fish, tmux and
//! bash-completion when missing, then runs this file on a test cluster). Without them the test
//! FAILS when `CI` is set and prints a loud SKIPPED message otherwise.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");
const NAMESPACE: &str = "completion-shells";
const BASH_COMPLETION: &str = "/usr/share/bash-completion/bash_completion";

/// The candidates the plugin's engine gives for `words` (the last one being typed).
fn engine(words: &[&str], kubeconfig: &Path) -> Vec<String> {
    let out = Command::new(PLUGIN)
        .arg("__complete")
        .args(words)
        .env("KUBECONFIG", kubeconfig)
        .output()
        .expect("run kubectl-flink __complete");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .filter(|l| !l.starts_with(':'))
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// What is missing to drive the shells, if anything.
fn missing_tools() -> Option<String> {
    let missing: Vec<&str> = ["bash", "zsh", "fish", "tmux", "kubectl"]
        .into_iter()
        .filter(|t| which(t).is_none())
        .chain((!Path::new(BASH_COMPLETION).exists()).then_some("bash-completion"))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{} not installed (scripts/completion-shells.sh installs them)",
            missing.join(", ")
        )
    })
}

fn which(tool: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(tool))
            .find(|p| p.is_file())
    })
}

/// A directory for PATH with the plugin, kubectl's completion helper and kubectl.
fn bin_dir(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("kubectl-flink-shells-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let link = |from: &Path, name: &str| {
        std::os::unix::fs::symlink(from, dir.join(name)).unwrap();
    };
    link(Path::new(PLUGIN), "kubectl-flink");
    link(
        &common::repo().join("scripts/kubectl_complete-flink"),
        "kubectl_complete-flink",
    );
    let kubectl = common::env_path("KUBE_HARNESS_KUBECTL")
        .filter(|p| p.exists())
        .or_else(|| which("kubectl"))
        .expect("kubectl");
    link(&kubectl, "kubectl");
    dir
}

/// One interactive shell in its own tmux server.
struct Shell {
    name: &'static str,
    socket: String,
}

impl Shell {
    fn start(name: &'static str, bin: &Path, kubeconfig: &Path) -> Shell {
        // One tmux server per shell: the tests of this file run in parallel threads of one
        // process, and two servers on one socket would share the session name.
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("kubectl-flink-{name}-{}-{n}", std::process::id());
        let path = format!("{}:/usr/bin:/bin", bin.display());
        let shell = match name {
            "bash" => "bash --norc --noprofile -i",
            "zsh" => "zsh -f -i",
            _ => "fish --no-config -i",
        };
        let command = format!(
            "env -i HOME={home} TERM=xterm-256color PATH={path} KUBECONFIG={kc} {shell}",
            home = bin.display(),
            kc = kubeconfig.display()
        );
        let ok = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-s", "t", "-x", "250", "-y", "80", &command])
            .status()
            .expect("tmux")
            .success();
        assert!(ok, "tmux new-session for {name}");
        let s = Shell { name, socket };
        let setup = match name {
            "bash" => format!(
                "PS1='$ '; source {BASH_COMPLETION}; source <(kubectl completion bash); \
                 source <(kubectl-flink completion bash); bind 'set show-all-if-ambiguous on'; \
                 bind 'set completion-query-items 0'; bind 'set page-completions off'"
            ),
            "zsh" => "PS1='$ '; autoload -U compinit; compinit -u -D; \
                      source <(kubectl completion zsh); source <(kubectl-flink completion zsh); \
                      LISTMAX=0"
                .to_string(),
            _ => "function fish_prompt; echo '$ '; end; kubectl completion fish | source; \
                  kubectl-flink completion fish | source"
                .to_string(),
        };
        s.keys(&["-l", &setup]);
        s.keys(&["Enter"]);
        s.clear();
        s
    }

    fn keys(&self, keys: &[&str]) {
        let ok = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-t", "t"])
            .args(keys)
            .status()
            .expect("tmux send-keys")
            .success();
        assert!(ok, "{}: send-keys {keys:?}", self.name);
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-t", "t"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// An empty line at an empty screen.
    fn clear(&self) {
        self.keys(&["C-u"]);
        self.keys(&["-l", "clear"]);
        self.keys(&["Enter"]);
        self.wait(|s| s.trim() == "$", Duration::from_secs(10));
    }

    fn wait(&self, done: impl Fn(&str) -> bool, patience: Duration) -> (bool, String) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return (true, screen);
            }
            if start.elapsed() > patience {
                return (false, screen);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `line`, presses TAB, and waits until every one of `want` is on the screen (a word
    /// of its own). The screen when some never showed.
    fn completes(&self, line: &str, want: &[String]) -> Result<(), String> {
        self.clear();
        self.keys(&["-l", line]);
        self.keys(&["Tab"]);
        let shown = |screen: &str, w: &str| {
            screen
                .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .any(|word| word == w)
        };
        let (ok, screen) = self.wait(|s| want.iter().all(|w| shown(s, w)), Duration::from_secs(8));
        if ok {
            Ok(())
        } else {
            let missing: Vec<&String> = want.iter().filter(|w| !shown(&screen, w)).collect();
            Err(format!(
                "{}: `{line}<TAB>` did not show {missing:?}:\n{screen}",
                self.name
            ))
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

/// What `prefix` (`kubectl flink` or `kubectl-flink`) must complete to, from the engine: the
/// subcommands; each subcommand's flags; each flag's and positional's fixed values.
fn expectations(kubeconfig: &Path) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let subs = engine(&[""], kubeconfig);
    assert!(subs.len() >= 7, "{subs:?}");
    out.push((String::new(), subs.clone()));
    for sub in &subs {
        let flags = engine(&[sub, "--"], kubeconfig);
        if !flags.is_empty() {
            out.push((format!("{sub} --"), flags.clone()));
        }
        for flag in &flags {
            let values = engine(&[sub, flag, ""], kubeconfig);
            if !values.is_empty() {
                out.push((format!("{sub} {flag} "), values));
            }
        }
        let positional = engine(&[sub, ""], kubeconfig);
        if !positional.is_empty() && sub != "explain" {
            out.push((format!("{sub} "), positional));
        }
    }
    // explain's ids: a few near the typed prefix.
    out.push((
        "explain FLK50".to_string(),
        engine(&["explain", "FLK50"], kubeconfig),
    ));
    out
}

#[test]
fn flags_and_values_complete_for_every_subcommand_in_bash_zsh_and_fish() {
    if let Some(why) = missing_tools() {
        common::no_cluster("completion_shells", "flags_and_values", &why);
        return;
    }
    let bin = bin_dir("offline");
    // No cluster here: a kubeconfig that names none, so no lookup waits.
    let kubeconfig = bin.join("no-kubeconfig");
    let want = expectations(&kubeconfig);
    let counts: Vec<usize> = want.iter().map(|(_, w)| w.len()).collect();
    assert!(want.len() > 15, "{want:?}");
    let start = Instant::now();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = ["bash", "zsh", "fish"]
            .into_iter()
            .map(|name| {
                let (bin, kubeconfig, want) = (&bin, &kubeconfig, &want);
                scope.spawn(move || {
                    let shell = Shell::start(name, bin, kubeconfig);
                    let mut failures = Vec::new();
                    for prefix in ["kubectl flink", "kubectl-flink"] {
                        for (rest, expected) in want {
                            // bash's and zsh's scripts from `completion SHELL` are static
                            // (clap_complete): explain's ids come only through `kubectl flink`
                            // and fish's script, which asks the engine.
                            let static_script = prefix == "kubectl-flink" && name != "fish";
                            if static_script && rest.starts_with("explain ") {
                                continue;
                            }
                            let line = format!("{prefix} {rest}");
                            if let Err(e) = shell.completes(&line, expected) {
                                failures.push(e);
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        runs.into_iter()
            .flat_map(|r| r.join().expect("a shell's thread"))
            .collect()
    });
    let _ = std::fs::remove_dir_all(&bin);
    eprintln!(
        "completion_shells: {} lines x 2 prefixes x 3 shells ({} candidates each way) in {:.1}s",
        want.len(),
        counts.iter().sum::<usize>(),
        start.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn deployment_names_and_namespaces_complete_from_a_live_cluster_in_every_shell() {
    const TEST: &str = "deployment_names_and_namespaces_complete_from_a_live_cluster";
    if let Some(why) = missing_tools() {
        common::no_cluster("completion_shells", TEST, &why);
        return;
    }
    let Some(kubeconfig) = common::or_skip("completion_shells", TEST, common::need("KUBECONFIG"))
    else {
        return;
    };
    common::seed_three_healthy_modes(NAMESPACE);
    let bin = bin_dir("live");
    let names: Vec<String> = ["clicks", "pageviews", "topspeed"]
        .map(String::from)
        .to_vec();
    let mut failures = Vec::new();
    for name in ["bash", "zsh", "fish"] {
        let shell = Shell::start(name, &bin, &kubeconfig);
        for (line, want) in [
            (
                format!("kubectl flink doctor -n {NAMESPACE} "),
                names.clone(),
            ),
            (
                format!("kubectl flink logs --namespace {NAMESPACE} top"),
                vec!["topspeed".to_string()],
            ),
            (
                "kubectl flink can-i -n completion-sh".to_string(),
                vec![NAMESPACE.to_string()],
            ),
        ] {
            if let Err(e) = shell.completes(&line, &want) {
                failures.push(e);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&bin);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
