//! seed: load offline bundles (the `kubectl flink doctor --from` format) into a running test
//! cluster. Normally run as `scripts/test-cluster.sh seed DIR`, which passes the options below.
//! See `kubectl_flink_test_support::seed` for what is loaded and in which order.

use kubectl_flink_test_support::args::Args;
use kubectl_flink_test_support::seed::{self, Options, Seeder};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: seed [options] BUNDLE...
       seed --list-namespaces BUNDLE     print the namespaces a bundle uses (no cluster needed)

options (each falls back to the environment variable shown):
  --kubeconfig FILE   cluster to seed                    KUBECONFIG
  --log-root DIR      the fake kubelet's log directory   KUBE_HARNESS_LOG_ROOT
  --node NAME         Node to bind pods to               KUBE_HARNESS_NODE (default fake-node)
  --crds DIR          the real Flink operator CRDs       KUBE_HARNESS_CRDS (default: the repository's src/lint/crds)
  --record FILE       where seeds record what they create KUBE_HARNESS_SEED_RECORD
  --reset             first remove everything earlier seeds recorded (namespaces, cluster-scoped
                      objects, logs), so the bundle meets a cluster as fresh as `up` left it
  --no-webhooks       leave the bundle's webhook configurations out
  --keep-times        keep the recorded times (by default every time in a status and an Event
                      moves so that the bundle's newest time, its \"now\" offline, is now)

Seeding two bundles into one cluster without --reset works when their namespaces differ, but
cluster-scoped objects (CRDs, webhooks, ClusterRoleBindings, Nodes) of one stay visible to the other.";

fn main() -> ExitCode {
    let args = match Args::parse(
        std::env::args().skip(1),
        &["kubeconfig", "log-root", "node", "crds", "record"],
        &[
            "reset",
            "no-webhooks",
            "keep-times",
            "list-namespaces",
            "help",
        ],
    ) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("seed: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.switch("help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.positional.is_empty() {
        eprintln!("seed: no bundle given\n{USAGE}");
        return ExitCode::from(2);
    }
    if args.switch("list-namespaces") {
        for b in &args.positional {
            match seed::read_bundle(Path::new(b)) {
                Ok(bundle) => seed::namespaces_of(&bundle)
                    .iter()
                    .for_each(|n| println!("{n}")),
                Err(e) => {
                    eprintln!("seed: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let default_crds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/lint/crds");
    let opts = Options {
        log_root: args
            .value_or_env("log-root", "KUBE_HARNESS_LOG_ROOT")
            .map(PathBuf::from),
        node: args
            .value_or_env("node", "KUBE_HARNESS_NODE")
            .unwrap_or_else(|| "fake-node".into()),
        crds_dir: Some(
            args.value_or_env("crds", "KUBE_HARNESS_CRDS")
                .map(PathBuf::from)
                .unwrap_or(default_crds),
        ),
        reset: args.switch("reset"),
        record: args
            .value_or_env("record", "KUBE_HARNESS_SEED_RECORD")
            .map(PathBuf::from),
        no_webhooks: args.switch("no-webhooks"),
        keep_times: args.switch("keep-times"),
    };
    let kubeconfig = args.value("kubeconfig").map(PathBuf::from);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("seed: {e}");
            return ExitCode::from(3);
        }
    };
    let result = runtime.block_on(async move {
        let client = seed::connect(kubeconfig.as_deref()).await?;
        let mut seeder = Seeder::new(client, opts);
        for b in &args.positional {
            let start = Instant::now();
            let s = seeder.seed(Path::new(b)).await?;
            for skipped in &s.skipped {
                eprintln!("seed: skipped {skipped}");
            }
            let nss: Vec<&str> = s.namespaces.iter().map(String::as_str).collect();
            println!(
                "seeded {b}: {} objects, {} statuses, {} log files into namespace(s) {} in {:.1}s",
                s.objects,
                s.statuses,
                s.logs,
                nss.join(","),
                start.elapsed().as_secs_f64()
            );
        }
        Ok::<(), String>(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seed: {e}");
            ExitCode::from(1)
        }
    }
}
