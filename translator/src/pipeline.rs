//! A vertex/pixel pair from a draw's state to what a layer binds: the keys of both stages
//! (from the device state, the deliveries, the linkage and the vertex declaration), their
//! artifacts through a cache, the pipeline constants of both, where each declaration element
//! goes, and the check of the inter-stage locations against the device's limit. With the
//! `wgpu` feature, `WgpuPipeline` (`for_wgpu`) gives all of it as wgpu's types in one call
//! (`examples/layer.rs`).

#[cfg(feature = "wgpu")]
pub mod for_wgpu;

use crate::artifact::{Artifact, ArtifactCache};
use crate::bytecode::{Register, RegisterType, ShaderKind, Usage};
use crate::error::{Error, Result};
use crate::key::device::DeviceState;
use crate::key::linkage::{InterStageLimitError, Linkage};
use crate::key::pipeline_constants::PipelineConstants;
use crate::key::vertex_formats::DeclType;
use crate::key::{Deliveries, Delivery, Modes, ShaderKey};
use crate::shader::{link, Shader};

/// One element of a vertex declaration (D3DVERTEXELEMENT9): the stream, the byte offset, the
/// D3DDECLTYPE and the semantic it feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement {
    /// The stream (`SetStreamSource` index).
    pub stream: u16,
    /// Byte offset in the stream's vertex.
    pub offset: u32,
    /// D3DDECLTYPE.
    pub ty: DeclType,
    /// D3DDECLUSAGE.
    pub usage: Usage,
    /// Usage index.
    pub usage_index: u8,
}

/// The boolean and integer constants the application set for one stage
/// (`Set…ShaderConstantB`/`I`): the values of their overrides under override delivery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageConstants {
    /// Bit n: `b n`.
    pub bools: u16,
    /// `i n`.
    pub ints: [[i32; 4]; 16],
}

/// A vertex/pixel pair with its vertex declaration and the deliveries it is translated under.
#[derive(Clone, Copy, Debug)]
pub struct Pair<'a> {
    /// The vertex shader.
    pub vertex: &'a Shader,
    /// The pixel shader.
    pub pixel: &'a Shader,
    /// The vertex declaration.
    pub declaration: &'a [VertexElement],
    /// How the render-state modes and the constants reach the code ([`crate::key::delivery`]).
    pub delivery: Deliveries,
}

/// One stage of a [`PreparedPair`].
#[derive(Clone, Debug)]
pub struct PreparedStage {
    /// The key it was translated under (minimal).
    pub key: ShaderKey,
    /// Its translation.
    pub artifact: Artifact,
    /// Its modes under the device state ([`Shader::modes`]).
    pub modes: Modes,
    /// Its overrides' values under those modes and the stage's constants.
    pub constants: PipelineConstants,
}

/// A pair ready to draw: both stages, and the location each declaration element feeds.
#[derive(Clone, Debug)]
pub struct PreparedPair {
    /// The vertex stage.
    pub vertex: PreparedStage,
    /// The pixel stage.
    pub pixel: PreparedStage,
    /// The declaration elements the vertex shader reads, with their `@location`.
    pub attributes: Vec<(VertexElement, u32)>,
}

impl<'a> Pair<'a> {
    /// A pair of `vertex` and `pixel` (refused if a stage is wrong), with the pixel modes
    /// delivered as overrides (one translation for every alpha function, fog mode, unbound
    /// sampler mask, projection), the clip planes baked (a delivered mask writes all eight clip
    /// distances, which need wgpu's `CLIP_DISTANCES` feature even with no plane on) and the
    /// constants as uniforms (the library's default). Change [`Pair::delivery`] as you like.
    pub fn new(vertex: &'a Shader, pixel: &'a Shader, declaration: &'a [VertexElement]) -> Result<Pair<'a>> {
        for (shader, expected) in [(vertex, ShaderKind::Vertex), (pixel, ShaderKind::Pixel)] {
            if shader.stage() != expected {
                return Err(Error::Stage { expected, found: shader.stage() });
            }
        }
        let mut delivery = Deliveries::all(Delivery::Override);
        (delivery.bool_constants, delivery.int_constants) = (Delivery::Uniform, Delivery::Uniform);
        delivery.clip_planes = Delivery::Baked;
        Ok(Pair { vertex, pixel, declaration, delivery })
    }

    /// The stable interface when both stages fit it (each translated once for every partner),
    /// else the pair linked by semantic.
    pub fn linkage(&self) -> Result<Linkage> {
        if self.vertex.fits_stable_interface() && self.pixel.fits_stable_interface() {
            return Ok(Linkage::stable());
        }
        link(self.vertex, self.pixel)
    }

    /// The minimal keys of the two stages under `state`: its modes and textures, the pair's
    /// deliveries and linkage, and the declaration's type for each input the vertex shader reads.
    pub fn keys(&self, state: &DeviceState) -> Result<[ShaderKey; 2]> {
        let linkage = self.linkage()?;
        let mut keys = [self.vertex, self.pixel].map(|s| {
            let mut k = s.key(state);
            k.delivery = self.delivery;
            k.linkage = Some(linkage.clone());
            k
        });
        for (e, register) in self.inputs()? {
            keys[0].vertex_inputs[usize::from(register)] = Some(e.ty);
        }
        Ok([self.vertex.minimal_key(&keys[0]), self.pixel.minimal_key(&keys[1])])
    }

    /// The declaration elements the vertex shader reads, with its input register of each; an
    /// input no element gives is refused.
    fn inputs(&self) -> Result<Vec<(VertexElement, u16)>> {
        let mut out = Vec::new();
        for r in self.vertex.reflection().inputs.iter().filter(|r| r.file == RegisterType::Input) {
            let e = self.declaration.iter().find(|e| r.usage == Some(e.usage) && r.usage_index == e.usage_index);
            let e =
                e.ok_or(Error::MissingVertexElement { register: r.index, usage: r.usage, usage_index: r.usage_index })?;
            if r.index < 16 {
                out.push((*e, r.index));
            }
        }
        Ok(out)
    }

    /// Both stages under `state` with the stages' constants (vertex, pixel), translated through
    /// `cache`.
    pub fn prepare(
        &self,
        state: &DeviceState,
        constants: [StageConstants; 2],
        cache: &mut ArtifactCache,
    ) -> Result<PreparedPair> {
        let [vk, pk] = self.keys(state)?;
        let stage = |shader: &Shader, key: ShaderKey, c: StageConstants, cache: &mut ArtifactCache| {
            let artifact = cache.get(shader, &key)?.clone();
            // The modes from the device state, never from the key: its overridden fields are reset.
            let modes = shader.modes(state);
            let constants = artifact.pipeline_constants(&modes, c.bools, &c.ints);
            Ok::<_, Error>(PreparedStage { key, artifact, modes, constants })
        };
        let vertex = stage(self.vertex, vk, constants[0], cache)?;
        let pixel = stage(self.pixel, pk, constants[1], cache)?;
        let mut attributes = Vec::new();
        for (e, register) in self.inputs()? {
            let reg = Register::new(RegisterType::Input, register);
            let slot = vertex.artifact.interface.inputs.iter().find(|s| s.register == Some(reg));
            if let Some(location) = slot.and_then(|s| s.location) {
                attributes.push((e, location));
            }
        }
        Ok(PreparedPair { vertex, pixel, attributes })
    }
}

impl PreparedPair {
    /// The inter-stage locations the pair uses, as WebGPU counts them against
    /// `maxInterStageShaderVariables`: the highest location either stage passes + 1, and one
    /// location per four clip distances the vertex shader writes (all eight under a delivered
    /// clip plane mask).
    pub fn inter_stage_variables(&self) -> u32 {
        let top = |slots: &[crate::lower::InterfaceSlot]| slots.iter().filter_map(|s| s.location).map(|l| l + 1).max();
        let vertex = top(&self.vertex.artifact.interface.outputs).unwrap_or(0);
        let pixel = top(&self.pixel.artifact.interface.inputs).unwrap_or(0);
        let key = &self.vertex.key;
        let clip = if key.delivery.clip_planes != Delivery::Baked { 8 } else { 8 - key.clip_planes.leading_zeros() };
        (vertex + clip.div_ceil(4)).max(pixel)
    }

    /// Whether the pair fits a device with `limit` inter-stage locations.
    pub fn check_inter_stage_limit(&self, limit: u32) -> std::result::Result<(), InterStageLimitError> {
        let needed = self.inter_stage_variables();
        if needed > limit {
            let stable = self.vertex.key.linkage.as_ref().is_some_and(|l| l.stable);
            return Err(InterStageLimitError { needed, limit, stable });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
