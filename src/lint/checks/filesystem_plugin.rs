//! FLK461: a file system scheme in use without its plugin enabled.
//!
//! Flink loads s3, gs, Azure and OSS file systems from `plugins/`. The stock image ships them in
//! `/opt/flink/opt`, and its entrypoint copies the jars named in `ENABLE_BUILT_IN_PLUGINS`
//! (`;`-separated) into `plugins/` at start. A scheme used in the configuration (checkpoint,
//! savepoint, HA directories), in `jarURI` or `initialSavepointPath` without that fails at run
//! time with "Could not find a file system implementation for scheme '<scheme>'".
//!
//! The variable counts when it is set on `flink-main-container` in a pod template that applies
//! to the component, or through `containerized.master.env.*` / `containerized.taskmanager.env.*`
//! (Lyft: `spec.*Config.envConfig.env`). Both the JobManager and the TaskManagers need the
//! plugin (checkpoint data is written by TaskManagers, metadata and HA data by the JobManager).
//! A custom image may have the plugin baked in: if its name hints at the file system it is left
//! alone, otherwise the finding is an info note.

use super::{config_yaml, At, Check, Hit};
use crate::finding::{Category, Severity};
use crate::flink::mode::Component;
use crate::lint::manifest::{Kind, Manifest};
use crate::lint::Lint;
use crate::rules::RuleMeta;
use serde_json::Value;
use std::sync::OnceLock;

pub static CHECK: Check = Check {
    meta: RuleMeta {
        id: "FLK461",
        name: "filesystem_plugin_missing",
        summary: "A file system scheme (s3://, gs://, abfss://, oss:// ...) is used without its Flink plugin enabled.",
        category: Category::FilesystemPluginMissing,
        severity: Severity::Critical,
        explains: &[],
        fix: r#"enable the scheme's plugin on flink-main-container: `ENABLE_BUILT_IN_PLUGINS=flink-s3-fs-hadoop-VERSION.jar` (or the gs, azure or oss one), or copy the jar into its own folder under /opt/flink/plugins/ in the image"#,
        verify: r#"kubectl flink lint -f flinkdeployment.yaml   # expect no FLK461"#,
    },
    help: "Flink loads the s3, gs, Azure and OSS file systems from plugins. The official image keeps them in \
/opt/flink/opt and enables the ones named in the ENABLE_BUILT_IN_PLUGINS environment variable (jar file names, \
separated by ;). Without it, checkpoints, savepoints, HA storage or a remote jarURI on that scheme fail with \
\"Could not find a file system implementation for scheme ...\". Set the variable for both the JobManager and the \
TaskManagers (containerized.master.env.ENABLE_BUILT_IN_PLUGINS and containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS, \
or env on flink-main-container), or build an image with the plugin under /opt/flink/plugins.",
    run,
};

/// Scheme -> the plugins that serve it (the first is the one a fix proposes).
const FILESYSTEMS: &[(&str, &[&str])] = &[
    ("s3", &["flink-s3-fs-presto", "flink-s3-fs-hadoop"]),
    ("s3p", &["flink-s3-fs-presto"]),
    ("s3a", &["flink-s3-fs-hadoop"]),
    ("gs", &["flink-gs-fs-hadoop"]),
    ("abfs", &["flink-azure-fs-hadoop"]),
    ("abfss", &["flink-azure-fs-hadoop"]),
    ("wasb", &["flink-azure-fs-hadoop"]),
    ("wasbs", &["flink-azure-fs-hadoop"]),
    ("oss", &["flink-oss-fs-hadoop"]),
];

const ENV: &str = "ENABLE_BUILT_IN_PLUGINS";

fn plugins_for(scheme: &str) -> Option<&'static [&'static str]> {
    FILESYSTEMS
        .iter()
        .find(|(s, _)| *s == scheme)
        .map(|(_, p)| *p)
}

/// Schemes in a value (`s3://bucket/x`, `gs://b`), lower-cased, known ones only.
fn schemes(v: &str) -> Vec<String> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re =
        RE.get_or_init(|| regex::Regex::new(r"(?i)\b([a-z][a-z0-9+.-]*)://").expect("valid regex"));
    let mut out: Vec<String> = re
        .captures_iter(v)
        .map(|c| c[1].to_ascii_lowercase())
        .filter(|s| plugins_for(s).is_some())
        .collect();
    out.dedup();
    out
}

/// What the cluster enables, per component: the jar names, or None when it cannot be known
/// (the variable comes from a ConfigMap or Secret).
fn enabled(cluster: &Manifest, c: Component) -> Option<Vec<String>> {
    let mut values: Vec<String> = Vec::new();
    let mut unknown = false;
    let mut env_lists: Vec<&Value> = Vec::new();
    match cluster.kind {
        Kind::FlinkApplication => {
            let config = if c == Component::TaskManager {
                "taskManagerConfig"
            } else {
                "jobManagerConfig"
            };
            env_lists.extend(cluster.get(&format!("spec.{config}.envConfig.env")));
        }
        _ => {
            for t in cluster.templates_for(c) {
                if let Some((_, main)) = t.main_container() {
                    env_lists.extend(main.get("env"));
                }
            }
            let key = match c {
                Component::TaskManager => "containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS",
                _ => "containerized.master.env.ENABLE_BUILT_IN_PLUGINS",
            };
            values.extend(cluster.config.get(key).map(str::to_string));
        }
    }
    for env in env_lists.iter().filter_map(|e| e.as_array()).flatten() {
        if env.get("name").and_then(Value::as_str) != Some(ENV) {
            continue;
        }
        match env.get("value").and_then(Value::as_str) {
            Some(v) => values.push(v.to_string()),
            None => unknown = true,
        }
    }
    if unknown {
        return None;
    }
    Some(
        values
            .iter()
            .flat_map(|v| v.split([';', ',']))
            .map(|j| j.trim().to_string())
            .filter(|j| !j.is_empty())
            .collect(),
    )
}

fn has_plugin(jars: &[String], plugins: &[&str]) -> bool {
    jars.iter()
        .any(|j| plugins.iter().any(|p| j.starts_with(p)))
}

/// The official image (`flink`, `apache/flink`, any registry's `.../flink`), or none (the
/// operator's default is the official image).
fn stock_image(image: Option<&str>) -> bool {
    let Some(image) = image else { return true };
    let repo = image.split('@').next().unwrap_or(image);
    let repo = match repo.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => r,
        _ => repo,
    };
    repo.rsplit('/').next() == Some("flink")
}

/// A custom image whose name says it carries the file system (`myorg/flink-s3:1.20`).
fn image_hints(image: &str, scheme: &str) -> bool {
    let name = image.to_ascii_lowercase();
    let hints: &[&str] = match scheme {
        "s3" | "s3a" | "s3p" => &["s3", "aws"],
        "gs" => &["gcs", "gs-", "-gs", "gcp", "google"],
        "abfs" | "abfss" | "wasb" | "wasbs" => &["azure", "abfs", "wasb"],
        "oss" => &["oss", "aliyun", "alibaba"],
        _ => &[],
    };
    hints.iter().any(|h| name.contains(h)) || name.contains("plugin")
}

/// Where a scheme is used: (where, as it reads, scheme).
fn usages(m: &Manifest) -> Vec<(At, String, String)> {
    let mut out = Vec::new();
    let prefix = m.config_path().to_string();
    for (k, v) in &m.config.entries {
        if k.contains("ENABLE_BUILT_IN_PLUGINS") {
            continue;
        }
        for s in schemes(v) {
            out.push((At::Config(k.clone()), format!("{prefix}.{k}: {v}"), s));
        }
    }
    // A session job's jar is fetched by the operator (its own image's plugins), not by Flink.
    let fields: &[&str] = match m.kind {
        Kind::FlinkDeployment => &["spec.job.jarURI", "spec.job.initialSavepointPath"],
        Kind::FlinkSessionJob => &["spec.job.initialSavepointPath"],
        _ => &[],
    };
    for f in fields {
        if let Some(v) = m.str_at(f) {
            for s in schemes(v) {
                out.push((
                    At::Path(crate::lint::locate::Path::parse(f)),
                    format!("{f}: {v}"),
                    s,
                ));
            }
        }
    }
    out
}

fn run(m: &Manifest, lint: &Lint) -> Vec<Hit> {
    let cluster = match m.kind {
        Kind::FlinkDeployment | Kind::FlinkApplication => m,
        Kind::FlinkSessionJob => match lint.session_cluster(m) {
            Some(c) => c,
            None => return Vec::new(),
        },
        // A FlinkCluster names its image under spec.image.name and its options in
        // spec.flinkProperties: not read by this check.
        Kind::PodTemplateFile | Kind::FlinkCluster => return Vec::new(),
    };
    let image = cluster.str_at("spec.image");
    let jm = enabled(cluster, Component::JobManager);
    let tm = enabled(cluster, Component::TaskManager);
    let (Some(jm), Some(tm)) = (jm, tm) else {
        return Vec::new();
    };
    let all = usages(m);
    let mut out = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (at, what, scheme) in &all {
        if seen.contains(scheme) {
            continue;
        }
        seen.push(scheme.clone());
        let Some(plugins) = plugins_for(scheme) else {
            continue;
        };
        let missing: Vec<&str> = [("JobManager", &jm), ("TaskManagers", &tm)]
            .iter()
            .filter(|(_, jars)| !has_plugin(jars, plugins))
            .map(|(n, _)| *n)
            .collect();
        if missing.is_empty() {
            continue;
        }
        let stock = stock_image(image);
        if !stock && image.is_some_and(|i| image_hints(i, scheme)) {
            continue;
        }
        let who = missing.join(" and ");
        let plugin_names = plugins.join(" or ");
        // Every plugin the cluster needs (and already has), so the fix does not drop one.
        let mut needed: Vec<String> = jm.iter().chain(tm.iter()).cloned().collect();
        for (_, _, s) in &all {
            if let Some(p) = plugins_for(s) {
                if !has_plugin(&needed, p) {
                    needed.push(jar_name(p[0], image));
                }
            }
        }
        needed.dedup();
        let value = needed.join(";");
        let mut hit = Hit::new(
            at.clone(),
            what.clone(),
            format!("`{scheme}://` is used but no {scheme} file system plugin ({plugin_names}) is enabled for the {who}"),
        )
        .evidence(format!(
            "{ENV} on flink-main-container (or containerized.*.env.{ENV}) names no {plugin_names} jar for the {who}; the image {} keeps the plugin in /opt/flink/opt, unused",
            image.unwrap_or("(the operator's default Flink image)")
        ))
        .evidence(format!("at run time: Could not find a file system implementation for scheme '{scheme}'"))
        .fix(fix(cluster, &value, image))
        .verify(format!(
            "{} -o jsonpath='{{.items[0].spec.containers[?(@.name==\"flink-main-container\")].env}}'   # expect {ENV} with {}\nkubectl exec{} deploy/{} -- ls /opt/flink/plugins   # expect a {} directory",
            super::pods_of(cluster, Component::TaskManager),
            plugins[0],
            cluster.ns_flag(),
            crate::shell::sh(&cluster.name),
            plugins[0]
        ));
        if m.kind == Kind::FlinkSessionJob {
            hit = hit.evidence(format!(
                "the job runs on session cluster {}, whose pods need the plugin",
                cluster.name
            ));
        }
        if !stock {
            hit = hit.severity(Severity::Info).evidence(format!(
                "{} is a custom image: if it already has {} under /opt/flink/plugins, nothing is missing",
                image.unwrap_or(""),
                plugins[0]
            ));
        }
        out.push(hit);
    }
    out
}

/// `flink-s3-fs-presto-1.20.1.jar` when the image tag says the full version, otherwise with a
/// placeholder the verify command fills in.
fn jar_name(plugin: &str, image: Option<&str>) -> String {
    let version = image
        .and_then(|i| i.split('@').next())
        .and_then(|i| i.rsplit_once(':'))
        .map(|(_, tag)| tag.split('-').next().unwrap_or(""))
        .filter(|v| v.split('.').count() == 3 && v.split('.').all(|p| p.parse::<u32>().is_ok()));
    format!("{plugin}-{}.jar", version.unwrap_or("<flink-version>"))
}

fn fix(cluster: &Manifest, value: &str, image: Option<&str>) -> String {
    let prefix = cluster.config_path().to_string();
    let mut s = if cluster.kind == Kind::FlinkApplication {
        format!(
            "Enable the plugin in both components:\n\nspec:\n  jobManagerConfig:\n    envConfig:\n      env:\n        - name: {ENV}\n          value: \"{value}\"\n  taskManagerConfig:\n    envConfig:\n      env:\n        - name: {ENV}\n          value: \"{value}\""
        )
    } else {
        format!(
            "Enable the plugin for the JobManager and the TaskManagers:\n\n{}",
            config_yaml(
                &prefix,
                &[
                    (
                        &format!("containerized.master.env.{ENV}"),
                        &format!("\"{value}\"")
                    ),
                    (
                        &format!("containerized.taskmanager.env.{ENV}"),
                        &format!("\"{value}\"")
                    ),
                ]
            )
        )
    };
    if value.contains("<flink-version>") {
        s.push_str(&format!(
            "\n\nThe jar names must match the files in the image:\n\ndocker run --rm {} ls /opt/flink/opt",
            image.map_or("flink:<version>".into(), |i| crate::shell::quote(i))
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::checks::testing::{hits, BASIC};

    fn with(conf: &str) -> String {
        BASIC.replace(
            "    taskmanager.numberOfTaskSlots: \"2\"\n",
            &format!("    taskmanager.numberOfTaskSlots: \"2\"\n{conf}"),
        )
    }

    #[test]
    fn schemes_are_found_in_values() {
        assert_eq!(schemes("s3://b/cp"), ["s3"]);
        assert_eq!(schemes("abfss://c@acct.dfs.core.windows.net/x"), ["abfss"]);
        assert!(schemes("file:///flink-data").is_empty());
        assert!(schemes("hdfs://nn/x").is_empty());
    }

    #[test]
    fn s3_checkpoints_without_the_plugin() {
        let h = hits(
            &CHECK,
            &with("    state.checkpoints.dir: s3://my-bucket/checkpoints\n"),
        );
        assert_eq!(h.len(), 1, "{h:?}");
        assert_eq!(
            h[0].what,
            "spec.flinkConfiguration.state.checkpoints.dir: s3://my-bucket/checkpoints"
        );
        assert!(
            h[0].title
                .contains("flink-s3-fs-presto or flink-s3-fs-hadoop"),
            "{}",
            h[0].title
        );
        assert!(
            h[0].title.contains("JobManager and TaskManagers"),
            "{}",
            h[0].title
        );
        assert!(h[0].fix.contains("containerized.taskmanager.env.ENABLE_BUILT_IN_PLUGINS: \"flink-s3-fs-presto-<flink-version>.jar\""), "{}", h[0].fix);
        assert_eq!(h[0].severity, None);
    }

    #[test]
    fn enabled_through_the_pod_template_or_the_options() {
        let env = "  podTemplate:\n    spec:\n      containers:\n        - name: flink-main-container\n          env:\n            - name: ENABLE_BUILT_IN_PLUGINS\n              value: flink-s3-fs-presto-1.20.1.jar\n  job:\n";
        let yaml = with("    state.checkpoints.dir: s3://my-bucket/checkpoints\n")
            .replace("  job:\n", env);
        assert!(hits(&CHECK, &yaml).is_empty());
        let yaml = with("    state.checkpoints.dir: gs://b/cp\n    containerized.master.env.ENABLE_BUILT_IN_PLUGINS: flink-gs-fs-hadoop-1.20.1.jar\n");
        let h = hits(&CHECK, &yaml);
        assert_eq!(h.len(), 1);
        assert!(
            h[0].title.ends_with("for the TaskManagers"),
            "{}",
            h[0].title
        );
        assert!(
            h[0].fix.contains("flink-gs-fs-hadoop-1.20.1.jar"),
            "{}",
            h[0].fix
        );
    }

    #[test]
    fn custom_images() {
        let yaml = with("    state.checkpoints.dir: s3://b/cp\n")
            .replace("image: flink:1.20", "image: myorg/orders-job:7");
        let h = hits(&CHECK, &yaml);
        assert_eq!(h[0].severity, Some(Severity::Info));
        let yaml = yaml.replace("myorg/orders-job:7", "myorg/flink-s3:1.20");
        assert!(hits(&CHECK, &yaml).is_empty());
    }
}
