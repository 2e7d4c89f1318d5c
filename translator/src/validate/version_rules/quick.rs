//! A quick acceptance test for the per-instruction rules ([`super::instructions`]): most
//! instructions of a vs or ps 2.0/3.0 program use plain register files, plain modifiers and
//! masks, and the full checks spend most of their time confirming that, one rule at a time.
//! [`QuickRules`] answers "does no per-instruction rule apply?" from a few masks computed once
//! per program; an instruction it cannot vouch for goes through the full checks, which alone
//! write the messages.
//!
//! The contract is one-sided: `accepts` may refuse a clean instruction, never accept one the
//! full checks would report. Debug builds (every test run) check each accepted instruction
//! with the full rules as well and stop on any diagnostic.
//!
//! ps_1_x programs, whose rules depend on instruction pairs and texture-op kinds, always take
//! the full checks.

use crate::bytecode::{
    DstParam, Form, Instruction, Opcode, OpcodeInfo, Operand as Slot, RegisterType, ResultModifiers, ShaderKind,
    SrcModifier, SrcParam, Swizzle, VersionId, WriteMask,
};
use crate::validate::Cx;

/// What a program's version allows, as masks, for [`QuickRules::accepts`]. Each mask is read off
/// the rules the full checks apply ([`super::instructions`]), so the rules are stated once.
pub(crate) struct QuickRules {
    vertex: bool,
    major: u8,
    /// Register files a general source may read (one bit per [`RegisterType`]).
    readable: u32,
    /// Register files an instruction without a fixed destination file may write; `a0` and
    /// `p0`, which have rules of their own, are left to the full checks.
    writable: u32,
    /// The files a source may address relative to `a0` and to `aL`.
    relative: [u32; 2],
    /// Source modifiers a general source may carry (one bit per [`SrcModifier`]).
    general_modifiers: u32,
    /// `_sat` on an ordinary instruction (vertex shaders: from 3.0).
    saturate: bool,
    /// ps_2_x with `D3DPS20CAPS_ARBITRARYSWIZZLE`, or ps_2_sw: any swizzle.
    ps2_arbitrary_swizzle: bool,
    /// ps_2_x without `D3DPS20CAPS_GRADIENTINSTRUCTIONS`.
    gradients_refused: bool,
}

const fn bit(ty: RegisterType) -> u32 {
    1 << ty as u32
}

const fn modifier_bit(m: SrcModifier) -> u32 {
    1 << m as u32
}

/// The files for which `allowed` holds, as a mask.
fn files(allowed: impl Fn(RegisterType) -> bool) -> u32 {
    RegisterType::ALL.into_iter().filter(|&t| allowed(t)).fold(0, |m, t| m | bit(t))
}

impl QuickRules {
    /// The masks of `cx`'s version; `None` for ps_1_x.
    pub fn new(cx: &Cx<'_>, id: VersionId) -> Option<QuickRules> {
        use super::instructions::{general_modifier, readable, relative_source, special, writable};
        use RegisterType::{Addr, Loop, Predicate};
        if cx.profile.ps_1_x {
            return None;
        }
        let v = cx.version;
        let vertex = v.kind == ShaderKind::Vertex;
        let general_modifiers = (1..=13)
            .filter_map(SrcModifier::from_raw)
            .filter(|&m| general_modifier(cx, m))
            .fold(0, |mask, m| mask | modifier_bit(m));
        let caps = &cx.options.caps;
        Some(QuickRules {
            vertex,
            major: v.major,
            readable: files(|t| !special(t) && readable(cx, t)),
            writable: files(|t| writable(cx, t) && !matches!(t, Addr | Predicate)),
            relative: [Addr, Loop].map(|index| files(|t| relative_source(cx, t, index))),
            general_modifiers,
            saturate: !vertex || v.major == 3,
            ps2_arbitrary_swizzle: (id == VersionId::Ps2x && caps.ps_arbitrary_swizzle) || id == VersionId::Ps2sw,
            gradients_refused: id == VersionId::Ps2x && !caps.ps_gradient_instructions,
        })
    }

    /// Whether no per-instruction rule applies to `inst`, whose row is `info` and whose form
    /// in the version is `form`. `false` means only "check it in full".
    // Called once per instruction from one place: inlined there, its masks stay in registers.
    #[inline(always)]
    pub fn accepts(&self, inst: &Instruction, info: &OpcodeInfo, form: &Form) -> bool {
        let shape = form.shape;
        if inst.dst.is_some() != shape.dst || inst.src.len() != shape.srcs as usize {
            return false;
        }
        if inst.coissue || inst.predicate.is_some() {
            return false;
        }
        if inst.opcode == Opcode::Dcl {
            return true; // declarations.rs
        }
        if let Some(dst) = &inst.dst {
            if !self.destination(inst, info, dst) {
                return false;
            }
        }
        for (k, src) in inst.src.iter().enumerate() {
            if !self.source(inst, info, k, form.source(k), src) {
                return false;
            }
        }
        self.specific(inst, info)
    }

    #[inline(always)]
    fn destination(&self, inst: &Instruction, info: &OpcodeInfo, dst: &DstParam) -> bool {
        let ty = dst.reg.ty;
        let file = match info.dst_file {
            Some(fixed) => ty == fixed,
            None => !info.dst_is_source && self.writable & bit(ty) != 0,
        };
        file && dst.relative.is_none()
            && dst.shift == 0
            && self.result_modifiers(inst, info, dst.modifiers)
            && self.write_mask(inst, info, ty, dst.mask)
    }

    fn result_modifiers(&self, inst: &Instruction, info: &OpcodeInfo, m: ResultModifiers) -> bool {
        use Opcode::*;
        let saturate = !m.saturate()
            || (self.saturate && !info.declaration && !(self.vertex && matches!(inst.opcode, Frc | SinCos | TexLdl)));
        let partial_precision = !m.partial_precision() || (!self.vertex && !info.declaration);
        saturate && partial_precision && !m.centroid()
    }

    fn write_mask(&self, inst: &Instruction, info: &OpcodeInfo, ty: RegisterType, mask: WriteMask) -> bool {
        let full = mask == WriteMask::ALL;
        let by_opcode = match inst.opcode {
            _ if info.declaration => full,
            Opcode::SinCos | Opcode::Crs => mask.0 & !info.writes == 0,
            Opcode::Tex => self.major != 2 || full,
            _ => true,
        };
        mask.0 != 0 && by_opcode && !(ty == RegisterType::Addr && self.major == 1 && mask.0 != 0x1)
    }

    #[inline(always)]
    fn source(&self, inst: &Instruction, info: &OpcodeInfo, k: usize, slot: Slot, src: &SrcParam) -> bool {
        use RegisterType::*;
        let ty = src.reg.ty;
        let file = match slot.file() {
            Some(want) => ty == want,
            // Predicate registers here (2_x and later) are left to the full checks.
            None if slot == Slot::BoolOrPredicate => ty == ConstBool,
            None => self.readable & bit(ty) != 0,
        };
        if !file {
            return false;
        }
        if let Some(rel) = src.relative {
            let by_index = match rel.reg.ty {
                Addr => self.relative[0],
                Loop => self.relative[1],
                _ => 0,
            };
            if by_index & bit(ty) == 0 {
                return false;
            }
        }
        let matrix_operand = info.matrix.is_some() && k == 1;
        let modifier = match src.modifier {
            SrcModifier::None => true,
            SrcModifier::Not => {
                matches!(ty, ConstBool | Predicate) && matches!(slot, Slot::BoolOrPredicate | Slot::Predicate)
            }
            m if super::instructions::negated_matrix(info, k, m) => false,
            m => slot == Slot::General && self.general_modifiers & modifier_bit(m) != 0,
        };
        modifier && self.swizzle(inst, slot, matrix_operand, src.swizzle)
    }

    fn swizzle(&self, inst: &Instruction, slot: Slot, matrix_operand: bool, sw: Swizzle) -> bool {
        if sw == Swizzle::IDENTITY || (slot == Slot::Sampler && self.major == 3) {
            return true;
        }
        if matches!(slot, Slot::Sampler | Slot::Label | Slot::Int | Slot::LoopCounter) || matrix_operand {
            return false;
        }
        if self.vertex || self.major == 3 {
            return true;
        }
        self.major == 2
            && inst.opcode != Opcode::Tex
            && (super::instructions::ps20_swizzle(sw) || self.ps2_arbitrary_swizzle)
    }

    #[inline(always)]
    fn specific(&self, inst: &Instruction, info: &OpcodeInfo) -> bool {
        if inst.opcode == Opcode::Cnd {
            return false;
        }
        // Scalar operands of SM2+ take a replicate swizzle.
        let scalars_replicate = self.major < 2
            || inst.src.iter().enumerate().all(|(k, s)| {
                let scalar = info.scalar_sources & (1 << k) != 0 || s.reg.ty == RegisterType::Predicate;
                !scalar || s.swizzle.is_replicate()
            });
        scalars_replicate && !(self.gradients_refused && info.gradients.gradient_instruction())
    }
}

#[cfg(test)]
mod tests {
    use super::QuickRules;
    use crate::bytecode::Register;
    use crate::bytecode::{
        DstParam, Instruction, Opcode, Operand as Slot, Program, RegisterType as R, RelAddr, ResultModifiers,
        SrcModifier, SrcParam, Swizzle, VersionId, WriteMask,
    };
    use crate::validate::version_rules::instructions::check_instruction;
    use crate::validate::{Caps, Cx, ValidationOptions};

    /// A plain operand for each slot kind.
    fn plain(slot: Slot) -> SrcParam {
        let ty = match slot {
            Slot::General => R::Temp,
            Slot::BoolOrPredicate => R::ConstBool,
            Slot::LoopCounter => R::Loop,
            Slot::Int => R::ConstInt,
            Slot::Predicate => R::Predicate,
            Slot::Label => R::Label,
            Slot::Sampler => R::Sampler,
        };
        SrcParam::new(Register::new(ty, 0))
    }

    fn relative(ty: R) -> Option<RelAddr> {
        Some(RelAddr { reg: Register::new(ty, 0), swizzle: Swizzle::replicate(0), implicit: false })
    }

    /// `opcode`'s form in `id` with plain operands, then every variation of one field of it:
    /// the destination's file, mask, result modifiers, shift and relative address, each
    /// source's file, modifier, swizzle and relative address, co-issue and a predicate.
    fn variations(opcode: Opcode, id: VersionId) -> Vec<Instruction> {
        let Some(form) = opcode.info().form_in(id) else { return Vec::new() };
        let mut base = Instruction::new(opcode);
        base.control = u8::from(form.control == crate::bytecode::Control::Comparison);
        base.offset = 1;
        if form.shape.dst {
            base.dst = Some(DstParam::new(Register::new(opcode.info().dst_file.unwrap_or(R::Temp), 0), WriteMask::ALL));
        }
        for k in 0..usize::from(form.shape.srcs) {
            base.src.push(plain(form.source(k)));
        }
        let mut out = vec![base];
        let mut with = |change: &dyn Fn(&mut Instruction)| {
            let mut inst = base;
            change(&mut inst);
            out.push(inst);
        };
        with(&|i| i.coissue = true);
        with(&|i| i.predicate = Some(SrcParam { swizzle: Swizzle::replicate(0), ..plain(Slot::Predicate) }));
        if form.shape.dst {
            for ty in R::ALL {
                with(&|i| dst_of(i).reg = Register::new(ty, 0));
            }
            for mask in [0, 0x1, 0x3, 0x7, 0x8, 0xC] {
                with(&|i| dst_of(i).mask = WriteMask(mask));
            }
            for m in 1..8 {
                with(&|i| dst_of(i).modifiers = ResultModifiers(m));
            }
            for shift in [1, -1, 3] {
                with(&|i| dst_of(i).shift = shift);
            }
            with(&|i| dst_of(i).relative = relative(R::Loop));
        }
        for k in 0..usize::from(form.shape.srcs) {
            for ty in R::ALL {
                with(&|i| set_src(i, k, |s| s.reg = Register::new(ty, 0)));
            }
            for raw in 1..14 {
                let m = SrcModifier::from_raw(raw).expect("0 to 13 are modifiers");
                with(&|i| set_src(i, k, |s| s.modifier = m));
            }
            for sw in [Swizzle::replicate(0), Swizzle::replicate(3), Swizzle(0xC9), Swizzle(0x78), Swizzle(0xA4)] {
                with(&|i| set_src(i, k, |s| s.swizzle = sw));
            }
            for (ty, file) in [(R::Const, R::Addr), (R::Const, R::Loop), (R::Input, R::Loop), (R::Temp, R::Loop)] {
                with(&|i| set_src(i, k, |s| (s.reg, s.relative) = (Register::new(ty, 0), relative(file))));
            }
        }
        out
    }

    fn dst_of(inst: &mut Instruction) -> &mut DstParam {
        inst.dst.as_mut().expect("the form has one")
    }

    fn set_src(inst: &mut Instruction, k: usize, change: impl Fn(&mut SrcParam)) {
        let mut srcs: Vec<SrcParam> = inst.src.iter().copied().collect();
        change(&mut srcs[k]);
        inst.src = Default::default();
        for s in srcs {
            inst.src.push(s);
        }
    }

    #[test]
    fn what_the_quick_test_accepts_the_full_checks_report_nothing_about() {
        let permissive = Caps {
            vs_predication: true,
            ps_predication: true,
            ps_arbitrary_swizzle: true,
            ps_gradient_instructions: true,
            ..Caps::default()
        };
        let (mut accepted, mut refused) = (0, 0);
        for caps in [Caps::default(), permissive] {
            let options = ValidationOptions { caps, ..ValidationOptions::strict() };
            for id in VersionId::ALL {
                for &opcode in Opcode::ALL {
                    for inst in variations(opcode, id) {
                        let mut program = Program::new(id.version());
                        program.instructions = vec![inst];
                        let mut cx = Cx::new(&program, &options, true);
                        let Some(quick) = QuickRules::new(&cx, id) else { continue };
                        let info = opcode.info();
                        let form = info.form_in(id).expect("variations exist only where the form does");
                        if !quick.accepts(&inst, info, form) {
                            refused += 1;
                            continue;
                        }
                        accepted += 1;
                        check_instruction(&mut cx, 0, info, form, id);
                        let found: Vec<_> = cx.out.errors.iter().chain(&cx.out.warnings).collect();
                        assert!(found.is_empty(), "{id:?}: accepted {inst:?}, which the full checks report: {found:?}");
                    }
                }
            }
        }
        // Both answers are exercised: plain instructions pass, each broken field is refused.
        assert!(accepted > 5_000 && refused > 50_000, "accepted {accepted}, refused {refused}");
    }
}
