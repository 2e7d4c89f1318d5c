//! The GPU and the CPU rasterizer agree: the same fixed-function draws (pre-transformed triangles
//! at sub-pixel positions, with perspective, both windings) give the same coverage on both, and the
//! same interpolated colours within float rounding.

use std::collections::BTreeMap;

use d3d9_shader::bytecode::Usage;
use gpu_harness::case::{CompareFunc, CullMode, TargetFormat};
use gpu_harness::cpu::{self, CpuTargets, FogSource, MergeState};
use gpu_harness::device::gpu_for_test;
use gpu_harness::fixed_function::{default_layout, pixel_wgsl, vertex_wgsl, FixedPixel, FixedPixelState, FixedVertex};
use gpu_harness::gpu::{draw, DrawCall, FixedState};
use gpu_harness::targets::{GpuTargets, Image};

const W: u32 = 61;
const H: u32 = 47;

/// A pre-transformed vertex: pixel position, z, rhw, and a colour.
fn vtx(x: f32, y: f32, z: f32, rhw: f32, c: [f32; 4]) -> [[f32; 4]; 16] {
    let mut v = [[0.0, 0.0, 0.0, 1.0]; 16];
    v[0] = [x, y, z, rhw];
    v[5] = c;
    let _ = Usage::Color;
    v
}

fn scene() -> Vec<[[f32; 4]; 16]> {
    vec![
        // Clockwise (front) triangle with edges through pixel centres and perspective.
        vtx(2.0, 3.0, 0.2, 1.0, [1.0, 0.0, 0.0, 1.0]),
        vtx(40.0, 3.0, 0.5, 0.25, [0.0, 1.0, 0.0, 0.5]),
        vtx(2.0, 30.0, 0.9, 0.5, [0.0, 0.0, 1.0, 0.0]),
        // Counter-clockwise (back) triangle at sub-pixel positions.
        vtx(30.25, 20.5, 0.1, 1.0, [0.3, 0.6, 0.9, 1.0]),
        vtx(58.75, 45.125, 0.3, 2.0, [0.9, 0.1, 0.4, 1.0]),
        vtx(59.5, 10.0, 0.7, 0.75, [0.2, 0.8, 0.5, 1.0]),
        // A thin sliver sharing an edge with the next triangle (fill rule on a shared diagonal).
        vtx(10.0, 35.0, 0.4, 1.0, [1.0; 4]),
        vtx(30.0, 45.0, 0.4, 1.0, [1.0; 4]),
        vtx(10.0, 45.0, 0.4, 1.0, [1.0; 4]),
        vtx(10.0, 35.0, 0.4, 1.0, [0.5; 4]),
        vtx(30.0, 35.0, 0.4, 1.0, [0.5; 4]),
        vtx(30.0, 45.0, 0.4, 1.0, [0.5; 4]),
    ]
}

fn run(format: TargetFormat) -> Option<(Image, Image)> {
    let gpu = gpu_for_test("gpu_raster")?;
    let ff = FixedVertex {
        pretransformed: true,
        target_size: (W, H),
        has_diffuse: true,
        has_specular: false,
        texcoords: 0,
        lighting: false,
        vertex_fog: None,
    };
    let verts = scene();
    let merge = MergeState {
        cull: CullMode::None,
        z_enable: true,
        z_func: CompareFunc::LessEqual,
        z_write: true,
        fog: FogSource::Off,
        fog_color: [0.0; 3],
        flat: false,
        table_depth_from_fog: false,
        blend: None,
        alpha_test: None,
    };
    let mut cpu_t = CpuTargets {
        colors: vec![Image::new(W, H, format, 0xff202020)],
        depth: vec![1.0; (W * H) as usize],
        ties: vec![false; (W * H) as usize],
        perspective: false,
    };
    cpu::draw(&mut cpu_t, &verts, false, 4, &ff, &FixedPixel, &merge, &[1.0]).unwrap();

    let layout = default_layout();
    let vs = naga::front::wgsl::parse_str(&vertex_wgsl(&ff, &layout)).unwrap();
    let pstate = FixedPixelState { fog: FogSource::Off, fog_color: [0.0; 3], alpha_test: None };
    let ps = naga::front::wgsl::parse_str(&pixel_wgsl(&pstate, &layout)).unwrap();
    let targets = GpuTargets::new(&gpu.device, W, H, &[format]);
    targets.clear(&gpu.device, &gpu.queue, Some(0xff202020), Some(1.0));
    let call = DrawCall {
        constants: Default::default(),
        sources: [None, None],
        vs: (&vs, "main"),
        ps: (&ps, "main"),
        vertices: &verts,
        strip: false,
        points: false,
        resources: BTreeMap::new(),
        state: FixedState {
            cull: CullMode::None,
            z_enable: true,
            z_func: CompareFunc::LessEqual,
            z_write: true,
            blend: None,
        },
    };
    draw(&gpu, &targets, &call).unwrap();
    Some((targets.read(&gpu.device, &gpu.queue, 0), cpu_t.colors.remove(0)))
}

#[test]
fn float_target_coverage_and_interpolation_match() {
    let Some((g, c)) = run(TargetFormat::A32B32G32R32F) else { return };
    let background = [32.0 / 255.0, 32.0 / 255.0, 32.0 / 255.0, 1.0];
    let mut bad = Vec::new();
    let drawn = c.pixels.iter().filter(|p| **p != background).count();
    assert!(drawn > 800, "the scene covers {drawn} pixels only");
    for y in 0..H {
        for x in 0..W {
            let (a, b) = (g.get(x, y), c.get(x, y));
            let covered_g = a != background;
            let covered_c = b != background;
            if covered_g != covered_c || a.iter().zip(b).any(|(p, q)| (p - q).abs() > 2e-6) {
                bad.push(format!("({x}, {y}): gpu {a:?} cpu {b:?}"));
            }
        }
    }
    assert!(bad.is_empty(), "{} pixels differ:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

#[test]
fn unorm_target_matches_within_one() {
    let Some((g, c)) = run(TargetFormat::A8R8G8B8) else { return };
    let mut bad = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let (a, b) = (g.argb(x, y), c.argb(x, y));
            let diff = (0..4).map(|k| ((a >> (8 * k)) & 0xff).abs_diff((b >> (8 * k)) & 0xff)).max().unwrap();
            if diff > 1 {
                bad.push(format!("({x}, {y}): gpu {a:08x} cpu {b:08x}"));
            }
        }
    }
    assert!(bad.is_empty(), "{} pixels differ:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}
