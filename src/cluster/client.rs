//! The one place a kube::Client is built, from kubectl's flags.

use crate::error::Error;
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};
use std::time::Duration;

/// A connected client and the scope the flags asked for.
pub struct Connection {
    pub client: Client,
    /// None means all namespaces.
    pub namespace: Option<String>,
    pub context: String,
    /// The API server's URL, for messages.
    pub server: String,
    /// The identity requests are made as, for messages ("alice", "impersonating bob").
    pub verbose: u8,
}

impl Connection {
    pub fn scope_description(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("namespace {ns} (context {})", self.context),
            None => format!("all namespaces (context {})", self.context),
        }
    }
}

/// How to reach the API server: kubectl's global flags as plain data (the CLI layer fills it
/// from its flags; nothing here knows clap).
#[derive(Debug, Clone, Default)]
pub struct ConnectOptions {
    pub kubeconfig: Option<std::path::PathBuf>,
    pub context: Option<String>,
    pub cluster: Option<String>,
    pub user: Option<String>,
    pub namespace: Option<String>,
    pub all_namespaces: bool,
    /// `--as`: the user to impersonate.
    pub as_user: Option<String>,
    pub as_group: Vec<String>,
    /// `--request-timeout` as given (`30s`, `2m`, `0`).
    pub request_timeout: String,
    /// Answers may be quiet for longer than the request timeout (`logs -f`'s streams): reads get
    /// no timeout, while connecting (a TCP connect, an exec credential plugin) keeps the bounds
    /// the request timeout gives them.
    pub streams: bool,
}

pub async fn connect(args: &ConnectOptions) -> Result<Connection, Error> {
    // A namespace a URL cannot hold fails here, once, before any file is read or request sent.
    if !args.all_namespaces {
        for ns in args.namespace.iter().flat_map(|n| n.split(',')) {
            crate::error::check_namespace(ns.trim())?;
        }
    }
    let mut kubeconfig = read_kubeconfig(args)?;
    let options = KubeConfigOptions {
        context: args.context.clone(),
        cluster: args.cluster.clone(),
        user: args.user.clone(),
    };
    let context = args
        .context
        .clone()
        .or_else(|| kubeconfig.current_context.clone())
        .unwrap_or_default();
    if let Some(want) = &args.context {
        if !kubeconfig.contexts.iter().any(|c| &c.name == want) {
            return Err(Error::Input(format!(
                "context \"{want}\" not found in the kubeconfig"
            )));
        }
    }
    let timeout = parse_duration(&args.request_timeout)?;
    super::kubeconfig::prepare(
        &mut kubeconfig,
        &options,
        super::kubeconfig::exec_deadline(timeout),
    )?;
    let kubeconfig_proxy = proxy_url_of(&kubeconfig, &options);
    let mut config = Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .map_err(|e| Error::input("load the kubeconfig", e))?;
    // kube reads only HTTPS_PROXY, and matches NO_PROXY against the proxy rather than the
    // server: the proxy is chosen here as kubectl chooses it.
    config.proxy_url = super::proxy::choose(
        &config.cluster_url,
        kubeconfig_proxy.as_deref(),
        &super::proxy::process_env,
    )
    .map_err(|p| Error::Input(format!("the proxy URL \"{p}\" cannot be read")))?;
    if let Some(user) = &args.as_user {
        config.auth_info.impersonate = Some(user.clone());
    }
    if !args.as_group.is_empty() {
        config.auth_info.impersonate_groups = Some(args.as_group.clone());
    }
    // Audit logs then tell the plugin's requests apart from kubectl's.
    config.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_static(concat!("kubectl-flink/", env!("CARGO_PKG_VERSION"))),
    ));
    config.read_timeout = if args.streams { None } else { timeout };
    config.connect_timeout = timeout.map(|t| t.min(Duration::from_secs(10)));
    let namespace = if args.all_namespaces {
        None
    } else {
        Some(
            args.namespace
                .clone()
                .unwrap_or_else(|| config.default_namespace.clone()),
        )
    };
    // The context's own namespace, when no -n gave one (those were checked above).
    if let Some(ns) = namespace.as_ref().filter(|_| args.namespace.is_none()) {
        crate::error::check_namespace(ns)
            .map_err(|e| Error::Input(format!("context {context}'s namespace: {e}")))?;
    }
    let server = config.cluster_url.to_string();
    crate::error::set_target(&server, &context, config.proxy_url.is_some());
    // kube's own retry honours any Retry-After (a server answering 429 with an hour's wait would
    // hold the tool for that hour) and retries 15 times; ours is bounded: 4 retries, 2 s apart
    // at most, Retry-After ignored, as reads are cheap to repeat and a person is waiting.
    config.default_retry = false;
    let retry = kube::client::retry::RetryPolicy::new(
        Duration::from_millis(200),
        Duration::from_secs(2),
        4,
        false,
    )
    .map_err(|e| Error::input("build the Kubernetes client", e))?;
    let client = kube::client::ClientBuilder::try_from(config)
        .map_err(|e| Error::input("build the Kubernetes client", e))?
        .with_layer(&tower::buffer::BufferLayer::new(1024))
        // At most MAX_REQUESTS_OPENING requests wait for their answer's headers at once, however
        // many namespaces a command fans out over (a watch or a followed log holds no slot once
        // its answer has begun).
        .with_layer(&tower::limit::ConcurrencyLimitLayer::new(
            MAX_REQUESTS_OPENING,
        ))
        .with_layer(&tower::retry::RetryLayer::new(retry))
        // Every answer is read under a byte cap (see `body`): a server streaming an endless body
        // would otherwise grow the process until killed.
        .with_layer(&super::body::CapLayer {
            max: MAX_RESPONSE_BYTES,
        })
        .build();
    Ok(Connection {
        client,
        namespace,
        context,
        server,
        verbose: 0,
    })
}

/// The `proxy-url` of the cluster the options select.
fn proxy_url_of(k: &Kubeconfig, options: &KubeConfigOptions) -> Option<String> {
    let context = options
        .context
        .as_ref()
        .or(k.current_context.as_ref())
        .and_then(|n| k.contexts.iter().find(|c| &c.name == n))
        .and_then(|c| c.context.as_ref());
    let cluster = options.cluster.as_ref().or(context.map(|c| &c.cluster))?;
    k.clusters
        .iter()
        .find(|c| &c.name == cluster)
        .and_then(|c| c.cluster.as_ref())
        .and_then(|c| c.proxy_url.clone())
}

/// Requests that may wait for their answer at once (see `connect`).
pub const MAX_REQUESTS_OPENING: usize = 32;

/// A request's answer as text, read under the client's cap into one buffer (kube's own
/// `request_text` holds the body three times over while it copies it into a String); an answer
/// that is not a success is kube's `Error::Api`, its body read up to `MAX_ERROR_BYTES`.
pub async fn request_text(
    client: &Client,
    request: http::Request<Vec<u8>>,
) -> Result<String, kube::Error> {
    use http_body_util::BodyExt;
    let res = client.send(request.map(kube::client::Body::from)).await?;
    let status = res.status();
    let hint = res
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_RESPONSE_BYTES);
    let failed = status.is_client_error() || status.is_server_error();
    let limit = if failed { MAX_ERROR_BYTES } else { usize::MAX };
    let mut body = res.into_body();
    let mut buf = Vec::with_capacity(hint.min(limit));
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame?.into_data() {
            buf.extend_from_slice(&data);
            if buf.len() > limit {
                buf.truncate(limit);
                break;
            }
        }
    }
    if failed {
        let text = String::from_utf8_lossy(&buf);
        let st = serde_json::from_str::<kube::core::Status>(&text).unwrap_or_else(|_| {
            kube::core::Status::failure(text.trim(), "Failed to parse error data")
                .with_code(status.as_u16())
        });
        return Err(kube::Error::Api(st.boxed()));
    }
    String::from_utf8(buf).map_err(kube::Error::FromUtf8)
}

/// The most read of an answer that is not a success (a Status is a few hundred bytes).
const MAX_ERROR_BYTES: usize = 1 << 20;

/// A list of names in the kubeconfig.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubeconfigNames {
    Contexts,
    Clusters,
    Users,
}

/// The names of the kubeconfig the flags point at, for the shell completion of `--context`,
/// `--cluster` and `--user`; empty when it cannot be read.
pub fn kubeconfig_names(args: &ConnectOptions, which: KubeconfigNames) -> Vec<String> {
    let Ok(k) = read_kubeconfig(args) else {
        return Vec::new();
    };
    match which {
        KubeconfigNames::Contexts => k.contexts.into_iter().map(|c| c.name).collect(),
        KubeconfigNames::Clusters => k.clusters.into_iter().map(|c| c.name).collect(),
        KubeconfigNames::Users => k.auth_infos.into_iter().map(|u| u.name).collect(),
    }
}

/// The contexts of the kubeconfig the flags point at, in its order, for `doctor --all-contexts`
/// and to check the names of `--context a,b` before any is connected.
pub fn context_names(args: &ConnectOptions) -> Result<Vec<String>, Error> {
    Ok(read_kubeconfig(args)?
        .contexts
        .into_iter()
        .map(|c| c.name)
        .collect())
}

/// The kubeconfig the flags point at (see `kubeconfig::read`).
fn read_kubeconfig(args: &ConnectOptions) -> Result<Kubeconfig, Error> {
    match super::kubeconfig::read(args.kubeconfig.as_deref()) {
        // No kubeconfig file at all, in a pod: its ServiceAccount (`watch` as a Deployment).
        Err(e) if args.kubeconfig.is_none() && std::env::var_os("KUBECONFIG").is_none() => {
            super::in_cluster::kubeconfig(
                &|k| std::env::var(k).ok(),
                std::path::Path::new(super::in_cluster::SERVICE_ACCOUNT_DIR),
            )
            .ok_or(e)
        }
        r => r,
    }
}

/// The largest answer read from the API server (and the largest event of a watch): lists are
/// read in pages of 500, so even a page of large objects is a few MB.
pub const MAX_RESPONSE_BYTES: usize = 64 << 20;

/// How long a whole command that reads the cluster may take: ten times `--request-timeout`
/// (5 minutes by default), None when requests have no limit (`0`). One request that dribbles a
/// byte at a time never trips a read timeout; this ends the run anyway.
pub fn run_deadline(request_timeout: &str) -> Result<Option<Duration>, Error> {
    Ok(parse_duration(request_timeout)?.map(|t| t.saturating_mul(10)))
}

/// kubectl's `--request-timeout`: `0` (no limit), a bare number of seconds, or `30s`, `2m`, `1h`.
pub fn parse_duration(text: &str) -> Result<Option<Duration>, Error> {
    let bad = || {
        Error::Input(format!(
            "invalid --request-timeout \"{text}\": use a duration such as 30s, 2m or 0"
        ))
    };
    let t = text.trim();
    if t == "0" {
        return Ok(None);
    }
    let (num, unit) = t.split_at(
        t.find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(t.len()),
    );
    let value: f64 = num.parse().map_err(|_| bad())?;
    let seconds = match unit {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(bad()),
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(bad());
    }
    // Beyond what a Duration holds (about 584 billion years) is a typo, not a timeout.
    Duration::try_from_secs_f64(seconds)
        .map(|d| (!d.is_zero()).then_some(d))
        .map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::parse_duration;
    use std::time::Duration;

    #[test]
    fn absurd_durations_are_an_input_error_not_a_panic() {
        for t in [
            "99999999999999999999",
            "9999999999999999h",
            "1e400",
            "-1s",
            "1e309m",
        ] {
            assert!(parse_duration(t).is_err(), "{t}");
        }
    }

    #[test]
    fn durations_as_kubectl_takes_them() {
        assert_eq!(
            parse_duration("30s").unwrap(),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_duration("2m").unwrap(),
            Some(Duration::from_secs(120))
        );
        assert_eq!(parse_duration("5").unwrap(), Some(Duration::from_secs(5)));
        assert_eq!(parse_duration("0").unwrap(), None);
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("5x").is_err());
    }
}
