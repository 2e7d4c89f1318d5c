//! Operand access: reads with relative addressing, source modifiers and swizzles; writes with
//! result shift, saturation, write mask and predicate.

use crate::bytecode::{registers::misc, DstParam, Instruction, Opcode, RegisterType, RelAddr, SrcModifier, SrcParam};

use super::arithmetic::{floor_address, round_address};
use super::io::OutputRegister;
use super::machine::Machine;
use super::InterpErrorKind as K;

fn get<const N: usize>(
    file: &[[f32; 4]; N],
    index: i64,
    relative: bool,
    name: impl Fn() -> String,
) -> Result<[f32; 4], K> {
    match usize::try_from(index).ok().and_then(|i| file.get(i)) {
        Some(v) => Ok(*v),
        // Relative addressing out of range reads 0.
        None if relative => Ok([0.0; 4]),
        None => Err(K::RegisterOutOfRange(name())),
    }
}

impl Machine<'_> {
    /// The value of the address register component that relative addressing adds.
    fn rel_offset(&self, lane: usize, rel: Option<RelAddr>) -> i64 {
        match rel {
            None => 0,
            Some(r) if r.reg.ty == RegisterType::Loop => self.loop_stack.last().copied().unwrap_or(0) as i64,
            Some(r) => self.lanes[lane].a0[r.component()] as i64,
        }
    }

    /// The raw four components of a source's register.
    pub(super) fn register_value(&self, lane: usize, src: &SrcParam) -> Result<[f32; 4], K> {
        let l = &self.lanes[lane];
        let rel = src.relative.is_some();
        let index = src.reg.num as i64 + self.rel_offset(lane, src.relative);
        let name = || src.reg.name();
        Ok(match src.reg.ty {
            RegisterType::Temp => get(&l.r, index, rel, name)?,
            RegisterType::Input => get(&l.v, index, rel, name)?,
            RegisterType::Const => self.consts.float(index),
            RegisterType::Texture => get(&l.t, index, rel, name)?,
            RegisterType::Addr => l.a0.map(|x| x as f32),
            RegisterType::Loop => [self.loop_stack.last().copied().unwrap_or(0) as f32; 4],
            RegisterType::ConstInt => {
                self.consts.int(src.reg.num).ok_or_else(|| K::RegisterOutOfRange(name()))?.map(|x| x as f32)
            }
            RegisterType::ConstBool => {
                [if self.consts.bool(src.reg.num).ok_or_else(|| K::RegisterOutOfRange(name()))? { 1.0 } else { 0.0 }; 4]
            }
            RegisterType::Predicate => l.p0.map(|b| if b { 1.0 } else { 0.0 }),
            RegisterType::MiscType if src.reg.num == misc::POSITION => [l.vpos[0], l.vpos[1], 0.0, 0.0],
            RegisterType::MiscType if src.reg.num == misc::FACE => [l.vface; 4],
            _ => return Err(K::NotReadable(name())),
        })
    }

    /// A source operand: register, `_dz`/`_dw` division, swizzle, then the modifier.
    pub(super) fn read_src(&self, lane: usize, src: &SrcParam) -> Result<[f32; 4], K> {
        let mut v = self.register_value(lane, src)?;
        match src.modifier {
            SrcModifier::Dz => v = v.map(|x| x / v[2]),
            SrcModifier::Dw => v = v.map(|x| x / v[3]),
            _ => {}
        }
        let v: [f32; 4] = std::array::from_fn(|c| v[src.swizzle.get(c)]);
        Ok(v.map(|x| match src.modifier {
            SrcModifier::None | SrcModifier::Dz | SrcModifier::Dw => x,
            SrcModifier::Neg => -x,
            SrcModifier::Bias => x - 0.5,
            SrcModifier::BiasNeg => -(x - 0.5),
            SrcModifier::Sign => 2.0 * x - 1.0,
            SrcModifier::SignNeg => -(2.0 * x - 1.0),
            SrcModifier::Comp => 1.0 - x,
            SrcModifier::X2 => 2.0 * x,
            SrcModifier::X2Neg => -2.0 * x,
            SrcModifier::Abs => x.abs(),
            SrcModifier::AbsNeg => -x.abs(),
            // Logical not of a bool/predicate read as a value.
            SrcModifier::Not => (x == 0.0) as u8 as f32,
        }))
    }

    /// The components of `mask` that the instruction's predicate lets through for `lane`.
    fn predicate_mask(&self, lane: usize, ins: &Instruction) -> u8 {
        let Some(p) = ins.predicate else { return 0xF };
        let not = p.modifier == SrcModifier::Not;
        let mut m = 0;
        for c in 0..4 {
            if self.lanes[lane].p0[p.swizzle.get(c)] != not {
                m |= 1 << c;
            }
        }
        m
    }

    /// Writes `value` to the destination of `ins` for `lane`: ps_1_x shift, then saturate, then
    /// the write mask (and `extra_mask`), the predicate, and the register's own conversion.
    pub(super) fn write_dst(
        &mut self,
        lane: usize,
        ins: &Instruction,
        value: [f32; 4],
        extra_mask: u8,
        sums: [f32; 4],
    ) -> Result<(), K> {
        let dst: DstParam = ins.dst.ok_or(K::MissingOperand)?;
        let scale = 2f32.powi(dst.shift as i32);
        let sat = dst.modifiers.saturate();
        let value = value.map(|x| {
            let x = if dst.shift != 0 { x * scale } else { x };
            if sat {
                self.arith.saturate(x)
            } else {
                x
            }
        });
        let mask = dst.mask.0 & extra_mask & self.predicate_mask(lane, ins);
        let index = dst.reg.num as i64 + self.rel_offset(lane, dst.relative);
        // A relative write past the file writes nothing; a direct one names a register that
        // does not exist.
        let missing = || if dst.relative.is_some() { Ok(()) } else { Err(K::RegisterOutOfRange(dst.reg.name())) };
        let l = &mut self.lanes[lane];
        let stored = match dst.reg.ty {
            RegisterType::Temp => {
                // A saturated or scaled result ends the sum: no driver reassociates across it.
                let sums = if sat || dst.shift != 0 { [0.0; 4] } else { sums };
                if let Some(s) = slot(&mut l.sums, index) {
                    put(s, sums, mask);
                }
                slot(&mut l.r, index).map(|r| put(r, value, mask))
            }
            RegisterType::Texture => slot(&mut l.t, index).map(|r| put(r, value, mask)),
            RegisterType::Addr => {
                // vs_1_x `mov a0` floors; `mova` rounds to nearest.
                let convert = if ins.opcode == Opcode::Mova { round_address } else { floor_address };
                for (c, (a, x)) in l.a0.iter_mut().zip(value).enumerate() {
                    if mask & (1 << c) != 0 {
                        *a = convert(x);
                    }
                }
                Some(())
            }
            RegisterType::Predicate => {
                for (c, (p, x)) in l.p0.iter_mut().zip(value).enumerate() {
                    if mask & (1 << c) != 0 {
                        *p = x != 0.0;
                    }
                }
                Some(())
            }
            RegisterType::RastOut => slot(&mut l.rast, index).map(|r| put_output(r, value, mask)),
            RegisterType::AttrOut => slot(&mut l.attr, index).map(|r| put_output(r, value, mask)),
            RegisterType::TexCrdOut => slot(&mut l.texcrd, index).map(|r| put_output(r, value, mask)),
            RegisterType::Output => slot(&mut l.out, index).map(|r| put_output(r, value, mask)),
            RegisterType::ColorOut => slot(&mut l.color, index).map(|r| put_output(r, value, mask)),
            RegisterType::DepthOut => {
                if mask & 1 != 0 {
                    l.depth = Some(value[0]);
                }
                Some(())
            }
            _ => return Err(K::NotWritable(dst.reg.name())),
        };
        stored.map_or_else(missing, Ok)
    }
}

/// Register `index` of a file, `None` past either end.
fn slot<T, const N: usize>(file: &mut [T; N], index: i64) -> Option<&mut T> {
    usize::try_from(index).ok().and_then(|i| file.get_mut(i))
}

/// The components of `value` that `mask` writes, into `reg`.
fn put(reg: &mut [f32; 4], value: [f32; 4], mask: u8) {
    for c in 0..4 {
        if mask & (1 << c) != 0 {
            reg[c] = value[c];
        }
    }
}

/// The same into an output register, which also records the components written.
fn put_output(reg: &mut OutputRegister, value: [f32; 4], mask: u8) {
    put(&mut reg.value, value, mask);
    reg.written |= mask;
}
