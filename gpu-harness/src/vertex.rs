//! Vertices from a D3D9 vertex declaration: each element's values expanded to four components
//! (docs/d3d9-rules.md#vertex-elements: (x, 0, 0, 1), (x, y, 0, 1), (x, y, z, 1); D3DCOLOR as
//! (R, G, B, A) / 255), then assigned to the vertex shader's input registers `v#`.
//!
//! Both paths get the same expanded `vec4`s: the GPU reads one `Float32x4` attribute per input
//! register, so fetching narrower formats is the runtime's business, not the translation's.

use d3d9_shader::bytecode::{Opcode, Program, RegisterType, Usage};

use d3d9_shader::key::vertex_formats::DeclType;

use crate::case::{row_values, Api, DeclUsage, Draw, Number};

/// A semantic: (usage, usage index).
pub type Semantic = (Usage, u8);

/// The bytecode usage of a declaration usage name (same numbering: D3DDECLUSAGE).
pub fn usage_of(u: DeclUsage) -> Usage {
    Usage::from_raw(u as u8).expect("DeclUsage follows D3DDECLUSAGE numbering")
}

/// Expands one element's values.
pub fn expand(ty: DeclType, values: &[Number]) -> Result<[f32; 4], String> {
    use DeclType as D;
    let f = |i: usize| values[i].as_f32().ok_or_else(|| format!("{ty}: not a number"));
    Ok(match ty {
        D::Float1 => [f(0)?, 0.0, 0.0, 1.0],
        D::Float2 | D::Short2 => [f(0)?, f(1)?, 0.0, 1.0],
        D::Float3 => [f(0)?, f(1)?, f(2)?, 1.0],
        D::Float4 | D::UByte4 | D::Short4 => [f(0)?, f(1)?, f(2)?, f(3)?],
        D::UByte4N => [f(0)? / 255.0, f(1)? / 255.0, f(2)? / 255.0, f(3)? / 255.0],
        D::UShort4N => [f(0)? / 65535.0, f(1)? / 65535.0, f(2)? / 65535.0, f(3)? / 65535.0],
        D::D3dColor => {
            let Number::Int(c) = values[0] else { return Err("D3DCOLOR: not an integer".into()) };
            let c = u32::try_from(c).map_err(|_| format!("D3DCOLOR 0x{c:x} out of range"))?;
            let byte = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
            [byte(16), byte(8), byte(0), byte(24)]
        }
        _ => return Err(format!("element type {ty} is not one the runner reads")),
    })
}

/// A draw's vertices: for each vertex, each element's semantic and expanded value.
#[derive(Clone, Debug, PartialEq)]
pub struct Vertices {
    /// The elements' semantics, in element order.
    pub semantics: Vec<Semantic>,
    /// `rows[vertex][element]`.
    pub rows: Vec<Vec<[f32; 4]>>,
}

impl Vertices {
    /// Expands the draw's `vertices` (sizes already checked by the case).
    pub fn from_draw(draw: &Draw) -> Result<Vertices, String> {
        let semantics = draw.elements.iter().map(|e| (usage_of(e.usage), e.usage_index as u8)).collect();
        let mut rows = Vec::with_capacity(draw.vertices.len());
        for (i, v) in draw.vertices.iter().enumerate() {
            let mut at = 0;
            let mut row = Vec::with_capacity(draw.elements.len());
            for e in &draw.elements {
                let n = row_values(e.ty).ok_or_else(|| format!("element type {} is not one the runner reads", e.ty))?;
                row.push(expand(e.ty, &v[at..at + n]).map_err(|m| format!("vertex {i}: {m}"))?);
                at += n;
            }
            rows.push(row);
        }
        Ok(Vertices { semantics, rows })
    }

    /// The value of `semantic` in vertex `i`, if an element carries it.
    pub fn get(&self, i: usize, semantic: Semantic) -> Option<[f32; 4]> {
        self.semantics.iter().position(|s| *s == semantic).map(|e| self.rows[i][e])
    }

    /// Each vertex's input registers `v0–v15` under `map` (register, semantic); registers that
    /// no element feeds read (0, 0, 0, 1).
    pub fn registers(&self, map: &[(u16, Semantic)]) -> Vec<[[f32; 4]; 16]> {
        (0..self.rows.len())
            .map(|i| {
                let mut v = [[0.0, 0.0, 0.0, 1.0]; 16];
                for &(reg, semantic) in map {
                    if let (Some(slot), Some(value)) = (v.get_mut(reg as usize), self.get(i, semantic)) {
                        *slot = value;
                    }
                }
                v
            })
            .collect()
    }
}

/// D3D8 `D3DVSD_REG` register numbers of the usages (docs/d3d9-rules.md#d3d8-inputs).
pub const D3D8_REGISTERS: [(u16, Semantic); 17] = [
    (0, (Usage::Position, 0)),
    (1, (Usage::BlendWeight, 0)),
    (2, (Usage::BlendIndices, 0)),
    (3, (Usage::Normal, 0)),
    (4, (Usage::PSize, 0)),
    (5, (Usage::Color, 0)),
    (6, (Usage::Color, 1)),
    (7, (Usage::TexCoord, 0)),
    (8, (Usage::TexCoord, 1)),
    (9, (Usage::TexCoord, 2)),
    (10, (Usage::TexCoord, 3)),
    (11, (Usage::TexCoord, 4)),
    (12, (Usage::TexCoord, 5)),
    (13, (Usage::TexCoord, 6)),
    (14, (Usage::TexCoord, 7)),
    (15, (Usage::Position, 1)),
    (16, (Usage::Normal, 1)),
];

/// Which semantic feeds each input register of a vertex shader: its `dcl`s, or, for D3D8 shaders
/// (which declare nothing in the bytecode), the fixed register numbers of docs/d3d9-rules.md#d3d8-inputs.
pub fn input_map(program: &Program, api: Api) -> Vec<(u16, Semantic)> {
    let declared: Vec<(u16, Semantic)> = declared_inputs(program).collect();
    if declared.is_empty() && (api == Api::D3d8 || program.version.major < 2) {
        return D3D8_REGISTERS.iter().copied().filter(|(r, _)| *r < 16).collect();
    }
    declared
}

/// Each input register `program` declares with a semantic (`dcl_usage vN`), in program order.
pub fn declared_inputs(program: &Program) -> impl Iterator<Item = (u16, Semantic)> + '_ {
    program.instructions.iter().filter(|i| i.opcode == Opcode::Dcl).filter_map(|i| {
        let dst = i.dst?;
        let decl = i.decl()?;
        (dst.reg.ty == RegisterType::Input).then_some((dst.reg.num, (decl.usage()?, decl.usage_index)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_elements_expand_with_0_0_1() {
        let n = |x: f64| Number::Float(x);
        assert_eq!(expand(DeclType::Float1, &[n(0.5)]), Ok([0.5, 0.0, 0.0, 1.0]));
        assert_eq!(expand(DeclType::Float2, &[n(0.5), n(2.0)]), Ok([0.5, 2.0, 0.0, 1.0]));
        assert_eq!(expand(DeclType::Float3, &[n(1.0), n(2.0), n(3.0)]), Ok([1.0, 2.0, 3.0, 1.0]));
    }

    #[test]
    fn d3dcolor_reads_rgba_from_argb() {
        // 0x80ff0033: A = 0x80, R = 0xff, G = 0, B = 0x33.
        assert_eq!(expand(DeclType::D3dColor, &[Number::Int(0x80ff0033)]), Ok([1.0, 0.0, 0.2, 128.0 / 255.0]));
        assert!(expand(DeclType::D3dColor, &[Number::Float(1.0)]).is_err());
    }

    #[test]
    fn registers_follow_the_map() {
        let v = Vertices {
            semantics: vec![(Usage::Position, 0), (Usage::Color, 0)],
            rows: vec![vec![[1.0, 2.0, 3.0, 1.0], [0.5; 4]]],
        };
        let regs = v.registers(&[(0, (Usage::Position, 0)), (5, (Usage::Color, 0)), (7, (Usage::TexCoord, 0))]);
        assert_eq!(regs[0][0], [1.0, 2.0, 3.0, 1.0]);
        assert_eq!(regs[0][5], [0.5; 4]);
        // Nothing feeds TEXCOORD0.
        assert_eq!(regs[0][7], [0.0, 0.0, 0.0, 1.0]);
    }
}
