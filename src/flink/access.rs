//! Access questions and their answers, as plain data: whose access (`Subject`), what is asked
//! (`Question`), which method answered and how (`Decision`), and can-i's matrix of a permission
//! set's decisions (`AccessReport`). `cluster::access` asks the API server and fills them in;
//! `render::access` draws the report.

use super::rbac::{Attributes, UserInfo};
use serde::Serialize;
use std::fmt;

pub mod report;
mod subject;
#[cfg(test)]
mod tests;

pub use report::{fix_for, AccessReport, Cell, Principal, Row};
pub use subject::{AsError, Subject};

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
