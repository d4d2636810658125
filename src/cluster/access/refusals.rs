//! The 403s in Flink's logs, confirmed by the authorizer for `doctor`.

/// Access reviews for each distinct (ServiceAccount, verb, resource, namespace) that a log line
use super::*;
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
