//! Looking up the objects of an installation (Secrets, Services, CRDs, cert-manager's objects,
//! events) and what could not be read.

use super::*;

/// Whether a read of `resource` in `ns` (or cluster-wide) failed, so absence proves nothing.
/// Whether the absence of `resource` objects proves nothing: listing them failed (a gap), or the
/// bundle does not hold that kind at all.
pub fn unreadable(s: &Snapshot, group: &str, resource: &str, ns: Option<&str>) -> bool {
    !s.holds_resource(resource)
        || s.gaps.iter().any(|g| {
            g.group == group
                && g.resource.split('/').next() == Some(resource)
                && g.reason != GapReason::NotInstalled
                && (g.namespace.is_none() || g.namespace.as_deref() == ns)
        })
}

pub fn secret<'a>(s: &'a Snapshot, ns: &str, name: &str) -> Option<&'a Secret> {
    s.secrets.iter().find(|x| {
        x.metadata.namespace.as_deref() == Some(ns) && x.metadata.name.as_deref() == Some(name)
    })
}

pub fn secret_data<'a>(secret: &'a Secret, key: &str) -> Option<&'a [u8]> {
    secret.data.as_ref()?.get(key).map(|b| b.0.as_slice())
}

pub fn service<'a>(s: &'a Snapshot, ns: &str, name: &str) -> Option<&'a Service> {
    s.services.iter().find(|x| {
        x.metadata.namespace.as_deref() == Some(ns) && x.metadata.name.as_deref() == Some(name)
    })
}

/// Whether the snapshot saw the CRDs: some were read and none failed. CRD absence is concluded
/// only then.
pub fn crds_read(s: &Snapshot) -> bool {
    s.install_checked
        && !s.crds.is_empty()
        && !unreadable(s, "apiextensions.k8s.io", "customresourcedefinitions", None)
}

pub fn crd_present(s: &Snapshot, name: &str) -> bool {
    s.crds
        .iter()
        .any(|c| c.metadata.name.as_deref() == Some(name))
}

/// cert-manager installed? `None` when the snapshot cannot tell.
pub fn cert_manager_installed(s: &Snapshot) -> Option<bool> {
    if crd_present(s, CERT_MANAGER_CRD) || !s.cert_manager_objects.is_empty() {
        Some(true)
    } else if crds_read(s) {
        Some(false)
    } else {
        None
    }
}

pub fn cert_manager_object<'a>(
    s: &'a Snapshot,
    kind: &str,
    ns: &str,
    name: &str,
) -> Option<&'a Value> {
    s.cert_manager_objects.iter().find(|v| {
        v.get("kind").and_then(Value::as_str) == Some(kind)
            && v.pointer("/metadata/name").and_then(Value::as_str) == Some(name)
            && (kind == "ClusterIssuer"
                || v.pointer("/metadata/namespace").and_then(Value::as_str) == Some(ns))
    })
}

/// The Certificate that makes the webhook's TLS Secret in `ns`: the one a webhook's
/// `inject-ca-from` names, else the chart's name.
pub fn certificate<'a>(s: &'a Snapshot, ns: &str) -> Option<&'a Value> {
    let named: Vec<&str> = flink_hooks(s)
        .iter()
        .filter_map(|h| h.inject_ca_from())
        .filter(|(n, _)| *n == ns)
        .map(|(_, c)| c)
        .collect();
    named
        .into_iter()
        .chain([CERTIFICATE])
        .find_map(|name| cert_manager_object(s, "Certificate", ns, name))
}

/// The Ready condition of a cert-manager object: (status, reason, message).
pub fn ready_condition(v: &Value) -> Option<(String, String, String)> {
    let conds = v.pointer("/status/conditions")?.as_array()?;
    let c = conds
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))?;
    let f = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    Some((f("status"), f("reason"), f("message")))
}

/// The name of the webhook's TLS Secret in `ns`: the operator's keystore volume, else the
/// Certificate's `secretName`, else the chart's.
pub fn tls_secret_name(s: &Snapshot, ns: &str) -> String {
    if let Some(name) = operator_in(s, ns).and_then(|o| o.tls_secret()) {
        return name.to_string();
    }
    certificate(s, ns)
        .and_then(|c| c.pointer("/spec/secretName"))
        .and_then(Value::as_str)
        .unwrap_or(TLS_SECRET)
        .to_string()
}

/// The serving certificate chain of the installation in `ns` (`tls.crt` of its TLS Secret), with
/// the Secret's name: `None` when the Secret or its `tls.crt` is not in the snapshot.
pub fn serving_chain(
    s: &Snapshot,
    ns: &str,
) -> Option<(String, Result<Vec<x509::Cert>, x509::CertError>)> {
    let name = tls_secret_name(s, ns);
    let bytes = secret_data(secret(s, ns, &name)?, "tls.crt")?;
    let parsed = x509::parse_pem(bytes).and_then(|c| {
        if c.is_empty() {
            Err(x509::CertError::Empty("tls.crt"))
        } else {
            Ok(c)
        }
    });
    Some((name, parsed))
}

/// Events in `ns`, oldest first.
pub fn events_in<'a>(s: &'a Snapshot, ns: &str) -> Vec<&'a Event> {
    let mut out: Vec<&Event> = s
        .events
        .iter()
        .filter(|e| {
            e.metadata.namespace.as_deref() == Some(ns)
                || e.involved_object.namespace.as_deref() == Some(ns)
        })
        .collect();
    out.sort_by_key(|e| crate::snapshot::index::event_time(e));
    out
}

/// `event FailedMount on Pod/x (x12, last 2026-11-20 10:05:00 UTC): MountVolume.SetUp failed ...`
pub fn event_line(e: &Event) -> String {
    let o = &e.involved_object;
    let mut meta = Vec::new();
    if let Some(c) = e.count.filter(|c| *c > 1) {
        meta.push(format!("x{c}"));
    }
    if let Some(t) = crate::snapshot::index::event_time(e) {
        meta.push(format!("last {}", t.format("%Y-%m-%d %H:%M:%S UTC")));
    }
    let meta = if meta.is_empty() {
        String::new()
    } else {
        format!(" ({})", meta.join(", "))
    };
    format!(
        "event {} on {}/{}{meta}: {}",
        e.reason.as_deref().unwrap_or("?"),
        o.kind.as_deref().unwrap_or("?"),
        o.name.as_deref().unwrap_or("?"),
        crate::error::one_line(e.message.as_deref().unwrap_or("")).trim()
    )
}

/// Events in `ns` whose message mentions `needle` (a Secret's name, a volume).
pub fn events_mentioning<'a>(s: &'a Snapshot, ns: &str, needle: &str) -> Vec<&'a Event> {
    events_in(s, ns)
        .into_iter()
        .filter(|e| e.message.as_deref().is_some_and(|m| m.contains(needle)))
        .collect()
}

/// Time since an object was created, against the snapshot's "now".
pub fn age(s: &Snapshot, meta: &ObjectMeta) -> Option<Duration> {
    let created: DateTime<Utc> = meta.creation_timestamp.as_ref().and_then(to_utc)?;
    Some(s.captured_at - created)
}

/// Flink resources (FlinkDeployments, FlinkSessionJobs) nothing has reconciled: no status, or a
/// status without a lifecycle state, `min_age` seconds after creation. (kind, ns, name, age)
pub fn unreconciled(s: &Snapshot, min_age: i64) -> Vec<(&'static str, &str, &str, Duration)> {
    let mut out = Vec::new();
    for fd in &s.flink_deployments {
        let empty = fd.status.as_ref().is_none_or(|st| {
            st.lifecycle_state.is_none()
                && st.job_manager_deployment_status.is_none()
                && st.reconciliation_status.is_none()
        });
        if let Some(a) = age(s, &fd.metadata).filter(|a| empty && a.num_seconds() >= min_age) {
            out.push(("FlinkDeployment", fd.namespace(), fd.name(), a));
        }
    }
    for j in &s.flink_session_jobs {
        let empty = j
            .status
            .as_ref()
            .is_none_or(|st| st.lifecycle_state.is_none() && st.job_status.is_none());
        if let Some(a) = age(s, &j.metadata).filter(|a| empty && a.num_seconds() >= min_age) {
            out.push(("FlinkSessionJob", j.namespace(), j.name(), a));
        }
    }
    out
}
