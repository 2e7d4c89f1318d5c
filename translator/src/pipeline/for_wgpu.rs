//! [`super::PreparedPair`] as wgpu's types: the shader source or module, the bind group layout
//! entries of each stage (group 0 vertex, group 1 pixel: [`crate::lower`]'s table), the vertex
//! buffer layouts, and the pipeline constants as compilation options.

use super::{Pair, PreparedPair, PreparedStage, StageConstants};
use crate::artifact::{Artifact, ArtifactCache, CacheHash};
use crate::bytecode::TextureType;
use crate::error::Result;
use crate::key::device::DeviceState;
use crate::key::pipeline_constants::PipelineConstants;
use crate::key::vertex_formats::vertex_format;
use crate::lower::BindingLayout;

/// One stage as wgpu takes it.
#[derive(Clone, Debug)]
pub struct WgpuStage {
    /// The translation (its WGSL, layout and interface).
    pub artifact: Artifact,
    /// The entry point: `vs_main` or `ps_main`.
    pub entry_point: &'static str,
    /// The bind group layout entries of its group ([`BindingLayout::group`]).
    pub layout_entries: Vec<wgpu::BindGroupLayoutEntry>,
    /// The values of its overrides.
    pub constants: PipelineConstants,
}

/// One vertex buffer (stream) as wgpu takes it.
#[derive(Clone, Debug, PartialEq)]
pub struct WgpuVertexBuffer {
    /// The stream; its slot in [`WgpuPipeline::vertex_buffers`] is the buffer's index in the draw.
    pub stream: u16,
    /// The stream's stride in bytes.
    pub stride: u64,
    /// The attributes the vertex shader reads from it.
    pub attributes: Vec<wgpu::VertexAttribute>,
}

/// What wgpu needs to draw a pair under a device state (module documentation).
#[derive(Clone, Debug)]
pub struct WgpuPipeline {
    /// The vertex stage.
    pub vertex: WgpuStage,
    /// The pixel stage.
    pub pixel: WgpuStage,
    /// The vertex buffers, one per stream the vertex shader reads, by stream.
    pub vertex_buffers: Vec<WgpuVertexBuffer>,
    /// The stages' cache hashes (vertex, pixel).
    pub hashes: [CacheHash; 2],
}

impl WgpuPipeline {
    /// The one call: the pair's keys under `state`, its artifacts through `cache`, the pipeline
    /// constants from the state's modes and the stages' constants, the vertex buffers from the
    /// declaration and `strides` (by stream), checked against `limits`' inter-stage locations.
    pub fn new(
        pair: &Pair<'_>,
        state: &DeviceState,
        constants: [StageConstants; 2],
        strides: &[u64],
        limits: &wgpu::Limits,
        cache: &mut ArtifactCache,
    ) -> Result<WgpuPipeline> {
        let prepared = pair.prepare(state, constants, cache)?;
        prepared.check_limits(limits)?;
        let mut vertex_buffers: Vec<WgpuVertexBuffer> = Vec::new();
        for &(e, location) in &prepared.attributes {
            let attribute = wgpu::VertexAttribute {
                format: vertex_format(e.ty).wgpu,
                offset: u64::from(e.offset),
                shader_location: location,
            };
            match vertex_buffers.iter_mut().find(|b| b.stream == e.stream) {
                Some(b) => b.attributes.push(attribute),
                None => vertex_buffers.push(WgpuVertexBuffer {
                    stream: e.stream,
                    stride: strides.get(usize::from(e.stream)).copied().unwrap_or(0),
                    attributes: vec![attribute],
                }),
            }
        }
        vertex_buffers.sort_by_key(|b| b.stream);
        let hashes = [prepared.vertex.artifact.hash, prepared.pixel.artifact.hash];
        Ok(WgpuPipeline {
            vertex: WgpuStage::new(prepared.vertex, "vs_main", wgpu::ShaderStages::VERTEX),
            pixel: WgpuStage::new(prepared.pixel, "ps_main", wgpu::ShaderStages::FRAGMENT),
            vertex_buffers,
            hashes,
        })
    }

    /// The vertex buffer layouts, in [`WgpuPipeline::vertex_buffers`] order.
    pub fn vertex_buffer_layouts(&self) -> Vec<Option<wgpu::VertexBufferLayout<'_>>> {
        self.vertex_buffers.iter().map(|b| Some(b.layout())).collect()
    }

    /// The render pipeline (default primitive, multisample and no depth) with `targets`, and
    /// the two bind group layouts (group 0 vertex, group 1 pixel) its bind groups follow.
    pub fn create_render_pipeline(
        &self,
        device: &wgpu::Device,
        targets: &[Option<wgpu::ColorTargetState>],
    ) -> (wgpu::RenderPipeline, [wgpu::BindGroupLayout; 2]) {
        let groups = [&self.vertex, &self.pixel].map(|s| s.create_bind_group_layout(device));
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&groups[0]), Some(&groups[1])],
            immediate_size: 0,
        });
        let modules = [&self.vertex, &self.pixel].map(|s| s.create_module(device));
        let buffers = self.vertex_buffer_layouts();
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("d3d9 pair"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &modules[0],
                entry_point: Some(self.vertex.entry_point),
                compilation_options: self.vertex.constants.compilation_options(),
                buffers: &buffers,
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &modules[1],
                entry_point: Some(self.pixel.entry_point),
                compilation_options: self.pixel.constants.compilation_options(),
                targets,
            }),
            multiview_mask: None,
            cache: None,
        });
        (pipeline, groups)
    }
}

impl WgpuVertexBuffer {
    /// wgpu's layout of this buffer (per-vertex stepping).
    pub fn layout(&self) -> wgpu::VertexBufferLayout<'_> {
        wgpu::VertexBufferLayout {
            array_stride: self.stride,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &self.attributes,
        }
    }
}

impl WgpuStage {
    fn new(stage: PreparedStage, entry_point: &'static str, visibility: wgpu::ShaderStages) -> WgpuStage {
        let layout_entries = layout_entries(&stage.artifact.layout, visibility);
        WgpuStage { artifact: stage.artifact, entry_point, layout_entries, constants: stage.constants }
    }

    /// The WGSL source.
    pub fn source(&self) -> wgpu::ShaderSource<'_> {
        wgpu::ShaderSource::Wgsl(self.artifact.wgsl.as_str().into())
    }

    /// The shader module.
    pub fn create_module(&self, device: &wgpu::Device) -> wgpu::ShaderModule {
        device
            .create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(self.entry_point), source: self.source() })
    }

    /// The bind group layout of its group.
    pub fn create_bind_group_layout(&self, device: &wgpu::Device) -> wgpu::BindGroupLayout {
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &self.layout_entries })
    }
}

impl PreparedPair {
    /// [`PreparedPair::check_inter_stage_limit`] against a wgpu device's limits.
    pub fn check_limits(
        &self,
        limits: &wgpu::Limits,
    ) -> std::result::Result<(), crate::key::linkage::InterStageLimitError> {
        self.check_inter_stage_limit(limits.max_inter_stage_shader_variables)
    }
}

/// The entries of a [`BindingLayout`]: uniform buffers for the constants and the render-state
/// block, and per sampler a filterable float texture and a filtering sampler (a depth texture
/// and a comparison sampler for a shadow sampler). A layer with unfilterable formats (32-bit
/// floats without `FLOAT32_FILTERABLE`) changes the sample and sampler types.
pub fn layout_entries(layout: &BindingLayout, visibility: wgpu::ShaderStages) -> Vec<wgpu::BindGroupLayoutEntry> {
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None };
    let uniform = wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    let float = layout.float_constants.iter().flat_map(|f| std::iter::once(f.binding).chain(f.high_binding));
    let buffers = float.chain(layout.int_constants).chain(layout.bool_constants).chain(layout.render_state);
    let mut entries: Vec<_> = buffers.map(|b| entry(b, uniform)).collect();
    for t in &layout.textures {
        let view_dimension = match t.texture_type {
            TextureType::Cube => wgpu::TextureViewDimension::Cube,
            TextureType::Volume => wgpu::TextureViewDimension::D3,
            _ => wgpu::TextureViewDimension::D2,
        };
        let (sample_type, sampler) = if t.shadow {
            (wgpu::TextureSampleType::Depth, wgpu::SamplerBindingType::Comparison)
        } else {
            (wgpu::TextureSampleType::Float { filterable: true }, wgpu::SamplerBindingType::Filtering)
        };
        let texture = wgpu::BindingType::Texture { sample_type, view_dimension, multisampled: false };
        entries.push(entry(t.texture_binding, texture));
        entries.push(entry(t.sampler_binding, wgpu::BindingType::Sampler(sampler)));
    }
    entries
}
