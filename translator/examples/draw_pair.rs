//! Translates a Direct3D 9 vertex/pixel shader pair and draws one frame with wgpu, headless,
//! into a PNG — the way a compatibility layer would, with every resource bound where the
//! translation's [`BindingLayout`] says.
//!
//! ```text
//! cargo run -p d3d9-shader --example draw_pair [OUT.png]
//! ```
//!
//! Needs a Vulkan adapter (Mesa's lavapipe will do).

use d3d9_shader::lower::{BindingLayout, InterfaceMap, PIXEL_GROUP, VERTEX_GROUP};
use d3d9_shader::{link, ParseOptions, Shader, ShaderKey, Translation};

/// Transforms the position by the matrix in c0–c3, passes the vertex colour through, and makes
/// texture coordinates from the position (c4 = 0.5: uv = xy · 0.5 + 0.5).
const VS: &str = "
vs_3_0
def c4, 0.5, 0.5, 0, 1
dcl_position v0
dcl_color v1
dcl_position o0
dcl_color o1
dcl_texcoord o2
m4x4 o0, v0, c0
mov o1, v1
mad o2, v0, c4.x, c4.x
";

/// Modulates a texture by the interpolated colour.
const PS: &str = "
ps_3_0
dcl_color v0
dcl_texcoord v1.xy
dcl_2d s0
texld r0, v1, s0
mul oC0, r0, v0
";

const SIZE: u32 = 256;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).unwrap_or_else(|| "draw_pair.png".into());

    // 1. Parse, link, translate.
    let options = ParseOptions::default();
    let vs = Shader::from_asm(VS, &options)?;
    let ps = Shader::from_asm(PS, &options)?;
    let key = ShaderKey { linkage: Some(link(&vs, &ps)?), ..ShaderKey::default() };
    let vs_t = vs.translate(&key)?;
    let ps_t = ps.translate(&key)?;

    // 2. A headless device.
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))?;
    println!("adapter: {}", adapter.get_info().name);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))?;

    // 3. Resources, bound per the layouts: group 0 for the vertex shader, 1 for the pixel shader.
    // c0–c3: the rows of a matrix that scales by 0.9 and turns by 30° about z.
    let (s, c) = (30f32.to_radians().sin() * 0.9, 30f32.to_radians().cos() * 0.9);
    let mut vs_constants = vec![[0f32; 4]; 256];
    vs_constants[..4].copy_from_slice(&[
        [c, -s, 0.0, 0.0],
        [s, c, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]);
    let checker: Vec<u8> = (0..8 * 8)
        .flat_map(|i| if (i % 8 + i / 8) % 2 == 0 { [255, 255, 255, 255] } else { [64, 64, 64, 255] })
        .collect();
    let texture = Texture2D::new(&device, &queue, 8, 8, &checker);
    let (vs_layout, vs_group) =
        bind(&device, &queue, &vs_t.layout, wgpu::ShaderStages::VERTEX, &vs_constants, &[&texture]);
    let (ps_layout, ps_group) = bind(&device, &queue, &ps_t.layout, wgpu::ShaderStages::FRAGMENT, &[], &[&texture]);
    assert_eq!((vs_t.layout.group, ps_t.layout.group), (VERTEX_GROUP, PIXEL_GROUP));

    // 4. Vertices: v0 (position) and v1 (colour), at the locations the interface map gives.
    let vertices: [[f32; 8]; 3] = [
        [-0.8, -0.7, 0.5, 1.0, 1.0, 0.2, 0.2, 1.0],
        [0.0, 0.8, 0.5, 1.0, 0.2, 1.0, 0.2, 1.0],
        [0.8, -0.7, 0.5, 1.0, 0.2, 0.2, 1.0, 1.0],
    ];
    let attributes = [
        wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 0,
            shader_location: location(&vs_t.interface, "v0")?,
        },
        wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 16,
            shader_location: location(&vs_t.interface, "v1")?,
        },
    ];
    let vertex_buffer = buffer(&device, &queue, wgpu::BufferUsages::VERTEX, &floats(vertices.as_flattened()));

    // 5. The pipeline, from the WGSL of both translations.
    let module = |t: &Translation, label| -> Result<wgpu::ShaderModule, Box<dyn std::error::Error>> {
        Ok(device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(t.to_wgsl()?.into()),
        }))
    };
    let (vs_module, ps_module) = (module(&vs_t, "vs")?, module(&ps_t, "ps")?);
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&vs_layout), Some(&ps_layout)],
        immediate_size: 0,
    });
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("pair"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &vs_module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 32,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &ps_module,
            entry_point: Some("ps_main"),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        multiview_mask: None,
        cache: None,
    });

    // 6. Draw and read back.
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("target"),
        size: wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = target.create_view(&Default::default());
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: u64::from(SIZE * SIZE * 4),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("frame"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.05, g: 0.05, b: 0.15, a: 1.0 }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(VERTEX_GROUP, &vs_group, &[]);
        pass.set_bind_group(PIXEL_GROUP, &ps_group, &[]);
        pass.set_vertex_buffer(0, vertex_buffer.slice(..));
        pass.draw(0..3, 0..1);
    }
    encoder.copy_texture_to_buffer(
        target.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(SIZE * 4), rows_per_image: None },
        },
        wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 },
    );
    queue.submit([encoder.finish()]);
    let slice = readback.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| r.expect("map the readback buffer"));
    device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None })?;
    let pixels = slice.get_mapped_range()?.to_vec();

    let file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    let mut encoder = png::Encoder::new(file, SIZE, SIZE);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    let centre = &pixels[((SIZE / 2 * SIZE + SIZE / 2) * 4) as usize..][..4];
    println!("wrote {out}; centre pixel {centre:?}");
    Ok(())
}

/// The `@location` of a vertex input register.
fn location(interface: &InterfaceMap, register: &str) -> Result<u32, String> {
    let typed: d3d9_shader::bytecode::Register = register.parse()?;
    interface
        .inputs
        .iter()
        .find(|s| s.register == Some(typed))
        .and_then(|s| s.location)
        .ok_or_else(|| format!("the vertex shader has no input {register}"))
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn buffer(device: &wgpu::Device, queue: &wgpu::Queue, usage: wgpu::BufferUsages, bytes: &[u8]) -> wgpu::Buffer {
    let b = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes.len().max(16) as u64,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    queue.write_buffer(&b, 0, bytes);
    b
}

struct Texture2D {
    view: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

impl Texture2D {
    fn new(device: &wgpu::Device, queue: &wgpu::Queue, width: u32, height: u32, rgba: &[u8]) -> Texture2D {
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("checker"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        queue.write_texture(
            texture.as_image_copy(),
            rgba,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(width * 4), rows_per_image: None },
            size,
        );
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            ..Default::default()
        });
        Texture2D { view: texture.create_view(&Default::default()), sampler }
    }
}

/// The bind group layout and bind group of one stage, entry by entry from its
/// [`BindingLayout`]: float constants (`constants`, zero-filled to the declared count), integer
/// and boolean constants and the render-state block (zeros here), and sampler `s n`'s texture and
/// sampler from `textures[n]`.
fn bind(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &BindingLayout,
    visibility: wgpu::ShaderStages,
    constants: &[[f32; 4]],
    textures: &[&Texture2D],
) -> (wgpu::BindGroupLayout, wgpu::BindGroup) {
    let uniform = wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    };
    // (binding, type, buffer) for every buffer the translation reads.
    let mut buffers: Vec<(u32, wgpu::BindingType, wgpu::Buffer)> = Vec::new();
    if let Some(f) = layout.float_constants {
        let mut bytes = floats(constants.as_flattened());
        bytes.resize(f.count as usize * 16, 0);
        // The `_sw` versions' 8192 registers come in two arrays of FLOAT_CONSTANTS_PAGE.
        let page = f.count.min(d3d9_shader::lower::FLOAT_CONSTANTS_PAGE) as usize * 16;
        let (low, high) = bytes.split_at(page);
        buffers.push((f.binding, uniform, buffer(device, queue, wgpu::BufferUsages::UNIFORM, low)));
        if let Some(binding) = f.high_binding {
            buffers.push((binding, uniform, buffer(device, queue, wgpu::BufferUsages::UNIFORM, high)));
        }
    }
    // i0–i15 as vec4<i32>, b0–b15 packed four to a vec4<u32>, the render-state block.
    let zeros = [
        (layout.int_constants, 16 * 16),
        (layout.bool_constants, 4 * 16),
        (layout.render_state, u64::from(d3d9_shader::lower::RENDER_STATE_SIZE)),
    ];
    for (binding, size) in zeros {
        if let Some(binding) = binding {
            let b = buffer(device, queue, wgpu::BufferUsages::UNIFORM, &vec![0; size as usize]);
            buffers.push((binding, uniform, b));
        }
    }
    let mut entries: Vec<wgpu::BindGroupLayoutEntry> = buffers
        .iter()
        .map(|(binding, ty, _)| wgpu::BindGroupLayoutEntry { binding: *binding, visibility, ty: *ty, count: None })
        .collect();
    for t in &layout.textures {
        assert!(
            !t.shadow && t.texture_type == d3d9_shader::bytecode::TextureType::Tex2D,
            "this example binds 2D colour textures only"
        );
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: t.texture_binding,
            visibility,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        });
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: t.sampler_binding,
            visibility,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        });
    }
    let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
    let mut resources: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .map(|(binding, _, b)| wgpu::BindGroupEntry { binding: *binding, resource: b.as_entire_binding() })
        .collect();
    for t in &layout.textures {
        let texture = textures[t.sampler as usize];
        resources.push(wgpu::BindGroupEntry {
            binding: t.texture_binding,
            resource: wgpu::BindingResource::TextureView(&texture.view),
        });
        resources.push(wgpu::BindGroupEntry {
            binding: t.sampler_binding,
            resource: wgpu::BindingResource::Sampler(&texture.sampler),
        });
    }
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &bgl, entries: &resources });
    (bgl, group)
}
