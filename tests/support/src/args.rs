//! A tiny `--flag value` parser: the two binaries take a handful of options and are run by
//! scripts, so a full CLI library is not worth its compile time here.

use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Args {
    values: BTreeMap<String, String>,
    switches: Vec<String>,
    pub positional: Vec<String>,
}

impl Args {
    /// `takes_value` lists the flags followed by a value; any other `--flag` is a switch.
    /// `--flag=value` is accepted too.
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        takes_value: &[&str],
        switches: &[&str],
    ) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = args.into_iter();
        while let Some(a) = it.next() {
            if a == "--" {
                out.positional.extend(it.by_ref());
                break;
            }
            if let Some(flag) = a.strip_prefix("--") {
                let (name, inline) = match flag.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (flag.to_string(), None),
                };
                if takes_value.contains(&name.as_str()) {
                    let v = match inline {
                        Some(v) => v,
                        None => it.next().ok_or(format!("--{name} needs a value"))?,
                    };
                    out.values.insert(name, v);
                } else if switches.contains(&name.as_str()) && inline.is_none() {
                    out.switches.push(name);
                } else {
                    return Err(format!("unknown option --{name}"));
                }
            } else {
                out.positional.push(a);
            }
        }
        Ok(out)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The flag's value, else the environment variable's (when set and not empty).
    pub fn value_or_env(&self, name: &str, env: &str) -> Option<String> {
        self.value(name)
            .map(str::to_string)
            .or_else(|| std::env::var(env).ok().filter(|v| !v.is_empty()))
    }

    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Args;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn values_switches_and_positionals() {
        let a = Args::parse(
            s(&["--root", "/x", "--replace", "b1", "--port=7", "b2"]),
            &["root", "port"],
            &["replace"],
        )
        .unwrap();
        assert_eq!(a.value("root"), Some("/x"));
        assert_eq!(a.value("port"), Some("7"));
        assert!(a.switch("replace"));
        assert_eq!(a.positional, s(&["b1", "b2"]));
        assert!(Args::parse(s(&["--nope"]), &[], &[]).is_err());
        assert!(Args::parse(s(&["--root"]), &["root"], &[]).is_err());
    }
}
