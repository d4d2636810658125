//! Access decisions: may this subject do that? Asked of the API server's authorizer where the
//! caller's rights allow, otherwise computed from the RBAC objects. One engine for `can-i` and for
//! `doctor`'s confirmation of the 403s in Flink's logs.
//!
//! For each subject the methods are tried in this order, and every decision says which answered:
//! 1. impersonation + SelfSubjectAccessReview, when the caller may impersonate the subject (asked
//!    first with a SelfSubjectAccessReview for `impersonate` on the ServiceAccount, user and groups)
//!    - the authorizer's own answer, all authorizers included, exactly as `kubectl auth can-i --as`;
//! 2. SubjectAccessReview, when the caller may create one (asked first, likewise);
//! 3. the Roles, ClusterRoles and bindings read from the cluster (or handed in, e.g. a snapshot's),
//!    evaluated by `crate::flink::rbac`: "from RBAC objects, not authoritative" (other authorizers,
//!    such as webhooks, are not seen). When some of them cannot be read, a grant found is still a
//!    grant, but "not found" becomes unknown.
//!
//! A request that fails with an API error falls through to the next method; only an unreachable
//! API server is an error (`Error::Incomplete`, exit 3).

use crate::error::Error;
use crate::flink::access::{Decision, Method, Question, Subject};
use crate::flink::rbac::{Attributes, Policy, UserInfo};
use crate::flink::rbac_fix::{Known, MANAGED_BY};
use crate::signatures;
use crate::snapshot::{AccessReview, Gap, GapReason, Snapshot};
use futures::stream::{self, StreamExt};
use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec, SubjectAccessReview,
    SubjectAccessReviewSpec, SubjectAccessReviewStatus,
};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use kube::api::{Api, ListParams, PostParams};
use kube::Client;
use std::collections::BTreeMap;
use std::fmt;

mod refusals;
mod review;

pub use refusals::{refusal_questions, review_refusals};
use review::{may_impersonate, probe, self_review, status_decision, subject_review};

/// How many access reviews are in flight at once.
const CONCURRENCY: usize = 8;

/// Roles, ClusterRoles and bindings to decide from, and what could not be read.
#[derive(Debug, Clone, Default)]
pub struct RbacObjects {
    pub roles: Vec<Role>,
    pub role_bindings: Vec<RoleBinding>,
    pub cluster_roles: Vec<ClusterRole>,
    pub cluster_role_bindings: Vec<ClusterRoleBinding>,
    /// Reads that failed ("list rolebindings in namespace prod: forbidden"); a denial is then
    /// only "not found in what could be read".
    pub unreadable: Vec<String>,
}

impl RbacObjects {
    /// A snapshot's RBAC objects (doctor has read them already).
    pub fn from_snapshot(s: &Snapshot) -> Self {
        RbacObjects {
            roles: s.roles.clone(),
            role_bindings: s.role_bindings.clone(),
            cluster_roles: s.cluster_roles.clone(),
            cluster_role_bindings: s.cluster_role_bindings.clone(),
            unreadable: if s.rbac_complete {
                Vec::new()
            } else {
                vec!["the snapshot's RBAC objects are incomplete".to_string()]
            },
        }
    }
}

/// Decides every question, each by the first method that can answer it. `Err` only when the API
/// server cannot be reached.
pub async fn decide(client: &Client, questions: &[Question]) -> Result<Vec<Decision>, Error> {
    decide_with(client, questions, None).await
}

/// [`decide`], with RBAC objects already read for the last method (else they are read when needed).
pub async fn decide_with(
    client: &Client,
    questions: &[Question],
    objects: Option<&RbacObjects>,
) -> Result<Vec<Decision>, Error> {
    let mut out: Vec<Option<Decision>> = vec![None; questions.len()];
    let mut by_subject: BTreeMap<&Subject, Vec<usize>> = BTreeMap::new();
    for (i, q) in questions.iter().enumerate() {
        by_subject.entry(&q.subject).or_default().push(i);
    }
    let mut may_create_sar: Option<bool> = None;
    let mut read_objects: Option<RbacObjects> = None;
    for (subject, idxs) in by_subject {
        // Errors of the methods tried, per question, for the reason of an undecided one.
        let mut notes: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut pending = idxs.clone();
        let user = subject.user_info();

        let methods: Vec<Method> = match (subject, &user) {
            (Subject::Caller, _) => vec![Method::SelfSubjectAccessReview],
            (_, Some(u)) => {
                let mut m = Vec::new();
                if may_impersonate(client, subject, u).await? {
                    m.push(Method::Impersonation);
                }
                if may_create_sar.is_none() {
                    may_create_sar = Some(
                        probe(
                            client,
                            &cluster_attrs(
                                "create",
                                "authorization.k8s.io",
                                "subjectaccessreviews",
                                "",
                            ),
                        )
                        .await?,
                    );
                }
                if may_create_sar == Some(true) {
                    m.push(Method::SubjectAccessReview);
                }
                m.push(Method::RbacObjects);
                m
            }
            (_, None) => vec![Method::Undecided],
        };

        for method in methods {
            if pending.is_empty() {
                break;
            }
            if method == Method::RbacObjects {
                let Some(u) = &user else { break };
                let objs = objects_for(client, questions, objects, &mut read_objects).await?;
                let policy = Policy::new(
                    &objs.roles,
                    &objs.role_bindings,
                    &objs.cluster_roles,
                    &objs.cluster_role_bindings,
                );
                for &i in &pending {
                    let e = policy.evaluate(u, &questions[i].attrs);
                    let (allowed, reason) = if e.allowed {
                        (Some(true), e.reason)
                    } else if objs.unreadable.is_empty() {
                        (Some(false), e.reason)
                    } else {
                        (
                            None,
                            format!(
                                "not granted by the RBAC objects that could be read, but could not {}",
                                objs.unreadable.join(", ")
                            ),
                        )
                    };
                    out[i] = Some(Decision {
                        question: questions[i].clone(),
                        allowed,
                        method,
                        reason,
                    });
                }
                pending.clear();
                break;
            }
            let results: Vec<(usize, Result<SubjectAccessReviewStatus, kube::Error>)> =
                stream::iter(pending.clone())
                    .map(|i| {
                        let attrs = &questions[i].attrs;
                        let user = user.as_ref();
                        async move {
                            let r = match method {
                                Method::SelfSubjectAccessReview => {
                                    self_review(client, attrs, None).await
                                }
                                Method::Impersonation => {
                                    self_review(client, attrs, Some(subject)).await
                                }
                                Method::SubjectAccessReview => match user {
                                    Some(u) => subject_review(client, u, attrs).await,
                                    None => unreachable!(
                                        "only subjects with a user name get SubjectAccessReviews"
                                    ),
                                },
                                Method::RbacObjects | Method::Undecided => {
                                    unreachable!("not a review")
                                }
                            };
                            (i, r)
                        }
                    })
                    .buffer_unordered(CONCURRENCY)
                    .collect()
                    .await;
            let mut still = Vec::new();
            for (i, r) in results {
                match r {
                    Ok(status) => {
                        let (allowed, reason) = status_decision(&status);
                        out[i] = Some(Decision {
                            question: questions[i].clone(),
                            allowed,
                            method,
                            reason,
                        });
                    }
                    Err(kube::Error::Api(status)) => {
                        notes.entry(i).or_default().push(format!(
                            "{}: {} {}",
                            method.label(),
                            status.code,
                            crate::error::one_line(&status.message)
                        ));
                        still.push(i);
                    }
                    Err(e) => return Err(unreachable_error(e)),
                }
            }
            still.sort();
            pending = still;
        }
        for i in pending {
            let why = notes.remove(&i).unwrap_or_default();
            out[i] = Some(Decision {
                question: questions[i].clone(),
                allowed: None,
                method: Method::Undecided,
                reason: if why.is_empty() {
                    "no method could decide it".to_string()
                } else {
                    why.join("; ")
                },
            });
        }
        explain_denials(
            client,
            questions,
            &idxs,
            &mut out,
            subject,
            objects,
            &mut read_objects,
        )
        .await?;
    }
    Ok(out
        .into_iter()
        .map(|d| d.expect("every question decided"))
        .collect())
}

/// The RBAC objects for the last method and for explaining denials: the ones handed in, else read
/// once (Roles and RoleBindings of every namespace asked about).
async fn objects_for<'o>(
    client: &Client,
    questions: &[Question],
    provided: Option<&'o RbacObjects>,
    cache: &'o mut Option<RbacObjects>,
) -> Result<&'o RbacObjects, Error> {
    if let Some(o) = provided {
        return Ok(o);
    }
    if cache.is_none() {
        let mut namespaces: Vec<String> = questions
            .iter()
            .map(|q| q.attrs.namespace.clone())
            .filter(|n| !n.is_empty())
            .collect();
        namespaces.sort();
        namespaces.dedup();
        *cache = Some(read_rbac_objects(client, &namespaces).await?);
    }
    Ok(cache.as_ref().expect("read above"))
}

/// The authorizer says no but rarely why. Where the RBAC objects can be read, a denial gets what
/// came close (a rule without that verb, limited by resourceNames, missing the subresource, a
/// binding to a missing role), or, when the objects grant it though the authorizer does not, that
/// too (an aggregated ClusterRole whose rules the controller has not filled, for one).
async fn explain_denials(
    client: &Client,
    questions: &[Question],
    idxs: &[usize],
    out: &mut [Option<Decision>],
    subject: &Subject,
    provided: Option<&RbacObjects>,
    cache: &mut Option<RbacObjects>,
) -> Result<(), Error> {
    let denied: Vec<usize> = idxs
        .iter()
        .copied()
        .filter(|&i| {
            out[i]
                .as_ref()
                .is_some_and(|d| d.allowed == Some(false) && d.method.authoritative())
        })
        .collect();
    if denied.is_empty() {
        return Ok(());
    }
    let user = match subject.user_info() {
        Some(u) => u,
        None => match whoami(client).await? {
            Some(u) => u,
            None => return Ok(()),
        },
    };
    let objs = objects_for(client, questions, provided, cache).await?;
    let policy = Policy::new(
        &objs.roles,
        &objs.role_bindings,
        &objs.cluster_roles,
        &objs.cluster_role_bindings,
    );
    for i in denied {
        let e = policy.evaluate(&user, &questions[i].attrs);
        if let Some(d) = out[i].as_mut() {
            if e.allowed {
                d.reason = format!("{}; yet the RBAC objects grant it: {}", d.reason, e.reason);
            } else if !e.hints.is_empty() {
                d.reason = format!("{}; {}", d.reason, e.hints.join("; "));
            }
        }
    }
    Ok(())
}

/// What exists in a namespace that an RBAC fix must not trample: ServiceAccount names, and the
/// Roles and RoleBindings by name, each with whether kubectl-flink manages it. A list the caller
/// may not read (or that fails) is `None`: unknown, not empty.
pub async fn namespace_rbac(client: &Client, ns: &str) -> Known<'static> {
    use k8s_openapi::api::core::v1::ServiceAccount;
    let lp = ListParams::default();
    let ours = |m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
        m.labels
            .as_ref()
            .and_then(|l| l.get(MANAGED_BY.0))
            .is_some_and(|v| v == MANAGED_BY.1)
    };
    let service_accounts = Api::<ServiceAccount>::namespaced(client.clone(), ns)
        .list(&lp)
        .await
        .ok()
        .map(|l| {
            l.items
                .into_iter()
                .filter_map(|a| a.metadata.name)
                .collect()
        });
    let roles = Api::<Role>::namespaced(client.clone(), ns)
        .list(&lp)
        .await
        .ok()
        .map(|l| {
            l.items
                .iter()
                .filter_map(|r| Some((r.metadata.name.clone()?, ours(&r.metadata))))
                .collect()
        });
    let role_bindings = Api::<RoleBinding>::namespaced(client.clone(), ns)
        .list(&lp)
        .await
        .ok()
        .map(|l| {
            l.items
                .iter()
                .filter_map(|r| Some((r.metadata.name.clone()?, ours(&r.metadata))))
                .collect()
        });
    Known {
        service_accounts,
        roles,
        role_bindings,
        allows: None,
    }
}

/// Who the client authenticates as, from a SelfSubjectReview; `None` when the API server does not
/// say (refused, or too old).
pub async fn whoami(client: &Client) -> Result<Option<UserInfo>, Error> {
    let api: Api<SelfSubjectReview> = Api::all(client.clone());
    match api
        .create(&PostParams::default(), &SelfSubjectReview::default())
        .await
    {
        Ok(r) => Ok(user_of(r)),
        Err(kube::Error::Api(_)) => Ok(None),
        Err(e) => Err(unreachable_error(e)),
    }
}

fn user_of(r: SelfSubjectReview) -> Option<UserInfo> {
    let info = r.status?.user_info?;
    Some(UserInfo {
        name: info.username?,
        groups: info.groups.unwrap_or_default(),
    })
}

/// Reads the Roles and RoleBindings of `namespaces` and all ClusterRoles and ClusterRoleBindings.
/// Refused reads are recorded in `unreadable`.
pub async fn read_rbac_objects(
    client: &Client,
    namespaces: &[String],
) -> Result<RbacObjects, Error> {
    let mut o = RbacObjects::default();
    async fn all<K>(api: Api<K>) -> Result<Vec<K>, kube::Error>
    where
        K: kube::Resource + Clone + serde::de::DeserializeOwned + fmt::Debug,
    {
        super::list::paged(&api, ListParams::default()).await
    }
    fn keep<K>(
        r: Result<Vec<K>, kube::Error>,
        what: String,
        into: &mut Vec<K>,
        unreadable: &mut Vec<String>,
    ) -> Result<(), Error> {
        match r {
            Ok(v) => {
                into.extend(v);
                Ok(())
            }
            Err(kube::Error::Api(s)) => {
                unreadable.push(format!("{what} ({})", s.reason.to_lowercase()));
                Ok(())
            }
            Err(e) => Err(unreachable_error(e)),
        }
    }
    let (crs, crbs) = futures::join!(
        all(Api::<ClusterRole>::all(client.clone())),
        all(Api::<ClusterRoleBinding>::all(client.clone()))
    );
    keep(
        crs,
        "list clusterroles".into(),
        &mut o.cluster_roles,
        &mut o.unreadable,
    )?;
    keep(
        crbs,
        "list clusterrolebindings".into(),
        &mut o.cluster_role_bindings,
        &mut o.unreadable,
    )?;
    for ns in namespaces {
        let (roles, rbs) = futures::join!(
            all(Api::<Role>::namespaced(client.clone(), ns)),
            all(Api::<RoleBinding>::namespaced(client.clone(), ns))
        );
        keep(
            roles,
            format!("list roles in namespace {ns}"),
            &mut o.roles,
            &mut o.unreadable,
        )?;
        keep(
            rbs,
            format!("list rolebindings in namespace {ns}"),
            &mut o.role_bindings,
            &mut o.unreadable,
        )?;
    }
    Ok(o)
}

fn unreachable_error(e: kube::Error) -> Error {
    crate::error::cluster(&e)
}

fn cluster_attrs(verb: &str, group: &str, resource: &str, name: &str) -> Attributes {
    Attributes {
        verb: verb.into(),
        group: group.into(),
        resource: resource.into(),
        name: name.into(),
        ..Attributes::default()
    }
}

#[cfg(test)]
mod tests;
