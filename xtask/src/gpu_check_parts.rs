//! The parts of `cargo xtask gpu-check`, each through its own command's code: the conformance
//! cases (`conformance`'s folders and runner), one float rule's sweep sample (`sweep`'s folders
//! and `sweep::run_shader`), a fuzz-diff batch (`fuzz_diff::batch`) and the draw timings of
//! `bench --gpu` (`bench_gpu::time_on`). Each turns its results into a report part: counts,
//! failures with the command that runs each again, and the failures' images under `images/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gpu_harness::device::Gpu;
use gpu_harness::interpreted::Interpreter;
use gpu_harness::runner::{Backend, CaseResult, FloatRules, Runner, Verdict};
use gpu_harness::sweep;
use gpu_harness::translated::{Delivering, Translator};

use crate::conformance::Progress;
use crate::gpu_check_report::{Failure, Part};

/// What each part runs and may spend (`--quick`, `--sample`, `--seed`).
pub struct Plan {
    /// Every K-th conformance case of each folder.
    pub case_sample: u32,
    /// Every K-th shader of each sweep corpus.
    pub shader_sample: u32,
    /// Input sets per swept shader.
    pub inputs: u32,
    /// Programs of the fuzz-diff batch.
    pub programs: u64,
    /// The first seed.
    pub seed: u64,
    /// `bench --gpu`: heaviest shaders per stage, and rounds.
    pub heavy: usize,
    /// Rounds.
    pub rounds: usize,
    /// Budgets: conformance, each sweep rule, fuzz-diff, bench.
    pub budgets: [Duration; 4],
}

impl Plan {
    /// The full check stays under 8 minutes (7.6 of budgets, the rest for opening the device and
    /// the items running when a budget ends); `--quick` under 4 anywhere. On lavapipe on two
    /// cores the conformance cases are the slow part (about 1.5 a second) and a swept shader
    /// takes about 25 ms per input set, which the samples and budgets follow. The sweep's work is
    /// mostly the CPU side, single-threaded, so a fast GPU does not make it much shorter: the
    /// full check sweeps one shader in 4 per rule (the three rules together three in 4).
    pub fn new(quick: bool, sample: Option<u32>, seed: Option<u64>) -> Plan {
        let secs = Duration::from_secs;
        let seed = crate::fuzz_budget::start_seed(seed, &crate::fuzz_budget::Budget::Time(Duration::ZERO));
        if quick {
            Plan {
                case_sample: sample.unwrap_or(10),
                shader_sample: sample.unwrap_or(4),
                inputs: 2,
                programs: 200,
                seed,
                heavy: 2,
                rounds: 2,
                budgets: [secs(90), secs(30), secs(20), secs(20)],
            }
        } else {
            Plan {
                case_sample: sample.unwrap_or(1),
                shader_sample: sample.unwrap_or(4),
                inputs: 4,
                programs: 2000,
                seed,
                heavy: 3,
                rounds: 3,
                budgets: [secs(190), secs(60), secs(45), secs(40)],
            }
        }
    }
}

/// A part's clock: when it began and when its budget ends.
pub struct Clock {
    /// The start.
    pub start: Instant,
    /// The budget.
    pub budget: Duration,
}

impl Clock {
    /// Starts a part's clock.
    pub fn start(budget: Duration) -> Clock {
        Clock { start: Instant::now(), budget }
    }

    /// When the budget ends.
    pub fn deadline(&self) -> Instant {
        self.start + self.budget
    }

    /// Whether it has ended.
    pub fn spent(&self) -> bool {
        Instant::now() >= self.deadline()
    }
}

/// What every part reads.
pub struct Context<'a> {
    /// The device.
    pub gpu: &'a Gpu,
    /// The repository.
    pub root: &'a Path,
    /// `../shared`, when present.
    pub shared: Option<PathBuf>,
    /// The report's folder.
    pub out: &'a Path,
    /// Samples and budgets.
    pub plan: &'a Plan,
}

impl Context<'_> {
    /// The folders, as paths under the repository (`shaders/cases`) or their last two parts.
    fn labels(&self, dirs: &[PathBuf]) -> String {
        let label = |d: &PathBuf| match d.strip_prefix(self.root) {
            Ok(rel) => rel.to_string_lossy().into_owned(),
            Err(_) => tail(d),
        };
        dirs.iter().map(label).collect::<Vec<_>>().join(", ")
    }

    /// ` --adapter 'NAME'`, for the commands that run a failure again.
    fn adapter_arg(&self) -> String {
        format!(" --adapter {}", quote(&self.gpu.info.name))
    }
}

/// `text` as one shell word: as is when it is plain, else in single quotes.
pub fn quote(text: &str) -> String {
    let plain = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// "every case", "one case in 8".
fn one_in(k: u32, item: &str) -> String {
    if k == 1 {
        format!("every {item}")
    } else {
        format!("one {item} in {k}")
    }
}

/// Every `k`-th item of `items`, from `offset` (taken modulo `k`).
pub fn every<T: Clone>(items: &[T], k: u32, offset: u32) -> Vec<T> {
    let k = k.max(1) as usize;
    items.iter().skip(offset as usize % k).step_by(k).cloned().collect()
}

/// The lists' items taken in turn (the first of each list, then the second of each, …): a part
/// cut short by its budget has then drawn from every folder alike.
pub fn interleave<T>(lists: Vec<Vec<T>>) -> Vec<T> {
    let mut iters: Vec<_> = lists.into_iter().map(|l| l.into_iter()).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        out.extend(iters.iter_mut().filter_map(|i| i.next()));
        if out.len() == before {
            return out;
        }
    }
}

/// The last two parts of `path` (`conformance-ffp/fog_linear.toml`), which `--filter` matches.
fn tail(path: &Path) -> String {
    let parts: Vec<String> = path.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    parts[parts.len().saturating_sub(2)..].join("/")
}

/// A file name made of `text`: letters, digits, `-` and `_`.
fn file_name(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect()
}

/// Runs `run` on each of `items` until the clock's budget is spent; the results and how many
/// items were left.
fn until_spent<T>(items: &[T], clock: &Clock, mut run: impl FnMut(&T) -> CaseResult) -> (Vec<CaseResult>, u64) {
    let mut progress = Progress::new(items.len());
    let mut results = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if clock.spent() {
            return (results, (items.len() - i) as u64);
        }
        let r = run(item);
        progress.step(&r.name, &r.verdict);
        results.push(r);
    }
    (results, 0)
}

/// The part made of runner results: counts, skip reasons (grouped, in the notes), failures with
/// their images written under `out/images`.
fn part_of(
    name: &str,
    results: &[CaseResult],
    not_run: u64,
    clock: &Clock,
    out: &Path,
    again: &dyn Fn(&CaseResult) -> String,
) -> Part {
    let mut part = Part {
        name: name.into(),
        not_run,
        stopped_early: not_run > 0,
        budget_s: clock.budget.as_secs_f64(),
        ..Part::default()
    };
    let mut skips: BTreeMap<String, u64> = BTreeMap::new();
    for r in results {
        match &r.verdict {
            Verdict::Pass => part.passed += 1,
            Verdict::Skip(why) => {
                part.skipped += 1;
                *skips.entry(why.chars().take(100).collect()).or_default() += 1;
            }
            Verdict::Fail(messages) => {
                part.failed += 1;
                let id = format!("{} ({})", r.name, tail(&r.path));
                let mut message = messages.iter().take(8).cloned().collect::<Vec<_>>().join("\n");
                if messages.len() > 8 {
                    message.push_str(&format!("\n… {} more", messages.len() - 8));
                }
                let images = write_images(out, &format!("{name}_{}", file_name(&r.name)), r).unwrap_or_else(|e| {
                    message.push_str(&format!("\n(images not written: {e})"));
                    vec![]
                });
                part.failures.push(Failure { id, message, reproduce: again(r), images });
            }
        }
    }
    let mut skips: Vec<(String, u64)> = skips.into_iter().collect();
    skips.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (why, n) in skips.iter().take(8) {
        part.notes.push(format!("{n} skipped: {why}"));
    }
    if not_run > 0 {
        part.notes.push(format!("budget of {:.0} s spent: {not_run} not run", clock.budget.as_secs_f64()));
    }
    part.wall_s = clock.start.elapsed().as_secs_f64();
    part
}

/// Writes a failure's GPU, CPU and difference images as PNGs under `out/images`; their paths
/// relative to `out`.
fn write_images(out: &Path, base: &str, r: &CaseResult) -> std::io::Result<Vec<String>> {
    let mut paths = Vec::new();
    if r.images.is_empty() {
        return Ok(paths);
    }
    std::fs::create_dir_all(out.join("images"))?;
    for t in &r.images {
        let mut pngs = Vec::new();
        if let Some(g) = &t.gpu {
            pngs.push(("gpu", gpu_harness::report::png_bytes(g)));
        }
        if let Some(c) = &t.cpu {
            pngs.push(("cpu", gpu_harness::report::png_bytes(c)));
        }
        if let (Some(g), Some(c)) = (&t.gpu, &t.cpu) {
            pngs.push(("diff", gpu_harness::report::diff_png(g, c)));
        }
        for (what, bytes) in pngs {
            let rel = format!("images/{base}_t{}_{what}.png", t.index);
            std::fs::write(out.join(&rel), bytes)?;
            paths.push(rel);
        }
    }
    Ok(paths)
}

/// The conformance cases, as `cargo xtask conformance` draws them (its default folders, delivery
/// and fixed-function modes), every K-th of each folder.
pub fn conformance(ctx: &Context) -> Part {
    let clock = Clock::start(ctx.plan.budgets[0]);
    let shared = ctx.shared.as_deref();
    let dirs = crate::conformance::default_case_dirs(ctx.root, shared);
    let delivering = Delivering(d3d9_shader::Delivery::Baked);
    let roots = crate::conformance::default_corpus_roots(ctx.root, shared);
    let runner = Runner {
        float_rules: FloatRules::Strict,
        ffp_mode: gpu_harness::ffp_modes::FfpModes::Both,
        ..Runner::new(Some(ctx.gpu), &Interpreter, &delivering, roots, Backend::Both)
    };
    let k = ctx.plan.case_sample;
    let mut lists = Vec::new();
    let mut results = Vec::new();
    for dir in &dirs {
        let (f, errors) = crate::conformance::case_list(std::slice::from_ref(dir));
        lists.push(every(&f, k, 0));
        results.extend(errors);
    }
    let files = interleave(lists);
    eprintln!("gpu-check: conformance: {} cases ({})", files.len(), one_in(k, "case"));
    let (drawn, not_run) = until_spent(&files, &clock, |f| crate::conformance::run_case_file(&runner, f));
    results.extend(drawn);
    let adapter = ctx.adapter_arg();
    let again = |r: &CaseResult| format!("cargo xtask conformance --filter {}{adapter}", quote(&tail(&r.path)));
    let mut part = part_of("conformance", &results, not_run, &clock, ctx.out, &again);
    part.notes.insert(0, format!("{} of {}", one_in(k, "case"), ctx.labels(&dirs)));
    part
}

/// The rule's name, as `--float-rules` spells it.
pub fn rules_name(rules: FloatRules) -> &'static str {
    match rules {
        FloatRules::Strict => "strict",
        FloatRules::Fast => "fast",
        FloatRules::Ieee => "ieee",
    }
}

/// One float rule's sweep: every K-th shader of each of `sweep`'s default corpora, each rule
/// starting at a different offset so that the three rules together draw more shaders.
pub fn sweep(ctx: &Context, rules: FloatRules) -> Part {
    let clock = Clock::start(ctx.plan.budgets[1]);
    let name = format!("sweep-{}", rules_name(rules));
    let k = ctx.plan.shader_sample;
    let offset = match rules {
        FloatRules::Strict => 0,
        FloatRules::Fast => k / 3,
        FloatRules::Ieee => 2 * k / 3,
    };
    let dirs = crate::conformance::default_sweep_dirs(ctx.root, ctx.shared.as_deref());
    let mut lists = Vec::new();
    for d in &dirs {
        let mut files = sweep::shader_files(d);
        files.sort();
        lists.push(every(&files, k, offset).into_iter().map(|f| (d.clone(), f)).collect());
    }
    let shaders: Vec<(PathBuf, PathBuf)> = interleave(lists);
    eprintln!("gpu-check: {name}: {} shaders ({})", shaders.len(), one_in(k, "shader"));
    let options = sweep::SweepOptions { inputs: ctx.plan.inputs, float_rules: rules, inputs_of: None };
    let (results, not_run) = until_spent(&shaders, &clock, |(_, s)| {
        sweep::run_shader(s, Some(ctx.gpu), &Interpreter, &Translator, &options)
    });
    let adapter = ctx.adapter_arg();
    let inputs = ctx.plan.inputs;
    let again = |r: &CaseResult| {
        let corpus = shaders.iter().find(|(_, s)| *s == r.path).map_or_else(|| r.path.clone(), |(d, _)| d.clone());
        let file = r.path.strip_prefix(&corpus).unwrap_or(&r.path).to_string_lossy().into_owned();
        format!(
            "cargo xtask sweep --corpus {} --filter {} --float-rules {} --inputs {inputs}{adapter}",
            quote(&corpus.to_string_lossy()),
            quote(&file),
            rules_name(rules)
        )
    };
    let mut part = part_of(&name, &results, not_run, &clock, ctx.out, &again);
    let from = if k > 1 { format!(" from index {offset}") } else { String::new() };
    part.notes.insert(0, format!("{}{from} of {}, {inputs} input sets", one_in(k, "shader"), ctx.labels(&dirs)));
    part
}

/// A fuzz-diff batch: the plan's count of random programs across every generated version, from
/// its printed seed; shrunk failures under `out/fuzz-diff`.
pub fn fuzz_diff(ctx: &Context) -> Part {
    let clock = Clock::start(ctx.plan.budgets[2]);
    let s = crate::fuzz_diff::Settings {
        budget: crate::fuzz_budget::Budget::Count(ctx.plan.programs),
        seed: ctx.plan.seed,
        versions: d3d9_tests::generate::versions(),
        out: ctx.out.join("fuzz-diff"),
        adapter: None,
    };
    let mut part = Part { name: "fuzz-diff".into(), budget_s: clock.budget.as_secs_f64(), ..Part::default() };
    let mut tint = match crate::fuzz_diff::tint_checker() {
        Ok(t) => t,
        Err(()) => {
            part.failed = 1;
            part.failures.push(Failure {
                id: "tint".into(),
                message: "REQUIRE_TOOLS=1 but Tint (node and tests/tint's package) is missing".into(),
                reproduce: "cargo xtask fuzz-diff --count 1".into(),
                images: vec![],
            });
            return part;
        }
    };
    let tally = crate::fuzz_diff::batch(ctx.gpu, &mut tint, &s, Some(clock.deadline()));
    let versions = s.versions.len() as u64;
    let last = s.seed + tally.programs.saturating_sub(1) / versions;
    part.notes.push(format!(
        "{} programs across {versions} versions, seeds {} to {last}; WGSL {}",
        tally.programs,
        s.seed,
        if tint.is_some() { "also checked by Tint" } else { "not checked by Tint (no node)" }
    ));
    (part.passed, part.failed, part.skipped) = (tally.passed, tally.failed, tally.skipped);
    if tally.stopped_early {
        part.stopped_early = true;
        part.not_run = ctx.plan.programs - tally.programs;
        part.notes.push(format!(
            "budget of {:.0} s spent: {} programs not run",
            clock.budget.as_secs_f64(),
            part.not_run
        ));
    }
    let adapter = ctx.adapter_arg();
    for f in tally.failures {
        let saved = f.saved.map(|p| format!("\nshrunk case: {}", p.display())).unwrap_or_default();
        part.failures.push(Failure {
            id: f.name,
            message: format!("{}{saved}", f.message),
            reproduce: format!("cargo xtask fuzz-diff --count 1 --seed {} --version {}{adapter}", f.seed, f.version),
            images: vec![],
        });
    }
    part.wall_s = clock.start.elapsed().as_secs_f64();
    part
}

/// `bench --gpu`'s draw timings, short: the heaviest shaders of the bench corpus (shaders/
/// without it), strict against IEEE, a few rounds. It passes when every draw ran.
pub fn bench(ctx: &Context) -> Part {
    let clock = Clock::start(ctx.plan.budgets[3]);
    let mut part = Part { name: "bench-gpu".into(), budget_s: clock.budget.as_secs_f64(), ..Part::default() };
    let dir = ctx.shared.as_ref().map(|s| s.join("bench-corpus")).filter(|d| d.is_dir());
    let dir = dir.unwrap_or_else(|| ctx.root.join("shaders"));
    let entries = crate::bench_corpus::shaders(&dir);
    let (heavy, rounds) = (ctx.plan.heavy, ctx.plan.rounds);
    let rules = crate::bench_gpu::rule_pair(FloatRules::Strict);
    match crate::bench_gpu::time_on(ctx.gpu, &entries, heavy, rounds, rules, clock.deadline()) {
        Ok((summary, timed)) => {
            part.passed = 1;
            part.notes.push(format!(
                "{heavy} heaviest ps_3_0 and vertex shaders of {}, {timed} of {rounds} rounds",
                tail(&dir)
            ));
            part.notes.push(summary);
            if timed < rounds {
                part.stopped_early = true;
                part.notes.push(format!("budget of {:.0} s spent after {timed} rounds", clock.budget.as_secs_f64()));
            }
        }
        Err(e) => {
            part.failed = 1;
            part.failures.push(Failure {
                id: "bench-gpu".into(),
                message: e,
                reproduce: format!(
                    "cargo xtask bench --gpu --heavy {heavy} --rounds {rounds} --corpus {}",
                    quote(&dir.to_string_lossy())
                ),
                images: vec![],
            });
        }
    }
    part.wall_s = clock.start.elapsed().as_secs_f64();
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_take_every_kth_from_an_offset_and_words_are_quoted() {
        let items: Vec<u32> = (0..10).collect();
        assert_eq!(every(&items, 1, 0), items);
        assert_eq!(every(&items, 4, 0), [0, 4, 8]);
        assert_eq!(every(&items, 4, 1), [1, 5, 9]);
        assert_eq!(every(&items, 4, 6), [2, 6]);
        assert_eq!(interleave(vec![vec![1, 2, 3], vec![], vec![10, 20]]), [1, 10, 2, 20, 3]);
        assert_eq!(quote("ps_3_0.hex"), "ps_3_0.hex");
        assert_eq!(quote("llvmpipe (LLVM 15)"), "'llvmpipe (LLVM 15)'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(tail(Path::new("/a/b/conformance/x.toml")), "conformance/x.toml");
        assert_eq!((one_in(1, "case"), one_in(4, "shader")), ("every case".to_string(), "one shader in 4".to_string()));
    }

    #[test]
    fn a_part_counts_results_and_writes_each_failures_images() {
        use gpu_harness::case::TargetFormat;
        use gpu_harness::runner::TargetImages;
        use gpu_harness::targets::Image;
        let out = std::env::temp_dir().join(format!("d3d9-gpu-check-part-{}", std::process::id()));
        let result = |name: &str, verdict: Verdict, images: Vec<TargetImages>| CaseResult {
            name: name.into(),
            path: PathBuf::from(format!("/x/conformance/{name}.toml")),
            verdict,
            notes: vec![],
            images,
        };
        let g = Image::new(2, 2, TargetFormat::A8R8G8B8, 0xff00ff00);
        let c = Image::new(2, 2, TargetFormat::A8R8G8B8, 0xff0000ff);
        let results = [
            result("a", Verdict::Pass, vec![]),
            result("b", Verdict::Skip("no texture".into()), vec![]),
            result("c", Verdict::Skip("no texture".into()), vec![]),
            result(
                "d/e",
                Verdict::Fail(vec!["probe 0".into()]),
                vec![TargetImages { index: 1, gpu: Some(g), cpu: Some(c) }],
            ),
        ];
        let clock = Clock::start(std::time::Duration::from_secs(5));
        let again = |r: &CaseResult| format!("again {}", r.name);
        let part = part_of("conformance", &results, 3, &clock, &out, &again);
        assert_eq!((part.passed, part.failed, part.skipped, part.not_run, part.stopped_early), (1, 1, 2, 3, true));
        assert_eq!(part.notes, ["2 skipped: no texture", "budget of 5 s spent: 3 not run"]);
        let f = &part.failures[0];
        assert_eq!(
            (f.id.as_str(), f.message.as_str(), f.reproduce.as_str()),
            ("d/e (d/e.toml)", "probe 0", "again d/e")
        );
        let names = ["gpu", "cpu", "diff"].map(|w| format!("images/conformance_d_e_t1_{w}.png"));
        assert_eq!(f.images, names);
        for n in &names {
            assert_eq!(&std::fs::read(out.join(n)).unwrap()[1..4], b"PNG");
        }
        std::fs::remove_dir_all(&out).unwrap();
    }
}
