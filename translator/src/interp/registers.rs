//! Register files: the registers of one lane ([`Lane`]), the constants a program defines
//! ([`Defs`]) and the constants as the shader sees them ([`ConstFile`]); `operands.rs` reads and
//! writes them.

use crate::bytecode::{profile, Payload, Program, RegisterType, Version};

use super::io::{color_default, OutputRegister, PixelInput, VertexInput};
use super::Constants;

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
    /// Per temp component, the largest magnitude among the terms of the sum that last wrote it
    /// (0 where the last write was not a sum): what a driver reassociating the sum with a later
    /// one may round at (`reassociation`). Kept by the skewed runs only.
    pub sums: [[f32; 4]; TEMPS],
}

impl Lane {
    pub fn new() -> Lane {
        Lane {
            r: [[0.0; 4]; TEMPS],
            sums: [[0.0; 4]; TEMPS],
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
