//! A live diagnosis against a recorded bundle's `expect.txt`: the reality lab's check that doctor
//! on the live state says what it says on the state recorded from the same scenario.
//!
//! `expect.txt` lists findings as `{rule, category, object: Kind/name, causedBy: i}` in rank order
//! (tests/scenarios.rs reads the same file). Names of pods a controller made carry random suffixes
//! that differ between runs (`orders-7f57787bdf-5jvnh`), so they compare with the suffixes masked.

use serde_json::Value;

/// One finding as compared: rule, category, `Kind/name` (suffixes masked), and its cause's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub rule: String,
    pub category: String,
    pub object: String,
    pub caused_by: Option<usize>,
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.rule, self.category, self.object)?;
        if let Some(c) = self.caused_by {
            write!(f, " <- {c}")?;
        }
        Ok(())
    }
}

/// `orders-7f57787bdf-5jvnh` -> `orders-*-*` (ReplicaSet pod), `orders-5jvnh` stays as it is
/// unless it is a pod of a Job or DaemonSet-like controller: only the ReplicaSet form is masked,
/// since Flink's TaskManager pods (`orders-taskmanager-1-1`) are named by Flink and stable.
pub fn mask(object: &str) -> String {
    let Some((kind, name)) = object.split_once('/') else {
        return object.to_string();
    };
    let parts: Vec<&str> = name.split('-').collect();
    let n = parts.len();
    let hashy = |s: &str, lens: &[usize]| {
        lens.contains(&s.len())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && s.chars()
                .any(|c| c.is_ascii_digit() || "bcdfghjklmnpqrstvwxz".contains(c))
    };
    if kind == "Pod" && n >= 3 && hashy(parts[n - 1], &[5]) && hashy(parts[n - 2], &[8, 9, 10]) {
        return format!("{kind}/{}-*-*", parts[..n - 2].join("-"));
    }
    object.to_string()
}

/// The expected lines of an `expect.txt` (YAML) and its exit code.
pub fn expected(text: &str) -> Result<(Vec<Line>, i64), String> {
    let doc: Value = serde_yaml::from_str(text).map_err(|e| format!("expect.txt: {e}"))?;
    let exit = doc["exit"].as_i64().ok_or("expect.txt: no exit")?;
    let mut out = Vec::new();
    for f in doc["findings"].as_array().cloned().unwrap_or_default() {
        let field = |k: &str| {
            f[k].as_str()
                .map(str::to_string)
                .ok_or(format!("expect.txt: a finding without {k}"))
        };
        out.push(Line {
            rule: field("rule")?,
            category: field("category")?,
            object: mask(&field("object")?),
            caused_by: f["causedBy"].as_u64().map(|c| c as usize),
        });
    }
    Ok((out, exit))
}

/// The lines of a `doctor -o json` report.
pub fn actual(report: &Value) -> Vec<Line> {
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let ids: Vec<&str> = findings
        .iter()
        .map(|f| f["id"].as_str().unwrap_or(""))
        .collect();
    findings
        .iter()
        .map(|f| Line {
            rule: f["rule"].as_str().unwrap_or("?").to_string(),
            category: f["category"].as_str().unwrap_or("?").to_string(),
            object: mask(&format!(
                "{}/{}",
                f["object"]["kind"].as_str().unwrap_or("?"),
                f["object"]["name"].as_str().unwrap_or("?")
            )),
            caused_by: f["causedBy"]
                .as_str()
                .and_then(|c| ids.iter().position(|i| *i == c)),
        })
        .collect()
}

/// The differences, one line each; empty when they agree.
pub fn compare(want: &[Line], want_exit: i64, got: &[Line], got_exit: i64) -> Vec<String> {
    let mut out = Vec::new();
    if want_exit != got_exit {
        out.push(format!("exit code: expected {want_exit}, got {got_exit}"));
    }
    for i in 0..want.len().max(got.len()) {
        match (want.get(i), got.get(i)) {
            (Some(w), Some(g)) if w == g => {}
            (Some(w), Some(g)) => out.push(format!("#{i}: expected {w}, got {g}")),
            (Some(w), None) => out.push(format!("#{i}: expected {w}, missing")),
            (None, Some(g)) => out.push(format!("#{i}: unexpected {g}")),
            (None, None) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replica_set_pod_names_are_masked_and_flink_names_are_not() {
        assert_eq!(mask("Pod/orders-7f57787bdf-5jvnh"), "Pod/orders-*-*");
        assert_eq!(
            mask("Pod/orders-taskmanager-1-1"),
            "Pod/orders-taskmanager-1-1"
        );
        assert_eq!(mask("FlinkDeployment/orders"), "FlinkDeployment/orders");
        assert_eq!(
            mask("Pod/flink-kubernetes-operator-7854856d5c-tspbr"),
            "Pod/flink-kubernetes-operator-*-*"
        );
    }

    #[test]
    fn a_live_report_agrees_with_the_recording_despite_new_pod_names() {
        let (want, exit) = expected(
            "exit: 1\nfindings:\n  - {rule: FLK501, category: rbac_forbidden, object: Pod/orders-7f57787bdf-5jvnh}\n  - {rule: FLK103, category: flink_fatal_exit, object: Pod/orders-7f57787bdf-5jvnh, causedBy: 0}\n",
        )
        .unwrap();
        let report = serde_json::json!({"findings": [
            {"id": "a", "rule": "FLK501", "category": "rbac_forbidden", "object": {"kind": "Pod", "name": "orders-5c9d8b7f4-x2k9q"}},
            {"id": "b", "rule": "FLK103", "category": "flink_fatal_exit", "object": {"kind": "Pod", "name": "orders-5c9d8b7f4-x2k9q"}, "causedBy": "a"}
        ]});
        assert!(compare(&want, exit, &actual(&report), 1).is_empty());
        let other = serde_json::json!({"findings": [
            {"id": "a", "rule": "FLK101", "category": "main_container_misnamed", "object": {"kind": "FlinkDeployment", "name": "orders"}}
        ]});
        let diff = compare(&want, exit, &actual(&other), 0);
        assert_eq!(diff.len(), 3, "{diff:?}");
    }
}
