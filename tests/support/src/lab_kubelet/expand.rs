//! Kubernetes' `$(VAR)` expansion and argv rules.
//!
//! Expansion follows k8s.io/kubernetes@v1.36.3:third_party/forked/golang/expansion/expand.go:
//! `$(NAME)` becomes the variable's value when NAME is defined, else stays as written; `$$` is an
//! escaped `$`; any other `$` is kept.

use std::collections::HashMap;

pub fn expand(input: &str, vars: &HashMap<String, String>) -> String {
    let b: Vec<char> = input.chars().collect();
    let mut out = String::with_capacity(input.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == '$' && i + 1 < b.len() {
            match b[i + 1] {
                '$' => {
                    out.push('$');
                    i += 2;
                    continue;
                }
                '(' => {
                    if let Some(close) = b[i + 2..].iter().position(|&c| c == ')') {
                        let name: String = b[i + 2..i + 2 + close].iter().collect();
                        match vars.get(&name) {
                            Some(v) => out.push_str(v),
                            None => {
                                out.push_str("$(");
                                out.push_str(&name);
                                out.push(')');
                            }
                        }
                        i += close + 3;
                        continue;
                    }
                }
                _ => {}
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// The process's argv: `command` replaces the image's entrypoint and drops its cmd; `args` alone
/// replace the cmd (k8s.io/kubernetes@v1.36.3:pkg/kubelet/kuberuntime/kuberuntime_container.go,
/// and the Docker/OCI rule the runtime applies). `$(VAR)` is expanded in command and args only.
pub fn argv(
    command: &[String],
    args: &[String],
    entrypoint: &[String],
    cmd: &[String],
    vars: &HashMap<String, String>,
) -> Vec<String> {
    let command: Vec<String> = command.iter().map(|c| expand(c, vars)).collect();
    let args: Vec<String> = args.iter().map(|c| expand(c, vars)).collect();
    match (command.is_empty(), args.is_empty()) {
        (false, _) => command.into_iter().chain(args).collect(),
        (true, false) => entrypoint.iter().cloned().chain(args).collect(),
        (true, true) => entrypoint.iter().chain(cmd).cloned().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> HashMap<String, String> {
        [("POD_IP", "127.1.0.5"), ("NAME", "jm")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn expansion() {
        let v = vars();
        assert_eq!(expand("-Dhost=$(POD_IP)", &v), "-Dhost=127.1.0.5");
        assert_eq!(expand("$(MISSING)", &v), "$(MISSING)");
        assert_eq!(expand("$$(POD_IP)", &v), "$(POD_IP)");
        assert_eq!(expand("a$b $", &v), "a$b $");
        assert_eq!(expand("$(NAME)-$(NAME)", &v), "jm-jm");
        assert_eq!(expand("$(unclosed", &v), "$(unclosed");
    }

    #[test]
    fn argv_rules() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let (ep, cmd) = (s(&["/docker-entrypoint.sh"]), s(&["help"]));
        let v = vars();
        assert_eq!(
            argv(&[], &[], &ep, &cmd, &v),
            s(&["/docker-entrypoint.sh", "help"])
        );
        assert_eq!(
            argv(&[], &s(&["jobmanager", "$(POD_IP)"]), &ep, &cmd, &v),
            s(&["/docker-entrypoint.sh", "jobmanager", "127.1.0.5"])
        );
        assert_eq!(argv(&s(&["/bin/sh"]), &[], &ep, &cmd, &v), s(&["/bin/sh"]));
        assert_eq!(
            argv(&s(&["/bin/sh", "-c"]), &s(&["echo"]), &ep, &cmd, &v),
            s(&["/bin/sh", "-c", "echo"])
        );
    }
}
