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
    let result = runtime.block_on(async {
        match &cli.command {
            Command::Doctor(args) => commands::doctor::run(args, &cli.kube, &cli.output).await,
            Command::Triage(args) => commands::triage::run(args, &cli.output),
            Command::Logs(args) => commands::logs::run(args, &cli.kube, &cli.output).await,
            Command::CanI(args) => commands::can_i::run(args, &cli.kube, &cli.output).await,
            Command::Lint(args) => commands::lint::run(args, &cli.output),
            Command::Explain(args) => commands::explain::run(args),
            Command::Completion(args) => commands::completion::run(args, &mut cli::command()),
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
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
