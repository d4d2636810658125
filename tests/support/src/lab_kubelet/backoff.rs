//! The kubelet's per-container back-off, as client-go's flowcontrol.Backoff (no jitter) drives it
//! (k8s.io/client-go@v0.36.3:util/flowcontrol/backoff.go; used by doBackOff in
//! k8s.io/kubernetes@v1.36.3:pkg/kubelet/kuberuntime/kuberuntime_manager.go): the first exit
//! restarts at once and arms `base`; each later exit waits the current back-off and doubles it up
//! to `max`; an entry older than 2×max is forgotten.

use std::time::{Duration, Instant};

#[derive(Debug, Clone, Default)]
pub struct Backoff {
    entry: Option<(Duration, Instant)>,
}

impl Backoff {
    fn expired(event: Instant, last: Instant, max: Duration) -> bool {
        event.saturating_duration_since(last) > max * 2
    }

    /// Whether an event at `event` (a container's finish) is still inside the back-off window.
    pub fn in_backoff_since(&self, event: Instant, now: Instant, max: Duration) -> bool {
        match self.entry {
            Some((d, last)) if !Self::expired(event, last, max) => {
                now.saturating_duration_since(event) < d
            }
            _ => false,
        }
    }

    /// Image pulls: inside the window since the last failed pull (IsInBackOffSinceUpdate).
    pub fn in_backoff_since_update(&self, now: Instant, max: Duration) -> bool {
        match self.entry {
            Some((d, last)) if !Self::expired(now, last, max) => {
                now.saturating_duration_since(last) < d
            }
            _ => false,
        }
    }

    pub fn next(&mut self, event: Instant, now: Instant, base: Duration, max: Duration) {
        let d = match self.entry {
            Some((d, last)) if !Self::expired(event, last, max) => (d * 2).min(max),
            _ => base.min(max),
        };
        self.entry = Some((d, now));
    }

    pub fn current(&self) -> Duration {
        self.entry.map(|(d, _)| d).unwrap_or_default()
    }

    /// When the entry was last armed.
    pub fn updated(&self) -> Option<Instant> {
        self.entry.map(|(_, t)| t)
    }
}

#[cfg(test)]
mod tests {
    use super::Backoff;
    use std::time::{Duration, Instant};

    #[test]
    fn doubles_to_max() {
        let (base, max) = (Duration::from_secs(1), Duration::from_secs(4));
        let mut b = Backoff::default();
        let t0 = Instant::now();
        // First exit: not in back-off, arm it and restart at once.
        assert!(!b.in_backoff_since(t0, t0, max));
        b.next(t0, t0, base, max);
        // Second exit: inside 1s.
        let t1 = t0 + Duration::from_millis(100);
        assert!(b.in_backoff_since(t1, t1, max));
        assert_eq!(b.current(), base);
        assert!(!b.in_backoff_since(t1, t1 + base, max));
        b.next(t1, t1 + base, base, max);
        assert_eq!(b.current(), Duration::from_secs(2));
        b.next(t1, t1 + base, base, max);
        b.next(t1, t1 + base, base, max);
        assert_eq!(b.current(), max);
        // Long after: forgotten.
        let late = t1 + Duration::from_secs(60);
        assert!(!b.in_backoff_since(late, late, max));
        b.next(late, late, base, max);
        assert_eq!(b.current(), base);
    }
}
