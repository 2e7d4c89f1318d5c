//! The report of `cargo xtask gpu-check`: `report.json` (what a script reads) and `report.html`
//! (what a person reads) in one folder, with the failures' images under `images/`.
//!
//! The JSON holds the adapter (name, driver, driver info, backend, device type), the commit, the
//! command line, and per part its counts (passed, failed, skipped, not run when its time budget
//! ran out), its wall time and budget, its notes, and every failure with its id, message, the
//! command that draws it again and its images (paths relative to the report's folder).
//! [`check`] is what `cargo xtask test` asks of a report: an adapter named, every count present.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The adapter the check ran on (wgpu's `AdapterInfo`, as text).
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Adapter {
    /// "NVIDIA H100 80GB HBM3", "llvmpipe (LLVM 15.0.6, 256 bits)".
    pub name: String,
    /// The driver's name.
    pub driver: String,
    /// The driver's version text.
    pub driver_info: String,
    /// "Vulkan".
    pub backend: String,
    /// "DiscreteGpu", "Cpu", ….
    pub device_type: String,
}

/// One failure of a part.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Failure {
    /// The case, shader or program: unique within the part.
    pub id: String,
    /// What went wrong (the first messages, joined by newlines).
    pub message: String,
    /// The command that runs it again alone.
    pub reproduce: String,
    /// Its images (GPU, CPU, difference per target), relative to the report's folder.
    pub images: Vec<String>,
}

/// One part of the check.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Part {
    /// "conformance", "sweep-strict", "fuzz-diff", "bench-gpu".
    pub name: String,
    /// Items that passed.
    pub passed: u64,
    /// Items that failed.
    pub failed: u64,
    /// Items skipped (by the runner, with a reason: an unsupported feature, no reference).
    pub skipped: u64,
    /// Items not run because the part's time budget was spent.
    pub not_run: u64,
    /// Whether the budget ended the part before its items did.
    pub stopped_early: bool,
    /// Seconds the part took.
    pub wall_s: f64,
    /// Seconds it was allowed.
    pub budget_s: f64,
    /// What the part ran (sample, seed, inputs) and anything said along the way.
    pub notes: Vec<String>,
    /// Every failure.
    pub failures: Vec<Failure>,
}

/// The whole report.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// The adapter.
    pub adapter: Adapter,
    /// `git rev-parse HEAD` (with `-dirty` when the tree has changes), or "unknown".
    pub commit: String,
    /// The command line.
    pub command: String,
    /// Whether `--quick` was given.
    pub quick: bool,
    /// Seconds the whole check took.
    pub wall_s: f64,
    /// The parts, in the order they ran.
    pub parts: Vec<Part>,
}

impl Report {
    /// Whether nothing failed.
    pub fn passed(&self) -> bool {
        self.parts.iter().all(|p| p.failed == 0)
    }

    /// Writes `dir/report.json` and `dir/report.html`.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let json = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(dir.join("report.json"), json + "\n")?;
        std::fs::write(dir.join("report.html"), self.html())
    }

    /// The page: the adapter and commit, a table of the parts, then each part's failures with
    /// their commands and images.
    pub fn html(&self) -> String {
        let mut h = String::new();
        let verdict = if self.passed() { "<span class=pass>passed</span>" } else { "<span class=fail>FAILED</span>" };
        let _ = write!(
            h,
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>gpu-check: {name}</title><style>\
             body{{font-family:sans-serif}} td,th{{text-align:left;vertical-align:top;padding:4px;border-bottom:1px solid #ccc}}\
             .pass{{color:#070}} .fail{{color:#b00;font-weight:bold}} pre{{white-space:pre-wrap;margin:0}}\
             img{{image-rendering:pixelated;max-width:256px;border:1px solid #888}}</style></head><body>\
             <h1>gpu-check {verdict}</h1><table>",
            name = escape(&self.adapter.name)
        );
        let a = &self.adapter;
        let rows = [
            ("adapter", a.name.as_str()),
            ("device type", &a.device_type),
            ("backend", &a.backend),
            ("driver", &a.driver),
            ("driver info", &a.driver_info),
            ("commit", &self.commit),
            ("command", &self.command),
        ];
        for (k, v) in rows {
            let _ = write!(h, "<tr><th>{k}</th><td>{}</td></tr>", escape(v));
        }
        let _ = writeln!(h, "<tr><th>wall</th><td>{:.1} s</td></tr></table>", self.wall_s);
        h.push_str(
            "<h2>Parts</h2><table><tr><th>part</th><th>passed</th><th>failed</th><th>skipped</th>\
             <th>not run</th><th>seconds (budget)</th><th>notes</th></tr>\n",
        );
        for p in &self.parts {
            let class = if p.failed > 0 { "fail" } else { "pass" };
            let notes: Vec<String> = p.notes.iter().map(|n| escape(n)).collect();
            let _ = writeln!(
                h,
                "<tr><td><a href=\"#{id}\">{id}</a></td><td>{}</td><td class={class}>{}</td><td>{}</td><td>{}</td>\
                 <td>{:.1} ({:.0})</td><td>{}</td></tr>",
                p.passed,
                p.failed,
                p.skipped,
                p.not_run,
                p.wall_s,
                p.budget_s,
                notes.join("<br>"),
                id = escape(&p.name),
            );
        }
        h.push_str("</table>\n");
        for p in self.parts.iter().filter(|p| !p.failures.is_empty()) {
            let _ = writeln!(h, "<h2 id=\"{0}\">{0}: {1} failed</h2>", escape(&p.name), p.failed);
            for f in &p.failures {
                failure_html(&mut h, f);
            }
        }
        h.push_str("</body></html>\n");
        h
    }
}

/// One failure: its id, message, command and images.
fn failure_html(h: &mut String, f: &Failure) {
    let _ = write!(
        h,
        "<div><h3>{}</h3><pre>{}</pre><p>again: <code>{}</code></p>",
        escape(&f.id),
        escape(&f.message),
        escape(&f.reproduce)
    );
    for img in &f.images {
        let src = escape(img);
        let _ = write!(h, "<a href=\"{src}\"><img src=\"{src}\" alt=\"{src}\" title=\"{src}\"></a> ");
    }
    h.push_str("</div>\n");
}

/// Text as HTML (element content and quoted attribute values).
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// What `cargo xtask test` asks of a written report: it parses, names the adapter, has `parts`
/// parts (each with its counts, which the parse checks, and at least one item counted), and
/// passed. The error says what is missing.
pub fn check(path: &Path, parts: &[&str]) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let report: Report = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if report.adapter.name.trim().is_empty() {
        return Err(format!("{}: no adapter name", path.display()));
    }
    for name in parts {
        let Some(p) = report.parts.iter().find(|p| p.name == *name) else {
            return Err(format!("{}: no part `{name}`", path.display()));
        };
        if p.passed + p.failed + p.skipped == 0 {
            return Err(format!("{}: part `{name}` ran nothing", path.display()));
        }
    }
    if !report.passed() {
        let failed: Vec<&str> = report.parts.iter().filter(|p| p.failed > 0).map(|p| p.name.as_str()).collect();
        return Err(format!("{}: failures in {}", path.display(), failed.join(", ")));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            adapter: Adapter {
                name: "llvmpipe <LLVM & co>".into(),
                driver: "llvmpipe".into(),
                driver_info: "Mesa 22".into(),
                backend: "Vulkan".into(),
                device_type: "Cpu".into(),
            },
            commit: "abc123".into(),
            command: "cargo xtask gpu-check --quick".into(),
            quick: true,
            wall_s: 12.5,
            parts: vec![
                Part { name: "conformance".into(), passed: 3, skipped: 1, ..Part::default() },
                Part {
                    name: "sweep-strict".into(),
                    passed: 2,
                    failed: 1,
                    failures: vec![Failure {
                        id: "ps_<3>".into(),
                        message: "target 0: \"x\" < y".into(),
                        reproduce: "cargo xtask sweep --filter a&b".into(),
                        images: vec!["images/sweep-strict_ps_t0_gpu.png".into()],
                    }],
                    ..Part::default()
                },
            ],
        }
    }

    #[test]
    fn the_json_holds_every_field_and_the_html_escapes_text() {
        let dir = std::env::temp_dir().join(format!("d3d9-gpu-check-report-{}", std::process::id()));
        let report = sample();
        report.write(&dir).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
        for field in ["name", "driver", "driver_info", "backend", "device_type"] {
            assert!(json["adapter"][field].is_string(), "adapter.{field}");
        }
        assert_eq!(json["commit"], "abc123");
        assert_eq!(json["command"], "cargo xtask gpu-check --quick");
        let part = &json["parts"][1];
        for field in ["passed", "failed", "skipped", "not_run", "wall_s", "budget_s"] {
            assert!(part[field].is_number(), "parts[1].{field}");
        }
        let f = &part["failures"][0];
        assert_eq!(
            (f["id"].as_str(), f["reproduce"].as_str()),
            (Some("ps_<3>"), Some("cargo xtask sweep --filter a&b"))
        );
        assert_eq!(f["images"][0], "images/sweep-strict_ps_t0_gpu.png");

        let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
        assert!(html.contains("llvmpipe &lt;LLVM &amp; co&gt;"), "{html}");
        assert!(html.contains("ps_&lt;3&gt;") && html.contains("&quot;x&quot; &lt; y") && html.contains("a&amp;b"));
        assert!(!html.contains("<LLVM") && !html.contains("ps_<3>"));
        assert!(html.contains("<img src=\"images/sweep-strict_ps_t0_gpu.png\""));
        assert!(html.contains("FAILED"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn check_wants_an_adapter_every_part_and_no_failure() {
        let dir = std::env::temp_dir().join(format!("d3d9-gpu-check-check-{}", std::process::id()));
        let mut report = sample();
        report.write(&dir).unwrap();
        let path = dir.join("report.json");
        // sweep-strict failed.
        assert!(check(&path, &["conformance"]).unwrap_err().contains("failures in sweep-strict"));
        report.parts[1] = Part { name: "sweep-strict".into(), passed: 2, ..Part::default() };
        report.write(&dir).unwrap();
        assert!(check(&path, &["conformance", "sweep-strict"]).is_ok());
        assert!(check(&path, &["fuzz-diff"]).unwrap_err().contains("no part `fuzz-diff`"));
        report.parts[0].passed = 0;
        report.parts[0].skipped = 0;
        report.write(&dir).unwrap();
        assert!(check(&path, &["conformance"]).unwrap_err().contains("ran nothing"));
        report.adapter.name = " ".into();
        report.write(&dir).unwrap();
        assert!(check(&path, &[]).unwrap_err().contains("no adapter name"));
        // A count missing from the JSON fails the parse.
        std::fs::write(&path, r#"{"adapter":{"name":"x"},"parts":[{"name":"a","passed":1}]}"#).unwrap();
        assert!(check(&path, &[]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
