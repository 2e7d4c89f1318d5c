//! `cargo xtask gpu-check [--adapter NAME] [--out DIR] [--quick]`: the one command to spend a
//! lent GPU on. On one adapter it draws the conformance cases, a sample of every sweep corpus
//! under the three float rules, a fuzz-diff batch and a short `bench --gpu`, each part within its
//! own time budget, and writes one report (`report.json`, `report.html`) into DIR.
//!
//! Each part reuses its command's code (`conformance`, `sweep`, `fuzz_diff::batch`,
//! `bench_gpu::time_on`); what this file adds is the adapter's choice, the budgets and samples,
//! and the report. A part whose budget is spent stops after the item it is drawing and counts
//! the rest as not run. The exit status is 1 when anything failed (or no adapter opened).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clap::Args;
use gpu_harness::device::Gpu;
use gpu_harness::runner::FloatRules;

use crate::gpu_check_parts as parts;
use crate::gpu_check_report::{Adapter, Report};

/// `cargo xtask gpu-check`.
#[derive(Args)]
#[command(
    long_about = "Runs, on one Vulkan adapter and in bounded time, the conformance cases (the project's, \
                  ../shared/conformance, conformance-ffp and conformance-vkd3d), a sample of every sweep \
                  corpus under the strict, fast and ieee float rules, a fuzz-diff batch (its seed printed) \
                  and a short `bench --gpu`. Each part has a time budget (7.6 minutes in all, \
                  3.7 with --quick) and stops early, saying so, when it is spent. Writes DIR/report.json \
                  and DIR/report.html: the adapter, the commit, per part the counts, the time and every \
                  failure with the command that runs it again and its images. Exits 1 when anything \
                  failed.",
    after_help = crate::examples!(
        "cargo xtask gpu-check"
        "cargo xtask gpu-check --quick"
        "cargo xtask gpu-check --adapter nvidia --out target/h100"
    )
)]
pub struct GpuCheckArgs {
    /// The adapter whose name contains NAME (case-insensitive) [default: D3D9_ADAPTER, else a
    /// discrete GPU, else an integrated one, else any].
    #[arg(long, value_name = "NAME")]
    adapter: Option<String>,
    /// Where the report goes [default: target/gpu-check].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A smaller sample and shorter budgets: about 3 minutes.
    #[arg(long)]
    quick: bool,
    /// Every K-th conformance case and sweep shader of each folder [default: every case and
    /// shader; with --quick every 10th case and 4th shader].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    sample: Option<u32>,
    /// The fuzz-diff batch's first seed [default: the clock's seconds since 1970].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Set when the command runs itself again as a release build.
    #[arg(long, hide = true)]
    in_release: bool,
}

/// The parts' names, in the order they run.
pub const PARTS: &[&str] = &["conformance", "sweep-strict", "sweep-fast", "sweep-ieee", "fuzz-diff", "bench-gpu"];

/// The name of the adapter to open: `--adapter` (which must match one), else `D3D9_ADAPTER`'s
/// (left to [`Gpu::new`]), else the best kind present: discrete, integrated, virtual, other,
/// software. `Err` lists the adapters when none matches.
fn choose_adapter(wanted: Option<&str>) -> Result<Option<String>, String> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN;
    desc.flags = wgpu::InstanceFlags::empty();
    let instance = wgpu::Instance::new(desc);
    let infos: Vec<wgpu::AdapterInfo> =
        pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN)).iter().map(|a| a.get_info()).collect();
    let names: Vec<String> = infos.iter().map(|i| format!("`{}` ({:?})", i.name, i.device_type)).collect();
    let listed = if names.is_empty() { "none".to_string() } else { names.join(", ") };
    if let Some(w) = wanted {
        let lower = w.to_lowercase();
        return match infos.iter().find(|i| i.name.to_lowercase().contains(&lower)) {
            Some(i) => Ok(Some(i.name.clone())),
            None => Err(format!("no Vulkan adapter's name contains `{w}`; the adapters: {listed}")),
        };
    }
    if std::env::var("D3D9_ADAPTER").is_ok_and(|s| !s.is_empty()) {
        return Ok(None);
    }
    let rank = |t: wgpu::DeviceType| match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    match infos.iter().min_by_key(|i| rank(i.device_type)) {
        Some(i) => Ok(Some(i.name.clone())),
        None => Err("no Vulkan adapter (is a Vulkan driver installed? Mesa's lavapipe will do)".into()),
    }
}

/// The adapter's description for the report.
fn adapter_of(gpu: &Gpu) -> Adapter {
    let i = &gpu.info;
    Adapter {
        name: i.name.clone(),
        driver: i.driver.clone(),
        driver_info: i.driver_info.clone(),
        backend: format!("{:?}", i.backend),
        device_type: format!("{:?}", i.device_type),
    }
}

/// `git rev-parse HEAD`, `-dirty` when tracked files changed; "unknown" without git.
fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(head) if git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty()) => {
            format!("{head}-dirty")
        }
        Some(head) => head,
        None => "unknown".into(),
    }
}

/// `cargo xtask gpu-check …` as it was typed.
fn command_line() -> String {
    let args: Vec<String> =
        std::env::args().skip(1).filter(|a| a != "--in-release").map(|a| parts::quote(&a)).collect();
    format!("cargo xtask {}", args.join(" "))
}

pub fn main(args: &GpuCheckArgs) -> i32 {
    if cfg!(debug_assertions) && !args.in_release {
        // The interpreter and the harness unoptimised would spend the budgets on a fraction of
        // the cases.
        return crate::run_in_release("gpu-check");
    }
    let started = Instant::now();
    let root = crate::conformance::repo_root();
    let out = args.out.clone().unwrap_or_else(|| root.join("target/gpu-check"));
    let gpu = match choose_adapter(args.adapter.as_deref())
        .and_then(|name| Gpu::new(name.as_deref()).map_err(|e| format!("cannot open the adapter: {e}")))
    {
        Ok(g) => g,
        Err(e) => {
            eprintln!("xtask gpu-check: {e}");
            return 1;
        }
    };
    let plan = parts::Plan::new(args.quick, args.sample, args.seed);
    println!("gpu-check: on {}; fuzz-diff seed {}; report in {}", gpu.describe(), plan.seed, out.display());
    // A report's images and shrunk programs are this run's only.
    for sub in ["images", "fuzz-diff"] {
        let _ = std::fs::remove_dir_all(out.join(sub));
    }
    let ctx =
        parts::Context { gpu: &gpu, root: &root, shared: crate::conformance::shared_dir(), out: &out, plan: &plan };
    let mut report = Report {
        adapter: adapter_of(&gpu),
        commit: commit(&root),
        command: command_line(),
        quick: args.quick,
        ..Report::default()
    };
    report.parts.push(parts::conformance(&ctx));
    for rules in [FloatRules::Strict, FloatRules::Fast, FloatRules::Ieee] {
        report.parts.push(parts::sweep(&ctx, rules));
    }
    report.parts.push(parts::fuzz_diff(&ctx));
    report.parts.push(parts::bench(&ctx));
    report.wall_s = started.elapsed().as_secs_f64();
    summarize(&report, &out)
}

/// Prints a line per part, writes the report; the exit status.
fn summarize(report: &Report, out: &Path) -> i32 {
    for p in &report.parts {
        let early = if p.stopped_early { format!(", {} not run (budget spent)", p.not_run) } else { String::new() };
        println!(
            "gpu-check: {:<13} {} passed, {} failed, {} skipped{early} in {:.1} s",
            p.name, p.passed, p.failed, p.skipped, p.wall_s
        );
    }
    if let Err(e) = report.write(out) {
        eprintln!("xtask gpu-check: writing the report to {}: {e}", out.display());
        return 1;
    }
    println!("gpu-check: report {}", out.join("report.html").display());
    let verdict = if report.passed() { "passed" } else { "FAILED" };
    println!("gpu-check: {verdict} in {:.1} s on {}", report.wall_s, report.adapter.name);
    (!report.passed()) as i32
}
