//! Inputs and outputs by semantic, and the entry point.
//!
//! # The default map
//!
//! Vertex inputs `v n` are at `@location(n)` whatever their usage; the interface map lists the
//! usage of each, so the caller builds its vertex layout from its vertex declaration.
//!
//! Vertex outputs and pixel inputs are matched by semantic (usage, index). Without a
//! [`Linkage`] in the key, the fixed-function semantics have fixed locations:
//!
//! | semantic | location | default when the vertex shader does not write it |
//! |---|---:|---|
//! | TEXCOORD0–7 (`oT#`, `t#`) | 0–7 | (0, 0, 0, 0) |
//! | COLOR0 (`oD0`, `v0`) | 8 | (1, 1, 1, 1) |
//! | COLOR1 (`oD1`, `v1`) | 9 | (0, 0, 0, 1) |
//! | FOG (`oFog`) | 10 | (1, 1, 1, 1) (oFog writes x) |
//! | any other (SM3) | 11, 12, … in (usage, index) order within the shader | (0, 0, 0, 0) |
//!
//! Component defaults apply per component: a vertex shader that writes only `oD0.x` outputs
//! (x, 1, 1, 1). POSITION0 is the position built-in; PSIZE is the point size (emitted only with
//! `ShaderKey::point_size`). COLOR semantics use centroid sampling (flat with
//! `ShaderKey::flat_shading`), the others perspective interpolation at the pixel centre, on both
//! sides, as the pipeline requires them to match.
//!
//! Not handled yet: two semantics packed into one register (`dcl_texcoord0 o1.xy` and
//! `dcl_texcoord1 o1.zw`; the last declaration wins), and `_centroid` on a texture-coordinate
//! declaration (COLOR inputs are always centroid, the others always centre-sampled, so that both
//! stages agree without a link).
//!
//! [`link`] replaces the default map for a pair (see [`crate::key::linkage`]).

use naga::{
    BinaryOperator as B, Binding, BuiltIn, EntryPoint, Expression, FunctionArgument, FunctionResult, Interpolation,
    Sampling, ShaderStage, Statement, StructMember,
};

pub use super::interface::{Builtin, InterfaceMap, InterfaceSlot};

use super::builder::SharedKey;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::analysis::{IoRegister, Signature};
use crate::bytecode::registers::{misc, rastout};
use crate::bytecode::{Register, RegisterType, ShaderKind, Usage};
use crate::key::linkage::varyings;
// The linkage of a pair is computed outside the lowering (the key holds it); the paths under
// `lower::io_map` stay for callers.
pub use crate::key::linkage::{link, semantic, LinkSlot, Linkage};

/// The value an unwritten output (or a missing input) of a semantic holds.
pub fn default_value(usage: u8, index: u8) -> [f32; 4] {
    match (Usage::from_raw(usage), index) {
        (Some(Usage::Color), 0) => [1.0; 4],
        (Some(Usage::Color), 1) => [0.0, 0.0, 0.0, 1.0],
        (Some(Usage::Fog), _) => [1.0; 4],
        _ => [0.0; 4],
    }
}

fn fixed_location(usage: u8, index: u8) -> Option<u32> {
    match (Usage::from_raw(usage)?, index) {
        (Usage::TexCoord, i @ 0..=7) => Some(u32::from(i)),
        (Usage::Color, i @ 0..=1) => Some(8 + u32::from(i)),
        (Usage::Fog, 0) => Some(10),
        _ => None,
    }
}

/// A varying's placement in one stage.
enum Place {
    Location(u32),
    Default([f32; 4]),
    Dropped,
    /// A pixel input the stable interface has no location for.
    Unstable,
}

impl Lowerer<'_> {
    fn place(&self, usage: u8, index: u8, others: &[(u8, u8)], pixel_input: bool) -> Place {
        if let Some(linkage) = &self.key.linkage {
            // ps_3_0 reads a missing FOG as 1; the stable map's unwritten FOG is the blend's 0.
            if pixel_input && linkage.stable && !self.stable_fits(usage) {
                return Place::Unstable;
            }
            return match linkage.find(usage, index) {
                Some(LinkSlot::Location(l)) => Place::Location(l),
                None if pixel_input && linkage.stable => Place::Unstable,
                Some(LinkSlot::Missing) | None if pixel_input => Place::Default(default_value(usage, index)),
                _ => Place::Dropped,
            };
        }
        if let Some(l) = fixed_location(usage, index) {
            return Place::Location(l);
        }
        match others.iter().position(|&s| s == (usage, index)) {
            Some(k) => Place::Location(11 + k as u32),
            None => Place::Dropped,
        }
    }

    fn others(&self, regs: &[IoRegister]) -> Vec<(u8, u8)> {
        varyings(self.version, regs).into_iter().filter(|&(u, i)| fixed_location(u, i).is_none()).collect()
    }

    fn varying_binding(&self, location: u32, usage: u8) -> Binding {
        let color = Usage::from_raw(usage) == Some(Usage::Color);
        let (interpolation, sampling) = if color && self.key.flat_shading {
            (Interpolation::Flat, None)
        } else if color {
            (Interpolation::Perspective, Some(Sampling::Centroid))
        } else {
            (Interpolation::Perspective, Some(Sampling::Center))
        };
        Binding::Location {
            location,
            interpolation: Some(interpolation),
            sampling,
            blend_src: None,
            per_primitive: false,
        }
    }

    pub(super) fn arg(&mut self, name: String, ty: naga::Handle<naga::Type>, binding: Binding) -> Expr {
        let i = self.fb.f.arguments.len() as u32;
        self.fb.f.arguments.push(FunctionArgument { name: Some(name), ty, binding: Some(binding) });
        self.fb.shared(SharedKey::Argument(i))
    }

    /// Stores `value` into the variable of input/output register `reg` (array element or not).
    fn init_register(&mut self, reg: Register, value: Expr) -> Result<(), LowerError> {
        // Input registers are read-only: with everything in the entry function, the value
        // itself (emitted before any block) serves every read and no variable is needed.
        let read_only = matches!(reg.ty, RegisterType::Input | RegisterType::MiscType)
            || (reg.ty == RegisterType::Texture && !self.version.profile().ps_1_x);
        if read_only && !self.globals_mode && !self.regs.arrays.contains(reg.ty) {
            self.fixed.insert((reg.ty, reg.num), value);
            return Ok(());
        }
        self.set_reg_value(reg, value)
    }

    /// Declares relatively addressed register files as arrays.
    pub fn declare_arrays(&mut self) {
        let sig = self.sig;
        for &file in &sig.relative_files {
            if matches!(file, RegisterType::Input | RegisterType::Output) {
                let list = if file == RegisterType::Input { &sig.inputs } else { &sig.outputs };
                let max = list.iter().filter(|r| r.file == file).map(|r| u32::from(r.index)).max().unwrap_or(0);
                self.declare_array(file, max);
            }
        }
    }

    /// Builds the entry point: inputs into registers, outputs defaulted, the main program (inline
    /// or called), then the epilogue.
    pub fn build_entry(&mut self, main: Option<naga::Handle<naga::Function>>) -> Result<(), LowerError> {
        let sig = self.sig;
        match self.version.kind {
            ShaderKind::Vertex => self.vertex_inputs(sig)?,
            ShaderKind::Pixel => self.pixel_inputs(sig)?,
        }
        self.default_outputs(sig)?;
        match main {
            Some(function) => self.stmt(Statement::Call { function, arguments: Vec::new(), result: None }),
            None => self.lower_range(0, sig.main_end)?,
        }
        let (result, value) = match self.version.kind {
            ShaderKind::Vertex => self.vertex_outputs(sig)?,
            ShaderKind::Pixel => self.pixel_outputs(sig)?,
        };
        // Registers are dead once the outputs are composed: no stores before the return.
        self.fb.forget_dirty();
        self.stmt(Statement::Return { value: Some(value) });
        let mut fb = super::builder::FnBuilder::placeholder(self.t.vec4f);
        std::mem::swap(&mut self.fb, &mut fb);
        let mut function = fb.finish();
        function.result = Some(result);
        let (name, stage) = match self.version.kind {
            ShaderKind::Vertex => ("vs_main", ShaderStage::Vertex),
            ShaderKind::Pixel => ("ps_main", ShaderStage::Fragment),
        };
        function.name = Some(name.to_string());
        self.module.entry_points.push(EntryPoint {
            name: name.to_string(),
            stage,
            early_depth_test: None,
            workgroup_size: [0; 3],
            workgroup_size_overrides: None,
            function,
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
        Ok(())
    }

    fn vertex_inputs(&mut self, sig: &Signature) -> Result<(), LowerError> {
        for r in sig.inputs.iter().filter(|r| r.file == RegisterType::Input) {
            // v# is a vertex attribute slot and D3D9 has 16 (MaxStreams' element limit). A
            // register past them names no attribute: as the base of a relative read (wine's
            // assembler test `v20[aL]`, which lenient validation lets through with a warning)
            // it is reached through the bounds-checked v0..v15 array, where an index past v15
            // reads 0; a direct read is refused below.
            if r.index >= 16 {
                if sig.relative_files.contains(&RegisterType::Input) {
                    continue;
                }
                return Err(
                    self.invalid(format!("{} is not a vertex attribute: a vertex shader has v0 to v15", r.register))
                );
            }
            let loc = u32::from(r.index);
            let binding = Binding::Location {
                location: loc,
                interpolation: None,
                sampling: None,
                blend_src: None,
                per_primitive: false,
            };
            let a = self.vertex_input(r.register.clone(), r.index, binding);
            self.init_register(Register::new(r.file, r.index), a)?;
            self.interface.inputs.push(InterfaceSlot {
                register: Some(Register::new(r.file, r.index)),
                usage: r.usage_code.and_then(Usage::from_raw),
                usage_index: r.usage_index,
                location: Some(loc),
                builtin: None,
                default: None,
            });
        }
        Ok(())
    }

    /// The fragment position built-in (one argument, shared by vPos and fog).
    pub fn frag_coord(&mut self) -> Expr {
        if let Some(e) = self.frag_coord {
            return e;
        }
        let a = self.arg("frag_coord".into(), self.t.vec4f, Binding::BuiltIn(BuiltIn::Position { invariant: false }));
        self.frag_coord = Some(a);
        self.interface.inputs.push(InterfaceSlot {
            register: Some(Register::new(RegisterType::MiscType, misc::POSITION)),
            usage: None,
            usage_index: 0,
            location: None,
            builtin: Some(Builtin::Position),
            default: None,
        });
        a
    }

    /// The interpolated FOG varying's x, for vertex fog (created when the shader does not read it).
    ///
    /// A vertex shader that never writes oFog gives the fog blend f = 0, a fully fogged pixel
    /// (measured on Windows, docs/d3d9-rules.md#fog). This is the blend's own rule: a ps_3_0
    /// that declares a FOG input the vertex shader does not write still reads the missing
    /// varying's default (1, 1, 1, 1) like any other input (`default_value`), and ps_3_0 has no
    /// fog blend, so the two never meet.
    pub fn fog_input(&mut self) -> Expr {
        if let Some(e) = self.fog_input {
            return e;
        }
        let fog = Usage::Fog as u8;
        let value = match self.place(fog, 0, &[], true) {
            Place::Location(l) => {
                let b = self.varying_binding(l, fog);
                let a = self.arg("fog".into(), self.t.vec4f, b);
                self.interface.inputs.push(InterfaceSlot {
                    register: None,
                    usage: Some(Usage::Fog),
                    usage_index: 0,
                    location: Some(l),
                    builtin: None,
                    default: None,
                });
                self.component(a, 0)
            }
            _ => self.fconst(0.0, super::parts::Width::Scalar),
        };
        self.fog_input = Some(value);
        value
    }

    /// vPos (the pixel's top-left corner: FragCoord − 0.5 in x and y) or vFace (+1 front, −1
    /// back).
    fn misc_input(&mut self, index: u16) -> Expr {
        if index == misc::POSITION {
            let fc = self.frag_coord();
            let half = self.fb.shared(SharedKey::F32(0.5f32.to_bits()));
            let zero = self.fb.shared(SharedKey::F32(0));
            let off = self.fb.expr(Expression::Compose { ty: self.t.vec4f, components: vec![half, half, zero, zero] });
            return self.bin(B::Subtract, fc, off);
        }
        let ff = self.arg("front_facing".into(), self.t.bool, Binding::BuiltIn(BuiltIn::FrontFacing));
        let one = self.splat(1.0);
        let minus = self.splat(-1.0);
        self.interface.inputs.push(InterfaceSlot {
            register: Some(Register::new(RegisterType::MiscType, misc::FACE)),
            usage: None,
            usage_index: 0,
            location: None,
            builtin: Some(Builtin::FrontFacing),
            default: None,
        });
        self.fb.expr(Expression::Select { condition: ff, accept: one, reject: minus })
    }

    /// A TEXCOORD input under point sprites: the point coordinate (u, v, 0, 1).
    fn point_coord_input(&mut self) -> Expr {
        let pc = match self.point_coord {
            Some(pc) => pc,
            None => {
                let pc = self.arg("point_coord".into(), self.t.vec2f, Binding::BuiltIn(BuiltIn::PointCoord));
                self.point_coord = Some(pc);
                pc
            }
        };
        let (x, y) = (self.component(pc, 0), self.component(pc, 1));
        let zero = self.fb.shared(SharedKey::F32(0));
        let one = self.fb.shared(SharedKey::F32(1f32.to_bits()));
        self.compose4([x, y, zero, one])
    }

    fn pixel_inputs(&mut self, sig: &Signature) -> Result<(), LowerError> {
        let others = self.others(&sig.inputs);
        // Two registers declared with one semantic read the same varying.
        let mut seen: Vec<((u8, u8), Expr)> = Vec::new();
        for r in &sig.inputs {
            let reg = Register::new(r.file, r.index);
            if r.file == RegisterType::MiscType {
                let value = self.misc_input(r.index);
                self.init_register(reg, value)?;
                continue;
            }
            let Some((usage, index)) = semantic(self.version, r) else {
                // An undeclared ps_3_0 input (lenient mode) has no semantic to link: it reads 0.
                let zero = self.splat(0.0);
                self.init_register(reg, zero)?;
                continue;
            };
            if let Some(&(_, v)) = seen.iter().find(|(s, _)| *s == (usage, index)) {
                self.init_register(reg, v)?;
                continue;
            }
            let point_coord = self.key.point_sprite && Usage::from_raw(usage) == Some(Usage::TexCoord);
            let (value, location, default) = if point_coord {
                (self.point_coord_input(), None, None)
            } else {
                match self.place(usage, index, &others, true) {
                    Place::Location(l) => {
                        let b = self.varying_binding(l, usage);
                        (self.arg(r.register.clone(), self.t.vec4f, b), Some(l), None)
                    }
                    Place::Default(d) => (self.splat_bits(d.map(f32::to_bits)), None, Some(d)),
                    Place::Dropped => {
                        let d = default_value(usage, index);
                        (self.splat_bits(d.map(f32::to_bits)), None, Some(d))
                    }
                    Place::Unstable => return Err(self.unstable(usage, index)),
                }
            };
            seen.push(((usage, index), value));
            if r.file == RegisterType::Texture && self.version.profile().ps_1_x {
                self.texcoords.insert(r.index, value);
            }
            if usage == Usage::Fog as u8 && index == 0 && location.is_some() {
                self.fog_input = Some(self.component(value, 0));
            }
            self.init_register(reg, value)?;
            self.interface.inputs.push(InterfaceSlot {
                register: Some(Register::new(r.file, r.index)),
                usage: Usage::from_raw(usage),
                usage_index: index,
                location,
                builtin: point_coord.then_some(Builtin::PointCoord),
                default,
            });
        }
        Ok(())
    }

    fn default_outputs(&mut self, sig: &Signature) -> Result<(), LowerError> {
        if self.is_pixel() {
            return Ok(());
        }
        for r in &sig.outputs {
            if let Some((u, i)) = semantic(self.version, r) {
                let d = default_value(u, i);
                if d != [0.0; 4] {
                    let v = self.splat_bits(d.map(f32::to_bits));
                    self.init_register(Register::new(r.file, r.index), v)?;
                }
            }
        }
        Ok(())
    }

    /// A struct member for an output, with offsets packed in order.
    fn member(
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        name: &str,
        ty: naga::Handle<naga::Type>,
        size: u32,
        binding: Binding,
    ) {
        members.push(StructMember { name: Some(name.to_string()), ty, binding: Some(binding), offset: *offset });
        *offset += size;
    }

    fn finish_outputs(&mut self, members: Vec<StructMember>, span: u32, values: Vec<Expr>) -> (FunctionResult, Expr) {
        let name = if self.is_pixel() { "PsOutput" } else { "VsOutput" };
        let ty = super::types::Types::structure(&mut self.module, name, members, span.max(4));
        let value = self.fb.expr(Expression::Compose { ty, components: values });
        (FunctionResult { ty, binding: None }, value)
    }

    fn vertex_outputs(&mut self, sig: &Signature) -> Result<(FunctionResult, Expr), LowerError> {
        let others = self.others(&sig.outputs);
        let mut members = Vec::new();
        let mut values = Vec::new();
        let mut offset = 0;
        let mut position = None;
        let mut point_size = None;
        let corner = self.point_corner();
        let sprite = match corner {
            Some(c) if self.key.point_sprite => Some(self.sprite_coord(c)),
            _ => None,
        };
        let mut texcoords_written = Vec::new();
        for r in &sig.outputs {
            let reg = Register::new(r.file, r.index);
            let Some((usage, index)) = semantic(self.version, r) else { continue };
            let mut v = self.reg_value(reg)?;
            match (Usage::from_raw(usage), index) {
                (Some(Usage::Position), 0) => {
                    position = Some(v);
                    self.position_varying(r, v, &mut members, &mut offset, &mut values);
                    continue;
                }
                (Some(Usage::PSize), 0) => {
                    point_size = Some(self.component(v, 0));
                    continue;
                }
                _ => {}
            }
            let Place::Location(l) = self.place(usage, index, &others, false) else { continue };
            // Before vs_3_0 the colour and fog outputs are clamped to [0, 1].
            if self.version.profile().fixed_io && matches!(r.file, RegisterType::AttrOut | RegisterType::RastOut) {
                v = self.saturate(v, super::parts::Width::Vec4);
            }
            if usage == Usage::TexCoord as u8 {
                if let Some(sc) = sprite {
                    v = sc;
                }
                texcoords_written.push(index);
            }
            let b = self.varying_binding(l, usage);
            Self::member(&mut members, &mut offset, &r.register, self.t.vec4f, 16, b);
            values.push(v);
            self.interface.outputs.push(InterfaceSlot {
                register: Some(Register::new(r.file, r.index)),
                usage: Usage::from_raw(usage),
                usage_index: index,
                location: Some(l),
                builtin: None,
                default: None,
            });
        }
        if let Some(sc) = sprite {
            self.unwritten_sprite_coords(&texcoords_written, &others, sc, &mut members, &mut offset, &mut values);
        }
        self.stable_defaults(&mut members, &mut offset, &mut values, sprite);
        let mut pos = match position {
            Some(p) => p,
            None => self.splat(0.0),
        };
        if let Some(c) = corner {
            pos = self.expand_point(pos, c, point_size)?;
        }
        self.position_builtin(pos, &mut members, &mut offset, &mut values);
        self.vertex_epilogue(pos, point_size, &mut members, &mut offset, &mut values)?;
        Ok(self.finish_outputs(members, offset, values))
    }

    /// A linked pixel shader may read POSITION0 as a varying too: the vertex shader's position
    /// output `r` (value `v`) at the location the linkage gives it, if any.
    fn position_varying(
        &mut self,
        r: &IoRegister,
        v: Expr,
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        values: &mut Vec<Expr>,
    ) {
        let usage = Usage::Position as u8;
        let Some(LinkSlot::Location(l)) = self.key.linkage.as_ref().and_then(|k| k.find(usage, 0)) else { return };
        let b = self.varying_binding(l, usage);
        Self::member(members, offset, "position_varying", self.t.vec4f, 16, b);
        values.push(v);
        self.interface.outputs.push(InterfaceSlot {
            register: Some(Register::new(r.file, r.index)),
            usage: Some(Usage::Position),
            usage_index: 0,
            location: Some(l),
            builtin: None,
            default: None,
        });
    }

    /// The clip-space position `pos`, the vertex stage's position builtin.
    fn position_builtin(
        &mut self,
        pos: Expr,
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        values: &mut Vec<Expr>,
    ) {
        Self::member(
            members,
            offset,
            "position",
            self.t.vec4f,
            16,
            Binding::BuiltIn(BuiltIn::Position { invariant: true }),
        );
        values.push(pos);
        self.interface.outputs.push(InterfaceSlot {
            register: Some(Register::new(RegisterType::RastOut, rastout::POSITION)),
            usage: Some(Usage::Position),
            usage_index: 0,
            location: None,
            builtin: Some(Builtin::Position),
            default: None,
        });
    }

    /// Expanding points with sprites: the TEXCOORD sets the shader does not write are the
    /// sprite coordinate too, where the map has a location for them (the stable map's are
    /// written by [`Self::stable_defaults`]).
    fn unwritten_sprite_coords(
        &mut self,
        written: &[u8],
        others: &[(u8, u8)],
        sprite: Expr,
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        values: &mut Vec<Expr>,
    ) {
        if self.key.linkage.as_ref().is_some_and(|l| l.stable) {
            return;
        }
        let usage = Usage::TexCoord as u8;
        for index in (0..8).filter(|i| !written.contains(i)) {
            let Place::Location(l) = self.place(usage, index, others, false) else { continue };
            let b = self.varying_binding(l, usage);
            let name = format!("sprite_TEXCOORD{index}");
            Self::member(members, offset, &name, self.t.vec4f, 16, b);
            values.push(sprite);
            self.interface.outputs.push(InterfaceSlot {
                register: None,
                usage: Some(Usage::TexCoord),
                usage_index: index,
                location: Some(l),
                builtin: None,
                default: None,
            });
        }
    }

    /// Whether this pixel shader may read semantic `usage` under the stable map: FOG only as the
    /// fixed-function fog blend's factor (before ps_3_0).
    fn stable_fits(&self, usage: u8) -> bool {
        usage != Usage::Fog as u8 || self.version.profile().fixed_function_fog
    }

    /// A pixel input outside the stable interface.
    fn unstable(&self, usage: u8, index: u8) -> LowerError {
        let name = Usage::from_raw(usage).map_or("usage?", |u| u.name());
        self.unsupported(format!("{name}{index} has no location in the stable interface: link the pair"))
    }

    /// Under the stable interface, the locations the vertex shader did not write, with their
    /// default values (see [`crate::key::linkage`]).
    fn stable_defaults(
        &mut self,
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        values: &mut Vec<Expr>,
        sprite: Option<Expr>,
    ) {
        let Some(linkage) = self.key.linkage.as_ref().filter(|l| l.stable) else { return };
        // WebGPU counts clip distances against the inter-stage locations, four to a location
        // (docs/layers.md): with clip planes the top locations of the map are not output.
        let clip = if self.dynamic(super::render_state::Mode::ClipPlaneMask) {
            8
        } else {
            8 - self.key.clip_planes.leading_zeros()
        };
        let limit = 16 - clip.div_ceil(4);
        let location = |m: &StructMember| match m.binding {
            Some(Binding::Location { location, .. }) => Some(location),
            _ => None,
        };
        let keep: Vec<bool> = members.iter().map(|m| location(m).is_none_or(|l| l < limit)).collect();
        let mut k = keep.iter();
        members.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        values.retain(|_| *k.next().unwrap_or(&true));
        self.interface.outputs.retain(|s| s.location.is_none_or(|l| l < limit));
        let written: Vec<u32> = members
            .iter()
            .filter_map(|m| match m.binding {
                Some(Binding::Location { location, .. }) => Some(location),
                _ => None,
            })
            .collect();
        for &(usage, index, slot) in &linkage.slots {
            let LinkSlot::Location(l) = slot else { continue };
            if written.contains(&l) || l >= limit {
                continue;
            }
            // An unwritten oFog is a fog factor of 0 for the fixed-function blend, the only reader
            // of FOG under the stable map (docs/d3d9-rules.md#fog; a ps_3_0 FOG input does not fit
            // the map, see `crate::key::linkage::fits_stable`).
            let d = if usage == Usage::Fog as u8 { [0.0; 4] } else { default_value(usage, index) };
            let v = match sprite {
                Some(sc) if usage == Usage::TexCoord as u8 => sc,
                _ => self.splat_bits(d.map(f32::to_bits)),
            };
            let b = self.varying_binding(l, usage);
            let name = format!("unwritten_{}{index}", Usage::from_raw(usage).map_or("usage", |u| u.name()));
            Self::member(members, offset, &name, self.t.vec4f, 16, b);
            values.push(v);
            self.interface.outputs.push(InterfaceSlot {
                register: None,
                usage: Usage::from_raw(usage),
                usage_index: index,
                location: Some(l),
                builtin: None,
                default: Some(d),
            });
        }
    }

    /// ps_1_x has no oC#: r0 at the end is the colour, saturated to [0, 1] before fog and the
    /// alpha test, on float render targets too (docs/d3d9-rules.md#ps1x-output-clamp).
    fn ps1x_colour(&mut self) -> Result<Expr, LowerError> {
        let r0 = self.reg_value(Register::new(RegisterType::Temp, 0))?;
        Ok(self.saturate(r0, super::parts::Width::Vec4))
    }

    fn pixel_outputs(&mut self, sig: &Signature) -> Result<(FunctionResult, Expr), LowerError> {
        let mut members = Vec::new();
        let mut values = Vec::new();
        let mut offset = 0;
        let mut colors: Vec<u16> =
            sig.outputs.iter().filter(|r| r.file == RegisterType::ColorOut).map(|r| r.index).collect();
        if !colors.contains(&0) {
            colors.insert(0, 0);
        }
        let mut c0 = None;
        for &n in &colors {
            let v = self.reg_value(Register::new(RegisterType::ColorOut, n))?;
            if n == 0 {
                c0 = Some(v);
                continue;
            }
            let b = Binding::Location {
                location: u32::from(n),
                interpolation: None,
                sampling: None,
                blend_src: None,
                per_primitive: false,
            };
            Self::member(&mut members, &mut offset, &format!("oC{n}"), self.t.vec4f, 16, b);
            values.push(v);
            self.interface.outputs.push(InterfaceSlot {
                register: Some(Register::new(RegisterType::ColorOut, n)),
                usage: Some(Usage::Color),
                usage_index: n as u8,
                location: Some(u32::from(n)),
                builtin: None,
                default: None,
            });
        }
        if self.version.profile().ps_1_x {
            c0 = Some(self.ps1x_colour()?);
        }
        let c0 = self.pixel_epilogue(c0.expect("oC0 is always output"))?;
        let b = Binding::Location {
            location: 0,
            interpolation: None,
            sampling: None,
            blend_src: None,
            per_primitive: false,
        };
        members.insert(0, StructMember { name: Some("oC0".into()), ty: self.t.vec4f, binding: Some(b), offset: 0 });
        for m in members.iter_mut().skip(1) {
            m.offset += 16;
        }
        offset += 16;
        values.insert(0, c0);
        self.interface.outputs.insert(
            0,
            InterfaceSlot {
                register: Some(Register::new(RegisterType::ColorOut, 0)),
                usage: Some(Usage::Color),
                usage_index: 0,
                location: Some(0),
                builtin: None,
                default: None,
            },
        );
        if sig.features.depth_output {
            let v = self.reg_value(Register::new(RegisterType::DepthOut, 0))?;
            let d = self.component(v, 0);
            let d = self.saturate(d, super::parts::Width::Scalar);
            Self::member(&mut members, &mut offset, "oDepth", self.t.f32, 4, Binding::BuiltIn(BuiltIn::FragDepth));
            values.push(d);
            self.interface.outputs.push(InterfaceSlot {
                register: Some(Register::new(RegisterType::DepthOut, 0)),
                usage: Some(Usage::Depth),
                usage_index: 0,
                location: None,
                builtin: Some(Builtin::FragDepth),
                default: None,
            });
        }
        Ok(self.finish_outputs(members, offset, values))
    }
}
