//! Terminal injection: what an API server says (a Status message, an access review's reason)
//! never reaches the terminal raw. A hostile server (tests/common/hostile.rs) puts OSC, CSI, BEL
//! and C1 controls in every message; no ESC, BEL or C1 byte may reach stdout or stderr of
//! doctor, logs or can-i, in any format, while the message itself is still shown.

mod common;

use common::hostile::{control_byte, kubeconfig, start, VISIBLE};
use std::process::{Command, Stdio};

struct Out {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// The plugin against the hostile server, killed after 60 s (a hang is a failure too).
fn against(args: &[&str]) -> Out {
    let dir = tempfile::tempdir().unwrap();
    let cfg = kubeconfig(dir.path(), &start());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kubectl-flink"));
    cmd.args(args)
        .args([
            "--kubeconfig",
            cfg.to_str().unwrap(),
            "--request-timeout",
            "10s",
        ])
        .env("NO_COLOR", "1")
        .env_remove("KUBECTL_FLINK_COLOR")
        .stdin(Stdio::null());
    let out = common::output(&mut cmd, None);
    Out {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

/// No control byte on stdout or stderr; and, where `shown`, the server's message is printed (so
/// that the check has something to fail on).
fn assert_no_control(args: &[&str], out: &Out, shown: bool) {
    for (name, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        if let Some((at, b)) = control_byte(bytes) {
            let text = String::from_utf8_lossy(bytes);
            panic!(
                "{args:?}: byte {b:#04x} at {at} of {name} (exit {:?}):\n{text:?}",
                out.code
            );
        }
    }
    let all = [&out.stdout[..], &out.stderr[..]].concat();
    assert!(
        !shown || String::from_utf8_lossy(&all).contains(VISIBLE),
        "{args:?}: the server's message is not shown at all (exit {:?}):\n{}",
        out.code,
        String::from_utf8_lossy(&all)
    );
}

#[test]
fn doctor_prints_no_escape_from_the_server() {
    for args in [
        &["doctor", "-v"][..],
        &["doctor", "-o", "json", "-v"],
        &["doctor", "-o", "markdown", "-v"],
        &["doctor", "orders"],
    ] {
        let out = against(args);
        assert_no_control(args, &out, true);
    }
}

#[test]
fn logs_prints_no_escape_from_the_server() {
    for args in [&["logs", "orders"][..], &["logs", "orders", "-o", "json"]] {
        let out = against(args);
        assert_no_control(args, &out, true);
    }
}

#[test]
fn can_i_prints_no_escape_from_the_server() {
    // A ServiceAccount's rights are read from RBAC objects (refused here, without the message);
    // the caller's own are asked of the server, whose reasons are shown.
    for (args, shown) in [
        (
            &[
                "can-i",
                "orders",
                "--as=system:serviceaccount:analytics:flink",
            ][..],
            false,
        ),
        (
            &[
                "can-i",
                "orders",
                "--as=system:serviceaccount:analytics:flink",
                "-o",
                "markdown",
            ],
            false,
        ),
        (&["can-i", "--for", "me"], true),
        (&["can-i", "--for", "me", "-o", "markdown"], true),
        (&["can-i", "--for", "me", "-o", "json"], true),
    ] {
        let out = against(args);
        assert_no_control(args, &out, shown);
    }
}
