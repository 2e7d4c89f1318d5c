//! Constant registers: `c#` from one uniform buffer (two for software vertex processing),
//! `i#` and `b#` from uniform buffers or, `i0`–`i15` and `b0`–`b15`, from the key or overrides
//! as their delivery says ([`crate::key::delivery`]), `def`/`defi`/`defb` values baked in and
//! winning over the buffers, also through relative addressing.

use naga::{AddressSpace, BinaryOperator, Expression, GlobalVariable, Handle, ResourceBinding, Span};

use super::builder::{ScopedKey, SharedKey};
use super::parts::Width;
use super::state::{Expr, FloatConstantGlobals};
use super::types::Types;
use super::{FloatConstantsBinding, LowerError, Lowerer};
use crate::analysis::ConstantUse;
use crate::bytecode::RelAddr;
use crate::key::constants::DELIVERED;
use crate::key::delivery::Delivery;
use crate::key::state_block::{int_constant_override, BOOL_CONSTANTS_OVERRIDE};

/// Members of the render-state block, by index.
pub(crate) mod rs {
    pub const FOG_COLOR: u32 = 0;
    pub const FOG_START: u32 = 1;
    pub const FOG_END: u32 = 2;
    pub const FOG_DENSITY: u32 = 3;
    pub const ALPHA_REF: u32 = 4;
    pub const POINT_SIZE: u32 = 5;
    pub const POINT_SIZE_MIN: u32 = 6;
    pub const POINT_SIZE_MAX: u32 = 7;
    pub const CLIP_PLANES: u32 = 9;
    pub const BUMP_ENV: u32 = 10;
    pub const BUMP_LUMINANCE: u32 = 11;
    pub const PROJECTED: u32 = 12;
    pub const ALPHA_FUNC: u32 = 13;
    pub const FOG_MODE: u32 = 14;
    pub const FOG_SOURCE: u32 = 15;
    pub const CLIP_PLANE_MASK: u32 = 16;
    pub const UNBOUND_SAMPLERS: u32 = 17;
    pub const VIEWPORT_WIDTH: u32 = 18;
    pub const VIEWPORT_HEIGHT: u32 = 19;
}

impl Lowerer<'_> {
    fn buffer(
        &mut self,
        name: &str,
        ty: Handle<naga::Type>,
        binding: u32,
        space: AddressSpace,
    ) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.to_string()),
                space,
                binding: Some(ResourceBinding { group: self.layout.group, binding }),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    }

    /// Declares the buffers, render state and samplers the program and key need.
    pub fn declare_resources(&mut self) -> Result<(), LowerError> {
        let sig = self.sig;
        let fc = &sig.float_constants;
        let needs_float = fc.relative || fc.used.iter().any(|n| !fc.defined.contains_key(n));
        if needs_float {
            let uniform_count =
                if self.is_pixel() { super::PIXEL_FLOAT_CONSTANTS } else { super::VERTEX_FLOAT_CONSTANTS };
            // The 8192 registers of the `_sw` versions and software vertex processing exceed a
            // 64 KiB uniform binding, so they take two uniform arrays of 4096 — but only when a
            // read may reach past the usual array (relative addressing or a high index). Uniform
            // rather than storage buffers: every target has them in every stage, and a pixel
            // shader's helper lanes read them (lavapipe returns 0 to helper-lane storage loads,
            // which broke dsx/dsy of constants in ps_2_sw/ps_3_sw; fuzz-diff found it).
            let may_exceed = fc.relative || fc.used.iter().any(|&n| u32::from(n) >= uniform_count);
            let sw = (self.version.profile().software || (self.key.swvp && !self.is_pixel())) && may_exceed;
            let count = if sw { super::SW_FLOAT_CONSTANTS } else { uniform_count };
            let page = count.min(super::FLOAT_CONSTANTS_PAGE);
            let ty = Types::array(&mut self.module, self.t.vec4f, page, 16);
            let low = self.buffer("c", ty, super::FLOAT_CONSTANTS_BINDING, AddressSpace::Uniform);
            let high = (count > page).then(|| {
                let ty = Types::array(&mut self.module, self.t.vec4f, count - page, 16);
                self.buffer("c_high", ty, super::FLOAT_CONSTANTS_HIGH_BINDING, AddressSpace::Uniform)
            });
            self.consts.float = Some(FloatConstantGlobals { low, high, count });
            self.layout.float_constants = Some(FloatConstantsBinding {
                binding: super::FLOAT_CONSTANTS_BINDING,
                count,
                high_binding: high.map(|_| super::FLOAT_CONSTANTS_HIGH_BINDING),
            });
        }
        let ic = &sig.int_constants;
        let buffer = |c: &ConstantUse, d: Delivery| {
            c.used.iter().any(|&n| !c.defined.contains_key(&n) && (d == Delivery::Uniform || n >= DELIVERED))
        };
        let d = self.key.delivery;
        if buffer(ic, d.int_constants) {
            let count = self.int_bool_count();
            let ty = Types::array(&mut self.module, self.t.vec4i, count, 16);
            self.consts.int = Some(self.buffer("i", ty, super::INT_CONSTANTS_BINDING, AddressSpace::Uniform));
            self.layout.int_constants = Some(super::INT_CONSTANTS_BINDING);
        }
        if buffer(&sig.bool_constants, d.bool_constants) {
            let count = self.int_bool_count().div_ceil(4);
            let ty = Types::array(&mut self.module, self.t.vec4u, count, 16);
            self.consts.bool = Some(self.buffer("b", ty, super::BOOL_CONSTANTS_BINDING, AddressSpace::Uniform));
            self.layout.bool_constants = Some(super::BOOL_CONSTANTS_BINDING);
        }
        if self.needs_render_state() {
            let ty = self.render_state_type();
            self.consts.render_state =
                Some(self.buffer("render_state", ty, super::RENDER_STATE_BINDING, AddressSpace::Uniform));
            self.layout.render_state = Some(super::RENDER_STATE_BINDING);
        }
        self.declare_samplers()
    }

    /// `i#` and `b#` registers: the version's count (2048 each in the `_sw` versions), and at
    /// least the API's 16.
    fn int_bool_count(&self) -> u32 {
        u32::from(self.version.profile().registers.ints).max(super::INT_BOOL_CONSTANTS)
    }

    fn render_state_type(&mut self) -> Handle<naga::Type> {
        let planes = Types::array(&mut self.module, self.t.vec4f, 8, 16);
        let f = self.t.f32;
        let projected = Types::array(&mut self.module, self.t.vec4u, 2, 16);
        let u = self.module.types.insert(
            naga::Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::U32) },
            naga::Span::UNDEFINED,
        );
        let member =
            |name: &str, ty, offset| naga::StructMember { name: Some(name.to_string()), ty, binding: None, offset };
        let members = vec![
            member("fog_color", self.t.vec4f, 0),
            member("fog_start", f, 16),
            member("fog_end", f, 20),
            member("fog_density", f, 24),
            member("alpha_ref", f, 28),
            member("point_size", f, 32),
            member("point_size_min", f, 36),
            member("point_size_max", f, 40),
            member("pad", f, 44),
            member("clip_planes", planes, 48),
            member("bump_env", planes, 176),
            member("bump_luminance", planes, 304),
            member("projected", projected, 432),
        ];
        let mut members = members;
        for (i, name) in
            ["alpha_func", "fog_mode", "fog_source", "clip_plane_mask", "unbound_samplers"].iter().enumerate()
        {
            members.push(member(name, u, 464 + 4 * i as u32));
        }
        members.push(member("viewport_width", f, 484));
        members.push(member("viewport_height", f, 488));
        Types::structure(&mut self.module, "RenderState", members, super::RENDER_STATE_SIZE)
    }

    /// Loads render-state member `index` (see [`rs`]).
    pub fn render_state(&mut self, index: u32) -> Result<Expr, LowerError> {
        let g = self.consts.render_state.ok_or_else(|| self.invalid("render state not declared"))?;
        let base = self.fb.shared(SharedKey::Global(g));
        let p = self.fb.expr(Expression::AccessIndex { base, index });
        Ok(self.load(p))
    }

    /// `c#` (with `c[a0.x + n]`/`c[aL + n]`) as `vec4<f32>`; ps_1_x clamps to [−1, 1].
    pub fn read_float_constant(&mut self, num: u16, rel: Option<RelAddr>) -> Result<Expr, LowerError> {
        let v = self.read_float_constant_raw(num, rel)?;
        if !self.version.profile().ps_1_x {
            return Ok(v);
        }
        let lo = self.splat(-1.0);
        let hi = self.splat(1.0);
        Ok(self.fb.expr(Expression::Math {
            fun: naga::MathFunction::Clamp,
            arg: v,
            arg1: Some(lo),
            arg2: Some(hi),
            arg3: None,
        }))
    }

    /// The value of `def c<num>`: a load from the private array of def bit patterns, bitcast.
    /// A runtime value on purpose: as WGSL constants, arithmetic on them would be evaluated by
    /// the WGSL front end, which rejects results that overflow (D3D9 computes inf). The value
    /// stays known to the lowering for the multiply rule.
    fn def_value(&mut self, num: u16) -> Result<Expr, LowerError> {
        let key = ScopedKey::Def(num);
        if let Some(v) = self.fb.scoped(key) {
            return Ok(v);
        }
        let sig = self.sig;
        let defined = &sig.float_constants.defined;
        let index =
            defined.keys().position(|&k| k == num).ok_or_else(|| self.invalid(format!("c{num} is not defined")))?;
        let bits = defined[&num];
        let g = match self.consts.defs {
            Some(g) => g,
            None => {
                let ge = &mut self.module.global_expressions;
                let mut rows = Vec::new();
                for v in defined.values() {
                    let comps: Vec<Expr> = v
                        .iter()
                        .map(|&b| ge.append(Expression::Literal(naga::Literal::U32(b)), Span::UNDEFINED))
                        .collect();
                    rows.push(ge.append(Expression::Compose { ty: self.t.vec4u, components: comps }, Span::UNDEFINED));
                }
                let ty = Types::array(&mut self.module, self.t.vec4u, defined.len() as u32, 16);
                let init = self
                    .module
                    .global_expressions
                    .append(Expression::Compose { ty, components: rows }, Span::UNDEFINED);
                let g = self.private_variable("defs", ty, init);
                self.consts.defs = Some(g);
                g
            }
        };
        let base = self.fb.shared(SharedKey::Global(g));
        let p = self.fb.expr(Expression::AccessIndex { base, index: index as u32 });
        let u = self.load(p);
        let v = self.fb.expr(Expression::As { expr: u, kind: naga::ScalarKind::Float, convert: None });
        self.fb.tables.known.insert(v, bits);
        self.fb.remember_scoped(key, v);
        Ok(v)
    }

    fn read_float_constant_raw(&mut self, num: u16, rel: Option<RelAddr>) -> Result<Expr, LowerError> {
        let sig = self.sig;
        let defined = &sig.float_constants.defined;
        let Some(rel) = rel else {
            if defined.contains_key(&num) {
                return self.def_value(num);
            }
            let Some(f) = self.consts.float else { return Ok(self.runtime_zero(Width::Vec4)) };
            let n = u32::from(num);
            if n >= f.count {
                return Ok(self.runtime_zero(Width::Vec4));
            }
            if let Some(v) = self.fb.scoped(ScopedKey::Constant(n)) {
                return Ok(v);
            }
            let (g, index) = match f.high {
                Some(high) if n >= super::FLOAT_CONSTANTS_PAGE => (high, n - super::FLOAT_CONSTANTS_PAGE),
                _ => (f.low, n),
            };
            let base = self.fb.shared(SharedKey::Global(g));
            let p = self.fb.expr(Expression::AccessIndex { base, index });
            let v = self.load(p);
            self.note_constant_range(v);
            self.fb.remember_scoped(ScopedKey::Constant(n), v);
            return Ok(v);
        };
        let idx = self.rel_index(rel, num)?;
        // Skinning shaders fetch each bone row several times through one `a0`.
        let key = ScopedKey::Relative(idx);
        if let Some(v) = self.fb.scoped(key) {
            return Ok(v);
        }
        let mut value = match self.consts.float {
            Some(f) => self.read_float_constant_relative(f, idx),
            None => self.runtime_zero(Width::Vec4),
        };
        if self.consts.float.is_some() {
            self.note_constant_range(value);
        }
        // def constants win over the buffer even when reached relatively.
        for &n in sig.float_constants.defined.keys() {
            let lit = self.fb.shared(SharedKey::I32(i32::from(n)));
            let hit = self.bin(BinaryOperator::Equal, idx, lit);
            let d = self.def_value(n)?;
            value = self.fb.expr(Expression::Select { condition: hit, accept: d, reject: value });
        }
        self.fb.remember_scoped(key, value);
        Ok(value)
    }

    /// An application constant's value is finite where the key says every one is
    /// ([`ShaderKey::finite_constants`], docs/d3d9-rules.md#zero-product).
    ///
    /// [`ShaderKey::finite_constants`]: crate::ShaderKey::finite_constants
    fn note_constant_range(&mut self, v: Expr) {
        if self.key.finite_constants {
            self.note_range(v, [super::interval::Interval::FINITE; 4]);
        }
    }

    /// `c[idx]` from the buffers, 0 outside `0..count`.
    fn read_float_constant_relative(&mut self, f: FloatConstantGlobals, idx: Expr) -> Expr {
        let (mut ok, low_index) = self.checked_index(idx, f.count.min(super::FLOAT_CONSTANTS_PAGE));
        let base = self.fb.shared(SharedKey::Global(f.low));
        let p = self.fb.expr(Expression::Access { base, index: low_index });
        let mut v = self.load(p);
        if let Some(high) = f.high {
            // Both arrays are read (uniform loads are cheap) and the index picks one.
            let page = self.fb.shared(SharedKey::I32(super::FLOAT_CONSTANTS_PAGE as i32));
            let rebased = self.bin(BinaryOperator::Subtract, idx, page);
            let (in_high, high_index) = self.checked_index(rebased, f.count - super::FLOAT_CONSTANTS_PAGE);
            let base = self.fb.shared(SharedKey::Global(high));
            let p = self.fb.expr(Expression::Access { base, index: high_index });
            let hv = self.load(p);
            v = self.fb.expr(Expression::Select { condition: in_high, accept: hv, reject: v });
            ok = self.bin(BinaryOperator::LogicalOr, ok, in_high);
        }
        let zero = self.splat(0.0);
        self.fb.expr(Expression::Select { condition: ok, accept: v, reject: zero })
    }

    /// `i#` as `vec4<i32>`.
    pub fn read_int_constant(&mut self, num: u16) -> Result<Expr, LowerError> {
        if let Some(v) = self.sig.int_constants.defined.get(&num) {
            let comps: Vec<Expr> = v.iter().map(|&x| self.fb.shared(SharedKey::I32(x as i32))).collect();
            return Ok(self.fb.expr(Expression::Compose { ty: self.t.vec4i, components: comps }));
        }
        if let Some(v) = self.delivered_int_constant(num) {
            return Ok(v);
        }
        let (Some(g), true) = (self.consts.int, u32::from(num) < self.int_bool_count()) else {
            return Err(self.invalid(format!("i{num} does not exist")));
        };
        let base = self.fb.shared(SharedKey::Global(g));
        let p = self.fb.expr(Expression::AccessIndex { base, index: u32::from(num) });
        Ok(self.load(p))
    }

    /// `b#` as `bool`.
    pub fn read_bool_constant(&mut self, num: u16) -> Result<Expr, LowerError> {
        if let Some(v) = self.sig.bool_constants.defined.get(&num) {
            return Ok(self.fb.shared(SharedKey::Bool(v[0] != 0)));
        }
        if let Some(v) = self.delivered_bool_constant(num) {
            return Ok(v);
        }
        let (Some(g), true) = (self.consts.bool, u32::from(num) < self.int_bool_count()) else {
            return Err(self.invalid(format!("b{num} does not exist")));
        };
        let base = self.fb.shared(SharedKey::Global(g));
        let p = self.fb.expr(Expression::AccessIndex { base, index: u32::from(num / 4) });
        let p = self.fb.expr(Expression::AccessIndex { base: p, index: u32::from(num % 4) });
        let v = self.load(p);
        let zero = self.fb.shared(SharedKey::U32(0));
        Ok(self.bin(BinaryOperator::NotEqual, v, zero))
    }

    /// `i num` under baked delivery (the key's values, as a `defi` would give them) or override
    /// delivery (one `i32` override per component; names in [`crate::key::delivery`]); `None`
    /// under uniform delivery and past `i15`.
    fn delivered_int_constant(&mut self, num: u16) -> Option<Expr> {
        let n = usize::from(num);
        let comps: Vec<Expr> = match self.key.delivery.int_constants {
            _ if num >= DELIVERED => return None,
            Delivery::Uniform => return None,
            Delivery::Baked => self.key.int_constants[n].iter().map(|&x| self.fb.shared(SharedKey::I32(x))).collect(),
            Delivery::Override => {
                (0..4).map(|c| self.named_override(int_constant_override(n, c), naga::Literal::I32(0))).collect()
            }
        };
        Some(self.fb.expr(Expression::Compose { ty: self.t.vec4i, components: comps }))
    }

    /// `b num` under baked delivery (a literal: `if b#` folds) or override delivery (a bit of
    /// the `u32` mask override); `None` under uniform delivery and past `b15`.
    fn delivered_bool_constant(&mut self, num: u16) -> Option<Expr> {
        match self.key.delivery.bool_constants {
            _ if num >= DELIVERED => None,
            Delivery::Uniform => None,
            Delivery::Baked => Some(self.fb.shared(SharedKey::Bool(self.key.bool_constants & (1 << num) != 0))),
            Delivery::Override => {
                let mask = self.named_override(BOOL_CONSTANTS_OVERRIDE.to_string(), naga::Literal::U32(0));
                Some(self.bit_set(mask, 1 << num))
            }
        }
    }
}
