//! Every D3DDECLTYPE on the GPU: a vertex attribute of the type's vertex format
//! (`d3d9_shader::key::vertex_formats::vertex_format`) feeds `v1` of a vertex shader translated with the
//! type in its key; the pixel shader writes the interpolated value (the same at every vertex) to
//! a float target. The pixel must hold the value D3D9 defines, derived by hand below, which the
//! CPU reference (`vertex_input::decode`) gives too.

use d3d9_shader::key::vertex_formats::{decode, vertex_format, DeclType};
use d3d9_shader::{asm::assemble, translate, ShaderKey};
use gpu_harness::case::TargetFormat;
use gpu_harness::device::gpu_for_test;
use gpu_harness::gpu::to_wgsl;
use gpu_harness::targets::GpuTargets;

fn le16(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|&x| (x as u16).to_le_bytes()).collect()
}

fn le32f(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Each type's attribute bytes and the value D3D9 gives `v n`, by hand from the type's rule.
fn cases() -> Vec<(DeclType, Vec<u8>, [f32; 4])> {
    use DeclType as D;
    let dec: u32 = 1 | (512 << 10) | (1023 << 20);
    vec![
        (D::Float1, le32f(&[2.5]), [2.5, 0.0, 0.0, 1.0]),
        (D::Float2, le32f(&[1.5, -2.0]), [1.5, -2.0, 0.0, 1.0]),
        (D::Float3, le32f(&[1.0, 2.0, 3.0]), [1.0, 2.0, 3.0, 1.0]),
        (D::Float4, le32f(&[1.0, 2.0, 3.0, 4.0]), [1.0, 2.0, 3.0, 4.0]),
        // 0x80FF4000: A 0x80, R 0xFF, G 0x40, B 0x00, stored B, G, R, A.
        (D::D3dColor, 0x80FF_4000u32.to_le_bytes().to_vec(), [1.0, 64.0 / 255.0, 0.0, 128.0 / 255.0]),
        (D::UByte4, vec![1, 2, 3, 255], [1.0, 2.0, 3.0, 255.0]),
        (D::Short2, le16(&[-2, 300]), [-2.0, 300.0, 0.0, 1.0]),
        (D::Short4, le16(&[-2, 300, -32768, 32767]), [-2.0, 300.0, -32768.0, 32767.0]),
        (D::UByte4N, vec![0, 51, 255, 128], [0.0, 0.2, 1.0, 128.0 / 255.0]),
        // c / 32767, and -32768 clamped to -1.
        (D::Short2N, le16(&[-32768, 16384]), [-1.0, 16384.0 / 32767.0, 0.0, 1.0]),
        (D::Short4N, le16(&[32767, -16384, 0, -32767]), [1.0, -16384.0 / 32767.0, 0.0, -1.0]),
        // 13107 = 65535 / 5.
        (D::UShort2N, le16(&[65535, 13107]), [1.0, 0.2, 0.0, 1.0]),
        (D::UShort4N, le16(&[0, 65535, 32768, 1]), [0.0, 1.0, 32768.0 / 65535.0, 1.0 / 65535.0]),
        (D::UDec3, dec.to_le_bytes().to_vec(), [1.0, 512.0, 1023.0, 1.0]),
        // The same fields as signed 10-bit numbers: 1, -512, -1; divided by 511.
        (D::Dec3N, dec.to_le_bytes().to_vec(), [1.0 / 511.0, -512.0 / 511.0, -1.0 / 511.0, 1.0]),
        // binary16: 0x3C00 = 1, 0xC000 = -2, 0x3555 = (1 + 341/1024) / 4, 0x3800 = 0.5.
        (D::Float16x2, le16(&[0x3C00, 0xC000]), [1.0, -2.0, 0.0, 1.0]),
        (D::Float16x4, le16(&[0x3C00, 0xC000, 0x3555, 0x3800]), [1.0, -2.0, 0.333_251_95, 0.5]),
    ]
}

fn wgpu_format(name: &str) -> wgpu::VertexFormat {
    use wgpu::VertexFormat as F;
    match name {
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
        other => panic!("no wgpu format for {other}"),
    }
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-6 * y.abs().max(1.0))
}

const VS: &str = "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_texcoord o1\nmov o0, v0\nmov o1, v1\n";
const PS: &str = "ps_3_0\ndcl_texcoord v0\nmov oC0, v0\n";

/// Draws a full-target triangle with `bytes` as every vertex's `v1` of type `t`; the pixel.
fn draw(gpu: &gpu_harness::device::Gpu, t: DeclType, bytes: &[u8]) -> [f32; 4] {
    let mut key = ShaderKey::default();
    key.vertex_inputs[1] = Some(t);
    let vs = translate(&assemble(VS).unwrap(), &key).unwrap();
    let ps = translate(&assemble(PS).unwrap(), &ShaderKey::default()).unwrap();
    let device = &gpu.device;
    let module = |m: &naga::Module, stage| {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(to_wgsl(m, stage).unwrap().into()),
        })
    };
    let (vm, pm) = (module(&vs.module, "vertex"), module(&ps.module, "pixel"));
    let f = vertex_format(t);
    let stride = u64::from(f.size).max(4);
    let positions: Vec<u8> = le32f(&[-1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0]);
    let mut attribute = Vec::new();
    for _ in 0..3 {
        let mut e = bytes.to_vec();
        e.resize(stride as usize, 0);
        attribute.extend(e);
    }
    let buffer = |data: &[u8]| {
        let b = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: data.len() as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        gpu.queue.write_buffer(&b, 0, data);
        b
    };
    let (pb, ab) = (buffer(&positions), buffer(&attribute));
    let pos_attr = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x4, offset: 0, shader_location: 0 }];
    let attr = [wgpu::VertexAttribute { format: wgpu_format(f.format), offset: 0, shader_location: 1 }];
    let layouts = [
        Some(wgpu::VertexBufferLayout {
            array_stride: 16,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &pos_attr,
        }),
        Some(wgpu::VertexBufferLayout {
            array_stride: stride,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attr,
        }),
    ];
    let targets = GpuTargets::new(device, 4, 4, &[TargetFormat::A32B32G32R32F]);
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: None,
        vertex: wgpu::VertexState {
            module: &vm,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &layouts,
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &pm,
            entry_point: Some("ps_main"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba32Float.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &targets.colors[0].1,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_vertex_buffer(0, pb.slice(..));
        pass.set_vertex_buffer(1, ab.slice(..));
        pass.draw(0..3, 0..1);
    }
    gpu.queue.submit([encoder.finish()]);
    targets.read(device, &gpu.queue, 0).pixels[5]
}

#[test]
fn every_decl_type_reaches_the_shader_as_d3d9_defines_it() {
    let cases = cases();
    assert_eq!(cases.len(), DeclType::ALL.len(), "one case per D3DDECLTYPE");
    // The CPU reference agrees with the hand-derived values.
    for (t, bytes, expected) in &cases {
        assert!(close(decode(*t, bytes), *expected), "{t:?}: CPU {:?}, expected {expected:?}", decode(*t, bytes));
    }
    let Some(gpu) = gpu_for_test("every_decl_type_reaches_the_shader_as_d3d9_defines_it") else { return };
    let mut failures = Vec::new();
    for (t, bytes, expected) in &cases {
        let got = draw(&gpu, *t, bytes);
        if !close(got, *expected) {
            failures.push(format!("{t:?} ({}): GPU {got:?}, expected {expected:?}", vertex_format(*t).format));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
