//! The render-state block as a typed value: what a caller writes to the uniform buffer at
//! binding [`RENDER_STATE_BINDING`](crate::lower::RENDER_STATE_BINDING) of a translation that
//! has one ([`BindingLayout::render_state`](crate::lower::BindingLayout::render_state)), and the
//! pipeline constants of a translation with overrides ([`crate::key::delivery`]).
//!
//! [`RenderState::to_bytes`] gives exactly the layout the module declares ([`LAYOUT`]; the same
//! table is drawn in [`crate::lower`]'s documentation, and a test checks the three agree).
//! Every translation that reads the block declares the whole struct, whatever it reads.

/// The members of the block: (name, byte offset, size in bytes), in order. `modes` members are
/// `u32`; all others `f32` (vectors and arrays of `vec4`).
pub const LAYOUT: [(&str, u32, u32); 20] = [
    ("fog_color", 0, 16),
    ("fog_start", 16, 4),
    ("fog_end", 20, 4),
    ("fog_density", 24, 4),
    ("alpha_ref", 28, 4),
    ("point_size", 32, 4),
    ("point_size_min", 36, 4),
    ("point_size_max", 40, 4),
    ("pad", 44, 4),
    ("clip_planes", 48, 128),
    ("bump_env", 176, 128),
    ("bump_luminance", 304, 128),
    ("projected", 432, 32),
    ("alpha_func", 464, 4),
    ("fog_mode", 468, 4),
    ("fog_source", 472, 4),
    ("clip_plane_mask", 476, 4),
    ("unbound_samplers", 480, 4),
    ("viewport_width", 484, 4),
    ("viewport_height", 488, 4),
];

/// Size in bytes of the block (a multiple of 16, as a uniform struct's size is).
pub const SIZE: u32 = 496;

/// The render-state modes a translation reads at run time (uniform delivery) or takes as
/// pipeline constants (override delivery); values as in [`crate::key::delivery`]'s table.
///
/// Take them from the device state ([`crate::Shader::modes`], `Modes::from_state`), never from
/// the key the shader was translated under: that key's overridden fields are reset to their
/// defaults ([`crate::ShaderKey::minimal`]), and `Modes::from_key` refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modes {
    /// D3DCMPFUNC (1 never … 8 always); 8 when the alpha test is off.
    pub alpha_func: u32,
    /// 0 none, 1 exp, 2 exp2, 3 linear, 4 vertex fog.
    pub fog_mode: u32,
    /// 0 z, 1 w.
    pub fog_source: u32,
    /// D3DRS_CLIPPLANEENABLE.
    pub clip_plane_mask: u32,
    /// Bit n: nothing bound to `s n`.
    pub unbound_samplers: u32,
    /// ps_1_0–ps_1_3: the divisor's component count per stage (1–4), 0 for no projection.
    pub projected: [u32; 8],
}

impl Default for Modes {
    /// The device defaults: alpha test off, no fog, no clip planes, nothing unbound.
    fn default() -> Modes {
        Modes { alpha_func: 8, fog_mode: 0, fog_source: 0, clip_plane_mask: 0, unbound_samplers: 0, projected: [0; 8] }
    }
}

impl Modes {
    /// Every pipeline-constant name with its value (override names of [`crate::key::delivery`]).
    pub fn named(&self) -> Vec<(String, u32)> {
        self.named_static().into_iter().map(|(n, v)| (n.to_string(), v)).collect()
    }

    /// [`Modes::named`] with the names as static strings.
    pub(crate) fn named_static(&self) -> [(&'static str, u32); 13] {
        let p = &self.projected;
        let names = &PROJECTION_NAMES;
        [
            ("alpha_func", self.alpha_func),
            ("fog_mode", self.fog_mode),
            ("fog_source", self.fog_source),
            ("clip_plane_mask", self.clip_plane_mask),
            ("unbound_samplers", self.unbound_samplers),
            (names[0], p[0]),
            (names[1], p[1]),
            (names[2], p[2]),
            (names[3], p[3]),
            (names[4], p[4]),
            (names[5], p[5]),
            (names[6], p[6]),
            (names[7], p[7]),
        ]
    }
}

/// The render-state block's contents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderState {
    /// D3DRS_FOGCOLOR as RGBA floats in [0, 1].
    pub fog_color: [f32; 4],
    /// D3DRS_FOGSTART.
    pub fog_start: f32,
    /// D3DRS_FOGEND.
    pub fog_end: f32,
    /// D3DRS_FOGDENSITY.
    pub fog_density: f32,
    /// D3DRS_ALPHAREF (its low byte is compared; stored as a float `(ref & 0xff) / 255`).
    pub alpha_ref: u32,
    /// D3DRS_POINTSIZE.
    pub point_size: f32,
    /// D3DRS_POINTSIZE_MIN.
    pub point_size_min: f32,
    /// D3DRS_POINTSIZE_MAX.
    pub point_size_max: f32,
    /// User clip planes 0–7 in clip space (`SetClipPlane` under a programmable vertex shader).
    pub clip_planes: [[f32; 4]; 8],
    /// Per texture stage: D3DTSS_BUMPENVMAT00, 01, 10, 11.
    pub bump_env: [[f32; 4]; 8],
    /// Per texture stage: D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET.
    pub bump_luminance: [[f32; 2]; 8],
    /// The modes: uniform-delivered code reads them from the block, and they are the values of
    /// override-delivered code's pipeline constants ([`Translation::pipeline_constants`](crate::Translation::pipeline_constants),
    /// [`Translation::specialise`](crate::Translation::specialise)); baked code ignores them.
    /// Fill them from the device state ([`crate::Shader::modes`]): the default is the device
    /// defaults (alpha test off, no fog), whatever the key said.
    pub modes: Modes,
    /// The viewport's Width and Height in pixels (D3DVIEWPORT9), read by vertex shaders that
    /// expand points ([`crate::key::PointExpansion`]).
    pub viewport: [f32; 2],
}

impl Default for RenderState {
    /// The state of a new device: fog colour 0, fog range 0–1, density 1, alpha reference 0,
    /// point size 1 clamped to [1, 64], no planes, zero bump matrices, a 1 × 1 viewport.
    fn default() -> RenderState {
        RenderState {
            fog_color: [0.0; 4],
            fog_start: 0.0,
            fog_end: 1.0,
            fog_density: 1.0,
            alpha_ref: 0,
            point_size: 1.0,
            point_size_min: 1.0,
            point_size_max: 64.0,
            clip_planes: [[0.0; 4]; 8],
            bump_env: [[0.0; 4]; 8],
            bump_luminance: [[0.0; 2]; 8],
            modes: Modes::default(),
            viewport: [1.0, 1.0],
        }
    }
}

impl RenderState {
    /// The block's bytes ([`SIZE`] of them, little-endian), as the module's struct lays them out.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; SIZE as usize];
        let mut put = |offset: u32, bits: u32| {
            out[offset as usize..][..4].copy_from_slice(&bits.to_le_bytes());
        };
        let at = |name: &str| LAYOUT.iter().find(|m| m.0 == name).map(|m| m.1).expect("a member of LAYOUT");
        for (i, c) in self.fog_color.iter().enumerate() {
            put(at("fog_color") + 4 * i as u32, c.to_bits());
        }
        put(at("fog_start"), self.fog_start.to_bits());
        put(at("fog_end"), self.fog_end.to_bits());
        put(at("fog_density"), self.fog_density.to_bits());
        put(at("alpha_ref"), ((self.alpha_ref & 0xff) as f32 / 255.0).to_bits());
        put(at("point_size"), self.point_size.to_bits());
        put(at("point_size_min"), self.point_size_min.to_bits());
        put(at("point_size_max"), self.point_size_max.to_bits());
        for n in 0..8u32 {
            for c in 0..4u32 {
                put(at("clip_planes") + 16 * n + 4 * c, self.clip_planes[n as usize][c as usize].to_bits());
                put(at("bump_env") + 16 * n + 4 * c, self.bump_env[n as usize][c as usize].to_bits());
            }
            for c in 0..2u32 {
                put(at("bump_luminance") + 16 * n + 4 * c, self.bump_luminance[n as usize][c as usize].to_bits());
            }
            put(at("projected") + 4 * n, self.modes.projected[n as usize]);
        }
        let m = &self.modes;
        put(at("alpha_func"), m.alpha_func);
        put(at("fog_mode"), m.fog_mode);
        put(at("fog_source"), m.fog_source);
        put(at("clip_plane_mask"), m.clip_plane_mask);
        put(at("unbound_samplers"), m.unbound_samplers);
        put(at("viewport_width"), self.viewport[0].to_bits());
        put(at("viewport_height"), self.viewport[1].to_bits());
        out
    }
}

/// The ps_1_0–ps_1_3 projection counts' override names, by texture stage.
pub const PROJECTION_NAMES: [&str; 8] = [
    "stage0_projection",
    "stage1_projection",
    "stage2_projection",
    "stage3_projection",
    "stage4_projection",
    "stage5_projection",
    "stage6_projection",
    "stage7_projection",
];

/// The override name of component `c` (0 count, 1 start, 2 step, 3 w) of `i n` under override
/// delivery ([`crate::key::delivery`]'s table).
pub fn int_constant_override(n: usize, c: usize) -> String {
    format!("int_constant{n}_{}", ["count", "start", "step", "w"][c & 3])
}

/// The override name of the boolean constants' mask (bit n: `b n`).
pub const BOOL_CONSTANTS_OVERRIDE: &str = "bool_constants";

/// The pipeline constants of `module` for the boolean and integer constants alone (the
/// lowering's tests): `bools` bit n is `b n`, `ints[n]` is `i n`. A caller takes them with the
/// modes in one call, [`Translation::pipeline_constants`](crate::Translation::pipeline_constants).
#[cfg(test)]
pub(crate) fn constant_overrides(module: &naga::Module, bools: u16, ints: &[[i32; 4]; 16]) -> Vec<(String, f64)> {
    let declared: Vec<&str> = module.overrides.iter().filter_map(|(_, o)| o.name.as_deref()).collect();
    let mut all = vec![(BOOL_CONSTANTS_OVERRIDE.to_string(), f64::from(bools))];
    for (n, v) in ints.iter().enumerate() {
        all.extend(v.iter().enumerate().map(|(c, &x)| (int_constant_override(n, c), f64::from(x))));
    }
    all.retain(|(name, _)| declared.contains(&name.as_str()));
    all
}

#[cfg(test)]
mod tests;
