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
const SECRET_KEY_WORDS: &str = r"password|passwd|passphrase|\bpwd\b|secret|token|credentials?|access[._-]?key|private[._-]?key|api[._-]?key|auth[._-]?key|auth[._-]?params|service[._-]?key|basic[._-]?auth|jaas\.config|http[._-]?headers|account\.key|sas[._-]?key|gs\.auth\.";

/// Whether a configuration key names a secret (`s3.secret-key`, `fs.azure.account.key.x`,
/// `WEBHOOK_KEYSTORE_PASSWORD`, `security.ssl.keystore-password`, `PWD`), the words Flink's own
/// `GlobalConfiguration.SENSITIVE_KEYS` masks included.
pub fn secret_key(key: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(&format!("(?i){SECRET_KEY_WORDS}")).expect("secret key words"))
        .is_match(key)
}

/// Characters of a configuration key.
const KEY: &str = r"[A-Za-z0-9_.\-]*";

enum Rep {
    Template(&'static str),
    /// `key: value` with a secret-looking key (groups: key, separator, value): masked, except
    /// where the key is a word of prose (`token`, `secret`) and the value an ordinary word
    /// (`failed to fetch anonymous token: unexpected status`).
    KeyValue,
    /// Long opaque runs: masked only when they look like key material, not like a hash.
    KeyMaterial,
}

fn patterns() -> &'static [(Regex, Rep)] {
    static P: OnceLock<Vec<(Regex, Rep)>> = OnceLock::new();
    P.get_or_init(|| {
        let t = |re: String, rep: &'static str| (re, Rep::Template(rep));
        let list = vec![
            // PEM private keys (whole block when on one line, else from BEGIN to the end of the line)
            t(r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-[^-])*(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----)?".into(), MASK),
            // tokens with a known shape: GitHub, Slack, GitLab
            t(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,})".into(), MASK),
            // an AWS secret access key right after its key id (`AKIA...:<40 chars>`)
            t(r"\b((?:AKIA|ASIA)[A-Z0-9]{16})([:\s,=/]+)[A-Za-z0-9/+]{40}\b".into(), "***${2}***"),
            // session cookies
            t(r"(?i)(\b(?:set-)?cookie:\s*[^=;\s]+=)[^;\s]+".into(), "${1}***"),
            t(r"(?i)(\b(?:JSESSIONID|SESSIONID|session_id|PHPSESSID)=)[^;&\s]+".into(), "${1}***"),
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
            (
                format!(r#"(?i)\b({KEY}(?:{SECRET_KEY_WORDS}){KEY})(\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&"'}}\]\)]+)"#),
                Rep::KeyValue,
            ),
            // prose: `password hunter2`, `secret-key X7fA`: only a value shaped like a secret
            // (a digit, or mixed case, or symbols), never an ordinary word (`password is wrong`)
            t(r"\b((?i:password|passwd|secret[._-]?key|api[._-]?key)\s+)(?:[a-z]*[0-9A-Z!#$%^&*+=/~][^\s,;]*)".into(), "${1}***"),
            // command-line flags: --password xyz
            t(r"(?i)(--(?:password|passwd|token|secret|api-key|docker-password|client-secret)\s+)\S+".into(), "${1}***"),
            // credentials in URL query strings (pre-signed URLs, SAS tokens)
            t(
                r#"(?i)([?&](?:sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|token|access_token|api_key|apikey|password)=)[^&\s"'#]+"#.into(),
                "${1}***",
            ),
            // user:password@ in URLs (a password may hold `/`)
            t(r"(?i)([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s]+@".into(), "${1}***@"),
            // Oracle's user/password@host (`jdbc:oracle:thin:scott/tiger@db:1521/orcl`, sqlplus)
            // (the host needs a port or a service name, so `refs/heads@main` stays a word)
            t(r"((?:^|[\s:=\x22'])[A-Za-z][A-Za-z0-9_$#]*/)[^@\s/]+(@(?://)?[A-Za-z0-9][A-Za-z0-9.-]*(?::\d+|/[A-Za-z0-9_.]+))".into(), "${1}***${2}"),
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
            Rep::KeyValue => re
                .replace_all(&out, |c: &Captures| {
                    let prose_key = matches!(
                        c[1].to_ascii_lowercase().as_str(),
                        "token" | "tokens" | "secret" | "secrets" | "credential" | "credentials"
                    );
                    let ordinary_word = c[3].bytes().all(|b| b.is_ascii_lowercase());
                    if prose_key && ordinary_word {
                        c[0].to_string()
                    } else {
                        format!("{}{}{MASK}", &c[1], &c[2])
                    }
                })
                .into_owned(),
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
    // A private-key marker the patterns did not take apart (a mangled BEGIN line, an END line
    // carrying key text): everything from the marker on is masked.
    if let Some(i) = out.find("PRIVATE KEY") {
        if !out[i..].contains(MASK) {
            return Cow::Owned(format!("{}{MASK}", &out[..i]));
        }
    }
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
    fn masks_what_the_hostile_input_probe_found_leaking() {
        let cases = [
            (
                "Driver={ODBC};Server=db;Uid=flink;Pwd=s3cr3t!;",
                "Driver={ODBC};Server=db;Uid=flink;Pwd=***;",
            ),
            (
                "jdbc:sqlserver://db:1433;user=flink;pwd=hunter2",
                "jdbc:sqlserver://db:1433;user=flink;pwd=***",
            ),
            (
                "url=jdbc:oracle:thin:scott/tiger@db.example.com:1521/orcl",
                "url=jdbc:oracle:thin:scott/***@db.example.com:1521/orcl",
            ),
            (
                "creds AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY end",
                "creds ***:*** end",
            ),
            ("-----BEGIN PGP PRIVATE KEY BLOCK-----", "***"),
            (
                "export GITHUB_TOKEN ghp_0123456789abcdefABCDEF0123456789abcd",
                "export GITHUB_TOKEN ***",
            ),
            (
                "slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp",
                "slack ***",
            ),
            (
                "the password hunter2 was rejected",
                "the password *** was rejected",
            ),
            ("set secret-key X7fAq9 please", "set secret-key *** please"),
            (
                "Cookie: JSESSIONID=8A7F3B2C1D0E; Path=/",
                "Cookie: JSESSIONID=***; Path=/",
            ),
            (
                "Set-Cookie: session=abc123def; HttpOnly",
                "Set-Cookie: session=***; HttpOnly",
            ),
            (
                "GET https://alice:pa/ss@repo.example.com/x.jar",
                "GET https://alice:***@repo.example.com/x.jar",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(redact(input), want, "{input}");
        }
    }

    #[test]
    fn a_mangled_private_key_line_is_masked_from_its_marker_on() {
        // Found by tests/fuzz.rs: the BEGIN marker cut, the key text after the END marker.
        for line in [
            "xx-BEGIN RSA PRIVATE KEY-----MIIEowIBAAKCAQEA",
            "-----END RSA PRIVATE KEY-----MIIEowIBAAKCAQEA",
        ] {
            let r = redact(line);
            assert!(r.ends_with("***") && !r.contains("MIIEow"), "{r}");
        }
    }

    #[test]
    fn ordinary_words_are_never_masked() {
        for line in [
            "failed to fetch anonymous token: unexpected status",
            "the password is wrong",
            "secret: none of your business? no: secret: missing",
            "see /opt/flink/usrlib/job.jar@rev and refs/heads@main",
        ] {
            assert_eq!(redact(line), line);
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
