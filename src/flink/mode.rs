//! How a Flink cluster runs on Kubernetes (`Mode`) and which of its processes a thing is about
//! (`Component`): one definition each, for the snapshot's index, the rules, lint, the permission
//! model, `logs` and `can-i`.
//!
//! The modes, and how a cluster of each is named and found, are in the table at the top of
//! `snapshot/index.rs`.

/// How a Flink cluster runs on Kubernetes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// Apache operator, native mode (the default): the JobManager creates bare TaskManager pods.
    Operator,
    /// Apache operator, `spec.mode: standalone`: a TaskManager Deployment `<name>-taskmanager`.
    Standalone,
    /// Flink's native Kubernetes integration with no operator.
    Native,
    /// Lyft flinkk8soperator (FlinkApplication): JobManager and TaskManager Deployments.
    Lyft,
    /// The GCP/Spotify operator (FlinkCluster, `flinkoperator.k8s.io`): standalone Flink in a
    /// JobManager StatefulSet (a Deployment in its 2019 releases, a Job in application mode), a
    /// TaskManager StatefulSet (or Deployment), and a job submitter Job that runs `flink run`.
    FlinkCluster,
    /// Native pods (the JobManager creates TaskManager pods) of an operator's FlinkDeployment or
    /// of a plain native cluster: what would tell them apart could not be read.
    Unknown,
}

impl Mode {
    /// Short, stable names for tables and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Operator => "operator",
            Mode::Standalone => "standalone",
            Mode::Native => "native",
            Mode::Lyft => "lyft",
            Mode::FlinkCluster => "flinkcluster",
            Mode::Unknown => "unknown",
        }
    }
    /// Whether the JobManager itself creates bare TaskManager pods (Flink's ResourceManager).
    pub fn native_taskmanagers(self) -> bool {
        matches!(self, Mode::Operator | Mode::Native | Mode::Unknown)
    }
}

/// One of the processes a Flink deployment is made of: its JobManager, its TaskManagers, and the
/// operator that deploys it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    JobManager,
    TaskManager,
    Operator,
}

impl Component {
    /// As Flink's labels, options and kubectl-flink's flags spell it: `jobmanager`, `taskmanager`,
    /// `operator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::JobManager => "jobmanager",
            Component::TaskManager => "taskmanager",
            Component::Operator => "operator",
        }
    }
    /// How a person names it.
    pub fn title(self) -> &'static str {
        match self {
            Component::JobManager => "JobManager",
            Component::TaskManager => "TaskManager",
            Component::Operator => "operator",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Mode::Unknown.as_str(), "unknown");
        assert!(Mode::Operator.native_taskmanagers());
        assert!(!Mode::Lyft.native_taskmanagers());
        assert_eq!(Component::TaskManager.as_str(), "taskmanager");
        assert_eq!(Component::JobManager.title(), "JobManager");
    }
}
