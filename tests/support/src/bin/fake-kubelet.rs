//! fake-kubelet: serves `/containerLogs/{ns}/{pod}/{container}` over HTTPS from log files, for a
//! test cluster's API server to proxy `pods/log` to (see `kubectl_flink_test_support::kubelet`).
//!
//! Usage: fake-kubelet --root DIR --cert FILE --key FILE --port-file FILE
//!                     [--address 127.0.0.1] [--port 0] [--request-log FILE]
//! Binds ADDRESS:PORT (0 = a free port), writes the chosen port to --port-file once listening.

use kubectl_flink_test_support::args::Args;
use kubectl_flink_test_support::kubelet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "usage: fake-kubelet --root DIR --cert FILE --key FILE --port-file FILE [--address 127.0.0.1] [--port 0] [--request-log FILE]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fake-kubelet: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let args = Args::parse(
        std::env::args().skip(1),
        &[
            "root",
            "cert",
            "key",
            "port-file",
            "address",
            "port",
            "request-log",
        ],
        &[],
    )
    .map_err(|e| format!("{e}\n{USAGE}"))?;
    let need = |n: &str| {
        args.value(n)
            .map(PathBuf::from)
            .ok_or(format!("--{n} is required\n{USAGE}"))
    };
    let root = need("root")?;
    let cert = need("cert")?;
    let key = need("key")?;
    let port_file = need("port-file")?;
    let address = args.value("address").unwrap_or("127.0.0.1").to_string();
    let port: u16 = args
        .value("port")
        .unwrap_or("0")
        .parse()
        .map_err(|_| "--port: not a port number")?;

    let acceptor = kubelet::tls_acceptor(&cert, &key)?;
    let request_log = kubelet::request_log(args.value("request-log").map(std::path::Path::new))?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((address.as_str(), port))
            .await
            .map_err(|e| format!("listen on {address}:{port}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?.port();
        kubelet::write_port_file(&port_file, bound)?;
        eprintln!(
            "fake-kubelet: serving {} on https://{address}:{bound}",
            root.display()
        );
        let serve = kubelet::serve(listener, acceptor, Arc::new(root), request_log);
        tokio::select! {
            _ = serve => {}
            _ = tokio::signal::ctrl_c() => {}
            _ = terminated() => {}
        }
        Ok::<(), String>(())
    })
}

async fn terminated() {
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(mut s) => {
            s.recv().await;
        }
        Err(_) => std::future::pending::<()>().await,
    }
}
