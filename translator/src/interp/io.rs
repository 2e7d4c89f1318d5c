//! What goes into an invocation and what comes out: vertex inputs and outputs (saturation of
//! `oD#`/`oFog` before vs_3_0, defaults of unwritten outputs), pixel inputs (`v#`, `t#`, `vPos`,
//! `vFace`) and pixel outputs (`oC0–oC3`, `oDepth` clamped, `r0` as the ps_1_x colour).

use crate::bytecode::{Opcode, Program, RegisterType, Usage, Version};

use super::registers::Lane;

/// One output register: its value and the components the shader wrote.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct OutputRegister {
    /// The value; components the shader did not write hold the register's default.
    pub value: [f32; 4],
    /// Bit `c` set when component `c` was written.
    pub written: u8,
}

impl OutputRegister {
    /// A register holding `value`, nothing written yet.
    pub const fn with_default(value: [f32; 4]) -> OutputRegister {
        OutputRegister { value, written: 0 }
    }

    /// Whether any component was written.
    pub fn is_written(&self) -> bool {
        self.written != 0
    }
}

/// Inputs of one vertex: `v0–v15` (a vertex declaration's elements, already expanded to four
/// components, e.g. `(x, y, 0, 1)` for a FLOAT2).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct VertexInput {
    /// `v#` by register number.
    pub v: [[f32; 4]; 16],
}

/// Outputs of one vertex.
///
/// Unwritten components hold D3D9's defaults for an unwritten output: `oD0` = (1, 1, 1, 1),
/// `oD1` = (0, 0, 0, 1), everything else 0 (a vertex shader that never writes `oFog` gives a fog
/// factor of 0). Callers linking by semantic can use the `written` masks.
#[derive(Clone, PartialEq, Debug)]
pub struct VertexOutput {
    /// `oPos` (vs < 3.0), or the vs_3_0 output declared `dcl_position0` when there is one.
    pub position: OutputRegister,
    /// `oD0`, `oD1`, saturated before vs_3_0.
    pub colors: [OutputRegister; 2],
    /// `oT0–oT7`.
    pub texcoords: [OutputRegister; 8],
    /// `oFog` (x; saturated before vs_3_0).
    pub fog: OutputRegister,
    /// `oPts` (x).
    pub point_size: OutputRegister,
    /// vs_3_0 `o0–o11`, not saturated.
    pub outputs: [OutputRegister; 12],
    /// The `dcl` semantic of each vs_3_0 output register (usage, usage index).
    pub semantics: [Option<(Usage, u8)>; 12],
}

/// Inputs of one pixel.
#[derive(Clone, PartialEq, Debug)]
pub struct PixelInput {
    /// `v#`: colours `v0`/`v1` before ps_3_0, the declared inputs `v0–v9` in ps_3_0.
    pub v: [[f32; 4]; 10],
    /// Texture coordinate sets 0–7 (`t#` in ps_2_x, the coordinates ps_1_x texture ops read).
    pub t: [[f32; 4]; 8],
    /// `vPos`: the pixel's integer coordinates (top-left origin, no +0.5).
    pub vpos: [f32; 2],
    /// `vFace`: negative for back faces, positive for front faces.
    pub vface: f32,
}

impl Default for PixelInput {
    fn default() -> Self {
        PixelInput { v: [[0.0; 4]; 10], t: [[0.0; 4]; 8], vpos: [0.0; 2], vface: 1.0 }
    }
}

/// Outputs of one pixel.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct PixelOutput {
    /// `oC0–oC3` (`r0` as `oC0` in ps_1_x); `None` for a target the shader does not write.
    pub color: [Option<[f32; 4]>; 4],
    /// Components written of each colour output.
    pub color_written: [u8; 4],
    /// `oDepth` (or the ps_1_x `texdepth`/`texm3x2depth` result), clamped to [0, 1]; `None` when
    /// the shader leaves the interpolated depth.
    pub depth: Option<f32>,
    /// Whether `texkill` discarded the pixel.
    pub discarded: bool,
}

/// Default value of vertex colour output `n`.
pub(crate) fn color_default(n: usize) -> [f32; 4] {
    if n == 0 {
        [1.0; 4]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Saturation of `x.clamp(0, 1)` that sends NaN to 0, as a fixed-point colour would.
pub(crate) fn saturate(x: f32) -> f32 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

pub(crate) fn vertex_output(program: &Program, lane: &Lane) -> VertexOutput {
    let pre3 = program.version.major < 3;
    let sat = |r: OutputRegister| if pre3 { OutputRegister { value: r.value.map(saturate), ..r } } else { r };
    let mut semantics = [None; 12];
    for ins in program.iter() {
        if let (Opcode::Dcl, Some(dst), Some(decl)) = (ins.opcode, ins.dst, ins.decl()) {
            if dst.reg.ty == RegisterType::Output && (dst.reg.num as usize) < 12 {
                semantics[dst.reg.num as usize] = decl.usage().map(|u| (u, decl.usage_index));
            }
        }
    }
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

pub(crate) fn pixel_output(program: &Program, lane: &Lane) -> PixelOutput {
    let mut out = PixelOutput { discarded: lane.discarded, ..PixelOutput::default() };
    if is_ps1x(program.version) {
        // ps_1_x: r0 at the end is the colour.
        out.color[0] = Some(lane.r[0]);
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

/// Shader Model 1 pixel shader.
pub(crate) fn is_ps1x(v: Version) -> bool {
    v.is_pixel() && v.major < 2
}
