//! The fixed-function state in force for a draw: the case's transforms, material, lights and texture
//! stage states with D3D9's defaults filled in (docs/case-format.md#fixed-function), and the vertex
//! format the draw's elements describe. Both fixed-function paths start from this (the CPU reference
//! in [`crate::ffp_reference`], the generator's key and constants in [`crate::ffp_gpu`]); it holds
//! format facts only, no pipeline rule.

use std::collections::BTreeMap;

use crate::case::{
    Arg, ArgSource, Case, DeclUsage, Draw, Light, Material, ResultArg, TexCoordIndex, TextureOp, TextureStage,
    TransformFlags, TransformName,
};

/// The identity matrix in D3DMATRIX order.
pub const IDENTITY: [f32; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// One texture stage with every state resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct StageState {
    pub color_op: TextureOp,
    pub color_args: [Arg; 3],
    pub alpha_op: TextureOp,
    pub alpha_args: [Arg; 3],
    pub result: ResultArg,
    pub texcoord: TexCoordIndex,
    pub transform: TransformFlags,
    /// BUMPENVMAT00, 01, 10, 11.
    pub bump_matrix: [f32; 4],
    pub bump_lscale: f32,
    pub bump_loffset: f32,
    /// D3DTSS_CONSTANT, 0xAARRGGBB.
    pub constant: u32,
}

impl StageState {
    /// D3D9's defaults for stage `n`.
    pub fn default_for(n: u8) -> StageState {
        let (color_op, alpha_op) = if n == 0 {
            (TextureOp::Modulate, TextureOp::SelectArg1)
        } else {
            (TextureOp::Disable, TextureOp::Disable)
        };
        let args = [Arg::plain(ArgSource::Current), Arg::plain(ArgSource::Texture), Arg::plain(ArgSource::Current)];
        StageState {
            color_op,
            color_args: args,
            alpha_op,
            alpha_args: args,
            result: ResultArg::Current,
            texcoord: TexCoordIndex { index: n, gen: Default::default() },
            transform: TransformFlags::default(),
            bump_matrix: [0.0; 4],
            bump_lscale: 0.0,
            bump_loffset: 0.0,
            constant: 0,
        }
    }

    fn apply(&mut self, s: &TextureStage) {
        let set = |slot: &mut Arg, v: Option<Arg>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        if let Some(op) = s.colorop {
            self.color_op = op;
        }
        if let Some(op) = s.alphaop {
            self.alpha_op = op;
        }
        for (slot, v) in self.color_args.iter_mut().zip([s.colorarg0, s.colorarg1, s.colorarg2]) {
            set(slot, v);
        }
        for (slot, v) in self.alpha_args.iter_mut().zip([s.alphaarg0, s.alphaarg1, s.alphaarg2]) {
            set(slot, v);
        }
        if let Some(r) = s.resultarg {
            self.result = r;
        }
        if let Some(t) = s.texcoordindex {
            self.texcoord = t;
        }
        if let Some(f) = &s.texturetransformflags {
            // Checked by the case.
            self.transform = TransformFlags::parse(f).unwrap_or_default();
        }
        for (slot, v) in
            self.bump_matrix.iter_mut().zip([s.bumpenvmat00, s.bumpenvmat01, s.bumpenvmat10, s.bumpenvmat11])
        {
            if let Some(v) = v {
                *slot = v;
            }
        }
        if let Some(v) = s.bumpenvlscale {
            self.bump_lscale = v;
        }
        if let Some(v) = s.bumpenvloffset {
            self.bump_loffset = v;
        }
        if let Some(v) = s.constant {
            self.constant = v;
        }
    }
}

/// Transforms, material, lights and stages in force.
#[derive(Clone, Debug, PartialEq)]
pub struct FfpState {
    /// WORLDMATRIX(n) that were set (others are identity).
    pub world: BTreeMap<u8, [f32; 16]>,
    /// VIEW.
    pub view: [f32; 16],
    /// PROJECTION.
    pub projection: [f32; 16],
    /// TEXTURE0–7.
    pub texture: [[f32; 16]; 8],
    /// The material (all zero by default).
    pub material: Material,
    /// The enabled lights, by index.
    pub lights: Vec<Light>,
    /// Stages 0–7.
    pub stages: [StageState; 8],
}

impl FfpState {
    /// The state before the first draw of `case`.
    pub fn new(case: &Case) -> FfpState {
        let mut s = FfpState {
            world: BTreeMap::new(),
            view: IDENTITY,
            projection: IDENTITY,
            texture: [IDENTITY; 8],
            material: case.material.unwrap_or_default(),
            lights: case.lights.iter().filter(|l| l.enabled).copied().collect(),
            stages: std::array::from_fn(|n| StageState::default_for(n as u8)),
        };
        s.lights.sort_by_key(|l| l.index);
        s.set_transforms(&case.transforms);
        for t in &case.texture_stages {
            s.stages[t.stage as usize].apply(t);
        }
        s
    }

    /// Applies the calls made just before `draw`.
    pub fn before_draw(&mut self, draw: &Draw) {
        self.set_transforms(&draw.transforms);
        for t in &draw.texture_stages {
            self.stages[t.stage as usize].apply(t);
        }
    }

    fn set_transforms(&mut self, t: &crate::case::Transforms) {
        for (name, m) in t {
            match TransformName::parse(name) {
                Some(TransformName::World(n)) => {
                    self.world.insert(n, *m);
                }
                Some(TransformName::View) => self.view = *m,
                Some(TransformName::Projection) => self.projection = *m,
                Some(TransformName::Texture(n)) => self.texture[n as usize] = *m,
                None => {}
            }
        }
    }

    /// WORLDMATRIX(n).
    pub fn world(&self, n: u8) -> [f32; 16] {
        self.world.get(&n).copied().unwrap_or(IDENTITY)
    }
}

/// What the draw's vertices carry (declaration or FVF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VertexFormat {
    /// POSITIONT (XYZRHW).
    pub pretransformed: bool,
    /// NORMAL.
    pub normal: bool,
    /// COLOR0.
    pub diffuse: bool,
    /// COLOR1.
    pub specular: bool,
    /// PSIZE.
    pub psize: bool,
    /// BLENDWEIGHT components (0 without).
    pub blend_weights: u8,
    /// BLENDINDICES.
    pub blend_indices: bool,
    /// Components of TEXCOORD0–7 (0: absent).
    pub texcoord_sizes: [u8; 8],
    /// POSITION1 (vertex tweening's second position).
    pub position1: bool,
    /// NORMAL1 (vertex tweening's second normal).
    pub normal1: bool,
}

impl VertexFormat {
    /// The format of `draw`'s elements.
    pub fn of(draw: &Draw) -> VertexFormat {
        let mut f = VertexFormat::default();
        for e in &draw.elements {
            match (e.usage, e.usage_index) {
                (DeclUsage::POSITIONT, 0) => f.pretransformed = true,
                (DeclUsage::NORMAL, 0) => f.normal = true,
                (DeclUsage::POSITION, 1) => f.position1 = true,
                (DeclUsage::NORMAL, 1) => f.normal1 = true,
                (DeclUsage::COLOR, 0) => f.diffuse = true,
                (DeclUsage::COLOR, 1) => f.specular = true,
                (DeclUsage::PSIZE, 0) => f.psize = true,
                (DeclUsage::BLENDWEIGHT, 0) => f.blend_weights = e.ty.components(),
                (DeclUsage::BLENDINDICES, 0) => f.blend_indices = true,
                (DeclUsage::TEXCOORD, n @ 0..=7) => f.texcoord_sizes[n as usize] = e.ty.components(),
                _ => {}
            }
        }
        if draw.fvf.as_deref().is_some_and(|f| f.contains("XYZRHW")) {
            f.pretransformed = true;
        }
        f
    }
}
