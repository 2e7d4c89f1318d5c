//! Textures: a case's raw texels decoded to RGBA floats once (A8R8G8B8 and the signed formats of
//! docs/d3d9-rules.md#signed-formats), then uploaded to the GPU as `Rgba32Float` and handed to the CPU sampler, so
//! both paths sample the very same values.
//!
//! Decoding the signed formats on the CPU (rather than uploading `Rg8Snorm` and friends) keeps the
//! D3D9 rules in one place: `-128 / 127` reads -1.0, L6V5U5 widens its 5-bit fields the way the
//! measured drivers do, and channels a format lacks read 1.0.

use crate::case::{Address, Filter, MipFilter, Texture, TextureDimension, TextureFormat};

/// A texture decoded to RGBA floats, with its sampler states.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedTexture {
    /// Sampler index / stage.
    pub stage: u32,
    /// Dimension.
    pub kind: TextureDimension,
    /// Level-0 size (depth 1 unless volume).
    pub size: (u32, u32, u32),
    /// Number of mip levels.
    pub mip_levels: u32,
    /// `data[face * mip_levels + level]`: the level's texels, slice by slice, rows top to bottom.
    pub data: Vec<Vec<[f32; 4]>>,
    /// MIN/MAG filter.
    pub filter: Filter,
    /// Mip filter.
    pub mip_filter: MipFilter,
    /// U/V/W addressing.
    pub address: Address,
    /// A depth texture sampled with comparison (`D24X8`): the depth is in every channel.
    pub shadow: bool,
    /// The sampler is in Fetch4 mode (docs/d3d9-rules.md#fetch4).
    pub fetch4: bool,
}

impl DecodedTexture {
    /// Decodes a case texture (already checked by [`crate::case::Case::check`]).
    pub fn decode(t: &Texture) -> DecodedTexture {
        let mut data = Vec::new();
        if let Some(fill) = &t.fill {
            data.push(decode_fill(t, fill));
        }
        let mut next = t.texels.iter().copied();
        for _face in 0..t.faces() * u32::from(t.fill.is_none()) {
            for level in 0..t.mip_levels {
                let (w, h, d) = t.level_size(level);
                let n = (w * h * d) as usize;
                data.push(next.by_ref().take(n).map(|raw| decode_texel(t.format, raw)).collect());
            }
        }
        DecodedTexture {
            stage: t.stage,
            kind: t.kind,
            size: t.level_size(0),
            mip_levels: t.mip_levels,
            data,
            filter: t.filter,
            mip_filter: t.mip_filter,
            address: t.address,
            shadow: t.format == TextureFormat::D24X8,
            fetch4: t.fetch4,
        }
    }

    /// Number of faces (6 for cubes).
    pub fn faces(&self) -> u32 {
        if self.kind == TextureDimension::Cube {
            6
        } else {
            1
        }
    }

    /// Size of `level`.
    pub fn level_size(&self, level: u32) -> (u32, u32, u32) {
        let (w, h, d) = self.size;
        ((w >> level).max(1), (h >> level).max(1), (d >> level).max(1))
    }

    /// The texel at integer coordinates of `face`, `level` (no addressing: in range only).
    pub fn texel(&self, face: u32, level: u32, x: u32, y: u32, z: u32) -> [f32; 4] {
        let (w, h, _) = self.level_size(level);
        self.data[(face * self.mip_levels + level) as usize][((z * h + y) * w + x) as usize]
    }
}

/// Two's-complement field of `bits` bits at `shift`, as D3D9 reads it: `max(s / (2^(bits-1) - 1), -1)`
/// (docs/d3d9-rules.md#signed-formats: -127 and -128 both give -1.0 for 8 bits).
fn snorm(raw: u32, shift: u32, bits: u32) -> f32 {
    let field = (raw >> shift) & ((1u32 << bits) - 1);
    let signed = ((field << (32 - bits)) as i32) >> (32 - bits);
    let max = ((1u32 << (bits - 1)) - 1) as f32;
    (signed as f32 / max).max(-1.0)
}

fn unorm(raw: u32, shift: u32, bits: u32) -> f32 {
    let field = (raw >> shift) & ((1u32 << bits) - 1);
    field as f32 / ((1u32 << bits) - 1) as f32
}

/// L6V5U5's 5-bit signed fields, widened as the measured drivers do (docs/d3d9-rules.md#signed-formats): n >= 0 gives
/// round(n · 127 / 15), n < 0 gives 8n, and that 8-bit value is read like V8U8. The result equals
/// n / 15 for n >= 0 and 8n / 127 for n < 0.
fn snorm5_widened(raw: u32, shift: u32) -> f32 {
    let field = (raw >> shift) & 0x1f;
    let n = ((field << 27) as i32) >> 27;
    let widened = if n >= 0 { (n as f32 * 127.0 / 15.0).round() } else { 8.0 * n as f32 };
    (widened / 127.0).max(-1.0)
}

/// A 1×1 black texture of `kind` for stage `stage` (a binding whose texture is never read).
pub fn stand_in(stage: u32, kind: TextureDimension) -> DecodedTexture {
    let faces = if kind == TextureDimension::Cube { 6 } else { 1 };
    DecodedTexture::decode(&Texture {
        stage,
        kind,
        width: 1,
        height: 1,
        depth: 1,
        format: TextureFormat::A8R8G8B8,
        mip_levels: 1,
        filter: Default::default(),
        mip_filter: Default::default(),
        address: Default::default(),
        texels: vec![0; faces],
        fill: None,
        fetch4: false,
    })
}

/// The texels of a `fill` (docs/case-format.md#fixed-function), in the format's units, decoded.
fn decode_fill(t: &Texture, fill: &crate::case::Fill) -> Vec<[f32; 4]> {
    let max = if t.format == TextureFormat::A16B16G16R16 { 0xffff } else { 0xff };
    let (w, h, d) = t.level_size(0);
    let mut out = Vec::with_capacity((w * h * d) as usize);
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                // Checked by the case: every channel evaluates.
                let c = [&fill.r, &fill.g, &fill.b, &fill.a].map(|c| c.at(x, y, z, max).unwrap_or(0));
                out.push(if max == 0xffff {
                    c.map(|v| v as f32 / 65535.0)
                } else {
                    decode_texel(t.format, c[3] << 24 | c[0] << 16 | c[1] << 8 | c[2])
                });
            }
        }
    }
    out
}

/// Decodes one raw texel (a little-endian integer of the texel's size) to what a shader reads.
pub fn decode_texel(format: TextureFormat, raw: u32) -> [f32; 4] {
    match format {
        // D3DCOLOR bytes B, G, R, A in memory: 0xAARRGGBB as an integer.
        TextureFormat::A8R8G8B8 => [unorm(raw, 16, 8), unorm(raw, 8, 8), unorm(raw, 0, 8), unorm(raw, 24, 8)],
        TextureFormat::V8U8 => [snorm(raw, 0, 8), snorm(raw, 8, 8), 1.0, 1.0],
        TextureFormat::V16U16 => [snorm(raw, 0, 16), snorm(raw, 16, 16), 1.0, 1.0],
        TextureFormat::Q8W8V8U8 => [snorm(raw, 0, 8), snorm(raw, 8, 8), snorm(raw, 16, 8), snorm(raw, 24, 8)],
        TextureFormat::X8L8V8U8 => [snorm(raw, 0, 8), snorm(raw, 8, 8), unorm(raw, 16, 8), 1.0],
        TextureFormat::L6V5U5 => [snorm5_widened(raw, 0), snorm5_widened(raw, 5), unorm(raw, 10, 6), 1.0],
        TextureFormat::X8R8G8B8 => [unorm(raw, 16, 8), unorm(raw, 8, 8), unorm(raw, 0, 8), 1.0],
        TextureFormat::L8 => {
            let l = unorm(raw, 0, 8);
            [l, l, l, 1.0]
        }
        // Only filled (decode_fill): channels r, g, b, a of 16 bits.
        TextureFormat::A16B16G16R16 => [unorm(raw, 0, 16), unorm(raw, 16, 16), 0.0, 1.0],
        TextureFormat::D24X8 => {
            let d = unorm(raw, 0, 24);
            [d, d, d, 1.0]
        }
    }
}

/// A texture on the GPU with its view and sampler.
#[derive(Debug)]
pub struct GpuTexture {
    /// The texture (`Rgba32Float`).
    pub texture: wgpu::Texture,
    /// A view of the declared dimension.
    pub view: wgpu::TextureView,
    /// The sampler with the case's states.
    pub sampler: wgpu::Sampler,
}

/// Whether sampling `t` with its filters needs `FLOAT32_FILTERABLE` (every texture is uploaded as
/// `Rgba32Float`).
pub fn needs_float_filtering(t: &DecodedTexture) -> bool {
    !t.shadow && (t.filter == Filter::Linear || t.mip_filter == MipFilter::Linear)
}

/// Uploads `t` as an `Rgba32Float` texture, viewed as `view_kind`: the dimension the shader samples
/// it as. A 2D texture sampled by a volume sampler becomes a one-slice volume, which reads as the
/// 2D texture whatever the coordinate's w (docs/d3d9-rules.md#sampler-type-mismatch); other mismatches return `None`.
pub fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    t: &DecodedTexture,
    view_kind: TextureDimension,
) -> Option<GpuTexture> {
    let (w, h, d) = t.size;
    let (dimension, layers) = match (t.kind, view_kind) {
        (TextureDimension::Tex2D, TextureDimension::Tex2D) => (wgpu::TextureDimension::D2, 1),
        (TextureDimension::Tex2D, TextureDimension::Volume) => (wgpu::TextureDimension::D3, 1),
        (TextureDimension::Cube, TextureDimension::Cube) => (wgpu::TextureDimension::D2, 6),
        (TextureDimension::Volume, TextureDimension::Volume) => (wgpu::TextureDimension::D3, d),
        _ => return None,
    };
    // Depth textures hold one float per texel (the comparison reads it).
    let format = if t.shadow { wgpu::TextureFormat::Depth32Float } else { wgpu::TextureFormat::Rgba32Float };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("case texture"),
        size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: layers },
        mip_level_count: t.mip_levels,
        sample_count: 1,
        dimension,
        format,
        usage: if t.shadow {
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT
        } else {
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST
        },
        view_formats: &[],
    });
    if t.shadow {
        fill_depth(device, queue, &texture, t);
    }
    for face in (0..t.faces()).filter(|_| !t.shadow) {
        for level in 0..t.mip_levels {
            let (lw, lh, ld) = t.level_size(level);
            let texels = &t.data[(face * t.mip_levels + level) as usize];
            let bytes: &[u8] = bytemuck::cast_slice(texels);
            queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: level,
                    origin: wgpu::Origin3d { x: 0, y: 0, z: face },
                    aspect: wgpu::TextureAspect::All,
                },
                bytes,
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(lw * 16), rows_per_image: Some(lh) },
                wgpu::Extent3d {
                    width: lw,
                    height: lh,
                    depth_or_array_layers: if dimension == wgpu::TextureDimension::D3 { ld } else { 1 },
                },
            );
        }
    }
    let view_dimension = match view_kind {
        TextureDimension::Tex2D => wgpu::TextureViewDimension::D2,
        TextureDimension::Cube => wgpu::TextureViewDimension::Cube,
        TextureDimension::Volume => wgpu::TextureViewDimension::D3,
    };
    let view =
        texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(view_dimension), ..Default::default() });
    let sampler = device.create_sampler(&sampler_descriptor(t));
    Some(GpuTexture { texture, view, sampler })
}

/// WebGPU forbids copying into a `Depth32Float` texture, so each face and level of a depth texture
/// is drawn: a full-target triangle whose fragment shader writes `frag_depth` from an `R32Float`
/// copy of the level (stored exactly: no conversion between the two 32-bit floats).
fn fill_depth(device: &wgpu::Device, queue: &wgpu::Queue, texture: &wgpu::Texture, t: &DecodedTexture) {
    let pipeline = depth_fill_pipeline(device);
    for face in 0..t.faces() {
        for level in 0..t.mip_levels {
            let src_view = depth_source(device, queue, t, face, level);
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipeline.get_bind_group_layout(0),
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&src_view),
                }],
            });
            let target = texture.create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_mip_level: level,
                mip_level_count: Some(1),
                base_array_layer: face,
                array_layer_count: Some(1),
                ..Default::default()
            });
            let mut encoder = device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("depth fill"),
                    color_attachments: &[],
                    depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                        view: &target,
                        depth_ops: Some(wgpu::Operations {
                            load: wgpu::LoadOp::Clear(0.0),
                            store: wgpu::StoreOp::Store,
                        }),
                        stencil_ops: None,
                    }),
                    ..Default::default()
                });
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.draw(0..3, 0..1);
            }
            queue.submit([encoder.finish()]);
        }
    }
}

/// The pipeline of [`fill_depth`]: a full-target triangle writing `frag_depth` from texel loads.
fn depth_fill_pipeline(device: &wgpu::Device) -> wgpu::RenderPipeline {
    const WGSL: &str = "
@group(0) @binding(0) var src: texture_2d<f32>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) pos: vec4<f32>) -> @builtin(frag_depth) f32 {
    return textureLoad(src, vec2<i32>(pos.xy), 0).r;
}";
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("depth fill"),
        source: wgpu::ShaderSource::Wgsl(WGSL.into()),
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("depth fill"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: Some(wgpu::DepthStencilState {
            format: wgpu::TextureFormat::Depth32Float,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// An `R32Float` copy of one face and level of depth texture `t`, for [`fill_depth`] to draw.
fn depth_source(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    t: &DecodedTexture,
    face: u32,
    level: u32,
) -> wgpu::TextureView {
    let (lw, lh, _) = t.level_size(level);
    let depths: Vec<f32> = t.data[(face * t.mip_levels + level) as usize].iter().map(|p| p[0]).collect();
    let src = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("depth source"),
        size: wgpu::Extent3d { width: lw, height: lh, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    queue.write_texture(
        src.as_image_copy(),
        bytemuck::cast_slice(&depths),
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(lw * 4), rows_per_image: Some(lh) },
        wgpu::Extent3d { width: lw, height: lh, depth_or_array_layers: 1 },
    );
    src.create_view(&Default::default())
}

/// The wgpu sampler for D3D9 sampler states (MAXMIPLEVEL 0, LOD bias 0, border colour 0).
pub fn sampler_descriptor(t: &DecodedTexture) -> wgpu::SamplerDescriptor<'static> {
    let address = match t.address {
        Address::Wrap => wgpu::AddressMode::Repeat,
        Address::Clamp => wgpu::AddressMode::ClampToEdge,
        Address::Border => wgpu::AddressMode::ClampToBorder,
        Address::Mirror => wgpu::AddressMode::MirrorRepeat,
    };
    let filter = match t.filter {
        Filter::Point => wgpu::FilterMode::Nearest,
        Filter::Linear => wgpu::FilterMode::Linear,
    };
    let (mipmap_filter, lod_max_clamp) = match t.mip_filter {
        // D3DTEXF_NONE: only level 0.
        MipFilter::None => (wgpu::MipmapFilterMode::Nearest, 0.0),
        MipFilter::Point => (wgpu::MipmapFilterMode::Nearest, 32.0),
        MipFilter::Linear => (wgpu::MipmapFilterMode::Linear, 32.0),
    };
    wgpu::SamplerDescriptor {
        label: Some("case sampler"),
        address_mode_u: address,
        address_mode_v: address,
        address_mode_w: address,
        mag_filter: filter,
        min_filter: filter,
        mipmap_filter,
        lod_min_clamp: 0.0,
        lod_max_clamp,
        // D3D9 shadow maps pass (1) where reference <= stored depth.
        compare: t.shadow.then_some(wgpu::CompareFunction::LessEqual),
        anisotropy_clamp: 1,
        border_color: (t.address == Address::Border).then_some(wgpu::SamplerBorderColor::TransparentBlack),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a8r8g8b8_is_rgba_from_argb() {
        assert_eq!(decode_texel(TextureFormat::A8R8G8B8, 0x80ff0033), [1.0, 0.0, 0.2, 128.0 / 255.0]);
    }

    #[test]
    fn v8u8_reads_u_v_1_1_and_minus_128_is_minus_one() {
        // texbem_ps13_double: word 0x0ff1 = V 0x0f (15), U 0xf1 (-15).
        assert_eq!(decode_texel(TextureFormat::V8U8, 0x0ff1), [-15.0 / 127.0, 15.0 / 127.0, 1.0, 1.0]);
        // 0x80 = -128 and 0x81 = -127 both read -1.0 (docs/d3d9-rules.md#signed-formats); 0x7f = +1.0.
        assert_eq!(decode_texel(TextureFormat::V8U8, 0x7f80), [-1.0, 1.0, 1.0, 1.0]);
        assert_eq!(decode_texel(TextureFormat::V8U8, 0x0081)[0], -1.0);
    }

    #[test]
    fn v16u16_divides_by_32767() {
        // U = 0x8000 (-32768 -> -1), V = 0x4000 = 16384 -> 16384 / 32767.
        assert_eq!(decode_texel(TextureFormat::V16U16, 0x4000_8000), [-1.0, 16384.0 / 32767.0, 1.0, 1.0]);
    }

    #[test]
    fn q8w8v8u8_and_x8l8v8u8_fields() {
        // U = 0x01, V = 0xff (-1), W = 0x7f, Q = 0xc0 (-64).
        assert_eq!(decode_texel(TextureFormat::Q8W8V8U8, 0xc07f_ff01), [1.0 / 127.0, -1.0 / 127.0, 1.0, -64.0 / 127.0]);
        // X8L8V8U8: L = 0x80 unsigned -> 128/255; top byte ignored; alpha 1.
        assert_eq!(decode_texel(TextureFormat::X8L8V8U8, 0xab80_0000), [0.0, 0.0, 128.0 / 255.0, 1.0]);
    }

    #[test]
    // The literals are grouped by field: L (6 bits), V (5), U (5).
    #[allow(clippy::unusual_byte_groupings)]
    fn l6v5u5_widens_like_the_measured_drivers() {
        // U = +15 (0b01111) -> 127/127 = 1; V = -15 (0b10001) -> -120/127; L = 63 -> 1.
        let raw = 0b111111_10001_01111;
        assert_eq!(decode_texel(TextureFormat::L6V5U5, raw), [1.0, -120.0 / 127.0, 1.0, 1.0]);
        // U = -16 -> -128 -> -1.0; V = 1 -> round(127/15) = 8 -> 8/127; L = 0.
        let raw = 0b000000_00001_10000;
        assert_eq!(decode_texel(TextureFormat::L6V5U5, raw), [-1.0, 8.0 / 127.0, 0.0, 1.0]);
    }

    #[test]
    fn decode_orders_faces_then_levels() {
        let t = Texture {
            stage: 0,
            kind: TextureDimension::Tex2D,
            width: 2,
            height: 1,
            depth: 1,
            format: TextureFormat::A8R8G8B8,
            mip_levels: 2,
            filter: Filter::Point,
            mip_filter: MipFilter::Point,
            address: Address::Clamp,
            texels: vec![0xffff0000, 0xff00ff00, 0xff0000ff],
            fill: None,
            fetch4: false,
        };
        assert_eq!(
            decode_texel(TextureFormat::D24X8, 0x80_0000),
            [8388608.0 / 16777215.0, 8388608.0 / 16777215.0, 8388608.0 / 16777215.0, 1.0]
        );
        let d = DecodedTexture::decode(&t);
        assert_eq!(d.texel(0, 0, 1, 0, 0), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(d.texel(0, 1, 0, 0, 0), [0.0, 0.0, 1.0, 1.0]);
    }
}
