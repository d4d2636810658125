//! `kubectl flink lint`: the traps in a manifest, caught before it is applied, with no cluster.
//!
//! sources (files, directories, stdin) -> documents (with their first line) -> the resources lint
//! reads (FlinkDeployment, FlinkSessionJob, Lyft's FlinkApplication, the GCP/Spotify operator's
//! FlinkCluster, plain pod-template files;
//! everything else in a Helm or Kustomize stream is ignored) -> three kinds of checks:
//!
//! 1. doctor's spec-layer rules (`src/rules`, e.g. FLK101), run on a Snapshot built from each
//!    resource alone;
//! 2. lint-only checks (`checks/`), small functions with stable FLK45x ids;
//! 3. validation against the operator's real CRD schemas (`schema`, FLK47x).
//!
//! Every finding keeps the findings contract (`crate::finding::Finding`, ranked by
//! `crate::rank::rank`) and starts its evidence with `file:line: field: value`.

pub mod checks;
pub mod config;
pub mod locate;
pub mod manifest;
pub mod schema;
pub mod source;
pub mod unknown_field;

use crate::error::Error;
use crate::finding::{Finding, Layer};
use crate::rank::{rank, Report};
use crate::snapshot::{bundle, Index, Snapshot};
use checks::{At, Check, Hit, CHECKS};
use locate::Path;
use manifest::{Kind, Manifest};
use serde_json::Value;
use source::{Doc, Source};
use std::collections::HashMap;

/// Everything lint read, for checks that look across resources (a session job's cluster).
pub struct Lint<'a> {
    pub sources: &'a [Source],
    pub manifests: Vec<Manifest<'a>>,
}

impl<'a> Lint<'a> {
    pub fn new(sources: &'a [Source], docs: &'a [Doc]) -> Self {
        let mut manifests = Vec::new();
        for doc in docs {
            let file = sources.get(doc.source).map_or("", |s| s.name.as_str());
            let v = &doc.value;
            let is_list = v
                .get("kind")
                .and_then(Value::as_str)
                .is_some_and(|k| k.ends_with("List"));
            match v.get("items").and_then(Value::as_array) {
                Some(items) if is_list => {
                    for (i, item) in items.iter().enumerate() {
                        if let Some(kind) = Kind::classify(item) {
                            manifests.push(Manifest::new(
                                kind,
                                item,
                                doc,
                                file,
                                Path::root().key("items").index(i),
                            ));
                        }
                    }
                }
                _ => {
                    if let Some(kind) = Kind::classify(v) {
                        manifests.push(Manifest::new(kind, v, doc, file, Path::root()));
                    }
                }
            }
        }
        Lint { sources, manifests }
    }

    /// The session cluster a FlinkSessionJob names, when it is among the inputs.
    pub fn session_cluster(&self, job: &Manifest) -> Option<&Manifest<'a>> {
        let name = job.str_at("spec.deploymentName")?;
        self.manifests.iter().find(|m| {
            m.kind == Kind::FlinkDeployment && m.name == name && m.namespace == job.namespace
        })
    }
}

/// Where a finding points, for SARIF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file as the user named it (`<stdin>` for standard input).
    pub file: String,
    pub line: usize,
}

/// A finished lint run.
#[derive(Debug)]
pub struct Outcome {
    pub report: Report,
    /// By finding id.
    pub locations: HashMap<String, Location>,
    /// Resources checked (Flink resources and pod-template files).
    pub resources: usize,
    /// Documents read, of any kind.
    pub documents: usize,
}

/// Lints every source. Invalid YAML is an input error (exit 2); everything else is a finding.
pub fn run(sources: &[Source]) -> Result<Outcome, Error> {
    let mut docs = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        docs.extend(source::documents(i, s)?);
    }
    let lint = Lint::new(sources, &docs);
    let mut located: Vec<(Finding, Location)> = Vec::new();
    for m in &lint.manifests {
        located.extend(doctor_rules(m));
        for check in CHECKS {
            for hit in (check.run)(m, &lint) {
                located.push(to_finding(check, m, hit));
            }
        }
    }
    let by_evidence: HashMap<String, Location> = located
        .iter()
        .filter_map(|(f, l)| Some((f.evidence.first()?.clone(), l.clone())))
        .collect();
    let report = rank(located.into_iter().map(|(f, _)| f).collect());
    let locations = report
        .findings
        .iter()
        .filter_map(|f| Some((f.id.clone(), by_evidence.get(f.evidence.first()?)?.clone())))
        .collect();
    Ok(Outcome {
        report,
        locations,
        resources: lint.manifests.len(),
        documents: docs.len(),
    })
}

fn to_finding(check: &'static Check, m: &Manifest, hit: Hit) -> (Finding, Location) {
    let line = match &hit.at {
        At::Path(p) => m.line(p),
        At::Config(key) => m.config_line(key),
    };
    let mut f = Finding::new(&check.meta, m.object(), hit.title)
        // Each resource is its own deployment: rank then never folds the same trap in two
        // files into one finding, and every finding keeps its own file and line.
        .deployment(Some(m.object()))
        .evidence(format!("{}:{line}: {}", m.file, hit.what))
        .fix(hit.fix)
        .verify(hit.verify);
    for e in hit.evidence {
        f = f.evidence(e);
    }
    if let Some(s) = hit.severity {
        f.severity = s;
    }
    if let Some(c) = hit.category {
        f.category = c;
        f.layer = c.layer();
    }
    (
        f,
        Location {
            file: m.file.to_string(),
            line,
        },
    )
}

/// doctor's spec-layer rules on a Snapshot holding this one resource. Their first evidence line
/// names the field (`spec.jobManager.podTemplate.spec.containers[0].name: x`), which is located
/// in the text; otherwise the finding points at the resource's name.
fn doctor_rules(m: &Manifest) -> Vec<(Finding, Location)> {
    if m.kind == Kind::PodTemplateFile {
        return Vec::new();
    }
    let mut s = Snapshot::default();
    // A resource the typed model cannot read (a wrong type) gets its schema finding instead.
    if bundle::add_value(&mut s, for_snapshot(m)).is_err() {
        return Vec::new();
    }
    // The snapshot holds this one resource and nothing else was read: a rule that concludes from
    // absence (no FlinkDeployment of the name a session job names) has nothing to conclude from.
    s.bundle_kinds = Some(std::iter::once(format!("{:?}", m.kind)).collect());
    let index = Index::new(&s);
    let mut out = Vec::new();
    for rule in crate::rules::RULES
        .iter()
        .filter(|r| r.meta().category.layer() == Layer::Spec)
    {
        for mut f in rule.check(&s, &index) {
            let first = f.evidence.first().cloned().unwrap_or_default();
            let field = first.split(": ").next().unwrap_or("");
            let path = Path::parse(field);
            let line = if !path.0.is_empty() && m.written(&path) {
                m.line(&path)
            } else {
                m.line(&Path::parse("metadata.name"))
            };
            let located = format!("{}:{line}: {first}", m.file);
            match f.evidence.first_mut() {
                Some(e) => *e = located,
                None => f.evidence.push(located),
            }
            f.object = m.object();
            f.deployment = Some(m.object());
            out.push((
                f,
                Location {
                    file: m.file.to_string(),
                    line,
                },
            ));
        }
    }
    out
}

/// The resource as the typed Snapshot model reads it: Flink options as the flat strings Flink
/// itself reads (the CRD allows numbers and nested maps there).
fn for_snapshot(m: &Manifest) -> Value {
    let mut v = m.value.clone();
    if matches!(m.kind, Kind::FlinkDeployment | Kind::FlinkSessionJob) {
        if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
            if spec.contains_key("flinkConfiguration") {
                let flat = m
                    .config
                    .entries
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect();
                spec.insert("flinkConfiguration".into(), Value::Object(flat));
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lint(text: &str) -> Outcome {
        run(&[Source {
            name: "deploy/orders.yaml".into(),
            text: text.into(),
        }])
        .expect("lints")
    }

    const MISNAMED: &str = "---\napiVersion: v1\nkind: Service\nmetadata: {name: x}\n---\napiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata:
  name: orders
spec:
  image: flink:1.20
  flinkVersion: v1_20
  serviceAccount: flink
  flinkConfiguration:
    taskmanager.numberOfTaskSlots: 2
  jobManager:
    resource: {memory: 2048m, cpu: 1}
    podTemplate:
      spec:
        containers:
          - name: flink-job-manager
  taskManager:
    resource: {memory: 2048m, cpu: 1}
";

    #[test]
    fn doctors_flk101_runs_on_the_manifest_with_file_and_line() {
        let o = lint(MISNAMED);
        assert_eq!(o.resources, 1);
        let f = o
            .report
            .findings
            .iter()
            .find(|f| f.rule == "FLK101")
            .expect("FLK101");
        assert_eq!(f.evidence[0], "deploy/orders.yaml:21: spec.jobManager.podTemplate.spec.containers[0].name: flink-job-manager");
        assert_eq!(f.object.namespace, None);
        assert_eq!(
            o.locations[&f.id],
            Location {
                file: "deploy/orders.yaml".into(),
                line: 21
            }
        );
    }

    #[test]
    fn the_same_trap_in_two_files_stays_two_findings() {
        let s = |name: &str| Source {
            name: name.into(),
            text: MISNAMED.into(),
        };
        let o = run(&[s("a.yaml"), s("b.yaml")]).unwrap();
        let files: Vec<&str> = o
            .report
            .findings
            .iter()
            .filter(|f| f.rule == "FLK101")
            .map(|f| o.locations[&f.id].file.as_str())
            .collect();
        assert_eq!(files, ["a.yaml", "b.yaml"]);
    }

    #[test]
    fn list_items_are_located_inside_the_list() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n- apiVersion: flink.apache.org/v1beta1\n  kind: FlinkDeployment\n  metadata: {name: l}\n  spec:\n    image: flink:1.20\n    flinkVersion: v1_20\n    serviceAccount: default\n";
        let o = lint(text);
        let f = o
            .report
            .findings
            .iter()
            .find(|f| f.rule == "FLK453")
            .expect("default SA");
        assert!(
            f.evidence[0].starts_with("deploy/orders.yaml:13: "),
            "{:?}",
            f.evidence
        );
    }
}
