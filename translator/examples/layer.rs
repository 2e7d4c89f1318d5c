//! A small Direct3D 9 compatibility layer on wgpu, written against the library's front door as a
//! layer author would: shaders are parsed once, translated once per cache hash into an
//! [`Artifact`], and render-state *modes* (alpha function, fog mode) reach the code as pipeline
//! constants, so that a change of mode is a new pipeline but never a new translation.
//! [`WgpuPipeline::new`] does the layer's work for a draw in one call: the keys from the device
//! state, the pair's linkage, the translations through the cache, the pipeline constants, the
//! bind group and vertex buffer layouts, and the check of the inter-stage locations.
//!
//! ```text
//! cargo run --release -p d3d9-shader --features wgpu --example layer [OUTDIR]   # default target/layer-example
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

use d3d9_shader::prelude::*;

/// Passes the position and the vertex colour through (vs_2_0: its pixel shader may be fogged).
const VS: &str = "vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n";
/// Outputs the interpolated colour; fog and the alpha test are the render state's.
const PS: &str = "ps_2_0\ndcl v0\nmov oC0, v0\n";

/// The vertex declaration: a FLOAT3 position and a D3DCOLOR (stored B, G, R, A in memory), in
/// stream 0 of 16-byte vertices.
const DECLARATION: [VertexElement; 2] = [
    VertexElement { stream: 0, offset: 0, ty: DeclType::Float3, usage: Usage::Position, usage_index: 0 },
    VertexElement { stream: 0, offset: 12, ty: DeclType::D3dColor, usage: Usage::Color, usage_index: 0 },
];
const STRIDES: [u64; 1] = [16];

const SIZE: u32 = 64;
/// The clear colour: pure green, which no fogged quad has (its green is 0).
const CLEAR: [u8; 4] = [0, 255, 0, 255];
/// The quads' depth (oPos.z with w = 1), the depth table fog reads (D3DRS_FOGTABLEMODE uses z).
const DEPTH: f32 = 0.5;
/// Vertex colours as D3DCOLOR (0xAARRGGBB): red, alpha 0x40 on the left and 0xC0 on the right.
const LEFT: u32 = 0x40FF_0000;
const RIGHT: u32 = 0xC0FF_0000;
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The D3D9 device state of a draw: alpha test and table fog on, with the given modes, and the
/// render-state block's values (fog colour and range, alpha reference 0x80).
fn device_state(alpha_func: u32, fog_table_mode: u32) -> (DeviceState, RenderState) {
    let state =
        DeviceState { alpha_test_enable: true, alpha_func, fog_enable: true, fog_table_mode, ..Default::default() };
    let values = RenderState {
        fog_color: [0.0, 0.0, 1.0, 1.0],
        fog_start: 0.0,
        fog_end: 1.0,
        fog_density: 2.0,
        alpha_ref: 0x80,
        ..RenderState::default()
    };
    (state, values)
}

/// Exits non-zero with the error on failure.
fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let out: std::path::PathBuf = std::env::args().nth(1).unwrap_or_else(|| "target/layer-example".into()).into();
    std::fs::create_dir_all(&out)?;
    let vs = Shader::from_asm(VS, &ParseOptions::default())?;
    let ps = Shader::from_asm(PS, &ParseOptions::default())?;
    // Errors are typed: a pixel shader where the vertex shader goes is refused.
    let swapped = Pair::new(&ps, &vs, &DECLARATION).err().ok_or("a swapped pair was accepted")?;
    println!("refused as expected: {swapped}");
    println!("vertex inputs: {:?}", vs.reflection().inputs.iter().map(|r| (r.usage, r.index)).collect::<Vec<_>>());
    // The modes as overrides (one translation for every alpha function and fog mode), the
    // stable interface when both stages fit it (else the pair linked).
    let pair = Pair::new(&vs, &ps, &DECLARATION)?;
    let Some((device, queue)) = open_device()? else {
        if std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1") {
            return Err("no Vulkan adapter, and REQUIRE_GPU=1".into());
        }
        println!("layer: no Vulkan adapter; skipped");
        return Ok(());
    };
    let mut cache = ArtifactCache::default();
    // D3DCMP_GREATER = 5, D3DFOG_LINEAR = 3; D3DCMP_LESS = 2, D3DFOG_EXP = 1.
    let states = [("state-a", device_state(5, 3)), ("state-b", device_state(2, 1))];
    let (mut images, mut hashes) = (Vec::new(), Vec::new());
    for (name, (state, values)) in &states {
        let parts = WgpuPipeline::new(&pair, state, Default::default(), &STRIDES, &device.limits(), &mut cache)?;
        hashes.push(parts.hashes);
        // The pipeline constants come from the device state, never from the key translated under.
        println!("{name}: pipeline constants {:?}", parts.pixel.constants.as_slice());
        let pixels = draw(&device, &queue, &parts, values)?;
        write_png(&out.join(format!("{name}.png")), &pixels)?;
        images.push(pixels);
    }
    Ok(check(&cache, &hashes, &images)?)
}

/// The layer's claims: one translation per stage for both states, and the pixels of each state.
fn check(cache: &ArtifactCache, hashes: &[[CacheHash; 2]], images: &[Vec<u8>]) -> Result<(), String> {
    if cache.translations() != 2 || hashes[0] != hashes[1] {
        return Err(format!("the second state retranslated: {} translations, {hashes:?}", cache.translations()));
    }
    println!("translations: {} for two states (cache hashes equal)", cache.translations());
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
        Err(failures.join("; "))
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
    let (linear, exp) = ([128, 0, 128], [94, 0, 161]);
    let px = |rgb: [u8; 3], color: u32| [rgb[0], rgb[1], rgb[2], (color >> 24) as u8];
    ([CLEAR, px(linear, RIGHT)], [px(exp, LEFT), CLEAR])
}

/// A headless Vulkan device, if there is an adapter.
fn open_device() -> std::result::Result<Option<(wgpu::Device, wgpu::Queue)>, Box<dyn std::error::Error>> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let Ok(adapter) = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default())) else {
        return Ok(None);
    };
    println!("adapter: {}", adapter.get_info().name);
    Ok(Some(pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))?))
}

fn buffer(device: &wgpu::Device, usage: wgpu::BufferUsages, contents: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: None, contents, usage })
}

/// Draws the two quads (left and right halves of the target) with the pair's pipeline; the
/// target's RGBA bytes. These shaders read no constants and sample no textures: the bind groups
/// hold the render-state block alone (`examples/draw_pair.rs` binds the others).
fn draw(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    parts: &WgpuPipeline,
    values: &RenderState,
) -> std::result::Result<Vec<u8>, Box<dyn std::error::Error>> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let (pipeline, layouts) = parts.create_render_pipeline(device, &[Some(FORMAT.into())]);
    let block = buffer(device, wgpu::BufferUsages::UNIFORM, &values.to_bytes());
    // Each stage's group: the render-state block where the stage reads it (the pixel shader's
    // fog and alpha test), nothing for this vertex shader.
    let [vg, pg] = [&parts.vertex, &parts.pixel].map(|stage| {
        let entries: Vec<_> = (stage.artifact.layout.render_state.iter())
            .map(|&binding| wgpu::BindGroupEntry { binding, resource: block.as_entire_binding() })
            .collect();
        let layout = &layouts[(stage.artifact.layout.group == PIXEL_GROUP) as usize];
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout, entries: &entries })
    });
    let mut vertices = Vec::new();
    for (x0, x1, color) in [(-1.0f32, 0.0f32, LEFT), (0.0, 1.0, RIGHT)] {
        for (x, y) in [(x0, -1.0f32), (x1, -1.0), (x1, 1.0), (x0, -1.0), (x1, 1.0), (x0, 1.0)] {
            vertices.extend([x, y, DEPTH].iter().flat_map(|f| f.to_le_bytes()));
            vertices.extend(color.to_le_bytes()); // D3DCOLOR in memory: B, G, R, A.
        }
    }
    let vertex_buffer = buffer(device, wgpu::BufferUsages::VERTEX, &vertices);
    let extent = wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 };
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: extent,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let readback = buffer(
        device,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        &vec![0; (SIZE * SIZE * 4) as usize],
    );
    let [r, g, b, a] = CLEAR.map(|c| f64::from(c) / 255.0);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let view = target.create_view(&Default::default());
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(VERTEX_GROUP, &vg, &[]);
        pass.set_bind_group(PIXEL_GROUP, &pg, &[]);
        pass.set_vertex_buffer(0, vertex_buffer.slice(..));
        pass.draw(0..12, 0..1);
    }
    let layout = wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(SIZE * 4), rows_per_image: None };
    encoder.copy_texture_to_buffer(
        target.as_image_copy(),
        wgpu::TexelCopyBufferInfo { buffer: &readback, layout },
        extent,
    );
    queue.submit([encoder.finish()]);
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(format!("drawing: {e}").into());
    }
    readback.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("map the readback buffer"));
    device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None })?;
    Ok(readback.slice(..).get_mapped_range()?.to_vec())
}

fn write_png(path: &std::path::Path, pixels: &[u8]) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(std::fs::File::create(path)?), SIZE, SIZE);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(pixels)?;
    println!("wrote {}", path.display());
    Ok(())
}
