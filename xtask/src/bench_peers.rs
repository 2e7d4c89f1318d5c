//! `cargo xtask bench --peers DIR`: our translation timed side by side with two peer translators,
//! MojoShader (SPIR-V and GLSL) and vkd3d-shader (SPIR-V), whose timing programs
//! (`../shared/peers`, `mojodrv` and `vkd3ddrv`; their README gives the output formats) time a
//! list of `.bin` blobs round-robin as [`crate::bench`] does: a warm-up round, then the rounds,
//! one thread, in process.
//!
//! On these shared machines an absolute time decides nothing, since other processes and the
//! processor move it; the figure that counts is the ratio to a peer measured in the same run on
//! the same machine. So the peers and we alternate: in each iteration every peer's program runs
//! on the list, and right after it we time the same shaders the same way in this process
//! (peer, ours, peer, ours…). Each iteration gives a ratio, our statistic over the peer's same
//! statistic; the reported ratio is the median over iterations, so an iteration that a
//! compile on the other core slowed on one side only moves it little. Three statistics are
//! compared ([`RoundRobin`]): each shader's median over rounds then the median over shaders
//! (`total-spirv`'s statistic, the headline), the mean per round, and the thread's CPU time per
//! round (which leaves out the time other processes held the core). On a loaded machine the
//! mean per round of a short round reads high whenever the scheduler preempts a round, and it
//! does so more often to the peer's freshly started process than to ours (seen at a load of
//! 14 on 2 cores: the peer's round means 985 and 3030 µs against per-shader medians of 156):
//! the per-shader medians and the CPU time are the ones to trust there.
//!
//! Only shaders both translators accept are compared: each peer's program first translates
//! every shader once (its `check` mode) and the ones it refuses or crashes on are left out of
//! its list. The blobs the peers read are the bytes we time, written to a temporary folder.
//! Ratios under 1 mean we are faster.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use d3d9_shader::ShaderKey;

use crate::stats::{median, paired_ratios, RoundRobin};

/// Which of our outputs a peer's output is compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Output {
    Spirv,
    Wgsl,
}

impl Output {
    /// Translates `bytes` by the user's path; whether it succeeded.
    pub fn translate(self, bytes: &[u8], key: &ShaderKey) -> bool {
        let bytes = std::hint::black_box(bytes);
        match self {
            Output::Spirv => std::hint::black_box(crate::bench::to_spirv(bytes, key)).is_ok(),
            Output::Wgsl => std::hint::black_box(crate::bench::to_wgsl(bytes, key)).is_ok(),
        }
    }
}

/// A peer translator's timing program.
#[derive(Debug)]
pub struct Peer {
    /// The ratio's name in the `bench:` line.
    pub ratio: &'static str,
    /// The program under the peers' folder.
    program: &'static str,
    /// Its arguments before the list (MojoShader's profile).
    profile: &'static [&'static str],
    /// What its output is compared with.
    ours: Output,
    /// Whether it accepts most of a real game's shaders: vkd3d refuses many SM3 opcodes (about
    /// 70 % of `../shared/real-corpus-xray`), too few left to stand for that corpus.
    pub takes_real_corpora: bool,
}

/// The peers, in the order each iteration runs them.
pub const PEERS: [Peer; 3] = [
    Peer {
        ratio: "vs-mojo-spirv",
        program: "mojodrv",
        profile: &["spirv"],
        ours: Output::Spirv,
        takes_real_corpora: true,
    },
    Peer { ratio: "vs-vkd3d-spirv", program: "vkd3ddrv", profile: &[], ours: Output::Spirv, takes_real_corpora: false },
    Peer {
        ratio: "wgsl-vs-mojo-glsl",
        program: "mojodrv",
        profile: &["glsl"],
        ours: Output::Wgsl,
        takes_real_corpora: true,
    },
];

/// One shader as both sides read it.
pub struct Blob {
    /// Its name under the corpus (`/` for sub-folders): the peers read `NAME.bin`.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A set of shaders to compare on, and the peers to compare with there.
pub struct Corpus<'a> {
    /// Prefixes the ratios' names in the `bench:` line (`real-`), empty for the bench's corpus.
    pub prefix: &'static str,
    pub dir: &'a Path,
    /// Shaders that we translate.
    pub blobs: &'a [Blob],
    pub peers: Vec<&'a Peer>,
}

/// How many iterations and rounds, with which key.
pub struct Plan<'a> {
    pub peers_dir: &'a Path,
    pub iterations: usize,
    pub rounds: usize,
    pub key: &'a ShaderKey,
}

/// What one peer's program said of one timing run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeerTiming {
    pub shaders: usize,
    pub failed: usize,
    pub summary: RoundRobin,
}

/// One peer against us on one corpus: the shaders both accept and each iteration's summaries.
struct Pairing<'a> {
    peer: &'a Peer,
    names: Vec<String>,
    list: PathBuf,
    ours: Vec<RoundRobin>,
    theirs: Vec<RoundRobin>,
    /// Why the peer's timing stopped (its program failed): no ratio then.
    failure: Option<String>,
}

/// The first line of /proc/loadavg (1, 5 and 15 minutes, runnable/all, last pid), or why not.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(|e| format!("unknown ({e})"), |t| t.trim().to_string())
}

/// Compares `corpus` with its peers; the `bench:` line's fragments, or why not.
pub fn compare(corpus: &Corpus, plan: &Plan) -> Result<Vec<String>, String> {
    let scratch = std::env::temp_dir().join(format!("xtask-bench-peers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let result = compare_in(corpus, plan, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn compare_in(corpus: &Corpus, plan: &Plan, scratch: &Path) -> Result<Vec<String>, String> {
    let blob_dir = scratch.join("blobs");
    for b in corpus.blobs {
        write_creating(&blob_dir.join(format!("{}.bin", b.name)), &b.bytes)?;
    }
    let all: Vec<String> = corpus.blobs.iter().map(|b| b.name.clone()).collect();
    let mut pairings = Vec::new();
    for (i, peer) in corpus.peers.iter().enumerate() {
        let program = plan.peers_dir.join(peer.program);
        let out = scratch.join(format!("check-{i}"));
        let ok = accepted(&program, peer.profile, &all, &blob_dir, &out, scratch)?;
        let names: Vec<String> = all.iter().filter(|n| ok.contains(*n)).cloned().collect();
        let list = scratch.join(format!("{i}.list"));
        write_creating(&list, names.join("\n").as_bytes())?;
        pairings.push(Pairing { peer, names, list, ours: Vec::new(), theirs: Vec::new(), failure: None });
    }
    let before = load_average();
    let bar = crate::progress::bar(plan.iterations as u64);
    for _ in 0..plan.iterations {
        bar.inc(1);
        for p in pairings.iter_mut().filter(|p| !p.names.is_empty() && p.failure.is_none()) {
            let program = plan.peers_dir.join(p.peer.program);
            match time_peer(&program, p.peer.profile, &p.list, &blob_dir, plan.rounds) {
                Ok(t) if t.failed == 0 && t.shaders == p.names.len() => p.theirs.push(t.summary),
                Ok(t) => p.failure = Some(format!("{} of {} shaders failed in a timing run", t.failed, t.shaders)),
                Err(e) => p.failure = Some(e),
            }
            if p.failure.is_some() {
                continue;
            }
            let wanted: BTreeSet<&str> = p.names.iter().map(String::as_str).collect();
            let blobs: Vec<&[u8]> =
                corpus.blobs.iter().filter(|b| wanted.contains(b.name.as_str())).map(|b| &b.bytes[..]).collect();
            p.ours.push(time_ours(&blobs, p.peer.ours, plan.key, plan.rounds));
        }
    }
    bar.finish_and_clear();
    println!(
        "peers, side by side on {} shaders of {} ({} iterations of {} rounds after a warm-up, one thread; \
         ratio = our time / the peer's, under 1 = faster; load average before: {before}, after: {}):",
        corpus.blobs.len(),
        corpus.dir.display(),
        plan.iterations,
        plan.rounds,
        load_average()
    );
    Ok(pairings.iter().flat_map(|p| report(corpus.prefix, p)).collect())
}

/// Prints one pairing's line; its `bench:` fragments.
fn report(prefix: &str, p: &Pairing) -> Vec<String> {
    let name = format!("{prefix}{}", p.peer.ratio);
    if p.names.is_empty() {
        println!("  {name:<24} no shader both accept");
        return Vec::new();
    }
    if let Some(why) = &p.failure {
        println!("  {name:<24} no ratio: {why}");
        return Vec::new();
    }
    let ratio = |f: fn(&RoundRobin) -> f64| {
        let ours: Vec<f64> = p.ours.iter().map(f).collect();
        let theirs: Vec<f64> = p.theirs.iter().map(f).collect();
        paired_ratios(&ours, &theirs)
    };
    let mut headline = ratio(|s| s.median_of_medians);
    let (low, high) = headline.iter().fold((f64::INFINITY, 0.0f64), |(l, h), r| (l.min(*r), h.max(*r)));
    let [main, round, cpu] =
        [median(&mut headline), median(&mut ratio(|s| s.round_mean)), median(&mut ratio(|s| s.round_cpu))];
    let us = |v: &[RoundRobin]| median(&mut v.iter().map(|s| s.median_of_medians).collect::<Vec<_>>());
    println!(
        "  {name:<24} {main:.3} (iterations {low:.3}-{high:.3}), mean-per-round {round:.3}, thread-CPU {cpu:.3}; \
         ours {:.1} µs, peer {:.1} µs per shader; {} shaders both accept",
        us(&p.ours),
        us(&p.theirs),
        p.names.len()
    );
    vec![format!("{name} {main:.3}"), format!("{name}-round {round:.3}"), format!("{name}-cpu {cpu:.3}")]
}

/// The shaders of `dir` (one file each, [`crate::bench_corpus`]) that we translate to SPIR-V and
/// to WGSL under `key`; how many do not is printed.
pub fn translatable_blobs(dir: &Path, key: &ShaderKey) -> Vec<Blob> {
    let mut blobs = Vec::new();
    let mut refused = 0;
    for e in crate::bench_corpus::shaders(dir) {
        match crate::bench::blob(&e.path) {
            Ok(bytes) if Output::Spirv.translate(&bytes, key) && Output::Wgsl.translate(&bytes, key) => {
                blobs.push(Blob { name: e.name, bytes });
            }
            _ => refused += 1,
        }
    }
    if refused > 0 {
        println!("{refused} shaders of {} left out of the peers' comparison: we do not translate them", dir.display());
    }
    blobs
}

/// Writes `bytes` to `path`, creating its folder.
pub fn write_creating(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The names of `names` the peer's program translates (its `check` mode, once each). A crash
/// ends the program's run: the first shader it did not report is taken as the cause, left out,
/// and the program runs again on the rest.
pub fn accepted(
    program: &Path,
    profile: &[&str],
    names: &[String],
    blob_dir: &Path,
    out: &Path,
    scratch: &Path,
) -> Result<BTreeSet<String>, String> {
    for n in names {
        std::fs::create_dir_all(out.join(n).parent().unwrap_or(out)).map_err(|e| e.to_string())?;
    }
    let list = scratch.join("check.list");
    let mut ok = BTreeSet::new();
    let mut left: Vec<&String> = names.iter().collect();
    while !left.is_empty() {
        write_creating(&list, left.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n").as_bytes())?;
        let run = Command::new(program)
            .args(profile)
            .arg(&list)
            .arg(blob_dir)
            .arg("check")
            .arg(out)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        let reported = parse_check(&String::from_utf8_lossy(&run.stdout));
        ok.extend(reported.iter().filter(|(_, accepted)| *accepted).map(|(n, _)| n.clone()));
        let done: BTreeSet<&str> = reported.iter().map(|(n, _)| n.as_str()).collect();
        let rest: Vec<&String> = left.iter().copied().filter(|n| !done.contains(n.as_str())).collect();
        if run.status.success() || rest.is_empty() {
            break;
        }
        println!("  {} {}: stopped ({}) at {}; left out", program.display(), profile.join(" "), run.status, rest[0]);
        left = rest[1..].to_vec();
    }
    Ok(ok)
}

/// The `OK NAME BYTES` and `FAIL NAME` lines of a peer's check mode: each name, and whether it
/// translated.
pub fn parse_check(stdout: &str) -> Vec<(String, bool)> {
    stdout
        .lines()
        .filter_map(|l| {
            if let Some(rest) = l.strip_prefix("OK ") {
                let (name, _bytes) = rest.rsplit_once(' ')?;
                Some((name.to_string(), true))
            } else {
                l.strip_prefix("FAIL ").map(|name| (name.to_string(), false))
            }
        })
        .collect()
}

/// Runs the peer's program in timing mode on `list`.
fn time_peer(program: &Path, profile: &[&str], list: &Path, dir: &Path, rounds: usize) -> Result<PeerTiming, String> {
    let run = Command::new(program)
        .args(profile)
        .arg(list)
        .arg(dir)
        .arg(rounds.to_string())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    if !run.status.success() {
        return Err(format!("{} {} failed ({})", program.display(), profile.join(" "), run.status));
    }
    parse_timing(&stdout).ok_or_else(|| format!("{}: no timing line in {stdout:?}", program.display()))
}

/// The number that follows `marker` in `text`.
fn number_after<T: std::str::FromStr>(text: &str, marker: &str) -> Option<T> {
    let rest = &text[text.find(marker)? + marker.len()..];
    rest.split(|c: char| c.is_whitespace() || c == ')' || c == ',').next()?.parse().ok()
}

/// A timing line of a peer's program (`../shared/peers/README.md`): `LABEL: N shaders (F failed),
/// R rounds, mean us/shader per round: min A median B max C; thread-CPU us/shader per round: min
/// .. median D max ..; per-shader median over rounds: median-over-shaders M mean-over-shaders E`.
pub fn parse_timing(stdout: &str) -> Option<PeerTiming> {
    let line = stdout.lines().find(|l| l.contains("median-over-shaders"))?;
    let sections: Vec<&str> = line.split(';').collect();
    let [wall, cpu, per_shader] = sections[..] else { return None };
    Some(PeerTiming {
        shaders: number_after(wall, ": ")?,
        failed: number_after(wall, "(")?,
        summary: RoundRobin {
            median_of_medians: number_after(per_shader, "median-over-shaders ")?,
            mean_of_medians: number_after(per_shader, "mean-over-shaders ")?,
            round_mean: number_after(wall, " median ")?,
            round_cpu: number_after(cpu, " median ")?,
        },
    })
}

/// The calling thread's CPU time in µs.
fn thread_cpu_us() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write; CLOCK_THREAD_CPUTIME_ID exists on every Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e6 + t.tv_nsec as f64 / 1e3
}

/// Times `output` over `blobs` as the peers' programs time theirs (`common.h`'s `run_timing`):
/// a warm-up round, then `rounds` rounds each visiting every shader once, in order, the output
/// freed inside the timed span.
pub fn time_ours(blobs: &[&[u8]], output: Output, key: &ShaderKey, rounds: usize) -> RoundRobin {
    for b in blobs {
        output.translate(b, key);
    }
    let mut per_shader = vec![Vec::with_capacity(rounds); blobs.len()];
    let (mut wall, mut cpu) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let (start, start_cpu) = (Instant::now(), thread_cpu_us());
        for (b, times) in blobs.iter().zip(&mut per_shader) {
            let s = Instant::now();
            output.translate(b, key);
            times.push(s.elapsed().as_secs_f64() * 1e6);
        }
        wall.push(start.elapsed().as_secs_f64() * 1e6);
        cpu.push(thread_cpu_us() - start_cpu);
    }
    RoundRobin::from_samples(&mut per_shader, &mut wall, &mut cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_timing_line_gives_each_statistic() {
        let line = "mojoshader-spirv: 10 shaders (2 failed), 3 rounds, mean us/shader per round: min 158.0 median \
                    160.9 max 164.9; thread-CPU us/shader per round: min 155.1 median 159.5 max 164.8; per-shader \
                    median over rounds: median-over-shaders 155.6 mean-over-shaders 156.3\n";
        let t = parse_timing(line).unwrap();
        assert_eq!((t.shaders, t.failed), (10, 2));
        let want = RoundRobin { median_of_medians: 155.6, mean_of_medians: 156.3, round_mean: 160.9, round_cpu: 159.5 };
        assert_eq!(t.summary, want);
        assert_eq!(parse_timing("usage: mojodrv spirv|glsl LIST DIR ROUNDS|check OUTDIR"), None);
    }

    #[test]
    fn the_check_mode_lists_what_translated() {
        let out = "OK vs_skin_b1.vs_2_0 67228\nFAIL sub/ps_bad\nvkd3d-spirv: 1 of 2 translated, 67228 output bytes\n";
        assert_eq!(parse_check(out), [("vs_skin_b1.vs_2_0".to_string(), true), ("sub/ps_bad".to_string(), false)]);
    }

    #[test]
    fn only_mojoshader_stands_for_a_real_corpus() {
        let real: Vec<&str> = PEERS.iter().filter(|p| p.takes_real_corpora).map(|p| p.ratio).collect();
        assert_eq!(real, ["vs-mojo-spirv", "wgsl-vs-mojo-glsl"]);
    }
}
