//! The vertex half's key: what the vertices carry, transform and blending, lighting, texture
//! coordinates per stage and fog, normalised so that states which do not change the code compare
//! equal (material sources a vertex colour cannot feed, texture coordinates of stages nothing
//! reads, lighting of pre-transformed vertices).

use arrayvec::ArrayVec;

use crate::key::PointExpansion;

use super::shared::FogFormula;
pub use super::shared::Varyings;

/// What the vertices carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub struct VertexInputs {
    /// POSITIONT (D3DFVF_XYZRHW).
    pub pretransformed: bool,
    pub normal: bool,
    /// COLOR0.
    pub diffuse: bool,
    /// COLOR1.
    pub specular: bool,
    /// BLENDWEIGHT components (0 without).
    pub blend_weights: u8,
    pub blend_indices: bool,
    /// Components of TEXCOORD0–7 (0: absent).
    pub texcoord_sizes: [u8; 8],
    /// PSIZE (read only when points are expanded).
    pub point_size: bool,
    /// POSITION1, the second position of vertex tweening (read only when tweening).
    pub position1: bool,
    /// NORMAL1, the second normal of vertex tweening (read only when tweening).
    pub normal1: bool,
}

/// D3DLIGHTTYPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum LightType {
    Point,
    Spot,
    Directional,
}

/// Where a material colour comes from, after D3DRS_COLORVERTEX and the vertex format are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorSource {
    /// The material's colour.
    Material,
    /// The vertex's COLOR0.
    Diffuse,
    /// The vertex's COLOR1.
    Specular,
}

/// D3DMATERIALCOLORSOURCE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum MaterialSource {
    Material,
    Color1,
    Color2,
}

/// Lighting (D3DRS_LIGHTING TRUE on transformed vertices).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LightingKey {
    /// The enabled lights in index order (their values are in the constants).
    pub lights: ArrayVec<LightType, 8>,
    /// SPECULARENABLE.
    pub specular: bool,
    /// Diffuse, specular, ambient, emissive sources.
    pub sources: [ColorSource; 4],
}

/// D3DTSS_TCI_* modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TexGen {
    PassThru,
    CameraSpaceNormal,
    CameraSpacePosition,
    CameraSpaceReflectionVector,
    SphereMap,
}

/// The coordinate a stage's TEXCOORD output carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexCoordKey {
    /// The vertex coordinate set read (PASSTHRU).
    pub set: u8,
    /// The generation mode.
    pub gen: TexGen,
    /// D3DTTFF_COUNTn (0: the matrix is not applied).
    pub count: u8,
}

/// The vertex half's fog output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VertexFog {
    /// No FOG output.
    #[default]
    None,
    /// The specular alpha (no vertex fog).
    SpecularAlpha,
    /// FOGVERTEXMODE with RANGEFOGENABLE.
    Formula(FogFormula, bool),
}

/// The vertex half's key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VertexKey {
    /// What the vertices carry.
    pub inputs: VertexInputs,
    /// Lighting, when on.
    pub lighting: Option<LightingKey>,
    /// VERTEXBLEND nWEIGHTS: n (0: one matrix).
    pub blend_weights: u8,
    /// INDEXEDVERTEXBLENDENABLE.
    pub indexed_blend: bool,
    /// VERTEXBLEND TWEENING: position and normal mix the vertex's two sets by TWEENFACTOR, and
    /// WORLDMATRIX(0) alone transforms them (docs/d3d9-rules.md#ffp-transform).
    pub tween: bool,
    /// The TEXCOORDn outputs (stage n's coordinate).
    pub texcoords: [Option<TexCoordKey>; 8],
    /// Fog.
    pub fog: VertexFog,
    /// LOCALVIEWER (specular lighting, reflection vectors and sphere maps).
    pub local_viewer: bool,
    /// NORMALIZENORMALS.
    pub normalize_normals: bool,
    /// Pre-transformed vertices with CLIPPING FALSE: z outside [0, 1] still draws; the position's
    /// z is clamped and the raw z goes to the FOG output's y for table fog.
    pub unclipped_z: bool,
    /// SHADEMODE FLAT.
    pub flat: bool,
    /// Where the outputs go.
    pub varyings: Varyings,
    /// A point list drawn as quads ([`super::points`]); `None` for other primitives.
    pub points: Option<PointKey>,
}

impl VertexKey {
    /// Resolves the material sources (D3DMCS_COLOR1/2 read a vertex colour only with COLORVERTEX
    /// and where the vertex has that colour).
    pub fn color_sources(inputs: &VertexInputs, color_vertex: bool, sources: [MaterialSource; 4]) -> [ColorSource; 4] {
        sources.map(|s| match s {
            MaterialSource::Color1 if color_vertex && inputs.diffuse => ColorSource::Diffuse,
            MaterialSource::Color2 if color_vertex && inputs.specular => ColorSource::Specular,
            _ => ColorSource::Material,
        })
    }

    /// Drops what pre-transformed vertices ignore (transform, lighting, texture matrices, vertex
    /// fog) and coordinates for sets the vertex lacks.
    pub fn normalised(mut self) -> VertexKey {
        self.unclipped_z &= self.inputs.pretransformed;
        if let Some(p) = &mut self.points {
            p.scale &= !self.inputs.pretransformed;
            if p.expansion == PointExpansion::Off {
                self.points = None;
            }
        }
        if self.points.is_none() {
            self.inputs.point_size = false;
        }
        // Tweening excludes weighted and indexed blending; without a second set it mixes nothing.
        self.tween &= !self.inputs.pretransformed && (self.inputs.position1 || self.inputs.normal1);
        if self.tween {
            self.blend_weights = 0;
            self.indexed_blend = false;
            // NORMAL1 takes the blend weights' location (translator/src/ffp/mod.rs).
            if self.inputs.normal1 {
                self.inputs.blend_weights = 0;
            }
        } else {
            self.inputs.position1 = false;
            self.inputs.normal1 = false;
        }
        if self.inputs.pretransformed {
            self.lighting = None;
            self.blend_weights = 0;
            self.indexed_blend = false;
            for t in self.texcoords.iter_mut().flatten() {
                t.count = 0;
                t.gen = TexGen::PassThru;
            }
            if matches!(self.fog, VertexFog::Formula(..)) {
                self.fog = VertexFog::SpecularAlpha;
            }
        }
        for t in &mut self.texcoords {
            if let Some(k) = t {
                if k.gen == TexGen::PassThru && self.inputs.texcoord_sizes[k.set as usize] == 0 {
                    *t = None;
                }
            }
        }
        self
    }
}

/// How a point list is drawn (as quads by `points.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointKey {
    /// List (6 vertices per point) or strip (4); `Off` draws no quads.
    pub expansion: PointExpansion,
    /// POINTSCALEENABLE (ignored for pre-transformed vertices).
    pub scale: bool,
    /// POINTSPRITEENABLE.
    pub sprite: bool,
}
