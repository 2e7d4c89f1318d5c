//! Vertex inputs of a declared D3DDECLTYPE ([`crate::key::vertex_formats`]): the input is declared with
//! the vertex format's shader type and converted to the `vec4<f32>` D3D9 gives `v n`.

use naga::{BinaryOperator as B, Binding, Expression, Scalar, ScalarKind, Span, Type, TypeInner, VectorSize};

use super::builder::SharedKey;
use super::parts::Width;
use super::state::Expr;
use super::Lowerer;
use crate::key::vertex_formats::{vertex_format, Conversion, ShaderScalar};

impl Lowerer<'_> {
    /// The value of vertex input `v index` (the entry-point argument, converted).
    pub(crate) fn vertex_input(&mut self, name: String, index: u16, binding: Binding) -> Expr {
        let Some(t) = self.key.vertex_inputs.get(usize::from(index)).copied().flatten() else {
            return self.arg(name, self.t.vec4f, binding);
        };
        let f = vertex_format(t);
        let scalar = match f.scalar {
            ShaderScalar::Float => Scalar::F32,
            ShaderScalar::Sint => Scalar::I32,
            ShaderScalar::Uint => Scalar::U32,
        };
        let size = match f.components {
            2 => Some(VectorSize::Bi),
            3 => Some(VectorSize::Tri),
            4 => Some(VectorSize::Quad),
            _ => None,
        };
        let inner = match size {
            Some(size) => TypeInner::Vector { size, scalar },
            None => TypeInner::Scalar(scalar),
        };
        let ty = self.module.types.insert(Type { name: None, inner }, Span::UNDEFINED);
        let a = self.arg(name, ty, binding);
        if f.normalised() {
            // unorm and snorm attributes hold values in [−1, 1] (docs/d3d9-rules.md#zero-product).
            self.note_range(a, [super::interval::Interval::SIGNED_UNIT; 4]);
        }
        let comps: Vec<Expr> = if size.is_some() {
            (0..usize::from(f.components)).map(|c| self.component(a, c)).collect()
        } else {
            vec![a]
        };
        let (zero, one) = (self.fconst(0.0, Width::Scalar), self.fconst(1.0, Width::Scalar));
        let to_float =
            |l: &mut Self, e| l.fb.expr(Expression::As { expr: e, kind: ScalarKind::Float, convert: Some(4) });
        // D3D9 fills missing components with (0, 0, 0, 1).
        let fill = |l: &mut Self, mut v: Vec<Expr>| {
            let n = v.len();
            v.extend([zero, zero, zero, one].into_iter().skip(n));
            l.compose4([v[0], v[1], v[2], v[3]])
        };
        match f.conversion {
            Conversion::Fill => fill(self, comps),
            Conversion::Bgra => self.compose4([comps[2], comps[1], comps[0], comps[3]]),
            Conversion::ToFloat => {
                let v = comps.into_iter().map(|c| to_float(self, c)).collect();
                fill(self, v)
            }
            Conversion::UDec3 => {
                let mask = self.fb.shared(SharedKey::U32(0x3ff));
                let v = (0..3)
                    .map(|k| {
                        let sh = self.fb.shared(SharedKey::U32(10 * k));
                        let s = self.bin(B::ShiftRight, a, sh);
                        let m = self.bin(B::And, s, mask);
                        to_float(self, m)
                    })
                    .collect();
                fill(self, v)
            }
            Conversion::Dec3N => {
                // Field k to the top bits, then an arithmetic shift back: its sign extended.
                let (down, scale) = (self.fb.shared(SharedKey::U32(22)), self.fconst(511.0, Width::Scalar));
                let v = (0..3)
                    .map(|k| {
                        let up = self.fb.shared(SharedKey::U32(22 - 10 * k));
                        let s = self.bin(B::ShiftLeft, a, up);
                        let i = self.fb.expr(Expression::As { expr: s, kind: ScalarKind::Sint, convert: None });
                        let i = self.bin(B::ShiftRight, i, down);
                        let x = to_float(self, i);
                        self.bin(B::Divide, x, scale)
                    })
                    .collect();
                fill(self, v)
            }
        }
    }
}
