use kubectl_flink::cli::{self, Command};
use kubectl_flink::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    // kubectl's plugin completion (`kubectl_complete-flink` calls this), before clap sees the
    // half-typed words.
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("__complete") {
        let code = commands::completion::print(&cli::command(), &args[2..]);
        return ExitCode::from(code as u8);
    }
    let cli = cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: start the runtime: {e}");
            return ExitCode::from(3);
        }
    };
    // Ctrl-C and SIGTERM end any command with 130 and 143, what a shell reports for a process
    // those signals ended, a `--save` in progress stopping and removing its unfinished folder
    // first. Listened to from here on, on the runtime's workers: a command blocking its thread
    // (a save, reading stdin) is still ended. `logs` ends on Ctrl-C itself, flushing what it
    // held, with 0 (its documented "done").
    let interrupt_too = !matches!(cli.command, Command::Logs(_));
    {
        let _entered = runtime.enter();
        match signals(interrupt_too) {
            Ok(listening) => {
                runtime.spawn(listening);
            }
            Err(e) => {
                eprintln!("error: listen for Ctrl-C and SIGTERM: {e}");
                return ExitCode::from(3);
            }
        }
    }
    let result = runtime.block_on(async {
        match &cli.command {
            Command::Doctor(args) => commands::doctor::run(args, &cli.kube, &cli.output).await,
            Command::Triage(args) => commands::triage::run(args, &cli.output),
            Command::Logs(args) => commands::logs::run(args, &cli.kube, &cli.output).await,
            Command::CanI(args) => commands::can_i::run(args, &cli.kube, &cli.output).await,
            Command::Lint(args) => commands::lint::run(args, &cli.output),
            Command::Explain(args) => commands::explain::run(args),
            Command::Completion(args) => commands::completion::run(args, &mut cli::command()),
            Command::Watch(args) => commands::watch::run(args, &cli.kube).await,
        }
    });
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            // What a server or a kubeconfig said, masked and without control characters.
            eprintln!(
                "error: {}",
                kubectl_flink::render::terminal::plain(&e.to_string())
            );
            // With -v, the whole chain of causes under the sentence.
            if cli.output.verbose > 0 {
                for cause in kubectl_flink::error::last_causes() {
                    eprintln!(
                        "  caused by: {}",
                        kubectl_flink::render::terminal::plain(&cause)
                    );
                }
            }
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// Listens for SIGINT (when `interrupt`) and SIGTERM now, and returns what waits for them: the
/// save in progress stopped, then the process ended with 130 or 143.
fn signals(
    interrupt: bool,
) -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut int = if interrupt {
        Some(signal(SignalKind::interrupt())?)
    } else {
        None
    };
    let mut term = signal(SignalKind::terminate())?;
    Ok(async move {
        let code = tokio::select! {
            Some(_) = async { match int.as_mut() { Some(s) => s.recv().await, None => None } } => 130,
            _ = term.recv() => 143,
        };
        let _ = tokio::task::spawn_blocking(|| {
            kubectl_flink::snapshot::bundle::interrupt_save(std::time::Duration::from_secs(5))
        })
        .await;
        std::process::exit(code);
    })
}
