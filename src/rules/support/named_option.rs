//! The one spec.flinkConfiguration option an error of Flink's names, and the patch that takes it
//! out so Flink uses its default. Flink's configuration errors name the option by its value
//! (`Unknown restart strategy sometimes.`, apache/flink@release-1.18.1:flink-runtime/.../
//! RestartBackoffTimeStrategyFactoryLoader.java) or by its key (`kubernetes.taskmanager.memory.
//! limit-factor should be greater or equal to 1.`, apache/flink@release-1.18.1:flink-kubernetes/
//! .../KubernetesTaskManagerParameters.java; `Could not parse value 'x' for key 'y'.`,
//! flink-core/.../Configuration.java): either, as a whole word of the message, names it.

use crate::snapshot::flink::FlinkDeployment;

/// An option of spec.flinkConfiguration and how the error named it.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedOption {
    pub key: String,
    pub value: String,
    /// Named by its key (else by its value).
    pub by_key: bool,
}

/// The option of FD's spec.flinkConfiguration that CAUSE names: its value as a whole word (three
/// characters or more, not a number or a boolean), else its key as a whole word; the only one
/// that matches, never a guess among several.
pub fn named_option(fd: &FlinkDeployment, cause: &str) -> Option<NamedOption> {
    let words: Vec<&str> = cause
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '\'' | '"' | '`' | ',' | ';' | '(' | ')' | '[' | ']')
        })
        .map(|w| w.trim_end_matches(['.', ':']))
        .filter(|w| !w.is_empty())
        .collect();
    let conf = &fd.spec.flink_configuration;
    let by_value: Vec<(&String, &String)> = conf
        .iter()
        .filter(|(_, v)| {
            let v = v.trim();
            v.chars().count() >= 3
                && v.parse::<f64>().is_err()
                && !v.eq_ignore_ascii_case("true")
                && !v.eq_ignore_ascii_case("false")
                && words.contains(&v)
        })
        .collect();
    if let [(key, value)] = by_value.as_slice() {
        return Some(NamedOption {
            key: key.to_string(),
            value: value.to_string(),
            by_key: false,
        });
    }
    if !by_value.is_empty() {
        return None;
    }
    let by_key: Vec<(&String, &String)> = conf
        .iter()
        .filter(|(k, _)| k.contains('.') && words.contains(&k.as_str()))
        .collect();
    let [(key, value)] = by_key.as_slice() else {
        return None;
    };
    Some(NamedOption {
        key: key.to_string(),
        value: value.to_string(),
        by_key: true,
    })
}

/// The fix for an option Flink refuses: set a value Flink takes, or remove it (one JSON patch) so
/// Flink uses its default.
pub fn remove_it(fd: &FlinkDeployment, o: &NamedOption) -> String {
    let pointer = crate::shell::pointer(&["spec", "flinkConfiguration", &o.key]);
    let patch = serde_json::json!([{"op": "remove", "path": pointer}]);
    format!(
        "That error {} spec.flinkConfiguration `{}` of FlinkDeployment {} ({}). Set it to a value Flink takes, or \
         remove it so Flink uses its default:\n\n  \
         kubectl patch flinkdeployment {} -n {} --type=json -p {}",
        if o.by_key { "names" } else { "quotes the value of" },
        o.key,
        fd.name(),
        o.value,
        crate::shell::sh(fd.name()),
        crate::shell::sh(fd.namespace()),
        crate::shell::json_arg(&patch),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fd(conf: &str) -> FlinkDeployment {
        serde_yaml::from_str(&format!(
            "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {{name: orders, namespace: analytics}}\nspec:\n  flinkConfiguration: {conf}\n"
        ))
        .unwrap()
    }

    #[test]
    fn an_option_is_named_by_its_value_or_else_by_its_key() {
        let d = fd("{restart-strategy.type: sometimes, taskmanager.numberOfTaskSlots: '1'}");
        let o = named_option(
            &d,
            "java.lang.IllegalArgumentException: Unknown restart strategy sometimes.",
        )
        .unwrap();
        assert_eq!(
            (o.key.as_str(), o.value.as_str(), o.by_key),
            ("restart-strategy.type", "sometimes", false)
        );
        let d = fd("{kubernetes.taskmanager.memory.limit-factor: '0.5', taskmanager.numberOfTaskSlots: '1'}");
        let o = named_option(&d, "java.lang.IllegalArgumentException: kubernetes.taskmanager.memory.limit-factor should be greater or equal to 1.").unwrap();
        assert_eq!(
            (o.key.as_str(), o.value.as_str(), o.by_key),
            ("kubernetes.taskmanager.memory.limit-factor", "0.5", true)
        );
        assert!(remove_it(&d, &o).contains(r#"'[{"op":"remove","path":"/spec/flinkConfiguration/kubernetes.taskmanager.memory.limit-factor"}]'"#));
    }

    #[test]
    fn no_guess_among_several_and_none_for_words_that_are_not_options() {
        let d = fd("{a.b: same, c.d: same}");
        assert_eq!(named_option(&d, "value same refused"), None);
        let d = fd("{a.b: '1', c.d: '2'}");
        assert_eq!(named_option(&d, "both a.b and c.d are wrong"), None);
        assert_eq!(named_option(&d, "a.bc is wrong"), None);
    }
}
