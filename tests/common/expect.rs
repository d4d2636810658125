//! What a scenario bundle must be diagnosed as: its `expect.txt` (YAML, kept as .txt so that
//! `doctor --from` does not read it as part of the bundle), read here for every test that checks a
//! diagnosis against it: the offline check of every bundle (tests/scenarios.rs), the e2e tests that
//! seed a bundle and diagnose it live (tests/e2e.rs, modes_e2e.rs, install_e2e.rs), and the reality
//! lab's `lab-expect` (tests/support, which includes this file).
//!
//! `expect.txt` lists findings as `{rule, category, object: Kind/name, causedBy: i, fix: text}` in
//! rank order (`causedBy`: the index of the finding that explains it; `fix`: text its fix must
//! hold), the exit code, and optionally `note` (what the one stderr note must name) and `live` (the
//! findings live, where they differ: a live cluster can say more than a bundle). Names of pods a
//! controller made carry random suffixes that differ between runs (`orders-7f57787bdf-5jvnh`), so
//! the lab compares them with the suffixes masked.
#![allow(dead_code)] // each user takes what it needs

use serde_json::Value;
use std::path::Path;

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

/// A bundle's `expect.txt`.
#[derive(Debug, Clone)]
pub struct Expect {
    pub exit: i64,
    pub findings: Vec<Line>,
    /// Per finding, text its fix must hold (empty: not checked).
    pub fixes: Vec<String>,
    /// What the one `note:` line on stderr must name.
    pub note: Vec<String>,
    /// The findings live, where a live diagnosis says more than the bundle (else `findings`).
    pub live: Option<Vec<Line>>,
    pub live_fixes: Vec<String>,
}

impl Expect {
    /// The `expect.txt` of the scenario folder `dir`.
    pub fn read(dir: &Path) -> Result<Expect, String> {
        let file = dir.join("expect.txt");
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        Expect::parse(&text).map_err(|e| format!("{}: {e}", dir.display()))
    }

    pub fn parse(text: &str) -> Result<Expect, String> {
        let doc: Value = serde_yaml::from_str(text).map_err(|e| format!("expect.txt: {e}"))?;
        let exit = doc["exit"].as_i64().ok_or("expect.txt: no exit")?;
        let (findings, fixes) = lines(&doc["findings"])?;
        let (live, live_fixes) = match doc.get("live") {
            Some(l) => {
                let (l, f) = lines(&l["findings"])?;
                (Some(l), f)
            }
            None => (None, Vec::new()),
        };
        let note = doc["note"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        Ok(Expect {
            exit,
            findings,
            fixes,
            note,
            live,
            live_fixes,
        })
    }

    /// The findings a live diagnosis must give, and the fix texts they must hold.
    pub fn live(&self) -> (&[Line], &[String]) {
        match &self.live {
            Some(l) => (l, &self.live_fixes),
            None => (&self.findings, &self.fixes),
        }
    }

    /// Whether the bundle must be diagnosed healthy.
    pub fn healthy(&self) -> bool {
        self.findings.is_empty()
    }
}

fn lines(list: &Value) -> Result<(Vec<Line>, Vec<String>), String> {
    let mut out = Vec::new();
    let mut fixes = Vec::new();
    for f in list.as_array().ok_or("expect.txt: no findings list")? {
        let field = |k: &str| {
            f[k].as_str()
                .map(str::to_string)
                .ok_or(format!("expect.txt: a finding without {k}"))
        };
        out.push(Line {
            rule: field("rule")?,
            category: field("category")?,
            object: field("object")?,
            caused_by: f["causedBy"].as_u64().map(|c| c as usize),
        });
        fixes.push(f["fix"].as_str().unwrap_or("").to_string());
    }
    Ok((out, fixes))
}

impl Line {
    /// The line with a ReplicaSet pod's suffixes masked (see [`mask`]).
    pub fn masked(&self) -> Line {
        Line {
            object: mask(&self.object),
            ..self.clone()
        }
    }
}

/// The expected lines of an `expect.txt` (YAML) and its exit code, pod suffixes masked (the lab).
pub fn expected(text: &str) -> Result<(Vec<Line>, i64), String> {
    let e = Expect::parse(text)?;
    Ok((e.findings.iter().map(Line::masked).collect(), e.exit))
}

/// Where the fixes of a `doctor -o json` report lack the text `fixes` names (by finding index).
pub fn missing_fixes(report: &Value, fixes: &[String]) -> Vec<String> {
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let mut out = Vec::new();
    for (i, want) in fixes.iter().enumerate().filter(|(_, w)| !w.is_empty()) {
        let fix = findings
            .get(i)
            .and_then(|f| f["fix"].as_str())
            .unwrap_or("");
        if !fix.contains(want.as_str()) {
            out.push(format!("#{i}: the fix lacks `{want}`:\n{fix}"));
        }
    }
    out
}

/// The lines of a `doctor -o json` report, names as they are.
pub fn exact(report: &Value) -> Vec<Line> {
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
            object: format!(
                "{}/{}",
                f["object"]["kind"].as_str().unwrap_or("?"),
                f["object"]["name"].as_str().unwrap_or("?")
            ),
            caused_by: f["causedBy"]
                .as_str()
                .and_then(|c| ids.iter().position(|i| *i == c)),
        })
        .collect()
}

/// The lines of a `doctor -o json` report, pod suffixes masked (the lab).
pub fn actual(report: &Value) -> Vec<Line> {
    exact(report).iter().map(Line::masked).collect()
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
