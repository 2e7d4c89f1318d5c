//! Points as quads, for targets without a point-size output (WebGPU draws 1-pixel points):
//! [`crate::key::PointExpansion`].
//!
//! The vertex shader runs once per corner of each point: the layer draws `points` instances of 6
//! vertices (triangle list) or 4 (triangle strip) with the vertex buffers stepped per instance, so
//! `v n` is the point's vertex and `vertex_index` picks the corner. Corners are numbered
//! 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right; the list draws corners 0 1 2, 2 1 3
//! and the strip 0 1 2 3, both clockwise on screen (D3D9 front faces; points are never culled,
//! so the layer draws them with culling off).
//!
//! The square follows D3D9 (docs/d3d9-rules.md#point-sprites): side S = oPts (or
//! `RenderState::point_size` when the shader writes none) clamped to
//! `[point_size_min, point_size_max]`, centred on oPos's window position. In clip space a corner
//! is oPos + ((2u − 1) · S / width, −(2v − 1) · S / height, 0, 0) · w for its sprite coordinates
//! (u, v) ∈ {0, 1}², with the viewport's size from the render-state block. With
//! `ShaderKey::point_sprite`, every TEXCOORD output (written or not, under the default and the
//! stable maps) is the sprite coordinate (u, v, 0, 1), so the pixel shader is translated with
//! `point_sprite` off and reads its texture coordinates as usual.

use naga::{BinaryOperator as B, Binding, BuiltIn, Expression, MathFunction as M, ScalarKind};

use super::builder::SharedKey;
use super::constants::rs;
use super::parts::Width;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::key::PointExpansion;

/// Corner k of vertex index i: bit i of these masks is the corner's u (right) and v (bottom).
/// List: corners 0 1 2 2 1 3; strip: 0 1 2 3.
const LIST_U: u32 = 0b11_0010;
const LIST_V: u32 = 0b10_1100;
const STRIP_U: u32 = 0b1010;
const STRIP_V: u32 = 0b1100;

impl Lowerer<'_> {
    /// The sprite coordinates (u, v) of this invocation's corner as f32 scalars, when the key
    /// expands points.
    pub(super) fn point_corner(&mut self) -> Option<(Expr, Expr)> {
        let (mu, mv) = match self.key.point_expansion {
            PointExpansion::Off => return None,
            PointExpansion::List => (LIST_U, LIST_V),
            PointExpansion::Strip => (STRIP_U, STRIP_V),
        };
        let u32t = self.module.types.insert(
            naga::Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::U32) },
            naga::Span::UNDEFINED,
        );
        let index = self.arg("vertex_index".into(), u32t, Binding::BuiltIn(BuiltIn::VertexIndex));
        // The layer draws exactly the corner count (6 or 4), so the shift stays below 32.
        let bit = |l: &mut Self, mask: u32| {
            let m = l.fb.shared(SharedKey::U32(mask));
            let shifted = l.bin(B::ShiftRight, m, index);
            let one = l.fb.shared(SharedKey::U32(1));
            let b = l.bin(B::And, shifted, one);
            l.fb.expr(Expression::As { expr: b, kind: ScalarKind::Float, convert: Some(4) })
        };
        let u = bit(self, mu);
        let v = bit(self, mv);
        Some((u, v))
    }

    /// The sprite coordinate output (u, v, 0, 1).
    pub(super) fn sprite_coord(&mut self, (u, v): (Expr, Expr)) -> Expr {
        let zero = self.fb.shared(SharedKey::F32(0));
        let one = self.fb.shared(SharedKey::F32(1f32.to_bits()));
        self.compose4([u, v, zero, one])
    }

    /// oPos moved to the corner (u, v) of the point's square (see the module documentation).
    pub(super) fn expand_point(
        &mut self,
        pos: Expr,
        (u, v): (Expr, Expr),
        point_size: Option<Expr>,
    ) -> Result<Expr, LowerError> {
        let size = match point_size {
            Some(s) => s,
            None => self.render_state(rs::POINT_SIZE)?,
        };
        let lo = self.render_state(rs::POINT_SIZE_MIN)?;
        let hi = self.render_state(rs::POINT_SIZE_MAX)?;
        // max then min, as D3D9 clamps (a NaN size gives the minimum).
        let size = self.math2(M::Max, size, lo);
        let size = self.math2(M::Min, size, hi);
        let width = self.render_state(rs::VIEWPORT_WIDTH)?;
        let height = self.render_state(rs::VIEWPORT_HEIGHT)?;
        let w = self.component(pos, 3);
        let two = self.fconst(2.0, Width::Scalar);
        let one = self.fconst(1.0, Width::Scalar);
        // (2u − 1) · S · w / width, and −(2v − 1) · S · w / height (window y grows downwards).
        let sw = self.bin(B::Multiply, size, w);
        let su = self.bin(B::Multiply, two, u);
        let su = self.bin(B::Subtract, su, one);
        let dx = self.bin(B::Multiply, su, sw);
        let dx = self.bin(B::Divide, dx, width);
        let sv = self.bin(B::Multiply, two, v);
        let sv = self.bin(B::Subtract, one, sv);
        let dy = self.bin(B::Multiply, sv, sw);
        let dy = self.bin(B::Divide, dy, height);
        let x = self.component(pos, 0);
        let y = self.component(pos, 1);
        let z = self.component(pos, 2);
        let x = self.bin(B::Add, x, dx);
        let y = self.bin(B::Add, y, dy);
        Ok(self.compose4([x, y, z, w]))
    }
}

#[cfg(test)]
mod tests {
    use crate::key::{PointExpansion, ShaderKey};
    use crate::{DeviceState, ParseOptions, Shader};

    const VS: &str =
        "vs_2_0\ndcl_position v0\ndcl_psize v1\ndcl_texcoord v2\nmov oPos, v0\nmov oPts, v1.x\nmov oT1, v2\n";

    fn vs() -> Shader {
        Shader::from_asm(VS, &ParseOptions::default()).unwrap()
    }

    #[test]
    fn the_corner_masks_draw_two_clockwise_triangles() {
        // Corner k = u + 2v of vertex index i.
        let corner = |mu: u32, mv: u32, i: u32| (mu >> i & 1) + 2 * (mv >> i & 1);
        let list: Vec<u32> = (0..6).map(|i| corner(super::LIST_U, super::LIST_V, i)).collect();
        assert_eq!(list, [0, 1, 2, 2, 1, 3]);
        let strip: Vec<u32> = (0..4).map(|i| corner(super::STRIP_U, super::STRIP_V, i)).collect();
        assert_eq!(strip, [0, 1, 2, 3]);
    }

    #[test]
    fn expansion_reads_the_vertex_index_and_writes_sprites_to_every_texcoord() {
        let key = ShaderKey { point_expansion: PointExpansion::List, point_sprite: true, ..ShaderKey::default() };
        let t = vs().translate(&key).unwrap();
        let wgsl = t.to_wgsl().unwrap();
        assert!(wgsl.contains("@builtin(vertex_index)") && !wgsl.contains("point_size)"), "{wgsl}");
        assert!(t.layout.render_state.is_some());
        // oT1 and the seven sets it does not write, at the default map's locations 0–7.
        let mut locations: Vec<u32> = t
            .interface
            .outputs
            .iter()
            .filter(|s| s.usage == Some(crate::bytecode::Usage::TexCoord))
            .filter_map(|s| s.location)
            .collect();
        locations.sort_unstable();
        assert_eq!(locations, (0..8).collect::<Vec<u32>>());
        // Without sprites only the written set is output, and the point-size built-in never is.
        let plain = ShaderKey { point_expansion: PointExpansion::Strip, point_size: true, ..ShaderKey::default() };
        let t = vs().translate(&plain).unwrap();
        assert_eq!(t.interface.outputs.iter().filter(|s| s.usage == Some(crate::bytecode::Usage::TexCoord)).count(), 1);
        assert!(!t.to_wgsl().unwrap().contains("point_size)"));
    }

    #[test]
    fn keys_parse_hash_and_follow_the_device_state() {
        let mut k = ShaderKey::default();
        k.set("point_expansion=strip").unwrap();
        assert_eq!(k.point_expansion, PointExpansion::Strip);
        assert!(k.set("point_expansion=fan").is_err());
        let tokens = crate::bytecode::encode(vs().program());
        let h = |k: &ShaderKey| crate::artifact::cache_hash(&tokens, k);
        assert_ne!(h(&k), h(&ShaderKey::default()));
        // A point-list draw on a layer that expands: the vertex shader expands and takes the
        // sprites; the pixel shader reads TEXCOORD as usual.
        let state = DeviceState {
            point_list: true,
            point_sprite_enable: true,
            point_expansion: PointExpansion::List,
            ..DeviceState::default()
        };
        let vk = vs().key(&state);
        assert_eq!((vk.point_expansion, vk.point_sprite, vk.point_size), (PointExpansion::List, true, false));
        let ps = Shader::from_asm("ps_2_0\ndcl t0\nmov oC0, t0\n", &ParseOptions::default()).unwrap();
        assert!(!ps.key(&state).point_sprite && ps.key(&state).point_expansion == PointExpansion::Off);
        // Not a point list: nothing expands.
        let tri = DeviceState { point_list: false, ..state };
        assert_eq!(vs().key(&tri).point_expansion, PointExpansion::Off);
        assert!(ps.key(&tri).point_sprite);
    }
}
