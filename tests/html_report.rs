//! `doctor -o html` in a real browser (issue 35): headless Chromium (Debian's `chromium`;
//! .ci/run installs it) loads the report of examples/canonical, and of the same bundle with hostile
//! text in its logs and events, at a desktop and a phone width. A script the test appends to a
//! copy of the page (never part of the product) measures what the browser laid out: no
//! horizontal overflow and no box whose content spills out of it (nothing cut), each graph
//! node's text inside its box, headings in order, the contrast of every text against the
//! background it is drawn on, the two root causes and their symptoms as nodes and arrows, and
//! that no hostile payload ran. The palette's contrast is also computed here from the page's own
//! colours. A screenshot of the canonical report is written, and with KUBECTL_FLINK_BLESS=1
//! copied to docs/report-canonical.png (the README shows it).
//!
//! Without Chromium the tests FAIL when `CI` is set and print a loud SKIPPED otherwise.

mod common;
use common::run::plugin;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        if let Ok(out) = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
        {
            let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if out.status.success() && !path.is_empty() {
                return Some(PathBuf::from(path));
            }
        }
    }
    let why = "no chromium on PATH (Debian: apt-get install -y chromium; .ci/run installs it)";
    if common::in_ci() {
        panic!("html_report cannot run: {why}");
    }
    eprintln!("******** SKIPPED html_report: {why}");
    None
}

fn scratch(label: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("html_report")
        .join(format!("{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `doctor --from BUNDLE -o html`, exit 1 (the bundles hold findings).
fn report(bundle: &Path) -> String {
    let run = plugin(
        None,
        &["doctor", "--from", bundle.to_str().unwrap(), "-o", "html"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.starts_with("<!DOCTYPE html>"), "{}", run.stdout);
    run.stdout
}

/// What the browser measures, appended to a copy of the page before `</body>`; its result is a
/// `<pre id="kf-layout">` holding JSON, read back from `--dump-dom`.
const MEASURE: &str = r#"<script>
(function(){
  const r = {}, W = window.innerWidth;
  r.innerWidth = W;
  r.scrollWidth = document.documentElement.scrollWidth;
  r.outside = []; r.spills = [];
  const skip = el => el.closest('svg') || el.tagName === 'SCRIPT' || el.hidden;
  for (const el of document.body.querySelectorAll('*')) {
    if (skip(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') continue;
    const b = el.getBoundingClientRect();
    const what = el.tagName + ': ' + (el.textContent || '').trim().slice(0, 60);
    if (b.width > 0 && (b.right > W + 0.5 || b.left < -0.5)) r.outside.push(what);
    if (cs.display !== 'inline' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) r.spills.push(what);
  }
  r.nodeTextOutside = [];
  for (const g of document.querySelectorAll('svg g.node')) {
    const rb = g.querySelector('rect').getBBox(), tb = g.querySelector('text').getBBox();
    if (tb.x < rb.x || tb.x + tb.width > rb.x + rb.width + 0.5 || tb.y < rb.y || tb.y + tb.height > rb.y + rb.height + 0.5)
      r.nodeTextOutside.push(g.querySelector('text').textContent);
  }
  r.svgOutside = [...document.querySelectorAll('svg')].filter(s => s.getBoundingClientRect().right > W + 0.5).length;
  r.headings = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => +h.tagName[1]);
  const rgb = s => { const m = /rgba?\(([^)]+)\)/.exec(s || ''); return m ? m[1].split(',').map(parseFloat) : null; };
  const lum = p => { const c = p.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const bg = el => { for (let e = el; e; e = e.parentElement) { const p = rgb(getComputedStyle(e).backgroundColor); if (p && (p.length < 4 || p[3] > 0)) return p; } return [255, 255, 255]; };
  r.lowContrast = []; r.minContrast = 99; r.texts = 0;
  const check = (fg, back, what) => { const c = ratio(fg, back); r.texts++; r.minContrast = Math.min(r.minContrast, c); if (c < 4.5) r.lowContrast.push(c.toFixed(2) + ' ' + what); };
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg') || el.tagName === 'SCRIPT') continue;
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    check(rgb(getComputedStyle(el).color), bg(el), el.tagName + ' ' + el.textContent.trim().slice(0, 40));
  }
  for (const g of document.querySelectorAll('svg g.node')) {
    const back = rgb(getComputedStyle(g.querySelector('rect')).fill);
    for (const t of g.querySelectorAll('tspan')) check(rgb(getComputedStyle(t).fill), back, 'svg ' + t.textContent.slice(0, 40));
  }
  r.roots = document.querySelectorAll('svg g.node.root').length;
  r.symptoms = document.querySelectorAll('svg g.node.symptom').length;
  r.edges = document.querySelectorAll('svg path.edge').length;
  r.copyButtons = [...document.querySelectorAll('button.copy')].filter(b => !b.hidden).length;
  r.pwned = typeof window.__pwned;
  r.images = document.images.length;
  r.scripts = document.scripts.length;
  r.text = document.body.innerText;
  const pre = document.createElement('pre'); pre.id = 'kf-layout'; pre.hidden = true;
  pre.textContent = JSON.stringify(r); document.body.appendChild(pre);
})();
</script>
"#;

fn chrome(browser: &Path, args: &[&str]) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--virtual-time-budget=5000",
        ])
        .args(args)
        .env("HOME", std::env::temp_dir())
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Lays the page out at `width` and returns what the browser measured.
fn measure(browser: &Path, page: &str, dir: &Path, width: u32) -> Value {
    let file = dir.join(format!("measure-{width}.html"));
    let copy = page.replacen("</body>", &format!("{MEASURE}</body>"), 1);
    std::fs::write(&file, copy).unwrap();
    let dom = chrome(
        browser,
        &[
            &format!("--window-size={width},900"),
            "--dump-dom",
            &format!("file://{}", file.display()),
        ],
    );
    let start = dom
        .find("<pre id=\"kf-layout\" hidden=\"\">")
        .map(|i| i + "<pre id=\"kf-layout\" hidden=\"\">".len())
        .unwrap_or_else(|| panic!("no measurement in the DOM:\n{dom}"));
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

fn check_layout(m: &Value, width: u32) {
    let empty = |k: &str| m[k].as_array().is_some_and(|a| a.is_empty());
    assert!(
        m["scrollWidth"].as_u64() <= m["innerWidth"].as_u64(),
        "{width}px: the page scrolls sideways: {m:#}"
    );
    assert!(
        empty("outside"),
        "{width}px: boxes past the right edge: {:#}",
        m["outside"]
    );
    assert!(
        empty("spills"),
        "{width}px: content cut in its box: {:#}",
        m["spills"]
    );
    assert!(
        empty("nodeTextOutside"),
        "{width}px: graph text outside its node: {:#}",
        m["nodeTextOutside"]
    );
    assert_eq!(m["svgOutside"], 0, "{width}px");
    assert!(empty("lowContrast"), "{width}px: {:#}", m["lowContrast"]);
    assert!(m["texts"].as_u64().unwrap() > 50, "{m:#}");
    let headings: Vec<u64> = m["headings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect();
    assert_eq!(headings.first(), Some(&1), "{headings:?}");
    assert_eq!(
        headings.iter().filter(|h| **h == 1).count(),
        1,
        "{headings:?}"
    );
    for w in headings.windows(2) {
        assert!(w[1] <= w[0] + 1, "a heading level skipped: {headings:?}");
    }
}

#[test]
fn the_canonical_report_lays_out_in_chromium_with_its_two_root_causes_as_a_graph() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("canonical");
    let page = report(&common::repo().join("examples/canonical"));
    for width in [1280, 400] {
        let m = measure(&browser, &page, &dir, width);
        check_layout(&m, width);
        assert_eq!(m["roots"], 2, "{m:#}");
        assert!(m["symptoms"].as_u64().unwrap() >= 2, "{m:#}");
        assert_eq!(m["edges"], m["symptoms"], "one arrow per symptom: {m:#}");
        assert!(m["copyButtons"].as_u64().unwrap() >= 2, "{m:#}");
        let text = m["text"].as_str().unwrap();
        for want in [
            "main_container_misnamed",
            "rbac_forbidden",
            "kubectl patch flinkdeployment orders",
            "Verify",
        ] {
            assert!(text.contains(want), "{want} not shown");
        }
    }
    // The screenshot: the overview, the graph and the first finding.
    let png = dir.join("report-canonical.png");
    let file = dir.join("report.html");
    std::fs::write(&file, &page).unwrap();
    chrome(
        &browser,
        &[
            "--window-size=1200,1500",
            &format!("--screenshot={}", png.display()),
            &format!("file://{}", file.display()),
        ],
    );
    let bytes = std::fs::read(&png).expect("the screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let (w, h) = (
        u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
        u32::from_be_bytes(bytes[20..24].try_into().unwrap()),
    );
    assert_eq!((w, h), (1200, 1500));
    if std::env::var_os("KUBECTL_FLINK_BLESS").is_some() {
        std::fs::copy(&png, common::repo().join("docs/report-canonical.png")).unwrap();
    }
}

/// The canonical bundle with HTML in what a cluster would hold as written: a log line and an
/// event message.
fn hostile_bundle(into: &Path) -> PathBuf {
    let from = common::repo().join("examples/canonical");
    let to = into.join("bundle");
    let payload =
        "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">&amp;\"'";
    copy_dir(&from, &to);
    let log = to.join("logs/analytics/orders-5d8f9c7b6d-x7k2p/flink-main-container.previous.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let text = text.replace(
        "Fatal error occurred in ResourceManager.",
        &format!("Fatal error occurred in ResourceManager {payload}."),
    );
    std::fs::write(&log, text).unwrap();
    let events = to.join("events.yaml");
    let text = std::fs::read_to_string(&events).unwrap();
    let marker = "message: Back-off restarting failed container flink-job-manager";
    assert!(text.contains(marker));
    let text = text.replace(
        marker,
        &format!("message: '{}' #", payload.replace('\'', "''")),
    );
    std::fs::write(&events, text).unwrap();
    to
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn hostile_text_from_a_bundle_is_shown_and_never_runs() {
    let Some(browser) = chromium() else { return };
    let dir = scratch("hostile");
    let page = report(&hostile_bundle(&dir));
    assert!(
        page.contains("&lt;script&gt;window.__pwned=1"),
        "the payload reached the page escaped"
    );
    let m = measure(&browser, &page, &dir, 1280);
    check_layout(&m, 1280);
    assert_eq!(m["pwned"], "undefined", "a payload ran");
    assert_eq!(m["images"], 0, "{m:#}");
    assert_eq!(m["scripts"], 2, "the page's own and the measurement's");
    assert!(
        m["text"]
            .as_str()
            .unwrap()
            .contains("<script>window.__pwned=1</script>"),
        "shown as text"
    );
}

/// WCAG 2 relative luminance of `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    let c = |shift: u32| {
        let x = f64::from((v >> shift) & 0xff) / 255.0;
        if x <= 0.03928 {
            x / 12.92
        } else {
            ((x + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(16) + 0.7152 * c(8) + 0.0722 * c(0)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn the_palette_reads_at_aa_contrast() {
    // The colours as the page declares them (`:root{--name:#hex;...}`), no browser needed.
    let page = report(&common::repo().join("examples/canonical"));
    let root = page
        .split(":root{")
        .nth(1)
        .and_then(|r| r.split('}').next())
        .expect(":root in the page");
    let colours: std::collections::HashMap<&str, &str> =
        root.split(';').filter_map(|d| d.split_once(':')).collect();
    let mut pairs = vec![
        ("--fg", "--bg"),
        ("--muted", "--bg"),
        ("--link", "--bg"),
        ("--fg", "--code-bg"),
        ("--code-fg", "--code-bg"),
    ];
    for sev in ["critical", "warning", "info", "ok"] {
        let (fg, bg) = (format!("--{sev}-fg"), format!("--{sev}-bg"));
        pairs.push((
            Box::leak(fg.into_boxed_str()),
            Box::leak(bg.clone().into_boxed_str()),
        ));
        // Graph nodes draw the title in --fg on the severity's background.
        pairs.push(("--fg", Box::leak(bg.into_boxed_str())));
    }
    for (fg, bg) in pairs {
        let (a, b) = (colours[fg], colours[bg]);
        let c = contrast(a, b);
        assert!(
            c >= 4.5,
            "{fg} {a} on {bg} {b}: {c:.2}:1, under WCAG AA's 4.5:1"
        );
    }
}
