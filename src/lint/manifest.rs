//! The resources lint checks, as read from the documents: which kind, where in which file, and
//! the shortcuts the checks share (pod templates, the main container, Flink options).

use super::config::FlinkConfig;
use super::locate::Path;
use super::source::Doc;
use crate::finding::ObjectRef;
use crate::flink::mode::Component;
use crate::flink::names::MAIN_CONTAINER;

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// flink.apache.org FlinkDeployment
    FlinkDeployment,
    /// flink.apache.org FlinkSessionJob
    FlinkSessionJob,
    /// flink.k8s.io FlinkApplication (Lyft's operator)
    FlinkApplication,
    /// flinkoperator.k8s.io FlinkCluster (the GCP/Spotify operator)
    FlinkCluster,
    /// A plain `Pod` or `PodTemplate` file, as used for `kubernetes.pod-template-file`.
    PodTemplateFile,
}

impl Kind {
    /// Which kinds lint reads; everything else in the stream (Services, ConfigMaps, the
    /// operator's own Deployment from a Helm chart) is ignored.
    pub fn classify(v: &Value) -> Option<Kind> {
        let kind = v.get("kind")?.as_str()?;
        let group = v
            .get("apiVersion")
            .and_then(Value::as_str)
            .map(|a| a.split_once('/').map_or("", |(g, _)| g))
            .unwrap_or("");
        match (kind, group) {
            ("FlinkDeployment", "flink.apache.org") => Some(Kind::FlinkDeployment),
            ("FlinkSessionJob", "flink.apache.org") => Some(Kind::FlinkSessionJob),
            ("FlinkApplication", "flink.k8s.io") => Some(Kind::FlinkApplication),
            ("FlinkCluster", "flinkoperator.k8s.io") => Some(Kind::FlinkCluster),
            ("Pod" | "PodTemplate", "") if !made_by_flink(v) => Some(Kind::PodTemplateFile),
            _ => None,
        }
    }
}

/// Pods Flink or Kubernetes already made (`kubectl get pods -o yaml` piped in) are not templates:
/// their main container carries the command Flink gave it.
fn made_by_flink(v: &Value) -> bool {
    let label = |k: &str| {
        v.pointer(&format!("/metadata/labels/{k}"))
            .and_then(Value::as_str)
    };
    v.get("status").is_some()
        || matches!(
            label("type"),
            Some("flink-native-kubernetes" | "flink-standalone-kubernetes")
        )
        || v.pointer("/metadata/ownerReferences").is_some()
}

/// Which Flink processes a pod template shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shapes {
    /// `spec.podTemplate`, or a template file whose use is not known.
    Both,
    One(Component),
}

impl Shapes {
    pub fn applies_to(self, c: Component) -> bool {
        match self {
            Shapes::Both => true,
            Shapes::One(one) => one == c,
        }
    }
}

/// A pod template inside a resource.
#[derive(Debug, Clone)]
pub struct PodTemplateRef<'a> {
    /// Path of the template (the object with `spec.containers`), from the resource's root.
    pub path: Path,
    pub value: &'a Value,
    pub shapes: Shapes,
}

impl<'a> PodTemplateRef<'a> {
    pub fn containers(&self) -> impl Iterator<Item = (Path, &'a Value)> + '_ {
        let base = self.path.key("spec").key("containers");
        self.value
            .pointer("/spec/containers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(move |(i, c)| (base.index(i), c))
    }
    /// `flink-main-container`, the container Flink builds the main one from.
    pub fn main_container(&self) -> Option<(Path, &'a Value)> {
        self.containers()
            .find(|(_, c)| container_name(c) == Some(MAIN_CONTAINER))
    }
}

pub fn container_name(c: &Value) -> Option<&str> {
    c.get("name").and_then(Value::as_str)
}

/// One resource to check.
#[derive(Debug)]
pub struct Manifest<'a> {
    pub kind: Kind,
    /// `FlinkDeployment`, `Pod`, `PodTemplate`, ...
    pub kind_name: String,
    pub value: &'a Value,
    pub doc: &'a Doc,
    /// The file as the user named it.
    pub file: &'a str,
    /// Where the object is inside its document: empty, or `items[3]` in a `kind: List`.
    pub base: Path,
    pub name: String,
    pub namespace: Option<String>,
    /// Flink options (`spec.flinkConfiguration`, Lyft's `spec.flinkConfig`), flattened.
    pub config: FlinkConfig,
}

impl<'a> Manifest<'a> {
    pub fn new(kind: Kind, value: &'a Value, doc: &'a Doc, file: &'a str, base: Path) -> Self {
        let name = value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .unwrap_or("(unnamed)")
            .to_string();
        let namespace = value
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .map(str::to_string);
        let config = FlinkConfig::from_value(value.pointer(config_pointer(kind)));
        Manifest {
            kind,
            kind_name: value
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            value,
            doc,
            file,
            base,
            name,
            namespace,
            config,
        }
    }

    pub fn object(&self) -> ObjectRef {
        ObjectRef::new(&self.kind_name, self.namespace.as_deref(), &self.name)
    }

    /// `-n NS` for the commands in fixes and verifications (empty when the manifest has none).
    pub fn ns_flag(&self) -> String {
        self.namespace
            .as_deref()
            .map(|n| format!(" -n {}", crate::shell::sh(n)))
            .unwrap_or_default()
    }

    pub fn get(&self, path: &str) -> Option<&'a Value> {
        let mut cur = self.value;
        for seg in Path::parse(path).0 {
            cur = match seg {
                super::locate::Seg::Key(k) => cur.get(k.as_str())?,
                super::locate::Seg::Index(i) => cur.get(i)?,
            };
        }
        (!cur.is_null()).then_some(cur)
    }

    pub fn str_at(&self, path: &str) -> Option<&'a str> {
        self.get(path).and_then(Value::as_str)
    }

    /// Where Flink options live for this kind.
    pub fn config_path(&self) -> Path {
        Path::parse(&config_pointer(self.kind)[1..].replace('/', "."))
    }

    /// The file line of a field (or of its deepest written ancestor).
    pub fn line(&self, path: &Path) -> usize {
        self.doc
            .file_line(self.doc.locator().line(&self.base.join(path)))
    }

    /// The file line of a Flink option.
    pub fn config_line(&self, key: &str) -> usize {
        self.doc.file_line(
            self.doc
                .locator()
                .config_line(&self.base.join(&self.config_path()), key),
        )
    }

    /// Whether a field is written in the text (not only implied).
    pub fn written(&self, path: &Path) -> bool {
        self.doc.locator().exists(&self.base.join(path))
    }

    /// The pod templates of this resource, in merge order (shared first, then per component).
    pub fn templates(&self) -> Vec<PodTemplateRef<'a>> {
        let mut out = Vec::new();
        let mut add = |path: &str, shapes| {
            if let Some(v) = self.get(path).filter(|v| v.is_object()) {
                out.push(PodTemplateRef {
                    path: Path::parse(path),
                    value: v,
                    shapes,
                });
            }
        };
        match self.kind {
            Kind::FlinkDeployment => {
                add("spec.podTemplate", Shapes::Both);
                add(
                    "spec.jobManager.podTemplate",
                    Shapes::One(Component::JobManager),
                );
                add(
                    "spec.taskManager.podTemplate",
                    Shapes::One(Component::TaskManager),
                );
            }
            Kind::PodTemplateFile => {
                if self.kind_name == "PodTemplate" {
                    add("template", Shapes::Both);
                } else {
                    out.push(PodTemplateRef {
                        path: Path::root(),
                        value: self.value,
                        shapes: Shapes::Both,
                    });
                }
            }
            Kind::FlinkSessionJob | Kind::FlinkApplication | Kind::FlinkCluster => {}
        }
        out
    }

    /// The templates that shape one component (`spec.podTemplate` and the component's own).
    pub fn templates_for(&self, c: Component) -> Vec<PodTemplateRef<'a>> {
        self.templates()
            .into_iter()
            .filter(|t| t.shapes.applies_to(c))
            .collect()
    }
}

fn config_pointer(kind: Kind) -> &'static str {
    match kind {
        Kind::FlinkApplication => "/spec/flinkConfig",
        Kind::FlinkCluster => "/spec/flinkProperties",
        _ => "/spec/flinkConfiguration",
    }
}

/// A compact one-line rendering of a value for evidence (`[sh, -c, echo hi]`, `2048`).
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}
