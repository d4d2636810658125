//! The installation layer (issue 6) end to end: the offline scenario bundles under
//! `tests/scenarios/install-*` diagnosed by the real binary, Secrets never leaking into any output
//! or saved bundle, and the same scenarios seeded into the real test cluster
//! (`scripts/test-cluster.sh run cargo test --test install_e2e`).
//!
//! Without the cluster the live tests FAIL when `CI` is set and print a loud SKIPPED otherwise;
//! the offline tests always run.
//!
//! The scenarios are generated once by the ignored test `regenerate_install_scenarios` (it makes
//! fresh certificates with rcgen; private keys never leave memory, only public certificates are
//! written) and committed. Regenerate with:
//!
//!     cargo test --test install_e2e -- --ignored regenerate_install_scenarios
//!
//! Live, the webhook configurations are scoped to each scenario's own namespace
//! (`namespaceSelector`), fail open (`failurePolicy: Ignore`) and time out after 2 s, so a broken
//! one never blocks another test's Flink resources; and every case is removed again after it ran,
//! since the installation layer is cluster-wide by nature (an operator, webhooks and CRDs serve
//! every namespace).

mod common;
use common::{env_path, no_cluster, repo};

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};

const PLUGIN: &str = env!("CARGO_BIN_EXE_kubectl-flink");
const SOURCE_ANNOTATION: &str = "kubectl-flink.test/crd-source";

fn scenario(dir: &str) -> PathBuf {
    repo().join("tests/scenarios").join(dir)
}

// ------------------------------------------------------------------------------ the scenarios

/// What each scenario must be diagnosed as: the root cause's category and a piece of its fix.
struct Expect {
    dir: &'static str,
    namespaces: &'static [&'static str],
    /// None: no finding at all.
    root: Option<&'static str>,
    /// Text the root finding's fix must contain, offline.
    fix: &'static str,
    /// Text the root's fix must contain live (None: same as offline).
    live_fix: Option<&'static str>,
    /// Categories that must be present as symptoms of the root (caused_by set).
    symptoms: &'static [&'static str],
}

const CASES: &[Expect] = &[
    Expect {
        dir: "install-healthy",
        namespaces: &["install-healthy-op", "install-healthy-apps"],
        root: None,
        fix: "",
        live_fix: None,
        symptoms: &[],
    },
    // The same installation with v1 Endpoints instead of EndpointSlices (what other tools save);
    // the seeder adds the EndpointSlice a real control plane keeps beside them.
    Expect {
        dir: "install-endpoints-no-slices",
        namespaces: &["install-healthy-op", "install-healthy-apps"],
        root: None,
        fix: "",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-no-cert-manager",
        namespaces: &["install-nocm-op", "install-nocm-apps"],
        root: Some("cert_manager_missing"),
        fix: "cert-manager/releases/download/v1.18.2/cert-manager.yaml",
        live_fix: None,
        symptoms: &["webhook_secret_missing", "operator_not_running", "webhook_unreachable", "webhook_cert_invalid"],
    },
    Expect {
        dir: "install-missing-tls-secret",
        namespaces: &["install-notls-op", "install-notls-apps"],
        root: Some("webhook_secret_missing"),
        fix: "kubectl describe certificate flink-operator-serving-cert -n install-notls-op",
        live_fix: None,
        symptoms: &["operator_not_running", "webhook_unreachable"],
    },
    Expect {
        dir: "install-blank-cabundle",
        namespaces: &["install-blankca-op", "install-blankca-apps"],
        root: Some("webhook_cert_invalid"),
        fix: "/clientConfig/caBundle",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-other-ca",
        namespaces: &["install-otherca-op", "install-otherca-apps"],
        root: Some("webhook_cert_invalid"),
        fix: "CA=$(kubectl get secret webhook-server-cert -n install-otherca-op",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-expired-cert",
        namespaces: &["install-expired-op", "install-expired-apps"],
        root: Some("webhook_cert_expired"),
        fix: "Nothing renews this certificate",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-wrong-san",
        namespaces: &["install-wrongsan-op", "install-wrongsan-apps"],
        root: Some("webhook_cert_invalid"),
        fix: "kubectl patch certificate flink-operator-serving-cert -n install-wrongsan-op --type=merge",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-no-endpoints",
        namespaces: &["install-noep-op", "install-noep-apps"],
        root: Some("webhook_unreachable"),
        fix: "\"path\":\"/spec/selector\"",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-not-watching",
        namespaces: &["install-nowatch-op", "install-nowatch-apps", "install-nowatch-jobs"],
        root: Some("operator_not_watching_namespace"),
        fix: "--set 'watchNamespaces={install-nowatch-apps,install-nowatch-jobs}'",
        live_fix: None,
        symptoms: &[],
    },
    Expect {
        dir: "install-missing-crd",
        namespaces: &["install-nocrd-op", "install-nocrd-apps"],
        root: Some("crd_missing"),
        fix: "crds/flinksessionjobs.flink.apache.org-v1.yml",
        // Live, the 404 on listing FlinkSessionJobs says it first (FLK901), with its own fix.
        live_fix: Some("helm"),
        symptoms: &[],
    },
    Expect {
        dir: "install-crd-skew",
        namespaces: &["install-skew-op", "install-skew-apps"],
        root: Some("crd_version_mismatch"),
        fix: "kubectl apply --server-side --force-conflicts -f /tmp/flink-operator-chart/flink-kubernetes-operator/crds/",
        live_fix: None,
        symptoms: &[],
    },
];

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn plugin(kubeconfig: Option<&Path>, args: &[&str]) -> Run {
    let mut cmd = Command::new(PLUGIN);
    cmd.args(args).env("NO_COLOR", "1").stdin(Stdio::null());
    match kubeconfig {
        Some(k) => cmd.env("KUBECONFIG", k),
        None => cmd.env("KUBECONFIG", "/nonexistent/kubeconfig"),
    };
    let out = cmd.output().expect("run kubectl-flink");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn report(run: &Run) -> Vec<Value> {
    let v: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}); exit {}\nstdout:\n{}\nstderr:\n{}",
            run.code, run.stdout, run.stderr
        )
    });
    v.get("findings")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn s<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr).and_then(Value::as_str).unwrap_or("")
}

/// The findings about a scenario: objects or deployments in its namespaces, its webhook
/// configurations (named after the operator's namespace), and Flink CRDs.
fn related<'a>(all: &'a [Value], case: &Expect) -> Vec<&'a Value> {
    all.iter()
        .filter(|f| {
            let ns = f.pointer("/object/namespace").and_then(Value::as_str);
            let dep = f.pointer("/deployment/namespace").and_then(Value::as_str);
            let name = s(f, "/object/name");
            ns.is_some_and(|n| case.namespaces.contains(&n))
                || dep.is_some_and(|n| case.namespaces.contains(&n))
                || (ns.is_none()
                    && case
                        .namespaces
                        .iter()
                        .any(|n| name.contains(&format!("-{n}-"))))
                || (ns.is_none()
                    && name.ends_with(".flink.apache.org")
                    && case.root.is_some_and(|r| r.starts_with("crd_")))
        })
        .collect()
}

fn describe(fs: &[&Value]) -> String {
    fs.iter()
        .map(|f| {
            format!(
                "{} {} {}/{} caused_by={}",
                s(f, "/rule"),
                s(f, "/category"),
                s(f, "/object/kind"),
                s(f, "/object/name"),
                s(f, "/causedBy")
            )
        })
        .collect::<Vec<_>>()
        .join("\n  ")
}

/// Checks one diagnosis of a scenario against what it must be.
fn check(case: &Expect, all: &[Value], live: bool) -> Result<(), String> {
    let mine = related(all, case);
    let Some(root) = case.root else {
        return if mine.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}: a healthy installation, yet:\n  {}",
                case.dir,
                describe(&mine)
            ))
        };
    };
    let roots: Vec<&Value> = mine
        .iter()
        .copied()
        .filter(|f| f.get("causedBy").is_none_or(Value::is_null))
        .collect();
    let Some(first) = roots.first() else {
        return Err(format!("{}: no finding; want {root}", case.dir));
    };
    if s(first, "/category") != root {
        return Err(format!(
            "{}: the first root is {}, want {root}:\n  {}",
            case.dir,
            s(first, "/category"),
            describe(&mine)
        ));
    }
    let want_fix = if live {
        case.live_fix.unwrap_or(case.fix)
    } else {
        case.fix
    };
    if !s(first, "/fix").contains(want_fix) {
        return Err(format!(
            "{}: the fix lacks `{want_fix}`:\n{}",
            case.dir,
            s(first, "/fix")
        ));
    }
    if s(first, "/verify").is_empty() || s(first, "/evidence/0").is_empty() {
        return Err(format!(
            "{}: the root has no evidence or verify command: {first:#}",
            case.dir
        ));
    }
    for symptom in case.symptoms {
        let found = mine.iter().any(|f| {
            s(f, "/category") == *symptom && f.get("causedBy").is_some_and(|c| !c.is_null())
        });
        if !found {
            return Err(format!(
                "{}: no {symptom} explained by the root:\n  {}",
                case.dir,
                describe(&mine)
            ));
        }
    }
    // Nothing in the scenario is left unexplained beside its one root (and the roots that
    // share its category: one per webhook configuration).
    let stray: Vec<&Value> = roots
        .iter()
        .copied()
        .filter(|f| s(f, "/category") != root)
        .collect();
    if !stray.is_empty() {
        return Err(format!(
            "{}: other root causes beside {root}:\n  {}",
            case.dir,
            describe(&mine)
        ));
    }
    Ok(())
}

#[test]
fn every_install_scenario_is_diagnosed_offline() {
    let mut errors = Vec::new();
    for case in CASES {
        let dir = scenario(case.dir);
        let run = plugin(
            None,
            &["doctor", "--from", &dir.to_string_lossy(), "-o", "json"],
        );
        let all = report(&run);
        if let Err(e) = check(case, &all, false) {
            errors.push(e);
        }
        let want = if case.root.is_some() { 1 } else { 0 };
        if run.code != want {
            errors.push(format!(
                "{}: exit {} (want {want})\n{}",
                case.dir, run.code, run.stderr
            ));
        }
        // Every finding of the bundle belongs to the scenario.
        let mine = related(&all, case).len();
        if mine != all.len() {
            errors.push(format!(
                "{}: {} finding(s) outside its namespaces",
                case.dir,
                all.len() - mine
            ));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}

#[test]
fn a_bundle_without_the_installation_says_nothing_about_it() {
    // The healthy scenario's Flink resources alone (no operator, CRDs or webhooks): no
    // install-layer finding, however the resources look.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        scenario("install-no-cert-manager").join("flink.yaml"),
        tmp.path().join("flink.yaml"),
    )
    .unwrap();
    std::fs::copy(
        scenario("install-no-cert-manager").join("namespaces.yaml"),
        tmp.path().join("namespaces.yaml"),
    )
    .unwrap();
    let run = plugin(
        None,
        &[
            "doctor",
            "--from",
            &tmp.path().to_string_lossy(),
            "-o",
            "json",
        ],
    );
    let install: Vec<Value> = report(&run)
        .into_iter()
        .filter(|f| s(f, "/layer") == "install")
        .collect();
    assert!(install.is_empty(), "{install:#?}");
}

// ------------------------------------------------------------------------- secrets never leak

/// What is planted in the Secrets: none of it may appear anywhere.
struct Planted {
    password: String,
    key_pem: String,
    keystore: Vec<u8>,
}

fn b64(bytes: &[u8]) -> String {
    serde_json::to_value(k8s_openapi::ByteString(bytes.to_vec()))
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

impl Planted {
    fn new() -> Self {
        let key = rcgen::KeyPair::generate().unwrap();
        Planted {
            password: "kf-planted-password-5e1d9b".into(),
            key_pem: key.serialize_pem(),
            keystore: b"\x30\x82\x0a\x1fPKCS12-keystore-planted-bytes-7c4e".to_vec(),
        }
    }

    /// The strings that would show a leak: the password and its base64, the key's base64 body
    /// lines and its own base64, the keystore's base64.
    fn markers(&self) -> Vec<String> {
        let mut m = vec![
            self.password.clone(),
            b64(self.password.as_bytes()),
            b64(&self.keystore),
            "PRIVATE KEY".into(),
        ];
        m.extend(
            self.key_pem
                .lines()
                .filter(|l| !l.starts_with("-----") && l.len() > 20)
                .map(str::to_string),
        );
        let whole = b64(self.key_pem.as_bytes());
        m.push(whole[..40].to_string());
        m
    }

    /// The healthy scenario with the chart's Secrets as they really are: the TLS Secret with its
    /// private key and keystore, the password Secret with its password (also in stringData and
    /// the last-applied annotation), plus an unrelated Secret in the apps namespace.
    fn bundle(&self, into: &Path) {
        let src = scenario("install-healthy");
        for e in std::fs::read_dir(&src).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() && p.file_name().is_some_and(|n| n != "secrets.yaml") {
                std::fs::copy(&p, into.join(p.file_name().unwrap())).unwrap();
            }
        }
        let secrets = std::fs::read_to_string(src.join("secrets.yaml")).unwrap();
        let tls_crt = secrets
            .lines()
            .find_map(|l| l.trim().strip_prefix("tls.crt: "))
            .expect("the healthy scenario's tls.crt")
            .to_string();
        let yaml = format!(
            r#"apiVersion: v1
kind: Secret
metadata:
  name: webhook-server-cert
  namespace: install-healthy-op
type: kubernetes.io/tls
data:
  tls.crt: {tls_crt}
  ca.crt: {tls_crt}
  tls.key: {key}
  keystore.p12: {keystore}
---
apiVersion: v1
kind: Secret
metadata:
  name: flink-operator-webhook-secret
  namespace: install-healthy-op
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{{"apiVersion":"v1","kind":"Secret","data":{{"password":"{pw64}"}},"stringData":{{"password":"{pw}"}}}}'
type: Opaque
data:
  password: {pw64}
---
apiVersion: v1
kind: Secret
metadata:
  name: orders-credentials
  namespace: install-healthy-apps
type: Opaque
stringData:
  password: {pw}
  private.pem: {key_line}
"#,
            key = b64(self.key_pem.as_bytes()),
            keystore = b64(&self.keystore),
            pw = self.password,
            pw64 = b64(self.password.as_bytes()),
            key_line = serde_json::to_string(&self.key_pem).unwrap(),
        );
        std::fs::write(into.join("secrets.yaml"), yaml).unwrap();
    }

    fn assert_absent(&self, what: &str, text: &str) {
        for m in self.markers() {
            assert!(
                !text.contains(&m),
                "{what} leaks a planted secret ({m:.30}…):\n{text:.2000}"
            );
        }
    }

    fn assert_absent_in_dir(&self, dir: &Path) {
        let mut files = vec![dir.to_path_buf()];
        let mut seen = 0;
        while let Some(p) = files.pop() {
            if p.is_dir() {
                files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else {
                seen += 1;
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                self.assert_absent(&p.display().to_string(), &text);
            }
        }
        assert!(seen > 0, "nothing was saved in {}", dir.display());
    }
}

#[test]
fn planted_secrets_appear_in_no_output_and_no_saved_bundle_offline() {
    let planted = Planted::new();
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("bundle");
    std::fs::create_dir(&bundle).unwrap();
    planted.bundle(&bundle);
    let from = bundle.to_string_lossy().to_string();
    for format in ["json", "table", "markdown"] {
        let run = plugin(None, &["doctor", "--from", &from, "-o", format, "-vv"]);
        assert!(
            run.code == 0 || run.code == 1,
            "doctor -o {format}: exit {}\n{}",
            run.code,
            run.stderr
        );
        planted.assert_absent(&format!("doctor -o {format} (stdout)"), &run.stdout);
        planted.assert_absent(&format!("doctor -o {format} (stderr)"), &run.stderr);
    }
    // What `--save` writes, from the same snapshot.
    let s = kubectl_flink::snapshot::bundle::load(&bundle).unwrap();
    assert!(s.secrets.iter().all(|x| x.string_data.is_none()
        && x.data
            .as_ref()
            .is_none_or(|d| d.keys().all(|k| k == "tls.crt" || k == "ca.crt"))));
    let saved = tmp.path().join("saved");
    kubectl_flink::snapshot::bundle::save(&s, &saved).unwrap();
    planted.assert_absent_in_dir(&saved);
    // The healthy scenario stays healthy with its real Secrets.
    let run = plugin(None, &["doctor", "--from", &from, "-o", "json"]);
    let all = report(&run);
    assert!(all.is_empty(), "{all:#?}");
}

// --------------------------------------------------------------------------------- live

struct Harness {
    admin: PathBuf,
    e2e: PathBuf,
    kubectl: PathBuf,
    script: PathBuf,
    crds: Option<PathBuf>,
}

fn harness(test: &str) -> Option<Harness> {
    let found = (|| -> Result<Harness, String> {
        env_path("KUBE_HARNESS_DIR").ok_or("KUBE_HARNESS_DIR is not set")?;
        let need = |n: &str| {
            env_path(n)
                .filter(|p| p.exists())
                .ok_or(format!("{n} is not set or missing"))
        };
        let admin = need("KUBECONFIG")?;
        Ok(Harness {
            e2e: env_path("KUBE_E2E_KUBECONFIG")
                .filter(|p| p.exists())
                .unwrap_or_else(|| admin.clone()),
            admin,
            kubectl: need("KUBE_HARNESS_KUBECTL")?,
            script: repo().join("scripts/test-cluster.sh"),
            crds: env_path("KUBE_HARNESS_CRDS"),
        })
    })();
    match found {
        Ok(h) => Some(h),
        Err(why) => {
            no_cluster("install_e2e", test, &why);
            None
        }
    }
}

/// One test at a time holds the cluster: the installation is cluster-wide.
fn cluster_lock() -> MutexGuard<'static, ()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    LOCK.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

impl Harness {
    fn kubectl(&self, args: &[&str]) -> Run {
        let out = Command::new(&self.kubectl)
            .args(args)
            .env("KUBECONFIG", &self.admin)
            .stdin(Stdio::null())
            .output()
            .expect("run kubectl");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Seeds a scenario, webhooks included, into a cluster reset to what `up` left (`--reset`
    /// removes whatever earlier seeds made, this test's previous case included). The cluster
    /// keeps its real Flink CRDs: the bundle's stand-ins are left out of the copy that is seeded.
    fn seed(&self, bundle: &Path) -> Result<(), String> {
        let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
        copy_without_flink_crds(bundle, tmp.path())?;
        let out = Command::new(&self.script)
            .arg("seed")
            .arg("--reset")
            .arg(tmp.path())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("run {}: {e}", self.script.display()))?;
        if !out.status.success() {
            return Err(format!(
                "seed {}: {}{}",
                bundle.display(),
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
            ));
        }
        Ok(())
    }

    /// Removes what the last case seeded, so no later test sees this installation (the next
    /// `seed --reset` would too): its namespaces' objects, its webhook configurations, and the
    /// cert-manager stand-in CRDs.
    fn clean(&self, case: &Expect) {
        for ns in case.namespaces {
            self.kubectl(&[
                "delete",
                "deployments,pods,services,endpointslices,configmaps,secrets,events,serviceaccounts,flinkdeployments",
                "--all",
                "-n",
                ns,
                "--grace-period=0",
                "--force",
                "--wait=false",
            ]);
            self.kubectl(&[
                "delete",
                "certificates.cert-manager.io,issuers.cert-manager.io",
                "--all",
                "-n",
                ns,
                "--wait=false",
            ]);
        }
        for ns in case.namespaces {
            let name = format!("flink-operator-{ns}-webhook-configuration");
            self.kubectl(&[
                "delete",
                "validatingwebhookconfiguration,mutatingwebhookconfiguration",
                &name,
                "--ignore-not-found",
            ]);
        }
        self.remove_cert_manager_stand_ins();
    }

    /// cert-manager CRDs a seed created (never a real cert-manager's: only those the seeder marked).
    fn remove_cert_manager_stand_ins(&self) {
        for crd in ["certificates.cert-manager.io", "issuers.cert-manager.io"] {
            let r = self.kubectl(&["get", "crd", crd, "-o", "json", "--ignore-not-found"]);
            let Ok(v) = serde_json::from_str::<Value>(&r.stdout) else {
                continue;
            };
            let marked = v
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(SOURCE_ANNOTATION))
                .is_some();
            if marked {
                self.kubectl(&["delete", "crd", crd, "--wait=true", "--timeout=60s"]);
            }
        }
    }

    fn delete_crd(&self, name: &str) -> Result<(), String> {
        let r = self.kubectl(&[
            "delete",
            "crd",
            name,
            "--ignore-not-found",
            "--wait=true",
            "--timeout=90s",
        ]);
        if r.code != 0 {
            return Err(format!("delete crd {name}: {}", r.stderr));
        }
        Ok(())
    }

    /// Puts a Flink CRD back from the operator's release CRDs, marked as the seeder marks them.
    fn restore_crd(&self, name: &str) -> Result<(), String> {
        let dir = self
            .crds
            .clone()
            .unwrap_or_else(|| repo().join("src/lint/crds"));
        let file = dir.join(format!("{name}-v1.yml"));
        let r = self.kubectl(&[
            "apply",
            "--server-side",
            "--force-conflicts",
            "--field-manager=kubectl-flink-seed",
            "-f",
            &file.to_string_lossy(),
        ]);
        if r.code != 0 {
            return Err(format!("restore crd {name}: {}", r.stderr));
        }
        self.kubectl(&[
            "annotate",
            "crd",
            name,
            &format!("{SOURCE_ANNOTATION}=fixtures"),
            "--overwrite",
        ]);
        let r = self.kubectl(&[
            "wait",
            "--for=condition=Established",
            &format!("crd/{name}"),
            "--timeout=60s",
        ]);
        if r.code != 0 {
            return Err(format!("crd {name} not Established: {}", r.stderr));
        }
        Ok(())
    }

    fn doctor(&self, args: &[&str]) -> Run {
        plugin(Some(&self.e2e), args)
    }
}

fn copy_without_flink_crds(from: &Path, to: &Path) -> Result<(), String> {
    for e in std::fs::read_dir(from).map_err(|e| e.to_string())? {
        let p = e.map_err(|e| e.to_string())?.path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| e.to_string())?;
            copy_without_flink_crds(&p, &target)?;
        } else if p.extension().is_some_and(|x| x == "yaml") {
            let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
            let kept: Vec<&str> = text
                .split("\n---\n")
                .filter(|doc| {
                    !(doc.contains("kind: CustomResourceDefinition")
                        && doc.contains("group: flink.apache.org"))
                })
                .collect();
            std::fs::write(&target, kept.join("\n---\n")).map_err(|e| e.to_string())?;
        } else if p.file_name().is_some_and(|n| n != "e2e.skip") {
            std::fs::copy(&p, &target).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A case's CRD surgery on the live cluster: which Flink CRD it must lack.
fn crd_to_remove(case: &Expect) -> Option<&'static str> {
    match case.dir {
        "install-missing-crd" => Some("flinksessionjobs.flink.apache.org"),
        "install-crd-skew" => Some("flinkstatesnapshots.flink.apache.org"),
        _ => None,
    }
}

#[test]
fn every_install_scenario_is_diagnosed_live() {
    let Some(h) = harness("every_install_scenario_is_diagnosed_live") else {
        return;
    };
    let _lock = cluster_lock();
    let mut errors = Vec::new();
    for case in CASES {
        let result = (|| -> Result<(), String> {
            h.seed(&scenario(case.dir))?;
            let removed = crd_to_remove(case);
            if let Some(crd) = removed {
                h.delete_crd(crd)?;
            }
            let run = h.doctor(&["doctor", "-A", "-o", "json"]);
            if let Some(crd) = removed {
                h.restore_crd(crd)?;
            }
            if run.code != 0 && run.code != 1 {
                return Err(format!(
                    "{}: doctor exit {}: {}",
                    case.dir, run.code, run.stderr
                ));
            }
            check(case, &report(&run), true)
        })();
        match result {
            Ok(()) => eprintln!("install e2e: {} ok", case.dir),
            Err(e) => errors.push(e),
        }
    }
    if let Some(last) = CASES.last() {
        h.clean(last);
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}

#[test]
fn planted_secrets_appear_in_no_output_and_no_saved_bundle_live() {
    let Some(h) = harness("planted_secrets_appear_in_no_output_and_no_saved_bundle_live") else {
        return;
    };
    let _lock = cluster_lock();
    let planted = Planted::new();
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("bundle");
    std::fs::create_dir(&bundle).unwrap();
    planted.bundle(&bundle);
    let healthy = CASES.iter().find(|c| c.dir == "install-healthy").unwrap();
    let result = (|| -> Result<(), String> {
        h.seed(&bundle)?;
        // The planted data really is in the cluster.
        let r = h.kubectl(&[
            "get",
            "secret",
            "flink-operator-webhook-secret",
            "-n",
            "install-healthy-op",
            "-o",
            "jsonpath={.data.password}",
        ]);
        if r.stdout.trim() != b64(planted.password.as_bytes()) {
            return Err(format!(
                "the planted password Secret is not in the cluster: {}{}",
                r.stdout, r.stderr
            ));
        }
        for format in ["json", "table", "markdown"] {
            let run = h.doctor(&["doctor", "-A", "-o", format, "-vv"]);
            if run.code != 0 && run.code != 1 {
                return Err(format!(
                    "doctor -o {format}: exit {}: {}",
                    run.code, run.stderr
                ));
            }
            planted.assert_absent(&format!("live doctor -o {format} (stdout)"), &run.stdout);
            planted.assert_absent(&format!("live doctor -o {format} (stderr)"), &run.stderr);
        }
        let saved = tmp.path().join("saved");
        let run = h.doctor(&[
            "doctor",
            "-A",
            "-o",
            "json",
            "--save",
            &saved.to_string_lossy(),
        ]);
        if run.code != 0 && run.code != 1 {
            return Err(format!("doctor --save: exit {}: {}", run.code, run.stderr));
        }
        planted.assert_absent("live doctor --save (stdout)", &run.stdout);
        planted.assert_absent_in_dir(&saved);
        // The saved bundle still holds the installation (metadata of the Secrets included).
        let names: BTreeSet<String> = std::fs::read_dir(&saved)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        for want in [
            "operator-deployments.yaml",
            "secrets.yaml",
            "validatingwebhookconfigurations.yaml",
        ] {
            if !names.contains(want) {
                return Err(format!("--save wrote no {want}: {names:?}"));
            }
        }
        Ok(())
    })();
    h.clean(healthy);
    if let Err(e) = result {
        panic!("{e}");
    }
}

// --------------------------------------------------------------------- the scenario generator

mod generate {
    //! Writes `tests/scenarios/install-*`. Certificates are made here with rcgen, self-signed like
    //! the chart's (`Issuer flink-operator-selfsigned-issuer: selfSigned`, so `ca.crt` is the
    //! certificate itself); their private keys are dropped at once and never written.

    use super::b64;
    use rcgen::{date_time_ymd, CertificateParams, DnType, KeyPair};
    use std::fmt::Write as _;

    const CHART_CN: &str = "FlinkDeployment Validator";
    const POD: &str = "flink-kubernetes-operator-6c8f9d7b5-q2w4e";
    const T_OPERATOR: &str = "2026-11-20T09:00:00Z";

    fn cert(sans: &[String], not_before: (i32, u8, u8), not_after: (i32, u8, u8)) -> String {
        let mut p = CertificateParams::new(sans.to_vec()).unwrap();
        p.distinguished_name.push(DnType::CommonName, CHART_CN);
        p.not_before = date_time_ymd(not_before.0, not_before.1, not_before.2);
        p.not_after = date_time_ymd(not_after.0, not_after.1, not_after.2);
        let key = KeyPair::generate().unwrap();
        p.self_signed(&key).unwrap().pem()
    }

    #[derive(Clone, Copy, PartialEq)]
    pub enum Cert {
        Good,
        Expired,
        WrongSan,
    }
    #[derive(Clone, Copy, PartialEq)]
    pub enum Bundle {
        Matches,
        Blank,
        OtherCa,
    }
    #[derive(Clone, Copy, PartialEq)]
    pub enum Op {
        Ready,
        Stuck,
    }

    pub struct Case {
        pub dir: &'static str,
        pub short: &'static str,
        pub about: &'static str,
        pub cert_manager: bool,
        pub annotation: bool,
        pub tls_secret: bool,
        pub cert: Cert,
        pub bundle: Bundle,
        pub op: Op,
        pub selector_ok: bool,
        pub watch_other: bool,
        pub crds: &'static [&'static str],
        pub log: Option<&'static str>,
    }

    const ALL_CRDS: &[&str] = &[
        "flinkdeployments",
        "flinksessionjobs",
        "flinkstatesnapshots",
    ];

    pub fn cases() -> Vec<Case> {
        let base = Case {
            dir: "install-healthy",
            short: "healthy",
            about: "",
            cert_manager: true,
            annotation: true,
            tls_secret: true,
            cert: Cert::Good,
            bundle: Bundle::Matches,
            op: Op::Ready,
            selector_ok: true,
            watch_other: false,
            crds: ALL_CRDS,
            log: None,
        };
        vec![
            Case {
                about: "A healthy installation of the Flink Kubernetes Operator 1.15.0 (chart defaults, watchNamespaces set): \
                        cert-manager with a Ready Certificate, the TLS and password Secrets, both webhook configurations \
                        with a caBundle that verifies the serving certificate, the Service with a ready endpoint, and a \
                        running FlinkDeployment. Diagnosis: no finding.",
                ..base
            },
            Case {
                dir: "install-no-cert-manager",
                short: "nocm",
                about: "cert-manager is not installed, but the chart's webhook expects it (inject-ca-from). No Certificate, \
                        so no Secret webhook-server-cert: the operator pod stays ContainerCreating (FailedMount), the \
                        webhook Service has no endpoint and caBundle was never injected; the FlinkDeployment is never \
                        reconciled. Diagnosis: cert_manager_missing, with the rest of the chain as its symptoms.",
                cert_manager: false,
                tls_secret: false,
                bundle: Bundle::Blank,
                op: Op::Stuck,
                ..base
            },
            Case {
                dir: "install-missing-tls-secret",
                short: "notls",
                about: "cert-manager and its Certificate are there (still Ready from before), but the Secret \
                        webhook-server-cert was deleted and not re-issued: the operator pod is stuck in ContainerCreating \
                        with FailedMount. Diagnosis: webhook_secret_missing.",
                tls_secret: false,
                op: Op::Stuck,
                ..base
            },
            Case {
                dir: "install-blank-cabundle",
                short: "blankca",
                about: "Both webhook configurations carry caBundle `Cg==` (a lone newline): cert-manager's cainjector did \
                        not inject the CA. Diagnosis: webhook_cert_invalid.",
                bundle: Bundle::Blank,
                ..base
            },
            Case {
                dir: "install-other-ca",
                short: "otherca",
                about: "The webhook configurations trust a certificate other than the one the webhook serves (the caBundle \
                        was copied from another installation). Diagnosis: webhook_cert_invalid.",
                bundle: Bundle::OtherCa,
                ..base
            },
            Case {
                dir: "install-expired-cert",
                short: "expired",
                about: "The webhook's certificate was made by hand (no cert-manager, no inject annotation) and expired on \
                        2026-01-01. Diagnosis: webhook_cert_expired.",
                cert_manager: false,
                annotation: false,
                cert: Cert::Expired,
                ..base
            },
            Case {
                dir: "install-wrong-san",
                short: "wrongsan",
                about: "The Certificate (and so the serving certificate) names the webhook Service in namespace `default`, \
                        not the operator's: the API server dials flink-operator-webhook-service.install-wrongsan-op.svc. \
                        Diagnosis: webhook_cert_invalid.",
                cert: Cert::WrongSan,
                ..base
            },
            Case {
                dir: "install-no-endpoints",
                short: "noep",
                about: "The webhook Service selects `app: flink-operator`, a label the operator's pod does not have: no \
                        endpoint. Diagnosis: webhook_unreachable.",
                selector_ok: false,
                ..base
            },
            Case {
                dir: "install-not-watching",
                short: "nowatch",
                about: "The operator watches only install-nowatch-jobs (where it reconciles `billing`), but `orders` was \
                        created in install-nowatch-apps and never got a status. Diagnosis: operator_not_watching_namespace.",
                watch_other: true,
                ..base
            },
            Case {
                dir: "install-missing-crd",
                short: "nocrd",
                about: "The FlinkSessionJob CRD is not installed (the others are). Diagnosis: crd_missing.",
                crds: &["flinkdeployments", "flinkstatesnapshots"],
                ..base
            },
            Case {
                dir: "install-crd-skew",
                short: "skew",
                about: "Operator 1.15.0 runs with CRDs from before 1.10: no FlinkStateSnapshot CRD (helm upgrade does not \
                        update CRDs); the operator logs that it cannot watch snapshots. Diagnosis: crd_version_mismatch.",
                crds: &["flinkdeployments", "flinksessionjobs"],
                log: Some(
                    "2026-11-20 09:00:12,481 o.a.f.k.o.FlinkOperator [INFO ] Starting Flink Kubernetes Operator (1.15.0)\n\
                     2026-11-20 09:00:14,907 o.a.f.k.o.c.FlinkDeploymentController [WARN ] Could not initialize informer for snapshots as the CRD has not been installed!\n\
                     2026-11-20 09:00:15,220 o.a.f.k.o.FlinkOperator [INFO ] Operator started\n",
                ),
                ..base
            },
        ]
    }

    fn kind_of(plural: &str) -> &'static str {
        match plural {
            "flinkdeployments" => "FlinkDeployment",
            "flinksessionjobs" => "FlinkSessionJob",
            _ => "FlinkStateSnapshot",
        }
    }

    /// The files of one scenario: (name, content).
    pub fn files(c: &Case) -> Vec<(String, String)> {
        let op = format!("install-{}-op", c.short);
        let apps = format!("install-{}-apps", c.short);
        let jobs = format!("install-{}-jobs", c.short);
        let watched = if c.watch_other {
            jobs.clone()
        } else {
            apps.clone()
        };
        let host = format!("flink-operator-webhook-service.{op}.svc");
        let sans = match c.cert {
            Cert::WrongSan => vec![
                "flink-operator-webhook-service.default.svc".to_string(),
                "flink-operator-webhook-service.default.svc.cluster.local".to_string(),
            ],
            _ => vec![host.clone(), format!("{host}.cluster.local")],
        };
        let served = match c.cert {
            Cert::Expired => cert(&sans, (2025, 1, 1), (2026, 1, 1)),
            _ => cert(&sans, (2025, 1, 1), (2036, 1, 1)),
        };
        let ca_bundle = match c.bundle {
            Bundle::Matches => b64(served.as_bytes()),
            Bundle::Blank => "Cg==".to_string(),
            Bundle::OtherCa => b64(cert(&sans, (2025, 1, 1), (2036, 1, 1)).as_bytes()),
        };
        let stuck = c.op == Op::Stuck;
        let mut out = Vec::new();

        let mut readme = format!("# {}\n\n", c.dir);
        for line in textwrap(c.about, 100) {
            readme.push_str(&line);
            readme.push('\n');
        }
        readme.push_str(
            "\nGenerated by `cargo test --test install_e2e -- --ignored regenerate_install_scenarios`; the \
             certificates are public only (no private key is written). The webhook configurations are \
             scoped to this scenario's namespace, fail open and time out in 2 s, so seeding them into a \
             shared test cluster blocks nothing else. The Secrets here carry only `tls.crt`/`ca.crt`, \
             the only keys kubectl-flink ever keeps (`type: Opaque`, since `kubernetes.io/tls` would \
             need a `tls.key`).\n",
        );
        out.push(("README.md".into(), readme));
        out.push((
            "e2e.skip".into(),
            "install scenarios are seeded and checked live by tests/install_e2e.rs (webhooks, cluster-wide CRD changes)\n".into(),
        ));

        // Namespaces.
        let mut ns = String::new();
        let mut names = vec![op.clone(), apps.clone()];
        if c.watch_other {
            names.push(jobs.clone());
        }
        for (i, n) in names.iter().enumerate() {
            if i > 0 {
                ns.push_str("---\n");
            }
            write!(ns, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {n}\n  labels:\n    kubernetes.io/metadata.name: {n}\n").unwrap();
        }
        out.push(("namespaces.yaml".into(), ns));

        // CRDs: stand-ins of the chart's (the real ones are in src/lint/crds), and
        // cert-manager's Certificate CRD when it is installed.
        let mut crds = Vec::new();
        for plural in c.crds {
            let kind = kind_of(plural);
            crds.push(format!(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.flink.apache.org\n\
                 spec:\n  group: flink.apache.org\n  scope: Namespaced\n  names:\n    kind: {kind}\n    listKind: {kind}List\n    plural: {plural}\n    singular: {}\n\
                 \x20 versions:\n  - name: v1beta1\n    served: true\n    storage: true\n    subresources:\n      status: {{}}\n\
                 \x20   schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n",
                kind.to_lowercase()
            ));
        }
        if c.cert_manager {
            crds.push(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: certificates.cert-manager.io\n\
                 spec:\n  group: cert-manager.io\n  scope: Namespaced\n  names:\n    kind: Certificate\n    listKind: CertificateList\n    plural: certificates\n    singular: certificate\n\
                 \x20 versions:\n  - name: v1\n    served: true\n    storage: true\n    subresources:\n      status: {}\n\
                 \x20   schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n"
                    .to_string(),
            );
        }
        out.push(("crds.yaml".into(), crds.join("---\n")));

        // The operator.
        let labels = "app.kubernetes.io/name: flink-kubernetes-operator\n    app.kubernetes.io/version: 1.15.0\n    app.kubernetes.io/managed-by: Helm\n    helm.sh/chart: flink-kubernetes-operator-1.15.0";
        let dep_status = if stuck {
            "status:\n  observedGeneration: 1\n  replicas: 1\n  updatedReplicas: 1\n  unavailableReplicas: 1\n  conditions:\n  - type: Available\n    status: \"False\"\n    reason: MinimumReplicasUnavailable\n    message: Deployment does not have minimum availability.\n    lastUpdateTime: \"2026-11-20T09:00:00Z\"\n    lastTransitionTime: \"2026-11-20T09:00:00Z\"\n".to_string()
        } else {
            "status:\n  observedGeneration: 1\n  replicas: 1\n  updatedReplicas: 1\n  readyReplicas: 1\n  availableReplicas: 1\n  conditions:\n  - type: Available\n    status: \"True\"\n    reason: MinimumReplicasAvailable\n    message: Deployment has minimum availability.\n    lastUpdateTime: \"2026-11-20T09:00:30Z\"\n    lastTransitionTime: \"2026-11-20T09:00:30Z\"\n".to_string()
        };
        let container_status = |name: &str| {
            if stuck {
                format!("  - name: {name}\n    image: ghcr.io/apache/flink-kubernetes-operator:1.15.0\n    imageID: \"\"\n    ready: false\n    started: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ContainerCreating\n")
            } else {
                format!("  - name: {name}\n    image: ghcr.io/apache/flink-kubernetes-operator:1.15.0\n    imageID: \"\"\n    ready: true\n    started: true\n    restartCount: 0\n    state:\n      running:\n        startedAt: \"2026-11-20T09:00:20Z\"\n")
            }
        };
        let pod_status = if stuck {
            format!("status:\n  phase: Pending\n  conditions:\n  - type: PodScheduled\n    status: \"True\"\n  - type: Initialized\n    status: \"True\"\n  - type: ContainersReady\n    status: \"False\"\n    reason: ContainersNotReady\n  - type: Ready\n    status: \"False\"\n    reason: ContainersNotReady\n  hostIP: 127.0.0.1\n  startTime: \"{T_OPERATOR}\"\n  containerStatuses:\n{}{}", container_status("flink-kubernetes-operator"), container_status("flink-webhook"))
        } else {
            format!("status:\n  phase: Running\n  conditions:\n  - type: PodScheduled\n    status: \"True\"\n  - type: Initialized\n    status: \"True\"\n  - type: ContainersReady\n    status: \"True\"\n  - type: Ready\n    status: \"True\"\n  hostIP: 127.0.0.1\n  podIP: 10.244.0.17\n  startTime: \"{T_OPERATOR}\"\n  containerStatuses:\n{}{}", container_status("flink-kubernetes-operator"), container_status("flink-webhook"))
        };
        let containers = "      - name: flink-kubernetes-operator\n        image: ghcr.io/apache/flink-kubernetes-operator:1.15.0\n        command: [\"/docker-entrypoint.sh\", \"operator\"]\n        ports:\n        - {containerPort: 8085, name: health-port, protocol: TCP}\n        env:\n        - name: OPERATOR_NAMESPACE\n          valueFrom: {fieldRef: {fieldPath: metadata.namespace}}\n        - {name: FLINK_CONF_DIR, value: /opt/flink/conf}\n        volumeMounts:\n        - {name: flink-operator-config-volume, mountPath: /opt/flink/conf}\n      - name: flink-webhook\n        image: ghcr.io/apache/flink-kubernetes-operator:1.15.0\n        command: [\"/docker-entrypoint.sh\", \"webhook\"]\n        env:\n        - name: WEBHOOK_KEYSTORE_PASSWORD\n          valueFrom: {secretKeyRef: {name: flink-operator-webhook-secret, key: password}}\n        - {name: WEBHOOK_KEYSTORE_FILE, value: /certs/keystore.p12}\n        - {name: WEBHOOK_KEYSTORE_TYPE, value: pkcs12}\n        - {name: WEBHOOK_SERVER_PORT, value: \"9443\"}\n        volumeMounts:\n        - {name: keystore, mountPath: /certs, readOnly: true}\n        - {name: flink-operator-config-volume, mountPath: /opt/flink/conf}\n      volumes:\n      - name: flink-operator-config-volume\n        configMap:\n          name: flink-operator-config\n          items:\n          - {key: config.yaml, path: config.yaml}\n      - name: keystore\n        secret:\n          secretName: webhook-server-cert\n          items:\n          - {key: keystore.p12, path: keystore.p12}\n";
        let pod_containers =
            containers
                .replace("\n      ", "\n  ")
                .replacen("      - name", "  - name", 1);
        let selector = if c.selector_ok {
            "app.kubernetes.io/name: flink-kubernetes-operator"
        } else {
            "app: flink-operator"
        };
        let endpoints = if stuck || !c.selector_ok {
            "endpoints: []\n".to_string()
        } else {
            format!("endpoints:\n- addresses: [10.244.0.17]\n  conditions: {{ready: true, serving: true, terminating: false}}\n  nodeName: fake-node\n  targetRef: {{kind: Pod, namespace: {op}, name: {POD}}}\n")
        };
        let operator = format!(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flink-operator\n  namespace: {op}\n---\n\
             apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flink-operator-config\n  namespace: {op}\n  labels:\n    {labels}\n\
             data:\n  config.yaml: |\n    kubernetes.operator.reconcile.interval: 15 s\n    kubernetes.operator.observer.progress-check.interval: 5 s\n    kubernetes.operator.watched.namespaces: {watched}\n    kubernetes.operator.health.probe.enabled: true\n    kubernetes.operator.health.probe.port: 8085\n\
             \x20 log4j-operator.properties: |\n    rootLogger.level = INFO\n---\n\
             apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: flink-kubernetes-operator\n  namespace: {op}\n  generation: 1\n  labels:\n    {labels}\n  annotations:\n    meta.helm.sh/release-name: flink-kubernetes-operator\n    meta.helm.sh/release-namespace: {op}\n\
             spec:\n  replicas: 1\n  strategy: {{type: Recreate}}\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: flink-kubernetes-operator\n  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: flink-kubernetes-operator\n      annotations:\n        kubectl.kubernetes.io/default-container: flink-kubernetes-operator\n    spec:\n      serviceAccountName: flink-operator\n      containers:\n{containers}\
             {dep_status}---\n\
             apiVersion: v1\nkind: Pod\nmetadata:\n  name: {POD}\n  namespace: {op}\n  creationTimestamp: \"{T_OPERATOR}\"\n  labels:\n    app.kubernetes.io/name: flink-kubernetes-operator\n    pod-template-hash: 6c8f9d7b5\n  annotations:\n    kubectl.kubernetes.io/default-container: flink-kubernetes-operator\n\
             spec:\n  serviceAccountName: flink-operator\n  nodeName: fake-node\n  containers:\n{pod_containers}{pod_status}---\n\
             apiVersion: v1\nkind: Service\nmetadata:\n  name: flink-operator-webhook-service\n  namespace: {op}\n  labels:\n    {labels}\n\
             spec:\n  type: ClusterIP\n  selector:\n    {selector}\n  ports:\n  - port: 443\n    targetPort: 9443\n    protocol: TCP\n---\n\
             apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: flink-operator-webhook-service-7xk2p\n  namespace: {op}\n  labels:\n    kubernetes.io/service-name: flink-operator-webhook-service\n    endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io\n\
             addressType: IPv4\nports:\n- name: \"\"\n  port: 9443\n  protocol: TCP\n{endpoints}"
        );
        out.push(("operator.yaml".into(), operator));

        // RBAC as the chart makes it with watchNamespaces: the operator's rules and the job role
        // in each watched namespace, leases in its own.
        let rules = "- apiGroups: [\"\"]\n  resources: [pods, services, events, configmaps, secrets]\n  verbs: [get, list, watch, create, update, patch, delete, deletecollection]\n\
                     - apiGroups: [apps]\n  resources: [deployments, deployments/finalizers, replicasets]\n  verbs: [get, list, watch, create, update, patch, delete]\n\
                     - apiGroups: [apps]\n  resources: [deployments/scale]\n  verbs: [get, update, patch]\n\
                     - apiGroups: [flink.apache.org]\n  resources: [flinkdeployments, flinkdeployments/finalizers, flinksessionjobs, flinksessionjobs/finalizers, flinkstatesnapshots, flinkstatesnapshots/finalizers, flinkbluegreendeployments, flinkbluegreendeployments/finalizers]\n  verbs: [get, list, watch, create, update, patch, delete]\n\
                     - apiGroups: [flink.apache.org]\n  resources: [flinkdeployments/status, flinksessionjobs/status, flinkstatesnapshots/status, flinkbluegreendeployments/status]\n  verbs: [get, update, patch]\n\
                     - apiGroups: [networking.k8s.io]\n  resources: [ingresses]\n  verbs: [get, list, watch, create, update, patch, delete]\n\
                     - apiGroups: [coordination.k8s.io]\n  resources: [leases]\n  verbs: [get, list, watch, create, update, patch, delete]\n";
        let binding = |ns: &str, name: &str, role: &str, sa: &str, sa_ns: &str| {
            format!(
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {name}\n  namespace: {ns}\n  labels:\n    {labels}\n\
                 roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {role}\nsubjects:\n- kind: ServiceAccount\n  name: {sa}\n  namespace: {sa_ns}\n"
            )
        };
        let rbac = format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: flink-operator\n  namespace: {watched}\n  labels:\n    {labels}\nrules:\n{rules}---\n\
             {}---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: flink\n  namespace: {watched}\n  labels:\n    {labels}\n\
             rules:\n- apiGroups: [\"\"]\n  resources: [pods, configmaps]\n  verbs: [get, list, watch, create, update, patch, delete]\n\
             - apiGroups: [apps]\n  resources: [deployments, deployments/finalizers]\n  verbs: [get, list, watch, create, update, patch, delete]\n---\n\
             {}---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: flink-operator\n  namespace: {op}\n  labels:\n    {labels}\n\
             rules:\n- apiGroups: [coordination.k8s.io]\n  resources: [leases]\n  verbs: [get, list, watch, create, update, patch, delete]\n\
             - apiGroups: [flink.apache.org]\n  resources: [flinkstatesnapshots]\n  verbs: [list]\n---\n\
             {}",
            binding(&watched, "flink-operator-role-binding", "flink-operator", "flink-operator", &op),
            binding(&watched, "flink-role-binding", "flink", "flink", &watched),
            binding(&op, "flink-operator-role-binding", "flink-operator", "flink-operator", &op),
        );
        out.push(("rbac.yaml".into(), rbac));

        // Secrets: public certificates only.
        let mut secrets = format!(
            "# The chart's keystore password Secret: its `password` is left out (kubectl-flink never keeps it).\n\
             apiVersion: v1\nkind: Secret\nmetadata:\n  name: flink-operator-webhook-secret\n  namespace: {op}\n  labels:\n    {labels}\ntype: Opaque\n"
        );
        if c.tls_secret {
            write!(
                secrets,
                "---\n# Written by cert-manager (or by hand); its tls.key and keystore.p12 are left out: public certificates only.\n\
                 apiVersion: v1\nkind: Secret\nmetadata:\n  name: webhook-server-cert\n  namespace: {op}\n{}type: Opaque\ndata:\n  tls.crt: {}\n  ca.crt: {}\n",
                if c.cert_manager {
                    "  annotations:\n    cert-manager.io/certificate-name: flink-operator-serving-cert\n    cert-manager.io/issuer-kind: Issuer\n    cert-manager.io/issuer-name: flink-operator-selfsigned-issuer\n"
                } else {
                    ""
                },
                b64(served.as_bytes()),
                b64(served.as_bytes())
            )
            .unwrap();
        }
        out.push(("secrets.yaml".into(), secrets));

        if c.cert_manager {
            out.push((
                "cert-manager.yaml".into(),
                format!(
                    "apiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: flink-operator-selfsigned-issuer\n  namespace: {op}\nspec:\n  selfSigned: {{}}\n\
                     status:\n  conditions:\n  - type: Ready\n    status: \"True\"\n    reason: IsReady\n    message: \"\"\n    lastTransitionTime: \"2026-11-20T08:59:50Z\"\n---\n\
                     apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: flink-operator-serving-cert\n  namespace: {op}\n\
                     spec:\n  dnsNames:\n{}  keystores:\n    pkcs12:\n      create: true\n      passwordSecretRef:\n        name: flink-operator-webhook-secret\n        key: password\n\
                     \x20 issuerRef:\n    kind: Issuer\n    name: flink-operator-selfsigned-issuer\n  commonName: {CHART_CN}\n  secretName: webhook-server-cert\n\
                     status:\n  conditions:\n  - type: Ready\n    status: \"True\"\n    reason: Ready\n    message: Certificate is up to date and has not expired\n    lastTransitionTime: \"2026-11-20T08:59:55Z\"\n  notBefore: \"2025-01-01T00:00:00Z\"\n  notAfter: \"2036-01-01T00:00:00Z\"\n  renewalTime: \"2035-09-02T16:00:00Z\"\n",
                    sans.iter().map(|s| format!("  - {s}\n")).collect::<String>()
                ),
            ));
        }

        // Webhook configurations, scoped to this scenario's watched namespace.
        let annotation = if c.annotation {
            format!("  annotations:\n    cert-manager.io/inject-ca-from: {op}/flink-operator-serving-cert\n")
        } else {
            String::new()
        };
        let hook = |kind: &str, name: &str, path: &str, resources: &str| {
            format!(
                "apiVersion: admissionregistration.k8s.io/v1\nkind: {kind}\nmetadata:\n  name: flink-operator-{op}-webhook-configuration\n  labels:\n    {labels}\n{annotation}\
                 webhooks:\n- name: {name}\n  admissionReviewVersions: [v1]\n  sideEffects: None\n  # Chart default: Fail. Ignore and 2 s here, so a seeded scenario never blocks anything.\n  failurePolicy: Ignore\n  timeoutSeconds: 2\n\
                 \x20 clientConfig:\n    caBundle: {ca_bundle}\n    service:\n      name: flink-operator-webhook-service\n      namespace: {op}\n      path: {path}\n\
                 \x20 rules:\n  - apiGroups: [flink.apache.org]\n    apiVersions: [\"*\"]\n    scope: Namespaced\n    operations: [CREATE, UPDATE]\n    resources: [{resources}]\n\
                 \x20 namespaceSelector:\n    matchExpressions:\n    - key: kubernetes.io/metadata.name\n      operator: In\n      values: [\"{watched}\"]\n"
            )
        };
        out.push((
            "webhooks.yaml".into(),
            format!(
                "{}---\n{}",
                hook(
                    "ValidatingWebhookConfiguration",
                    "validationwebhook.flink.apache.org",
                    "/validate",
                    "flinkdeployments, flinksessionjobs, flinkstatesnapshots"
                ),
                hook(
                    "MutatingWebhookConfiguration",
                    "mutationwebhook.flink.apache.org",
                    "/mutate",
                    "flinksessionjobs, flinkdeployments"
                )
            ),
        ));

        // Flink resources.
        let reconciled = !stuck && !c.watch_other;
        let mut flink = String::new();
        let fd_ns = apps.clone();
        write!(flink, "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flink\n  namespace: {fd_ns}\n---\n").unwrap();
        flink.push_str(&flink_deployment("orders", &fd_ns, reconciled));
        let mut events = String::new();
        if reconciled {
            flink.push_str(&flink_pods("orders", &fd_ns));
            events.push_str(&fd_events("orders", &fd_ns));
        }
        if c.watch_other {
            write!(flink, "---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flink\n  namespace: {jobs}\n---\n").unwrap();
            flink.push_str(&flink_deployment("billing", &jobs, true));
            flink.push_str(&flink_pods("billing", &jobs));
            events.push_str(&fd_events("billing", &jobs));
        }
        out.push(("flink.yaml".into(), flink));

        // Events: the operator pod's.
        if stuck {
            write!(
                events,
                "---\napiVersion: v1\nkind: Event\nmetadata:\n  name: {POD}.187f3a1c2b4d5e01\n  namespace: {op}\ninvolvedObject:\n  apiVersion: v1\n  kind: Pod\n  namespace: {op}\n  name: {POD}\n\
                 reason: FailedMount\ntype: Warning\nmessage: 'MountVolume.SetUp failed for volume \"keystore\" : secret \"webhook-server-cert\" not found'\ncount: 31\n\
                 firstTimestamp: \"2026-11-20T09:00:02Z\"\nlastTimestamp: \"2026-11-20T10:00:00Z\"\nsource:\n  component: kubelet\n  host: fake-node\n"
            )
            .unwrap();
        } else {
            write!(
                events,
                "---\napiVersion: v1\nkind: Event\nmetadata:\n  name: {POD}.187f3a1c2b4d5e02\n  namespace: {op}\ninvolvedObject:\n  apiVersion: v1\n  kind: Pod\n  namespace: {op}\n  name: {POD}\n  fieldPath: spec.containers{{flink-webhook}}\n\
                 reason: Started\ntype: Normal\nmessage: Started container flink-webhook\ncount: 1\n\
                 firstTimestamp: \"2026-11-20T09:00:20Z\"\nlastTimestamp: \"2026-11-20T09:00:20Z\"\nsource:\n  component: kubelet\n  host: fake-node\n"
            )
            .unwrap();
        }
        out.push((
            "events.yaml".into(),
            events.trim_start_matches("---\n").to_string(),
        ));

        if let Some(log) = c.log {
            out.push((
                format!("logs/{op}/{POD}/flink-kubernetes-operator.log"),
                log.to_string(),
            ));
        }
        out
    }

    fn flink_deployment(name: &str, ns: &str, reconciled: bool) -> String {
        let status = if reconciled {
            "status:\n  jobManagerDeploymentStatus: READY\n  lifecycleState: STABLE\n  observedGeneration: 1\n  reconciliationStatus:\n    state: DEPLOYED\n    reconciliationTimestamp: 1795683000000\n  jobStatus:\n    jobId: 3c1f0e9d8b7a6f5e4d3c2b1a09f8e7d6\n    jobName: State machine job\n    state: RUNNING\n"
        } else {
            ""
        };
        format!(
            "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: {name}\n  namespace: {ns}\n  creationTimestamp: \"2026-11-20T09:30:00Z\"\n  generation: 1\n\
             spec:\n  image: flink:1.20\n  flinkVersion: v1_20\n  serviceAccount: flink\n  flinkConfiguration:\n    taskmanager.numberOfTaskSlots: \"2\"\n\
             \x20 jobManager:\n    replicas: 1\n    resource: {{memory: 2048m, cpu: 1}}\n  taskManager:\n    resource: {{memory: 2048m, cpu: 1}}\n\
             \x20 job:\n    jarURI: local:///opt/flink/examples/streaming/StateMachineExample.jar\n    parallelism: 2\n    upgradeMode: stateless\n    state: running\n{status}"
        )
    }

    fn flink_pods(name: &str, ns: &str) -> String {
        let pod = |pod: &str, component: &str, started: &str, policy: &str| {
            format!(
                "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {pod}\n  namespace: {ns}\n  creationTimestamp: \"{started}\"\n  labels:\n    app: {name}\n    component: {component}\n    type: flink-native-kubernetes\n\
                 spec:\n  serviceAccountName: flink\n  restartPolicy: {policy}\n  nodeName: fake-node\n  containers:\n  - name: flink-main-container\n    image: flink:1.20\n    resources:\n      limits: {{memory: 2Gi, cpu: \"1\"}}\n\
                 status:\n  phase: Running\n  conditions:\n  - type: Ready\n    status: \"True\"\n  podIP: 10.244.0.31\n  startTime: \"{started}\"\n  containerStatuses:\n  - name: flink-main-container\n    image: flink:1.20\n    imageID: \"\"\n    ready: true\n    started: true\n    restartCount: 0\n    state:\n      running:\n        startedAt: \"{started}\"\n"
            )
        };
        let labels = format!(
            "app: {name}\n        component: jobmanager\n        type: flink-native-kubernetes"
        );
        let deployment = format!(
            "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: {ns}\n  generation: 1\n  labels:\n    app: {name}\n    component: jobmanager\n    type: flink-native-kubernetes\n\
             spec:\n  replicas: 1\n  strategy: {{type: Recreate}}\n  selector:\n    matchLabels:\n      app: {name}\n      component: jobmanager\n      type: flink-native-kubernetes\n\
             \x20 template:\n    metadata:\n      labels:\n        {labels}\n    spec:\n      serviceAccountName: flink\n      containers:\n      - name: flink-main-container\n        image: flink:1.20\n        resources:\n          limits: {{memory: 2Gi, cpu: \"1\"}}\n\
             status:\n  observedGeneration: 1\n  replicas: 1\n  readyReplicas: 1\n  availableReplicas: 1\n  updatedReplicas: 1\n---\n\
             apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}-rest\n  namespace: {ns}\n  labels:\n    app: {name}\n    type: flink-native-kubernetes\n\
             spec:\n  type: ClusterIP\n  selector:\n    app: {name}\n    component: jobmanager\n    type: flink-native-kubernetes\n  ports:\n  - {{name: rest, port: 8081, protocol: TCP, targetPort: 8081}}\n"
        );
        format!(
            "{deployment}{}{}",
            pod(
                &format!("{name}-7b9d6c5f8-x4k7m"),
                "jobmanager",
                "2026-11-20T09:30:05Z",
                "Always"
            ),
            pod(
                &format!("{name}-taskmanager-1-1"),
                "taskmanager",
                "2026-11-20T09:31:00Z",
                "Never"
            )
        )
    }

    fn fd_events(name: &str, ns: &str) -> String {
        format!(
            "---\napiVersion: v1\nkind: Event\nmetadata:\n  name: Job.{}\n  namespace: {ns}\ninvolvedObject:\n  apiVersion: flink.apache.org/v1beta1\n  kind: FlinkDeployment\n  namespace: {ns}\n  name: {name}\n\
             reason: JobStatusChanged\ntype: Normal\nmessage: Job status changed from RECONCILING to RUNNING\ncount: 1\n\
             firstTimestamp: \"2026-11-20T10:00:00Z\"\nlastTimestamp: \"2026-11-20T10:00:00Z\"\nsource:\n  component: Job\n",
            1_000_000 + name.len() * 7919
        )
    }

    fn textwrap(text: &str, width: usize) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }
}

#[test]
#[ignore = "regenerates tests/scenarios/install-* with fresh certificates; run by hand"]
fn regenerate_install_scenarios() {
    for c in generate::cases() {
        let dir = scenario(c.dir);
        let _ = std::fs::remove_dir_all(&dir);
        for (name, content) in generate::files(&c) {
            let path = dir.join(&name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content).unwrap();
        }
        eprintln!("wrote {}", dir.display());
    }
}
