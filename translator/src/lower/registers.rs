//! D3D9 registers as naga variables: one variable per register, or one array per register file
//! where the file is relatively addressed (`v[aL]`, `o[aL]`); reads and writes through a
//! relative address check the bounds themselves (wgpu would clamp, D3D9 reads 0).

use super::state::{Expr, Var};

use naga::{
    BinaryOperator, Expression, GlobalVariable, Handle, LocalVariable, MathFunction, ScalarKind, Span, Statement, Type,
};

use super::builder::{whole, Parts, Pending, SharedKey};
use super::{LowerError, Lowerer};
use crate::bytecode::profile::MAX_TEMPS;
use crate::bytecode::{Profile, Register, ShaderKind, VersionId};
use crate::bytecode::{RegisterType, RelAddr};

/// Register count of a relatively addressed file: the count of the models that address it
/// relatively (the version profile's `v#` of vs_3_0/ps_3_0 and `o#` of vs_3_0), or 32.
fn file_len(file: RegisterType, kind: ShaderKind) -> u32 {
    let count = match (file, kind) {
        (RegisterType::Input, ShaderKind::Vertex) => Profile::of(VersionId::Vs30).registers.inputs,
        (RegisterType::Input, ShaderKind::Pixel) => Profile::of(VersionId::Ps30).registers.inputs,
        (RegisterType::Output, _) => Profile::of(VersionId::Vs30).registers.texcoord_outputs,
        _ => MAX_TEMPS,
    };
    u32::from(count)
}

impl Lowerer<'_> {
    /// A new register variable of type `ty`, zero-initialised: a local of the current function,
    /// or a private global in globals mode.
    pub fn new_var(&mut self, ty: Handle<Type>, name: String) -> Var {
        if self.globals_mode {
            let init = self.module.global_expressions.append(Expression::ZeroValue(ty), Span::UNDEFINED);
            Var::Global(self.module.global_variables.append(
                GlobalVariable {
                    name: Some(name),
                    space: naga::AddressSpace::Private,
                    binding: None,
                    ty,
                    init: Some(init),
                    memory_decorations: Default::default(),
                },
                Span::UNDEFINED,
            ))
        } else {
            self.local_var(ty, name)
        }
    }

    /// A new zero-initialised local of the current function.
    pub fn local_var(&mut self, ty: Handle<Type>, name: String) -> Var {
        let init = self.fb.expr(Expression::ZeroValue(ty));
        Var::Local(
            self.fb.f.local_variables.append(LocalVariable { name: Some(name), ty, init: Some(init) }, Span::UNDEFINED),
        )
    }

    /// The pointer expression of a variable.
    pub fn var_ptr(&mut self, v: Var) -> Expr {
        match v {
            Var::Local(l) => self.fb.shared(SharedKey::Local(l)),
            Var::Global(g) => self.fb.shared(SharedKey::Global(g)),
        }
    }

    /// The variable type of a register file.
    fn reg_type(&self, file: RegisterType) -> Handle<Type> {
        match file {
            RegisterType::Predicate => self.t.vec4b,
            RegisterType::Loop => self.t.i32,
            _ => self.t.vec4f,
        }
    }

    /// The variable of a register that is not in an array (created on first use).
    pub fn reg_var(&mut self, reg: Register) -> Var {
        if let Some(&v) = self.regs.vars.get(&(reg.ty, reg.num)) {
            return v;
        }
        let ty = self.reg_type(reg.ty);
        let name = reg.name();
        let v = self.new_var(ty, name);
        self.regs.vars.insert((reg.ty, reg.num), v);
        v
    }

    /// Creates the array of a relatively addressed file.
    pub fn declare_array(&mut self, file: RegisterType, max_used: u32) {
        if self.regs.arrays.contains(file) {
            return;
        }
        let len = file_len(file, self.version.kind).max(max_used + 1);
        let ty = super::types::Types::array(&mut self.module, self.t.vec4f, len, 16);
        let name = match file {
            RegisterType::Input => "v",
            RegisterType::Output => "o",
            _ => "regs",
        };
        let v = self.new_var(ty, name.to_string());
        self.regs.arrays.insert(file, (v, len));
    }

    /// A pointer to register `reg` (no relative addressing).
    pub fn reg_ptr(&mut self, reg: Register) -> Result<Expr, LowerError> {
        if let Some((arr, len)) = self.regs.arrays.get(reg.ty) {
            if u32::from(reg.num) >= len {
                return Err(self.invalid(format!("{} is outside its register file", reg.name())));
            }
            let base = self.var_ptr(arr);
            return Ok(self.fb.expr(Expression::AccessIndex { base, index: u32::from(reg.num) }));
        }
        let v = self.reg_var(reg);
        Ok(self.var_ptr(v))
    }

    pub fn load(&mut self, pointer: Expr) -> Expr {
        self.fb.expr(Expression::Load { pointer })
    }

    /// The `i32` index of a relative address: `a0.c + base` or `aL + base`.
    pub fn rel_index(&mut self, rel: RelAddr, base: u16) -> Result<Expr, LowerError> {
        let addr = match rel.reg.ty {
            RegisterType::Addr => {
                // The one component read, not the register's vector.
                let parts = self.reg_parts(rel.reg)?;
                let f = self.scalar_part(parts[rel.component()]);
                self.fb.expr(Expression::As { expr: f, kind: ScalarKind::Sint, convert: Some(4) })
            }
            RegisterType::Loop => {
                let p = self.reg_ptr(rel.reg)?;
                self.load(p)
            }
            _ => return Err(self.invalid(format!("{} cannot address registers", rel.reg.name()))),
        };
        if base == 0 {
            return Ok(addr);
        }
        let b = self.fb.shared(SharedKey::I32(i32::from(base)));
        Ok(self.fb.expr(Expression::Binary { op: BinaryOperator::Add, left: addr, right: b }))
    }

    /// `0 <= idx < len` and the index clamped into range, for a bounds-checked access. Both
    /// bounds are one unsigned comparison: a negative `i32` is above every length as a `u32`
    /// (two operations fewer per relative access than two signed tests and a clamp).
    pub fn checked_index(&mut self, idx: Expr, len: u32) -> (Expr, Expr) {
        let unsigned = self.fb.expr(Expression::As { expr: idx, kind: ScalarKind::Uint, convert: None });
        let len_e = self.fb.shared(SharedKey::U32(len));
        let last = self.fb.shared(SharedKey::U32(len - 1));
        let ok = self.fb.expr(Expression::Binary { op: BinaryOperator::Less, left: unsigned, right: len_e });
        let clamped = self.fb.expr(Expression::Math {
            fun: MathFunction::Min,
            arg: unsigned,
            arg1: Some(last),
            arg2: None,
            arg3: None,
        });
        (ok, clamped)
    }

    /// Reads a register as `vec4<f32>` (before swizzle and modifiers).
    pub fn read_register(&mut self, reg: Register, rel: Option<RelAddr>) -> Result<Expr, LowerError> {
        use RegisterType as R;
        match reg.ty {
            R::Const => self.read_float_constant(reg.num, rel),
            R::ConstInt => {
                let v = self.read_int_constant(reg.num)?;
                Ok(self.fb.expr(Expression::As { expr: v, kind: ScalarKind::Float, convert: Some(4) }))
            }
            R::ConstBool => {
                let b = self.read_bool_constant(reg.num)?;
                let one = self.fb.shared(SharedKey::F32(1.0f32.to_bits()));
                let zero = self.fb.shared(SharedKey::F32(0));
                let f = self.fb.expr(Expression::Select { condition: b, accept: one, reject: zero });
                Ok(self.fb.expr(Expression::Splat { size: naga::VectorSize::Quad, value: f }))
            }
            R::Loop => {
                let p = self.reg_ptr(reg)?;
                let i = self.load(p);
                let f = self.fb.expr(Expression::As { expr: i, kind: ScalarKind::Float, convert: Some(4) });
                Ok(self.fb.expr(Expression::Splat { size: naga::VectorSize::Quad, value: f }))
            }
            R::Predicate => {
                let b = self.reg_value(reg)?;
                let one = self.splat(1.0);
                let zero = self.splat(0.0);
                Ok(self.fb.expr(Expression::Select { condition: b, accept: one, reject: zero }))
            }
            R::Sampler | R::Label | R::TempFloat16 => {
                Err(self.invalid(format!("{} cannot be read as a value", reg.name())))
            }
            _ => {
                if let Some(rel) = rel {
                    if let Some((arr, len)) = self.regs.arrays.get(reg.ty) {
                        let idx = self.rel_index(rel, reg.num)?;
                        let (ok, clamped) = self.checked_index(idx, len);
                        let base = self.var_ptr(arr);
                        let p = self.fb.expr(Expression::Access { base, index: clamped });
                        let v = self.load(p);
                        let zero = self.splat(0.0);
                        return Ok(self.fb.expr(Expression::Select { condition: ok, accept: v, reject: zero }));
                    }
                    return Err(self.unsupported(format!("relative addressing of {}", reg.name())));
                }
                self.reg_value(reg)
            }
        }
    }

    /// The current value of a register (not relatively addressed): known in this block, or
    /// loaded once.
    pub fn reg_value(&mut self, reg: Register) -> Result<Expr, LowerError> {
        let parts = self.reg_parts(reg)?;
        Ok(self.value_of(reg, parts))
    }

    /// [`Lowerer::reg_value`] per component (no expression for a value known in this block).
    pub fn reg_parts(&mut self, reg: Register) -> Result<Parts, LowerError> {
        if let Some(v) = self.snapshot.as_ref().and_then(|s| s.get(&(reg.ty, reg.num))) {
            return Ok(whole(*v));
        }
        self.current_parts(reg)
    }

    /// The register's value now (ignoring a co-issue snapshot): what a masked write merges with.
    pub fn current_value(&mut self, reg: Register) -> Result<Expr, LowerError> {
        let parts = self.current_parts(reg)?;
        Ok(self.value_of(reg, parts))
    }

    /// A register value as one vector, remembered for the register while it is current.
    fn value_of(&mut self, reg: Register, parts: Parts) -> Expr {
        let key = (reg.ty, reg.num);
        if let Some(v) = self.fb.tables.values.get(&key).filter(|e| e.parts == parts).and_then(|e| e.vector) {
            return v;
        }
        let v = self.materialize(parts);
        if self.fb.tables.values.get(&key).is_some_and(|e| e.parts == parts) {
            self.fb.tables.values.set_vector(&key, v);
        }
        v
    }

    /// [`Lowerer::current_value`] per component.
    pub fn current_parts(&mut self, reg: Register) -> Result<Parts, LowerError> {
        let key = (reg.ty, reg.num);
        // Only the read-only files have fixed values: the other registers (most reads) skip
        // the hash lookup.
        let read_only = matches!(reg.ty, RegisterType::Input | RegisterType::MiscType | RegisterType::Texture);
        if let Some(&v) = read_only.then(|| self.fixed.get(&key)).flatten() {
            return Ok(whole(v));
        }
        if let Some(e) = self.fb.tables.values.get(&key) {
            return Ok(e.parts);
        }
        if self.never_stored(reg) {
            // Its zero-initialised variable still holds +0: no variable, no load (the first
            // partial write of a temporary keeps the other components as they are), and no
            // zero until one of them is read.
            let zero = self.fb.unstored_zero(self.t.f32);
            return Ok(super::builder::replicated(zero));
        }
        let p = self.reg_ptr(reg)?;
        let v = self.load(p);
        if !self.regs.arrays.contains(reg.ty) {
            self.fb.tables.values.insert(key, whole(v), None);
        }
        Ok(whole(v))
    }

    /// Whether `reg` is certainly still its variable's initial +0 here: nothing can have stored
    /// to a register that has no variable yet (a store needs its pointer, and a value waiting
    /// for its store is in the block's table), provided that no earlier pass of a loop and no
    /// other function may have written it, so in the entry point's own body outside every
    /// block, without subroutines; and the variable is a `vec4<f32>` one, not in an array.
    fn never_stored(&self, reg: Register) -> bool {
        !self.globals_mode
            && self.fb.depth() == 0
            && self.reg_type(reg.ty) == self.t.vec4f
            && !self.regs.arrays.contains(reg.ty)
            && !self.regs.vars.contains_key(&(reg.ty, reg.num))
    }

    /// Sets a register's value; the store is emitted at the next statement or block boundary.
    pub fn set_reg_value(&mut self, reg: Register, value: Expr) -> Result<(), LowerError> {
        if self.regs.arrays.contains(reg.ty) {
            let p = self.reg_ptr(reg)?;
            self.stmt(Statement::Store { pointer: p, value });
        } else {
            self.fb.tables.values.insert((reg.ty, reg.num), whole(value), Some(Pending::Variable));
        }
        Ok(())
    }

    /// Stores `value` (already merged with the old value) into a destination register,
    /// through a bounds check when it is relatively addressed.
    pub fn store_register(
        &mut self,
        reg: Register,
        rel: Option<RelAddr>,
        build: impl FnOnce(&mut Self, Expr) -> Result<Expr, LowerError>,
    ) -> Result<(), LowerError> {
        match rel {
            None => {
                let p = self.reg_ptr(reg)?;
                let value = build(self, p)?;
                self.stmt(Statement::Store { pointer: p, value });
                Ok(())
            }
            Some(rel) => {
                let Some((arr, len)) = self.regs.arrays.get(reg.ty) else {
                    return Err(self.unsupported(format!("relative addressing of {}", reg.name())));
                };
                let idx = self.rel_index(rel, reg.num)?;
                let (ok, clamped) = self.checked_index(idx, len);
                self.open();
                let base = self.var_ptr(arr);
                let p = self.fb.expr(Expression::Access { base, index: clamped });
                let value = build(self, p)?;
                self.stmt(Statement::Store { pointer: p, value });
                let accept = self.close();
                self.stmt(Statement::If { condition: ok, accept, reject: naga::Block::new() });
                Ok(())
            }
        }
    }
}
