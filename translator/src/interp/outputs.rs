//! The outputs of an invocation, read from its lane's registers when the program ends.

use crate::bytecode::{Program, Usage};

use super::arithmetic::Arith;
use super::io::{OutputRegister, PixelOutput, VertexOutput};
use super::registers::Lane;

/// A vertex invocation's outputs: before vs_3_0 `oD#` and `oFog` saturated, the position from
/// `oPos` or the vs_3_0 output declared `dcl_position0`.
pub(crate) fn vertex_output(
    program: &Program,
    arith: Arith,
    semantics: [Option<(Usage, u8)>; 12],
    lane: &Lane,
) -> VertexOutput {
    // Before 3.0 the fixed outputs oD# and oFog are saturated; o# of vs_3_0 are not.
    let pre3 = program.version.profile().fixed_io;
    let sat = |r: OutputRegister| {
        if pre3 {
            OutputRegister { value: r.value.map(|x| arith.saturate(x)), ..r }
        } else {
            r
        }
    };
    let mut position = lane.rast[0];
    if !pre3 {
        if let Some(i) = semantics.iter().position(|s| *s == Some((Usage::Position, 0))) {
            position = lane.out[i];
        }
    }
    VertexOutput {
        position,
        colors: [sat(lane.attr[0]), sat(lane.attr[1])],
        texcoords: lane.texcrd,
        fog: sat(lane.rast[1]),
        point_size: lane.rast[2],
        outputs: lane.out,
        semantics,
    }
}

/// A pixel invocation's outputs: `r0` as the ps_1_x colour, saturated, `oDepth` clamped to [0, 1].
pub(crate) fn pixel_output(program: &Program, arith: Arith, lane: &Lane) -> PixelOutput {
    let mut out = PixelOutput { discarded: lane.discarded, ..PixelOutput::default() };
    if program.version.profile().ps_1_x {
        // ps_1_x: r0 at the end is the colour, saturated to [0, 1] whatever the render target's
        // format, float targets too (docs/d3d9-rules.md#ps1x-output-clamp).
        out.color[0] = Some(lane.r[0].map(|x| arith.saturate(x)));
        out.color_written[0] = 0xF;
    } else {
        for (i, c) in lane.color.iter().enumerate() {
            if c.is_written() {
                out.color[i] = Some(c.value);
                out.color_written[i] = c.written;
            }
        }
    }
    // oDepth and the ps_1_x depth ops: D3D9 clamps the depth to [0, 1].
    out.depth = lane.depth.map(|d| if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) });
    out
}
