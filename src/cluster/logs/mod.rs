//! Container logs for `kubectl flink logs`: which pods and containers a NAME (or a selector) means
//! in every deployment mode, one byte stream per container read line by line (memory stays bounded
//! whatever the log size), and with `-f` a controller that keeps following as pods appear,
//! containers restart and pods go away.
//!
//! Nothing is rendered here. Each line goes to a [`LineFormat`] supplied by the command; formatted
//! bytes go to an output channel that one writer drains; diagnostics go to [`Notices`] (stderr).
//! The selection functions are pure and tested on pods built in code.
//!
//! Built as stern is built, one module per concern:
//! - [`select`]: which pods and containers (the Flink labels per deployment mode, roles, the
//!   containers choice, the print order) and what to read of each; pure.
//! - [`stream`]: one container's log stream: open, retry, pump lines into output chunks, the
//!   bounded line reader, timestamps and the resume filter.
//! - [`list`]: listing pods (paged, every selector merged), watching them for `-f`, and what to say
//!   when nothing matched.
//! - [`once`]: without `-f`: read every stream once and print them in order.
//! - [`follow`]: with `-f`: keep following as pods appear, containers restart and pods go away.

mod follow;
mod list;
mod once;
mod select;
mod stream;

pub use follow::follow;
pub use list::namespace_list;
pub use once::{failure_message, print_once};
pub use select::{
    container_status, is_native, natural_cmp, order_pods, plan, role, role_title,
    selected_containers, Containers, Pattern, Plan, StreamSpec, Target, Which,
    DEFAULT_CONTAINER_ANNOTATION, EVICTED_HINT, MAIN_CONTAINER, PREVIOUS_HINT,
    TASKMANAGER_GONE_HINT,
};
pub use stream::{
    split_timestamp, LineFormat, LineReader, Resume, ResumeFilter, StreamError, MAX_LINE,
};

use k8s_openapi::jiff::Timestamp;
use std::collections::HashSet;
use std::io::Write as _;
use std::sync::Mutex;
use std::time::Duration;

/// Options of one `logs` run.
#[derive(Debug, Clone)]
pub struct Options {
    pub target: Target,
    /// What NAME means when no pod of the Flink deployment NAME is there: the Flink pods whose
    /// name matches NAME as a regular expression (stern's pod query), and the deployment's pods.
    pub fallback: Option<Target>,
    pub containers: Containers,
    pub previous: bool,
    pub since_seconds: Option<i64>,
    pub since_time: Option<Timestamp>,
    /// None: every line.
    pub tail: Option<i64>,
    pub timestamps: bool,
    pub max_requests: usize,
    /// For requests that are not log streams (and the first byte of a stream without -f).
    pub request_timeout: Option<Duration>,
    pub verbose: u8,
}

/// stderr diagnostics, each said once. Without `-f` they are held until the logs are printed, so
/// they are not scrolled away; with `-f` they are said as they happen.
pub struct Notices {
    seen: Mutex<HashSet<String>>,
    held: Option<Mutex<Vec<String>>>,
    /// `logs --context a,b`: each notice names the context it is about.
    context: Option<String>,
}

impl Notices {
    pub fn immediate() -> Self {
        Notices {
            seen: Mutex::new(HashSet::new()),
            held: None,
            context: None,
        }
    }
    pub fn held() -> Self {
        Notices {
            seen: Mutex::new(HashSet::new()),
            held: Some(Mutex::new(Vec::new())),
            context: None,
        }
    }
    /// These notices, each starting `context NAME: `.
    pub fn in_context(mut self, context: &str) -> Self {
        self.context = Some(context.to_string());
        self
    }
    pub fn note(&self, msg: impl Into<String>) {
        self.say("note", msg.into());
    }
    pub fn warn(&self, msg: impl Into<String>) {
        self.say("warning", msg.into());
    }
    fn say(&self, kind: &str, msg: String) {
        let line = match &self.context {
            Some(c) => format!("{kind}: context {c}: {msg}"),
            None => format!("{kind}: {msg}"),
        };
        self.say_line(line);
    }
    fn say_line(&self, line: String) {
        let first = self
            .seen
            .lock()
            .map(|mut s| s.insert(line.clone()))
            .unwrap_or(true);
        if !first {
            return;
        }
        match &self.held {
            Some(h) => {
                if let Ok(mut v) = h.lock() {
                    v.push(line);
                }
            }
            None => {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "{}",
                    crate::signatures::terminal::plain(&line)
                );
            }
        }
    }
    /// Says what was held.
    pub fn flush(&self) {
        if let Some(h) = &self.held {
            let lines = h
                .lock()
                .map(|mut v| std::mem::take(&mut *v))
                .unwrap_or_default();
            let mut err = std::io::stderr().lock();
            for l in lines {
                let _ = writeln!(err, "{}", crate::signatures::terminal::plain(&l));
            }
        }
    }
}

// Last in the file: tests/layers.rs reads everything after `#[cfg(test)]` as test code.
#[cfg(test)]
mod testing;
