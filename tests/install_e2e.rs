//! The installation layer (issue 6) end to end: the offline scenario bundles under
//! `tests/scenarios/install-*` diagnosed by the real binary, Secrets never leaking into any output
//! or saved bundle, and the same scenarios seeded into the real test cluster
//! (`scripts/test-cluster.sh run cargo test --test install_e2e`).
//!
//! Without the cluster the live tests FAIL when `CI` is set and print a loud SKIPPED otherwise;
//! the offline tests always run.
//!
//! What each scenario must be diagnosed as is its `expect.txt` (tests/common/expect.rs), offline
//! and live; `install-healthy` is a whole bundle and every other scenario is it plus an
//! `overlay.yaml` (tests/common/scenarios.rs).
//!
//! Live, the webhook configurations are scoped to each scenario's own namespace
//! (`namespaceSelector`), fail open (`failurePolicy: Ignore`) and time out after 2 s, so a broken
//! one never blocks another test's Flink resources; and every case is removed again after it ran,
//! since the installation layer is cluster-wide by nature (an operator, webhooks and CRDs serve
//! every namespace).

mod common;
use common::expect::{compare, exact, missing_fixes, Expect};
use common::run::{findings, plugin, s, Run};
use common::{env_path, repo};

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};

const SOURCE_ANNOTATION: &str = "kubectl-flink.test/crd-source";

fn scenario(dir: &str) -> PathBuf {
    common::scenarios::bundle(dir)
}

// ------------------------------------------------------------------------------ the scenarios

/// A scenario: its bundle, its namespaces and its `expect.txt`.
struct Case {
    dir: String,
    bundle: PathBuf,
    namespaces: Vec<String>,
    expect: Expect,
}

/// Every `install-*` scenario.
fn cases() -> Vec<Case> {
    let out: Vec<Case> = common::scenarios::all()
        .into_iter()
        .filter(|(name, _)| name.starts_with("install-"))
        .map(|(dir, bundle)| {
            let expect = Expect::read(&common::scenarios::root().join(&dir))
                .unwrap_or_else(|e| panic!("{e}"));
            let namespaces = common::scenarios::namespaces(&bundle);
            Case {
                dir,
                bundle,
                namespaces,
                expect,
            }
        })
        .collect();
    assert!(out.len() >= 10, "install scenarios: {}", out.len());
    out
}

fn report(run: &Run) -> Vec<Value> {
    findings(&run.json())
}

/// The findings about a scenario: objects or deployments in its namespaces, its webhook
/// configurations (named after the operator's namespace), and Flink CRDs.
fn related<'a>(all: &'a [Value], case: &Case) -> Vec<&'a Value> {
    let crds = case
        .expect
        .findings
        .iter()
        .chain(case.expect.live().0)
        .any(|l| l.object.starts_with("CustomResourceDefinition/"));
    all.iter()
        .filter(|f| {
            let ns = f.pointer("/object/namespace").and_then(Value::as_str);
            let dep = f.pointer("/deployment/namespace").and_then(Value::as_str);
            let name = s(f, "/object/name");
            let mine = |n: &str| case.namespaces.iter().any(|m| m == n);
            ns.is_some_and(mine)
                || dep.is_some_and(mine)
                || (ns.is_none()
                    && case
                        .namespaces
                        .iter()
                        .any(|n| name.contains(&format!("-{n}-"))))
                || (ns.is_none()
                    && (name.ends_with(".flink.apache.org")
                        || name.ends_with(".flinkoperator.k8s.io"))
                    && crds)
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

/// Checks one diagnosis of a scenario against its `expect.txt`: the scenario's findings in order,
/// with their causes and the text their fixes must hold, and evidence and a verify command for
/// every root cause.
fn check(case: &Case, all: &[Value], live: bool) -> Result<(), String> {
    let mine: Vec<Value> = related(all, case).into_iter().cloned().collect();
    let report = serde_json::json!({ "findings": mine });
    let (want, fixes) = if live {
        case.expect.live()
    } else {
        (&case.expect.findings[..], &case.expect.fixes[..])
    };
    let mut diff = compare(want, 0, &exact(&report), 0);
    diff.extend(missing_fixes(&report, fixes));
    for f in mine
        .iter()
        .filter(|f| f.get("causedBy").is_none_or(Value::is_null))
    {
        if s(f, "/verify").is_empty() || s(f, "/evidence/0").is_empty() {
            diff.push(format!(
                "a root cause without evidence or verify command: {f:#}"
            ));
        }
    }
    if diff.is_empty() {
        return Ok(());
    }
    let refs: Vec<&Value> = mine.iter().collect();
    Err(format!(
        "{}{}:\n  {}\n  findings:\n  {}",
        case.dir,
        if live { " live" } else { "" },
        diff.join("\n  "),
        describe(&refs)
    ))
}

#[test]
fn every_install_scenario_is_diagnosed_offline() {
    let mut errors = Vec::new();
    for case in &cases() {
        let run = plugin(
            None,
            &[
                "doctor",
                "--from",
                &case.bundle.to_string_lossy(),
                "-o",
                "json",
            ],
        );
        let all = report(&run);
        if let Err(e) = check(case, &all, false) {
            errors.push(e);
        }
        let want = case.expect.exit;
        if i64::from(run.code) != want {
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
            crds: env_path("KUBE_HARNESS_CRDS"),
        })
    })();
    common::or_skip("install_e2e", test, found)
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
        let mut cmd = Command::new(&self.kubectl);
        cmd.args(args).env("KUBECONFIG", &self.admin);
        Run::of(&mut cmd, None)
    }

    /// Seeds a scenario, webhooks included, into a cluster reset to what `up` left (`--reset`
    /// removes whatever earlier seeds made, this test's previous case included). The cluster
    /// keeps its real Flink CRDs: the bundle's stand-ins are left out of the copy that is seeded.
    fn seed(&self, bundle: &Path) -> Result<(), String> {
        let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
        copy_without_flink_crds(bundle, tmp.path())?;
        common::seed(tmp.path(), &["--reset"]).map_err(|e| format!("{}: {e}", bundle.display()))
    }

    /// Removes what the last case seeded, so no later test sees this installation (the next
    /// `seed --reset` would too): its namespaces' objects, its webhook configurations, and the
    /// cert-manager stand-in CRDs.
    fn clean(&self, case: &Case) {
        for ns in &case.namespaces {
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
        for ns in &case.namespaces {
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
        self.apply_as_seeder(&file)
            .map_err(|e| format!("restore crd {name}: {e}"))?;
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
                        && (doc.contains("group: flink.apache.org")
                            || doc.contains("group: flinkoperator.k8s.io")))
                })
                .collect();
            std::fs::write(&target, kept.join("\n---\n")).map_err(|e| e.to_string())?;
        } else if p.file_name().is_some_and(|n| n != "e2e.skip") {
            std::fs::copy(&p, &target).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A case whose bundle holds another release's Flink CRD: the cluster's real one is swapped for
/// it while doctor runs (the seeded copy leaves every Flink CRD out).
fn crd_to_swap(case: &Case) -> Option<&'static str> {
    match case.dir.as_str() {
        "install-flinkcluster-crd-skew" => Some("flinkclusters.flinkoperator.k8s.io"),
        _ => None,
    }
}

impl Harness {
    /// Applies the bundle's CRD `name` over the cluster's, with the seeder's field manager, so
    /// that the fields only the real CRD has go (and come back with `restore_crd`).
    fn swap_crd(&self, bundle: &Path, name: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(bundle.join("crds.yaml")).map_err(|e| e.to_string())?;
        let doc = text
            .split("\n---\n")
            .find(|d| {
                d.contains("kind: CustomResourceDefinition")
                    && d.contains(&format!("name: {name}\n"))
            })
            .ok_or(format!("{}: no CRD {name} in crds.yaml", bundle.display()))?;
        let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = tmp.path().join("crd.yaml");
        std::fs::write(&file, doc).map_err(|e| e.to_string())?;
        self.apply_as_seeder(&file)
            .map_err(|e| format!("swap crd {name}: {e}"))
    }

    /// `kubectl apply --server-side` of one file, as the seeder's field manager; its stderr when
    /// it fails.
    fn apply_as_seeder(&self, file: &Path) -> Result<(), String> {
        let r = self.kubectl(&[
            "apply",
            "--server-side",
            "--force-conflicts",
            "--field-manager=kubectl-flink-seed",
            "-f",
            &file.to_string_lossy(),
        ]);
        if r.code != 0 {
            return Err(r.stderr);
        }
        Ok(())
    }
}

/// A case's CRD surgery on the live cluster: which Flink CRD it must lack.
fn crd_to_remove(case: &Case) -> Option<&'static str> {
    match case.dir.as_str() {
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
    let cases = cases();
    for case in &cases {
        let result = (|| -> Result<(), String> {
            h.seed(&case.bundle)?;
            let removed = crd_to_remove(case);
            if let Some(crd) = removed {
                h.delete_crd(crd)?;
            }
            let swapped = crd_to_swap(case);
            if let Some(crd) = swapped {
                h.swap_crd(&case.bundle, crd)?;
            }
            let run = h.doctor(&["doctor", "-A", "-o", "json"]);
            if let Some(crd) = removed.or(swapped) {
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
    if let Some(last) = cases.last() {
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
    let cases = cases();
    let healthy = cases.iter().find(|c| c.dir == "install-healthy").unwrap();
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
