//! Render targets: the CPU image model both paths produce, and the GPU targets (colour targets in
//! 8-bit or float formats, a depth buffer), their clears and their readback.
//!
//! The D3D9 depth format D24S8 is drawn as `Depth32Float` on the GPU and as `f32` on the CPU: every
//! depth the cases compare is then held the same way on both sides (no stencil is used).

use crate::case::TargetFormat;

/// The contents of one colour target, as floats. On 8-bit targets every value is `byte / 255`.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The target's format.
    pub format: TargetFormat,
    /// RGBA, rows top to bottom.
    pub pixels: Vec<[f32; 4]>,
}

/// Converts a colour to the 8-bit value a UNORM target stores: saturate (NaN to 0), scale, round.
pub fn to_byte(v: f32) -> u8 {
    let v = if v > 0.0 { v.min(1.0) } else { 0.0 };
    (v * 255.0).round() as u8
}

/// The RGBA floats of a 0xAARRGGBB D3DCOLOR (how D3D9 `Clear` converts it for float targets).
pub fn color_to_rgba(argb: u32) -> [f32; 4] {
    let b = |s: u32| ((argb >> s) & 0xff) as f32 / 255.0;
    [b(16), b(8), b(0), b(24)]
}

impl Image {
    /// An image filled with `clear` (0xAARRGGBB).
    pub fn new(width: u32, height: u32, format: TargetFormat, clear: u32) -> Image {
        Image { width, height, format, pixels: vec![color_to_rgba(clear); (width * height) as usize] }
    }

    /// Pixel (x, y).
    pub fn get(&self, x: u32, y: u32) -> [f32; 4] {
        self.pixels[(y * self.width + x) as usize]
    }

    /// Stores `value` at (x, y) as the target's format holds it.
    pub fn put(&mut self, x: u32, y: u32, value: [f32; 4]) {
        let stored = match self.format {
            TargetFormat::A8R8G8B8 => value.map(|c| to_byte(c) as f32 / 255.0),
            TargetFormat::A32B32G32R32F => value,
        };
        self.pixels[(y * self.width + x) as usize] = stored;
    }

    /// Fills the image (D3D9 `Clear` of this target).
    pub fn clear(&mut self, argb: u32) {
        let c = color_to_rgba(argb);
        self.pixels.iter_mut().for_each(|p| *p = c);
    }

    /// Pixel (x, y) as 0xAARRGGBB (float targets are quantized as an 8-bit target would).
    pub fn argb(&self, x: u32, y: u32) -> u32 {
        let [r, g, b, a] = self.get(x, y).map(|c| to_byte(c) as u32);
        a << 24 | r << 16 | g << 8 | b
    }
}

/// The GPU colour format of a target format.
pub fn wgpu_format(format: TargetFormat) -> wgpu::TextureFormat {
    match format {
        TargetFormat::A8R8G8B8 => wgpu::TextureFormat::Rgba8Unorm,
        TargetFormat::A32B32G32R32F => wgpu::TextureFormat::Rgba32Float,
    }
}

/// The depth format standing in for D24S8.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// A case's render targets on the GPU.
#[derive(Debug)]
pub struct GpuTargets {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Colour targets 0..n with their formats.
    pub colors: Vec<(wgpu::Texture, wgpu::TextureView, TargetFormat)>,
    /// The depth buffer.
    pub depth: (wgpu::Texture, wgpu::TextureView),
}

impl GpuTargets {
    /// Creates the targets.
    pub fn new(device: &wgpu::Device, width: u32, height: u32, formats: &[TargetFormat]) -> GpuTargets {
        let make = |format: wgpu::TextureFormat, usage: wgpu::TextureUsages| {
            let t = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("render target"),
                size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            });
            let v = t.create_view(&Default::default());
            (t, v)
        };
        let colour_usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let colors = formats
            .iter()
            .map(|&f| {
                let (t, v) = make(wgpu_format(f), colour_usage);
                (t, v, f)
            })
            .collect();
        let depth = make(DEPTH_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT);
        GpuTargets { width, height, colors, depth }
    }

    /// D3D9 `Clear`: `color` clears every target, `depth` the depth buffer.
    pub fn clear(&self, device: &wgpu::Device, queue: &wgpu::Queue, color: Option<u32>, depth: Option<f32>) {
        let mut encoder = device.create_command_encoder(&Default::default());
        let attachments: Vec<_> = self
            .colors
            .iter()
            .map(|(_, view, _)| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: match color {
                            Some(c) => {
                                let [r, g, b, a] = color_to_rgba(c).map(f64::from);
                                wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a })
                            }
                            None => wgpu::LoadOp::Load,
                        },
                        store: wgpu::StoreOp::Store,
                    },
                })
            })
            .collect();
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clear"),
            color_attachments: &attachments,
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth.1,
                depth_ops: Some(wgpu::Operations {
                    load: match depth {
                        Some(d) => wgpu::LoadOp::Clear(d),
                        None => wgpu::LoadOp::Load,
                    },
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            ..Default::default()
        });
        drop(pass);
        queue.submit([encoder.finish()]);
    }

    /// Reads target `index` back.
    pub fn read(&self, device: &wgpu::Device, queue: &wgpu::Queue, index: usize) -> Image {
        let (texture, _, format) = &self.colors[index];
        let texel = match format {
            TargetFormat::A8R8G8B8 => 4,
            TargetFormat::A32B32G32R32F => 16,
        };
        let row =
            (self.width * texel).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: (row * self.height) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: None },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
        queue.submit([encoder.finish()]);
        let slice = buffer.slice(..);
        slice.map_async(wgpu::MapMode::Read, |r| r.expect("map readback buffer"));
        let _ = device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None });
        let data = slice.get_mapped_range().expect("readback buffer is mapped");
        let mut pixels = Vec::with_capacity((self.width * self.height) as usize);
        for y in 0..self.height {
            let line = &data[(y * row) as usize..][..(self.width * texel) as usize];
            match format {
                TargetFormat::A8R8G8B8 => {
                    pixels.extend(line.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]].map(|b| b as f32 / 255.0)))
                }
                TargetFormat::A32B32G32R32F => {
                    let floats: &[f32] = bytemuck::cast_slice(line);
                    pixels.extend(floats.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]))
                }
            }
        }
        drop(data);
        buffer.unmap();
        Image { width: self.width, height: self.height, format: *format, pixels }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_and_saturate() {
        assert_eq!(to_byte(0.5), 128, "127.5 rounds up");
        assert_eq!(to_byte(-1.0), 0);
        assert_eq!(to_byte(f32::NAN), 0);
        assert_eq!(to_byte(2.0), 255);
    }

    #[test]
    fn clear_colour_converts_per_channel_and_images_quantize() {
        assert_eq!(color_to_rgba(0xff00ff80), [0.0, 1.0, 128.0 / 255.0, 1.0]);
        let mut img = Image::new(2, 1, TargetFormat::A8R8G8B8, 0xff102030);
        assert_eq!(img.argb(1, 0), 0xff102030);
        img.put(0, 0, [0.5, 2.0, -1.0, 0.25]);
        assert_eq!(img.argb(0, 0), 0x40 << 24 | 0x80ff00);
        let mut f = Image::new(1, 1, TargetFormat::A32B32G32R32F, 0);
        f.put(0, 0, [0.3, -2.0, 7.0, 0.5]);
        assert_eq!(f.get(0, 0), [0.3, -2.0, 7.0, 0.5], "float targets keep the value");
    }
}
