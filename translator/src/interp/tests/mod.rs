//! Hand-derived tests of the interpreter. Every expected value is derived in the test from the
//! D3D9 rules (docs/d3d9-rules.md, docs/opcodes.md) or a Windows measurement, never copied from the
//! interpreter's output.

mod asm;
mod flow;
mod instructions;
mod io;
mod ps1x;
mod registers;

use super::*;
pub(super) use asm::asm;

/// Runs a vertex shader with `v` inputs and API constants; returns all outputs.
pub(super) fn vs_full(text: &str, v: &[(usize, [f32; 4])], constants: &Constants, options: &Options) -> VertexOutput {
    let program = asm(text);
    let mut input = VertexInput::default();
    for (i, x) in v {
        input.v[*i] = *x;
    }
    run_vertex(&program, &input, constants, options, &UnboundSampler).unwrap()
}

/// Runs a vertex shader with no inputs and no API constants; returns `oPos` (vs < 3) or `o0`.
pub(super) fn pos(text: &str) -> [f32; 4] {
    pos_with(text, &Constants::default())
}

/// [`pos`] with API constants.
pub(super) fn pos_with(text: &str, constants: &Constants) -> [f32; 4] {
    let out = vs_full(text, &[], constants, &Options::default());
    if text.trim_start().starts_with("vs_3") {
        out.outputs[0].value
    } else {
        out.position.value
    }
}

/// [`pos`] under other float rules.
pub(super) fn pos_rules(text: &str, rules: FloatRules) -> [f32; 4] {
    let options = Options { float_rules: rules, ..Options::default() };
    vs_full(text, &[], &Constants::default(), &options).position.value
}

/// Runs a pixel shader on a quad of equal inputs; returns lane 0.
pub(super) fn pixel(
    text: &str,
    input: &PixelInput,
    constants: &Constants,
    options: &Options,
    sampler: &dyn TextureSampler,
) -> PixelOutput {
    run_pixel(&asm(text), input, constants, options, sampler).unwrap()
}

/// Colour 0 of a pixel shader with default inputs.
pub(super) fn color(text: &str) -> [f32; 4] {
    pixel(text, &PixelInput::default(), &Constants::default(), &Options::default(), &UnboundSampler).color[0].unwrap()
}

/// r0 as a ps_1_x program left it, where it lies in [−16, 16]: r0 leaves a ps_1_x shader
/// saturated (docs/d3d9-rules.md#ps1x-output-clamp), so a last `mad r0, r0, 1/32, 0.5` carries it
/// into [0, 1] and the colour is read back as (x − 0.5)·32, exact for the dyadic values used here.
/// `text` starts with its version line; c6 and c7 must be free.
pub(super) fn ps1x_r0(
    text: &str,
    input: &PixelInput,
    constants: &Constants,
    options: &Options,
    sampler: &dyn TextureSampler,
) -> [f32; 4] {
    let (version, rest) = text.split_once('\n').expect("a version line");
    let encoded = format!(
        "{version}\ndef c6, 0.03125, 0.03125, 0.03125, 0.03125\ndef c7, 0.5, 0.5, 0.5, 0.5\n{rest}\nmad r0, r0, c6, c7"
    );
    pixel(&encoded, input, constants, options, sampler).color[0].unwrap().map(|x| (x - 0.5) * 32.0)
}

/// [`ps1x_r0`] with default inputs, constants and options.
pub(super) fn inside(text: &str) -> [f32; 4] {
    ps1x_r0(text, &PixelInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
}

/// API float constants from a list of (register, value).
pub(super) fn floats(list: &[(usize, [f32; 4])]) -> Constants {
    let mut c = Constants::default();
    for (i, v) in list {
        if c.float.len() <= *i {
            c.float.resize(i + 1, [0.0; 4]);
        }
        c.float[*i] = *v;
    }
    c
}

/// Asserts each component is within `eps`.
#[track_caller]
pub(super) fn close(got: [f32; 4], want: [f32; 4], eps: f32) {
    for c in 0..4 {
        assert!((got[c] - want[c]).abs() <= eps, "component {c}: got {got:?}, want {want:?}");
    }
}
