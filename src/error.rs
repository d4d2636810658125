//! The tool's own failures (findings are data, not errors), each mapped to a documented exit code.

use std::fmt;

pub const EXIT_OK: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INCOMPLETE: i32 = 3;
/// `doctor` without NAME found no Flink deployment in scope and nothing else wrong, or `doctor
/// NAME` found none of that name: nothing was diagnosed, which is not the same as healthy (0).
pub const EXIT_NOTHING_FOUND: i32 = 4;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad flags or bad input: a missing bundle, invalid YAML, an unknown context (exit 2).
    #[error("{0}")]
    Input(String),
    /// The diagnosis could not be made: cluster unreachable, everything forbidden (exit 3).
    #[error("{0}")]
    Incomplete(String),
    /// `doctor NAME`: no Flink deployment of that name where it looked (exit 4).
    #[error("{0}")]
    NotFound(String),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => EXIT_USAGE,
            Error::Incomplete(_) => EXIT_INCOMPLETE,
            Error::NotFound(_) => EXIT_NOTHING_FOUND,
        }
    }
    pub fn input(action: &str, e: impl fmt::Display) -> Self {
        Error::Input(format!("{action}: {}", one_line(&e.to_string())))
    }
    pub fn incomplete(action: &str, e: impl fmt::Display) -> Self {
        Error::Incomplete(format!("{action}: {}", one_line(&e.to_string())))
    }
}

impl From<crate::snapshot::bundle::BundleError> for Error {
    fn from(e: crate::snapshot::bundle::BundleError) -> Self {
        Error::Input(one_line(&e.to_string()))
    }
}

/// Errors are printed on one line: newlines from nested causes are folded.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The cluster the run talks to, for the sentences that explain a failure to reach it: set once
/// the kubeconfig has been read (`cluster::client::connect`).
#[derive(Debug, Clone, Default)]
struct Target {
    server: String,
    context: String,
    proxy: bool,
}

static TARGET: std::sync::Mutex<Option<Target>> = std::sync::Mutex::new(None);

tokio::task_local! {
    /// The cluster of one context while `doctor --context a,b` diagnoses several at once (each in
    /// [`scope_target`]): a failure names its own context's server, not the last one connected.
    static SCOPED: std::cell::RefCell<Option<Target>>;
}

/// Runs `run` with its own [`set_target`] record, apart from the other contexts running beside it.
pub async fn scope_target<F: std::future::Future>(run: F) -> F::Output {
    SCOPED.scope(std::cell::RefCell::new(None), run).await
}

fn current_target() -> Target {
    SCOPED
        .try_with(|t| t.borrow().clone())
        .ok()
        .flatten()
        .or_else(|| TARGET.lock().ok().and_then(|t| t.clone()))
        .unwrap_or_default()
}

/// The chain of causes of the last failure explained, for `-v` (the sentence names only one).
static CAUSES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Records the API server, context and whether a proxy is in the way, for [`cluster`].
pub fn set_target(server: &str, context: &str, proxy: bool) {
    let target = Target {
        server: server.trim_end_matches('/').to_string(),
        context: context.to_string(),
        proxy,
    };
    if SCOPED
        .try_with(|t| *t.borrow_mut() = Some(target.clone()))
        .is_ok()
    {
        return;
    }
    if let Ok(mut t) = TARGET.lock() {
        *t = Some(target);
    }
}

/// The chain of causes of the last failure [`cluster`] explained, outermost first.
pub fn last_causes() -> Vec<String> {
    CAUSES.lock().map(|c| c.clone()).unwrap_or_default()
}

/// A failed request to the API server as an error: [`explain`]'s sentence; a credential the
/// server refuses, a server out of reach or not trusted are "could not complete" (exit 3), a
/// request that could not be built is bad input (exit 2).
pub fn cluster(e: &kube::Error) -> Error {
    let text = explain(e);
    match e {
        kube::Error::BuildRequest(_) | kube::Error::HttpError(_) => Error::Input(text),
        _ => Error::Incomplete(text),
    }
}

/// Why a request to the API server failed, in one sentence: what went wrong, the likely cause and
/// what to do. The error's whole chain of causes is walked to classify it (a refused connection,
/// a host that does not resolve, a certificate that expired or names another host, a credential
/// refused, a proxy's HTML page), and kept for `-v` ([`last_causes`]).
pub fn explain(e: &kube::Error) -> String {
    let chain = chain(e);
    if let Ok(mut c) = CAUSES.lock() {
        *c = chain.iter().map(|l| one_line(l)).collect();
    }
    let target = current_target();
    let server = if target.server.is_empty() {
        "the API server".to_string()
    } else {
        format!("the API server at {}", target.server)
    };
    let context = if target.context.is_empty() {
        String::new()
    } else {
        format!(" of context {}", target.context)
    };
    let proxy_hint = if target.proxy {
        " (a proxy is configured: check HTTPS_PROXY/NO_PROXY and the kubeconfig's proxy-url)"
    } else {
        ""
    };
    match e {
        kube::Error::Api(s) => {
            let html = s.message.trim_start().starts_with('<');
            if html {
                return format!(
                    "{server} answered {} with an HTML page, not the Kubernetes API: a proxy's or \
                     load balancer's page is in the way; check the server URL (kubectl config \
                     view --minify) and HTTPS_PROXY/NO_PROXY",
                    s.code
                );
            }
            let message = one_line(&s.message);
            return match s.code {
                401 => format!(
                    "{server} refused the credentials{context} (401 Unauthorized): log in again \
                     or refresh the credentials (an expired token or client certificate?), then \
                     check with kubectl auth whoami"
                ),
                403 => format!(
                    "{server} refused the request (403 Forbidden: {message}): ask for the \
                     permissions (kubectl flink can-i shows which are missing)"
                ),
                code => format!("{server} answered {code}: {message}"),
            };
        }
        kube::Error::SerdeError(j) if j.is_syntax() || j.is_eof() => {
            return format!(
                "{server} answered something that is not the Kubernetes API ({}; an HTML page \
                 of a proxy or load balancer?): check the server URL (kubectl config view \
                 --minify) and HTTPS_PROXY/NO_PROXY",
                one_line(&j.to_string())
            );
        }
        kube::Error::BuildRequest(b) => {
            return format!(
                "could not build a request to {server} ({}): a namespace or name that is not a \
                 valid Kubernetes name?",
                one_line(&b.to_string())
            );
        }
        _ => {}
    }
    // The links of the chain, rustls' and io's errors among them.
    let links = links(e);
    for link in &links {
        if let Some(tls) = link.downcast_ref::<rustls::Error>() {
            return certificate(&server, tls);
        }
    }
    let io_kind = links
        .iter()
        .filter_map(|l| l.downcast_ref::<std::io::Error>())
        .map(|io| io.kind())
        .next();
    let all = chain.join(" ").to_lowercase();
    use std::io::ErrorKind as K;
    if io_kind == Some(K::ConnectionRefused) || all.contains("connection refused") {
        return format!(
            "cannot reach {server} (connection refused): is the cluster up and is this the \
             right context? (kubectl config current-context){proxy_hint}"
        );
    }
    if all.contains("dns error") || all.contains("failed to lookup address") {
        return format!(
            "cannot reach {server} (its host name does not resolve): is this the right context, \
             and do the DNS or VPN know that host? (kubectl config current-context){proxy_hint}"
        );
    }
    if io_kind == Some(K::TimedOut) || all.contains("timed out") || all.contains("deadline") {
        return format!(
            "cannot reach {server} (no answer in time): is the cluster up, and is a firewall or \
             proxy in the way? (HTTPS_PROXY/NO_PROXY; --request-timeout to wait longer)"
        );
    }
    if all.contains("tunnel") || all.contains("proxy") {
        return format!(
            "cannot reach {server} through the proxy ({}): check HTTPS_PROXY/NO_PROXY and the \
             kubeconfig's proxy-url",
            deepest(&chain)
        );
    }
    if matches!(
        io_kind,
        Some(K::ConnectionReset | K::ConnectionAborted | K::UnexpectedEof | K::BrokenPipe)
    ) || all.contains("connection closed")
    {
        return format!(
            "{server} closed the connection ({}): is it the API server (kubectl config view \
             --minify), or does a proxy or load balancer cut it? (HTTPS_PROXY/NO_PROXY)",
            deepest(&chain)
        );
    }
    format!(
        "cannot reach {server} ({}): is this the right context? (kubectl config \
         current-context){proxy_hint}",
        deepest(&chain)
    )
}

/// A TLS failure: which certificate check failed, and what to do.
fn certificate(server: &str, e: &rustls::Error) -> String {
    use rustls::CertificateError as C;
    let rustls::Error::InvalidCertificate(c) = e else {
        return format!(
            "the TLS handshake with {server} failed ({e}): is the server URL an HTTPS API \
             server? (kubectl config view --minify)"
        );
    };
    let date = |t: &rustls::pki_types::UnixTime| {
        chrono::DateTime::from_timestamp(t.as_secs() as i64, 0)
            .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
            .unwrap_or_default()
    };
    match c {
        C::Expired | C::ExpiredContext { .. } => {
            let when = match c {
                C::ExpiredContext { not_after, .. } => format!(" on {}", date(not_after)),
                _ => String::new(),
            };
            format!(
                "cannot trust {server}: its certificate expired{when}: renew the API server's \
                 certificate, or check this machine's clock (date -u)"
            )
        }
        C::NotValidYet | C::NotValidYetContext { .. } => format!(
            "cannot trust {server}: its certificate is not valid yet: check this machine's clock \
             (date -u)"
        ),
        C::NotValidForName | C::NotValidForNameContext { .. } => {
            let detail = match c {
                C::NotValidForNameContext {
                    expected,
                    presented,
                } => format!(
                    " {} (it names {})",
                    expected.to_str(),
                    if presented.is_empty() {
                        "no host".to_string()
                    } else {
                        presented.join(", ")
                    }
                ),
                _ => " the host in the server URL".to_string(),
            };
            format!(
                "cannot trust {server}: its certificate is not valid for{detail}: use a server \
                 address the certificate names, or set tls-server-name in the kubeconfig's \
                 cluster"
            )
        }
        C::UnknownIssuer | C::BadSignature => format!(
            "cannot trust {server}: its certificate is signed by an authority the kubeconfig \
             does not trust: check the cluster's certificate-authority(-data) (kubectl config \
             view --minify --raw), or a proxy that intercepts TLS (HTTPS_PROXY/NO_PROXY)"
        ),
        other => format!(
            "cannot trust {server}: its certificate was refused ({other:?}): check the cluster's \
             certificate-authority(-data) in the kubeconfig"
        ),
    }
}

/// Every message of an error's chain, outermost first, without repeats (kube and hyper repeat
/// their causes in their own messages); an io::Error's inner error included.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for link in links(e) {
        let text = link.to_string();
        if !out.iter().any(|o| o == &text) {
            out.push(text);
        }
    }
    out
}

/// The errors of a chain, outermost first. An io::Error wrapping another error goes on with that
/// error itself (its own `source()` skips it, and a TLS failure is a rustls::Error in an io::Error).
fn links<'a>(
    e: &'a (dyn std::error::Error + 'static),
) -> Vec<&'a (dyn std::error::Error + 'static)> {
    let mut out = Vec::new();
    let mut cur: Option<&'a (dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cur {
        out.push(c);
        if out.len() > 64 {
            break;
        }
        cur = match c
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &'a (dyn std::error::Error + 'static)),
            None => c.source(),
        };
    }
    out
}

/// The deepest cause: the most specific words ("connection reset by peer").
fn deepest(chain: &[String]) -> String {
    chain.last().map(|s| one_line(s)).unwrap_or_default()
}

/// A Kubernetes namespace name: a DNS-1123 label (at most 63 lowercase letters, digits and
/// '-', starting and ending with a letter or digit).
pub fn check_namespace(ns: &str) -> Result<(), Error> {
    let ok = !ns.is_empty()
        && ns.len() <= 63
        && ns
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !ns.starts_with('-')
        && !ns.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(Error::Input(format!(
            "invalid namespace \"{}\": a namespace is at most 63 lowercase letters, digits and \
             '-', starting and ending with a letter or digit (kubectl get namespaces lists them)",
            ns.escape_debug()
        )))
    }
}
