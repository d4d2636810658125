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
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// How many access reviews are in flight at once.
const CONCURRENCY: usize = 8;

/// Whose access is asked about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Subject {
    /// Whoever the client authenticates as (after the client's own `--as`, if any).
    Caller,
    ServiceAccount {
        namespace: String,
        name: String,
    },
    User {
        name: String,
        groups: Vec<String>,
    },
}

/// What `--as` / `--as-group` accept, for their errors.
const AS_ACCEPTED: &str =
    "use --as=system:serviceaccount:NAMESPACE:NAME for a ServiceAccount, or --as=USER for a user";

/// Why `--as` / `--as-group` name no subject.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsError {
    #[error("--as is empty: {AS_ACCEPTED}")]
    Empty,
    #[error("--as \"{0}\" contains whitespace: {AS_ACCEPTED}")]
    Whitespace(String),
    #[error("--as \"{0}\" is not a valid ServiceAccount: {AS_ACCEPTED}")]
    NotAServiceAccount(String),
    #[error("--as-group cannot be combined with a ServiceAccount (its groups are fixed): drop --as-group, or {AS_ACCEPTED}")]
    GroupWithServiceAccount,
}

impl Subject {
    /// A subject from kubectl's `--as` / `--as-group`: `system:serviceaccount:NS:NAME` is a
    /// ServiceAccount, anything else that looks like a user name is a user.
    pub fn parse_as(text: &str, groups: &[String]) -> Result<Subject, AsError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(AsError::Empty);
        }
        if t != text || t.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(AsError::Whitespace(text.escape_debug().to_string()));
        }
        if let Some(rest) = t.strip_prefix("system:serviceaccount:") {
            let parts: Vec<&str> = rest.split(':').collect();
            let valid = |s: &str| {
                !s.is_empty()
                    && s.len() <= 253
                    && s.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.'
                    })
                    && s.starts_with(|c: char| c.is_ascii_alphanumeric())
                    && s.ends_with(|c: char| c.is_ascii_alphanumeric())
            };
            return match parts.as_slice() {
                [ns, name] if valid(ns) && valid(name) => {
                    if !groups.is_empty() {
                        return Err(AsError::GroupWithServiceAccount);
                    }
                    Ok(Subject::ServiceAccount {
                        namespace: ns.to_string(),
                        name: name.to_string(),
                    })
                }
                _ => Err(AsError::NotAServiceAccount(t.to_string())),
            };
        }
        if t.starts_with("system:serviceaccount") || t.starts_with("system:serviceaccounts") {
            return Err(AsError::NotAServiceAccount(t.to_string()));
        }
        Ok(Subject::User {
            name: t.to_string(),
            groups: groups.to_vec(),
        })
    }

    /// The identity the authorizer sees; `None` for the caller (unknown until asked).
    pub fn user_info(&self) -> Option<UserInfo> {
        match self {
            Subject::Caller => None,
            Subject::ServiceAccount { namespace, name } => {
                Some(UserInfo::service_account(namespace, name))
            }
            Subject::User { name, groups } => Some(UserInfo::user(name, groups)),
        }
    }

    /// The user name, as in `--as` and the API server's messages.
    pub fn username(&self) -> Option<String> {
        self.user_info().map(|u| u.name)
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Caller => f.write_str("you"),
            Subject::ServiceAccount { namespace, name } => {
                write!(f, "ServiceAccount {namespace}/{name}")
            }
            Subject::User { name, groups } if groups.is_empty() => write!(f, "User {name}"),
            Subject::User { name, groups } => {
                write!(f, "User {name} (groups {})", groups.join(", "))
            }
        }
    }
}

/// One question: may `subject` do `attrs`?
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub subject: Subject,
    pub attrs: Attributes,
}

impl Question {
    /// `resource` may carry a subresource (`pods/log`); `namespace` "" asks at cluster scope.
    pub fn new(subject: Subject, namespace: &str, verb: &str, group: &str, resource: &str) -> Self {
        let (resource, subresource) = resource.split_once('/').unwrap_or((resource, ""));
        Question {
            subject,
            attrs: Attributes {
                namespace: namespace.to_string(),
                verb: verb.to_string(),
                group: group.to_string(),
                resource: resource.to_string(),
                subresource: subresource.to_string(),
                name: String::new(),
            },
        }
    }
}

/// Which method answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// SelfSubjectAccessReview sent while impersonating the subject.
    Impersonation,
    /// SelfSubjectAccessReview of the caller itself.
    SelfSubjectAccessReview,
    SubjectAccessReview,
    /// Computed from Roles, ClusterRoles and bindings: not authoritative.
    RbacObjects,
    /// Nothing could answer.
    Undecided,
}

impl Method {
    /// A stable id for JSON.
    pub fn id(self) -> &'static str {
        match self {
            Method::Impersonation => "impersonation",
            Method::SelfSubjectAccessReview => "selfsubjectaccessreview",
            Method::SubjectAccessReview => "subjectaccessreview",
            Method::RbacObjects => "rbac-objects",
            Method::Undecided => "none",
        }
    }

    /// How it is labelled for people.
    pub fn label(self) -> &'static str {
        match self {
            Method::Impersonation => "impersonation + SelfSubjectAccessReview",
            Method::SelfSubjectAccessReview => "SelfSubjectAccessReview",
            Method::SubjectAccessReview => "SubjectAccessReview",
            Method::RbacObjects => "from RBAC objects, not authoritative",
            Method::Undecided => "not decided",
        }
    }

    /// Whether the API server's authorizer itself answered.
    pub fn authoritative(self) -> bool {
        matches!(
            self,
            Method::Impersonation | Method::SelfSubjectAccessReview | Method::SubjectAccessReview
        )
    }
}

/// The answer to one question. `allowed: None` is unknown; `reason` says why (the authorizer's
/// reason, the binding that grants it, what came close, or why it could not be decided).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub question: Question,
    pub allowed: Option<bool>,
    pub method: Method,
    pub reason: String,
}

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
        K: Clone + serde::de::DeserializeOwned + fmt::Debug,
    {
        let mut out = Vec::new();
        let mut lp = ListParams::default().limit(500);
        loop {
            let page = api.list(&lp).await?;
            let next = page.metadata.continue_.clone().filter(|c| !c.is_empty());
            out.extend(page.items);
            match next {
                Some(t) => lp = lp.continue_token(&t),
                None => return Ok(out),
            }
        }
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

/// Access reviews for each distinct (ServiceAccount, verb, resource, namespace) that a log line
/// says the API server refused, decided by [`decide_with`] with the snapshot's RBAC objects. A
/// drop-in for `gather`'s own, same signature: only the authorizer's answers become
/// `AccessReview`s (impersonation + SelfSubjectAccessReview, or SubjectAccessReview), the method
/// named first in `reason` (`"SubjectAccessReview: RBAC: allowed by ..."`). Where only the RBAC
/// objects could answer, no review is made up: the rules' own `rbac::allows` on the same snapshot
/// is that answer (the same evaluator). A question nothing could decide becomes a gap.
pub async fn review_refusals(c: &Client, s: &Snapshot, gaps: &mut Vec<Gap>) -> Vec<AccessReview> {
    let questions = refusal_questions(s);
    if questions.is_empty() {
        return Vec::new();
    }
    let objects = s.rbac_complete.then(|| RbacObjects::from_snapshot(s));
    let decisions = match decide_with(c, &questions, objects.as_ref()).await {
        Ok(d) => d,
        Err(e) => {
            gaps.push(review_gap(GapReason::Error, e.to_string()));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for d in decisions {
        let a = &d.question.attrs;
        match d.allowed {
            Some(_) if !d.method.authoritative() => {}
            Some(allowed) => out.push(AccessReview {
                user: d.question.subject.username().unwrap_or_default(),
                verb: a.verb.clone(),
                group: a.group.clone(),
                resource: a.resource.clone(),
                subresource: a.subresource.clone(),
                namespace: a.namespace.clone(),
                allowed,
                reason: format!("{}: {}", d.method.label(), d.reason),
            }),
            None => gaps.push(review_gap(GapReason::Forbidden, d.reason.clone())),
        }
    }
    out
}

/// The questions the 403s in a snapshot's logs raise (SIG-K8S-FORBIDDEN: ServiceAccount, verb,
/// resource, group, namespace), each once.
pub fn refusal_questions(s: &Snapshot) -> Vec<Question> {
    let mut out: Vec<Question> = Vec::new();
    for text in s.logs.values() {
        for m in signatures::catalogue().scan(text) {
            if m.signature.id != "SIG-K8S-FORBIDDEN" {
                continue;
            }
            let (Some(ns), Some(sa), Some(verb), Some(resource)) = (
                m.field("namespace"),
                m.field("sa"),
                m.field("verb"),
                m.field("resource"),
            ) else {
                continue;
            };
            let target_ns = m.field("object_namespace").unwrap_or(ns);
            let q = Question::new(
                Subject::ServiceAccount {
                    namespace: ns.to_string(),
                    name: sa.to_string(),
                },
                target_ns,
                verb,
                m.field("group").unwrap_or(""),
                resource,
            );
            if !out.contains(&q) {
                out.push(q);
            }
        }
    }
    out
}

fn review_gap(reason: GapReason, message: String) -> Gap {
    Gap {
        verb: "create".into(),
        group: "authorization.k8s.io".into(),
        resource: "subjectaccessreviews".into(),
        namespace: None,
        reason,
        message: crate::error::one_line(&message),
    }
}

fn unreachable_error(e: kube::Error) -> Error {
    Error::incomplete("reach the Kubernetes API server", e)
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

/// Whether the caller's own SelfSubjectAccessReview allows it; API errors count as no.
async fn probe(client: &Client, attrs: &Attributes) -> Result<bool, Error> {
    match self_review(client, attrs, None).await {
        Ok(s) => Ok(s.allowed),
        Err(kube::Error::Api(_)) => Ok(false),
        Err(e) => Err(unreachable_error(e)),
    }
}

/// Whether the caller may impersonate the subject: `impersonate` on the ServiceAccount (whose
/// groups the API server fills in), or on the user and each of its groups; then one impersonated
/// SelfSubjectReview confirms the API server sees the subject (a client that already impersonates
/// someone would otherwise be checked instead).
async fn may_impersonate(
    client: &Client,
    subject: &Subject,
    user: &UserInfo,
) -> Result<bool, Error> {
    let mut checks = Vec::new();
    match subject {
        Subject::ServiceAccount { namespace, name } => checks.push(Attributes {
            namespace: namespace.clone(),
            ..cluster_attrs("impersonate", "", "serviceaccounts", name)
        }),
        Subject::User { name, groups } => {
            checks.push(cluster_attrs("impersonate", "", "users", name));
            for g in groups {
                checks.push(cluster_attrs("impersonate", "", "groups", g));
            }
        }
        Subject::Caller => return Ok(false),
    }
    for c in &checks {
        if !probe(client, c).await? {
            return Ok(false);
        }
    }
    let body = serde_json::to_vec(&SelfSubjectReview::default())
        .map_err(|e| Error::incomplete("encode a SelfSubjectReview", e))?;
    match send_as::<SelfSubjectReview>(
        client,
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        body,
        subject,
    )
    .await
    {
        Ok(r) => Ok(user_of(r).is_none_or(|seen| seen.name == user.name)),
        // SelfSubjectReview is GA since 1.28; older servers: trust the impersonate check.
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(true),
        Err(kube::Error::Api(_))
        | Err(kube::Error::HttpError(_))
        | Err(kube::Error::BuildRequest(_)) => Ok(false),
        Err(e) => Err(unreachable_error(e)),
    }
}

/// POSTs `body` to `path` while impersonating `subject` (the headers kubectl's `--as` and
/// `--as-group` send).
async fn send_as<T>(
    client: &Client,
    path: &str,
    body: Vec<u8>,
    subject: &Subject,
) -> Result<T, kube::Error>
where
    T: Clone + serde::de::DeserializeOwned + fmt::Debug,
{
    let mut req = kube::core::Request::new(path)
        .create(&PostParams::default(), body)
        .map_err(kube::Error::BuildRequest)?;
    let (user, groups): (String, &[String]) = match subject {
        Subject::ServiceAccount { namespace, name } => {
            (format!("system:serviceaccount:{namespace}:{name}"), &[])
        }
        Subject::User { name, groups } => (name.clone(), groups),
        Subject::Caller => (String::new(), &[]),
    };
    if !user.is_empty() {
        let headers = req.headers_mut();
        headers.append(
            "impersonate-user",
            user.parse()
                .map_err(|e| kube::Error::HttpError(From::from(e)))?,
        );
        for g in groups {
            headers.append(
                "impersonate-group",
                g.parse()
                    .map_err(|e| kube::Error::HttpError(From::from(e)))?,
            );
        }
    }
    client.request::<T>(req).await
}

/// A SelfSubjectAccessReview, as the caller or, with `as_subject`, impersonating it.
async fn self_review(
    client: &Client,
    attrs: &Attributes,
    as_subject: Option<&Subject>,
) -> Result<SubjectAccessReviewStatus, kube::Error> {
    let review = SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(resource_attributes(attrs)),
            ..SelfSubjectAccessReviewSpec::default()
        },
        ..SelfSubjectAccessReview::default()
    };
    let r = match as_subject {
        None => {
            Api::<SelfSubjectAccessReview>::all(client.clone())
                .create(&PostParams::default(), &review)
                .await?
        }
        Some(subject) => {
            let body = serde_json::to_vec(&review).map_err(kube::Error::SerdeError)?;
            send_as::<SelfSubjectAccessReview>(
                client,
                "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                body,
                subject,
            )
            .await?
        }
    };
    Ok(r.status.unwrap_or_default())
}

/// A SubjectAccessReview for `user`.
async fn subject_review(
    client: &Client,
    user: &UserInfo,
    attrs: &Attributes,
) -> Result<SubjectAccessReviewStatus, kube::Error> {
    let review = SubjectAccessReview {
        spec: SubjectAccessReviewSpec {
            user: Some(user.name.clone()),
            groups: Some(user.groups.clone()),
            resource_attributes: Some(resource_attributes(attrs)),
            ..SubjectAccessReviewSpec::default()
        },
        ..SubjectAccessReview::default()
    };
    let r = Api::<SubjectAccessReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await?;
    Ok(r.status.unwrap_or_default())
}

fn resource_attributes(a: &Attributes) -> ResourceAttributes {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
    ResourceAttributes {
        namespace: some(&a.namespace),
        verb: some(&a.verb),
        group: Some(a.group.clone()),
        resource: some(&a.resource),
        subresource: some(&a.subresource),
        name: some(&a.name),
        ..ResourceAttributes::default()
    }
}

/// An access review's status as a decision: allowed, denied (explicitly by an authorizer, or
/// because none allowed it) or, on an evaluation error without a decision, unknown.
fn status_decision(s: &SubjectAccessReviewStatus) -> (Option<bool>, String) {
    let reason = s.reason.clone().unwrap_or_default();
    let eval_error = s.evaluation_error.clone().filter(|e| !e.is_empty());
    if s.allowed {
        let r = if reason.is_empty() {
            "allowed".to_string()
        } else {
            reason
        };
        return (Some(true), r);
    }
    let mut r = if s.denied == Some(true) {
        format!(
            "explicitly denied{}",
            if reason.is_empty() {
                String::new()
            } else {
                format!(": {reason}")
            }
        )
    } else if reason.is_empty() {
        "no rule allows it".to_string()
    } else {
        reason
    };
    if let Some(e) = &eval_error {
        r.push_str(&format!("; evaluation error: {e}"));
    }
    // An evaluation error means some rules could not be read: a "no" is not a real answer then.
    if eval_error.is_some() && s.denied != Some(true) {
        return (None, r);
    }
    (Some(false), r)
}

#[cfg(test)]
mod tests;
