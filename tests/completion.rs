//! Shell completion: the scripts clap_complete writes, and kubectl's plugin completion through
//! `scripts/kubectl_complete-flink` (cobra's `__complete` format).

mod common;

use std::process::Command;

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(PLUGIN)
        .args(args)
        .output()
        .expect("run kubectl-flink");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_script_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef kubectl-flink"),
        ("fish", "complete -c kubectl-flink"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (code, text) = run(&["completion", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(text.contains(marker), "{shell}: {text}");
    }
}

#[test]
fn kubectl_plugin_completion_answers_in_cobra_format() {
    let (code, text) = run(&["__complete", ""]);
    assert_eq!(code, 0);
    assert!(text.lines().any(|l| l.starts_with("doctor\t")), "{text}");
    assert_eq!(text.lines().last(), Some(":4"));
    let (_, text) = run(&["__complete", "lint", "--fa"]);
    assert!(text.starts_with("--fail-on"), "{text}");
    // The script kubectl runs calls exactly this.
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/kubectl_complete-flink"),
    )
    .unwrap();
    assert!(
        script.contains("kubectl-flink __complete \"$@\""),
        "{script}"
    );
}

mod live {
    //! Names looked up on the real test cluster (scripts/test-cluster.sh): deployments of every
    //! kind `doctor NAME` knows in the namespace the words name, namespaces for `-n`, contexts for
    //! `--context`. Without the harness these tests FAIL when `CI` is set and print a loud
    //! SKIPPED message otherwise.

    use super::common::{env_path, no_cluster};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const NAMESPACE: &str = "completion-e2e";

    struct Harness {
        admin: PathBuf,
        kubectl: PathBuf,
    }

    fn harness(test: &str) -> Option<Harness> {
        let found = (|| {
            env_path("KUBE_HARNESS_DIR").ok_or("KUBE_HARNESS_DIR is not set")?;
            let need = |n: &str| {
                env_path(n)
                    .filter(|p| p.exists())
                    .ok_or(format!("{n} is not set or missing"))
            };
            Ok::<_, String>(Harness {
                admin: need("KUBECONFIG")?,
                kubectl: need("KUBE_HARNESS_KUBECTL")?,
            })
        })();
        match found {
            Ok(h) => Some(h),
            Err(why) => {
                no_cluster("completion", test, &why);
                None
            }
        }
    }

    fn complete(kubeconfig: &Path, words: &[&str]) -> Vec<String> {
        let out = Command::new(super::PLUGIN)
            .arg("__complete")
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(words)
            .output()
            .expect("run kubectl-flink");
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        assert_eq!(lines.pop().as_deref(), Some(":4"), "{text}");
        lines
    }

    #[test]
    fn names_namespaces_and_contexts_come_from_the_cluster_and_kubeconfig() {
        let Some(h) = harness("names_namespaces_and_contexts_come_from_the_cluster_and_kubeconfig")
        else {
            return;
        };
        super::common::seed_three_healthy_modes(NAMESPACE);
        let names = complete(&h.admin, &["doctor", "-n", NAMESPACE, ""]);
        assert_eq!(
            names,
            vec![
                "clicks\tFlinkDeployment",
                "pageviews\tJobManager Deployment",
                "topspeed\tFlinkCluster",
            ],
            "every kind doctor NAME knows, sorted"
        );
        assert_eq!(
            complete(&h.admin, &["logs", "--namespace", NAMESPACE, "-f", "to"]),
            vec!["topspeed\tFlinkCluster"]
        );
        assert!(
            complete(&h.admin, &["doctor", "-n", NAMESPACE, "clicks", ""]).is_empty(),
            "one name only"
        );
        assert!(
            complete(&h.admin, &["can-i", "-n", "kube-system", ""]).is_empty(),
            "nothing of Flink there"
        );
        let across = complete(&h.admin, &["doctor", "-A", "cli"]);
        assert!(
            across.contains(&"clicks\tFlinkDeployment".to_string()),
            "{across:?}"
        );

        assert_eq!(
            complete(&h.admin, &["doctor", "-n", "completion-"]),
            vec![NAMESPACE]
        );

        let current = Command::new(&h.kubectl)
            .arg("--kubeconfig")
            .arg(&h.admin)
            .args(["config", "current-context"])
            .output()
            .expect("kubectl config current-context");
        let current = String::from_utf8_lossy(&current.stdout).trim().to_string();
        assert!(
            complete(&h.admin, &["--context", ""]).contains(&current),
            "the kubeconfig's contexts include {current}"
        );
    }

    #[test]
    fn an_unreachable_server_offers_nothing() {
        let dir = std::env::temp_dir().join(format!(
            "kubectl-flink-completion-down-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let kubeconfig = dir.join("config");
        std::fs::write(
            &kubeconfig,
            "apiVersion: v1\nkind: Config\nclusters:\n- name: down\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: down\n  context:\n    cluster: down\n    user: nobody\n    namespace: default\ncurrent-context: down\nusers:\n- name: nobody\n  user:\n    token: x\n",
        )
        .unwrap();
        assert!(complete(&kubeconfig, &["doctor", ""]).is_empty());
        assert!(complete(&kubeconfig, &["doctor", "-n", ""]).is_empty());
        assert_eq!(complete(&kubeconfig, &["--context", ""]), vec!["down"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The bash script driven by bash itself, as `complete -F` would on TAB: the words typed so far,
/// the word under the cursor, and what the script puts in COMPREPLY.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let (_, script) = run(&["completion", "bash"]);
    let dir = std::env::temp_dir().join(format!("kubectl-flink-bash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("completion-{}.bash", words.join("_").len()));
    std::fs::write(&file, script).unwrap();
    let quoted: Vec<String> = words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect();
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let driver = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_kubectl__flink kubectl-flink '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        file.display(),
        quoted.join(" "),
        words[cword],
        prev,
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &driver])
        .output()
        .expect("run bash");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_every_subcommands_flags_and_their_values() {
    let top = bash_completes(&["kubectl-flink", "do"]);
    assert_eq!(top, vec!["doctor"], "{top:?}");
    for (sub, flag) in [
        ("doctor", "--fail-on"),
        ("logs", "--previous"),
        ("can-i", "--for"),
        ("triage", "--output"),
        ("lint", "--fail-on"),
        ("explain", "--help"),
    ] {
        let flags = bash_completes(&["kubectl-flink", sub, "--"]);
        assert!(flags.iter().any(|f| f == flag), "{sub}: {flags:?}");
    }
    let severities = bash_completes(&["kubectl-flink", "doctor", "--fail-on", ""]);
    assert!(severities.iter().any(|s| s == "warning"), "{severities:?}");
    let formats = bash_completes(&["kubectl-flink", "doctor", "-o", ""]);
    assert!(formats.iter().any(|s| s == "json"), "{formats:?}");
}
