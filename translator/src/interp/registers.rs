//! Register files and operand access: reads with relative addressing, source modifiers and
//! swizzles; writes with result shift, saturation, write mask and predicate.

use crate::bytecode::{
    profile, registers::misc, DstParam, Instruction, Opcode, Payload, Program, RegisterType, RelAddr, SrcModifier,
    SrcParam, Version,
};

use super::arithmetic::{floor_address, round_address};
use super::execute::Machine;
use super::io::{color_default, OutputRegister, PixelInput, VertexInput};
use super::{Constants, InterpErrorKind as K};

/// Temporaries held per lane (`r0–r31`, the most any version has).
pub(super) const TEMPS: usize = profile::MAX_TEMPS as usize;
/// The most float constants (`c0–c8191`, software vertex processing).
pub(super) const FLOAT_CONSTANTS: usize = profile::SW_FLOAT_CONSTANTS as usize;
/// The most integer and boolean constants (`i0–i2047`, `b0–b2047`, the `_sw` models).
const SW_INT_BOOL: usize = profile::SW_INT_BOOL_CONSTANTS as usize;

/// The registers of one invocation.
#[derive(Clone, Debug)]
pub(super) struct Lane {
    pub r: [[f32; 4]; TEMPS],
    /// `v#`.
    pub v: [[f32; 4]; 16],
    /// `t#`: ps_1_0–1_3 texture registers (writable, seeded with the coordinates), ps_1_4/ps_2_x
    /// texture coordinates.
    pub t: [[f32; 4]; 8],
    /// The interpolated texture coordinate sets that ps_1_x texture ops read ("coords M").
    pub coords: [[f32; 4]; 8],
    pub a0: [i32; 4],
    pub p0: [bool; 4],
    pub vpos: [f32; 2],
    pub vface: f32,
    /// `oPos`, `oFog`, `oPts`.
    pub rast: [OutputRegister; 3],
    pub attr: [OutputRegister; 2],
    pub texcrd: [OutputRegister; 8],
    pub out: [OutputRegister; 12],
    pub color: [OutputRegister; 4],
    pub depth: Option<f32>,
    pub discarded: bool,
    /// ps_1_x `texm3x*pad` rows computed so far.
    pub texm_rows: [f32; 3],
    pub texm_count: usize,
}

impl Lane {
    pub fn new() -> Lane {
        Lane {
            r: [[0.0; 4]; TEMPS],
            v: [[0.0; 4]; 16],
            t: [[0.0; 4]; 8],
            coords: [[0.0; 4]; 8],
            a0: [0; 4],
            p0: [false; 4],
            vpos: [0.0; 2],
            vface: 1.0,
            rast: [OutputRegister::default(); 3],
            attr: [OutputRegister::with_default(color_default(0)), OutputRegister::with_default(color_default(1))],
            texcrd: [OutputRegister::default(); 8],
            out: [OutputRegister::default(); 12],
            color: [OutputRegister::default(); 4],
            depth: None,
            discarded: false,
            texm_rows: [0.0; 3],
            texm_count: 0,
        }
    }

    pub fn load_vertex_input(&mut self, input: &VertexInput) {
        self.v = input.v;
    }

    pub fn load_pixel_input(&mut self, input: &PixelInput) {
        self.v[..10].copy_from_slice(&input.v);
        self.coords = input.t;
        // ps_1_0–1_3: t# are temporaries seeded with the coordinates; ps_1_4 and ps_2_x read
        // them as the coordinates.
        self.t = input.t;
        self.vpos = input.vpos;
        self.vface = input.vface;
    }
}

/// The program's own constants (`def`, `defi`, `defb`), gathered once.
#[derive(Debug, Default)]
pub(super) struct Defs {
    floats: Vec<Option<[f32; 4]>>,
    ints: Vec<Option<[i32; 4]>>,
    bools: Vec<Option<bool>>,
}

impl Defs {
    pub fn new(program: &Program) -> Defs {
        let mut d = Defs::default();
        for ins in program.iter() {
            let Some(dst) = ins.dst else { continue };
            let n = dst.reg.num as usize;
            match ins.payload {
                Payload::Def(bits) if dst.reg.ty == RegisterType::Const && n < FLOAT_CONSTANTS => {
                    if d.floats.len() <= n {
                        d.floats.resize(n + 1, None);
                    }
                    d.floats[n] = Some(bits.map(f32::from_bits));
                }
                Payload::DefI(v) if n < SW_INT_BOOL => set(&mut d.ints, n, v),
                Payload::DefB(v) if n < SW_INT_BOOL => set(&mut d.bools, n, v != 0),
                _ => {}
            }
        }
        d
    }
}

fn set<T: Clone>(file: &mut Vec<Option<T>>, n: usize, v: T) {
    if file.len() <= n {
        file.resize(n + 1, None);
    }
    file[n] = Some(v);
}

/// Constants as the shader sees them: API values with `def`/`defi`/`defb` on top.
#[derive(Debug)]
pub(super) struct ConstFile<'a> {
    api: &'a Constants,
    defs: &'a Defs,
    /// ps_1_x clamps float constants to [-1, 1] on read.
    clamp: bool,
    /// How many `i#`/`b#` registers the version has: 16, or 2048 in the `_sw` models, whose
    /// registers past the API's 16 read 0 / false unless `defi`/`defb` set them.
    int_bool_count: usize,
}

impl<'a> ConstFile<'a> {
    pub fn new(defs: &'a Defs, api: &'a Constants, version: Version) -> ConstFile<'a> {
        // The API sets 16 of each; the version may have more (2048 in the `_sw` models).
        let p = version.profile();
        let int_bool_count = usize::from(p.registers.ints.max(profile::INT_BOOL_CONSTANTS));
        ConstFile { api, defs, clamp: p.ps_1_x, int_bool_count }
    }

    /// `c#` (0 beyond the file).
    pub fn float(&self, index: i64) -> [f32; 4] {
        if !(0..FLOAT_CONSTANTS as i64).contains(&index) {
            return [0.0; 4];
        }
        let i = index as usize;
        let v =
            self.defs.floats.get(i).copied().flatten().or_else(|| self.api.float.get(i).copied()).unwrap_or([0.0; 4]);
        if self.clamp {
            v.map(|x| x.clamp(-1.0, 1.0))
        } else {
            v
        }
    }

    pub fn int(&self, n: u16) -> Option<[i32; 4]> {
        let n = n as usize;
        if n >= self.int_bool_count {
            return None;
        }
        self.defs.ints.get(n).copied().flatten().or_else(|| Some(self.api.int.get(n).copied().unwrap_or([0; 4])))
    }

    pub fn bool(&self, n: u16) -> Option<bool> {
        let n = n as usize;
        if n >= self.int_bool_count {
            return None;
        }
        self.defs.bools.get(n).copied().flatten().or_else(|| Some(self.api.bool.get(n).copied().unwrap_or(false)))
    }
}

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
        let rel = dst.relative.is_some();
        let index = dst.reg.num as i64 + self.rel_offset(lane, dst.relative);
        let l = &mut self.lanes[lane];
        let name = || dst.reg.name();
        let put = |reg: &mut [f32; 4]| {
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    reg[c] = value[c];
                }
            }
        };
        fn slot<T, const N: usize>(file: &mut [T; N], index: i64) -> Option<&mut T> {
            usize::try_from(index).ok().and_then(|i| file.get_mut(i))
        }
        let missing = || if rel { Ok(()) } else { Err(K::RegisterOutOfRange(name())) };
        macro_rules! file {
            ($f:expr) => {
                match slot($f, index) {
                    Some(r) => put(r),
                    None => return missing(),
                }
            };
        }
        macro_rules! output {
            ($f:expr) => {
                match slot($f, index) {
                    Some(r) => {
                        put(&mut r.value);
                        r.written |= mask;
                    }
                    None => return missing(),
                }
            };
        }
        match dst.reg.ty {
            RegisterType::Temp => file!(&mut l.r),
            RegisterType::Texture => file!(&mut l.t),
            RegisterType::Addr => {
                // vs_1_x `mov a0` floors; `mova` rounds to nearest.
                let convert = if ins.opcode == Opcode::Mova { round_address } else { floor_address };
                for (c, (a, x)) in l.a0.iter_mut().zip(value).enumerate() {
                    if mask & (1 << c) != 0 {
                        *a = convert(x);
                    }
                }
            }
            RegisterType::Predicate => {
                for (c, (p, x)) in l.p0.iter_mut().zip(value).enumerate() {
                    if mask & (1 << c) != 0 {
                        *p = x != 0.0;
                    }
                }
            }
            RegisterType::RastOut => output!(&mut l.rast),
            RegisterType::AttrOut => output!(&mut l.attr),
            RegisterType::TexCrdOut => output!(&mut l.texcrd),
            RegisterType::Output => output!(&mut l.out),
            RegisterType::ColorOut => output!(&mut l.color),
            RegisterType::DepthOut => {
                if mask & 1 != 0 {
                    l.depth = Some(value[0]);
                }
            }
            _ => return Err(K::NotWritable(name())),
        }
        Ok(())
    }
}
