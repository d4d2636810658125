//! A session cluster that refuses the operator's jar upload (SIG-WEB-SUBMIT-REFUSED): the option
//! that turns web submission off, removed by name, when the session FlinkDeployment's spec sets
//! it; else the image, which lacks flink-runtime-web, and the JobManager's log that tells.
//!
//! Flink registers the upload routes (/jars/upload, /jars/:jarid/run) only when `web.submit.enable`
//! is true (WebOptions.SUBMIT_ENABLE, default true, deprecated key `jobmanager.web.submit.enable`:
//! apache/flink@release-1.20.0:flink-core/src/main/java/org/apache/flink/configuration/WebOptions.java)
//! and flink-runtime-web is on the classpath, and logs which one is missing at startup
//! (apache/flink@release-1.20.0:flink-runtime/src/main/java/org/apache/flink/runtime/dispatcher/DispatcherRestEndpoint.java).
//! A boolean is read case-insensitively (ConfigurationUtils.convertToBoolean, same tag).

use super::*;
use crate::rules::support::containers::logs_command;
use crate::rules::support::flink_image::flink_image;

/// The option and its deprecated key; the first one set wins (Flink reads fallback keys only
/// when the option's own key is absent).
const KEYS: [&str; 2] = ["web.submit.enable", "jobmanager.web.submit.enable"];

/// What the JobManager logs at startup when web submission is off, and why.
const DISABLED_LINE: &str = "Web-based job submission is not enabled";
const NOT_IN_CLASSPATH_LINE: &str = "Failed to load web based job submission extension";

/// Flink's main container (`Constants.MAIN_CONTAINER_NAME`).
const MAIN_CONTAINER: &str = "flink-main-container";

/// The fix for a session job the session cluster `fd` refused the jar upload of.
pub(super) fn fit(
    snapshot: &Snapshot,
    v: &View,
    fd: &FlinkDeployment,
    jm_pods: &[&Pod],
) -> Option<String> {
    if v.kind != "FlinkSessionJob" {
        return None;
    }
    let (cluster, ns) = (fd.name(), fd.namespace());
    let conf = &fd.spec.flink_configuration;
    let is = |k: &str, want: &str| {
        conf.get(k)
            .is_some_and(|x| x.trim().eq_ignore_ascii_case(want))
    };
    let effective = KEYS.iter().find(|k| conf.contains_key(**k));
    if let Some(key) = effective.filter(|k| is(k, "false")) {
        // Every key that says false goes, so the deprecated one cannot take over.
        let ops: Vec<serde_json::Value> = KEYS
            .iter()
            .filter(|k| is(k, "false"))
            .map(|k| {
                serde_json::json!({"op": "remove", "path": crate::shell::pointer(&["spec", "flinkConfiguration", k])})
            })
            .collect();
        let patch = serde_json::Value::Array(ops).to_string();
        return Some(format!(
            "FlinkDeployment {cluster}, the session cluster of {kind} {name}, sets spec.flinkConfiguration \
             `{key}: {value}`, so its JobManager serves no jar upload, and the operator submits a session job \
             by uploading its jar. Remove the option (web submission is on by default); the operator redeploys \
             the session cluster with it and submits the job again:\n\n  \
             kubectl patch flinkdeployment {cluster_q} -n {ns_q} --type=json -p {patch_q}",
            kind = v.kind,
            name = v.name,
            value = conf[*key],
            cluster_q = sh(cluster),
            ns_q = sh(ns),
            patch_q = sh(&patch),
        ));
    }
    // The spec leaves web submission on: the JobManager's log says what turned it off.
    let pod = jm_pods.first().copied();
    let logged = |line: &str| {
        pod.is_some_and(|p| {
            [false, true].iter().any(|&prev| {
                snapshot
                    .log(ns, pod_name(p), MAIN_CONTAINER, prev)
                    .is_some_and(|t| t.contains(line))
            })
        })
    };
    let logs = match pod {
        Some(p) => logs_command(ns, pod_name(p), MAIN_CONTAINER, false),
        None => format!(
            "kubectl logs -n {} -l {} -c {MAIN_CONTAINER}",
            sh(ns),
            sh(&crate::flink::mode::Mode::Operator.selector(
                Some(cluster),
                Some(crate::flink::mode::Component::JobManager)
            ))
        ),
    };
    let grep = format!("{logs} | grep -i 'web.based job submission'");
    if logged(DISABLED_LINE) && !is(KEYS[0], "true") {
        // Off, and not by the spec: the operator's default configuration (or an image's own
        // configuration) does it; the spec's value overrides both.
        let patch =
            serde_json::json!({"spec": {"flinkConfiguration": {KEYS[0]: "true"}}}).to_string();
        return Some(format!(
            "The JobManager of FlinkDeployment {cluster}, the session cluster of {kind} {name}, logs \
             `{DISABLED_LINE}.`: web submission is off although its spec.flinkConfiguration does not turn it off \
             (the operator's default configuration does, or `{deprecated}` elsewhere), and the operator submits a \
             session job by uploading its jar. Turn it on in the spec, which overrides both:\n\n  \
             kubectl patch flinkdeployment {cluster_q} -n {ns_q} --type=merge -p {patch_q}\n\n\
             The JobManager's line:\n\n  {grep}",
            kind = v.kind,
            name = v.name,
            deprecated = KEYS[1],
            cluster_q = sh(cluster),
            ns_q = sh(ns),
            patch_q = sh(&patch),
        ));
    }
    let image = fd
        .spec
        .image
        .as_deref()
        .unwrap_or("(spec.image is not set)");
    let official = flink_image(fd.spec.flink_version.as_deref(), fd.spec.image.as_deref());
    let (lacks, tell) = if logged(NOT_IN_CLASSPATH_LINE) {
        (
            format!(
                "has no flink-runtime-web in /opt/flink/lib: its JobManager logs `{NOT_IN_CLASSPATH_LINE}. \
                 Probable reason: flink-runtime-web is not in the classpath.`"
            ),
            "The JobManager's line".to_string(),
        )
    } else {
        (
            "most likely has no flink-runtime-web in /opt/flink/lib: its spec.flinkConfiguration leaves web \
             submission on (`web.submit.enable` is true by default)"
                .to_string(),
            format!(
                "The JobManager says which at startup: `{NOT_IN_CLASSPATH_LINE}` for the image; \
                 `{DISABLED_LINE}` for the option, set off outside the spec (the operator's default \
                 configuration), which `web.submit.enable: \"true\"` in spec.flinkConfiguration overrides"
            ),
        )
    };
    Some(format!(
        "The image of FlinkDeployment {cluster}, the session cluster of {kind} {name}, {lacks}. Without it the \
         JobManager serves no jar upload, and the operator submits a session job by uploading its jar. spec.image \
         is {image}: build it FROM the official image of its Flink (`FROM {official}`, whose flink-dist jar carries \
         flink-runtime-web), or add flink-runtime-web-<version>.jar of its Flink version to /opt/flink/lib, and \
         point spec.image at that image. {tell}:\n\n  {grep}",
        kind = v.kind,
        name = v.name,
    ))
}
