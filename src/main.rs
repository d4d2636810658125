use clap::Parser;
use kubectl_flink::cli::{Cli, Command};
use kubectl_flink::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
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
        }
    });
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
