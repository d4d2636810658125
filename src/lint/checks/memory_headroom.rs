//! FLK456: a container memory limit without headroom over Flink's process memory.
//!
//! Flink budgets its whole process (`*.memory.process.size`, which the operator sets from
//! `spec.*.resource.memory`), JVM overhead included; what runs outside that budget (RocksDB beyond
//! managed memory, glibc arenas, native libraries) needs room between the budget and the
//! container's limit, or the kernel kills the container (137, OOMKilled). Below 10% is reported,
//! with the numbers.
//!
//! Operator and native Flink: Flink itself sets `flink-main-container`'s memory to the process
//! size times `kubernetes.<component>.memory.limit-factor` (default 1.0), replacing the pod
//! template's value. So a template limit is compared twice: as written (what the author meant)
//! and as Flink will apply it (an info note when the written limit had headroom that Flink takes
//! away). Lyft's FlinkApplication applies `spec.*Config.resources` as written.

use super::{At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::mode::Component;
use crate::flink::units::{parse_quantity, parse_resource_memory, MIB, MIN_HEADROOM};
use crate::lint::locate::Path;
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK456",
        name: "memory_headroom",
        summary: "A container memory limit leaves less than 10% headroom over Flink's process memory.",
        category: Category::MemoryConfigInvalid,
        severity: Severity::Warning,
        explains: &[],
        fix: r#"leave at least 10% of the container's memory limit over Flink's process memory: raise the limit, or lower the process size"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK456"#,
    },
    help: "Flink's process memory (spec.*.resource.memory, *.memory.process.size) is a budget for the JVM; native \
memory outside it (RocksDB beyond managed memory, glibc arenas, native libraries) needs room below the container's \
memory limit, or the container is OOMKilled (exit 137). Keep the limit at least 10% above the process memory: with \
the operator or native Flink through kubernetes.<component>.memory.limit-factor (Flink replaces the main \
container's memory limit with process memory x limit-factor), with Lyft's operator through resources.limits.memory.",
    run,
};

fn run(m: &Manifest, _: &Lint) -> Vec<Hit> {
    let mut out = Vec::new();
    for c in [Component::JobManager, Component::TaskManager] {
        match m.kind {
            Kind::FlinkDeployment => out.extend(operator(m, c)),
            Kind::FlinkApplication => out.extend(lyft(m, c)),
            _ => {}
        }
    }
    out
}

/// Flink's process memory for a component: (bytes, as written, where).
fn process_memory(m: &Manifest, c: Component) -> Option<(f64, String, At, String)> {
    let resource = format!(
        "spec.{}.resource.memory",
        match c {
            Component::TaskManager => "taskManager",
            _ => "jobManager",
        }
    );
    if m.kind == Kind::FlinkDeployment {
        if let Some(v) = m.str_at(&resource) {
            return Some((
                parse_resource_memory(v)?,
                v.to_string(),
                At::Path(Path::parse(&resource)),
                resource,
            ));
        }
    }
    let key = format!("{}.memory.process.size", c.as_str());
    let v = m.config.get(&key)?;
    let shown = format!("{}.{key}", m.config_path());
    Some((
        parse_resource_memory(v)?,
        v.to_string(),
        At::Config(key),
        shown,
    ))
}

fn operator(m: &Manifest, c: Component) -> Option<Hit> {
    let (process, process_text, _, process_where) = process_memory(m, c)?;
    // The component's own template wins over spec.podTemplate in the operator's merge.
    let (path, limit_text) = m.templates_for(c).iter().rev().find_map(|t| {
        let (p, main) = t.main_container()?;
        let v = main.pointer("/resources/limits/memory")?;
        let text = v
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string());
        Some((p.key("resources").key("limits").key("memory"), text))
    })?;
    let limit = parse_quantity(&limit_text)?;
    let factor_key = format!("kubernetes.{}.memory.limit-factor", c.as_str());
    let factor: f64 = m
        .config
        .get(&factor_key)
        .and_then(|f| f.trim().parse().ok())
        .unwrap_or(1.0);
    let applied = process * factor;
    let what = format!("{path}: {limit_text}");
    let numbers = format!(
        "Flink's {} process memory: {process_text} = {} MiB ({process_where}); container limit {limit_text} = {} MiB: headroom {}",
        c.title(),
        mib(process),
        mib(limit),
        headroom(limit, process)
    );
    let applied_line = format!(
        "Flink replaces flink-main-container's memory limit with process memory x {factor_key} ({factor:?}) = {} MiB: headroom {}",
        mib(applied),
        headroom(applied, process)
    );
    let fix = format!(
        "Give the process room below the limit with Flink's limit factor (Flink sets the main container's limit to \
         process memory x factor, so the pod template's limit has no effect):\n\
         \n\
         spec:\n\
         \x20 flinkConfiguration:\n\
         \x20   {factor_key}: \"{}\"   # limit = {} MiB\n\
         \n\
         and drop resources.limits.memory from flink-main-container in the pod template.",
        suggested_factor(limit, process),
        mib(process * suggested_factor(limit, process)),
    );
    let verify = format!(
        "{} -o jsonpath='{{.items[0].spec.containers[?(@.name==\"flink-main-container\")].resources.limits.memory}}'   # expect at least {} MiB",
        super::pods_of(m, c),
        mib(process * (1.0 + MIN_HEADROOM)).max(0)
    );
    if limit < process * (1.0 + MIN_HEADROOM) {
        let title = if limit < process {
            format!(
                "{} memory limit {limit_text} is below Flink's process memory {process_text}",
                c.title()
            )
        } else {
            format!("{} memory limit {limit_text} leaves {} headroom over Flink's process memory {process_text} (want at least 10%)", c.title(), headroom(limit, process))
        };
        let mut hit = Hit::new(At::Path(path), what, title)
            .evidence(numbers)
            .evidence(applied_line);
        if limit_text.trim_end().ends_with('m') {
            hit = hit.evidence(format!("note: in a Kubernetes quantity `m` means milli: {limit_text} is {} bytes; write Mi", limit));
        }
        return Some(hit.fix(fix).verify(verify));
    }
    if applied < process * (1.0 + MIN_HEADROOM) {
        return Some(
            Hit::new(
                At::Path(path),
                what,
                format!(
                    "{} memory limit {limit_text} in the pod template is replaced by Flink: the container gets {} MiB, {} over its process memory",
                    c.title(),
                    mib(applied),
                    headroom(applied, process)
                ),
            )
            .severity(Severity::Info)
            .evidence(applied_line)
            .evidence(numbers)
            .fix(fix)
            .verify(verify),
        );
    }
    None
}

/// Lyft's operator applies `spec.jobManagerConfig.resources` / `spec.taskManagerConfig.resources`
/// as written; the process memory is whatever `flinkConfig` sets explicitly.
fn lyft(m: &Manifest, c: Component) -> Option<Hit> {
    let (process, process_text, _, process_where) = process_memory(m, c)?;
    let config = match c {
        Component::TaskManager => "taskManagerConfig",
        _ => "jobManagerConfig",
    };
    let path = format!("spec.{config}.resources.limits.memory");
    let limit_text = m.str_at(&path)?;
    let limit = parse_quantity(limit_text)?;
    if limit >= process * (1.0 + MIN_HEADROOM) {
        return None;
    }
    Some(
        Hit::path(
            &path,
            format!("{path}: {limit_text}"),
            format!("{} memory limit {limit_text} leaves {} headroom over Flink's process memory {process_text} (want at least 10%)", c.title(), headroom(limit, process)),
        )
        .evidence(format!(
            "Flink's {} process memory: {process_text} = {} MiB ({process_where}); container limit {} MiB",
            c.title(),
            mib(process),
            mib(limit)
        ))
        .fix(format!(
            "Raise the limit to at least {} MiB, or lower {}.memory.process.size to at most {} MiB:\n\nspec:\n  {config}:\n    resources:\n      limits:\n        memory: {}Mi",
            mib(process * (1.0 + MIN_HEADROOM)),
            c.as_str(),
            mib(limit / (1.0 + MIN_HEADROOM)),
            round_up_mib(process * 1.25)
        ))
        .verify(format!(
            "kubectl get flinkapplication {}{} -o jsonpath='{{.spec.{config}.resources.limits.memory}}'",
            crate::shell::sh(&m.name),
            m.ns_flag()
        )),
    )
}

fn suggested_factor(limit: f64, process: f64) -> f64 {
    let wanted = (limit / process).max(1.2);
    (wanted * 100.0).ceil() / 100.0
}

fn headroom(limit: f64, process: f64) -> String {
    let pct = (limit - process) / process * 100.0;
    format!("{}%", pct.round() as i64)
}

fn mib(bytes: f64) -> i64 {
    (bytes / MIB).round() as i64
}

fn round_up_mib(bytes: f64) -> i64 {
    ((bytes / MIB) / 64.0).ceil() as i64 * 64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    fn with_tm_limit(limit: &str, extra_conf: &str) -> String {
        BASIC.replace(
            "    taskmanager.numberOfTaskSlots: \"2\"\n",
            &format!("    taskmanager.numberOfTaskSlots: \"2\"\n{extra_conf}"),
        )
        .replace(
            "  job:\n",
            &format!(
                "    podTemplate:\n      spec:\n        containers:\n          - name: flink-main-container\n            resources:\n              limits:\n                memory: {limit}\n  job:\n"
            ),
        )
    }

    #[test]
    fn parses_flink_and_kubernetes_sizes() {
        assert_eq!(parse_resource_memory("2048m"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("2g"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("2Gi"), Some(2048.0 * MIB));
        assert_eq!(parse_resource_memory("1536 mb"), Some(1536.0 * MIB));
        assert_eq!(parse_quantity("2Gi"), Some(2048.0 * MIB));
        assert_eq!(parse_quantity("2G"), Some(2e9));
        assert_eq!(parse_quantity("2048m"), Some(2.048));
        assert_eq!(parse_quantity("1e9"), Some(1e9));
        assert_eq!(parse_quantity("lots"), None);
    }

    #[test]
    fn fires_with_numbers_when_the_limit_equals_the_process_memory() {
        let h = hits(&CHECK, &with_tm_limit("2Gi", ""));
        assert_eq!(h.len(), 1, "{h:?}");
        assert_eq!(
            h[0].what,
            "spec.taskManager.podTemplate.spec.containers[0].resources.limits.memory: 2Gi"
        );
        assert!(h[0].title.contains("leaves 0% headroom"), "{}", h[0].title);
        assert!(h[0].evidence[0].contains("2048 MiB"), "{:?}", h[0].evidence);
        assert!(
            h[0].fix
                .contains("kubernetes.taskmanager.memory.limit-factor: \"1.2\""),
            "{}",
            h[0].fix
        );
    }

    #[test]
    fn milli_bytes_are_called_out() {
        let h = hits(&CHECK, &with_tm_limit("2048m", ""));
        assert!(h[0].title.contains("below"), "{}", h[0].title);
        assert!(h[0].evidence.iter().any(|e| e.contains("`m` means milli")));
    }

    #[test]
    fn a_generous_limit_that_flink_replaces_is_an_info_note() {
        let h = hits(&CHECK, &with_tm_limit("3Gi", ""));
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].severity, Some(Severity::Info));
        let h = hits(
            &CHECK,
            &with_tm_limit(
                "3Gi",
                "    kubernetes.taskmanager.memory.limit-factor: \"1.5\"\n",
            ),
        );
        assert!(h.is_empty(), "{h:?}");
    }

    #[test]
    fn silent_without_a_template_limit() {
        assert!(hits(&CHECK, BASIC).is_empty());
    }

    #[test]
    fn lyft_applies_the_limit_as_written() {
        let yaml = "apiVersion: flink.k8s.io/v1beta1\nkind: FlinkApplication\nmetadata: {name: wc}\nspec:\n  image: myorg/wordcount:1\n  flinkConfig:\n    taskmanager.memory.process.size: 4g\n  taskManagerConfig:\n    resources:\n      limits: {memory: 4Gi, cpu: 2}\n";
        let h = hits(&CHECK, yaml);
        assert_eq!(h.len(), 1);
        assert_eq!(
            h[0].what,
            "spec.taskManagerConfig.resources.limits.memory: 4Gi"
        );
    }
}
