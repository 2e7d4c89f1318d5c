//! One draw on the GPU: two naga modules (a vertex and a pixel stage, translated or stand-ins),
//! vertex data as input registers, resources by (group, binding), fixed render state.
//!
//! The pipeline layout is derived from the modules themselves (each global's group, binding and
//! type), so the harness follows whatever binding layout the translator documents without copying
//! it. The D3D9 half-pixel convention is the viewport's: it is shifted by +0.5 px, so pixel (X, Y)
//! is sampled at NDC (X / (W/2) − 1, 1 − Y / (H/2)) as in D3D9.

use std::collections::BTreeMap;

use crate::case::{CompareFunc, CullMode};
use crate::device::Gpu;
use crate::targets::{wgpu_format, GpuTargets};

/// A resource for one (group, binding).
#[derive(Debug)]
pub enum Resource<'a> {
    /// Buffer contents (uniform or storage, as the module declares); padded with zeros to the
    /// size the module's type needs.
    Buffer(Vec<u8>),
    /// A texture view.
    Texture(&'a wgpu::TextureView),
    /// A sampler.
    Sampler(&'a wgpu::Sampler),
}

/// Depth and cull state.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedState {
    /// Cull mode (front faces are clockwise).
    pub cull: CullMode,
    /// Depth test on.
    pub z_enable: bool,
    /// Depth function.
    pub z_func: CompareFunc,
    /// Depth writes.
    pub z_write: bool,
    /// ALPHABLENDENABLE: (SRCBLEND, DESTBLEND) on target 0.
    pub blend: Option<(crate::case::Blend, crate::case::Blend)>,
}

fn blend_factor(b: crate::case::Blend) -> wgpu::BlendFactor {
    match b {
        crate::case::Blend::Zero => wgpu::BlendFactor::Zero,
        crate::case::Blend::One => wgpu::BlendFactor::One,
        crate::case::Blend::SrcAlpha => wgpu::BlendFactor::SrcAlpha,
        crate::case::Blend::InvSrcAlpha => wgpu::BlendFactor::OneMinusSrcAlpha,
    }
}

/// A draw.
#[derive(Debug)]
pub struct DrawCall<'a> {
    /// Vertex stage module and entry point.
    pub vs: (&'a naga::Module, &'a str),
    /// Pixel stage module and entry point.
    pub ps: (&'a naga::Module, &'a str),
    /// The vertex and pixel stages' pipeline-overridable constants, by name.
    pub constants: [Vec<(String, f64)>; 2],
    /// Each vertex's input registers `v0–v15` (uploaded at `@location(n)` for every location the
    /// vertex module reads).
    pub vertices: &'a [[[f32; 4]; 16]],
    /// Triangle strip (else list).
    pub strip: bool,
    /// A point list drawn by a vertex module that expands points into triangle-list quads
    /// (`d3d9_shader::key::PointExpansion::List`): one instance of 6 vertices per vertex of
    /// `vertices`, the vertex buffer stepped per instance.
    pub points: bool,
    /// Resources by (group, binding).
    pub resources: BTreeMap<(u32, u32), Resource<'a>>,
    /// Depth and cull state.
    pub state: FixedState,
    /// The vertex and pixel stages' code as it is, where wgpu is not handed the WGSL the library
    /// writes from the stage's module ([`Source`]).
    pub sources: [Option<Source<'a>>; 2],
}

/// Code handed to wgpu as it is for one stage, instead of the WGSL the library writes from the
/// stage's module, which then only describes it (bindings, locations, outputs): another
/// translator's output, which `cargo xtask bench --gpu` draws beside the project's
/// (vkd3d-shader's SPIR-V), or a stand-in stage written for it.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// SPIR-V words, read by wgpu's SPIR-V front end.
    SpirV(&'a [u32]),
    /// WGSL text.
    Wgsl(&'a str),
}

/// What went wrong on the GPU side.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// naga rejected a module.
    #[error("naga validation of the {stage} module: {message}")]
    Validation {
        /// vertex or pixel.
        stage: &'static str,
        /// The error.
        message: String,
    },
    /// A binding the module needs has no resource, or the wrong kind.
    #[error("binding (group {0}, binding {1}): {2}")]
    Binding(u32, u32, String),
    /// wgpu reported a validation error.
    #[error("wgpu: {0}")]
    Wgpu(String),
}

/// Validates `module` and writes it as WGSL (what wgpu is handed) with the library's own WGSL
/// writer, never naga's fallback: the conformance run draws the text users get, through wgpu's
/// WGSL front end.
pub fn to_wgsl(module: &naga::Module, stage: &'static str) -> Result<String, GpuError> {
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(module)
        .map_err(|e| GpuError::Validation { stage, message: format!("{:?}", e.into_inner()) })?;
    let analysis = d3d9_shader::emit::Analysis::with_info(module, info)
        .map_err(|e| GpuError::Validation { stage, message: e.to_string() })?;
    d3d9_shader::emit::wgsl_own(module, analysis.facts())
        .map_err(|e| GpuError::Validation { stage, message: e.to_string() })
}

/// The module wgpu gets for `module`: its WGSL, or with `D3D9_GPU_SOURCE=spirv` the library's
/// SPIR-V, which wgpu reads back through naga's SPIR-V front end (a reader independent of the
/// project's writer) before its usual path, so that a conformance run proves the SPIR-V's
/// meaning too (docs/architecture.md#spirv-writer). wgpu's passthrough is not used: it skips the
/// bounds checks and coordinate conventions the harness relies on.
fn shader_module(
    gpu: &Gpu,
    module: &naga::Module,
    stage: &'static str,
    given: Option<Source>,
) -> Result<wgpu::ShaderModule, GpuError> {
    let label = Some(if stage == "vertex" { "vs" } else { "ps" });
    let source = if let Some(given) = given {
        match given {
            Source::SpirV(words) => wgpu::ShaderSource::SpirV(words.into()),
            Source::Wgsl(text) => wgpu::ShaderSource::Wgsl(text.into()),
        }
    } else if std::env::var("D3D9_GPU_SOURCE").is_ok_and(|v| v == "spirv") {
        let analysis = d3d9_shader::emit::validate_fully(module)
            .and_then(|info| d3d9_shader::emit::Analysis::with_info(module, info))
            .map_err(|e| GpuError::Validation { stage, message: e.to_string() })?;
        // The project's writer alone, never naga's fallback: the run proves the words users get.
        let words = d3d9_shader::emit::spirv::write(module, analysis.facts(), (1, 0))
            .map_err(|e| GpuError::Validation { stage, message: format!("the SPIR-V writer: {e:?}") })?;
        wgpu::ShaderSource::SpirV(words.into())
    } else {
        wgpu::ShaderSource::Wgsl(to_wgsl(module, stage)?.into())
    };
    Ok(gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor { label, source }))
}

/// The module with its overrides set to `constants` (naga's pipeline-constant pass on the module
/// itself), as `Translation::specialise` does; wgpu's `constants` on the WGSL work too since the
/// lowering avoids naga 30's `ExpressionAlreadyInScope` trap (docs/layers.md).
fn specialise(
    module: &naga::Module,
    constants: &[(String, f64)],
    stage: &'static str,
) -> Result<Option<naga::Module>, GpuError> {
    if module.overrides.is_empty() {
        return Ok(None);
    }
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(module)
        .map_err(|e| GpuError::Validation { stage, message: format!("{:?}", e.into_inner()) })?;
    let mut values = naga::back::PipelineConstants::default();
    for (name, v) in constants {
        values.insert(name.clone(), *v);
    }
    naga::back::pipeline_constants::process_overrides(module, &info, None, &values)
        .map(|(m, _)| Some(m.into_owned()))
        .map_err(|e| GpuError::Validation { stage, message: format!("overrides: {e}") })
}

fn entry<'m>(module: &'m naga::Module, name: &str) -> Option<&'m naga::EntryPoint> {
    module.entry_points.iter().find(|e| e.name == name)
}

/// Locations bound on a function's arguments (or result): struct members included.
fn locations(
    module: &naga::Module,
    items: impl Iterator<Item = (Option<naga::Binding>, naga::Handle<naga::Type>)>,
) -> Vec<u32> {
    let mut out = Vec::new();
    for (binding, ty) in items {
        match binding {
            Some(naga::Binding::Location { location, .. }) => out.push(location),
            Some(_) => {}
            None => {
                if let naga::TypeInner::Struct { members, .. } = &module.types[ty].inner {
                    for m in members {
                        if let Some(naga::Binding::Location { location, .. }) = m.binding {
                            out.push(location);
                        }
                    }
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn vertex_locations(module: &naga::Module, ep: &naga::EntryPoint) -> Vec<u32> {
    locations(module, ep.function.arguments.iter().map(|a| (a.binding.clone(), a.ty)))
}

fn fragment_outputs(module: &naga::Module, ep: &naga::EntryPoint) -> Vec<u32> {
    locations(module, ep.function.result.iter().map(|r| (r.binding.clone(), r.ty)))
}

fn compare(f: CompareFunc) -> wgpu::CompareFunction {
    match f {
        CompareFunc::Never => wgpu::CompareFunction::Never,
        CompareFunc::Less => wgpu::CompareFunction::Less,
        CompareFunc::Equal => wgpu::CompareFunction::Equal,
        CompareFunc::LessEqual => wgpu::CompareFunction::LessEqual,
        CompareFunc::Greater => wgpu::CompareFunction::Greater,
        CompareFunc::NotEqual => wgpu::CompareFunction::NotEqual,
        CompareFunc::GreaterEqual => wgpu::CompareFunction::GreaterEqual,
        CompareFunc::Always => wgpu::CompareFunction::Always,
    }
}

/// A bind-group entry layout for a module global, and the buffer size its type needs.
fn layout_entry(
    gpu: &Gpu,
    module: &naga::Module,
    var: &naga::GlobalVariable,
    binding: u32,
) -> (wgpu::BindGroupLayoutEntry, u64) {
    let mut layouter = naga::proc::Layouter::default();
    let _ = layouter.update(module.to_ctx());
    let filterable = gpu.features.contains(wgpu::Features::FLOAT32_FILTERABLE);
    let visibility = wgpu::ShaderStages::VERTEX_FRAGMENT;
    let (ty, size) = match (&module.types[var.ty].inner, var.space) {
        (naga::TypeInner::Image { dim, class, .. }, _) => {
            let view_dimension = match dim {
                naga::ImageDimension::D1 => wgpu::TextureViewDimension::D1,
                naga::ImageDimension::D2 => wgpu::TextureViewDimension::D2,
                naga::ImageDimension::D3 => wgpu::TextureViewDimension::D3,
                naga::ImageDimension::Cube => wgpu::TextureViewDimension::Cube,
            };
            let sample_type = match class {
                naga::ImageClass::Depth { .. } => wgpu::TextureSampleType::Depth,
                _ => wgpu::TextureSampleType::Float { filterable },
            };
            (wgpu::BindingType::Texture { sample_type, view_dimension, multisampled: false }, 0)
        }
        (naga::TypeInner::Sampler { comparison }, _) => {
            let kind = if *comparison {
                wgpu::SamplerBindingType::Comparison
            } else if filterable {
                wgpu::SamplerBindingType::Filtering
            } else {
                wgpu::SamplerBindingType::NonFiltering
            };
            (wgpu::BindingType::Sampler(kind), 0)
        }
        (_, naga::AddressSpace::Storage { .. }) => (
            wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            layouter[var.ty].size as u64,
        ),
        _ => (
            wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            layouter[var.ty].size as u64,
        ),
    };
    (wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None }, size)
}

/// Draws `call` into `targets` (loading their contents; clears are separate).
pub fn draw(gpu: &Gpu, targets: &GpuTargets, call: &DrawCall) -> Result<(), GpuError> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let made = Pipeline::new(gpu, targets, call);
    if let Ok(pipeline) = &made {
        pipeline.draw(gpu, targets, 1);
    }
    let wgpu_error = pollster::block_on(scope.pop());
    made?;
    match wgpu_error {
        Some(e) => Err(GpuError::Wgpu(e.to_string())),
        None => Ok(()),
    }
}

/// A draw's pipeline with its bind groups and vertex buffer: made once, drawn any number of
/// times (`cargo xtask bench --gpu` times the two apart). wgpu's validation errors go to the
/// caller's error scope.
#[derive(Debug)]
pub struct Pipeline {
    pipeline: wgpu::RenderPipeline,
    bind_groups: Vec<wgpu::BindGroup>,
    /// The uniform and storage buffers the bind groups hold.
    _buffers: Vec<wgpu::Buffer>,
    /// The vertex buffer, when the vertex stage reads a location.
    vertex_buffer: Option<wgpu::Buffer>,
    vertex_count: u32,
    /// Points: instances of 6 vertices, one per point.
    points: bool,
}

impl Pipeline {
    /// Creates the resources of `call` and its pipeline for `targets`.
    pub fn new(gpu: &Gpu, targets: &GpuTargets, call: &DrawCall) -> Result<Pipeline, GpuError> {
        let (layouts, bind_groups, buffers) = bind_groups(gpu, call)?;
        let pipeline_layout = gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &layouts.iter().map(Some).collect::<Vec<_>>(),
            immediate_size: 0,
        });
        let (pipeline, vertex_buffer) = render_pipeline(gpu, targets, call, &pipeline_layout)?;
        Ok(Pipeline {
            pipeline,
            bind_groups,
            _buffers: buffers,
            vertex_buffer,
            vertex_count: call.vertices.len() as u32,
            points: call.points,
        })
    }

    /// Records and submits one pass drawing the call's vertices `instances` times (loading the
    /// targets' contents); does not wait for it.
    pub fn draw(&self, gpu: &Gpu, targets: &GpuTargets, instances: u32) {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let attachments: Vec<_> = targets
                .colors
                .iter()
                .map(|(_, view, _)| {
                    Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                    })
                })
                .collect();
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("draw"),
                color_attachments: &attachments,
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &targets.depth.1,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                ..Default::default()
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_viewport(0.5, 0.5, targets.width as f32, targets.height as f32, 0.0, 1.0);
            for (i, bg) in self.bind_groups.iter().enumerate() {
                pass.set_bind_group(i as u32, bg, &[]);
            }
            if let Some(vbuf) = &self.vertex_buffer {
                pass.set_vertex_buffer(0, vbuf.slice(..));
            }
            if self.points {
                for _ in 0..instances {
                    pass.draw(0..6, 0..self.vertex_count);
                }
            } else {
                pass.draw(0..self.vertex_count, 0..instances);
            }
        }
        gpu.queue.submit([encoder.finish()]);
    }
}

/// The bind group layouts, bind groups and buffers of both modules' globals.
type BindGroups = (Vec<wgpu::BindGroupLayout>, Vec<wgpu::BindGroup>, Vec<wgpu::Buffer>);

fn bind_groups(gpu: &Gpu, call: &DrawCall) -> Result<BindGroups, GpuError> {
    let device = &gpu.device;
    let (vs_mod, _) = call.vs;
    let (ps_mod, _) = call.ps;

    // Bind group layouts from both modules' globals.
    let mut groups: BTreeMap<u32, BTreeMap<u32, (wgpu::BindGroupLayoutEntry, u64)>> = BTreeMap::new();
    for module in [vs_mod, ps_mod] {
        for (_, var) in module.global_variables.iter() {
            if let Some(rb) = &var.binding {
                groups.entry(rb.group).or_default().insert(rb.binding, layout_entry(gpu, module, var, rb.binding));
            }
        }
    }
    let max_group = groups.keys().next_back().map_or(0, |g| g + 1);
    let mut layouts = Vec::new();
    let mut bind_groups = Vec::new();
    let mut buffers = Vec::new();
    for g in 0..max_group {
        let entries = groups.get(&g).cloned().unwrap_or_default();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &entries.values().map(|(e, _)| *e).collect::<Vec<_>>(),
        });
        for (&b, (e, size)) in &entries {
            if let wgpu::BindingType::Buffer { ty, .. } = e.ty {
                let mut data = match call.resources.get(&(g, b)) {
                    Some(Resource::Buffer(d)) => d.clone(),
                    None => Vec::new(),
                    Some(_) => return Err(GpuError::Binding(g, b, "a buffer is needed".into())),
                };
                data.resize((*size as usize).max(data.len()).max(16).next_multiple_of(16), 0);
                let usage = match ty {
                    wgpu::BufferBindingType::Uniform => wgpu::BufferUsages::UNIFORM,
                    _ => wgpu::BufferUsages::STORAGE,
                };
                let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size: data.len() as u64,
                    usage: usage | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                gpu.queue.write_buffer(&buffer, 0, &data);
                buffers.push(((g, b), buffer));
            }
        }
        let mut bg_entries = Vec::new();
        for (&b, (e, _)) in &entries {
            let resource = match (e.ty, call.resources.get(&(g, b))) {
                (wgpu::BindingType::Buffer { .. }, _) => {
                    buffers.iter().find(|(k, _)| *k == (g, b)).expect("created above").1.as_entire_binding()
                }
                (wgpu::BindingType::Texture { .. }, Some(Resource::Texture(v))) => {
                    wgpu::BindingResource::TextureView(v)
                }
                (wgpu::BindingType::Sampler(_), Some(Resource::Sampler(s))) => wgpu::BindingResource::Sampler(s),
                (ty, _) => return Err(GpuError::Binding(g, b, format!("no resource for {ty:?}"))),
            };
            bg_entries.push(wgpu::BindGroupEntry { binding: b, resource });
        }
        bind_groups.push(device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &bg_entries,
        }));
        layouts.push(layout);
    }
    Ok((layouts, bind_groups, buffers.into_iter().map(|(_, b)| b).collect()))
}

/// The render pipeline of `call` for `targets`, and its vertex buffer.
fn render_pipeline(
    gpu: &Gpu,
    targets: &GpuTargets,
    call: &DrawCall,
    pipeline_layout: &wgpu::PipelineLayout,
) -> Result<(wgpu::RenderPipeline, Option<wgpu::Buffer>), GpuError> {
    let device = &gpu.device;
    let (vs_mod, vs_entry) = call.vs;
    let (ps_mod, ps_entry) = call.ps;
    let vs_special = specialise(vs_mod, &call.constants[0], "vertex")?;
    let ps_special = specialise(ps_mod, &call.constants[1], "pixel")?;
    let vs_mod = vs_special.as_ref().unwrap_or(vs_mod);
    let ps_mod = ps_special.as_ref().unwrap_or(ps_mod);
    let vs_ep = entry(vs_mod, vs_entry).ok_or_else(|| GpuError::Wgpu(format!("no entry point `{vs_entry}`")))?;
    let ps_ep = entry(ps_mod, ps_entry).ok_or_else(|| GpuError::Wgpu(format!("no entry point `{ps_entry}`")))?;

    // Vertex buffer: the registers the vertex module reads, Float32x4 each.
    let locs: Vec<u32> = vertex_locations(vs_mod, vs_ep).into_iter().filter(|&l| l < 16).collect();
    let attributes: Vec<wgpu::VertexAttribute> = locs
        .iter()
        .enumerate()
        .map(|(i, &l)| wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 16 * i as u64,
            shader_location: l,
        })
        .collect();
    let vbuf = vertex_buffer(gpu, call.vertices, &locs);
    let vertex_layout = [Some(wgpu::VertexBufferLayout {
        array_stride: 16 * locs.len() as u64,
        step_mode: if call.points { wgpu::VertexStepMode::Instance } else { wgpu::VertexStepMode::Vertex },
        attributes: &attributes,
    })];
    let vs_module = shader_module(gpu, vs_mod, "vertex", call.sources[0])?;
    let ps_module = shader_module(gpu, ps_mod, "pixel", call.sources[1])?;
    let color_targets = color_targets(targets, call.state.blend, &fragment_outputs(ps_mod, ps_ep));
    let st = &call.state;
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("draw"),
        layout: Some(pipeline_layout),
        vertex: wgpu::VertexState {
            module: &vs_module,
            entry_point: Some(vs_entry),
            compilation_options: Default::default(),
            buffers: if locs.is_empty() { &[] } else { &vertex_layout },
        },
        primitive: primitive_state(call),
        depth_stencil: Some(wgpu::DepthStencilState {
            format: crate::targets::DEPTH_FORMAT,
            depth_write_enabled: Some(st.z_enable && st.z_write),
            depth_compare: Some(if st.z_enable { compare(st.z_func) } else { wgpu::CompareFunction::Always }),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &ps_module,
            entry_point: Some(ps_entry),
            compilation_options: Default::default(),
            targets: &color_targets,
        }),
        multiview_mask: None,
        cache: None,
    });
    Ok((pipeline, (!locs.is_empty()).then_some(vbuf)))
}

/// The vertex buffer: registers `locs` of each vertex, Float32x4 each (at least one register's
/// worth, zeros where there is nothing to read).
fn vertex_buffer(gpu: &Gpu, vertices: &[[[f32; 4]; 16]], locs: &[u32]) -> wgpu::Buffer {
    let mut data: Vec<f32> = Vec::new();
    for v in vertices {
        for &l in locs {
            data.extend_from_slice(&v[l as usize]);
        }
    }
    data.resize(data.len().max(4), 0.0);
    let vbuf = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("vertices"),
        size: (data.len() * 4) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    gpu.queue.write_buffer(&vbuf, 0, bytemuck::cast_slice(&data));
    vbuf
}

/// Each colour target's format, blend (target 0 only) and write mask: a target the pixel stage
/// does not write (`written` lists those it does) keeps its contents (docs/d3d9-rules.md#mrt).
fn color_targets(
    targets: &GpuTargets,
    blend: Option<(crate::case::Blend, crate::case::Blend)>,
    written: &[u32],
) -> Vec<Option<wgpu::ColorTargetState>> {
    targets
        .colors
        .iter()
        .enumerate()
        .map(|(i, (_, _, f))| {
            Some(wgpu::ColorTargetState {
                format: wgpu_format(*f),
                blend: blend.filter(|_| i == 0).map(|(src, dst)| {
                    let c = wgpu::BlendComponent {
                        src_factor: blend_factor(src),
                        dst_factor: blend_factor(dst),
                        operation: wgpu::BlendOperation::Add,
                    };
                    wgpu::BlendState { color: c, alpha: c }
                }),
                write_mask: if written.contains(&(i as u32)) {
                    wgpu::ColorWrites::ALL
                } else {
                    wgpu::ColorWrites::empty()
                },
            })
        })
        .collect()
}

/// Triangles (a list for expanded points), D3D9's clockwise front face and cull modes.
fn primitive_state(call: &DrawCall) -> wgpu::PrimitiveState {
    wgpu::PrimitiveState {
        topology: if call.strip && !call.points {
            wgpu::PrimitiveTopology::TriangleStrip
        } else {
            wgpu::PrimitiveTopology::TriangleList
        },
        strip_index_format: None,
        // D3D9: clockwise on screen is the front face.
        front_face: wgpu::FrontFace::Cw,
        // Points are never culled (docs/d3d9-rules.md#point-sprites).
        cull_mode: match call.state.cull {
            _ if call.points => None,
            CullMode::None => None,
            CullMode::Cw => Some(wgpu::Face::Front),
            CullMode::Ccw => Some(wgpu::Face::Back),
        },
        unclipped_depth: false,
        polygon_mode: wgpu::PolygonMode::Fill,
        conservative: false,
    }
}
