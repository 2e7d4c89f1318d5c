//! The uniform-driven mode's interface and state block.
//!
//! A uniform-driven half is generated once per **interface**, the part of the state that changes
//! the entry point's inputs, outputs or bindings ([`VertexInterface`], [`PixelInterface`]); the
//! rest of the key is written, as codes ([`super::known::StateValue`]), into the state block that
//! the half reads at draw time:
//!
//! - vertex half: group 0, binding 1, `FfpVertexState` ([`VERTEX_STATE_WGSL`], bytes from
//!   [`VertexKey::state_bytes`]);
//! - pixel half: group 1, binding 1, `FfpPixelState` ([`PIXEL_STATE_WGSL`], bytes from
//!   [`PixelKey::state_bytes`]).
//!
//! The numeric state ([`super::constants`]) is the same in both modes. A layer keeps one module per
//! interface and rewrites the state block when the state changes, instead of generating and
//! compiling a module per key (docs/layers.md#fixed-function).

use super::key_pixel::PixelKey;
use super::key_vertex::{Varyings, VertexInputs, VertexKey};
use super::known::StateValue;
use super::texture_stages;
use crate::bytecode::TextureDimension;
use crate::key::PointExpansion;

/// The state block's binding in the vertex half (group, binding).
pub const VERTEX_STATE_BINDING: (u32, u32) = (0, 1);
/// The state block's binding in the pixel half.
pub const PIXEL_STATE_BINDING: (u32, u32) = (1, 1);

/// WGSL declaration of the vertex state block (the layout [`VertexKey::state_bytes`] writes).
pub const VERTEX_STATE_WGSL: &str = "struct FfpVertexState {
    lighting: u32,
    specular: u32,
    light_count: u32,
    local_viewer: u32,
    sources: vec4<u32>,
    light_types: array<vec4<u32>, 2>,
    blend_weights: u32,
    indexed_blend: u32,
    normalize_normals: u32,
    unclipped_z: u32,
    fog: u32,
    point_scale: u32,
    point_sprite: u32,
    tween: u32,
    texcoords: array<vec4<u32>, 8>,
}

@group(0) @binding(1) var<uniform> ffp_state: FfpVertexState;
";

/// WGSL declaration of the pixel state block (the layout [`PixelKey::state_bytes`] writes).
pub const PIXEL_STATE_WGSL: &str = "struct FfpStageState {
    kind: u32,
    flags: u32,
    divide_by: u32,
    color_op: u32,
    alpha: u32,
    alpha_op: u32,
    color_args: vec4<u32>,
    alpha_args: vec4<u32>,
}

struct FfpPixelState {
    stages: array<FfpStageState, 8>,
    specular_add: u32,
    fog: u32,
    alpha_test: u32,
    table_depth_from_fog: u32,
}

@group(1) @binding(1) var<uniform> ffp_state: FfpPixelState;
";

/// What a uniform-driven vertex half is generated for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VertexInterface {
    /// What the vertices carry.
    pub inputs: VertexInputs,
    /// SHADEMODE FLAT.
    pub flat: bool,
    /// Where the outputs go.
    pub varyings: Varyings,
    /// How point lists are drawn as quads (`None`: other primitives).
    pub points: Option<PointExpansion>,
}

/// What a uniform-driven pixel half is generated for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PixelInterface {
    /// The dimension of the texture bound to each stage.
    pub textures: [Option<TextureDimension>; 8],
    /// SHADEMODE FLAT.
    pub flat: bool,
    /// Where the varyings are.
    pub varyings: Varyings,
}

fn words(out: &mut Vec<u8>, w: &[u32]) {
    for v in w {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

impl VertexKey {
    /// The interface of this key's uniform-driven half.
    pub fn interface(&self) -> VertexInterface {
        let k = self.clone().normalised();
        VertexInterface { inputs: k.inputs, flat: k.flat, varyings: k.varyings, points: k.points.map(|p| p.expansion) }
    }

    /// The bytes of `FfpVertexState` for this key.
    pub fn state_bytes(&self) -> Vec<u8> {
        let k = self.clone().normalised();
        let l = k.lighting.as_ref();
        let mut out = Vec::with_capacity(224);
        let lights = l.map_or(0, |l| l.lights.len() as u32);
        words(&mut out, &[l.is_some() as u32, l.is_some_and(|l| l.specular) as u32, lights, k.local_viewer as u32]);
        words(&mut out, &l.map_or([0; 4], |l| l.sources.map(|s| s.code())));
        let mut types = [0u32; 8];
        for (i, t) in l.iter().flat_map(|l| l.lights.iter()).enumerate() {
            types[i] = t.code();
        }
        words(&mut out, &types);
        words(
            &mut out,
            &[k.blend_weights as u32, k.indexed_blend as u32, k.normalize_normals as u32, k.unclipped_z as u32],
        );
        let p = k.points.as_ref();
        words(
            &mut out,
            &[k.fog.code(), p.is_some_and(|p| p.scale) as u32, p.is_some_and(|p| p.sprite) as u32, k.tween as u32],
        );
        for t in &k.texcoords {
            let gen = t.map(|t| t.gen).code();
            words(&mut out, &t.map_or([gen, 0, 0, 0], |t| [gen, t.set as u32, t.count as u32, 0]));
        }
        out
    }
}

impl PixelKey {
    /// Whether this key can be drawn with the uniform-driven half of `interface`: the same
    /// varyings and shading, and every texture it samples bound with that dimension.
    pub fn fits(&self, interface: &PixelInterface) -> bool {
        let sampled = texture_stages::sampled(&self.stages);
        self.flat == interface.flat
            && self.varyings == interface.varyings
            && sampled.iter().zip(&interface.textures).all(|(s, i)| s.is_none() || s == i)
    }

    /// The bytes of `FfpPixelState` for this key.
    pub fn state_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(528);
        for stage in texture_stages::stage_states(&self.stages) {
            words(&mut out, &stage);
        }
        words(
            &mut out,
            &[self.specular_add as u32, self.fog.code(), self.alpha_test.code(), self.table_depth_from_fog as u32],
        );
        out
    }

    /// The textures this key samples, as an interface would bind them.
    pub fn sampled_textures(&self) -> [Option<TextureDimension>; 8] {
        texture_stages::sampled(&self.stages)
    }
}
