//! Expressions: each becomes the instructions naga's SPIR-V backend gives it, written at its
//! `Emit` (loads and samples stay where the IR puts them).

use naga::{
    BinaryOperator as B, Expression as E, Handle, MathFunction as M, ScalarKind as K, TypeInner, UnaryOperator,
};
use spirv::{GlslStd450Op as G, Op};

use super::functions::Cx;
use super::{Result, Unsupported, Writer};

impl<'m> Writer<'m> {
    /// The id of expression `h`: written already, or one that needs no emitting (a constant,
    /// an argument, a variable).
    pub(super) fn value(&mut self, cx: Cx<'m>, h: Handle<E>) -> Result<u32> {
        let cached = self.buf.fx.ids[h.index()];
        if cached != 0 {
            return Ok(cached);
        }
        let id = match cx.fun.expressions[h] {
            E::Literal(_) | E::Constant(_) | E::ZeroValue(_) | E::Compose { .. } | E::Splat { .. } => {
                self.constant_expression(&cx.fun.expressions, h, Some(cx.fi))?
            }
            E::FunctionArgument(i) => self.buf.fx.arg_ids[i as usize],
            E::GlobalVariable(g) => self.global_value(g)?,
            E::LocalVariable(l) => self.buf.fx.local_ids[l.index()],
            _ => return Err(Unsupported("expression used before it is emitted")),
        };
        self.buf.fx.ids[h.index()] = id;
        Ok(id)
    }

    pub(super) fn inner(&self, cx: Cx<'m>, h: Handle<E>) -> &'m TypeInner {
        cx.fi.ty(h).inner_with(&self.module.types)
    }

    /// Writes expression `h` where an `Emit` names it.
    pub(super) fn write_expression(&mut self, cx: Cx<'m>, h: Handle<E>) -> Result<()> {
        if self.buf.fx.ids[h.index()] != 0 {
            return Ok(());
        }
        let expression = &cx.fun.expressions[h];
        if matches!(
            expression,
            E::Literal(_)
                | E::Constant(_)
                | E::ZeroValue(_)
                | E::FunctionArgument(_)
                | E::GlobalVariable(_)
                | E::LocalVariable(_)
                | E::CallResult(_)
        ) {
            return Ok(());
        }
        let ty = self.resolution_type(cx.fi.ty(h))?;
        let id = match *expression {
            E::Access { base, index } => self.access(cx, ty, base, index)?,
            E::AccessIndex { base, index } => self.access_index(cx, ty, base, index)?,
            E::Splat { size, value } => {
                let v = self.value(cx, value)?;
                let parts = [v; 4];
                self.composite(ty, &parts[..size as usize])
            }
            E::Swizzle { size, vector, pattern } => self.swizzle(cx, ty, vector, &pattern[..size as usize])?,
            E::Compose { ref components, .. } => {
                let mut parts = arrayvec::ArrayVec::<u32, 16>::new();
                for &c in components {
                    let v = self.value(cx, c)?;
                    parts.try_push(v).map_err(|_| Unsupported("composite of more than 16 parts"))?;
                }
                self.composite(ty, &parts)
            }
            E::Load { pointer } => {
                let p = self.value(cx, pointer)?;
                self.unary(Op::Load, ty, p)
            }
            E::ImageSample { .. } => self.image_sample(cx, ty, expression)?,
            E::ImageQuery { image, query: naga::ImageQuery::Size { level } } => {
                self.image_size(cx, ty, image, level)?
            }
            E::Unary { op, expr } => self.unary_expression(cx, ty, op, expr)?,
            E::Binary { op, left, right } => self.binary_expression(cx, ty, op, left, right)?,
            E::Select { condition, accept, reject } => self.select(cx, ty, condition, accept, reject)?,
            E::Derivative { axis, ctrl, expr } => {
                if ctrl != naga::DerivativeControl::None {
                    self.require(spirv::Capability::DerivativeControl);
                }
                let v = self.value(cx, expr)?;
                self.unary(derivative_op(axis, ctrl), ty, v)
            }
            E::Relational { fun, argument } => {
                use naga::RelationalFunction as R;
                let op = match fun {
                    R::All => Op::All,
                    R::Any => Op::Any,
                    R::IsNan => Op::IsNan,
                    R::IsInf => Op::IsInf,
                };
                let v = self.value(cx, argument)?;
                self.unary(op, ty, v)
            }
            E::Math { fun, arg, arg1, arg2, .. } => self.math(cx, ty, fun, arg, arg1, arg2)?,
            E::As { expr, kind, convert } => self.conversion(cx, ty, expr, kind, convert)?,
            _ => return Err(Unsupported("expression")),
        };
        self.buf.fx.ids[h.index()] = id;
        Ok(())
    }

    /// `vector.xyzw` as an `OpVectorShuffle` of the vector with itself.
    fn swizzle(&mut self, cx: Cx<'m>, ty: u32, vector: Handle<E>, pattern: &[naga::SwizzleComponent]) -> Result<u32> {
        let v = self.value(cx, vector)?;
        let id = self.id();
        let start = self.buf.fx.body.begin(Op::VectorShuffle);
        for word in [ty, id, v, v] {
            self.buf.fx.body.push(word);
        }
        for &c in pattern {
            self.buf.fx.body.push(c as u32);
        }
        self.buf.fx.body.end(start);
        Ok(id)
    }

    /// `textureDimensions(image, level)`: the size at the level, or at level 0.
    fn image_size(&mut self, cx: Cx<'m>, ty: u32, image: Handle<E>, level: Option<Handle<E>>) -> Result<u32> {
        self.require(spirv::Capability::ImageQuery);
        let image = self.value(cx, image)?;
        let lod = match level {
            Some(l) => self.value(cx, l)?,
            None => self.u32_constant(0)?,
        };
        Ok(self.binary(Op::ImageQuerySizeLod, ty, image, lod))
    }

    fn unary_expression(&mut self, cx: Cx<'m>, ty: u32, op: UnaryOperator, expr: Handle<E>) -> Result<u32> {
        let v = self.value(cx, expr)?;
        let op = match (op, self.inner(cx, expr).scalar_kind()) {
            (UnaryOperator::Negate, Some(K::Float)) => Op::FNegate,
            (UnaryOperator::Negate, Some(K::Sint)) => Op::SNegate,
            (UnaryOperator::LogicalNot, _) => Op::LogicalNot,
            (UnaryOperator::BitwiseNot, _) => Op::Not,
            _ => return Err(Unsupported("unary operator")),
        };
        Ok(self.unary(op, ty, v))
    }

    fn select(
        &mut self,
        cx: Cx<'m>,
        ty: u32,
        condition: Handle<E>,
        accept: Handle<E>,
        reject: Handle<E>,
    ) -> Result<u32> {
        let mut c = self.value(cx, condition)?;
        let a = self.value(cx, accept)?;
        let r = self.value(cx, reject)?;
        // Before SPIR-V 1.4 a vector select takes a vector condition.
        if let (TypeInner::Scalar(s), &TypeInner::Vector { size, .. }) =
            (self.inner(cx, condition), self.inner(cx, accept))
        {
            let bvec = self.vector_type(size, *s)?;
            let parts = [c; 4];
            c = self.composite(bvec, &parts[..size as usize]);
        }
        Ok(self.ternary(Op::Select, ty, c, a, r))
    }

    fn access(&mut self, cx: Cx<'m>, ty: u32, base: Handle<E>, index: Handle<E>) -> Result<u32> {
        let b = self.value(cx, base)?;
        let i = self.value(cx, index)?;
        match *self.inner(cx, base) {
            TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => Ok(self.binary(Op::AccessChain, ty, b, i)),
            TypeInner::Vector { .. } => Ok(self.binary(Op::VectorExtractDynamic, ty, b, i)),
            _ => Err(Unsupported("dynamic index into a value")),
        }
    }

    fn access_index(&mut self, cx: Cx<'m>, ty: u32, base: Handle<E>, index: u32) -> Result<u32> {
        let b = self.value(cx, base)?;
        match *self.inner(cx, base) {
            TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => {
                let i = self.u32_constant(index)?;
                Ok(self.binary(Op::AccessChain, ty, b, i))
            }
            _ => Ok(self.binary(Op::CompositeExtract, ty, b, index)),
        }
    }

    fn binary_expression(&mut self, cx: Cx<'m>, ty: u32, op: B, left: Handle<E>, right: Handle<E>) -> Result<u32> {
        let l = self.value(cx, left)?;
        let r = self.value(cx, right)?;
        let (lt, rt) = (self.inner(cx, left), self.inner(cx, right));
        let (l_mat, r_mat) = (matches!(lt, TypeInner::Matrix { .. }), matches!(rt, TypeInner::Matrix { .. }));
        if l_mat || r_mat {
            return self.matrix_product(op, ty, (l, lt), (r, rt));
        }
        let kind = lt.scalar_kind().ok_or(Unsupported("binary operand"))?;
        let (l_vec, r_vec) = (matches!(lt, TypeInner::Vector { .. }), matches!(rt, TypeInner::Vector { .. }));
        if l_vec != r_vec {
            // Only a product mixes a vector and a scalar (naga's validator).
            if op != B::Multiply || kind != K::Float {
                return Err(Unsupported("mixed vector and scalar operands"));
            }
            let (v, s) = if l_vec { (l, r) } else { (r, l) };
            return Ok(self.binary(Op::VectorTimesScalar, ty, v, s));
        }
        let (float, sint, boolean) = (kind == K::Float, kind == K::Sint, kind == K::Bool);
        if kind == K::Uint && matches!(op, B::Divide | B::Modulo) {
            return self.unsigned_division(cx, ty, op, (l, r), right);
        }
        let spirv_op = match op {
            B::Add if float => Op::FAdd,
            B::Add => Op::IAdd,
            B::Subtract if float => Op::FSub,
            B::Subtract => Op::ISub,
            B::Multiply if float => Op::FMul,
            B::Multiply => Op::IMul,
            B::Divide if float => Op::FDiv,
            B::Modulo if float => Op::FRem,
            B::Equal if float => Op::FOrdEqual,
            B::Equal if boolean => Op::LogicalEqual,
            B::Equal => Op::IEqual,
            B::NotEqual if float => Op::FOrdNotEqual,
            B::NotEqual if boolean => Op::LogicalNotEqual,
            B::NotEqual => Op::INotEqual,
            B::Less if float => Op::FOrdLessThan,
            B::Less if sint => Op::SLessThan,
            B::LessEqual if float => Op::FOrdLessThanEqual,
            B::LessEqual if sint => Op::SLessThanEqual,
            B::Greater if float => Op::FOrdGreaterThan,
            B::Greater if sint => Op::SGreaterThan,
            B::GreaterEqual if float => Op::FOrdGreaterThanEqual,
            B::GreaterEqual if sint => Op::SGreaterThanEqual,
            B::Less if kind == K::Uint => Op::ULessThan,
            B::LessEqual if kind == K::Uint => Op::ULessThanEqual,
            B::Greater if kind == K::Uint => Op::UGreaterThan,
            B::GreaterEqual if kind == K::Uint => Op::UGreaterThanEqual,
            B::And if boolean => Op::LogicalAnd,
            B::And => Op::BitwiseAnd,
            B::InclusiveOr if boolean => Op::LogicalOr,
            B::InclusiveOr => Op::BitwiseOr,
            B::ExclusiveOr => Op::BitwiseXor,
            B::LogicalAnd => Op::LogicalAnd,
            B::LogicalOr => Op::LogicalOr,
            B::ShiftLeft => Op::ShiftLeftLogical,
            B::ShiftRight if sint => Op::ShiftRightArithmetic,
            B::ShiftRight if kind == K::Uint => Op::ShiftRightLogical,
            // Integer division and remainder: naga guards them with helper functions.
            _ => return Err(Unsupported("binary operator")),
        };
        Ok(self.binary(spirv_op, ty, l, r))
    }

    /// `a / b` and `a % b` of unsigned integers with WGSL's rule for a zero divisor (the divisor
    /// taken as 1), as naga's writer guards them (there in a helper function, here inline).
    fn unsigned_division(&mut self, cx: Cx<'m>, ty: u32, op: B, (a, b): (u32, u32), right: Handle<E>) -> Result<u32> {
        let size = match *self.inner(cx, right) {
            TypeInner::Vector { size, .. } => Some(size),
            _ => None,
        };
        let zero = self.literal(naga::Literal::U32(0))?;
        let one = self.literal(naga::Literal::U32(1))?;
        let zero = self.splat_constant(size, naga::Scalar::U32, zero)?;
        let one = self.splat_constant(size, naga::Scalar::U32, one)?;
        let bool_ty = self.numeric_type(size, naga::Scalar::BOOL)?;
        let is_zero = self.binary(Op::IEqual, bool_ty, b, zero);
        let divisor = self.ternary(Op::Select, ty, is_zero, one, b);
        let op = if op == B::Divide { Op::UDiv } else { Op::UMod };
        Ok(self.binary(op, ty, a, divisor))
    }

    /// A product with a matrix factor, as SPIR-V's matrix instructions (naga's choice).
    fn matrix_product(
        &mut self,
        op: B,
        ty: u32,
        (l, lt): (u32, &TypeInner),
        (r, rt): (u32, &TypeInner),
    ) -> Result<u32> {
        use TypeInner as T;
        if op != B::Multiply {
            return Err(Unsupported("matrix operator other than a product"));
        }
        Ok(match (lt, rt) {
            (T::Matrix { .. }, T::Vector { .. }) => self.binary(Op::MatrixTimesVector, ty, l, r),
            (T::Vector { .. }, T::Matrix { .. }) => self.binary(Op::VectorTimesMatrix, ty, l, r),
            (T::Matrix { .. }, T::Matrix { .. }) => self.binary(Op::MatrixTimesMatrix, ty, l, r),
            (T::Matrix { .. }, T::Scalar(_)) => self.binary(Op::MatrixTimesScalar, ty, l, r),
            (T::Scalar(_), T::Matrix { .. }) => self.binary(Op::MatrixTimesScalar, ty, r, l),
            _ => return Err(Unsupported("matrix product")),
        })
    }

    fn math(
        &mut self,
        cx: Cx<'m>,
        ty: u32,
        fun: M,
        arg: Handle<E>,
        arg1: Option<Handle<E>>,
        arg2: Option<Handle<E>>,
    ) -> Result<u32> {
        let a = self.value(cx, arg)?;
        let inner = self.inner(cx, arg);
        if let (M::Transpose, TypeInner::Matrix { .. }) = (fun, inner) {
            return Ok(self.unary(Op::Transpose, ty, a));
        }
        let kind = inner.scalar_kind().ok_or(Unsupported("math operand"))?;
        let size = match *inner {
            TypeInner::Vector { size, .. } => Some(size),
            TypeInner::Scalar(_) => None,
            _ => return Err(Unsupported("math operand")),
        };
        let (float, sint, uint) = (kind == K::Float, kind == K::Sint, kind == K::Uint);
        let mut args = arrayvec::ArrayVec::<u32, 3>::new();
        args.push(a);
        for extra in [arg1, arg2].into_iter().flatten() {
            args.push(self.value(cx, extra)?);
        }
        let op = match fun {
            M::Abs if float => G::FAbs,
            M::Abs if sint => G::SAbs,
            M::Abs if uint => return Ok(self.unary(Op::CopyObject, ty, a)),
            M::Min if float => G::FMin,
            M::Min if sint => G::SMin,
            M::Min if uint => G::UMin,
            M::Max if float => G::FMax,
            M::Max if sint => G::SMax,
            M::Max if uint => G::UMax,
            M::Clamp if float => G::FClamp,
            M::Clamp if sint || uint => {
                // Integer clamp is max then min (WGSL; naga's writer), not a median of three.
                let (min, max) = if sint { (G::SMin, G::SMax) } else { (G::UMin, G::UMax) };
                let low = self.ext(max, ty, &args[..2]);
                return Ok(self.ext(min, ty, &[low, args[2]]));
            }
            M::Saturate if float => {
                let zero = self.literal(naga::Literal::F32(0.0))?;
                let one = self.literal(naga::Literal::F32(1.0))?;
                let zero = self.splat_constant(size, naga::Scalar::F32, zero)?;
                let one = self.splat_constant(size, naga::Scalar::F32, one)?;
                return Ok(self.ext(G::FClamp, ty, &[a, zero, one]));
            }
            M::Dot if float => return Ok(self.binary(Op::Dot, ty, a, args[1])),
            M::Mix if float => {
                let selector = arg2.ok_or(Unsupported("mix"))?;
                if let (Some(size), TypeInner::Scalar(s)) = (size, self.inner(cx, selector)) {
                    let vec = self.vector_type(size, *s)?;
                    let parts = [args[2]; 4];
                    args[2] = self.composite(vec, &parts[..size as usize]);
                }
                G::FMix
            }
            M::Sign if float => G::FSign,
            M::Sign if sint => G::SSign,
            _ if !float => return Err(Unsupported("integer math function")),
            _ => float_glsl_op(fun).ok_or(Unsupported("math function"))?,
        };
        Ok(self.ext(op, ty, &args))
    }

    /// naga's conversions: identities vanish, bools go through compares and selects, and a
    /// float becomes an integer only after a clamp to the range both types hold (WGSL 15.7.6).
    fn conversion(&mut self, cx: Cx<'m>, ty: u32, expr: Handle<E>, kind: K, convert: Option<u8>) -> Result<u32> {
        let v = self.value(cx, expr)?;
        let (src, size) = match *self.inner(cx, expr) {
            TypeInner::Scalar(s) => (s, None),
            TypeInner::Vector { scalar, size } => (scalar, Some(size)),
            _ => return Err(Unsupported("conversion operand")),
        };
        if convert.is_some_and(|w| w != 4 && kind != K::Bool) || (src.width != 4 && src.kind != K::Bool) {
            return Err(Unsupported("conversion width"));
        }
        if src.kind == kind {
            return Ok(v);
        }
        let Some(_) = convert else { return Ok(self.unary(Op::Bitcast, ty, v)) };
        match (src.kind, kind) {
            (_, K::Bool) => {
                let op = if src.kind == K::Float { Op::FUnordNotEqual } else { Op::INotEqual };
                let zero = self.literal(zero_of(src.kind)?)?;
                let zero = self.splat_constant(size, src, zero)?;
                Ok(self.binary(op, ty, v, zero))
            }
            (K::Bool, _) => {
                let dst = naga::Scalar { kind, width: 4 };
                let (zero, one) = (zero_of(kind)?, one_of(kind)?);
                let zero = self.literal(zero)?;
                let one = self.literal(one)?;
                let zero = self.splat_constant(size, dst, zero)?;
                let one = self.splat_constant(size, dst, one)?;
                Ok(self.ternary(Op::Select, ty, v, one, zero))
            }
            (K::Float, K::Sint | K::Uint) => {
                let dst = naga::Scalar { kind, width: 4 };
                let (min, max) = naga::proc::min_max_float_representable_by(src, dst);
                let min = self.literal(min)?;
                let max = self.literal(max)?;
                let min = self.splat_constant(size, src, min)?;
                let max = self.splat_constant(size, src, max)?;
                let src_ty = self.numeric_type(size, src)?;
                let clamped = self.ext(G::FClamp, src_ty, &[v, min, max]);
                let op = if kind == K::Sint { Op::ConvertFToS } else { Op::ConvertFToU };
                Ok(self.unary(op, ty, clamped))
            }
            (K::Sint, K::Float) => Ok(self.unary(Op::ConvertSToF, ty, v)),
            (K::Uint, K::Float) => Ok(self.unary(Op::ConvertUToF, ty, v)),
            _ => Ok(self.unary(Op::Bitcast, ty, v)),
        }
    }

    pub(super) fn unary(&mut self, op: Op, ty: u32, a: u32) -> u32 {
        let id = self.id();
        self.buf.fx.body.op(op, &[ty, id, a]);
        id
    }

    pub(super) fn binary(&mut self, op: Op, ty: u32, a: u32, b: u32) -> u32 {
        let id = self.id();
        self.buf.fx.body.op(op, &[ty, id, a, b]);
        id
    }

    fn ternary(&mut self, op: Op, ty: u32, a: u32, b: u32, c: u32) -> u32 {
        let id = self.id();
        self.buf.fx.body.op(op, &[ty, id, a, b, c]);
        id
    }

    pub(super) fn composite(&mut self, ty: u32, parts: &[u32]) -> u32 {
        let id = self.id();
        self.buf.fx.body.op_list(Op::CompositeConstruct, &[ty, id], parts);
        id
    }

    /// A `GLSL.std.450` instruction.
    fn ext(&mut self, op: G, ty: u32, args: &[u32]) -> u32 {
        let id = self.id();
        let start = self.buf.fx.body.begin(Op::ExtInst);
        for word in [ty, id, self.glsl, op as u32] {
            self.buf.fx.body.push(word);
        }
        for &a in args {
            self.buf.fx.body.push(a);
        }
        self.buf.fx.body.end(start);
        id
    }
}

fn zero_of(kind: K) -> Result<naga::Literal> {
    Ok(match kind {
        K::Float => naga::Literal::F32(0.0),
        K::Sint => naga::Literal::I32(0),
        K::Uint => naga::Literal::U32(0),
        _ => return Err(Unsupported("conversion kind")),
    })
}

fn one_of(kind: K) -> Result<naga::Literal> {
    Ok(match kind {
        K::Float => naga::Literal::F32(1.0),
        K::Sint => naga::Literal::I32(1),
        K::Uint => naga::Literal::U32(1),
        _ => return Err(Unsupported("conversion kind")),
    })
}

/// The derivative instruction of an axis and control.
fn derivative_op(axis: naga::DerivativeAxis, ctrl: naga::DerivativeControl) -> Op {
    use naga::{DerivativeAxis as A, DerivativeControl as C};
    match (axis, ctrl) {
        (A::X, C::None) => Op::DPdx,
        (A::X, C::Fine) => Op::DPdxFine,
        (A::X, C::Coarse) => Op::DPdxCoarse,
        (A::Y, C::None) => Op::DPdy,
        (A::Y, C::Fine) => Op::DPdyFine,
        (A::Y, C::Coarse) => Op::DPdyCoarse,
        (A::Width, C::None) => Op::Fwidth,
        (A::Width, C::Fine) => Op::FwidthFine,
        (A::Width, C::Coarse) => Op::FwidthCoarse,
    }
}

/// The GLSL.std.450 instruction of a math function that takes floats only, one to one.
fn float_glsl_op(fun: M) -> Option<G> {
    Some(match fun {
        M::Sin => G::Sin,
        M::Cos => G::Cos,
        M::Tan => G::Tan,
        M::Asin => G::Asin,
        M::Acos => G::Acos,
        M::Atan => G::Atan,
        M::Atan2 => G::Atan2,
        M::Radians => G::Radians,
        M::Degrees => G::Degrees,
        M::Ceil => G::Ceil,
        M::Floor => G::Floor,
        M::Round => G::RoundEven,
        M::Fract => G::Fract,
        M::Trunc => G::Trunc,
        M::Ldexp => G::Ldexp,
        M::Cross => G::Cross,
        M::Distance => G::Distance,
        M::Length => G::Length,
        M::Normalize => G::Normalize,
        M::FaceForward => G::FaceForward,
        M::Reflect => G::Reflect,
        M::Refract => G::Refract,
        M::Exp => G::Exp,
        M::Exp2 => G::Exp2,
        M::Log => G::Log,
        M::Log2 => G::Log2,
        M::Pow => G::Pow,
        M::Fma => G::Fma,
        M::Step => G::Step,
        M::SmoothStep => G::SmoothStep,
        M::Sqrt => G::Sqrt,
        M::InverseSqrt => G::InverseSqrt,
        _ => return None,
    })
}
