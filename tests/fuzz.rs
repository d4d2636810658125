//! Mutation fuzzing on stable Rust, bounded in time so that it runs in every CI: inputs made
//! from the repository's own real texts (the failure corpus, the scenario bundles, the lint
//! fixtures) by flipping, inserting, repeating, cutting and splicing bytes, fed to the readers
//! that take outside input: the bundle loader, triage, lint, the secret masker, the
//! `--request-timeout` parser. Any panic fails the test and prints the input that caused it.
//!
//! `FUZZ_SECONDS` (default 4 per target) and `FUZZ_SEED` (default: fixed, so CI is repeatable)
//! tune a run; a crash found becomes a regression case in the target's own tests.

use kubectl_flink::commands::triage::triage_text;
use kubectl_flink::lint::source::Source;
use kubectl_flink::signatures::redact;
use kubectl_flink::snapshot::bundle;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut walk = vec![
        root.join("tests/corpus"),
        root.join("tests/scenarios"),
        root.join("tests/lint"),
        root.join("tests/triage"),
    ];
    while let Some(dir) = walk.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                if bytes.len() < 256 << 10 {
                    out.push(bytes);
                }
            }
        }
    }
    out.sort();
    assert!(out.len() > 100, "seed inputs: {}", out.len());
    out
}

/// Special bytes that readers treat specially.
const TOKENS: &[&[u8]] = &[
    b"\n",
    b"---\n",
    b"kind: ",
    b"apiVersion: v1\n",
    b"items:\n- ",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"'",
    b"\\",
    b"Caused by: ",
    b"{\"type\":\"",
    b"\xff\xfe",
    b"\x1b[2J",
    b": ",
    b"Name: x\nNamespace: y\nStart Time: z\n",
    b"apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\n",
    b"is forbidden: User \"system:serviceaccount:",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + rng.below(64)).min(v.len());
                let piece = v[at.min(end)..end].to_vec();
                for _ in 0..rng.below(16) {
                    v.splice(at..at, piece.iter().copied());
                }
            }
            3 => v.truncate(at),
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                v.splice(at..at, other[from..].iter().copied());
            }
            5 if !v.is_empty() => {
                let end = (at + rng.below(32)).min(v.len());
                v.drain(at.min(end)..end);
            }
            _ => v.push(rng.below(256) as u8),
        }
    }
    v.truncate(512 << 10);
    v
}

fn budget() -> Duration {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    Duration::from_secs(secs)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_f11c)
        | 1
}

/// Feeds mutated inputs to `target` until the time budget is spent; a panic fails the test with
/// the input, escaped.
fn fuzz(name: &str, target: impl Fn(&[u8])) {
    let seeds = seeds();
    let mut rng = Rng(seed());
    let end = Instant::now() + budget();
    let mut runs = 0u64;
    while Instant::now() < end {
        let input = mutate(&mut rng, &seeds);
        // `FUZZ_LAST=FILE` keeps the input being run, to find one that hangs or eats memory.
        if let Some(path) = std::env::var_os("FUZZ_LAST") {
            let _ = std::fs::write(path, &input);
        }
        if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
            panic!(
                "{name}: panic after {runs} runs on input {:?}",
                String::from_utf8_lossy(&input)
            );
        }
        runs += 1;
    }
    eprintln!("fuzz {name}: {runs} inputs, no panic");
    assert!(runs > 0);
}

#[test]
fn triage_never_panics() {
    fuzz("triage", |input| {
        let _ = kubectl_flink::commands::triage::triage_reader(input, "fuzz");
        let _ = triage_text(&String::from_utf8_lossy(input), "fuzz");
    });
}

#[test]
fn the_bundle_loader_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("objects.yaml");
    fuzz("bundle", |input| {
        std::fs::write(&file, input).unwrap();
        let _ = bundle::load(dir.path());
        let _ = bundle::parse_documents(&String::from_utf8_lossy(input));
    });
}

#[test]
fn lint_never_panics() {
    fuzz("lint", |input| {
        let sources = [Source {
            name: "fuzz.yaml".into(),
            text: String::from_utf8_lossy(input).into_owned(),
        }];
        let _ = kubectl_flink::lint::run(&sources);
    });
}

#[test]
fn the_masker_and_the_flag_parsers_never_panic() {
    fuzz("redact+flags", |input| {
        let text = String::from_utf8_lossy(input);
        for line in text.lines().take(200) {
            let _ = redact(line);
            let _ = kubectl_flink::cluster::client::parse_duration(line);
        }
    });
}
