//! Every valid shader of `../shared/corpus` and `../shared/bench-corpus` executes in the CPU
//! interpreter on simple inputs, without error and within the default step limit.

use d3d9_shader::bytecode::TextureDimension;
use d3d9_shader::bytecode::{decode, ShaderKind};
use d3d9_shader::interp::{
    run_pixel_quad, run_vertex, AddressMode, Constants, Filter, MipFilter, Options, PixelInput, ReferenceSampler,
    ReferenceTexture, VertexInput,
};
use d3d9_tests::{hex_files, parse_hex, shared_dir, valid_corpus_shaders};

/// A small mipmapped texture of each type on every sampler, vertex samplers included.
fn sampler() -> ReferenceSampler {
    let make = |ty: TextureDimension| {
        let (faces, depth) = match ty {
            TextureDimension::Cube => (6, 1),
            TextureDimension::Volume => (1, 4),
            TextureDimension::Tex2D => (1, 1),
        };
        // 4×4(×4) level 0, then 2×2(×2), then 1×1: 64 + 8 + 1 texels per face for a volume.
        let per_face: usize = (0..3).map(|l| (4usize >> l).pow(2) * (depth >> l).max(1)).sum();
        let texels = (0..faces * per_face).map(|i| [(i % 7) as f32 / 7.0, (i % 5) as f32 / 5.0, 0.5, 1.0]).collect();
        let mut t = ReferenceTexture::new(ty, 4, 4, depth as u32, 3, texels).expect("sizes match");
        t.filter = Filter::Linear;
        t.mip_filter = MipFilter::Linear;
        t.address = AddressMode::Wrap;
        t
    };
    let mut s = ReferenceSampler::default();
    for i in 0..16 {
        s.bind(i, make([TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume][i % 3]));
    }
    s.vertex_textures = (0..4).map(|_| Some(make(TextureDimension::Tex2D))).collect();
    s
}

fn constants() -> Constants {
    let mut c = Constants {
        float: (0..256).map(|i| [0.5 + i as f32 * 0.01, -0.25, 0.75, 1.0]).collect(),
        ..Constants::default()
    };
    for i in 0..16 {
        c.int[i] = [4, 0, 1, 0];
        c.bool[i] = i % 2 == 0;
    }
    c
}

#[test]
fn every_valid_corpus_shader_runs() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let sampler = sampler();
    let constants = constants();
    let options = Options::default();
    let mut failures = Vec::new();
    let (mut vertex, mut pixel) = (0, 0);
    for (path, tokens) in valid_corpus_shaders(&shared) {
        let program = match decode(&tokens) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: decode: {e}", path.display()));
                continue;
            }
        };
        let result = match program.version.kind {
            ShaderKind::Vertex => {
                vertex += 1;
                let mut input = VertexInput::default();
                for (i, v) in input.v.iter_mut().enumerate() {
                    *v = [0.1 * i as f32, 0.2, -0.3, 1.0];
                }
                run_vertex(&program, &input, &constants, &options, &sampler).map(|_| ())
            }
            ShaderKind::Pixel => {
                pixel += 1;
                let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
                    let (x, y) = ((lane & 1) as f32, (lane >> 1) as f32);
                    let mut i = PixelInput { vpos: [x, y], ..PixelInput::default() };
                    for (k, v) in i.v.iter_mut().enumerate() {
                        *v = [0.5, 0.25 + 0.01 * k as f32, 0.75, 1.0];
                    }
                    for (k, t) in i.t.iter_mut().enumerate() {
                        *t = [0.3 + 0.1 * x, 0.6 + 0.1 * y, 0.1 * k as f32 + 0.2, 1.0];
                    }
                    i
                });
                run_pixel_quad(&program, &inputs, &constants, &options, &sampler).map(|_| ())
            }
        };
        if let Err(e) = result {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    eprintln!("ran {vertex} vertex and {pixel} pixel shaders");
    assert!(vertex + pixel > 500, "expected the corpora, found {} shaders", vertex + pixel);
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// Every generated valid program runs to the end with its own constants and inputs.
#[test]
fn every_generated_program_runs() {
    use d3d9_shader::bytecode::RegisterType;
    use d3d9_tests::generate::{generate, versions};
    let sampler = sampler();
    let options = Options::default();
    let mut failures = Vec::new();
    for v in versions() {
        for seed in 0..100 {
            let g = generate(v, seed).unwrap();
            let mut c = Constants::default();
            for &(r, val) in &g.float_consts {
                if c.float.len() <= r as usize {
                    c.float.resize(r as usize + 1, [0.0; 4]);
                }
                c.float[r as usize] = val;
            }
            for &(r, val) in &g.int_consts {
                c.int[r as usize] = val;
            }
            for &(r, val) in &g.bool_consts {
                c.bool[r as usize] = val;
            }
            let result = if v.is_vertex() {
                let mut input = VertexInput::default();
                for i in &g.inputs {
                    input.v[i.reg.num as usize] = i.value;
                }
                run_vertex(&g.program, &input, &c, &options, &sampler).map(|_| ())
            } else {
                let mut input = PixelInput::default();
                for i in &g.inputs {
                    match i.reg.ty {
                        RegisterType::Texture => input.t[i.reg.num as usize] = i.value,
                        _ => input.v[i.reg.num as usize] = i.value,
                    }
                }
                let inputs = [input.clone(), input.clone(), input.clone(), input];
                run_pixel_quad(&g.program, &inputs, &c, &options, &sampler).map(|_| ())
            };
            if let Err(e) = result {
                failures.push(format!("{v} seed {seed}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// Mutated corpus shaders that still decode (bit flips in every token position, invalid
/// programs included) end with a result or an error, never a panic or a hang.
#[test]
fn mutated_programs_never_panic() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let sampler = sampler();
    let constants = constants();
    let options = Options { step_limit: 20_000, ..Options::default() };
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        // xorshift64*: a fixed sequence, so a failure reproduces.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let (mut ran, mut failed) = (0, 0);
    for dir in ["corpus", "bench-corpus"] {
        for path in hex_files(&shared.join(dir)) {
            let tokens = parse_hex(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for _ in 0..8 {
                let mut t = tokens.clone();
                if t.len() > 1 {
                    let i = 1 + (next() as usize) % (t.len() - 1);
                    t[i] ^= 1 << (next() % 32);
                }
                let Ok(program) = decode(&t) else { continue };
                ran += 1;
                let result = match program.version.kind {
                    ShaderKind::Vertex => {
                        run_vertex(&program, &VertexInput::default(), &constants, &options, &sampler).map(|_| ())
                    }
                    ShaderKind::Pixel => {
                        let inputs: [PixelInput; 4] = Default::default();
                        run_pixel_quad(&program, &inputs, &constants, &options, &sampler).map(|_| ())
                    }
                };
                failed += result.is_err() as usize;
            }
        }
    }
    eprintln!("{ran} mutated programs ran, {failed} ended with an error");
    assert!(ran > 1000);
}
