//! Evidence lines never carry secrets: passwords, tokens, access keys, Authorization headers,
//! configuration keys named like password or secret (`s3.secret-key`, `fs.azure.account.key.*`,
//! `gs.auth.*`, ...), JWTs, PEM private keys, credentials in URLs and long opaque key material
//! are masked before anything is printed. Every output (table, markdown, JSON) is built from
//! redacted lines and redacted field values.

use regex::{Captures, Regex};
use std::borrow::Cow;
use std::sync::OnceLock;

const MASK: &str = "***";

/// Parts of a key name that mark its value as secret (matched case-insensitively anywhere in a
/// key such as `s3.secret-key`, `WEBHOOK_KEYSTORE_PASSWORD`, `fs.s3a.session.token`).
const SECRET_KEY_WORDS: &str = r"password|passwd|passphrase|secret|token|credentials?|access[._-]?key|private[._-]?key|api[._-]?key|auth[._-]?key|account\.key|sas[._-]?key|gs\.auth\.";

/// Characters of a configuration key.
const KEY: &str = r"[A-Za-z0-9_.\-]*";

enum Rep {
    Template(&'static str),
    /// Long opaque runs: masked only when they look like key material, not like a hash.
    KeyMaterial,
}

fn patterns() -> &'static [(Regex, Rep)] {
    static P: OnceLock<Vec<(Regex, Rep)>> = OnceLock::new();
    P.get_or_init(|| {
        let t = |re: String, rep: &'static str| (re, Rep::Template(rep));
        let list = vec![
            // PEM private keys (whole block when on one line, else from BEGIN to the end of the line)
            t(r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[^-]|-[^-])*(?:-----END [A-Z ]*PRIVATE KEY-----)?".into(), MASK),
            // Authorization headers (Bearer, Basic, Token, AWS SigV4, ...), also as JSON and env
            t(
                r#"(?i)(\b(?:proxy-)?authorization"?\s*[:=]\s*"?(?:(?:bearer|basic|token|digest|negotiate|aws4-hmac-sha256)\s+)?)[^\s",;'}]+"#.into(),
                "${1}***",
            ),
            t(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}".into(), "${1}***"),
            t(r"(?i)(\bSignature=)[0-9a-f]{16,}".into(), "${1}***"),
            // JSON: "password": "p 4ss", "s3.secret-key":"..." (quotes kept, value masked)
            t(format!(r#"(?i)("{KEY}(?:{SECRET_KEY_WORDS}){KEY}"\s*:\s*")(?:[^"\\]|\\.)*(")"#), "${1}***${2}"),
            // the same inside a JSON string (status.error as printed by `kubectl get -o json`)
            t(format!(r#"(?i)(\\"{KEY}(?:{SECRET_KEY_WORDS}){KEY}\\"\s*:\s*\\")(?:[^"\\]|\\[^"])*(\\")"#), "${1}***${2}"),
            // docker config.json
            t(r#"(?i)("auth"\s*:\s*")[^"]*(")"#.into(), "${1}***${2}"),
            // key: value / key=value (flink-conf, env, describe, properties), quoted or not
            t(
                format!(r#"(?i)\b({KEY}(?:{SECRET_KEY_WORDS}){KEY})(\s*[:=]\s*)(?:"[^"]*"|'[^']*'|[^\s,;&"'}}\]\)]+)"#),
                "${1}${2}***",
            ),
            // command-line flags: --password xyz
            t(r"(?i)(--(?:password|passwd|token|secret|api-key|docker-password|client-secret)\s+)\S+".into(), "${1}***"),
            // credentials in URL query strings (pre-signed URLs, SAS tokens)
            t(
                r#"(?i)([?&](?:sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|token|access_token|api_key|apikey|password)=)[^&\s"'#]+"#.into(),
                "${1}***",
            ),
            // user:password@ in URLs
            t(r"(?i)([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@".into(), "${1}***@"),
            // AWS access key ids
            t(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b".into(), MASK),
            // JWTs (ServiceAccount tokens, OIDC)
            t(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}".into(), MASK),
            // Azure storage / SAS style account keys and other long base64 runs (checked below)
            (r"[A-Za-z0-9+/]{40,}={0,2}".into(), Rep::KeyMaterial),
        ];
        list.into_iter()
            .map(|(re, rep)| (Regex::new(&re).expect("redaction pattern compiles"), rep))
            .collect()
    })
}

/// A run that mixes upper case, lower case and digits and is either long or carries base64's `+`
/// or `=` is key material; a hex digest, an id, a word or a path is not.
fn looks_like_key_material(s: &str) -> bool {
    let upper = s.bytes().any(|b| b.is_ascii_uppercase());
    let lower = s.bytes().any(|b| b.is_ascii_lowercase());
    let digit = s.bytes().any(|b| b.is_ascii_digit());
    let b64 = s.bytes().any(|b| b == b'+' || b == b'=');
    upper && lower && digit && (b64 || s.len() >= 60)
}

/// The line with every secret-looking value replaced by `***`.
pub fn redact(line: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(line);
    for (re, rep) in patterns() {
        if !re.is_match(&out) {
            continue;
        }
        let replaced = match rep {
            Rep::Template(t) => re.replace_all(&out, *t).into_owned(),
            Rep::KeyMaterial => re
                .replace_all(&out, |c: &Captures| {
                    let m = &c[0];
                    if looks_like_key_material(m) {
                        MASK.to_string()
                    } else {
                        m.to_string()
                    }
                })
                .into_owned(),
        };
        if replaced != *out {
            out = Cow::Owned(replaced);
        }
    }
    debug_assert!(!out.contains("PRIVATE KEY-----") || out.contains(MASK));
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
            (r#"{"password": "two words"}"#, r#"{"password": "***"}"#),
            ("fs.azure.account.key.acme.dfs.core.windows.net: Zm9vYmFy", "fs.azure.account.key.acme.dfs.core.windows.net: ***"),
            ("gs.auth.service.account.private.key: abcdef", "gs.auth.service.account.private.key: ***"),
            ("fs.gs.auth.service.account.private.key.id=0123abcd", "fs.gs.auth.service.account.private.key.id=***"),
            ("fs.s3a.session.token: FwoGZXIvYXdz", "fs.s3a.session.token: ***"),
            ("password: \"hunter2 with spaces\"", "password: ***"),
            ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic ***"),
            (r#""Authorization": "Bearer abc.def.ghi""#, r#""Authorization": "Bearer ***""#),
            ("curl -H 'X-Api-Key: k3y-Value' https://x", "curl -H 'X-Api-Key: ***' https://x"),
            ("login --password hunter2 now", "login --password *** now"),
            ("GET https://b.s3.amazonaws.com/k?X-Amz-Credential=AK%2F2026&X-Amz-Signature=abcdef0123", "GET https://b.s3.amazonaws.com/k?X-Amz-Credential=***&X-Amz-Signature=***"),
            ("https://acme.blob.core.windows.net/c?sv=2022&sig=Zm9vYmFyYmF6", "https://acme.blob.core.windows.net/c?sv=2022&sig=***"),
            ("token eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ", "token ***"),
            ("key -----BEGIN RSA PRIVATE KEY-----MIIEowIBAAKCAQEA-----END RSA PRIVATE KEY----- end", "key *** end"),
            ("-----BEGIN PRIVATE KEY-----", "***"),
            (r#"{\"s3.secret-key\":\"abc\",\"x\":1}"#, r#"{\"s3.secret-key\":\"***\",\"x\":1}"#),
            (r#"{"auths":{"r.io":{"auth":"dXNlcjpwYXNzd29yZA=="}}}"#, r#"{"auths":{"r.io":{"auth":"***"}}}"#),
            ("AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJD==", "AccountKey=***"),
            ("blob Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJD== here", "blob *** here"),
        ];
        for (input, want) in cases {
            assert_eq!(redact(input), want, "{input}");
        }
    }

    #[test]
    fn leaves_ordinary_lines_alone() {
        for line in [
            r#"pods is forbidden: User "system:serviceaccount:prod:default" cannot watch resource "pods""#,
            "Error reading service account token from: [/var/run/secrets/kubernetes.io/serviceaccount/token]. Ignoring.",
            "Forbidden Flink config key: kubernetes.namespace",
            "Completed checkpoint 42 for job 5b61d6019ab04da71a4e62533c1a8c40 (12345 bytes)",
            "image sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "Could not find a file system implementation for scheme 's3'.",
            "MountVolume.SetUp failed for volume \"keystore\" : secret \"webhook-server-cert\" not found",
        ] {
            assert_eq!(redact(line), line);
        }
    }
}
