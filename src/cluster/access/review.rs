//! The access review requests themselves: SelfSubjectAccessReview (as the caller or
//! impersonating the subject) and SubjectAccessReview, and their answers as decisions.

use super::*;
/// Whether the caller's own SelfSubjectAccessReview allows it; API errors count as no.
pub(super) async fn probe(client: &Client, attrs: &Attributes) -> Result<bool, Error> {
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
pub(super) async fn may_impersonate(
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
pub(super) async fn send_as<T>(
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
pub(super) async fn self_review(
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
pub(super) async fn subject_review(
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

pub(super) fn resource_attributes(a: &Attributes) -> ResourceAttributes {
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
pub(super) fn status_decision(s: &SubjectAccessReviewStatus) -> (Option<bool>, String) {
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
