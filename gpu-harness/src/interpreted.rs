//! The CPU shader stages: the project's interpreter ([`d3d9_shader::interp`]) behind the runner's
//! [`ShaderCpu`] trait.
//!
//! Linking is by semantic, as D3D9 does it: before vs_3_0 the outputs are oD0/oD1 (COLOR0/1),
//! oT# (TEXCOORD#) and oFog (FOG); vs_3_0 outputs carry their `dcl` semantic. Pixel inputs
//! read the semantic they stand for (v0/v1 and t# before ps_3_0, the `dcl` in ps_3_0); a semantic
//! the vertex stage did not write reads COLOR0 = (1, 1, 1, 1), COLOR1 = (0, 0, 0, 1), else 0
//! (docs/d3d9-rules.md#unwritten-outputs).

use std::cell::Cell;

use d3d9_shader::bytecode::{Program, Usage};
use d3d9_shader::interp::{
    self, AddressMode, Constants, Filter, MipFilter, Options, PixelInput, ReferenceSampler, ReferenceTexture,
    SampleRequest, StageState, TextureSampler, TextureTransform,
};

use crate::case::{self, TransformFlags};
use crate::cpu::{PixelIn, PixelOut, PixelStage, StageVertex, VertexStage};
use crate::stages::{ShaderConstants, ShaderCpu, StageContext};
use crate::textures::DecodedTexture;
use crate::vertex::{declared_inputs, Semantic};

/// The interpreter as the runner's CPU shader back end.
#[derive(Clone, Copy, Debug, Default)]
pub struct Interpreter;

/// The interpreter's copy of a decoded texture (same texel order).
pub fn reference_texture(t: &DecodedTexture) -> Option<ReferenceTexture> {
    let (w, h, d) = t.size;
    let texels = t.data.iter().flatten().copied().collect();
    let mut r = ReferenceTexture::new(t.kind, w, h, d, t.mip_levels, texels)?;
    r.filter = match t.filter {
        case::Filter::Point => Filter::Point,
        case::Filter::Linear => Filter::Linear,
    };
    r.mip_filter = match t.mip_filter {
        case::MipFilter::None => MipFilter::None,
        case::MipFilter::Point => MipFilter::Point,
        case::MipFilter::Linear => MipFilter::Linear,
    };
    r.address = match t.address {
        case::Address::Wrap => AddressMode::Wrap,
        case::Address::Clamp => AddressMode::Clamp,
        case::Address::Border => AddressMode::Border,
        case::Address::Mirror => AddressMode::Mirror,
    };
    r.shadow = t.shadow;
    r.fetch4 = t.fetch4;
    Some(r)
}

/// The textures of a draw: stages 0–15 on the pixel samplers, 257–260
/// (`D3DVERTEXTEXTURESAMPLER0`–`3`) on the vertex samplers.
fn sampler(ctx: &StageContext<'_>) -> Result<ReferenceSampler, String> {
    let mut s = ReferenceSampler::default();
    for t in ctx.textures {
        let r =
            reference_texture(t).ok_or_else(|| format!("texture on stage {} cannot be sampled on the CPU", t.stage))?;
        match case::vertex_sampler(t.stage) {
            Some(n) => s.bind_vertex(n as usize, r),
            None => s.bind(t.stage as usize, r),
        }
    }
    Ok(s)
}

/// The interpreter's options for a draw: the draw's float rules (the same mode as the GPU side's
/// key), ps_1_x stage states from the case.
pub fn options(ctx: &StageContext<'_>) -> Options {
    let mut o = Options { float_rules: ctx.float_rules, skew: ctx.skew, ..Options::default() };
    for (i, stage) in o.stages.iter_mut().enumerate() {
        if let Some(t) = ctx.textures.iter().find(|t| t.stage as usize == i) {
            stage.texture_type = t.kind;
        }
        if let Some(s) = ctx.stages.iter().find(|s| s.stage as usize == i) {
            let flags = s
                .texturetransformflags
                .as_deref()
                .map(TransformFlags::parse)
                .transpose()
                .unwrap_or_default()
                .unwrap_or_default();
            *stage = StageState {
                texture_type: stage.texture_type,
                // The interpreter divides by component `count` (w for 0): the divisor the
                // stage's flags and the vertex stage choose.
                transform: match flags.divisor(ctx.ffp_texcoord_sizes.map(|sizes| sizes[i])) {
                    Some(d) => TextureTransform { count: d + 1, projected: true },
                    None => TextureTransform { count: flags.count, projected: false },
                },
                bump_matrix: [
                    [s.bumpenvmat00.unwrap_or(0.0), s.bumpenvmat01.unwrap_or(0.0)],
                    [s.bumpenvmat10.unwrap_or(0.0), s.bumpenvmat11.unwrap_or(0.0)],
                ],
                luminance_scale: s.bumpenvlscale.unwrap_or(0.0),
                luminance_offset: s.bumpenvloffset.unwrap_or(0.0),
            };
        }
    }
    o
}

fn constants(c: &ShaderConstants) -> Constants {
    Constants { float: c.float.clone(), int: c.int, bool: c.bool }
}

struct Vertex<'a> {
    program: &'a Program,
    constants: Constants,
    options: Options,
    sampler: ReferenceSampler,
}

/// A stage's textures, noting which lanes (bit `1 << lane`) read a texel D3D9 leaves undefined.
struct Watched<'a> {
    sampler: &'a ReferenceSampler,
    undefined: Cell<u8>,
}

impl<'a> Watched<'a> {
    fn new(sampler: &'a ReferenceSampler) -> Self {
        Watched { sampler, undefined: Cell::new(0) }
    }

    fn read_undefined(&self, lane: usize) -> bool {
        self.undefined.get() & (1 << lane) != 0
    }
}

impl TextureSampler for Watched<'_> {
    fn sample(&self, r: &SampleRequest) -> [f32; 4] {
        if self.sampler.reads_undefined(r) {
            self.undefined.set(self.undefined.get() | 1 << r.lane);
        }
        self.sampler.sample(r)
    }
}

impl VertexStage for Vertex<'_> {
    fn run(&self, inputs: &[[f32; 4]; 16]) -> Result<StageVertex, String> {
        let input = interp::VertexInput { v: *inputs };
        let watched = Watched::new(&self.sampler);
        let out = interp::run_vertex(self.program, &input, &self.constants, &self.options, &watched)
            .map_err(|e| e.to_string())?;
        let mut outputs: Vec<(Semantic, [f32; 4])> = Vec::new();
        if self.program.version.major < 3 {
            // oD# always reach the pixel stage (unwritten components hold their defaults).
            outputs.push(((Usage::Color, 0), out.colors[0].value));
            outputs.push(((Usage::Color, 1), out.colors[1].value));
            for (n, t) in out.texcoords.iter().enumerate() {
                if t.is_written() {
                    outputs.push(((Usage::TexCoord, n as u8), t.value));
                }
            }
            if out.fog.is_written() {
                outputs.push(((Usage::Fog, 0), out.fog.value));
            }
        } else {
            for (reg, sem) in out.outputs.iter().zip(out.semantics) {
                if let Some(sem) = sem.filter(|s| *s != (Usage::Position, 0)) {
                    if reg.is_written() {
                        outputs.push((sem, reg.value));
                    }
                }
            }
        }
        // oPts (x), or the vs_3_0 output declared PSIZE0, when written.
        let psize = match out.semantics.iter().position(|s| *s == Some((Usage::PSize, 0))) {
            Some(i) => &out.outputs[i],
            None => &out.point_size,
        };
        let point_size = (psize.written & 1 != 0).then_some(psize.value[0]);
        Ok(StageVertex { position: out.position.value, outputs, tie: watched.read_undefined(0), point_size })
    }
}

/// Default of a semantic the vertex stage did not provide.
fn missing(sem: Semantic) -> [f32; 4] {
    match sem {
        (Usage::Color, 0) => [1.0; 4],
        (Usage::Color, 1) => [0.0, 0.0, 0.0, 1.0],
        _ => [0.0; 4],
    }
}

struct Pixel<'a> {
    program: &'a Program,
    constants: Constants,
    options: Options,
    sampler: ReferenceSampler,
    /// ps_3_0: the semantic of each input register v0–v9.
    inputs: Vec<(usize, Semantic)>,
}

impl PixelStage for Pixel<'_> {
    fn run_quad(&self, lanes: &[PixelIn; 4]) -> Result<[PixelOut; 4], String> {
        let read = |l: &PixelIn, s: Semantic| l.get(s).unwrap_or_else(|| missing(s));
        let inputs: [PixelInput; 4] = std::array::from_fn(|i| {
            let l = &lanes[i];
            let mut p = PixelInput { vpos: l.vpos, vface: l.vface, ..PixelInput::default() };
            if self.program.version.major < 3 {
                p.v[0] = read(l, (Usage::Color, 0));
                p.v[1] = read(l, (Usage::Color, 1));
                for n in 0..8 {
                    p.t[n] = read(l, (Usage::TexCoord, n as u8));
                }
            } else {
                for &(reg, sem) in &self.inputs {
                    p.v[reg] = read(l, sem);
                }
            }
            p
        });
        let watched = Watched::new(&self.sampler);
        let outs = interp::run_pixel_quad(self.program, &inputs, &self.constants, &self.options, &watched)
            .map_err(|e| e.to_string())?;
        Ok(std::array::from_fn(|lane| {
            let o = &outs[lane];
            PixelOut { color: o.color, depth: o.depth, discarded: o.discarded, tie: watched.read_undefined(lane) }
        }))
    }
}

/// ps_3_0 input registers and their declared semantics.
fn pixel_inputs(program: &Program) -> Vec<(usize, Semantic)> {
    declared_inputs(program).filter(|(num, _)| *num < 10).map(|(num, s)| (num as usize, s)).collect()
}

impl ShaderCpu for Interpreter {
    fn vertex<'a>(
        &'a self,
        program: &'a Program,
        c: &'a ShaderConstants,
        ctx: StageContext<'a>,
    ) -> Result<Box<dyn VertexStage + 'a>, String> {
        Ok(Box::new(Vertex { program, constants: constants(c), options: options(&ctx), sampler: sampler(&ctx)? }))
    }

    fn pixel<'a>(
        &'a self,
        program: &'a Program,
        c: &'a ShaderConstants,
        ctx: StageContext<'a>,
    ) -> Result<Box<dyn PixelStage + 'a>, String> {
        Ok(Box::new(Pixel {
            program,
            constants: constants(c),
            options: options(&ctx),
            sampler: sampler(&ctx)?,
            inputs: pixel_inputs(program),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{
        Address, Filter as CaseFilter, MipFilter as CaseMip, RenderState, Texture, TextureDimension, TextureFormat,
    };

    fn texture(stage: u32, kind: TextureDimension, texels: Vec<u32>) -> DecodedTexture {
        DecodedTexture::decode(&Texture {
            stage,
            kind,
            width: 1,
            height: 1,
            depth: 1,
            format: TextureFormat::A8R8G8B8,
            mip_levels: 1,
            filter: CaseFilter::Point,
            mip_filter: CaseMip::None,
            address: Address::Clamp,
            texels,
            fill: None,
            fetch4: false,
        })
    }

    #[test]
    fn vertex_samplers_read_stages_257_up_and_flag_undefined_fetches() {
        let program = d3d9_shader::asm::assemble(
            "vs_3_0\ndcl_position v0\ndcl_texcoord0 v1\ndcl_position o0\ndcl_texcoord0 o1\ndcl_cube s1\nmov o0, v0\ntexldl r0, v1, s1\nmov o1, r0\n",
        )
        .unwrap();
        // Vertex s1 is stage 258: a cube whose 1x1 faces +X..-Z hold red = face / 255. Pixel
        // stage 1 holds a white 2D texture the vertex shader must not see.
        let cube = texture(258, TextureDimension::Cube, (0..6).map(|f| 0xff00_0000 | f << 16).collect());
        let textures = [texture(1, TextureDimension::Tex2D, vec![0xffff_ffff]), cube];
        let state = RenderState::default();
        let ctx = StageContext::with_textures(&textures, &state);
        let constants = ShaderConstants::default();
        let stage = Interpreter.vertex(&program, &constants, ctx).unwrap();
        let run = |coords: [f32; 4]| {
            let mut v = [[0.0; 4]; 16];
            v[1] = coords;
            stage.run(&v).unwrap()
        };
        let texcoord0 = |out: &StageVertex| out.outputs.iter().find(|(s, _)| *s == (Usage::TexCoord, 0)).unwrap().1;
        // -Y face (3): direction (0.2, -1, 0.3).
        let out = run([0.2, -1.0, 0.3, 0.0]);
        assert_eq!((texcoord0(&out), out.tie), ([3.0 / 255.0, 0.0, 0.0, 1.0], false));
        // A corner: +Z (4) by the tie order, defined.
        let out = run([6.78, 6.78, 6.78, 0.0]);
        assert_eq!((texcoord0(&out), out.tie), ([4.0 / 255.0, 0.0, 0.0, 1.0], false));
        // A NaN direction reads an undefined texel: the vertex is a tie.
        assert!(run([0.0, f32::NAN, 0.0, 0.0]).tie);
    }
    #[test]
    fn pixel_samples_at_nan_or_infinite_coordinates_are_ties_of_their_lane_only() {
        let program =
            d3d9_shader::asm::assemble("ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexld r0, v0, s0\nmov oC0, r0\n").unwrap();
        // A 1x1 point-sampled texture: every finite coordinate reads its one texel.
        let textures = [texture(0, TextureDimension::Tex2D, vec![0xff00_ff00])];
        let state = RenderState::default();
        let ctx = StageContext::with_textures(&textures, &state);
        let constants = ShaderConstants::default();
        let stage = Interpreter.pixel(&program, &constants, ctx).unwrap();
        let coords = [[0.25, 0.25, 0.0, 0.0], [0.5, f32::NAN, 0.0, 0.0], [f32::INFINITY, 0.0, 0.0, 0.0], [0.75; 4]];
        let lanes = coords.map(|c| PixelIn {
            varyings: vec![((Usage::TexCoord, 0), c)],
            vpos: [0.0; 2],
            vface: 1.0,
            covered: true,
        });
        let outs = stage.run_quad(&lanes).unwrap();
        // Lanes 1 (NaN v) and 2 (infinite u) read no texel D3D9 defines; lanes 0 and 3 read green.
        assert_eq!(outs.each_ref().map(|o| o.tie), [false, true, true, false]);
        assert_eq!(outs[0].color[0], Some([0.0, 1.0, 0.0, 1.0]));
        assert_eq!(outs[3].color[0], Some([0.0, 1.0, 0.0, 1.0]));
    }
}
