//! lab-kubelet: runs the pods bound to its node as local processes and reports their status like a
//! kubelet; serves their logs like fake-kubelet. See `kubectl_flink_test_support::lab_kubelet`.

use std::process::ExitCode;

fn main() -> ExitCode {
    match kubectl_flink_test_support::lab_kubelet::main(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lab-kubelet: {e}");
            ExitCode::from(2)
        }
    }
}
