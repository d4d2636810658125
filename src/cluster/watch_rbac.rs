//! What `watch` asks of the API server, listed once: the ClusterRole of `deploy/` and of the Helm
//! chart (`charts/kubectl-flink`) grant exactly this, and `tests/watch_deploy.rs` checks that
//! they agree with it.
//!
//! It is what doctor's gather reads: the first wave (`cluster::gather`), the installation
//! (`cluster::install`: the operator's Deployments and pods wherever they run, its webhooks and
//! CRDs, its Service, EndpointSlices, ConfigMap, events, cert-manager objects and webhook
//! certificate Secret by name), the other modes (`cluster::modes`), the ResourceQuotas a refusal
//! names, container logs, and the authorizer's answers about refusals the logs show
//! (`cluster::access`: a SubjectAccessReview is a question, stored nowhere). Nothing is written:
//! `create events` ([`POST_EVENTS`]) is granted only with `--post-events`
//! (`postEvents: true` in the chart).
//!
//! The watch watches all it reads (`cluster::watch`, `cluster::reader`), so `watch` stands beside
//! `list`, and beside `get` where it reads by name (a watch with the field selector
//! `metadata.name`); but Secrets, which it only gets by name.

use crate::flink::permissions::Permission;

const READ: &[&str] = &["get", "list", "watch"];
const LIST_WATCH: &[&str] = &["list", "watch"];
const GET: &[&str] = &["get"];

/// Every right the watch uses, by API group and resource.
pub const CLUSTER_ROLE: &[Permission] = &[
    Permission {
        group: "flink.apache.org",
        resource: "flinkdeployments",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinksessionjobs",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "flink.apache.org",
        resource: "flinkstatesnapshots",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "",
        resource: "pods",
        verbs: READ,
        why: "the first wave (JobManager and TaskManager pods), watched; the operator's and other modes' pods, listed",
    },
    Permission {
        group: "",
        resource: "pods/log",
        verbs: GET,
        why: "the logs of failing containers and of the operator",
    },
    Permission {
        group: "apps",
        resource: "deployments",
        verbs: READ,
        why: "the JobManager Deployments, watched; the operator's, listed",
    },
    Permission {
        group: "apps",
        resource: "statefulsets",
        verbs: LIST_WATCH,
        why: "a FlinkCluster's JobManager and TaskManagers, watched",
    },
    Permission {
        group: "batch",
        resource: "jobs",
        verbs: LIST_WATCH,
        why: "a FlinkCluster's job submitter, watched",
    },
    Permission {
        group: "",
        resource: "events",
        verbs: READ,
        why: "the first wave, watched; the operator's namespace's",
    },
    Permission {
        group: "",
        resource: "serviceaccounts",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "rbac.authorization.k8s.io",
        resource: "roles",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "rbac.authorization.k8s.io",
        resource: "rolebindings",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "rbac.authorization.k8s.io",
        resource: "clusterroles",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "rbac.authorization.k8s.io",
        resource: "clusterrolebindings",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "",
        resource: "resourcequotas",
        verbs: READ,
        why: "the first wave, watched; one a refusal names, by name",
    },
    Permission {
        group: "",
        resource: "limitranges",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "",
        resource: "namespaces",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "",
        resource: "nodes",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "scheduling.k8s.io",
        resource: "priorityclasses",
        verbs: READ,
        why: "the first wave, watched",
    },
    Permission {
        group: "",
        resource: "services",
        verbs: READ,
        why: "Flink's and the operator's webhook Service, watched (the webhook's by name: a watch with metadata.name)",
    },
    Permission {
        group: "",
        resource: "configmaps",
        verbs: READ,
        why: "Flink's configuration and the operator's, watched (the operator's by name: a watch with metadata.name)",
    },
    Permission {
        group: "",
        resource: "secrets",
        verbs: GET,
        why: "the operator's webhook certificate, by name (only tls.crt and ca.crt are kept): not watched (a list or watch would be every Secret), read again at most once a minute",
    },
    Permission {
        group: "discovery.k8s.io",
        resource: "endpointslices",
        verbs: LIST_WATCH,
        why: "whether the operator's webhook Service has endpoints, watched",
    },
    Permission {
        group: "apiextensions.k8s.io",
        resource: "customresourcedefinitions",
        verbs: READ,
        why: "the Flink operators' CRDs, by name: each watched with metadata.name",
    },
    Permission {
        group: "admissionregistration.k8s.io",
        resource: "validatingwebhookconfigurations",
        verbs: LIST_WATCH,
        why: "the operator's webhooks, watched",
    },
    Permission {
        group: "admissionregistration.k8s.io",
        resource: "mutatingwebhookconfigurations",
        verbs: LIST_WATCH,
        why: "the operator's webhooks, watched",
    },
    Permission {
        group: "cert-manager.io",
        resource: "certificates",
        verbs: LIST_WATCH,
        why: "the operator's webhook certificate, watched",
    },
    Permission {
        group: "cert-manager.io",
        resource: "issuers",
        verbs: LIST_WATCH,
        why: "the operator's webhook certificate, watched",
    },
    Permission {
        group: "flink.k8s.io",
        resource: "flinkapplications",
        verbs: LIST_WATCH,
        why: "Lyft's FlinkApplications, watched",
    },
    Permission {
        group: "flinkoperator.k8s.io",
        resource: "flinkclusters",
        verbs: LIST_WATCH,
        why: "the GCP/Spotify operator's FlinkClusters, watched",
    },
    Permission {
        group: "authorization.k8s.io",
        resource: "subjectaccessreviews",
        verbs: &["create"],
        why: "asks the authorizer about every refusal the logs show (a question, stored nowhere)",
    },
];

/// The one write, opt-in (`--post-events`): an Event on a Flink resource when a root cause
/// appears or clears.
pub const POST_EVENTS: Permission = Permission {
    group: "",
    resource: "events",
    verbs: &["create"],
    why: "posts an Event on a Flink resource when a root cause appears or clears (--post-events)",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flink::kinds::LISTED;

    fn grants(group: &str, resource: &str, verb: &str) -> bool {
        CLUSTER_ROLE
            .iter()
            .any(|p| p.group == group && p.resource == resource && p.verbs.contains(&verb))
    }

    #[test]
    fn every_kind_of_the_first_wave_is_listed_and_watched() {
        for l in LISTED {
            for verb in ["list", "watch"] {
                assert!(
                    grants(l.kind.group, l.kind.plural, verb),
                    "{verb} {}",
                    l.kind.plural
                );
            }
            for also in l.also {
                for verb in also.verbs {
                    assert!(grants(also.group, also.resource, verb), "{also:?}");
                }
            }
        }
    }

    #[test]
    fn what_doctor_says_it_needs_is_granted() {
        for p in crate::flink::permissions::ME {
            for verb in p.verbs {
                assert!(grants(p.group, p.resource, verb), "{verb} {}", p.resource);
            }
        }
    }

    #[test]
    fn nothing_is_written_and_each_resource_is_listed_once() {
        let mut seen = std::collections::BTreeSet::new();
        for p in CLUSTER_ROLE {
            assert!(seen.insert((p.group, p.resource)), "{} twice", p.resource);
            for verb in p.verbs {
                let question = p.resource == "subjectaccessreviews" && *verb == "create";
                assert!(
                    ["get", "list", "watch"].contains(verb) || question,
                    "{verb} {}",
                    p.resource
                );
            }
        }
    }
}
