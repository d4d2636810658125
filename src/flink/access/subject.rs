//! Whose access is asked about: a ServiceAccount or a user with groups, as kubectl's `--as`
//! and `--as-group` name them.

use super::*;

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
