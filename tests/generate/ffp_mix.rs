//! Translated partners for random fixed-function states: a state may draw its vertex half as a
//! vertex shader (in front of the fixed-function pixel half) or its pixel half as a pixel shader
//! (behind the fixed-function vertex half), as D3D9 lets a program mix them. The partners are
//! small hand-written programs that read what the other half passes (COLOR0/1, TEXCOORD0/1) and
//! combine it, so a mismatch points at the link between a translated and a generated half: the
//! varyings' locations, interpolation and the D3D9 rules at the boundary (colour outputs
//! saturated before a ps_1_x/2_x or fixed-function pixel half, docs/d3d9-rules.md).
//!
//! Each vertex partner reads the quad's elements (POSITION, NORMAL, COLOR0, COLOR1, TEXCOORD0,
//! TEXCOORD1, in D3D8 order for vs_1_1 without declarations) and passes the clip-space position
//! through, as the fixed-function state's identity PROJECTION would; each pixel partner samples
//! stage 0, which every state has.

use d3d9_shader::asm::assemble;
use d3d9_shader::bytecode::Program;

/// Which half is translated, and which partner of its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// `VERTEX_PARTNERS[n]` before the fixed-function pixel half.
    Vertex(u8),
    /// `PIXEL_PARTNERS[n]` after the fixed-function vertex half.
    Pixel(u8),
}

/// Vertex shaders (assembly) for the fixed-function pixel half.
pub const VERTEX_PARTNERS: [&str; 3] = [
    // Pass-through of every varying the pixel half reads.
    "vs_2_0
dcl_position v0
dcl_normal v1
dcl_color0 v2
dcl_color1 v3
dcl_texcoord0 v4
dcl_texcoord1 v5
mov oPos, v0
mov oD0, v2
mov oD1, v3
mov oT0, v4
mov oT1, v5
",
    // The colours swapped and scaled past 1 (the link saturates them), the coordinate sets
    // swapped.
    "vs_2_0
def c0, 2.0, 0.5, 1.5, 1.0
dcl_position v0
dcl_normal v1
dcl_color0 v2
dcl_color1 v3
dcl_texcoord0 v4
dcl_texcoord1 v5
mov oPos, v0
mul oD0, v3, c0
mul oD1, v2, c0.yzxw
mov oT0, v5
mov oT1, v4
",
    // vs_1_1 with the inputs at D3D8's register numbers (normal v3, COLOR0 v5, COLOR1 v6,
    // TEXCOORDn v7 + n), the normal's absolute value as COLOR1.
    "vs_1_1
dcl_position v0
dcl_normal v3
dcl_color0 v5
dcl_color1 v6
dcl_texcoord0 v7
dcl_texcoord1 v8
mov oPos, v0
mov oD0, v5
max oD1, v3, -v3
mov oT0, v7
mov oT1, v8
",
];

/// Pixel shaders (assembly) for the fixed-function vertex half.
pub const PIXEL_PARTNERS: [&str; 3] = [
    "ps_1_1
tex t0
mul r0, t0, v0
add r0.rgb, r0, v1
",
    "ps_2_0
dcl t0.xy
dcl t1.xy
dcl v0
dcl v1
dcl_2d s0
texld r0, t0, s0
mad r0, r0, v0, v1
add r0.rg, r0, t1
mov oC0, r0
",
    // A 2-component set's third component is not defined: only r1.rg is read.
    "ps_1_4
texld r0, t0
texcrd r1.rgb, t1
mul r0, r0, v0
add r0.rg, r0, r1
",
];

impl Mix {
    /// The partner's case name suffix and its program.
    pub fn shader(self) -> (&'static str, Program) {
        let (suffix, text) = match self {
            Mix::Vertex(n) => ("vs", VERTEX_PARTNERS[n as usize % VERTEX_PARTNERS.len()]),
            Mix::Pixel(n) => ("ps", PIXEL_PARTNERS[n as usize % PIXEL_PARTNERS.len()]),
        };
        // The tables are this file's own assembly; a test assembles every entry.
        (suffix, assemble(text).expect("a partner shader assembles"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_partner_assembles_and_validates() {
        for (i, text) in VERTEX_PARTNERS.iter().chain(&PIXEL_PARTNERS).enumerate() {
            let p = assemble(text).unwrap_or_else(|e| panic!("partner {i}: {e}\n{text}"));
            let report = d3d9_shader::validate::validate(&p, &d3d9_shader::validate::ValidationOptions::strict());
            assert!(report.is_ok(), "partner {i}: {:?}", report.errors);
        }
    }
}
