//! Names are data, never code: every value the tool prints into a command a person (or
//! `doctor --fix=run | sh`) runs goes through here. Object names, namespaces, label values,
//! images, paths and configuration values come from the cluster or, worse, from a support bundle
//! someone else wrote (`doctor --from DIR`); a name like `x$(touch pwned)` must stay one word.
//!
//! - [`quote`] / [`sh`]: one POSIX shell word. Safe words (`[A-Za-z0-9_./:=@%+,-]`) stay bare, so
//!   commands for ordinary names read as before; anything else is single-quoted, an embedded `'`
//!   written `'\''`.
//! - [`json_arg`]: a JSON value as the shell word of `kubectl patch -p` (JSON-escaped, then
//!   sh-quoted, so a value can close neither the JSON string nor the shell's quote).
//! - [`yaml`]: a YAML scalar for the documents of `kubectl apply -f - <<'EOF'`: bare when plain,
//!   else a double-quoted JSON string (no raw newline, so no line of a value can read `EOF`).
//!
//! A command is one line of the fix text (`Remedy::from_fix` reads it line by line), so a control
//! character (a newline above all) never reaches the output raw: inside the quotes it is written
//! as an escape (`\n`, `\u{1b}`). Such a value names no Kubernetes object that can exist; the
//! command then names something that does not exist rather than running something else.

use std::borrow::Cow;
use std::fmt;

/// Characters a shell word may hold bare: no expansion, globbing, splitting or operator in any
/// POSIX shell (nor bash, zsh in their default modes) touches them.
fn safe(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '_' | '.' | '/' | ':' | '=' | '@' | '%' | '+' | ',' | '-')
}

/// `s` as one shell word: bare when every character is safe, else in single quotes.
pub fn quote(s: &str) -> Cow<'_, str> {
    if !s.is_empty() && s.chars().all(safe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    out.push_str(&escape_controls(s).replace('\'', "'\\''"));
    out.push('\'');
    Cow::Owned(out)
}

/// `s` with control characters written as escapes (`\n`, `\t`, `\u{1b}`): one line of text.
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// `s` as one shell word that is always single-quoted (`'a/b'`), for commands whose ordinary
/// form already quotes it (a `grep` pattern).
pub fn quoted(s: &str) -> String {
    let q = quote(s);
    if q.starts_with('\'') {
        q.into_owned()
    } else {
        format!("'{q}'")
    }
}

/// A value shown as one shell word, for `format!` (`let ns = sh(ns); format!("-n {ns}")`).
#[derive(Debug, Clone, Copy)]
pub struct Sh<'a>(pub &'a str);

impl fmt::Display for Sh<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote(self.0))
    }
}

/// `s` as one shell word, lazily (see [`Sh`]).
pub fn sh(s: &str) -> Sh<'_> {
    Sh(s)
}

/// `jsonpath=EXPR` as one shell word, for `kubectl get -o`: the expression quoted as a whole
/// (`jsonpath='{.status}'`), whatever names it holds.
pub fn jsonpath(expr: &str) -> String {
    format!("jsonpath={}", quote(expr))
}

/// `value` as the shell word of `kubectl patch -p`: compact JSON (every string JSON-escaped),
/// then sh-quoted. An object's keys come out sorted (serde_json's map).
pub fn json_arg(value: &serde_json::Value) -> String {
    quote(&value.to_string()).into_owned()
}

/// `{"a":{"b":leaf}}` for the path `["a", "b"]`: the merge patch that sets one field.
pub fn nested(path: &[&str], leaf: serde_json::Value) -> serde_json::Value {
    path.iter().rev().fold(leaf, |inner, key| {
        let mut m = serde_json::Map::new();
        m.insert((*key).to_string(), inner);
        serde_json::Value::Object(m)
    })
}

/// The JSON Pointer (RFC 6901) of a JSON patch's `path`, from its keys: `/spec/flinkConfiguration/a~1b`
/// for `["spec", "flinkConfiguration", "a/b"]`, each key with `~` and `/` escaped.
pub fn pointer(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// `s` as a YAML scalar that reads back as the string `s`: bare when it is a plain word YAML
/// would not take for anything else, else double-quoted (JSON's escapes are YAML's). A `:` or
/// `@` inside a word starting with a letter keeps it plain (`flink:1.20`, `a@sha256:ab`): only
/// `: ` or a final `:` makes a mapping key.
pub fn yaml(s: &str) -> Cow<'_, str> {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-' | ':' | '@'))
        && !s.ends_with(':')
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n" | "nan" | "inf"
        );
    if plain {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(serde_json::Value::String(s.to_string()).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// What `sh` makes of `printf '%s\n' WORD`.
    fn through_sh(word: &str) -> String {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s' {word}"))
            .output()
            .expect("sh");
        assert!(out.status.success(), "{word}: {out:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    }

    #[test]
    fn safe_words_stay_bare_and_others_read_back_as_one_word() {
        for s in [
            "flink",
            "scn-a",
            "registry.example.com/a/b:1.2",
            "app=x,component=y",
            "a@sha256:ab",
            "50%",
        ] {
            assert_eq!(quote(s), s);
        }
        for s in [
            "x$(touch pwned)",
            "a;id",
            "it's",
            "'",
            "\"q\" `w`",
            "a b|c&d>e<f",
            "*",
            "~root",
            "",
            "#x",
            "\\",
            "!x",
        ] {
            let q = quote(s);
            assert_ne!(q, s, "{s} must be quoted");
            assert_eq!(through_sh(&q), s, "{s} -> {q}");
        }
    }

    #[test]
    fn control_characters_never_leave_the_line() {
        let q = quote("a\nEOF\ntouch x\r\u{1b}");
        assert!(
            !q.contains('\n') && !q.contains('\r') && !q.contains('\u{1b}'),
            "{q}"
        );
        assert_eq!(through_sh(&q), "a\\nEOF\\ntouch x\\r\\u{1b}");
    }

    #[test]
    fn a_json_patch_argument_closes_neither_quote() {
        let v = nested(&["spec", "image"], serde_json::json!("x'\"$(touch p)\n"));
        let arg = json_arg(&v);
        let back: serde_json::Value = serde_json::from_str(&through_sh(&arg)).expect("json");
        assert_eq!(back, v);
        assert_eq!(
            json_arg(&nested(
                &["spec", "serviceAccount"],
                serde_json::json!("flink")
            )),
            r#"'{"spec":{"serviceAccount":"flink"}}'"#
        );
    }

    #[test]
    fn a_pointer_escapes_each_key() {
        assert_eq!(
            pointer(&["spec", "flinkConfiguration", "a/b~c"]),
            "/spec/flinkConfiguration/a~1b~0c"
        );
        assert_eq!(pointer(&[]), "");
    }

    #[test]
    fn yaml_scalars_read_back_as_the_string() {
        for s in [
            "flink",
            "a\nEOF\n",
            "x: y",
            "true",
            "1.20",
            "'",
            "\"",
            "- a",
            "#c",
            "",
            "~",
            "flink:1.20",
            "a:",
            "a:b: c",
            "r.io/f@sha256:ab",
            "a:#b",
            "@a",
        ] {
            let doc = format!("k: {}\n", yaml(s));
            let v: serde_json::Value = serde_yaml::from_str(&doc).expect(&doc);
            assert_eq!(v["k"], serde_json::json!(s), "{doc}");
            assert!(!doc.lines().any(|l| l.trim() == "EOF"), "{doc}");
        }
        assert_eq!(yaml("flink-jobmanager"), "flink-jobmanager");
        assert_eq!(yaml("flink:1.20"), "flink:1.20");
        assert_eq!(yaml("a:"), "\"a:\"");
    }
}
