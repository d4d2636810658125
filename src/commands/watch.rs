//! `kubectl flink watch`: doctor, kept running. The watches of `cluster::watch` keep the first
//! wave of a snapshot up to date; when objects change, the namespaces they live in are diagnosed
//! again (debounced) through doctor's own pipeline (`gather::after_first_wave`, then
//! `doctor::diagnose`: rules and rank), and the result is served (`serve`): Prometheus metrics
//! (`metrics`), doctor's JSON, health. Nothing changes: nothing runs.

mod metrics;
mod serve;

use crate::cli::KubeArgs;
use crate::cluster::watch::{Dirty, Stores, Trouble};
use crate::cluster::watch_events::{self, Cause, Poster};
use crate::error::Error;
use crate::finding::Finding;
use crate::rank::{rank, Report};
use crate::render::clusters::ClusterLine;
use crate::snapshot::{Gap, Snapshot};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

pub const WATCH_HELP: &str = "\
Endpoints:
  /metrics          Prometheus metrics (kubectl_flink_*)
  /api/v1/findings  the findings, as `kubectl flink doctor -A -o json` prints them
  /healthz          200 while the process serves
  /readyz           200 once the first diagnosis is done

Examples:
  # Watch every namespace, metrics on :8080
  kubectl flink watch -A

  # One namespace, with Events on the Flink resources (needs create events)
  kubectl flink watch -n prod --post-events

  # In the cluster: the Helm chart (charts/kubectl-flink) or the manifests in deploy/

Rights: get, list and watch on what doctor reads (deploy/clusterrole.yaml); --post-events adds
create events, the only write.";

#[derive(Debug, clap::Args)]
#[command(after_help = WATCH_HELP)]
pub struct WatchArgs {
    /// Address to serve /metrics, /api/v1/findings, /healthz and /readyz on
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0:8080")]
    pub listen: std::net::SocketAddr,
    /// How long to wait after a change for more before diagnosing again (e.g. 500ms, 2s)
    #[arg(long, value_name = "DURATION", default_value = "1s")]
    pub debounce: String,
    /// Post a Kubernetes Event on a Flink resource when a root cause appears on it or clears
    /// (at most 20 a minute; the only write, needs create events)
    #[arg(long = "post-events")]
    pub post_events: bool,
    /// Lines read from the end of each failing container's log
    #[arg(long = "log-tail", value_name = "N", default_value_t = 500)]
    pub log_tail: i64,
}

/// What the endpoints serve: the latest diagnosis of every namespace.
pub struct State {
    /// Findings by namespace ("" for those of no namespace: the installation, the tool's gaps).
    findings: BTreeMap<String, Vec<Finding>>,
    clusters: BTreeMap<String, Vec<ClusterLine>>,
    /// Every namespace's findings ranked together, as doctor -A would rank them.
    pub report: Report,
    pub lines: Vec<ClusterLine>,
    pub diagnosed: Option<DateTime<Utc>>,
    pub gaps: Vec<Gap>,
}

impl Default for State {
    fn default() -> Self {
        State {
            findings: BTreeMap::new(),
            clusters: BTreeMap::new(),
            report: rank(Vec::new()),
            lines: Vec::new(),
            diagnosed: None,
            gaps: Vec::new(),
        }
    }
}

/// The namespace a finding is counted in: its deployment's, else its object's, else "".
pub fn namespace_of(f: &Finding) -> &str {
    f.deployment
        .as_ref()
        .and_then(|d| d.namespace.as_deref())
        .or(f.object.namespace.as_deref())
        .unwrap_or("")
}

impl State {
    /// A diagnosis of the namespaces of `dirty` replaces what was held for them (and for no
    /// namespace); what it says of other namespaces (objects read across namespaces, such as the
    /// other modes' lists) is left to their own diagnosis.
    pub fn update(
        &mut self,
        dirty: &Dirty,
        report: Report,
        lines: Vec<ClusterLine>,
        gaps: Vec<Gap>,
        at: DateTime<Utc>,
    ) {
        let replaced = |ns: &str| match dirty {
            Dirty::All => true,
            Dirty::Namespaces(set) => ns.is_empty() || set.contains(ns),
        };
        match dirty {
            Dirty::All => {
                self.findings.clear();
                self.clusters.clear();
            }
            Dirty::Namespaces(set) => {
                for ns in set.iter().map(String::as_str).chain([""]) {
                    self.findings.remove(ns);
                    self.clusters.remove(ns);
                }
            }
        }
        for f in report.findings {
            let ns = namespace_of(&f).to_string();
            if replaced(&ns) {
                self.findings.entry(ns).or_default().push(f);
            }
        }
        for l in lines {
            if replaced(&l.namespace) {
                self.clusters
                    .entry(l.namespace.clone())
                    .or_default()
                    .push(l);
            }
        }
        self.report = rank(self.findings.values().flatten().cloned().collect());
        self.lines = self.clusters.values().flatten().cloned().collect();
        self.gaps = gaps;
        self.diagnosed = Some(at);
    }

    /// The root causes on Flink resources: findings no other explains, about a deployment.
    pub fn root_causes(&self) -> Vec<Cause> {
        self.report
            .findings
            .iter()
            .filter(|f| f.caused_by.is_none())
            .filter_map(|f| {
                let d = f.deployment.as_ref()?;
                Some(Cause {
                    kind: d.kind.clone(),
                    namespace: d.namespace.clone()?,
                    name: d.name.clone(),
                    rule: f.rule.to_string(),
                    title: f.title.clone(),
                })
            })
            .collect()
    }
}

pub type Shared = Arc<RwLock<State>>;

pub async fn run(args: &WatchArgs, kube: &KubeArgs) -> Result<i32, Error> {
    let debounce = crate::cluster::client::parse_duration(&args.debounce)
        .map_err(|_| {
            Error::Input(format!(
                "invalid --debounce \"{}\": use a duration such as 500ms or 2s",
                args.debounce
            ))
        })?
        .unwrap_or(Duration::ZERO);
    let mut options: crate::cluster::client::ConnectOptions = kube.into();
    // A watch is a request that lasts minutes (kube asks the server for 290 s at most): reads
    // wait longer than that, so that an idle watch is not cut and opened again.
    if options.request_timeout == "30s" {
        options.request_timeout = "330s".into();
    }
    let connection = crate::cluster::client::connect(&options).await?;
    let client = connection.client.clone();
    let namespace = connection.namespace.clone();
    let metrics = Arc::new(metrics::Metrics::new());
    let errors = Arc::clone(&metrics);
    let stores = Stores::new(
        namespace.clone(),
        Box::new(move |kind, trouble| match trouble {
            Trouble::Failed(reason) => errors.api_error(kind, reason),
            Trouble::Relist => errors.relisted(kind),
        }),
    );
    stores.start(&client);
    // What the diagnosis reads besides the stores (the installation, the other modes) comes from
    // watches of its own, started by its first read; a change there marks its namespace too.
    let touched = Arc::clone(&stores);
    let errors = Arc::clone(&metrics);
    let held = crate::cluster::reader::Held::new(
        client.clone(),
        Box::new(move |ns| touched.touched(ns)),
        Box::new(move |kind, trouble| match trouble {
            Trouble::Failed(reason) => errors.api_error(kind, reason),
            Trouble::Relist => errors.relisted(kind),
        }),
    );
    let reader = crate::cluster::reader::Reader::Watched(held);
    let shared: Shared = Arc::new(RwLock::new(State::default()));
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| Error::input(&format!("listen on {}", args.listen), e))?;
    crate::note!(
        "kubectl flink watch: {}, serving on http://{}",
        connection.scope_description(),
        listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or_default()
    );
    tokio::spawn(serve::serve(
        listener,
        Arc::clone(&shared),
        Arc::clone(&metrics),
    ));
    let instance = std::env::var("HOSTNAME").unwrap_or_else(|_| "kubectl-flink-watch".into());
    let mut poster = Poster::default();
    let mut operator_namespaces: BTreeSet<String> = BTreeSet::new();
    loop {
        stores.changed().await;
        if !stores.ready() {
            continue;
        }
        // More changes come in bursts (a rollout, a crash loop): one diagnosis for the burst.
        tokio::time::sleep(debounce).await;
        let mut dirty = stores.take_dirty();
        if dirty.is_empty() {
            continue;
        }
        // The operator's namespaces are read with every diagnosis (the installation): their
        // findings are replaced with it.
        if let Dirty::Namespaces(set) = &mut dirty {
            set.extend(operator_namespaces.iter().cloned());
        }
        let started = Instant::now();
        let (first, gaps) = stores.snapshot(&dirty);
        let snapshot = crate::cluster::gather::after_first_wave(
            &reader,
            namespace.as_deref(),
            None,
            first,
            gaps,
            args.log_tail,
        )
        .await;
        operator_namespaces = snapshot
            .operator_deployments
            .iter()
            .filter_map(|d| d.metadata.namespace.clone())
            .collect();
        let (report, lines) = diagnose(&snapshot);
        let at = snapshot.captured_at;
        let causes = {
            let mut state = shared.write().unwrap_or_else(|p| p.into_inner());
            state.update(&dirty, report, lines, snapshot.gaps.clone(), at);
            metrics.update(&state, stores.len(), started.elapsed());
            state.root_causes()
        };
        drop(snapshot);
        release_freed_memory();
        if args.post_events {
            post_events(&client, &stores, &mut poster, &causes, &instance, &metrics).await;
        }
    }
}

/// Gives the pages a diagnosis freed back to the system. glibc's allocator keeps freed memory for
/// reuse and returns only what lies at the top of its heap, so without this the process would stay
/// at the peak of its largest diagnosis (the first, of every namespace: a copy of the whole
/// snapshot and the rules' indexes), twice what the stores hold at 100,000 pods.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer; it only walks glibc's own free lists, under its lock.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// doctor's pure part over the snapshot: rules, rank, and the cluster lines.
fn diagnose(snapshot: &Snapshot) -> (Report, Vec<ClusterLine>) {
    // Without NAME, diagnose cannot fail (only `doctor NAME` finds nothing).
    let report = super::doctor::diagnose(snapshot, None, None).unwrap_or_else(|_| rank(Vec::new()));
    let lines = super::overview::clusters(snapshot, &report, None);
    (report, lines)
}

/// Posts the Events due for the root causes of this diagnosis.
async fn post_events(
    client: &kube::Client,
    stores: &Stores,
    poster: &mut Poster,
    causes: &[Cause],
    instance: &str,
    metrics: &metrics::Metrics,
) {
    let now = Utc::now();
    for t in poster.due(causes, now) {
        let (api_version, uid) = stores.identity(&t.cause.kind, &t.cause.namespace, &t.cause.name);
        let Some(api_version) = api_version else {
            continue;
        };
        let event = watch_events::event_of(&t, &api_version, uid.as_deref(), instance, now);
        match watch_events::post(client, &event).await {
            Ok(()) => metrics.event_posted(t.appeared),
            Err(e) => {
                let reason = match &e {
                    kube::Error::Api(s) if s.code == 403 => crate::snapshot::GapReason::Forbidden,
                    _ => crate::snapshot::GapReason::Error,
                };
                metrics.api_error("events", reason);
                crate::note!(
                    "could not post an Event on {} {}/{}: {}",
                    t.cause.kind,
                    t.cause.namespace,
                    t.cause.name,
                    crate::error::one_line(&e.to_string())
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
