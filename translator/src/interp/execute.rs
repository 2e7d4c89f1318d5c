//! The dispatch of each instruction to its semantics, at the top of the machine's files: the
//! straight-line instructions, co-issued pairs, `texkill` and the SM2+ texture loads.

use crate::bytecode::{Instruction, Opcode, SrcParam, TexldVariant};

use super::approximation::Skew;
use super::arithmetic::evaluate;
use super::flow::{lanes, Flow};
use super::machine::{Machine, SumTerms, Writes};
use super::quad;
use super::textures::Lod;
use super::{InterpError, InterpErrorKind as K};

impl Machine<'_> {
    /// One straight-line instruction for the lanes of `mask`.
    pub(super) fn op(&mut self, flow: &Flow, at: usize, mask: u8) -> Result<(), InterpError> {
        let ins = self.program[at];
        match ins.opcode {
            Opcode::Ret | Opcode::Break | Opcode::BreakC | Opcode::BreakP | Opcode::Call | Opcode::CallNz => {
                self.flow_op(flow, at, &ins, mask)
            }
            _ => {
                let (writes, sums) = self.compute(at, &ins, mask)?;
                self.commit(at, &ins, &writes, &sums)
            }
        }
    }

    /// A co-issued pair: both instructions read the registers from before the pair.
    pub(super) fn coissue(&mut self, a: usize, b: usize, mask: u8) -> Result<(), InterpError> {
        let (ia, ib) = (self.program[a], self.program[b]);
        let (wa, sa) = self.compute(a, &ia, mask)?;
        let (wb, sb) = self.compute(b, &ib, mask)?;
        self.commit(a, &ia, &wa, &sa)?;
        self.commit(b, &ib, &wb, &sb)
    }

    fn commit(&mut self, at: usize, ins: &Instruction, writes: &Writes, sums: &SumTerms) -> Result<(), InterpError> {
        for (lane, w) in writes.iter().enumerate() {
            if let Some((value, mask)) = w {
                self.write_dst(lane, ins, *value, *mask, sums[lane]).map_err(|k| self.err(at, k))?;
            }
        }
        Ok(())
    }

    /// Computes the results of `ins` for the lanes of `mask` without writing registers, and the
    /// terms of the sums among them.
    fn compute(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<(Writes, SumTerms), InterpError> {
        // A program built by hand may carry fewer operands than the opcode's form.
        let shape = ins.opcode.decoding_form(self.version).shape;
        if ins.src.len() < shape.srcs as usize || (shape.dst && ins.dst.is_none()) {
            return Err(self.err(at, K::MissingOperand));
        }
        let mut out: Writes = [None; 4];
        let mut sums: SumTerms = [[0.0; 4]; 4];
        // The components the opcode produces whatever the mask says (sincos: x and y; crs: xyz).
        let info = ins.opcode.info();
        let natural = info.writes;
        match ins.opcode {
            Opcode::Nop | Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Phase | Opcode::Label => {}
            _ if info.matrix.is_some() => {
                let m = info.matrix.expect("matched");
                let (n, rows) = (usize::from(m.width), usize::from(m.rows));
                let base = *ins.src.get(1).ok_or_else(|| self.err(at, K::MissingOperand))?;
                for lane in lanes(mask) {
                    let v = self.src(at, ins, 0, lane)?;
                    let mut r = [0.0; 4];
                    for (row, slot) in r.iter_mut().enumerate().take(rows) {
                        let num = base.reg.num.checked_add(row as u16);
                        let num = num.ok_or_else(|| self.err(at, K::RegisterOutOfRange(base.reg.name())))?;
                        let src = SrcParam { reg: crate::bytecode::Register { num, ..base.reg }, ..base };
                        let m = self.read_src(lane, &src).map_err(|k| self.err(at, k))?;
                        *slot = self.arith.dot(&v, &m, n);
                    }
                    out[lane] = Some((r, natural));
                }
            }
            Opcode::Setp => {
                let cmp = ins.comparison().ok_or_else(|| self.err(at, K::BadComparison(ins.control)))?;
                for lane in lanes(mask) {
                    let (a, b) = (self.src(at, ins, 0, lane)?, self.src(at, ins, 1, lane)?);
                    let r = std::array::from_fn(|c| if cmp.eval(a[c], b[c]) { 1.0 } else { 0.0 });
                    out[lane] = Some((r, 0xF));
                }
            }
            Opcode::Cnd => {
                // ps_1_0–1_3: src0's .w (r0.a) selects whole vectors; ps_1_4: per component.
                let per_component = self.profile.cnd_condition == crate::bytecode::CndCondition::PerComponent;
                for lane in lanes(mask) {
                    let s: [[f32; 4]; 3] = [0, 1, 2].map(|i| self.src(at, ins, i, lane)).try_into_array()?;
                    let r = std::array::from_fn(|c| {
                        let x = if per_component { s[0][c] } else { s[0][3] };
                        self.arith.decide(x, 0.5, |x, half| if x > half { s[1][c] } else { s[2][c] })
                    });
                    out[lane] = Some((r, 0xF));
                }
            }
            Opcode::Dsx | Opcode::Dsy => {
                let v = self.src_all(at, ins, 0)?;
                for lane in lanes(mask) {
                    let d = if ins.opcode == Opcode::Dsx { quad::ddx(&v, lane) } else { quad::ddy(&v, lane) };
                    out[lane] = Some((d, 0xF));
                }
            }
            Opcode::TexKill => self.texkill(at, ins, mask)?,
            Opcode::Tex if !self.profile.sm1 => out = self.texld(at, ins, mask)?,
            Opcode::TexLdd | Opcode::TexLdl => out = self.texld(at, ins, mask)?,
            Opcode::TexM3x3Diff => return Err(self.err(at, K::Unsupported(ins.opcode))),
            _ if self.profile.ps_1_x && info.stage_op => {
                out = self.ps1x_texture_op(at, ins, mask)?;
            }
            _ => (out, sums) = self.arithmetic(at, ins, mask)?,
        }
        Ok((out, sums))
    }

    /// A per-lane arithmetic instruction ([`evaluate`]); in the skewed runs a sum continuing
    /// another moves as a driver's reassociation may move it (`reassociation`).
    fn arithmetic(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<(Writes, SumTerms), InterpError> {
        let (mut out, mut sums): (Writes, SumTerms) = ([None; 4], [[0.0; 4]; 4]);
        let vs1x = self.profile.is_vertex() && self.profile.sm1;
        let sum = self.arith.skew != Skew::None && matches!(ins.opcode, Opcode::Add | Opcode::Sub | Opcode::Mad);
        for lane in lanes(mask) {
            let mut s = [[0.0; 4]; 4];
            for (i, slot) in s.iter_mut().enumerate().take(ins.src.len()) {
                *slot = self.src(at, ins, i, lane)?;
            }
            let mut r =
                evaluate(self.arith, ins.opcode, &s, vs1x).ok_or_else(|| self.err(at, K::Unsupported(ins.opcode)))?;
            if sum {
                (r, sums[lane]) = self.continued_sum(lane, ins, &s, r);
            }
            out[lane] = Some((r, ins.opcode.info().writes));
        }
        Ok((out, sums))
    }

    /// `texkill`: ps_1_x tests x, y, z; SM2+ the written components. The pixel is demoted: it
    /// keeps running so that its neighbours' derivatives stay defined.
    fn texkill(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<(), InterpError> {
        let dst = ins.dst.ok_or_else(|| self.err(at, K::MissingOperand))?;
        let components = if self.profile.ps_1_x { 0b0111 } else { dst.mask.0 };
        let src = SrcParam::new(dst.reg);
        for lane in lanes(mask) {
            let v = self.read_src(lane, &src).map_err(|k| self.err(at, k))?;
            if (0..4).any(|c| components & (1 << c) != 0 && v[c] < 0.0) {
                self.lanes[lane].discarded = true;
            }
        }
        Ok(())
    }

    /// SM2+ `texld`/`texldp`/`texldb`/`texldd`/`texldl`.
    fn texld(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<Writes, InterpError> {
        let mut coords = self.src_all(at, ins, 0)?;
        let s = ins.src.get(1).ok_or_else(|| self.err(at, K::MissingOperand))?;
        let (stage, ty, swizzle) = (
            s.reg.num as u32,
            self.prepared.sampler_types.get(s.reg.num as usize).copied().unwrap_or_default(),
            s.swizzle,
        );
        let variant = if ins.opcode == Opcode::Tex { ins.texld_variant() } else { None };
        if variant == Some(TexldVariant::Project) {
            for c in coords.iter_mut() {
                let w = c[3];
                *c = [c[0] / w, c[1] / w, c[2] / w, w];
            }
        }
        let grads = if ins.opcode == Opcode::TexLdd {
            Some((self.src_all(at, ins, 2)?, self.src_all(at, ins, 3)?))
        } else {
            None
        };
        let lod = |lane: usize| match (ins.opcode, &grads) {
            (Opcode::TexLdl, _) => Some(Lod::Level(coords[lane][3])),
            (_, Some((dx, dy))) => Some(Lod::Derivatives {
                ddx: [dx[lane][0], dx[lane][1], dx[lane][2]],
                ddy: [dy[lane][0], dy[lane][1], dy[lane][2]],
                bias: 0.0,
            }),
            _ => None,
        };
        let bias = |lane: usize| if variant == Some(TexldVariant::Bias) { coords[lane][3] } else { 0.0 };
        let texels = self.sample_quad(stage, ty, &coords, lod, bias, mask);
        // ps_2_x+ may swizzle the sampler: the texel's components are selected by it.
        Ok(texels.map(|t| t.map(|t| (std::array::from_fn(|c| t[swizzle.get(c)]), 0xF))))
    }
}

/// Collecting an array of results.
trait TryIntoArray<T, const N: usize> {
    fn try_into_array(self) -> Result<[T; N], InterpError>;
}

impl<T: Copy + Default, const N: usize> TryIntoArray<T, N> for [Result<T, InterpError>; N] {
    fn try_into_array(self) -> Result<[T; N], InterpError> {
        let mut out = [T::default(); N];
        for (slot, r) in out.iter_mut().zip(self) {
            *slot = r?;
        }
        Ok(out)
    }
}
