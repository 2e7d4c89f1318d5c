//! Samplers and texture instructions: texld/texldp/texldb/texldl/texldd on 2D, cube and volume
//! textures, shadow (depth-compare) samplers from the key, Fetch4 samplers gathering four texels
//! (docs/d3d9-rules.md#fetch4), unbound samplers reading (0, 0, 0, 1),
//! and texkill as a deferred kill (the pixel keeps running, so derivatives of its neighbours stay
//! valid — demote semantics on every backend).

use naga::{
    AddressSpace, BinaryOperator as B, Expression, GlobalVariable, Handle, ImageClass, ImageDimension, ResourceBinding,
    SampleLevel, Span, SwizzleComponent as C, Type, TypeInner, VectorSize,
};

use super::builder::SharedKey;
use super::operands::Op;
use super::parts::Width;
use super::state::{Expr, SamplerGlobals};
use super::{LowerError, Lowerer, TextureBinding};
use crate::bytecode::{Opcode, RegisterType, TexldVariant, TextureType};

/// How the level of detail is chosen.
pub(crate) enum Level {
    Auto,
    Bias,
    Lod,
    Grad(Expr, Expr),
}

impl Lowerer<'_> {
    fn handle_global(&mut self, name: String, ty: Handle<Type>, binding: u32) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name),
                space: AddressSpace::Handle,
                binding: Some(ResourceBinding { group: self.layout.group, binding }),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    }

    /// Declares the texture and sampler of every sampler the program names.
    pub fn declare_samplers(&mut self) -> Result<(), LowerError> {
        let sig = self.sig;
        for s in &sig.samplers {
            let n = s.index;
            if n >= 16 {
                return Err(self.invalid(format!("s{n} does not exist")));
            }
            if self.key.unbound_samplers & (1 << n) != 0 && !self.dynamic(super::render_state::Mode::UnboundSamplers) {
                self.samplers.insert(n, SamplerGlobals::Unbound);
                continue;
            }
            let ty = self.key.sampler_type(n as usize, s.texture_type);
            let shadow = self.key.shadow_samplers & (1 << n) != 0 && ty != TextureType::Volume;
            let dim = match ty {
                TextureType::Cube => ImageDimension::Cube,
                TextureType::Volume => ImageDimension::D3,
                _ => ImageDimension::D2,
            };
            let class = if shadow {
                ImageClass::Depth { multi: false }
            } else {
                ImageClass::Sampled { kind: naga::ScalarKind::Float, multi: false }
            };
            let image_ty = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Image { dim, arrayed: false, class } }, Span::UNDEFINED);
            let sampler_ty = self
                .module
                .types
                .insert(Type { name: None, inner: TypeInner::Sampler { comparison: shadow } }, Span::UNDEFINED);
            let tb = super::texture_binding(u32::from(n));
            let sb = super::sampler_binding(u32::from(n));
            let texture = self.handle_global(format!("t{n}"), image_ty, tb);
            let sampler = self.handle_global(format!("s{n}"), sampler_ty, sb);
            let fetch4 =
                self.is_pixel() && self.key.fetch4_samplers & (1 << n) != 0 && ty == TextureType::Tex2D && !shadow;
            self.samplers.insert(n, SamplerGlobals::Bound { texture, sampler, ty, shadow, fetch4 });
            self.layout.textures.push(TextureBinding {
                sampler: n,
                texture_binding: tb,
                sampler_binding: sb,
                texture_type: ty,
                shadow,
            });
        }
        Ok(())
    }

    /// The components of its coordinates that [`Lowerer::sample`] reads from sampler `n`: x
    /// and y (and z of a cube or volume texture), the depth reference of a shadow sampler (z,
    /// w for a cube), and w with `w` (the divisor, bias or level). Every one for a sampler
    /// without a texture, which reads none.
    fn coordinate_lanes(&self, n: Option<u16>, w: bool) -> crate::bytecode::WriteMask {
        let Some(&SamplerGlobals::Bound { ty, shadow, .. }) = n.and_then(|n| self.samplers.get(&n)) else {
            return crate::bytecode::WriteMask::ALL;
        };
        let volume = matches!(ty, TextureType::Cube | TextureType::Volume);
        let mut lanes = if volume { 0b0111 } else { 0b0011 };
        if shadow {
            lanes |= if ty == TextureType::Cube { 0b1000 } else { 0b0100 };
        }
        if w {
            lanes |= 0b1000;
        }
        crate::bytecode::WriteMask(lanes)
    }

    /// Samples sampler `n` at `coords` (a `vec4`: the coordinates, with bias or level in w).
    pub(crate) fn sample(
        &mut self,
        n: Option<u16>,
        coords: Expr,
        level: Level,
        project: bool,
    ) -> Result<Expr, LowerError> {
        let globals = match n {
            Some(n) => *self.samplers.get(&n).ok_or_else(|| self.invalid(format!("s{n} is not declared")))?,
            None => SamplerGlobals::Unbound,
        };
        let SamplerGlobals::Bound { texture, sampler, ty, shadow, fetch4 } = globals else {
            // (0, 0, 0, 1) as a load, not a constant vector: an ieee `rcp` of its x would
            // otherwise be a WGSL constant expression evaluating to inf, which browsers refuse
            // (docs/wgsl.md).
            return Ok(self.special(&[0, 0, 0, 1.0f32.to_bits()]));
        };
        let coords = if project {
            let w = self.component(coords, 3);
            let ws = self.splat_expr(w);
            self.bin(B::Divide, coords, ws)
        } else {
            coords
        };
        let (size, pattern) = match ty {
            TextureType::Cube | TextureType::Volume => (VectorSize::Tri, [C::X, C::Y, C::Z, C::W]),
            _ => (VectorSize::Bi, [C::X, C::Y, C::Z, C::W]),
        };
        let coordinate = self.fb.expr(Expression::Swizzle { size, vector: coords, pattern });
        if fetch4 {
            let v = self.fetch4(texture, sampler, coordinate);
            self.note_texel_range(n, v, false);
            return match n {
                Some(n) => self.dynamic_unbound(n, v),
                None => Ok(v),
            };
        }
        let vertex = !self.is_pixel();
        let level = match level {
            Level::Auto if vertex => SampleLevel::Zero,
            Level::Auto => SampleLevel::Auto,
            Level::Bias if vertex || shadow => SampleLevel::Zero,
            Level::Bias => SampleLevel::Bias(self.component(coords, 3)),
            Level::Lod if shadow => SampleLevel::Zero,
            Level::Lod => SampleLevel::Exact(self.component(coords, 3)),
            Level::Grad(..) if shadow || vertex => SampleLevel::Zero,
            Level::Grad(x, y) => {
                let x = self.fb.expr(Expression::Swizzle { size, vector: x, pattern });
                let y = self.fb.expr(Expression::Swizzle { size, vector: y, pattern });
                SampleLevel::Gradient { x, y }
            }
        };
        let level = match level {
            SampleLevel::Auto if shadow && vertex => SampleLevel::Zero,
            l => l,
        };
        let depth_ref = shadow.then(|| self.component(coords, if ty == TextureType::Cube { 3 } else { 2 }));
        let image = self.fb.shared(SharedKey::Global(texture));
        let sampler = self.fb.shared(SharedKey::Global(sampler));
        let v = self.fb.expr(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate,
            array_index: None,
            offset: None,
            level,
            depth_ref,
            clamp_to_edge: false,
        });
        let v = if shadow { self.splat_expr(v) } else { v };
        self.note_texel_range(n, v, shadow);
        match n {
            Some(n) => self.dynamic_unbound(n, v),
            None => Ok(v),
        }
    }

    /// What the value-range pass may know of a texel (docs/d3d9-rules.md#zero-product): a depth
    /// comparison's result is in [0, 1]; a texture the key says is normalised
    /// ([`ShaderKey::normalised_samplers`]) holds values in [−1, 1].
    ///
    /// [`ShaderKey::normalised_samplers`]: crate::ShaderKey::normalised_samplers
    fn note_texel_range(&mut self, n: Option<u16>, texel: Expr, shadow: bool) {
        use super::interval::Interval;
        let normalised = n.is_some_and(|n| n < 16 && self.key.normalised_samplers & (1 << n) != 0);
        if shadow {
            self.note_range(texel, [Interval::UNIT; 4]);
        } else if normalised {
            self.note_range(texel, [Interval::SIGNED_UNIT; 4]);
        }
    }

    /// A Fetch4 read at the 2D `coordinate` (docs/d3d9-rules.md#fetch4): the block whose top-left
    /// texel is the one point sampling picks, i.e. the gather footprint half a texel right and
    /// down, on level 0 whatever the instruction's level, red channel, swizzled from the gather's
    /// (bottom-left, bottom-right, top-right, top-left) into D3D9's (top-right, bottom-left,
    /// bottom-right, top-left): gather.zxyw.
    fn fetch4(&mut self, texture: Handle<GlobalVariable>, sampler: Handle<GlobalVariable>, coordinate: Expr) -> Expr {
        let image = self.fb.shared(SharedKey::Global(texture));
        let sampler = self.fb.shared(SharedKey::Global(sampler));
        let size = self.fb.expr(Expression::ImageQuery { image, query: naga::ImageQuery::Size { level: None } });
        let size = self.fb.expr(Expression::As { expr: size, kind: naga::ScalarKind::Float, convert: Some(4) });
        let half = self.fconst(0.5, Width::Scalar);
        let half = self.fb.expr(Expression::Splat { size: VectorSize::Bi, value: half });
        let texel = self.bin(B::Divide, half, size);
        let coordinate = self.bin(B::Add, coordinate, texel);
        let gathered = self.fb.expr(Expression::ImageSample {
            image,
            sampler,
            gather: Some(C::X),
            coordinate,
            array_index: None,
            offset: None,
            level: SampleLevel::Zero,
            depth_ref: None,
            clamp_to_edge: false,
        });
        self.fb.expr(Expression::Swizzle {
            size: VectorSize::Quad,
            vector: gathered,
            pattern: [C::Z, C::X, C::Y, C::W],
        })
    }

    /// The sampler number named by source `i`.
    /// `None` for a source that is not a sampler (lenient: such a read acts as an unbound
    /// sampler; the strict validator rejects the program).
    fn sampler_src(op: &Op, i: usize) -> Option<u16> {
        let s = op.src(i);
        (s.reg.ty == RegisterType::Sampler).then_some(s.reg.num)
    }

    /// The sampled texel with the sampler source's swizzle applied: ps_2_x and later may
    /// swizzle the sampler (`texld r0, v0, s0.yzwx`), which selects the texel's components.
    fn sampler_swizzled(&mut self, op: &Op, texel: Expr) -> Expr {
        match op.src(1) {
            s if s.reg.ty == RegisterType::Sampler => self.swizzle(texel, s.swizzle),
            _ => texel,
        }
    }

    /// Lowers texld (all variants), texldl and texldd: coordinates in source 0, the sampler in
    /// source 1, and texldd's gradients in sources 2 and 3.
    pub fn texld(&mut self, op: &Op) -> Result<(), LowerError> {
        if op.opcode() == Opcode::Tex && self.version.is_sm1() {
            return Err(self.unsupported("Shader Model 1 texture instructions"));
        }
        let n = Self::sampler_src(op, 1);
        // Whether w is the divisor, the bias or the level.
        let w = match op.opcode() {
            Opcode::TexLdl => true,
            Opcode::TexLdd => false,
            _ => op.texld_variant() != TexldVariant::Plain,
        };
        let coords = self.src_lanes(&op.src(0), self.coordinate_lanes(n, w))?;
        let v = match op.opcode() {
            Opcode::TexLdl => self.sample(n, coords, Level::Lod, false)?,
            Opcode::TexLdd => {
                let lanes = self.coordinate_lanes(n, false);
                let dx = self.src_lanes(&op.src(2), lanes)?;
                let dy = self.src_lanes(&op.src(3), lanes)?;
                self.sample(n, coords, Level::Grad(dx, dy), false)?
            }
            _ => match op.texld_variant() {
                TexldVariant::Plain => self.sample(n, coords, Level::Auto, false)?,
                TexldVariant::Project => self.sample(n, coords, Level::Auto, true)?,
                TexldVariant::Bias => self.sample(n, coords, Level::Bias, false)?,
            },
        };
        let v = self.sampler_swizzled(op, v);
        self.write(op, v)
    }

    /// texkill: the pixel is killed if any tested component is negative (the written
    /// components in SM2+, x, y and z in SM1). The kill happens in the epilogue.
    pub fn texkill(&mut self, op: &Op) -> Result<(), LowerError> {
        if !self.is_pixel() {
            return Err(self.invalid("texkill exists only in pixel shaders"));
        }
        let dst = op.dst();
        let mask = if self.version.profile().ps_1_x { 0b0111 } else { dst.mask.0 };
        let v = self.read_register(dst.reg, dst.relative)?;
        let zero = self.fconst(0.0, Width::Scalar);
        let mut any: Option<Expr> = None;
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            let x = self.component(v, c);
            let neg = self.bin(B::Less, x, zero);
            any = Some(match any {
                Some(a) => self.bin(B::LogicalOr, a, neg),
                None => neg,
            });
        }
        let Some(cond) = any else { return Ok(()) };
        let killed = self.killed_var();
        let p = self.var_ptr(killed);
        let old = self.load(p);
        let value = self.bin(B::LogicalOr, old, cond);
        self.stmt(naga::Statement::Store { pointer: p, value });
        Ok(())
    }

    /// The "pixel killed" flag.
    pub fn killed_var(&mut self) -> super::state::Var {
        if let Some(v) = self.killed {
            return v;
        }
        let v = self.new_var(self.t.bool, "killed".into());
        self.killed = Some(v);
        v
    }
}
