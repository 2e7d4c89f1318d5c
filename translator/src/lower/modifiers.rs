//! Source swizzles and modifiers; destination shifts, saturation, write masks and predication.

use naga::{BinaryOperator, Expression, MathFunction, Span, SwizzleComponent, UnaryOperator, VectorSize};

use super::builder::{replicated, whole, Parts, SharedKey, SCALAR};
use super::operands::Op;
use super::parts::Width;
use super::state::Expr;
use super::values::swizzled;
use super::{LowerError, Lowerer};
use crate::bytecode::{DstParam, RegisterType, SrcModifier, SrcParam, Swizzle, WriteMask};

const COMPONENTS: [SwizzleComponent; 4] =
    [SwizzleComponent::X, SwizzleComponent::Y, SwizzleComponent::Z, SwizzleComponent::W];

impl Lowerer<'_> {
    /// Source `i` of an instruction as `vec4<f32>` (register, swizzle, modifier).
    pub fn src_n(&mut self, op: &Op, i: usize) -> Result<Expr, LowerError> {
        self.src(&op.src(i))
    }

    /// Scalar source `i` of an instruction (the replicated component).
    pub fn src_scalar_n(&mut self, op: &Op, i: usize) -> Result<Expr, LowerError> {
        self.src_scalar(&op.src(i))
    }

    /// Writes a `vec4<f32>` result to the instruction's destination: shift, saturate, then the
    /// masked (and predicated) store.
    pub fn write(&mut self, op: &Op, value: Expr) -> Result<(), LowerError> {
        let dst = op.dst();
        self.write_masked(op, dst, dst.mask, value)
    }

    /// The constant `vec4<bool>` of a write mask.
    pub(crate) fn mask_constant(&mut self, mask: WriteMask) -> Expr {
        let c = match self.mask_constants[usize::from(mask.0 & 0xF)] {
            Some(c) => c,
            None => {
                let ge = &mut self.module.global_expressions;
                let comps: Vec<Expr> = (0..4)
                    .map(|i| ge.append(Expression::Literal(naga::Literal::Bool(mask.has(i))), Span::UNDEFINED))
                    .collect();
                let init = ge.append(Expression::Compose { ty: self.t.vec4b, components: comps }, Span::UNDEFINED);
                let c = self
                    .module
                    .constants
                    .append(naga::Constant { name: None, ty: self.t.vec4b, init }, Span::UNDEFINED);
                self.mask_constants[usize::from(mask.0 & 0xF)] = Some(c);
                c
            }
        };
        self.fb.shared(SharedKey::Constant(c))
    }

    pub fn bin(&mut self, op: BinaryOperator, left: Expr, right: Expr) -> Expr {
        self.fb.expr(Expression::Binary { op, left, right })
    }

    pub fn math1(&mut self, fun: MathFunction, arg: Expr) -> Expr {
        self.fb.expr(Expression::Math { fun, arg, arg1: None, arg2: None, arg3: None })
    }

    /// Saturation to [0, 1] with NaN → 0, the rule of D3D10-class hardware (and DXVK's NClamp),
    /// which the interpreter shares: SPIR-V's FClamp and WGSL's `saturate` leave NaN undefined.
    pub fn saturate(&mut self, x: Expr, w: Width) -> Expr {
        let zero = self.fconst(0.0, w);
        let one = self.fconst(1.0, w);
        let positive = self.bin(BinaryOperator::Greater, x, zero);
        let low = self.math2(MathFunction::Min, x, one);
        let s = self.fb.expr(Expression::Select { condition: positive, accept: low, reject: zero });
        // x > 0 excludes NaN, so min(x, 1) is in (0, 1]; else +0.
        self.note_range(s, [super::interval::Interval::UNIT; 4]);
        s
    }

    pub fn math2(&mut self, fun: MathFunction, arg: Expr, arg1: Expr) -> Expr {
        self.fb.expr(Expression::Math { fun, arg, arg1: Some(arg1), arg2: None, arg3: None })
    }

    pub fn neg(&mut self, e: Expr) -> Expr {
        self.fb.expr(Expression::Unary { op: UnaryOperator::Negate, expr: e })
    }

    pub fn component(&mut self, v: Expr, c: usize) -> Expr {
        let h = self.fb.expr(Expression::AccessIndex { base: v, index: c as u32 });
        if let Some(bits) = self.fb.tables.known.get(&v).copied() {
            self.fb.tables.known.insert(h, [bits[c]; 4]);
        }
        h
    }

    pub fn swizzle(&mut self, v: Expr, s: Swizzle) -> Expr {
        if s == Swizzle::IDENTITY {
            return v;
        }
        let c = s.components();
        let pattern = [COMPONENTS[c[0]], COMPONENTS[c[1]], COMPONENTS[c[2]], COMPONENTS[c[3]]];
        let h = self.fb.expr(Expression::Swizzle { size: VectorSize::Quad, vector: v, pattern });
        if let Some(bits) = self.fb.tables.known.get(&v).copied() {
            self.fb.tables.known.insert(h, c.map(|i| bits[i]));
        }
        h
    }

    /// Applies a value modifier (every one but `dz`/`dw`/`not`).
    pub fn apply_modifier(&mut self, m: SrcModifier, v: Expr, w: Width) -> Result<Expr, LowerError> {
        use SrcModifier as M;
        if let (Some(bits), M::Neg | M::Abs | M::AbsNeg) = (self.fb.tables.known.get(&v).copied(), m) {
            // Sign changes are exact: the value stays known.
            let f = |b: u32| match m {
                M::Neg => b ^ 0x8000_0000,
                M::Abs => b & 0x7FFF_FFFF,
                _ => b | 0x8000_0000,
            };
            let h = match m {
                M::Neg => self.neg(v),
                M::Abs => self.math1(MathFunction::Abs, v),
                _ => {
                    let a = self.math1(MathFunction::Abs, v);
                    self.neg(a)
                }
            };
            self.fb.tables.known.insert(h, bits.map(f));
            return Ok(h);
        }
        Ok(match m {
            M::None | M::Dz | M::Dw => v,
            M::Neg => self.neg(v),
            M::Bias | M::BiasNeg => {
                let h = self.fconst(0.5, w);
                let b = self.bin(BinaryOperator::Subtract, v, h);
                if m == M::BiasNeg {
                    self.neg(b)
                } else {
                    b
                }
            }
            M::Sign | M::SignNeg => {
                let two = self.fconst(2.0, w);
                let one = self.fconst(1.0, w);
                let d = self.bin(BinaryOperator::Multiply, v, two);
                let s = self.bin(BinaryOperator::Subtract, d, one);
                if m == M::SignNeg {
                    self.neg(s)
                } else {
                    s
                }
            }
            M::Comp => {
                let one = self.fconst(1.0, w);
                self.bin(BinaryOperator::Subtract, one, v)
            }
            M::X2 | M::X2Neg => {
                let two = self.fconst(2.0, w);
                let d = self.bin(BinaryOperator::Multiply, v, two);
                if m == M::X2Neg {
                    self.neg(d)
                } else {
                    d
                }
            }
            M::Abs => self.math1(MathFunction::Abs, v),
            M::AbsNeg => {
                let a = self.math1(MathFunction::Abs, v);
                self.neg(a)
            }
            M::Not => return Err(self.invalid("`!` applies only to bool and predicate sources")),
        })
    }

    /// The register value with `_dz`/`_dw` applied (they divide before the swizzle).
    fn src_base(&mut self, src: &SrcParam) -> Result<Expr, LowerError> {
        let v = self.read_register(src.reg, src.relative)?;
        Ok(match src.modifier {
            SrcModifier::Dz | SrcModifier::Dw => {
                let c = if src.modifier == SrcModifier::Dz { 2 } else { 3 };
                let d = self.component(v, c);
                let ds = self.fb.expr(Expression::Splat { size: VectorSize::Quad, value: d });
                self.bin(BinaryOperator::Divide, v, ds)
            }
            _ => v,
        })
    }

    /// A source's components after its swizzle (before its modifier): a register's kept
    /// components, or the components of the vector other sources read as.
    // Inlined into each caller: returned through memory, the components were written one by
    // one and read back as wider words at once, which stalled the read (store forwarding).
    #[inline(always)]
    pub fn src_parts(&mut self, src: &SrcParam) -> Result<Parts, LowerError> {
        use RegisterType as R;
        let kept = src.relative.is_none()
            && !matches!(src.modifier, SrcModifier::Dz | SrcModifier::Dw)
            && !matches!(
                src.reg.ty,
                R::Const | R::ConstInt | R::ConstBool | R::Loop | R::Predicate | R::Sampler | R::Label | R::TempFloat16
            );
        let base = if kept { self.reg_parts(src.reg)? } else { whole(self.src_base(src)?) };
        Ok(swizzled(base, src.swizzle))
    }

    /// A source operand as `vec4<f32>`: register, swizzle, modifier.
    pub fn src(&mut self, src: &SrcParam) -> Result<Expr, LowerError> {
        self.src_lanes(src, WriteMask::ALL)
    }

    /// A source operand as `vec4<f32>` of which the instruction reads only the components in
    /// `lanes` (the written components of a per-component operation, the summed ones of a dot
    /// product, what a sample takes of its coordinates); the others may hold anything.
    pub fn src_lanes(&mut self, src: &SrcParam, lanes: WriteMask) -> Result<Expr, LowerError> {
        let parts = self.src_parts(src)?;
        let parts = self.unused_filled(parts, lanes);
        let v = self.materialize(parts);
        self.apply_modifier(src.modifier, v, Width::Vec4)
    }

    /// `parts` with the components outside `lanes` chosen to make the vector cheapest: they may
    /// hold anything, so when the used ones all come from one value the others repeat it (a
    /// scalar's) or take that vector's own components, which leaves the vector itself where
    /// the used ones are in place (`add r0.xyz, r1.xyzx, r2` reads `r1`, no swizzle) and one
    /// swizzle otherwise (no select against another value). What is known of the components
    /// outside `lanes` does not matter: the multiply rule's folds look at `lanes` alone
    /// ([`Lowerer::fmul_lanes`]).
    fn unused_filled(&self, parts: Parts, lanes: WriteMask) -> Parts {
        // Most sources are read whole: nothing to choose.
        if lanes == WriteMask::ALL {
            return parts;
        }
        let Some(first) = (0..4).find(|&i| lanes.has(i)) else { return parts };
        let base = parts[first].base;
        let one_base = (0..4).all(|i| !lanes.has(i) || parts[i].base == base);
        if !one_base {
            return parts;
        }
        if parts[first].index == SCALAR {
            return replicated(base);
        }
        let mut filled = whole(base);
        for i in (0..4).filter(|&i| lanes.has(i)) {
            filled[i] = parts[i];
        }
        filled
    }

    /// A scalar source: the component the swizzle's last selector names (the replicated one;
    /// `.w` for a plain `.xyzw` source).
    pub fn src_scalar(&mut self, src: &SrcParam) -> Result<Expr, LowerError> {
        let parts = self.src_parts(src)?;
        let c = self.scalar_part(parts[3]);
        self.apply_modifier(src.modifier, c, Width::Scalar)
    }

    /// The predicate of a predicated instruction as `vec4<bool>` per destination component.
    fn predicate_mask(&mut self, p: &SrcParam) -> Result<Expr, LowerError> {
        let v = self.reg_value(p.reg)?;
        let v = self.swizzle(v, p.swizzle);
        Ok(if p.modifier == SrcModifier::Not {
            self.fb.expr(Expression::Unary { op: UnaryOperator::LogicalNot, expr: v })
        } else {
            v
        })
    }

    /// Whether a destination takes its value as it is (no shift, saturation or rounding).
    fn plain_destination(dst: &DstParam) -> bool {
        dst.shift == 0 && !dst.modifiers.saturate() && dst.reg.ty != RegisterType::Addr
    }

    /// Writes a value given per component (a `mov`, a compose of scalars).
    pub fn write_parts(&mut self, op: &Op, dst: DstParam, mask: WriteMask, value: Parts) -> Result<(), LowerError> {
        if !Self::plain_destination(&dst) {
            let v = self.materialize(value);
            return self.write_masked(op, dst, mask, v);
        }
        self.store_dst_parts(op, dst, mask, value)
    }

    /// Writes a scalar result replicated (rcp, dp4…): shift and saturation on the scalar, no
    /// `vec4` until the value is read as one.
    pub fn write_scalar(&mut self, op: &Op, value: Expr) -> Result<(), LowerError> {
        let dst = op.dst();
        let mut value = value;
        if dst.shift != 0 {
            let f = self.fconst(2f32.powi(i32::from(dst.shift)), Width::Scalar);
            value = self.bin(BinaryOperator::Multiply, value, f);
        }
        if dst.modifiers.saturate() {
            value = self.saturate(value, Width::Scalar);
        }
        if dst.reg.ty == RegisterType::Addr {
            // Rounded as the scalar it is, and kept per component like a temporary: an address
            // read (`rel_index`) takes its one component without building the vector.
            value = self.address_value(op, value, Width::Scalar);
        }
        self.store_dst_parts(op, dst, dst.mask, replicated(value))
    }

    /// The masked, predicated store of a float value given per component: kept per component
    /// in a plain register, else as one vector.
    fn store_dst_parts(&mut self, op: &Op, dst: DstParam, mask: WriteMask, value: Parts) -> Result<(), LowerError> {
        let kept = op.predicate().is_none() && dst.relative.is_none() && !self.regs.arrays.contains(dst.reg.ty);
        if !kept || matches!(dst.reg.ty, RegisterType::Input | RegisterType::Const | RegisterType::Sampler) {
            let v = self.materialize(value);
            return self.store_vec4(op, dst, mask, v, self.t.vec4f);
        }
        if mask.0 == 0 {
            return Ok(());
        }
        self.store_parts(dst.reg, mask, value)
    }

    /// [`Lowerer::write`] with a narrower mask (sincos, crs, m#x# write only some components).
    pub fn write_masked(&mut self, op: &Op, dst: DstParam, mask: WriteMask, value: Expr) -> Result<(), LowerError> {
        let mut value = value;
        if dst.shift != 0 {
            let f = self.fconst(2f32.powi(i32::from(dst.shift)), Width::Vec4);
            value = self.bin(BinaryOperator::Multiply, value, f);
        }
        if dst.modifiers.saturate() {
            value = self.saturate(value, Width::Vec4);
        }
        if dst.reg.ty == RegisterType::Addr {
            value = self.address_value(op, value, Width::Vec4);
        }
        self.store_vec4(op, dst, mask, value, self.t.vec4f)
    }

    /// What a write to a0 stores: a0 holds integers; vs_1_1 `mov` floors, `mova` rounds to
    /// nearest, half away from 0 (docs/d3d9-rules.md#address-register).
    fn address_value(&mut self, op: &Op, value: Expr, w: Width) -> Expr {
        if op.opcode() != crate::bytecode::Opcode::Mova {
            return self.math1(MathFunction::Floor, value);
        }
        let s = self.math1(MathFunction::Sign, value);
        let a = self.math1(MathFunction::Abs, value);
        let h = self.fconst(0.5, w);
        let ah = self.bin(BinaryOperator::Add, a, h);
        let f = self.math1(MathFunction::Floor, ah);
        self.bin(BinaryOperator::Multiply, s, f)
    }

    /// The masked, predicated store of a `vec4` of type `ty` (float, or bool for `p0`).
    pub fn store_vec4(
        &mut self,
        op: &Op,
        dst: DstParam,
        mask: WriteMask,
        value: Expr,
        ty: naga::Handle<naga::Type>,
    ) -> Result<(), LowerError> {
        if matches!(dst.reg.ty, RegisterType::Input | RegisterType::Const | RegisterType::Sampler) {
            return Err(self.invalid(format!("{} cannot be written", dst.reg.name())));
        }
        if mask.0 == 0 {
            return Ok(());
        }
        let pred = match op.predicate() {
            Some(p) => Some(self.predicate_mask(&p)?),
            None => None,
        };
        let merge = |l: &mut Self, old: Expr| -> Expr {
            if mask == WriteMask::ALL && pred.is_none() {
                return value;
            }
            // One select against the mask (and predicate): the unwritten components keep the
            // old value.
            let m = l.mask_constant(mask);
            let condition = match pred {
                Some(p) if mask == WriteMask::ALL => p,
                Some(p) => l.bin(BinaryOperator::And, m, p),
                None => m,
            };
            l.fb.expr(Expression::Select { condition, accept: value, reject: old })
        };
        if pred.is_none() && ty == self.t.vec4f && dst.relative.is_none() && !self.regs.arrays.contains(dst.reg.ty) {
            return self.store_parts(dst.reg, mask, whole(value));
        }
        if dst.relative.is_some() || self.regs.arrays.contains(dst.reg.ty) {
            return self.store_register(dst.reg, dst.relative, |l, ptr| {
                let old = if mask == WriteMask::ALL && pred.is_none() { value } else { l.load(ptr) };
                Ok(merge(l, old))
            });
        }
        let old = if mask == WriteMask::ALL && pred.is_none() { value } else { self.current_value(dst.reg)? };
        let merged = merge(self, old);
        self.set_reg_value(dst.reg, merged)
    }
}
