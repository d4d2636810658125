//! Evidence lines never carry secrets: passwords, tokens, access keys, Authorization headers and
//! configuration keys named like password or secret are masked before anything is printed.

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

const MASK: &str = "***";

fn patterns() -> &'static [(Regex, &'static str)] {
    static P: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    P.get_or_init(|| {
        [
            // Authorization: Bearer xxx / Basic xxx
            (r"(?i)(authorization\s*[:=]\s*(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]+", "${1}***"),
            (r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}", "${1}***"),
            // key: value / key=value where the key names a secret (flink-conf style and env style)
            (
                r#"(?i)\b([A-Za-z0-9_.-]*(?:password|passwd|secret|token|access[._-]?key|secret[._-]?key|credentials?|api[._-]?key)[A-Za-z0-9_.-]*)(\s*[:=]\s*|"\s*:\s*")([^\s,;"'}]+)"#,
                "${1}${2}***",
            ),
            // AWS access key ids
            (r"\b(AKIA|ASIA)[A-Z0-9]{16}\b", "***"),
            // PEM blocks
            (r"-----BEGIN [A-Z ]*PRIVATE KEY-----[^-]*(-----END [A-Z ]*PRIVATE KEY-----)?", "***"),
            // JWTs (ServiceAccount tokens)
            (r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", "***"),
            // user:password@ in URLs
            (r"(?i)([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@", "${1}***@"),
        ]
        .into_iter()
        .map(|(re, rep)| (Regex::new(re).expect("redaction pattern compiles"), rep))
        .collect()
    })
}

/// The line with every secret-looking value replaced by `***`.
pub fn redact(line: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(line);
    for (re, rep) in patterns() {
        if re.is_match(&out) {
            out = Cow::Owned(re.replace_all(&out, *rep).into_owned());
        }
    }
    debug_assert!(!out.contains("-----BEGIN") || out.contains(MASK));
    out
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn masks_secrets_in_every_usual_form() {
        let cases = [
            ("s3.secret-key: abc123XYZ", "s3.secret-key: ***"),
            ("s3.access-key=AKIAABCDEFGHIJKLMNOP", "s3.access-key=***"),
            ("Authorization: Bearer eyJhbGciOi.abc", "Authorization: Bearer ***"),
            ("WEBHOOK_KEYSTORE_PASSWORD=password1234", "WEBHOOK_KEYSTORE_PASSWORD=***"),
            ("url s3://user:hunter2@bucket/x", "url s3://user:***@bucket/x"),
            (r#"{"password":"p4ss"}"#, r#"{"password":"***"}"#),
        ];
        for (input, want) in cases {
            assert_eq!(redact(input), want, "{input}");
        }
    }

    #[test]
    fn leaves_ordinary_lines_alone() {
        let line = r#"pods is forbidden: User "system:serviceaccount:prod:default" cannot watch resource "pods""#;
        assert_eq!(redact(line), line);
    }
}
