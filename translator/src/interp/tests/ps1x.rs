//! ps_1_x texture instructions (docs/opcodes.md#ps1x-texture-ops), texkill and phase.
//!
//! The textures here are "coordinate" textures: texel (i, j, k) holds (i, j, k, 1) with point
//! filtering and clamping, so a lookup returns which texel the coordinates reached:
//! (floor(4u), floor(4v), floor(4w), 1) on a 4×4(×4) texture.

use super::*;
use crate::bytecode::TextureDimension;

fn coord_texture(ty: TextureDimension) -> ReferenceTexture {
    let d = if ty == TextureDimension::Volume { 4 } else { 1 };
    let mut texels = Vec::new();
    for k in 0..d {
        for j in 0..4 {
            for i in 0..4 {
                texels.push([i as f32, j as f32, k as f32, 1.0]);
            }
        }
    }
    let mut t = ReferenceTexture::new(ty, 4, 4, d, 1, texels).unwrap();
    t.address = AddressMode::Clamp;
    t
}

/// Every stage bound to a coordinate texture of the stage's type.
fn sampler(options: &Options) -> ReferenceSampler {
    let mut s = ReferenceSampler::default();
    for (i, st) in options.stages.iter().enumerate() {
        s.bind(i, coord_texture(st.texture_type));
    }
    s
}

fn inputs(t: &[(usize, [f32; 4])]) -> PixelInput {
    let mut input = PixelInput::default();
    for (i, v) in t {
        input.t[*i] = *v;
    }
    input
}

fn run(text: &str, t: &[(usize, [f32; 4])], options: &Options) -> PixelOutput {
    pixel(text, &inputs(t), &Constants::default(), options, &sampler(options))
}

/// r0 as the program left it ([`ps1x_r0`]: read through the x/32 + 0.5 encoding, since r0 leaves
/// a ps_1_x shader saturated, docs/d3d9-rules.md#ps1x-output-clamp); c6 and c7 must be free.
fn col(text: &str, t: &[(usize, [f32; 4])], options: &Options) -> [f32; 4] {
    ps1x_r0(text, &inputs(t), &Constants::default(), options, &sampler(options))
}

#[test]
fn texcoord_saturates_xyz_and_sets_w_one() {
    // t0 = (−0.5, 0.25, 1.5, 7) → (0, 0.25, 1, 1).
    let o = Options::default();
    assert_eq!(col("ps_1_1\ntexcoord t0\nmov r0, t0", &[(0, [-0.5, 0.25, 1.5, 7.0])], &o), [0.0, 0.25, 1.0, 1.0]);
    // Unused t# registers hold the coordinates (ps_1_0–1_3 seeding).
    assert_eq!(col("ps_1_1\nmov r0, t1", &[(1, [0.5, 0.5, 0.5, 0.5])], &o), [0.5; 4]);
}

#[test]
fn tex_samples_stage_n_with_coords_n_and_projection() {
    let mut o = Options::default();
    // t1 = (0.6, 0.3): texel (2, 1).
    assert_eq!(col("ps_1_1\ntex t1\nmov r0, t1", &[(1, [0.6, 0.3, 0.0, 1.0])], &o), [2.0, 1.0, 0.0, 1.0]);
    // COUNT4|PROJECTED: (1.2, 0.6, 0, 2) / 2 = (0.6, 0.3) → (2, 1); unprojected it would clamp to (3, 2).
    o.stages[1].transform = TextureTransform { count: 4, projected: true };
    assert_eq!(col("ps_1_1\ntex t1\nmov r0, t1", &[(1, [1.2, 0.6, 0.0, 2.0])], &o), [2.0, 1.0, 0.0, 1.0]);
    // COUNT3|PROJECTED divides by z.
    o.stages[1].transform = TextureTransform { count: 3, projected: true };
    assert_eq!(col("ps_1_1\ntex t1\nmov r0, t1", &[(1, [1.2, 0.6, 2.0, 9.0])], &o), [2.0, 1.0, 0.0, 1.0]);
}

#[test]
fn texbem_and_texbeml_use_the_destination_stage_matrix() {
    // t0 holds (du, dv) = (0.5, 0.25) (written by texcoord of coords 0); stage 1 matrix
    // [[m00, m01], [m10, m11]] = [[0.5, 0], [0, 1]]: u' = 0.1 + 0.5·0.5 = 0.35, v' = 0.1 + 0.25 = 0.35
    // → texel (1, 1).
    let mut o = Options::default();
    o.stages[1].bump_matrix = [[0.5, 0.0], [0.0, 1.0]];
    let t = [(0, [0.5, 0.25, 0.5, 1.0]), (1, [0.1, 0.1, 0.0, 1.0])];
    assert_eq!(col("ps_1_1\ntexcoord t0\ntexbem t1, t0\nmov r0, t1", &t, &o), [1.0, 1.0, 0.0, 1.0]);
    // Off-diagonal terms: m10 = 1 adds dv to u: u' = 0.1 + 0.25 + 0.25 = 0.6 → i = 2.
    o.stages[1].bump_matrix = [[0.5, 0.0], [1.0, 1.0]];
    assert_eq!(col("ps_1_1\ntexcoord t0\ntexbem t1, t0\nmov r0, t1", &t, &o), [2.0, 1.0, 0.0, 1.0]);
    // Projection before the offset: coords (0.2, 0.2, 0, 2) / 2 = (0.1, 0.1), then + offset.
    o.stages[1].transform = TextureTransform { count: 4, projected: true };
    let tp = [(0, [0.5, 0.25, 0.5, 1.0]), (1, [0.2, 0.2, 0.0, 2.0])];
    assert_eq!(col("ps_1_1\ntexcoord t0\ntexbem t1, t0\nmov r0, t1", &tp, &o), [2.0, 1.0, 0.0, 1.0]);
    // texbeml scales by t0.b·LS + LO = 0.5·2 + 0.5 = 1.5: (2, 1, 0, 1)·1.5.
    o.stages[1].luminance_scale = 2.0;
    o.stages[1].luminance_offset = 0.5;
    assert_eq!(col("ps_1_1\ntexcoord t0\ntexbeml t1, t0\nmov r0, t1", &tp, &o), [3.0, 1.5, 0.0, 1.5]);
}

#[test]
fn texreg2ar_gb_rgb() {
    let mut o = Options::default();
    // t0 = (r, g, b, a) = (0.1, 0.3, 0.6, 0.9) from texcoord (w is 1, so use mov of a def instead).
    // texreg2ar reads (a, r) = (0.9, 0.1) → texel (3, 0); texreg2gb reads (g, b) → (1, 2).
    let head = "ps_1_2\ndef c0, 0.1, 0.3, 0.6, 0.9\nmov t0, c0\n";
    assert_eq!(col(&format!("{head}texreg2ar t1, t0\nmov r0, t1"), &[], &o), [3.0, 0.0, 0.0, 1.0]);
    assert_eq!(col(&format!("{head}texreg2gb t1, t0\nmov r0, t1"), &[], &o), [1.0, 2.0, 0.0, 1.0]);
    // texreg2rgb on a volume stage: (0.1, 0.3, 0.6) → (0, 1, 2).
    o.stages[1].texture_type = TextureDimension::Volume;
    assert_eq!(col(&format!("{head}texreg2rgb t1, t0\nmov r0, t1"), &[], &o), [0.0, 1.0, 2.0, 1.0]);
}

#[test]
fn texm3x2pad_tex_and_depth() {
    let o = Options::default();
    // t0 = N = (0.5, 0.25, 1) from texcoord; coords 1 = (1, 0, 0.1) → u = 0.5 + 0.1 = 0.6;
    // coords 2 = (0, 1, 0) → v = 0.25 → texel (2, 1).
    let t = [(0, [0.5, 0.25, 1.0, 1.0]), (1, [1.0, 0.0, 0.1, 0.0]), (2, [0.0, 1.0, 0.0, 0.0])];
    let p = "ps_1_1\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2";
    assert_eq!(col(p, &t, &o), [2.0, 1.0, 0.0, 1.0]);
    // texm3x2depth: depth = u / w with w = coords 2 · N = 0.25 → 0.6 / 0.25 = 2.4 → clamped to 1;
    // with coords 2 = (2, 0, 0): w = 1 → 0.6.
    let p = "ps_1_3\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, c0";
    let out = run(p, &t, &o);
    assert_eq!(out.depth, Some(1.0));
    let t2 = [(0, [0.5, 0.25, 1.0, 1.0]), (1, [1.0, 0.0, 0.1, 0.0]), (2, [2.0, 0.0, 0.0, 0.0])];
    assert!((run(p, &t2, &o).depth.unwrap() - 0.6).abs() < 1e-6);
    // w = 0 gives depth 1.
    let t3 = [(0, [0.5, 0.25, 1.0, 1.0]), (1, [1.0, 0.0, 0.1, 0.0]), (2, [0.0, 0.0, 0.0, 0.0])];
    assert_eq!(run(p, &t3, &o).depth, Some(1.0));
}

#[test]
fn texm3x3_family() {
    // N = t0 = (0.25, 0.5, 0.75) (texcoord); rows from coords 1..3 = unit axes x, y, z → (0.25, 0.5, 0.75).
    let t =
        [(0, [0.25, 0.5, 0.75, 1.0]), (1, [1.0, 0.0, 0.0, 0.0]), (2, [0.0, 1.0, 0.0, 0.0]), (3, [0.0, 0.0, 1.0, 0.0])];
    let o = Options::default();
    let pads = "ps_1_2\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\n";
    // texm3x3: (r0, r1, r2, 1) with no lookup.
    assert_eq!(col(&format!("{pads}texm3x3 t3, t0\nmov r0, t3"), &t, &o), [0.25, 0.5, 0.75, 1.0]);
    // texdp3 on the same data: coords 3 · N = 0.75 replicated.
    assert_eq!(col("ps_1_2\ntexcoord t0\ntexdp3 t3, t0\nmov r0, t3", &t, &o), [0.75; 4]);
    // texdp3tex: u = 0.75 → texel (3, 0).
    assert_eq!(col("ps_1_2\ntexcoord t0\ntexdp3tex t3, t0\nmov r0, t3", &t, &o), [3.0, 0.0, 0.0, 1.0]);
    // texm3x3tex on a volume stage 3: (0.25, 0.5, 0.75) → (1, 2, 3).
    let mut ov = Options::default();
    ov.stages[3].texture_type = TextureDimension::Volume;
    assert_eq!(col(&format!("{pads}texm3x3tex t3, t0\nmov r0, t3"), &t, &ov), [1.0, 2.0, 3.0, 1.0]);
}

#[test]
fn texm3x3spec_and_vspec_reflect_the_eye_vector() {
    // n = (0, 0, 1) (rows from N = (0, 0, 1) and axis coords); E = (0.25, 0.5, 1):
    // R = 2·n·(n·E)/(n·n) − E = (0, 0, 2) − E = (−0.25, −0.5, 1) on a volume → clamp → (0, 0, 3).
    // With E = (−0.5, −0.75, 0.5): R = (0, 0, 1) − E = (0.5, 0.75, 0.5) → (2, 3, 2).
    let mut o = Options::default();
    o.stages[3].texture_type = TextureDimension::Volume;
    let t = |e: [f32; 3]| {
        [(0, [0.0, 0.0, 1.0, 1.0]), (1, [1.0, 0.0, 0.0, e[0]]), (2, [0.0, 1.0, 0.0, e[1]]), (3, [0.0, 0.0, 1.0, e[2]])]
    };
    let spec = "ps_1_1\ndef c0, -0.5, -0.75, 0.5, 0\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3";
    assert_eq!(col(spec, &t([0.0; 3]), &o), [2.0, 3.0, 2.0, 1.0]);
    // vspec takes E from the w of coords 1..3.
    let vspec = "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3";
    assert_eq!(col(vspec, &t([-0.5, -0.75, 0.5]), &o), [2.0, 3.0, 2.0, 1.0]);
    assert_eq!(col(vspec, &t([0.25, 0.5, 1.0]), &o), [0.0, 0.0, 3.0, 1.0]);
}

#[test]
fn ps14_texld_texcrd_bem_texdepth_and_phase() {
    let mut o = Options::default();
    // texld r1, t0 samples stage 1 (the destination) at coords 0: (0.6, 0.3) → (2, 1).
    assert_eq!(col("ps_1_4\ntexld r1, t0\nmov r0, r1", &[(0, [0.6, 0.3, 0.0, 1.0])], &o), [2.0, 1.0, 0.0, 1.0]);
    // _dw projection: (1.2, 0.6, 0, 2) → (0.6, 0.3).
    assert_eq!(col("ps_1_4\ntexld r1, t0_dw\nmov r0, r1", &[(0, [1.2, 0.6, 0.0, 2.0])], &o), [2.0, 1.0, 0.0, 1.0]);
    // bem r1.xy, c0, c1 with stage 1 matrix [[1, 0.5], [0, 2]]: x = 0.1 + 1·0.2 + 0·0.3 = 0.3,
    // y = 0.1 + 0.5·0.2 + 2·0.3 = 0.8; then phase, texld r1 via r1 → (1, 3).
    o.stages[1].bump_matrix = [[1.0, 0.5], [0.0, 2.0]];
    let p =
        "ps_1_4\ndef c0, 0.1, 0.1, 0, 0\ndef c1, 0.2, 0.3, 0, 0\nbem r1.xy, c0, c1\nphase\ntexld r2, r1\nmov r0, r2";
    assert_eq!(col(p, &[], &o), [1.0, 3.0, 0.0, 1.0]);
    // texdepth r5: depth = r5.r / r5.g = 0.5 / 1 (c0.g = 2 clamps to 1, docs/d3d9-rules.md#texdepth) = 0.5.
    let p = "ps_1_4\ndef c0, 0.5, 2, 0, 0\nmov r5, c0\nphase\ntexdepth r5\nmov r0, c0";
    assert_eq!(run(p, &[], &o).depth, Some(0.5));
    // r5.g = 0 gives 1.
    let p = "ps_1_4\ndef c0, 0.5, 0, 0, 0\nmov r5, c0\nphase\ntexdepth r5\nmov r0, c0";
    assert_eq!(run(p, &[], &o).depth, Some(1.0));
}

#[test]
fn texkill_tests_xyz_in_ps1x_and_all_masked_components_in_ps2() {
    // Only w negative (docs/d3d9-rules.md#texkill): ps_1_1 keeps the pixel, ps_2_0 kills it.
    let t = [(0, [0.5, 0.5, 0.5, -1.0])];
    let o = Options::default();
    assert!(!run("ps_1_1\ntexkill t0\nmov r0, t0", &t, &o).discarded);
    assert!(run("ps_2_0\ndcl t0\ntexkill t0\nmov oC0, t0", &t, &o).discarded);
    assert!(!run("ps_2_0\ndcl t0\ntexkill t0.xyz\nmov oC0, t0", &t, &o).discarded);
    assert!(run("ps_1_1\ntexkill t0\nmov r0, t0", &[(0, [0.5, -0.1, 0.5, 1.0])], &o).discarded);
}

#[test]
fn texkill_demotes_so_neighbour_derivatives_survive() {
    // Lane 0 is killed before dsx; lane 1 still sees lane 0's value: dsx(v0.x) = 1 − 0 = 1.
    let p = asm("ps_2_x\ndcl v0\ndcl t0\ntexkill t0\ndsx r0, v0\nmov oC0, r0");
    let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
        let mut i = PixelInput::default();
        i.v[0] = [(lane & 1) as f32, 0.0, 0.0, 0.0];
        i.t[0] = if lane == 0 { [-1.0; 4] } else { [1.0; 4] };
        i
    });
    let out = run_pixel_quad(&p, &inputs, &Constants::default(), &Options::default(), &UnboundSampler).unwrap();
    assert!(out[0].discarded && !out[1].discarded);
    assert_eq!(out[1].color[0].unwrap()[0], 1.0);
}
