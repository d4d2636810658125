//! Options a user put in `env.java.opts*`, and the merge patch that takes some of them out.
//!
//! Every Flink JVM gets `env.java.opts.all` (whose deprecated key is `env.java.opts`) and its
//! component's own `env.java.opts.jobmanager` / `env.java.opts.taskmanager`
//! (apache/flink@release-1.18.1:flink-core/src/main/java/org/apache/flink/configuration/CoreOptions.java),
//! after the options Flink computes itself: Kubernetes starts it with
//! `%java% %classpath% %jvmmem% %jvmopts% ...`
//! (apache/flink@release-1.18.1:flink-kubernetes/src/main/java/org/apache/flink/kubernetes/configuration/KubernetesConfigOptions.java,
//! `CONTAINER_START_COMMAND_TEMPLATE`). So a heap flag there wins over Flink's, and an option the
//! JVM refuses there stops every start of that component.

use crate::signatures::Match;
use crate::snapshot::FlinkDeployment;
use std::collections::BTreeMap;

/// The options of one `env.java.opts*` key that a rule wants gone, and the ones that stay.
#[derive(Debug, Clone, PartialEq)]
pub struct OptsEdit {
    pub key: String,
    pub removed: Vec<String>,
    pub kept: Vec<String>,
}

/// The keys whose options reach a component's JVM: its own, then the ones every JVM gets.
fn keys(component: &str) -> [String; 3] {
    [
        format!("env.java.opts.{component}"),
        "env.java.opts.all".to_string(),
        "env.java.opts".to_string(),
    ]
}

/// For every key that reaches `component`'s JVM (`jobmanager` or `taskmanager`) and holds an
/// option `unwanted` picks, that key's edit. All of them: with the component's own removed, the
/// same option in `env.java.opts.all` would still reach the JVM.
pub fn find(
    conf: &BTreeMap<String, String>,
    component: &str,
    unwanted: impl Fn(&str) -> bool,
) -> Vec<OptsEdit> {
    keys(component)
        .into_iter()
        .filter_map(|key| {
            let (removed, kept): (Vec<String>, Vec<String>) = conf
                .get(&key)?
                .split_whitespace()
                .map(str::to_string)
                .partition(|t| unwanted(t));
            (!removed.is_empty()).then_some(OptsEdit { key, removed, kept })
        })
        .collect()
}

/// One merge patch of `spec.flinkConfiguration` that applies every edit: the key keeps its other
/// options, or goes when nothing else is left in it.
pub fn merge_patch(edits: &[OptsEdit]) -> String {
    let mut conf = serde_json::Map::new();
    for e in edits {
        let value = if e.kept.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::Value::String(e.kept.join(" "))
        };
        conf.insert(e.key.clone(), value);
    }
    serde_json::json!({"spec": {"flinkConfiguration": conf}}).to_string()
}

/// `-Xms1536m -Xmx1536m from `env.java.opts.taskmanager`; ...`: what goes, and from where.
pub fn describe(edits: &[OptsEdit]) -> String {
    edits
        .iter()
        .map(|e| format!("{} from `{}`", e.removed.join(" "), e.key))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether `token` on the command line is the option HotSpot or the launcher named in a refusal.
/// HotSpot names `-XX:` options without the prefix and sign (`Unrecognized VM option 'UseG1GCX'`
/// for `-XX:+UseG1GCX`, `Improperly specified VM option 'MaxMetaspaceSize=2x'`,
/// openjdk/jdk17u@jdk-17.0.19+10:src/hotspot/share/runtime/arguments.cpp); the launcher quotes the
/// whole token (`Unrecognized option: --add-opens=...`, `-Xbootclasspath/p is no longer a supported
/// option`, for `-Xbootclasspath/p:dir`).
pub fn is_named_option(token: &str, named: &str) -> bool {
    if named.is_empty() {
        return false;
    }
    if token == named
        || token
            .strip_prefix(named)
            .is_some_and(|r| r.starts_with(':'))
    {
        return true;
    }
    let Some(xx) = token.strip_prefix("-XX:") else {
        return false;
    };
    let xx = xx.trim_start_matches(['+', '-']);
    let name_of = |s: &str| s.split('=').next().unwrap_or(s).to_string();
    name_of(xx) == name_of(named)
}

/// For a package Java refused Flink (SIG-JAVA-MODULE-CLOSED: `module java.base does not "opens
/// java.util"`), the option that opens it, added to `env.java.opts.all` of the FlinkDeployment
/// after the options already there: one merge patch, as it is; empty for any other match, or
/// when the option is there already. `env.java.opts.all` is what every Flink JVM gets
/// (apache/flink@release-1.20.1:flink-core/src/main/java/org/apache/flink/configuration/CoreOptions.java,
/// FLINK_JVM_OPTIONS; flink-dist's config.sh passes it), and the operator's ConfigMap, mounted over
/// conf/, carries no `env.java.default-opts.all` of the image's (its default is "": CoreOptions).
pub fn open_the_module(fd: &FlinkDeployment, ns: &str, m: &Match) -> String {
    if m.signature.id != "SIG-JAVA-MODULE-CLOSED" {
        return String::new();
    }
    let (Some(module), Some(directive), Some(package)) =
        (m.field("module"), m.field("directive"), m.field("package"))
    else {
        return String::new();
    };
    let option = format!("--add-{directive}={module}/{package}=ALL-UNNAMED");
    let key = "env.java.opts.all";
    let was = fd
        .spec
        .flink_configuration
        .get(key)
        .map(|v| v.trim())
        .unwrap_or("");
    if was.split_whitespace().any(|t| t == option) {
        return String::new();
    }
    let added = OptsEdit {
        key: key.to_string(),
        removed: Vec::new(),
        kept: was
            .split_whitespace()
            .map(str::to_string)
            .chain([option.clone()])
            .collect(),
    };
    let patch = merge_patch(&[added]);
    format!(
        "\n\nAdd {option} to flinkConfiguration `{key}` of FlinkDeployment {name}{kept}:\n\n  \
         kubectl patch flinkdeployment {name} -n {ns_q} --type=merge -p {patch}",
        name = crate::shell::sh(fd.name()),
        ns_q = crate::shell::sh(ns),
        kept = if was.is_empty() {
            String::new()
        } else {
            format!(" (after the options it has: {was})")
        },
        patch = crate::shell::sh(&patch),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_key_that_reaches_the_component_is_edited_in_one_patch() {
        let c = conf(&[
            ("env.java.opts.all", "-Xmx4g -Dx=1"),
            ("env.java.opts.taskmanager", "-Xmx2g"),
            ("env.java.opts.jobmanager", "-Xmx8g"),
        ]);
        let edits = find(&c, "taskmanager", |t| t.starts_with("-Xmx"));
        assert_eq!(edits.len(), 2, "{edits:?}");
        assert_eq!(
            merge_patch(&edits),
            r#"{"spec":{"flinkConfiguration":{"env.java.opts.all":"-Dx=1","env.java.opts.taskmanager":null}}}"#
        );
        assert_eq!(
            describe(&edits),
            "-Xmx2g from `env.java.opts.taskmanager`; -Xmx4g from `env.java.opts.all`"
        );
        assert!(find(&c, "taskmanager", |t| t == "-Dy=2").is_empty());
    }

    #[test]
    fn the_option_a_refusal_names_is_found_on_the_command_line() {
        assert!(is_named_option("-XX:+UseG1GCX", "UseG1GCX"));
        assert!(is_named_option("-XX:-UseG1GCX", "UseG1GCX"));
        assert!(is_named_option(
            "-XX:MaxMetaspaceSize=2x",
            "MaxMetaspaceSize=2x"
        ));
        assert!(is_named_option(
            "-XX:MaxMetaspaceSize=2x",
            "MaxMetaspaceSize"
        ));
        assert!(is_named_option(
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED"
        ));
        assert!(is_named_option(
            "-Xbootclasspath/p:/opt/x",
            "-Xbootclasspath/p"
        ));
        // Not a neighbour that shares a prefix, nor anything for an empty name.
        assert!(!is_named_option("-XX:+UseG1GC", "UseG1GCX"));
        assert!(!is_named_option("-XX:+UseG1GCX", "UseG1GC"));
        assert!(!is_named_option("-Dfoo=1", ""));
    }
}
