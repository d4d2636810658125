//! Where the objects of each kind live in a [`Snapshot`]: one row per field, the one description
//! that the bundle reader (which field an object goes to), the bundle writer (its file), the live
//! gather (the field a listed kind fills) and doctor's summary line (`-v`) all follow. The kind
//! itself (group, version, plural, scope) is `flink::kinds`.
//!
//! Adding a kind: its `flink::kinds` constant (and a `LISTED` entry when doctor lists it in its
//! first wave), its `Snapshot` field and one row here; the tests below then ask for the row of
//! every `Vec` field and for the kind's name in the README's `Kinds read:`.

use super::bundle::{public_only, strip_secret};
use super::Snapshot;
use crate::flink::kinds::{self, Kind};
use crate::flink::names;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// A field that does not fit its kind, with the path to it (`spec.job.parallelism`).
pub type FieldError = serde_path_to_error::Error<serde_json::Error>;

/// Which objects of its kinds a field takes, when a bundle is read.
#[derive(Clone, Copy)]
pub enum Takes {
    /// Every object of the kind that an earlier row did not take.
    All,
    /// Only those this says yes to (the operator's pods; a FlinkCluster's StatefulSets); the
    /// others of the kind go to a later row, or are left out.
    When(fn(&Value) -> bool),
    /// None directly: they are sorted into it from another field once the bundle is read
    /// (`bundle::classify_operator`).
    Sorted,
}

/// One field of the snapshot that holds Kubernetes objects.
pub struct Field {
    /// The `Snapshot` field.
    pub name: &'static str,
    /// The kinds it holds: one, or cert-manager's three (untyped).
    pub kinds: &'static [Kind],
    /// A saved bundle keeps them in `<file>.yaml`.
    pub file: &'static str,
    /// How `doctor -v` counts them.
    pub noun: &'static str,
    pub takes: Takes,
    /// Whether the live gather reads every object of the kind in scope, so that a saved empty
    /// list is evidence that there were none; otherwise (objects read by name, only when
    /// something names them) nothing is written when there are none.
    pub whole: bool,
    /// Part of the operator's installation: a bundle that holds any of it speaks about the
    /// installation (`bundle::holds_installation`).
    pub installation: bool,
    add: fn(&mut Snapshot, Value) -> Result<(), FieldError>,
    add_list: fn(&mut Snapshot, &Kind, &str) -> Result<ListMeta, serde_json::Error>,
    items: fn(&Snapshot) -> Vec<Value>,
    len: fn(&Snapshot) -> usize,
    append: fn(&mut Snapshot, &mut Snapshot),
    swap_remove: fn(&mut Snapshot, usize),
}

impl Field {
    /// Decodes one object of the field's kind into it.
    pub fn add(&self, s: &mut Snapshot, v: Value) -> Result<(), FieldError> {
        (self.add)(s, v)
    }
    /// Decodes a page of a list of `kind` as the API server sends it (JSON text, its items
    /// without `apiVersion` and `kind`) straight into the field, with no `Value` between, and
    /// returns the page's `metadata` (`continue`). All or nothing: when one item does not fit, none
    /// is added (the caller then adds them one by one with [`Field::add`], a gap for each misfit).
    pub fn add_list(
        &self,
        s: &mut Snapshot,
        kind: &Kind,
        json: &str,
    ) -> Result<ListMeta, serde_json::Error> {
        (self.add_list)(s, kind, json)
    }
    /// Its objects as a saved bundle writes them: with `apiVersion` and `kind`, Secrets as
    /// metadata only, secret-looking configuration values masked.
    pub fn items(&self, s: &Snapshot) -> Vec<Value> {
        (self.items)(s)
    }
    pub fn len(&self, s: &Snapshot) -> usize {
        (self.len)(s)
    }
    /// Moves the field's objects of `from` to the end of `into`'s.
    pub fn append(&self, into: &mut Snapshot, from: &mut Snapshot) {
        (self.append)(into, from)
    }
    /// Removes the field's object at `index`, the last one taking its place (`Vec::swap_remove`):
    /// `watch` keeps each kind's objects in place as they change.
    pub fn swap_remove(&self, s: &mut Snapshot, index: usize) {
        (self.swap_remove)(s, index)
    }
    pub fn is_empty(&self, s: &Snapshot) -> bool {
        self.len(s) == 0
    }
    /// Whether an object of this kind and API group belongs in this field's kinds.
    pub fn holds(&self, kind: &str, group: &str) -> bool {
        self.kinds
            .iter()
            .any(|k| k.kind == kind && k.group == group)
    }
}

/// Deserialized with the path of the field that does not fit (`spec.job.parallelism`).
fn de<T: DeserializeOwned>(v: Value) -> Result<T, FieldError> {
    serde_path_to_error::deserialize(v)
}

/// A page of a list as the API server sends it.
#[derive(Deserialize)]
struct Page<T> {
    #[serde(default)]
    metadata: ListMeta,
    items: Option<Vec<T>>,
}

/// A page of a list, decoded.
fn page<T: DeserializeOwned>(json: &str) -> Result<(ListMeta, Vec<T>), serde_json::Error> {
    // A page's pods share the text they repeat (`text`).
    let _interning = super::text::interning();
    let p: Page<T> = serde_json::from_str(json)?;
    Ok((p.metadata, p.items.unwrap_or_default()))
}

/// A row for a typed field (`Vec<T>` of one kind).
macro_rules! typed {
    ($field:ident, $kind:expr, $file:literal, $noun:literal) => {
        typed!($field, $kind, $file, $noun, Takes::All)
    };
    ($field:ident, $kind:expr, $file:literal, $noun:literal, $takes:expr) => {
        Field {
            name: stringify!($field),
            kinds: &[$kind],
            file: $file,
            noun: $noun,
            takes: $takes,
            whole: true,
            installation: false,
            add: |s, v| {
                s.$field.push(de(v)?);
                Ok(())
            },
            add_list: |s, _, json| {
                let (meta, mut items) = page(json)?;
                s.$field.append(&mut items);
                Ok(meta)
            },
            items: |s| super::bundle::with_kind(&s.$field, $kind.api_version, $kind.kind),
            len: |s| s.$field.len(),
            append: |into, from| into.$field.append(&mut from.$field),
            swap_remove: |s, i| {
                s.$field.swap_remove(i);
            },
        }
    };
}

/// Every field of the snapshot that holds objects, in the order a bundle's objects are offered to
/// them (the first that takes an object keeps it).
pub static FIELDS: &[Field] = &[
    typed!(
        flink_deployments,
        kinds::FLINK_DEPLOYMENT,
        "flinkdeployments",
        "FlinkDeployments"
    ),
    typed!(
        flink_session_jobs,
        kinds::FLINK_SESSION_JOB,
        "flinksessionjobs",
        "FlinkSessionJobs"
    ),
    typed!(
        flink_state_snapshots,
        kinds::FLINK_STATE_SNAPSHOT,
        "flinkstatesnapshots",
        "FlinkStateSnapshots"
    ),
    typed!(
        flink_applications,
        kinds::FLINK_APPLICATION,
        "flinkapplications",
        "FlinkApplications"
    ),
    typed!(
        flink_clusters,
        kinds::FLINK_CLUSTER,
        "flinkclusters",
        "FlinkClusters"
    ),
    typed!(
        stateful_sets,
        kinds::STATEFUL_SET,
        "statefulsets",
        "StatefulSets",
        Takes::When(is_flinkcluster_object)
    ),
    typed!(
        jobs,
        kinds::JOB,
        "jobs",
        "Jobs",
        Takes::When(is_flinkcluster_object)
    ),
    Field {
        installation: true,
        ..typed!(crds, kinds::CRD, "customresourcedefinitions", "CRDs")
    },
    Field {
        installation: true,
        ..typed!(
            validating_webhooks,
            kinds::VALIDATING_WEBHOOK,
            "validatingwebhookconfigurations",
            "ValidatingWebhookConfigurations"
        )
    },
    Field {
        installation: true,
        ..typed!(
            mutating_webhooks,
            kinds::MUTATING_WEBHOOK,
            "mutatingwebhookconfigurations",
            "MutatingWebhookConfigurations"
        )
    },
    typed!(
        endpoint_slices,
        kinds::ENDPOINT_SLICE,
        "endpointslices",
        "EndpointSlices"
    ),
    typed!(endpoints, kinds::ENDPOINTS, "endpoints", "Endpoints"),
    // cert-manager's objects, untyped, in one file of mixed kinds.
    Field {
        name: "cert_manager_objects",
        kinds: &[kinds::CERTIFICATE, kinds::ISSUER, kinds::CLUSTER_ISSUER],
        file: "cert-manager",
        noun: "cert-manager objects",
        takes: Takes::All,
        whole: false,
        installation: true,
        add: |s, v| {
            s.cert_manager_objects.push(v);
            Ok(())
        },
        add_list: |s, kind, json| {
            let (meta, items) = page::<Value>(json)?;
            s.cert_manager_objects
                .extend(items.into_iter().map(|mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.insert("apiVersion".into(), kind.api_version.into());
                        o.insert("kind".into(), kind.kind.into());
                    }
                    v
                }));
            Ok(meta)
        },
        items: |s| s.cert_manager_objects.clone(),
        len: |s| s.cert_manager_objects.len(),
        append: |into, from| {
            into.cert_manager_objects
                .append(&mut from.cert_manager_objects)
        },
        swap_remove: |s, i| {
            s.cert_manager_objects.swap_remove(i);
        },
    },
    Field {
        takes: Takes::Sorted,
        installation: true,
        ..typed!(
            operator_deployments,
            kinds::DEPLOYMENT,
            "operator-deployments",
            "operator Deployments"
        )
    },
    // The operator's few pods whole (the installation rules read their volumes and environment);
    // every other pod slim (`snapshot::Pod`).
    Field {
        installation: true,
        ..typed!(
            operator_pods,
            kinds::POD,
            "operator-pods",
            "operator pods",
            Takes::When(is_operator_value)
        )
    },
    Field {
        takes: Takes::Sorted,
        installation: true,
        ..typed!(
            operator_config_maps,
            kinds::CONFIG_MAP,
            "operator-configmaps",
            "operator ConfigMaps"
        )
    },
    typed!(
        namespaces_objects,
        kinds::NAMESPACE,
        "namespaces",
        "Namespaces"
    ),
    typed!(
        service_accounts,
        kinds::SERVICE_ACCOUNT,
        "serviceaccounts",
        "ServiceAccounts"
    ),
    typed!(roles, kinds::ROLE, "roles", "Roles"),
    typed!(
        role_bindings,
        kinds::ROLE_BINDING,
        "rolebindings",
        "RoleBindings"
    ),
    typed!(
        cluster_roles,
        kinds::CLUSTER_ROLE,
        "clusterroles",
        "ClusterRoles"
    ),
    typed!(
        cluster_role_bindings,
        kinds::CLUSTER_ROLE_BINDING,
        "clusterrolebindings",
        "ClusterRoleBindings"
    ),
    typed!(deployments, kinds::DEPLOYMENT, "deployments", "Deployments"),
    typed!(services, kinds::SERVICE, "services", "Services"),
    typed!(config_maps, kinds::CONFIG_MAP, "configmaps", "ConfigMaps"),
    // Public certificates only, the moment they are read; metadata only when saved.
    Field {
        name: "secrets",
        kinds: &[kinds::SECRET],
        file: "secrets",
        noun: "Secrets",
        takes: Takes::All,
        whole: true,
        installation: false,
        add: |s, v| {
            s.secrets.push(public_only(de(v)?));
            Ok(())
        },
        add_list: |s, _, json| {
            let (meta, items) = page(json)?;
            s.secrets.extend(items.into_iter().map(public_only));
            Ok(meta)
        },
        items: |s| {
            let secrets: Vec<_> = s.secrets.iter().cloned().map(strip_secret).collect();
            super::bundle::with_kind(&secrets, kinds::SECRET.api_version, kinds::SECRET.kind)
        },
        len: |s| s.secrets.len(),
        append: |into, from| into.secrets.append(&mut from.secrets),
        swap_remove: |s, i| {
            s.secrets.swap_remove(i);
        },
    },
    typed!(pods, kinds::POD, "pods", "pods"),
    typed!(events, kinds::EVENT, "events", "events"),
    typed!(
        resource_quotas,
        kinds::RESOURCE_QUOTA,
        "resourcequotas",
        "ResourceQuotas"
    ),
    typed!(
        limit_ranges,
        kinds::LIMIT_RANGE,
        "limitranges",
        "LimitRanges"
    ),
    // Slim the moment they are read: a node's `status.images` alone is often larger than
    // everything else the diagnosis keeps of it.
    Field {
        name: "nodes",
        kinds: &[kinds::NODE],
        file: "nodes",
        noun: "nodes",
        takes: Takes::All,
        whole: true,
        installation: false,
        add: |s, v| {
            s.nodes.push(slim_node(de(v)?));
            Ok(())
        },
        add_list: |s, _, json| {
            let (meta, items) = page(json)?;
            s.nodes.extend(items.into_iter().map(slim_node));
            Ok(meta)
        },
        items: |s| super::bundle::with_kind(&s.nodes, kinds::NODE.api_version, kinds::NODE.kind),
        len: |s| s.nodes.len(),
        append: |into, from| into.nodes.append(&mut from.nodes),
        swap_remove: |s, i| {
            s.nodes.swap_remove(i);
        },
    },
    typed!(
        priority_classes,
        kinds::PRIORITY_CLASS,
        "priorityclasses",
        "PriorityClasses"
    ),
];

/// A Node as the diagnosis keeps it: its metadata (without `managedFields` and the
/// last-applied annotation), `spec.taints` and `spec.unschedulable`, `status.allocatable`,
/// `status.capacity` and `status.conditions`; nothing else (not `status.images`).
pub fn slim_node(n: k8s_openapi::api::core::v1::Node) -> k8s_openapi::api::core::v1::Node {
    use k8s_openapi::api::core::v1::{Node, NodeSpec, NodeStatus};
    let mut metadata = n.metadata;
    metadata.managed_fields = None;
    if let Some(a) = metadata.annotations.as_mut() {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    Node {
        metadata,
        spec: n.spec.map(|s| NodeSpec {
            taints: s.taints,
            unschedulable: s.unschedulable,
            ..NodeSpec::default()
        }),
        status: n.status.map(|s| NodeStatus {
            allocatable: s.allocatable,
            capacity: s.capacity,
            conditions: s.conditions,
            ..NodeStatus::default()
        }),
    }
}

/// The field the live gather fills with the objects it lists of `kind`: the one that takes every
/// object of it.
pub fn listed_into(kind: &Kind) -> Option<&'static Field> {
    FIELDS
        .iter()
        .find(|f| matches!(f.takes, Takes::All) && f.kinds == [*kind])
}

/// `doctor -v`'s count of what was read: every field, in the table's order.
pub fn summary(s: &Snapshot) -> String {
    FIELDS
        .iter()
        .map(|f| format!("{} {}", f.len(s), f.noun))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An object (as read, before it is decoded) that is an operator's own, by its labels or its
/// containers' images (`flink::identity`).
pub fn is_operator_value(v: &Value) -> bool {
    crate::flink::identity::value_is_operator(v)
}

/// `app=flink` and a `cluster` label: what the FlinkCluster operator puts on every object it makes
/// (its job submitter's pods have no `component`).
pub fn is_flinkcluster_labels(app: Option<&str>, cluster: Option<&str>) -> bool {
    app == Some(names::FLINKCLUSTER_APP) && cluster.is_some_and(|c| !c.is_empty())
}

/// A StatefulSet or Job of a FlinkCluster (the only ones the diagnosis reads; others are ignored).
pub fn is_flinkcluster_object(v: &Value) -> bool {
    let labels = v.pointer("/metadata/labels").and_then(Value::as_object);
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    is_flinkcluster_labels(label(names::LABEL_APP), label(names::LABEL_CLUSTER))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Vec` fields `Snapshot` declares, read from its source: every one has a row.
    #[test]
    fn every_field_of_objects_has_a_row_and_no_row_is_twice() {
        let source = include_str!("mod.rs");
        let start = source.find("pub struct Snapshot {").unwrap();
        let body = &source[start..start + source[start..].find("\n}\n").unwrap()];
        let declared: Vec<&str> = body
            .lines()
            .filter_map(|l| l.trim().strip_prefix("pub "))
            .filter(|l| l.contains(": Vec<"))
            .filter_map(|l| l.split(':').next())
            .filter(|name| {
                ![
                    "namespaces",
                    "access_reviews",
                    "gaps",
                    "probable_operators",
                    "operator_namespaces_read",
                ]
                .contains(name)
            })
            .collect();
        let mut rows: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        let mut want = declared.clone();
        rows.sort();
        want.sort();
        assert_eq!(rows, want);
        let mut files: Vec<&str> = FIELDS.iter().map(|f| f.file).collect();
        files.sort();
        files.dedup();
        assert_eq!(files.len(), FIELDS.len());
    }

    #[test]
    fn the_readme_names_every_kind_a_bundle_may_hold() {
        let readme = include_str!("../../README.md");
        let start = readme.find("Kinds read: ").unwrap();
        let para = &readme[start..start + readme[start..].find("\n\n").unwrap()];
        let para = para.split_whitespace().collect::<Vec<_>>().join(" ");
        for k in FIELDS.iter().flat_map(|f| f.kinds) {
            let named = para
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == k.kind);
            assert!(named, "README's `Kinds read:` does not name {}", k.kind);
        }
    }

    #[test]
    fn every_kind_the_first_wave_lists_has_one_field_that_takes_it_all() {
        for l in kinds::LISTED {
            let all: Vec<_> = FIELDS
                .iter()
                .filter(|f| matches!(f.takes, Takes::All) && f.kinds == [l.kind])
                .collect();
            assert_eq!(all.len(), 1, "{:?}", l.kind);
            assert!(listed_into(&l.kind).is_some());
        }
    }

    #[test]
    fn a_kind_taken_by_a_condition_comes_before_the_row_that_takes_the_rest() {
        for (i, f) in FIELDS.iter().enumerate() {
            if let Takes::All = f.takes {
                for later in &FIELDS[i + 1..] {
                    assert!(
                        !f.kinds.iter().any(|k| later.holds(k.kind, k.group))
                            || matches!(later.takes, Takes::Sorted),
                        "{} would never take anything: {} takes it all first",
                        later.name,
                        f.name
                    );
                }
            }
        }
    }

    #[test]
    fn a_page_of_a_list_goes_straight_into_its_row_as_add_would_put_each_item() {
        let row = |name: &str| FIELDS.iter().find(|f| f.name == name).unwrap();
        let mut s = Snapshot::default();
        // Secrets keep public certificates only, read by the page as by the item.
        let secrets = r#"{"metadata": {}, "items": [{"metadata": {"name": "tls", "namespace": "a"},
            "data": {"tls.crt": "Y2VydA==", "tls.key": "a2V5"}, "stringData": {"p": "w"}}]}"#;
        let meta = row("secrets")
            .add_list(&mut s, &kinds::SECRET, secrets)
            .unwrap();
        assert_eq!(meta.continue_, None);
        let data = s.secrets[0].data.as_ref().unwrap();
        assert_eq!(data.keys().collect::<Vec<_>>(), ["tls.crt"]);
        assert!(s.secrets[0].string_data.is_none());
        // Untyped objects get the kind the page lists; an empty or null list adds nothing.
        let issuers = r#"{"metadata": {"continue": "x"}, "items": [{"metadata": {"name": "ca"}}]}"#;
        let meta = row("cert_manager_objects")
            .add_list(&mut s, &kinds::ISSUER, issuers)
            .unwrap();
        assert_eq!(meta.continue_.as_deref(), Some("x"));
        assert_eq!(s.cert_manager_objects[0]["kind"], "Issuer");
        assert_eq!(
            s.cert_manager_objects[0]["apiVersion"],
            kinds::ISSUER.api_version
        );
        let pods = row("pods");
        for empty in [r#"{"metadata": {}, "items": null}"#, r#"{"items": []}"#] {
            pods.add_list(&mut s, &kinds::POD, empty).unwrap();
        }
        assert!(s.pods.is_empty());
        // A slim pod without its managedFields.
        let page =
            r#"{"items": [{"metadata": {"name": "p", "managedFields": [{"manager": "k"}]}}]}"#;
        pods.add_list(&mut s, &kinds::POD, page).unwrap();
        assert_eq!(s.pods[0].metadata.name.as_deref(), Some("p"));
        let written = serde_json::to_string(&s.pods[0]).unwrap();
        assert!(!written.contains("managedFields"), "{written}");
    }

    #[test]
    fn a_row_adds_to_its_own_field_and_counts_it() {
        let mut s = Snapshot::default();
        let quota = serde_json::json!({"apiVersion": "v1", "kind": "ResourceQuota",
            "metadata": {"name": "q", "namespace": "a"}});
        let row = FIELDS.iter().find(|f| f.name == "resource_quotas").unwrap();
        row.add(&mut s, quota).unwrap();
        assert_eq!(s.resource_quotas.len(), 1);
        assert_eq!(row.len(&s), 1);
        assert_eq!(row.items(&s)[0]["kind"], "ResourceQuota");
        assert!(summary(&s).contains("1 ResourceQuotas"));
    }
}
