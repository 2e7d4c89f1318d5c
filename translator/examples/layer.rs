//! A small Direct3D 9 compatibility layer on wgpu, written against the library's public API as a
//! layer author would: shaders are parsed once, translated once per cache hash into an
//! [`Artifact`], and render-state *modes* (alpha function, fog mode) reach the code as pipeline
//! constants, so that a change of mode is a new pipeline but never a new translation.
//!
//! ```text
//! cargo run --release -p d3d9-shader --example layer [OUTDIR]   # default target/layer-example
//! ```
//!
//! It draws two quads under two states and writes `state-a.png` and `state-b.png`:
//!
//! - state A: alpha test GREATER against ALPHAREF 0x80, linear table fog;
//! - state B: alpha test LESS against the same reference, exponential table fog.
//!
//! and exits non-zero unless the second state reused the first state's translations (the same
//! cache hashes, no translation made) and the pixels are those the D3D9 rules give (derived at
//! [`expected`]). Needs a Vulkan adapter (Mesa's lavapipe will do); without one it says so and
//! exits 0, unless `REQUIRE_GPU=1`.

use std::collections::HashMap;
use std::path::PathBuf;

use d3d9_shader::bytecode::{Register, RegisterType};
use d3d9_shader::lower::{PIXEL_GROUP, VERTEX_GROUP};
use d3d9_shader::prelude::*;

/// Passes the position and the vertex colour through (vs_2_0: its pixel shader may be fogged).
const VS: &str = "
vs_2_0
dcl_position v0
dcl_color v1
mov oPos, v0
mov oD0, v1
";

/// Outputs the interpolated colour; fog and the alpha test are the render state's.
const PS: &str = "
ps_2_0
dcl v0
mov oC0, v0
";

/// One D3DVERTEXELEMENT9 of stream 0: byte offset, D3DDECLTYPE, D3DDECLUSAGE, usage index.
struct Element {
    offset: u32,
    ty: DeclType,
    usage: Usage,
    usage_index: u8,
}

/// The vertex declaration: a FLOAT3 position and a D3DCOLOR (stored B, G, R, A in memory).
const DECLARATION: [Element; 2] = [
    Element { offset: 0, ty: DeclType::Float3, usage: Usage::Position, usage_index: 0 },
    Element { offset: 12, ty: DeclType::D3dColor, usage: Usage::Color, usage_index: 0 },
];
const STRIDE: u64 = 16;

const SIZE: u32 = 64;
/// The clear colour: pure green, which no fogged quad has (its green is 0).
const CLEAR: [u8; 4] = [0, 255, 0, 255];
/// The quads' depth (oPos.z with w = 1), the depth table fog reads (D3DRS_FOGTABLEMODE uses z).
const DEPTH: f32 = 0.5;
/// Vertex colours as D3DCOLOR (0xAARRGGBB): red, alpha 0x40 on the left and 0xC0 on the right.
const LEFT: u32 = 0x40FF_0000;
const RIGHT: u32 = 0xC0FF_0000;
const ALPHA_REF: u32 = 0x80;

/// A layer's shader cache: translations by cache hash, and how many were made.
#[derive(Default)]
struct Cache {
    artifacts: HashMap<u128, Artifact>,
    translations: usize,
}

impl Cache {
    /// The artifact of `shader` under `key`: from the cache, or translated once.
    fn get(&mut self, shader: &Shader, key: &ShaderKey) -> Result<(u128, &Artifact), Box<dyn std::error::Error>> {
        let hash = shader.cache_hash(key);
        if !self.artifacts.contains_key(&hash) {
            let translation = shader.translate(key)?;
            self.translations += 1;
            self.artifacts.insert(hash, Artifact::new(shader, key, &translation)?);
        }
        Ok((hash, &self.artifacts[&hash]))
    }
}

/// The D3D9 device state of a draw: alpha test and table fog on, with the given modes.
fn device_state(alpha_func: u32, fog_table_mode: u32) -> (DeviceState, RenderState) {
    let state = DeviceState {
        alpha_test_enable: true,
        alpha_func,
        fog_enable: true,
        fog_table_mode,
        textures: [None; 16],
        ..DeviceState::default()
    };
    let values = RenderState {
        fog_color: [0.0, 0.0, 1.0, 1.0],
        fog_start: 0.0,
        fog_end: 1.0,
        fog_density: 2.0,
        alpha_ref: ALPHA_REF,
        ..RenderState::default()
    };
    (state, values)
}

/// The key a layer translates under: the shader's minimal key for the state, with the alpha
/// function and the fog mode delivered as overrides (so they leave the key), and the stable
/// interface (so any vertex shader pairs with any pixel shader).
fn layer_key(shader: &Shader, state: &DeviceState) -> Result<ShaderKey, String> {
    let mut key = shader.key(state);
    key.delivery.set("alpha_func=override")?;
    key.delivery.set("fog=override")?;
    key.linkage = Some(Linkage::stable());
    if shader.stage() == ShaderKind::Vertex {
        // The vertex declaration: each element's type feeds the input register of its semantic.
        for e in &DECLARATION {
            let n = input_register(shader, e)?;
            key.vertex_inputs[n as usize] = Some(e.ty);
        }
    }
    Ok(shader.minimal_key(&key))
}

/// The `v n` a declaration element feeds: the input the shader declares with its semantic.
fn input_register(shader: &Shader, e: &Element) -> Result<u16, String> {
    shader
        .reflection()
        .inputs
        .iter()
        .find(|r| r.usage == Some(e.usage) && r.usage_index == e.usage_index)
        .map(|r| r.index)
        .ok_or_else(|| format!("the vertex shader reads no {}{}", e.usage.name(), e.usage_index))
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("layer: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let out: PathBuf = std::env::args().nth(1).unwrap_or_else(|| "target/layer-example".into()).into();
    std::fs::create_dir_all(&out)?;
    let options = ParseOptions::default();
    let vs = Shader::from_asm(VS, &options)?;
    let ps = Shader::from_asm(PS, &options)?;
    let Some(gpu) = Gpu::new()? else {
        if std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1") {
            return Err("no Vulkan adapter, and REQUIRE_GPU=1".into());
        }
        println!("layer: no Vulkan adapter; skipped");
        return Ok(());
    };
    let mut cache = Cache::default();
    // D3DCMP_GREATER = 5, D3DFOG_LINEAR = 3; D3DCMP_LESS = 2, D3DFOG_EXP = 1.
    let states = [("state-a", device_state(5, 3)), ("state-b", device_state(2, 1))];
    let mut images = Vec::new();
    let mut hashes = Vec::new();
    for (name, (state, values)) in &states {
        let (vh, va) = cache.get(&vs, &layer_key(&vs, state)?)?;
        let va = va.clone();
        let (ph, pa) = cache.get(&ps, &layer_key(&ps, state)?)?;
        let pa = pa.clone();
        hashes.push((vh, ph));
        // The pipeline constants: the modes of the device state (never of the key translated
        // under, whose overridden fields are reset), for the overrides each artifact declares.
        let stages = [
            Stage { artifact: &va, constants: va.pipeline_constants(&vs.modes(state)) },
            Stage { artifact: &pa, constants: pa.pipeline_constants(&ps.modes(state)) },
        ];
        println!("{name}: pipeline constants {:?}", stages[1].constants);
        let pixels = gpu.draw(&vs, &stages, values)?;
        let path = out.join(format!("{name}.png"));
        write_png(&path, &pixels)?;
        println!("wrote {}", path.display());
        images.push(pixels);
    }
    check(&cache, &hashes, &images)
}

/// The layer's claims: one translation per stage for both states, and the pixels of each state.
fn check(cache: &Cache, hashes: &[(u128, u128)], images: &[Vec<u8>]) -> Result<(), Box<dyn std::error::Error>> {
    if cache.translations != 2 || hashes[0] != hashes[1] {
        return Err(
            format!("the second state retranslated: {} translations, hashes {hashes:x?}", cache.translations).into()
        );
    }
    println!("translations: {} for two states (cache hashes equal)", cache.translations);
    let (a, b) = expected();
    let mut failures = Vec::new();
    for (name, image, want) in [("state-a", &images[0], a), ("state-b", &images[1], b)] {
        for (side, x, want) in [("left", SIZE / 4, want[0]), ("right", 3 * SIZE / 4, want[1])] {
            let at = ((SIZE / 2 * SIZE + x) * 4) as usize;
            let got = &image[at..at + 4];
            // One step of 8-bit rounding either way (the blend is computed in fp32).
            if got.iter().zip(want).any(|(&g, w)| g.abs_diff(w) > 1) {
                failures.push(format!("{name} {side}: {got:?}, expected {want:?}"));
            } else {
                println!("{name} {side}: {got:?} (expected {want:?})");
            }
        }
    }
    if images[0] == images[1] {
        failures.push("the two states drew the same image".into());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; ").into())
    }
}

/// The pixels at the centres of the left and right quads, from the D3D9 rules:
///
/// - Fog (docs/d3d9-rules.md#fog): the colour is `f · C + (1 − f) · fog colour` on rgb, alpha kept;
///   with table fog on depth z = 0.5, start 0, end 1, density 2:
///   linear f = (end − z) / (end − start) = 0.5; exp f = 1 / e^(z · density) = e^−1 ≈ 0.3679.
///   C = red (1, 0, 0), fog colour blue (0, 0, 1): linear gives (0.5, 0, 0.5) → (128, 0, 128)
///   (127.5 rounds either way; the check allows one step), exp gives (0.3679, 0, 0.6321) →
///   (94, 0, 161).
/// - Alpha test (docs/d3d9-rules.md#alpha-test; 8-bit target): the pixel is kept when `alpha · 255 FUNC ALPHAREF`:
///   0x40 = 64 and 0xC0 = 192 against 0x80 = 128. GREATER keeps only the right quad (192),
///   LESS only the left (64); a discarded pixel keeps the clear colour.
fn expected() -> ([[u8; 4]; 2], [[u8; 4]; 2]) {
    let linear = [128, 0, 128];
    let exp = [94, 0, 161];
    let px = |rgb: [u8; 3], color: u32| [rgb[0], rgb[1], rgb[2], (color >> 24) as u8];
    ([CLEAR, px(linear, RIGHT)], [px(exp, LEFT), CLEAR])
}

/// One stage of a pipeline: its artifact and the values of its overrides.
struct Stage<'a> {
    artifact: &'a Artifact,
    constants: Vec<(String, f64)>,
}

/// A headless wgpu device and the offscreen target.
struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
}

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

impl Gpu {
    fn new() -> Result<Option<Gpu>, Box<dyn std::error::Error>> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::VULKAN;
        let instance = wgpu::Instance::new(desc);
        let Ok(adapter) = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default())) else {
            return Ok(None);
        };
        println!("adapter: {}", adapter.get_info().name);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))?;
        Ok(Some(Gpu { device, queue }))
    }

    /// Draws the two quads with a pipeline built from the stages' artifacts; the target's RGBA bytes.
    fn draw(
        &self,
        vs: &Shader,
        stages: &[Stage; 2],
        values: &RenderState,
    ) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
        let device = &self.device;
        let (attributes, vertices) = vertex_input(vs, &stages[0].artifact.interface)?;
        let groups = [
            self.bind(&stages[0].artifact.layout, wgpu::ShaderStages::VERTEX, values),
            self.bind(&stages[1].artifact.layout, wgpu::ShaderStages::FRAGMENT, values),
        ];
        assert_eq!((stages[0].artifact.layout.group, stages[1].artifact.layout.group), (VERTEX_GROUP, PIXEL_GROUP));
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&groups[0].0), Some(&groups[1].0)],
            immediate_size: 0,
        });
        let modules = stages.each_ref().map(|s| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(s.artifact.stage.as_str()),
                source: wgpu::ShaderSource::Wgsl(s.artifact.wgsl.as_str().into()),
            })
        });
        let constants =
            stages.each_ref().map(|s| s.constants.iter().map(|(n, v)| (n.as_str(), *v)).collect::<Vec<_>>());
        let options = |c| wgpu::PipelineCompilationOptions { constants: c, ..Default::default() };
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("layer"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &modules[0],
                entry_point: Some("vs_main"),
                compilation_options: options(&constants[0]),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: STRIDE,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attributes,
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &modules[1],
                entry_point: Some("ps_main"),
                compilation_options: options(&constants[1]),
                targets: &[Some(FORMAT.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(format!("creating the pipeline: {e}").into());
        }
        let vertex_buffer = self.buffer(wgpu::BufferUsages::VERTEX, &vertices);
        Ok(self.render(&pipeline, &[&groups[0].1, &groups[1].1], &vertex_buffer))
    }

    fn render(
        &self,
        pipeline: &wgpu::RenderPipeline,
        groups: &[&wgpu::BindGroup; 2],
        vertices: &wgpu::Buffer,
    ) -> Vec<u8> {
        let device = &self.device;
        let extent = wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 };
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("target"),
            size: extent,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
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
        let clear = CLEAR.map(|c| f64::from(c) / 255.0);
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("frame"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r: clear[0], g: clear[1], b: clear[2], a: clear[3] }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(VERTEX_GROUP, groups[0], &[]);
            pass.set_bind_group(PIXEL_GROUP, groups[1], &[]);
            pass.set_vertex_buffer(0, vertices.slice(..));
            pass.draw(0..12, 0..1);
        }
        encoder.copy_texture_to_buffer(
            target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(SIZE * 4), rows_per_image: None },
            },
            extent,
        );
        self.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        slice.map_async(wgpu::MapMode::Read, |r| r.expect("map the readback buffer"));
        device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).expect("wait for the draw");
        slice.get_mapped_range().expect("the mapped readback").to_vec()
    }

    fn buffer(&self, usage: wgpu::BufferUsages, bytes: &[u8]) -> wgpu::Buffer {
        let b = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes.len().max(16) as u64,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&b, 0, bytes);
        b
    }

    /// A stage's bind group layout and group from its [`BindingLayout`]: the render-state block
    /// (fog colour and range, alpha reference) from `values`. These shaders read no constants
    /// and sample no textures; a layer binds those as `examples/draw_pair.rs` does.
    fn bind(
        &self,
        layout: &BindingLayout,
        visibility: wgpu::ShaderStages,
        values: &RenderState,
    ) -> (wgpu::BindGroupLayout, wgpu::BindGroup) {
        assert!(
            layout.float_constants.is_none()
                && layout.int_constants.is_none()
                && layout.bool_constants.is_none()
                && layout.textures.is_empty(),
            "this example binds the render-state block only"
        );
        let mut entries = Vec::new();
        let mut buffers = Vec::new();
        if let Some(binding) = layout.render_state {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding,
                visibility,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
            buffers.push((binding, self.buffer(wgpu::BufferUsages::UNIFORM, &values.to_bytes())));
        }
        let device = &self.device;
        let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
        let resources: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .map(|(binding, b)| wgpu::BindGroupEntry { binding: *binding, resource: b.as_entire_binding() })
            .collect();
        let group =
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &bgl, entries: &resources });
        (bgl, group)
    }
}

/// The vertex attributes from the declaration ([`vertex_format`] of each element's type, at the
/// location the interface map gives its register) and the two quads' vertices in its layout.
fn vertex_input(vs: &Shader, interface: &InterfaceMap) -> Result<(Vec<wgpu::VertexAttribute>, Vec<u8>), String> {
    let mut attributes = Vec::new();
    for e in &DECLARATION {
        let n = input_register(vs, e)?;
        let register = Register::new(RegisterType::Input, n);
        let location = interface
            .inputs
            .iter()
            .find(|s| s.register == Some(register))
            .and_then(|s| s.location)
            .ok_or_else(|| format!("the translation has no location for {register}"))?;
        let format = wgpu_format(vertex_format(e.ty).format)?;
        attributes.push(wgpu::VertexAttribute { format, offset: u64::from(e.offset), shader_location: location });
    }
    // Two quads, two triangles each: the left half of the target and the right half.
    let mut bytes = Vec::new();
    for (x0, x1, color) in [(-1.0f32, 0.0f32, LEFT), (0.0, 1.0, RIGHT)] {
        for (x, y) in [(x0, -1.0f32), (x1, -1.0), (x1, 1.0), (x0, -1.0), (x1, 1.0), (x0, 1.0)] {
            for f in [x, y, DEPTH] {
                bytes.extend(f.to_le_bytes());
            }
            // D3DCOLOR is a little-endian 0xAARRGGBB: bytes B, G, R, A.
            bytes.extend(color.to_le_bytes());
        }
    }
    Ok((attributes, bytes))
}

/// wgpu's vertex format of a WebGPU `GPUVertexFormat` name (those [`vertex_format`] gives).
fn wgpu_format(name: &str) -> Result<wgpu::VertexFormat, String> {
    use wgpu::VertexFormat as F;
    Ok(match name {
        "float32" => F::Float32,
        "float32x2" => F::Float32x2,
        "float32x3" => F::Float32x3,
        "float32x4" => F::Float32x4,
        "unorm8x4" => F::Unorm8x4,
        "uint8x4" => F::Uint8x4,
        "sint16x2" => F::Sint16x2,
        "sint16x4" => F::Sint16x4,
        "snorm16x2" => F::Snorm16x2,
        "snorm16x4" => F::Snorm16x4,
        "unorm16x2" => F::Unorm16x2,
        "unorm16x4" => F::Unorm16x4,
        "uint32" => F::Uint32,
        "float16x2" => F::Float16x2,
        "float16x4" => F::Float16x4,
        _ => return Err(format!("no wgpu vertex format `{name}`")),
    })
}

fn write_png(path: &std::path::Path, pixels: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, SIZE, SIZE);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(pixels)?;
    Ok(())
}
