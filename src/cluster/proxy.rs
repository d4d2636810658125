//! Which proxy reaches the API server, chosen as kubectl chooses it (client-go uses Go's
//! `http.ProxyFromEnvironment`, golang/net@v0.35.0:http/httpproxy/proxy.go, unless the
//! kubeconfig's cluster sets `proxy-url`, kubernetes/client-go@v0.32.0:rest/transport.go):
//! - the cluster's `proxy-url`, when set, whatever the environment says;
//! - else `HTTPS_PROXY` (or `https_proxy`) for an `https://` server, `HTTP_PROXY` (or
//!   `http_proxy`) for an `http://` one (not when `REQUEST_METHOD` is set, as Go does for CGI);
//! - never for `localhost` or a loopback address, nor for a host `NO_PROXY` (or `no_proxy`)
//!   covers: `*`, an IP address, a CIDR range, a domain (which covers its subdomains too; with a
//!   leading `.` or `*.`, only its subdomains), each optionally with `:port`.
//!
//! `ALL_PROXY` is not read: Go's proxy selection does not read it, so kubectl ignores it too.
//! A proxy given without a scheme is `http://`; `http`, `https` and `socks5` proxies are spoken.

use std::net::IpAddr;

/// The environment, as the selection reads it (a function, so tests need not change the
/// process's environment).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process's environment; an empty variable counts as unset.
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn either(env: Env, upper: &str, lower: &str) -> Option<String> {
    env(upper)
        .or_else(|| env(lower))
        .filter(|v| !v.trim().is_empty())
}

/// The proxy for `server`, or None to connect directly; Err for a proxy URL that cannot be read
/// (the text, for the message).
pub fn choose(
    server: &http::Uri,
    kubeconfig_proxy: Option<&str>,
    env: Env,
) -> Result<Option<http::Uri>, String> {
    if let Some(p) = kubeconfig_proxy.filter(|p| !p.trim().is_empty()) {
        return parse_proxy(p).map(Some);
    }
    let proxy = match server.scheme_str() {
        Some("https") => either(env, "HTTPS_PROXY", "https_proxy"),
        Some("http") if env("REQUEST_METHOD").is_none() => either(env, "HTTP_PROXY", "http_proxy"),
        _ => None,
    };
    let Some(proxy) = proxy else {
        return Ok(None);
    };
    let host = server.host().unwrap_or("");
    let port = server
        .port_u16()
        .unwrap_or(if server.scheme_str() == Some("http") {
            80
        } else {
            443
        });
    if !use_proxy(host, port, either(env, "NO_PROXY", "no_proxy").as_deref()) {
        return Ok(None);
    }
    parse_proxy(&proxy).map(Some)
}

/// A proxy URL as Go reads it: one without a known scheme is tried as `http://`.
fn parse_proxy(text: &str) -> Result<http::Uri, String> {
    let text = text.trim();
    let known = |u: &http::Uri| {
        matches!(
            u.scheme_str(),
            Some("http" | "https" | "socks5" | "socks5h")
        ) && u.host().is_some()
    };
    let uri = match text.parse::<http::Uri>() {
        Ok(u) if known(&u) => u,
        _ => match format!("http://{text}").parse::<http::Uri>() {
            Ok(u) if known(&u) => u,
            _ => return Err(text.to_string()),
        },
    };
    // socks5h (the proxy resolves names) is how kube speaks socks5 anyway.
    if uri.scheme_str() == Some("socks5h") {
        let rest = &text[text.find("://").map_or(0, |i| i + 3)..];
        return format!("socks5://{rest}")
            .parse()
            .map_err(|_| text.to_string());
    }
    Ok(uri)
}

/// Go's `useProxy`: false for localhost, a loopback address, or a host NO_PROXY covers.
fn use_proxy(host: &str, port: u16, no_proxy: Option<&str>) -> bool {
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    if host == "localhost" {
        return false;
    }
    let ip = host.parse::<IpAddr>().ok();
    if ip.is_some_and(|ip| ip.is_loopback()) {
        return false;
    }
    let Some(no_proxy) = no_proxy else {
        return true;
    };
    for entry in no_proxy.split(',').map(|e| e.trim().to_ascii_lowercase()) {
        if entry.is_empty() {
            continue;
        }
        if entry == "*" {
            return false;
        }
        if let Some((net, bits)) = entry.split_once('/') {
            if let (Some(ip), Ok(net), Ok(bits)) = (ip, net.parse::<IpAddr>(), bits.parse()) {
                if in_cidr(ip, net, bits) {
                    return false;
                }
            }
            continue;
        }
        if let Ok(e) = entry
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
        {
            if ip == Some(e) {
                return false;
            }
            continue;
        }
        // A domain, maybe with a port.
        let (name, want_port) = match entry.rsplit_once(':') {
            Some((n, p)) => match p.parse::<u16>() {
                Ok(p) => (n.to_string(), Some(p)),
                Err(_) => continue,
            },
            None => (entry.clone(), None),
        };
        if want_port.is_some_and(|p| p != port) {
            continue;
        }
        let (suffix, exact) = if let Some(rest) = name.strip_prefix("*.") {
            (format!(".{rest}"), None)
        } else if name.starts_with('.') {
            (name.clone(), None)
        } else {
            (format!(".{name}"), Some(name.clone()))
        };
        if host.ends_with(&suffix) || exact.is_some_and(|e| host == e) {
            return false;
        }
    }
    true
}

fn in_cidr(ip: IpAddr, net: IpAddr, bits: u32) -> bool {
    match (ip, net) {
        (IpAddr::V4(a), IpAddr::V4(n)) if bits <= 32 => {
            let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) if bits <= 128 => {
            let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(server: &str, kubeconfig: Option<&str>, vars: &[(&str, &str)]) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let env = move |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        choose(&server.parse().unwrap(), kubeconfig, &env)
            .unwrap()
            .map(|u| u.to_string())
    }

    #[test]
    fn the_scheme_of_the_server_picks_the_variable() {
        let vars = [
            ("HTTPS_PROXY", "http://secure:3128"),
            ("HTTP_PROXY", "plain:8080"),
        ];
        assert_eq!(
            pick("https://api.example.com:6443", None, &vars).as_deref(),
            Some("http://secure:3128/")
        );
        assert_eq!(
            pick("http://api.example.com", None, &vars).as_deref(),
            Some("http://plain:8080/")
        );
        assert_eq!(
            pick("http://api.example.com", None, &[("https_proxy", "x:1")]),
            None
        );
        assert_eq!(
            pick("https://api.example.com", None, &[("https_proxy", "x:1")]).as_deref(),
            Some("http://x:1/")
        );
        // CGI: HTTP_PROXY may come from a request header.
        assert_eq!(
            pick(
                "http://api.example.com",
                None,
                &[("HTTP_PROXY", "x:1"), ("REQUEST_METHOD", "GET")]
            ),
            None
        );
        assert_eq!(
            pick(
                "https://api.example.com",
                None,
                &[("ALL_PROXY", "socks5://s:1080")]
            ),
            None
        );
    }

    #[test]
    fn loopback_and_no_proxy_go_direct() {
        let p = [("HTTPS_PROXY", "http://proxy:3128")];
        assert_eq!(pick("https://127.0.0.1:6443", None, &p), None);
        assert_eq!(pick("https://localhost:6443", None, &p), None);
        assert_eq!(pick("https://[::1]:6443", None, &p), None);
        let with = |no: &'static str| [("HTTPS_PROXY", "http://proxy:3128"), ("NO_PROXY", no)];
        for (server, no_proxy, direct) in [
            ("https://api.corp.example:6443", "corp.example", true),
            ("https://corp.example:6443", "corp.example", true),
            ("https://notcorp.example:6443", "corp.example", false),
            ("https://api.corp.example:6443", ".corp.example", true),
            ("https://corp.example:6443", ".corp.example", false),
            ("https://corp.example:6443", "*.corp.example", false),
            ("https://a.corp.example:6443", "*.corp.example", true),
            (
                "https://api.corp.example:6443",
                "other, corp.example:6443",
                true,
            ),
            ("https://api.corp.example:6443", "corp.example:443", false),
            ("https://10.1.2.3:6443", "10.0.0.0/8", true),
            ("https://11.1.2.3:6443", "10.0.0.0/8", false),
            ("https://10.1.2.3:6443", "10.1.2.3", true),
            ("https://API.Corp.Example:6443", "corp.example", true),
            ("https://anything:6443", "*", true),
            ("https://[fd00::1]:6443", "fd00::/8", true),
        ] {
            let got = pick(server, None, &with(no_proxy));
            assert_eq!(got.is_none(), direct, "{server} NO_PROXY={no_proxy}");
        }
    }

    #[test]
    fn the_kubeconfigs_proxy_url_wins_over_the_environment() {
        let vars = [("HTTPS_PROXY", "http://env:3128"), ("NO_PROXY", "*")];
        assert_eq!(
            pick("https://127.0.0.1:6443", Some("socks5://s:1080"), &vars).as_deref(),
            Some("socks5://s:1080/")
        );
        assert_eq!(
            pick("https://a:1", Some("socks5h://s:1080"), &[]).as_deref(),
            Some("socks5://s:1080/")
        );
        let bad = choose(&"https://a".parse().unwrap(), Some("::"), &|_| None);
        assert!(bad.is_err());
    }
}
