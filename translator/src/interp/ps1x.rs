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

use crate::bytecode::{Instruction, Opcode};

use super::control_flow::lanes;
use super::execute::{Machine, Writes};
use super::io::saturate;
use super::textures::SamplerType;
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

    pub(super) fn ps1x_texture_op(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<Writes, InterpError> {
        let dst = ins.dst.ok_or_else(|| self.err(at, K::MissingOperand))?;
        let m = dst.reg.num as usize;
        let n_lanes = self.lanes.len();
        let all = ((1u16 << n_lanes) - 1) as u8;
        let ps14 = self.version.at_least(1, 4);
        let ar = self.arith;
        let mut out: Writes = [None; 4];
        let values = |out: &mut Writes, v: &dyn Fn(usize) -> [f32; 4], natural: u8| {
            for lane in lanes(mask) {
                out[lane] = Some((v(lane), natural));
            }
        };
        // tN (source 0) for every lane, and coords M · tN.
        let tn = |s: &Self| s.src_all(at, ins, 0);
        let dot_m = |s: &Self, tn: &[[f32; 4]], lane: usize| {
            let c = s.lanes[lane].coords.get(m).copied().unwrap_or([0.0; 4]);
            ar.dot(&c, &tn[lane], 3)
        };
        let texels = |out: &mut Writes, t: [Option<[f32; 4]>; 4]| {
            for (o, t) in out.iter_mut().zip(t) {
                *o = t.map(|t| (t, 0xF));
            }
        };
        match ins.opcode {
            Opcode::TexCoord if ps14 => {
                // texcrd rD, tN: the coordinates (with _dz/_dw), not clamped.
                let v = self.src_all(at, ins, 0)?;
                values(&mut out, &|l| v[l], 0xF);
            }
            Opcode::TexCoord => {
                // texcoord tM: (sat(u), sat(v), sat(w), 1).
                let c: Vec<_> =
                    (0..n_lanes).map(|l| self.lanes[l].coords.get(m).copied().unwrap_or([0.0; 4])).collect();
                values(&mut out, &|l| [saturate(c[l][0]), saturate(c[l][1]), saturate(c[l][2]), 1.0], 0xF);
            }
            Opcode::Tex if ps14 => return self.ps14_texld(at, ins, mask),
            Opcode::Tex => {
                let c: Vec<_> = (0..n_lanes).map(|l| self.stage_coords(m, l)).collect();
                texels(&mut out, self.sample_stage(m, &c, mask));
            }
            Opcode::TexBem | Opcode::TexBemL => {
                let t = tn(self)?;
                let st = self.stage(m);
                let b = st.bump_matrix;
                let c: Vec<[f32; 4]> = (0..n_lanes)
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
                texels(&mut out, s);
            }
            Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => {
                let t = tn(self)?;
                let c: Vec<[f32; 4]> = t
                    .iter()
                    .map(|t| match ins.opcode {
                        Opcode::TexReg2Ar => [t[3], t[0], 0.0, 1.0],
                        Opcode::TexReg2Gb => [t[1], t[2], 0.0, 1.0],
                        _ => [t[0], t[1], t[2], 1.0],
                    })
                    .collect();
                texels(&mut out, self.sample_stage(m, &c, mask));
            }
            Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
                let t = tn(self)?;
                for lane in lanes(all) {
                    let d = dot_m(self, &t, lane);
                    let l = &mut self.lanes[lane];
                    let i = l.texm_count.min(2);
                    l.texm_rows[i] = d;
                    l.texm_count = i + 1;
                }
            }
            Opcode::TexM3x2Tex
            | Opcode::TexM3x2Depth
            | Opcode::TexM3x3Tex
            | Opcode::TexM3x3
            | Opcode::TexM3x3Spec
            | Opcode::TexM3x3VSpec => {
                let t = tn(self)?;
                // The last row, then the full set of rows per lane.
                let rows: Vec<[f32; 3]> = (0..n_lanes)
                    .map(|lane| {
                        let d = dot_m(self, &t, lane);
                        let l = &self.lanes[lane];
                        let mut r = l.texm_rows;
                        r[l.texm_count.min(2)] = d;
                        r
                    })
                    .collect();
                for l in self.lanes.iter_mut() {
                    l.texm_count = 0;
                }
                match ins.opcode {
                    Opcode::TexM3x2Tex => {
                        let c: Vec<_> = rows.iter().map(|r| [r[0], r[1], 0.0, 1.0]).collect();
                        texels(&mut out, self.sample_stage(m, &c, mask));
                    }
                    Opcode::TexM3x2Depth => {
                        // depth = u / w with the pad row as u; w = 0 gives 1.
                        for lane in lanes(mask) {
                            let [u, w, _] = rows[lane];
                            self.lanes[lane].depth = Some(if w == 0.0 { 1.0 } else { u / w });
                        }
                    }
                    Opcode::TexM3x3 => values(&mut out, &|l| [rows[l][0], rows[l][1], rows[l][2], 1.0], 0xF),
                    Opcode::TexM3x3Tex => {
                        let c: Vec<_> = rows.iter().map(|r| [r[0], r[1], r[2], 1.0]).collect();
                        texels(&mut out, self.sample_stage(m, &c, mask));
                    }
                    _ => {
                        // Reflection of the eye vector E about the normal n = rows:
                        // R = 2·n·(n·E)/(n·n) − E.
                        // A zero normal (tN = 0) makes R NaN (texm3x3tex looks up the zero
                        // direction itself): D3D9 leaves those texels undefined. The zero
                        // direction is a three-way tie, +Z by `cube_face`'s order as on lavapipe;
                        // a NaN direction reads another face on lavapipe, so fuzz-diff mismatches
                        // there are expected, not a bug on either side.
                        let eyes: Vec<[f32; 4]> = if ins.opcode == Opcode::TexM3x3Spec {
                            self.src_all(at, ins, 1)?
                        } else {
                            (0..n_lanes)
                                .map(|lane| {
                                    let w = |k: usize| {
                                        m.checked_sub(k)
                                            .and_then(|i| self.lanes[lane].coords.get(i))
                                            .map_or(0.0, |c| c[3])
                                    };
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
                        texels(&mut out, self.sample_stage(m, &c, mask));
                    }
                }
            }
            Opcode::TexDp3Tex => {
                let t = tn(self)?;
                let c: Vec<_> = (0..n_lanes).map(|l| [dot_m(self, &t, l), 0.0, 0.0, 1.0]).collect();
                texels(&mut out, self.sample_stage(m, &c, mask));
            }
            Opcode::TexDp3 => {
                let t = tn(self)?;
                let d: Vec<_> = (0..n_lanes).map(|l| dot_m(self, &t, l)).collect();
                values(&mut out, &|l| [d[l]; 4], 0xF);
            }
            Opcode::TexDepth => {
                // depth = r5.r / r5.g, with r5.g = 0 giving 1.
                for lane in lanes(mask) {
                    let [r, g, ..] = self.lanes[lane].r.get(m).copied().unwrap_or([0.0; 4]);
                    self.lanes[lane].depth = Some(if g == 0.0 { 1.0 } else { r / g });
                }
            }
            Opcode::Bem => {
                let b = self.stage(m).bump_matrix;
                for lane in lanes(mask) {
                    let (s0, s1) = (self.src(at, ins, 0, lane)?, self.src(at, ins, 1, lane)?);
                    let x = s0[0] + ar.mul(b[0][0], s1[0]) + ar.mul(b[1][0], s1[1]);
                    let y = s0[1] + ar.mul(b[0][1], s1[0]) + ar.mul(b[1][1], s1[1]);
                    out[lane] = Some(([x, y, 0.0, 0.0], 0b0011));
                }
            }
            _ => return Err(self.err(at, K::Unsupported(ins.opcode))),
        }
        Ok(out)
    }

    /// ps_1_4 `texld rD, src`: stage D, the stage's texture type, `_dz`/`_dw` projection.
    fn ps14_texld(&mut self, at: usize, ins: &Instruction, mask: u8) -> Result<Writes, InterpError> {
        let m = ins.dst.ok_or_else(|| self.err(at, K::MissingOperand))?.reg.num as usize;
        let coords = self.src_all(at, ins, 0)?;
        let ty: SamplerType = self.stage(m).texture_type;
        let t = self.sample_quad(m as u32, ty, &coords, |_| None, |_| 0.0, mask);
        Ok(t.map(|t| t.map(|t| (t, 0xF))))
    }
}
