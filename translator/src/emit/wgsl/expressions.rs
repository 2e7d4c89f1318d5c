//! Expressions. A `let` (baked) expression is its name; any other is written out where it is
//! used, in the forms naga's writer uses (a binary operation in parentheses, a unary operator
//! before a parenthesised operand, `select(reject, accept, condition)`, ...).

use naga::common::wgsl::TryToWgsl as _;
use naga::{Arena, Expression, Handle, Literal, SampleLevel, TypeInner};

use super::text::{push_baked, push_f32, push_i32_literal, push_u32};
use super::types::{scalar_str, vec_str, vector_str};
use super::{type_of, Cx, Unsupported, Writer};

type Expr = Handle<Expression>;

/// What a pointer-valued expression is written as. WGSL has references (a variable's name, what
/// an assignment's left side and a load take) and pointers (`&x`); naga has pointers only.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Indirection {
    /// A value, or a pointer as a WGSL pointer.
    Ordinary,
    /// A pointer as a WGSL reference (the left side of `=`, the operand of a load).
    Reference,
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Writer<'_> {
    /// The value of `h`.
    pub(super) fn write_expr(&mut self, cx: &Cx, h: Expr) -> Result<(), Unsupported> {
        // The common case (a value wanted, and the expression a `let`, a literal or a value
        // expression) without the indirection checks: a module writes thousands of operands.
        if self.baked[h.index()] {
            push_baked(&mut self.out, h.index());
            return Ok(());
        }
        match cx.f.expressions[h] {
            Expression::Literal(l) => self.write_literal(l),
            Expression::Access { .. }
            | Expression::AccessIndex { .. }
            | Expression::LocalVariable(_)
            | Expression::GlobalVariable(_) => self.write_expr_as(cx, h, Indirection::Ordinary),
            _ => self.write_plain(cx, h),
        }
    }

    /// `h` as `wanted`, adding `&` or `*` where its plain form is the other kind: variables
    /// (not handles: textures and samplers are values) and accesses into them are references
    /// when written plainly; everything else, `let`s included, is a value (accesses, the only
    /// pointers a function makes, are never baked).
    pub(super) fn write_expr_as(&mut self, cx: &Cx, h: Expr, wanted: Indirection) -> Result<(), Unsupported> {
        if self.baked[h.index()] {
            return self.wrapped(wanted, Indirection::Ordinary, |w| {
                push_baked(&mut w.out, h.index());
                Ok(())
            });
        }
        match cx.f.expressions[h] {
            // The most common operands, first and without the indirection check.
            Expression::Literal(l) if wanted == Indirection::Ordinary => self.write_literal(l),
            Expression::Access { base, index } => self.write_access(cx, base, Err(index), wanted),
            Expression::AccessIndex { base, index } => self.write_access(cx, base, Ok(index), wanted),
            Expression::LocalVariable(l) => self.wrapped(wanted, Indirection::Reference, |w| {
                w.push_name(cx.names.locals[l.index()]);
                Ok(())
            }),
            Expression::GlobalVariable(g) => {
                let plain = match self.module.global_variables[g].space {
                    naga::AddressSpace::Handle => Indirection::Ordinary,
                    _ => Indirection::Reference,
                };
                self.wrapped(wanted, plain, |w| {
                    w.push_name(w.names.globals[g.index()]);
                    Ok(())
                })
            }
            _ => self.wrapped(wanted, Indirection::Ordinary, |w| w.write_plain(cx, h)),
        }
    }

    /// `write` wrapped in `(&...)` or `(*...)` when its form `plain` is not the one `wanted`.
    fn wrapped(
        &mut self,
        wanted: Indirection,
        plain: Indirection,
        write: impl FnOnce(&mut Self) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        if wanted == plain {
            return write(self);
        }
        self.out.push_str(if wanted == Indirection::Ordinary { "(&" } else { "(*" });
        write(self)?;
        self.out.push(')');
        Ok(())
    }

    /// `base[index]` (`Err`: a run-time index) or `base.x`, `base.member`, `base[2]` (`Ok`: a
    /// constant one). The base's type, looked up once, says both the form and whether the
    /// access is a reference (into a variable) or a value.
    fn write_access(
        &mut self,
        cx: &Cx,
        base: Expr,
        index: Result<u32, Expr>,
        wanted: Indirection,
    ) -> Result<(), Unsupported> {
        let resolution = cx.fi.ty(base);
        let (inner, handle, plain) = match *resolution.inner_with(&self.module.types) {
            TypeInner::Pointer { base, .. } => (&self.module.types[base].inner, Some(base), Indirection::Reference),
            ref other @ TypeInner::ValuePointer { .. } => (other, None, Indirection::Reference),
            ref other => (other, resolution.handle(), Indirection::Ordinary),
        };
        self.wrapped(wanted, plain, |w| {
            w.write_expr_as(cx, base, plain)?;
            match index {
                Err(i) => {
                    w.out.push('[');
                    w.write_expr(cx, i)?;
                    w.out.push(']');
                    Ok(())
                }
                Ok(i) => w.write_index_suffix(inner, handle, i),
            }
        })
    }

    /// `.x` of a vector, `.name` of a struct, `[i]` of anything else.
    fn write_index_suffix(
        &mut self,
        inner: &TypeInner,
        handle: Option<naga::Handle<naga::Type>>,
        index: u32,
    ) -> Result<(), Unsupported> {
        match *inner {
            TypeInner::Vector { .. } => {
                self.out.push('.');
                self.out.push(COMPONENTS[index as usize]);
            }
            TypeInner::Matrix { .. } | TypeInner::Array { .. } | TypeInner::ValuePointer { .. } => {
                self.out.push('[');
                push_u32(&mut self.out, index);
                self.out.push(']');
            }
            TypeInner::Struct { .. } => {
                let ty = handle.ok_or(Unsupported("a struct known by value"))?;
                self.out.push('.');
                let member = self.names.members[self.names.member_start[ty.index()] as usize + index as usize];
                self.push_name(member);
            }
            _ => return Err(Unsupported("an index into this type")),
        }
        Ok(())
    }

    /// The value expression `h` (not baked, not a variable or an access) written out.
    fn write_plain(&mut self, cx: &Cx, h: Expr) -> Result<(), Unsupported> {
        match cx.f.expressions[h] {
            Expression::Literal(l) => self.write_literal(l)?,
            Expression::Constant(_)
            | Expression::ZeroValue(_)
            | Expression::Compose { .. }
            | Expression::Splat { .. }
            | Expression::Override(_) => self.write_constructor(Some(cx), &cx.f.expressions, h)?,
            Expression::FunctionArgument(i) => self.push_name(cx.names.arguments[i as usize]),
            Expression::Load { pointer } => self.write_load(cx, pointer)?,
            Expression::Binary { op, left, right } => {
                self.out.push('(');
                self.write_expr(cx, left)?;
                self.out.push(' ');
                self.out.push_str(naga::back::binary_operation_str(op));
                self.out.push(' ');
                self.write_expr(cx, right)?;
                self.out.push(')');
            }
            Expression::Unary { op, expr } => {
                self.out.push_str(match op {
                    naga::UnaryOperator::Negate => "-(",
                    naga::UnaryOperator::LogicalNot => "!(",
                    naga::UnaryOperator::BitwiseNot => "~(",
                });
                self.write_expr(cx, expr)?;
                self.out.push(')');
            }
            Expression::Swizzle { size, vector, pattern } => {
                self.write_expr(cx, vector)?;
                self.out.push('.');
                for &c in &pattern[..size as usize] {
                    self.out.push(COMPONENTS[c as usize]);
                }
            }
            Expression::Select { condition, accept, reject } => {
                self.call("select(", &[reject, accept, condition], cx)?;
            }
            Expression::As { expr, kind, convert } => self.write_as(cx, expr, kind, convert)?,
            Expression::Math { fun, arg, arg1, arg2, arg3 } => {
                self.out.push_str(fun.try_to_wgsl().ok_or(Unsupported("a math function WGSL lacks"))?);
                self.out.push('(');
                self.write_expr(cx, arg)?;
                for a in [arg1, arg2, arg3].into_iter().flatten() {
                    self.out.push_str(", ");
                    self.write_expr(cx, a)?;
                }
                self.out.push(')');
            }
            Expression::Relational { fun, argument } => {
                let name = match fun {
                    naga::RelationalFunction::All => "all(",
                    naga::RelationalFunction::Any => "any(",
                    _ => return Err(Unsupported("isNan/isInf")),
                };
                self.call(name, &[argument], cx)?;
            }
            Expression::Derivative { axis, ctrl, expr } => self.call(derivative_name(axis, ctrl), &[expr], cx)?,
            Expression::ImageSample { .. } => self.write_sample(cx, h)?,
            Expression::ImageQuery { image, query } => self.write_image_query(cx, image, query)?,
            Expression::ImageLoad { image, coordinate, array_index, sample, level } => {
                let index = sample.or(level);
                let args = [Some(image), Some(coordinate), array_index, index];
                self.out.push_str("textureLoad(");
                self.write_args(cx, args.iter().flatten().copied())?;
                self.out.push(')');
            }
            // A call's result is named by its statement, before any use.
            _ => return Err(Unsupported("an expression outside the translator's set")),
        }
        Ok(())
    }

    /// `name` (ending in `(`), the arguments separated by commas, `)`.
    fn call(&mut self, name: &str, args: &[Expr], cx: &Cx) -> Result<(), Unsupported> {
        self.out.push_str(name);
        self.write_args(cx, args.iter().copied())?;
        self.out.push(')');
        Ok(())
    }

    fn write_args(&mut self, cx: &Cx, args: impl Iterator<Item = Expr>) -> Result<(), Unsupported> {
        for (i, a) in args.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_expr(cx, a)?;
        }
        Ok(())
    }

    /// A load is its pointer as a reference (WGSL's load rule reads it).
    fn write_load(&mut self, cx: &Cx, pointer: Expr) -> Result<(), Unsupported> {
        if let TypeInner::Pointer { base, .. } = *type_of(self.module, cx, pointer) {
            if matches!(self.module.types[base].inner, TypeInner::Atomic(_)) {
                return Err(Unsupported("an atomic load"));
            }
        }
        self.write_expr_as(cx, pointer, Indirection::Reference)
    }

    /// A conversion (`f32(x)`, `vec4<i32>(v)`) or a bitcast (`bitcast<vec4<f32>>(v)`).
    fn write_as(
        &mut self,
        cx: &Cx,
        expr: Expr,
        kind: naga::ScalarKind,
        convert: Option<u8>,
    ) -> Result<(), Unsupported> {
        let prefix = if convert.is_some() { "" } else { "bitcast<" };
        match *type_of(self.module, cx, expr) {
            TypeInner::Vector { size, scalar } => {
                let to = vector_str(size, naga::Scalar { kind, width: convert.unwrap_or(scalar.width) })?;
                self.out.push_str(prefix);
                self.out.push_str(to);
            }
            TypeInner::Scalar(scalar) => {
                let to = scalar_str(naga::Scalar { kind, width: convert.unwrap_or(scalar.width) })?;
                self.out.push_str(prefix);
                self.out.push_str(to);
            }
            _ => return Err(Unsupported("a matrix conversion")),
        }
        if convert.is_none() {
            self.out.push('>');
        }
        self.out.push('(');
        self.write_expr(cx, expr)?;
        self.out.push(')');
        Ok(())
    }

    /// `textureDimensions(t[, level])` and the other queries.
    fn write_image_query(&mut self, cx: &Cx, image: Expr, query: naga::ImageQuery) -> Result<(), Unsupported> {
        let (name, level) = match query {
            naga::ImageQuery::Size { level } => ("textureDimensions(", level),
            naga::ImageQuery::NumLevels => ("textureNumLevels(", None),
            naga::ImageQuery::NumLayers => ("textureNumLayers(", None),
            naga::ImageQuery::NumSamples => ("textureNumSamples(", None),
        };
        self.out.push_str(name);
        self.write_args(cx, [Some(image), level].into_iter().flatten())?;
        self.out.push(')');
        Ok(())
    }

    /// `textureSample[Compare][Level|Bias|Grad|BaseClampToEdge](...)` and `textureGather`.
    fn write_sample(&mut self, cx: &Cx, h: Expr) -> Result<(), Unsupported> {
        let Expression::ImageSample {
            image,
            sampler,
            gather,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            clamp_to_edge,
        } = cx.f.expressions[h]
        else {
            return Err(Unsupported("not a sample"));
        };
        let compare = if depth_ref.is_some() { "Compare" } else { "" };
        if let Some(component) = gather {
            self.out.push_str("textureGather");
            self.out.push_str(compare);
            self.out.push('(');
            // A depth texture's gather has no component argument.
            if !matches!(
                *type_of(self.module, cx, image),
                TypeInner::Image { class: naga::ImageClass::Depth { .. }, .. }
            ) {
                push_u32(&mut self.out, component as u32);
                self.out.push_str(", ");
            }
        } else {
            self.out.push_str("textureSample");
            self.out.push_str(compare);
            self.out.push_str(match level {
                SampleLevel::Auto => "",
                SampleLevel::Zero if clamp_to_edge => "BaseClampToEdge",
                SampleLevel::Zero | SampleLevel::Exact(_) => "Level",
                SampleLevel::Bias(_) => "Bias",
                SampleLevel::Gradient { .. } => "Grad",
            });
            self.out.push('(');
        }
        self.write_args(
            cx,
            [Some(image), Some(sampler), Some(coordinate), array_index, depth_ref].into_iter().flatten(),
        )?;
        if gather.is_none() {
            self.write_sample_level(cx, level, depth_ref.is_some() || clamp_to_edge)?;
        }
        if let Some(offset) = offset {
            self.out.push_str(", ");
            self.write_constructor(None, &cx.f.expressions, offset)?;
        }
        self.out.push(')');
        Ok(())
    }

    /// The level arguments; level zero is `0.0` (naga's text) unless the function implies it.
    fn write_sample_level(&mut self, cx: &Cx, level: SampleLevel, zero_implied: bool) -> Result<(), Unsupported> {
        match level {
            SampleLevel::Auto => {}
            SampleLevel::Zero => {
                if !zero_implied {
                    self.out.push_str(", 0.0");
                }
            }
            SampleLevel::Exact(e) | SampleLevel::Bias(e) => {
                self.out.push_str(", ");
                self.write_expr(cx, e)?;
            }
            SampleLevel::Gradient { x, y } => {
                self.out.push_str(", ");
                self.write_args(cx, [x, y].into_iter())?;
            }
        }
        Ok(())
    }

    /// A constant expression of `arena` (the module's global expressions for initialisers).
    pub(super) fn write_const(&mut self, arena: &Arena<Expression>, h: Expr) -> Result<(), Unsupported> {
        self.write_constructor(None, arena, h)
    }

    /// Literals, constants, zero values, composes, splats and overrides: the expressions that
    /// can be constant. With `cx`, operands are the function's own expressions (which may be
    /// `let`s); without, every operand is itself constant.
    fn write_constructor(&mut self, cx: Option<&Cx>, arena: &Arena<Expression>, h: Expr) -> Result<(), Unsupported> {
        match arena[h] {
            Expression::Literal(l) => self.write_literal(l)?,
            Expression::Constant(c) => {
                let constant = &self.module.constants[c];
                if constant.name.is_some() {
                    self.push_name(self.names.constants[c.index()]);
                } else {
                    let module = self.module;
                    self.write_const(&module.global_expressions, constant.init)?;
                }
            }
            Expression::ZeroValue(ty) => {
                self.write_type(ty)?;
                self.out.push_str("()");
            }
            Expression::Compose { ty, ref components } => {
                self.write_type(ty)?;
                self.out.push('(');
                for (i, &c) in components.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_operand(cx, arena, c)?;
                }
                self.out.push(')');
            }
            Expression::Splat { size, value } => {
                self.out.push_str(vec_str(size));
                self.out.push('(');
                self.write_operand(cx, arena, value)?;
                self.out.push(')');
            }
            Expression::Override(o) => self.push_name(self.names.overrides[o.index()]),
            _ => return Err(Unsupported("a non-constant initialiser")),
        }
        Ok(())
    }

    fn write_operand(&mut self, cx: Option<&Cx>, arena: &Arena<Expression>, h: Expr) -> Result<(), Unsupported> {
        match cx {
            Some(cx) => self.write_expr(cx, h),
            None => self.write_constructor(None, arena, h),
        }
    }

    /// naga's literal text: `0.5f`, `1i`, `1u`, `true` (docs/wgsl.md §1).
    #[inline]
    fn write_literal(&mut self, l: Literal) -> Result<(), Unsupported> {
        match l {
            Literal::F32(v) => push_f32(&mut self.out, v),
            Literal::I32(v) => push_i32_literal(&mut self.out, v),
            Literal::U32(v) => {
                push_u32(&mut self.out, v);
                self.out.push('u');
            }
            Literal::Bool(v) => self.out.push_str(if v { "true" } else { "false" }),
            _ => return Err(Unsupported("a literal other than f32, i32, u32 and bool")),
        }
        Ok(())
    }
}

fn derivative_name(axis: naga::DerivativeAxis, ctrl: naga::DerivativeControl) -> &'static str {
    use naga::{DerivativeAxis as A, DerivativeControl as C};
    match (axis, ctrl) {
        (A::X, C::None) => "dpdx(",
        (A::X, C::Coarse) => "dpdxCoarse(",
        (A::X, C::Fine) => "dpdxFine(",
        (A::Y, C::None) => "dpdy(",
        (A::Y, C::Coarse) => "dpdyCoarse(",
        (A::Y, C::Fine) => "dpdyFine(",
        (A::Width, C::None) => "fwidth(",
        (A::Width, C::Coarse) => "fwidthCoarse(",
        (A::Width, C::Fine) => "fwidthFine(",
    }
}
