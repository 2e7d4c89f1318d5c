//! Parses and translates (to SPIR-V) each shader of a list a number of times, for a profiler:
//! the front end is `Shader::parse`, the whole path adds `Shader::translate` and emission.
//!
//! ```sh
//! cargo build --release -p d3d9-shader --example front_profile
//! valgrind --tool=callgrind target/release/examples/front_profile \
//!     ../shared/bench-corpus/common.list 3
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! ```

use std::path::Path;

use d3d9_shader::{ParseOptions, Shader, ShaderKey};

#[inline(never)]
fn parse(bytes: &[u8]) -> Option<Shader> {
    Shader::parse(bytes, &ParseOptions::lenient()).ok()
}

#[inline(never)]
fn to_spirv(shader: &Shader) -> usize {
    shader.translate(&ShaderKey::default()).ok().and_then(|t| t.to_spirv().ok()).map_or(0, |w| w.len())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = Path::new(args.first().map_or("../shared/bench-corpus/common.list", String::as_str));
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let dir = list.parent().unwrap_or(Path::new("."));
    let text = std::fs::read_to_string(list).expect("the list");
    let blobs: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|name| std::fs::read(dir.join(format!("{}.bin", name.trim()))).ok())
        .collect();
    let mut words = 0;
    for _ in 0..rounds {
        for b in &blobs {
            if let Some(s) = parse(b) {
                words += to_spirv(&s);
            }
        }
    }
    println!("{} shaders, {rounds} rounds, {words} words", blobs.len());
}
