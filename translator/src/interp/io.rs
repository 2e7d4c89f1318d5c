//! What goes into an invocation and what comes out: vertex inputs and outputs (defaults of
//! unwritten outputs), pixel inputs (`v#`, `t#`, `vPos`, `vFace`) and pixel outputs (`oC0–oC3`,
//! `oDepth`); `outputs.rs` reads the outputs from the registers (saturation of `oD#`/`oFog`
//! before vs_3_0, `oDepth` clamped, `r0` as the ps_1_x colour).

use crate::bytecode::{Opcode, Program, RegisterType, Usage};

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

impl VertexOutput {
    /// The value a pixel shader reads for the semantic (`usage`, `index`): the written
    /// components of the matching output and D3D9's defaults elsewhere, component by component
    /// (COLOR0 (1, 1, 1, 1), COLOR1 (0, 0, 0, 1), FOG (1, 0, 0, 0), anything else 0). Before
    /// vs_3_0 the outputs have fixed semantics: `oPos` POSITION0, `oD#` COLOR#, `oT#` TEXCOORD#,
    /// `oFog` FOG0, `oPts` PSIZE0; vs_3_0 outputs have their `dcl`.
    pub fn semantic(&self, usage: Usage, index: u8) -> [f32; 4] {
        let default = match (usage, index) {
            (Usage::Color, n) if n < 2 => color_default(n as usize),
            (Usage::Fog, _) => [1.0, 0.0, 0.0, 0.0],
            _ => [0.0; 4],
        };
        let fixed = match (usage, index) {
            (Usage::Position, 0) => Some(&self.position),
            (Usage::Color, n) => self.colors.get(n as usize),
            (Usage::TexCoord, n) => self.texcoords.get(n as usize),
            (Usage::Fog, 0) => Some(&self.fog),
            (Usage::PSize, 0) => Some(&self.point_size),
            _ => None,
        };
        let declared = self.semantics.iter().position(|s| *s == Some((usage, index))).map(|i| &self.outputs[i]);
        // vs_3_0 programs write only `o#`; earlier ones only the fixed registers.
        let reg = if self.semantics.iter().any(Option::is_some) { declared } else { fixed };
        match reg {
            Some(r) => std::array::from_fn(|c| if r.written & (1 << c) != 0 { r.value[c] } else { default[c] }),
            None => default,
        }
    }
}

impl PixelInput {
    /// Inputs for `ps` with every input register linked by semantic to `value(usage, index)`:
    /// ps_3_0 inputs by their `dcl`; before ps_3_0 `v0`/`v1` are COLOR0/COLOR1 and `t#` is
    /// TEXCOORD#. `vPos` and `vFace` keep their defaults.
    pub fn link(ps: &Program, value: impl Fn(Usage, u8) -> [f32; 4]) -> PixelInput {
        let mut input = PixelInput::default();
        if !ps.version.profile().fixed_io {
            for ins in ps.iter() {
                if let (Opcode::Dcl, Some(dst), Some(decl)) = (ins.opcode, ins.dst, ins.decl()) {
                    if let (RegisterType::Input, Some(usage), Some(slot)) =
                        (dst.reg.ty, decl.usage(), input.v.get_mut(dst.reg.num as usize))
                    {
                        *slot = value(usage, decl.usage_index);
                    }
                }
            }
        } else {
            input.v[0] = value(Usage::Color, 0);
            input.v[1] = value(Usage::Color, 1);
            for (i, t) in input.t.iter_mut().enumerate() {
                *t = value(Usage::TexCoord, i as u8);
            }
        }
        input
    }

    /// Inputs for `ps` fed with one vertex's outputs as constant attributes (the GPU harness's
    /// "vectors" check), linked by semantic as [`PixelInput::link`] and
    /// [`VertexOutput::semantic`] describe.
    pub fn from_vertex(ps: &Program, vs: &VertexOutput) -> PixelInput {
        PixelInput::link(ps, |usage, index| vs.semantic(usage, index))
    }
}

/// Default value of vertex colour output `n`.
pub(crate) fn color_default(n: usize) -> [f32; 4] {
    if n == 0 {
        [1.0; 4]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Saturation to [0, 1] that sends NaN (and −0) to +0: the `_sat` modifier and the clamped
/// outputs. D3D10-class hardware (and DXVK's NClamp) saturate NaN to 0.
pub(crate) fn saturate(x: f32) -> f32 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}
