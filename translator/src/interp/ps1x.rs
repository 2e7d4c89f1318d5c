//! ps_1_x texture instructions (docs/opcodes.md#ps1x-texture-ops): `texcoord`/`texcrd`, `tex`/`texld`
//! (ps_1_4), `texbem`/`texbeml`, `texreg2ar/gb/rgb`, the `texm3x2*`/`texm3x3*` families, `texdp3*`,
//! `texdepth` and `bem`.
//!
//! "coords M" is the interpolated texture coordinate set M; the stage state (texture type,
//! D3DTTFF_PROJECTED, bump-environment matrix, luminance) is [`Options::stages`]. Projection
//! happens before a bump offset is added. The dot products and bump sums follow the float rules
//! like every other multiply.
//!
//! [`Options::stages`]: super::Options::stages

use crate::bytecode::TextureDimension;
use crate::bytecode::{Instruction, Opcode};

use super::flow::lanes;
use super::machine::{Machine, Writes};
use super::{InterpError, InterpErrorKind as K, StageState};

impl Machine<'_> {
    fn stage(&self, n: usize) -> StageState {
        self.options.stages.get(n).copied().unwrap_or_default()
    }

    /// Coords M of `lane`, divided by the projective component when the stage says so.
    fn stage_coords(&self, m: usize, lane: usize) -> [f32; 4] {
        let c = self.lanes[lane].coords.get(m).copied().unwrap_or([0.0; 4]);
        let t = self.stage(m).transform;
        if !t.projected {
            return c;
        }
        let d = match t.count {
            1..=4 => t.count as usize - 1,
            _ => 3,
        };
        let q = c[d];
        c.map(|x| x / q)
    }

    /// Samples stage `m` with per-lane coordinates (implicit level of detail from the quad).
    fn sample_stage(&self, m: usize, coords: &[[f32; 4]], mask: u8) -> [Option<[f32; 4]>; 4] {
        let ty = self.stage(m).texture_type;
        self.sample_quad(m as u32, ty, coords, |_| None, |_| 0.0, mask)
    }

    /// Executes one ps_1_x texture instruction of stage M (the destination's
    /// number) for the lanes in `mask`.
    pub(super) fn ps1x_texture_op(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<Writes, InterpError> {
        let dst = ins.dst.ok_or_else(|| self.err(at, K::MissingOperand))?;
        let m = dst.reg.num as usize;
        match ins.opcode {
            Opcode::TexCoord => self.texcoord(at, ins, m, mask),
            Opcode::Tex if self.profile.ps_1_4 => self.ps14_texld(at, ins, mask),
            Opcode::Tex => {
                let c: Vec<_> = (0..self.lanes.len()).map(|l| self.stage_coords(m, l)).collect();
                Ok(texels(self.sample_stage(m, &c, mask)))
            }
            Opcode::TexBem | Opcode::TexBemL => self.texbem(at, ins, m, mask),
            Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => self.texreg2(at, ins, m, mask),
            Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => self.texm_pad(at, ins, m),
            Opcode::TexM3x2Tex
            | Opcode::TexM3x2Depth
            | Opcode::TexM3x3Tex
            | Opcode::TexM3x3
            | Opcode::TexM3x3Spec
            | Opcode::TexM3x3VSpec => self.texm_last_row(at, ins, m, mask),
            Opcode::TexDp3Tex | Opcode::TexDp3 => self.texdp3(at, ins, m, mask),
            Opcode::TexDepth => Ok(self.texdepth(m, mask)),
            Opcode::Bem => self.bem(at, ins, m, mask),
            _ => Err(self.err(at, K::Unsupported(ins.opcode))),
        }
    }

    /// Coords M · tN (tN per lane) for `lane`.
    fn dot_m(&self, m: usize, tn: &[[f32; 4]], lane: usize) -> f32 {
        let c = self.lanes[lane].coords.get(m).copied().unwrap_or([0.0; 4]);
        self.arith.dot(&c, &tn[lane], 3)
    }

    /// `texcoord tM`: (sat(u), sat(v), sat(w), 1); ps_1_4's `texcrd rD, tN`: the coordinates
    /// (with `_dz`/`_dw`), not clamped.
    fn texcoord(&self, at: usize, ins: &Instruction, m: usize, mask: u8) -> Result<Writes, InterpError> {
        if self.profile.ps_1_4 {
            let v = self.src_all(at, ins, 0)?;
            return Ok(values(mask, |l| v[l]));
        }
        let c: Vec<_> =
            (0..self.lanes.len()).map(|l| self.lanes[l].coords.get(m).copied().unwrap_or([0.0; 4])).collect();
        let sat = |x| self.arith.saturate(x);
        Ok(values(mask, |l| [sat(c[l][0]), sat(c[l][1]), sat(c[l][2]), 1.0]))
    }

    /// `texbem`/`texbeml tM, tN`: stage M at coords M offset by the bump matrix times tN's
    /// (du, dv); texbeml scales the texel by the luminance.
    fn texbem(&self, at: usize, ins: &Instruction, m: usize, mask: u8) -> Result<Writes, InterpError> {
        let ar = self.arith;
        let t = self.src_all(at, ins, 0)?;
        let st = self.stage(m);
        let b = st.bump_matrix;
        let c: Vec<[f32; 4]> = (0..self.lanes.len())
            .map(|l| {
                let c = self.stage_coords(m, l);
                let (du, dv) = (t[l][0], t[l][1]);
                let u = c[0] + ar.mul(b[0][0], du) + ar.mul(b[1][0], dv);
                let v = c[1] + ar.mul(b[0][1], du) + ar.mul(b[1][1], dv);
                [u, v, c[2], c[3]]
            })
            .collect();
        let mut s = self.sample_stage(m, &c, mask);
        if ins.opcode == Opcode::TexBemL {
            // The documented luminance step scales all of RGBA, unclamped:
            // t(m)RGBA = t(m)RGBA · (t(n)B · LSCALE(m) + LOFFSET(m)).
            for (lane, texel) in s.iter_mut().enumerate() {
                if let Some(texel) = texel {
                    let lum = ar.mad(t[lane][2], st.luminance_scale, st.luminance_offset);
                    *texel = texel.map(|x| ar.mul(x, lum));
                }
            }
        }
        Ok(texels(s))
    }

    /// `texreg2ar`/`texreg2gb`/`texreg2rgb tM, tN`: stage M at tN's (a, r), (g, b), (r, g, b).
    fn texreg2(&self, at: usize, ins: &Instruction, m: usize, mask: u8) -> Result<Writes, InterpError> {
        let t = self.src_all(at, ins, 0)?;
        let c: Vec<[f32; 4]> = t
            .iter()
            .map(|t| match ins.opcode {
                Opcode::TexReg2Ar => [t[3], t[0], 0.0, 1.0],
                Opcode::TexReg2Gb => [t[1], t[2], 0.0, 1.0],
                _ => [t[0], t[1], t[2], 1.0],
            })
            .collect();
        Ok(texels(self.sample_stage(m, &c, mask)))
    }

    /// `texm3x2pad`/`texm3x3pad tM, tN`: a row of the texture matrix, kept per lane (every lane:
    /// the last row reads it whatever the mask); writes nothing.
    fn texm_pad(&mut self, at: usize, ins: &Instruction, m: usize) -> Result<Writes, InterpError> {
        let t = self.src_all(at, ins, 0)?;
        let all = ((1u16 << self.lanes.len()) - 1) as u8;
        for lane in lanes(all) {
            let d = self.dot_m(m, &t, lane);
            let l = &mut self.lanes[lane];
            let i = l.texm_count.min(2);
            l.texm_rows[i] = d;
            l.texm_count = i + 1;
        }
        Ok([None; 4])
    }

    /// The last row of a texture matrix (`texm3x2tex`, `texm3x2depth`, `texm3x3`, `texm3x3tex`,
    /// `texm3x3spec`, `texm3x3vspec`): the rows so far and coords M · tN.
    fn texm_last_row(&mut self, at: usize, ins: &Instruction, m: usize, mask: u8) -> Result<Writes, InterpError> {
        let t = self.src_all(at, ins, 0)?;
        // The last row, then the full set of rows per lane.
        let rows: Vec<[f32; 3]> = (0..self.lanes.len())
            .map(|lane| {
                let d = self.dot_m(m, &t, lane);
                let l = &self.lanes[lane];
                let mut r = l.texm_rows;
                r[l.texm_count.min(2)] = d;
                r
            })
            .collect();
        for l in self.lanes.iter_mut() {
            l.texm_count = 0;
        }
        Ok(match ins.opcode {
            Opcode::TexM3x2Tex => {
                let c: Vec<_> = rows.iter().map(|r| [r[0], r[1], 0.0, 1.0]).collect();
                texels(self.sample_stage(m, &c, mask))
            }
            Opcode::TexM3x2Depth => {
                // depth = u / w with the pad row as u; w = 0 gives 1.
                for lane in lanes(mask) {
                    let [u, w, _] = rows[lane];
                    self.lanes[lane].depth = Some(if w == 0.0 { 1.0 } else { u / w });
                }
                [None; 4]
            }
            Opcode::TexM3x3 => values(mask, |l| [rows[l][0], rows[l][1], rows[l][2], 1.0]),
            Opcode::TexM3x3Tex => {
                let c: Vec<_> = rows.iter().map(|r| [r[0], r[1], r[2], 1.0]).collect();
                texels(self.sample_stage(m, &c, mask))
            }
            _ => self.texm3x3_reflection(at, ins, m, &rows, mask)?,
        })
    }

    /// `texm3x3spec`/`texm3x3vspec`: stage M at the eye vector E (source 1, or the w of coords
    /// M−2, M−1, M) reflected about the normal n = rows: R = 2·n·(n·E)/(n·n) − E.
    ///
    /// A zero normal (tN = 0) makes R NaN (texm3x3tex looks up the zero direction itself): D3D9
    /// leaves those texels undefined. The zero direction is a three-way tie, +Z by
    /// `cube_face`'s order as on lavapipe; a NaN direction reads another face on lavapipe, so
    /// fuzz-diff mismatches there are expected, not a bug on either side.
    fn texm3x3_reflection(
        &self,
        at: usize,
        ins: &Instruction,
        m: usize,
        rows: &[[f32; 3]],
        mask: u8,
    ) -> Result<Writes, InterpError> {
        let ar = self.arith;
        let eyes: Vec<[f32; 4]> = if ins.opcode == Opcode::TexM3x3Spec {
            self.src_all(at, ins, 1)?
        } else {
            (0..self.lanes.len())
                .map(|lane| {
                    let w =
                        |k: usize| m.checked_sub(k).and_then(|i| self.lanes[lane].coords.get(i)).map_or(0.0, |c| c[3]);
                    [w(2), w(1), w(0), 0.0]
                })
                .collect()
        };
        let c: Vec<[f32; 4]> = rows
            .iter()
            .zip(&eyes)
            .map(|(r, e)| {
                let n = [r[0], r[1], r[2], 0.0];
                let ne = ar.dot(&n, e, 3);
                let nn = ar.dot(&n, &n, 3);
                let k = |c: usize| 2.0 * ar.mul(n[c], ne) / nn - e[c];
                [k(0), k(1), k(2), 1.0]
            })
            .collect();
        Ok(texels(self.sample_stage(m, &c, mask)))
    }

    /// `texdp3 tM, tN`: coords M · tN, replicated; `texdp3tex`: stage M at (that, 0, 0, 1).
    fn texdp3(&self, at: usize, ins: &Instruction, m: usize, mask: u8) -> Result<Writes, InterpError> {
        let t = self.src_all(at, ins, 0)?;
        let d: Vec<_> = (0..self.lanes.len()).map(|l| self.dot_m(m, &t, l)).collect();
        if ins.opcode == Opcode::TexDp3 {
            return Ok(values(mask, |l| [d[l]; 4]));
        }
        let c: Vec<_> = d.iter().map(|&d| [d, 0.0, 0.0, 1.0]).collect();
        Ok(texels(self.sample_stage(m, &c, mask)))
    }

    /// ps_1_4 `texdepth rM`: depth = r.r / r.g, with r.g = 0 giving 1; writes no register.
    fn texdepth(&mut self, m: usize, mask: u8) -> Writes {
        for lane in lanes(mask) {
            let [r, g, ..] = self.lanes[lane].r.get(m).copied().unwrap_or([0.0; 4]);
            self.lanes[lane].depth = Some(if g == 0.0 { 1.0 } else { r / g });
        }
        [None; 4]
    }

    /// ps_1_4 `bem rM.xy, a, b`: a's (x, y) offset by the bump matrix of stage M times b.
    fn bem(&self, at: usize, ins: &Instruction, m: usize, mask: u8) -> Result<Writes, InterpError> {
        let ar = self.arith;
        let b = self.stage(m).bump_matrix;
        let mut out: Writes = [None; 4];
        for lane in lanes(mask) {
            let (s0, s1) = (self.src(at, ins, 0, lane)?, self.src(at, ins, 1, lane)?);
            let x = s0[0] + ar.mul(b[0][0], s1[0]) + ar.mul(b[1][0], s1[1]);
            let y = s0[1] + ar.mul(b[0][1], s1[0]) + ar.mul(b[1][1], s1[1]);
            out[lane] = Some(([x, y, 0.0, 0.0], ins.opcode.info().writes));
        }
        Ok(out)
    }

    /// ps_1_4 `texld rD, src`: stage D, the stage's texture type, `_dz`/`_dw` projection.
    fn ps14_texld(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<Writes, InterpError> {
        let m = ins.dst.ok_or_else(|| self.err(at, K::MissingOperand))?.reg.num as usize;
        let coords = self.src_all(at, ins, 0)?;
        let ty: TextureDimension = self.stage(m).texture_type;
        let t = self.sample_quad(m as u32, ty, &coords, |_| None, |_| 0.0, mask);
        Ok(t.map(|t| t.map(|t| (t, 0xF))))
    }
}

/// The value `v(lane)` for the lanes in `mask`, all four components produced.
fn values(mask: u8, v: impl Fn(usize) -> [f32; 4]) -> Writes {
    let mut out: Writes = [None; 4];
    for lane in lanes(mask) {
        out[lane] = Some((v(lane), 0xF));
    }
    out
}

/// Sampled texels as writes (the lanes not sampled write nothing).
fn texels(t: [Option<[f32; 4]>; 4]) -> Writes {
    t.map(|t| t.map(|t| (t, 0xF)))
}
