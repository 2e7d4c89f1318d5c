//! Vertex input adaptation: from a D3D9 vertex declaration's element type (D3DDECLTYPE) to the
//! vertex format a WebGPU/Vulkan pipeline declares, and the conversion the translated vertex
//! shader applies so that `v n` holds the value D3D9 gives it.
//!
//! A WebGPU vertex attribute must match the shader input's scalar type (a `uint8x4` attribute
//! feeds a `vec4<u32>`), and D3D9 has types no target format expresses (D3DCOLOR's BGRA byte
//! order, UDEC3 and DEC3N's 10-bit fields). Put the type of each input register in
//! [`ShaderKey::vertex_inputs`](crate::ShaderKey::vertex_inputs): the translation then declares
//! the input with the format's shader type and converts it to the `vec4<f32>` D3D9 defines, with
//! missing components filled as D3D9 fills them: (0, 0, 0, 1).
//!
//! | D3DDECLTYPE | format | shader input | conversion to `v n` |
//! |---|---|---|---|
//! | FLOAT1–4 (0–3) | `float32`…`float32x4` | `f32`…`vec4<f32>` | fill |
//! | D3DCOLOR (4) | `unorm8x4` | `vec4<f32>` | bytes are B, G, R, A: `.zyxw` |
//! | UBYTE4 (5) | `uint8x4` | `vec4<u32>` | to float, unnormalised |
//! | SHORT2, SHORT4 (6, 7) | `sint16x2`, `sint16x4` | `vec2<i32>`, `vec4<i32>` | to float, fill |
//! | UBYTE4N (8) | `unorm8x4` | `vec4<f32>` | none (c / 255) |
//! | SHORT2N, SHORT4N (9, 10) | `snorm16x2`, `snorm16x4` | `vec2<f32>`, `vec4<f32>` | fill (c / 32767) |
//! | USHORT2N, USHORT4N (11, 12) | `unorm16x2`, `unorm16x4` | `vec2<f32>`, `vec4<f32>` | fill (c / 65535) |
//! | UDEC3 (13) | `uint32` | `u32` | (x, y, z) = bits 0–9, 10–19, 20–29 as integers, w = 1 |
//! | DEC3N (14) | `uint32` | `u32` | the same fields as signed 10-bit integers / 511, w = 1 |
//! | FLOAT16_2, FLOAT16_4 (15, 16) | `float16x2`, `float16x4` | `vec2<f32>`, `vec4<f32>` | fill |
//!
//! [`decode`] is the CPU reference of the same rules, from the attribute's bytes.

use super::modes::spellings;

/// D3DDECLTYPE: the type of a vertex element. Its names ([`DeclType::NAMES`]) are D3DDECLTYPE's
/// without the prefix, read in any case: `--key vertex_input<N>=` and the harness's case files
/// (`type = "FLOAT3"`) spell them alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
#[repr(u8)]
pub enum DeclType {
    Float1 = 0,
    Float2 = 1,
    Float3 = 2,
    Float4 = 3,
    D3dColor = 4,
    UByte4 = 5,
    Short2 = 6,
    Short4 = 7,
    UByte4N = 8,
    Short2N = 9,
    Short4N = 10,
    UShort2N = 11,
    UShort4N = 12,
    UDec3 = 13,
    Dec3N = 14,
    Float16x2 = 15,
    Float16x4 = 16,
}

spellings!(
    DeclType,
    "vertex element type",
    [
        Float1 => "float1",
        Float2 => "float2",
        Float3 => "float3",
        Float4 => "float4",
        D3dColor => "d3dcolor",
        UByte4 => "ubyte4",
        Short2 => "short2",
        Short4 => "short4",
        UByte4N => "ubyte4n",
        Short2N => "short2n",
        Short4N => "short4n",
        UShort2N => "ushort2n",
        UShort4N => "ushort4n",
        UDec3 => "udec3",
        Dec3N => "dec3n",
        Float16x2 => "float16_2",
        Float16x4 => "float16_4",
    ]
);

impl DeclType {
    /// The type named by [`DeclType::NAMES`] (any case) or by its D3DDECLTYPE number.
    pub fn from_name_or_number(name: &str) -> Option<DeclType> {
        DeclType::from_name(name).or_else(|| name.parse().ok().and_then(DeclType::from_raw))
    }

    /// How many components the element carries; the shader sees the rest as D3D9 fills them,
    /// (0, 0, 0, 1). D3DCOLOR and the byte types carry four, UDEC3 and DEC3N three (the module
    /// documentation's table).
    pub fn components(self) -> u8 {
        use DeclType as D;
        match self {
            D::Float1 => 1,
            D::Float2 | D::Short2 | D::Short2N | D::UShort2N | D::Float16x2 => 2,
            D::Float3 | D::UDec3 | D::Dec3N => 3,
            D::Float4 | D::D3dColor | D::UByte4 | D::Short4 | D::UByte4N | D::Short4N | D::UShort4N | D::Float16x4 => 4,
        }
    }

    /// The type of a D3DDECLTYPE value (17, D3DDECLTYPE_UNUSED, and others: `None`).
    pub fn from_raw(raw: u32) -> Option<DeclType> {
        DeclType::ALL.get(raw as usize).copied()
    }
}

/// The scalar type a format feeds the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderScalar {
    /// `f32` (float, unorm and snorm formats).
    Float,
    /// `i32`.
    Sint,
    /// `u32`.
    Uint,
}

/// What the shader does to the attribute to make D3D9's `vec4<f32>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// Fill missing components with (0, 0, 0, 1).
    Fill,
    /// D3DCOLOR: swap red and blue (`.zyxw`).
    Bgra,
    /// Integers to floats, then fill.
    ToFloat,
    /// Unpack three unsigned 10-bit fields.
    UDec3,
    /// Unpack three signed 10-bit fields, divided by 511.
    Dec3N,
}

/// The vertex format for a declaration type (see the module table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexFormat {
    /// The WebGPU `GPUVertexFormat` name (`unorm8x4`, `sint16x2`, …); wgpu's `VertexFormat`
    /// variant of the same name in UpperCamelCase.
    pub format: &'static str,
    /// Components the shader input has (1–4).
    pub components: u8,
    /// Its scalar type.
    pub scalar: ShaderScalar,
    /// Bytes per element.
    pub size: u8,
    /// The in-shader conversion.
    pub conversion: Conversion,
    /// wgpu's vertex format of the same name.
    #[cfg(feature = "wgpu")]
    pub wgpu: wgpu::VertexFormat,
}

impl VertexFormat {
    /// A normalised format (`unorm…`, `snorm…`): every component is in [−1, 1].
    pub fn normalised(&self) -> bool {
        self.format.starts_with("unorm") || self.format.starts_with("snorm")
    }
}

/// The vertex format and conversion of a D3DDECLTYPE.
pub fn vertex_format(t: DeclType) -> VertexFormat {
    use Conversion as C;
    use DeclType as D;
    use ShaderScalar as S;
    let f = |format, components, scalar, size, conversion| VertexFormat {
        format,
        components,
        scalar,
        size,
        conversion,
        #[cfg(feature = "wgpu")]
        wgpu: wgpu_format(t),
    };
    match t {
        D::Float1 => f("float32", 1, S::Float, 4, C::Fill),
        D::Float2 => f("float32x2", 2, S::Float, 8, C::Fill),
        D::Float3 => f("float32x3", 3, S::Float, 12, C::Fill),
        D::Float4 => f("float32x4", 4, S::Float, 16, C::Fill),
        D::D3dColor => f("unorm8x4", 4, S::Float, 4, C::Bgra),
        D::UByte4 => f("uint8x4", 4, S::Uint, 4, C::ToFloat),
        D::Short2 => f("sint16x2", 2, S::Sint, 4, C::ToFloat),
        D::Short4 => f("sint16x4", 4, S::Sint, 8, C::ToFloat),
        D::UByte4N => f("unorm8x4", 4, S::Float, 4, C::Fill),
        D::Short2N => f("snorm16x2", 2, S::Float, 4, C::Fill),
        D::Short4N => f("snorm16x4", 4, S::Float, 8, C::Fill),
        D::UShort2N => f("unorm16x2", 2, S::Float, 4, C::Fill),
        D::UShort4N => f("unorm16x4", 4, S::Float, 8, C::Fill),
        D::UDec3 => f("uint32", 1, S::Uint, 4, C::UDec3),
        D::Dec3N => f("uint32", 1, S::Uint, 4, C::Dec3N),
        D::Float16x2 => f("float16x2", 2, S::Float, 4, C::Fill),
        D::Float16x4 => f("float16x4", 4, S::Float, 8, C::Fill),
    }
}

/// wgpu's vertex format of a D3DDECLTYPE (the module table's).
#[cfg(feature = "wgpu")]
fn wgpu_format(t: DeclType) -> wgpu::VertexFormat {
    use wgpu::VertexFormat as W;
    use DeclType as D;
    match t {
        D::Float1 => W::Float32,
        D::Float2 => W::Float32x2,
        D::Float3 => W::Float32x3,
        D::Float4 => W::Float32x4,
        D::D3dColor | D::UByte4N => W::Unorm8x4,
        D::UByte4 => W::Uint8x4,
        D::Short2 => W::Sint16x2,
        D::Short4 => W::Sint16x4,
        D::Short2N => W::Snorm16x2,
        D::Short4N => W::Snorm16x4,
        D::UShort2N => W::Unorm16x2,
        D::UShort4N => W::Unorm16x4,
        D::UDec3 | D::Dec3N => W::Uint32,
        D::Float16x2 => W::Float16x2,
        D::Float16x4 => W::Float16x4,
    }
}

/// The CPU reference: the `vec4` D3D9 gives `v n` for an element of type `t` stored as `bytes`
/// (little-endian, at least the format's size).
pub fn decode(t: DeclType, bytes: &[u8]) -> [f32; 4] {
    use DeclType as D;
    let u16_at = |i: usize| u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
    let f32_at = |i: usize| f32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    let fill = |v: &[f32]| {
        let mut out = [0.0, 0.0, 0.0, 1.0];
        out[..v.len()].copy_from_slice(v);
        out
    };
    let snorm = |c: u16| (f32::from(c as i16) / 32767.0).max(-1.0);
    let word = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"));
    let field = |k: u32| (word >> (10 * k)) & 0x3ff;
    let signed = |k: u32| ((field(k) << 22) as i32 >> 22) as f32;
    match t {
        D::Float1 | D::Float2 | D::Float3 | D::Float4 => fill(&(0..t as usize + 1).map(f32_at).collect::<Vec<_>>()),
        D::D3dColor => [2, 1, 0, 3].map(|i| f32::from(bytes[i]) / 255.0),
        D::UByte4 => [0, 1, 2, 3].map(|i| f32::from(bytes[i])),
        D::UByte4N => [0, 1, 2, 3].map(|i| f32::from(bytes[i]) / 255.0),
        D::Short2 => fill(&[0, 1].map(|i| f32::from(u16_at(i) as i16))),
        D::Short4 => [0, 1, 2, 3].map(|i| f32::from(u16_at(i) as i16)),
        D::Short2N => fill(&[0, 1].map(|i| snorm(u16_at(i)))),
        D::Short4N => [0, 1, 2, 3].map(|i| snorm(u16_at(i))),
        D::UShort2N => fill(&[0, 1].map(|i| f32::from(u16_at(i)) / 65535.0)),
        D::UShort4N => [0, 1, 2, 3].map(|i| f32::from(u16_at(i)) / 65535.0),
        D::UDec3 => [field(0) as f32, field(1) as f32, field(2) as f32, 1.0],
        D::Dec3N => [signed(0) / 511.0, signed(1) / 511.0, signed(2) / 511.0, 1.0],
        D::Float16x2 => fill(&[0, 1].map(|i| half_to_f32(u16_at(i)))),
        D::Float16x4 => [0, 1, 2, 3].map(|i| half_to_f32(u16_at(i))),
    }
}

/// IEEE binary16 to f32 (exact: every half is an f32).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f32::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f32.powi(-24),
        31 if frac == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + frac / 1024.0) * 2f32.powi(e - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_reference_follows_the_d3d9_rules() {
        // D3DCOLOR 0x80FF4000 (A = 0x80, R = 0xFF, G = 0x40, B = 0x00) is stored B, G, R, A.
        assert_eq!(decode(DeclType::D3dColor, &0x80FF_4000u32.to_le_bytes()), [1.0, 64.0 / 255.0, 0.0, 128.0 / 255.0]);
        assert_eq!(decode(DeclType::UByte4, &[1, 2, 3, 255]), [1.0, 2.0, 3.0, 255.0]);
        // SHORT2 (-2, 300): missing z, w are 0, 1.
        let s: Vec<u8> = [-2i16, 300].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(decode(DeclType::Short2, &s), [-2.0, 300.0, 0.0, 1.0]);
        // SHORT2N: -32768 clamps to -1; 16384 / 32767.
        let s: Vec<u8> = [-32768i16, 16384].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(decode(DeclType::Short2N, &s), [-1.0, 16384.0 / 32767.0, 0.0, 1.0]);
        // UDEC3 with x = 1, y = 512, z = 1023: 1 | 512 << 10 | 1023 << 20.
        let w: u32 = 1 | (512 << 10) | (1023 << 20);
        assert_eq!(decode(DeclType::UDec3, &w.to_le_bytes()), [1.0, 512.0, 1023.0, 1.0]);
        // DEC3N: the same bits are 1, -512 and -1 as signed 10-bit fields, / 511.
        assert_eq!(decode(DeclType::Dec3N, &w.to_le_bytes()), [1.0 / 511.0, -512.0 / 511.0, -1.0 / 511.0, 1.0]);
        // FLOAT16: 0x3C00 = 1, 0xC000 = -2, 0x3555 = 0.333251953125.
        let h: Vec<u8> = [0x3C00u16, 0xC000, 0x3555, 0x0001].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(decode(DeclType::Float16x4, &h), [1.0, -2.0, 0.333_251_95, 2f32.powi(-24)]);
        assert_eq!(decode(DeclType::Float1, &2.5f32.to_le_bytes()), [2.5, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn every_type_has_a_format_of_its_size() {
        for &t in DeclType::ALL {
            let f = vertex_format(t);
            assert!((1..=4).contains(&f.components), "{t:?}");
            assert_eq!(DeclType::from_raw(t as u32), Some(t));
        }
        assert_eq!(DeclType::from_raw(17), None);
        assert_eq!(vertex_format(DeclType::Short4N).size, 8);
    }

    /// wgpu's format is the WebGPU name's variant, of the same size.
    #[cfg(feature = "wgpu")]
    #[test]
    fn the_wgpu_format_is_the_named_one() {
        for &t in DeclType::ALL {
            let f = vertex_format(t);
            assert_eq!(format!("{:?}", f.wgpu).to_lowercase(), f.format, "{t:?}");
            assert_eq!(f.wgpu.size(), u64::from(f.size), "{t:?}");
        }
    }
}
