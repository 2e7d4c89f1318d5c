//! The version profile: what each shader model is, as one row per [`VersionId`], so that the
//! validator, the lowering, the interpreter, the assembler and the device-state mapping ask one
//! place ("is this ps_1_x?", "how many `c#` registers?") instead of comparing version numbers.
//!
//! Register counts are the D3D9 shader reference's register tables: vs c0–c255 (the device's
//! `MaxVertexShaderConst`, c0–c8191 with software vertex processing and in the `_sw` models),
//! ps_1_x c0–c7, ps_2_0/2_x c0–c31, ps_3_0 c0–c223, i0–i15 and b0–b15 (2048 in the `_sw`
//! models), and so on. Where a count depends on the device's caps (vs_2_x/ps_2_x temporaries and
//! predicate, `NumSimultaneousRTs`) the profile holds the most the caps can give, and for
//! `MaxVertexShaderConst` the reference device's 256; the validator replaces them with the caps
//! it is given.

use super::registers::RegisterType;
use super::version::{ShaderKind, Version, VersionId};

/// Float constants of the `_sw` models and of software vertex processing (`c0–c8191`).
pub const SW_FLOAT_CONSTANTS: u16 = 8192;
/// Integer and boolean constants of the `_sw` models (`i0–i2047`, `b0–b2047`).
pub const SW_INT_BOOL_CONSTANTS: u16 = 2048;
/// Integer and boolean constants of the hardware models that have them (`i0–i15`, `b0–b15`).
pub const INT_BOOL_CONSTANTS: u16 = 16;
/// The most temporaries any model has (`r0–r31`).
pub const MAX_TEMPS: u16 = 32;
/// Float constants of a hardware vertex shader: the reference device's `MaxVertexShaderConst`.
pub const VERTEX_FLOAT_CONSTANTS: u16 = 256;
/// Labels of the 3_0 models (`l0–l2047`).
pub const LABELS_3_0: u16 = 2048;

/// How many registers of each file a version has (0: the file does not exist there).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct RegisterCounts {
    /// `r#`.
    pub temps: u16,
    /// `v#`.
    pub inputs: u16,
    /// `c#`.
    pub consts: u16,
    /// `i#`.
    pub ints: u16,
    /// `b#`.
    pub bools: u16,
    /// `s#`.
    pub samplers: u16,
    /// `t#` (pixel shaders before 3.0).
    pub textures: u16,
    /// `l#`.
    pub labels: u16,
    /// `oT#` (vs before 3.0) or `o#` (vs_3_0).
    pub texcoord_outputs: u16,
    /// `oD#`.
    pub color_attr_outputs: u16,
    /// `oC#`.
    pub color_outputs: u16,
    /// `a0`.
    pub addr: u16,
    /// `p0`.
    pub predicate: u16,
    /// `aL`.
    pub loop_counter: u16,
}

impl RegisterCounts {
    /// The count of file `ty`, or `None` for the files whose numbers name fixed registers
    /// rather than a counted file (`oPos`/`oFog`/`oPts`, `oDepth`, `vPos`/`vFace`, half temps).
    pub const fn of(&self, ty: RegisterType) -> Option<u16> {
        use RegisterType::*;
        Some(match ty {
            Temp => self.temps,
            Input => self.inputs,
            Const => self.consts,
            ConstInt => self.ints,
            ConstBool => self.bools,
            Sampler => self.samplers,
            Texture => self.textures,
            Label => self.labels,
            TexCrdOut | Output => self.texcoord_outputs,
            AttrOut => self.color_attr_outputs,
            ColorOut => self.color_outputs,
            Addr => self.addr,
            Predicate => self.predicate,
            Loop => self.loop_counter,
            RastOut | DepthOut | MiscType | TempFloat16 => return None,
        })
    }
}

/// What `cnd`'s first source decides on (docs/d3d9-rules.md#cnd).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CndCondition {
    /// ps_1_0–ps_1_3: the source's `.w` (after its swizzle and modifier) decides for every
    /// channel. The runtime demands `r0.a` there; any other source a lenient parse lets through
    /// is read the same way, through its replicated `.w`.
    ReplicatedW,
    /// ps_1_4 (and the models without `cnd`): each component of the source decides its own
    /// channel.
    PerComponent,
}

/// One shader model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Profile {
    /// The model.
    pub id: VersionId,
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Shader Model 1 token format: instruction tokens carry no length, relative addressing is
    /// an implicit `a0.x`, nothing is predicated.
    pub sm1: bool,
    /// ps_1_0–ps_1_4: texture registers `t#` with texture-addressing instructions, co-issue,
    /// result shifts, the `_bias`/`_bx2`/`1-` source modifiers, float constants clamped to
    /// [−1, 1], and `r0` as the colour output.
    pub ps_1_x: bool,
    /// ps_1_4: two phases (`phase`), `texld`/`texcrd` with a source, `_dz`/`_dw`, `bem`,
    /// per-component `cnd`, arbitrary write masks.
    pub ps_1_4: bool,
    /// A software model (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`): 8192 float constants,
    /// 2048 integer/boolean constants and labels, no instruction slot limit.
    pub software: bool,
    /// Registers name their meaning rather than a `dcl` semantic (before 3.0): a pixel shader's
    /// `v#` are the diffuse/specular colours and its `t#` the texture coordinates, a vertex
    /// shader writes the fixed outputs `oPos`, `oD#`, `oT#`, `oFog`, `oPts`.
    pub fixed_io: bool,
    /// The fixed-function fog blend applies to this model's output (before 3.0; vs_3_0 and
    /// ps_3_0 compute fog themselves).
    pub fixed_function_fog: bool,
    /// What `cnd` decides on: the one structural fact the lowering and the interpreter both read.
    pub cnd_condition: CndCondition,
    /// Register counts.
    pub registers: RegisterCounts,
}

const fn regs() -> RegisterCounts {
    RegisterCounts {
        temps: 0,
        inputs: 0,
        consts: 0,
        ints: 0,
        bools: 0,
        samplers: 0,
        textures: 0,
        labels: 0,
        texcoord_outputs: 0,
        color_attr_outputs: 0,
        color_outputs: 0,
        addr: 0,
        predicate: 0,
        loop_counter: 0,
    }
}

const fn counts(id: VersionId) -> RegisterCounts {
    use VersionId::*;
    let l = regs();
    let sw = matches!(id, Vs2sw | Vs3sw | Ps2sw | Ps3sw);
    let (consts_sw, int_bool) = if sw { (SW_FLOAT_CONSTANTS, SW_INT_BOOL_CONSTANTS) } else { (0, INT_BOOL_CONSTANTS) };
    match id {
        Vs10 | Vs11 => RegisterCounts {
            temps: 12,
            inputs: 16,
            consts: VERTEX_FLOAT_CONSTANTS,
            addr: 1,
            texcoord_outputs: 8,
            color_attr_outputs: 2,
            ..l
        },
        Vs20 | Vs2x | Vs2sw => RegisterCounts {
            // vs_2_x: `VS20Caps.NumTemps` (12 to 32).
            temps: if matches!(id, Vs20) { 12 } else { MAX_TEMPS },
            inputs: 16,
            consts: if sw { consts_sw } else { VERTEX_FLOAT_CONSTANTS },
            ints: int_bool,
            bools: int_bool,
            labels: int_bool,
            addr: 1,
            // vs_2_x: with `D3DVS20CAPS_PREDICATION`.
            predicate: !matches!(id, Vs20) as u16,
            loop_counter: 1,
            texcoord_outputs: 8,
            color_attr_outputs: 2,
            ..l
        },
        Vs30 | Vs3sw => RegisterCounts {
            temps: MAX_TEMPS,
            inputs: 16,
            consts: if sw { consts_sw } else { VERTEX_FLOAT_CONSTANTS },
            ints: int_bool,
            bools: int_bool,
            labels: LABELS_3_0,
            samplers: 4,
            addr: 1,
            predicate: 1,
            loop_counter: 1,
            texcoord_outputs: 12,
            ..l
        },
        Ps10 | Ps11 | Ps12 | Ps13 => RegisterCounts { temps: 2, inputs: 2, consts: 8, textures: 4, ..l },
        Ps14 => RegisterCounts { temps: 6, inputs: 2, consts: 8, textures: 6, ..l },
        // `NumSimultaneousRTs` (1 to 4) colour outputs from ps_2_0 on.
        Ps20 => RegisterCounts { temps: 12, inputs: 2, consts: 32, textures: 8, samplers: 16, color_outputs: 4, ..l },
        Ps2x | Ps2sw => RegisterCounts {
            // ps_2_x: `PS20Caps.NumTemps` (12 to 32) and `D3DPS20CAPS_PREDICATION`.
            temps: MAX_TEMPS,
            inputs: 2,
            consts: if sw { consts_sw } else { 32 },
            ints: int_bool,
            bools: int_bool,
            labels: int_bool,
            textures: 8,
            samplers: 16,
            predicate: 1,
            color_outputs: 4,
            ..l
        },
        Ps30 | Ps3sw => RegisterCounts {
            temps: MAX_TEMPS,
            inputs: 10,
            consts: if sw { consts_sw } else { 224 },
            ints: int_bool,
            bools: int_bool,
            labels: LABELS_3_0,
            samplers: 16,
            predicate: 1,
            loop_counter: 1,
            color_outputs: 4,
            ..l
        },
    }
}

const fn profile(id: VersionId) -> Profile {
    let v = id.version();
    let pixel = matches!(v.kind, ShaderKind::Pixel);
    Profile {
        id,
        kind: v.kind,
        sm1: v.major < 2,
        ps_1_x: pixel && v.major == 1,
        ps_1_4: pixel && v.major == 1 && v.minor == 4,
        software: v.minor == 255,
        fixed_io: v.major < 3,
        fixed_function_fog: v.major < 3,
        cnd_condition: if pixel && v.major == 1 && v.minor < 4 {
            CndCondition::ReplicatedW
        } else {
            CndCondition::PerComponent
        },
        registers: counts(id),
    }
}

/// Every profile, in [`VersionId`] order.
pub static PROFILES: [Profile; 17] = {
    let mut out = [profile(VersionId::Vs10); 17];
    let mut i = 0;
    while i < 17 {
        out[i] = profile(VersionId::ALL[i]);
        i += 1;
    }
    out
};

impl Profile {
    /// The profile of model `id`.
    pub const fn of(id: VersionId) -> &'static Profile {
        &PROFILES[id as usize]
    }

    /// The profile of `version`, if it names a model the runtime knows.
    pub fn for_version(version: Version) -> Option<&'static Profile> {
        version.id().map(Profile::of)
    }

    /// Whether this is a pixel shader model.
    pub const fn is_pixel(&self) -> bool {
        matches!(self.kind, ShaderKind::Pixel)
    }

    /// Whether this is a vertex shader model.
    pub const fn is_vertex(&self) -> bool {
        matches!(self.kind, ShaderKind::Vertex)
    }

    /// ps_1_0–ps_1_3: ps_1_x before the ps_1_4 redesign (texture stages addressed by `t#`
    /// destinations, projected coordinates from the stage's texture transform flags).
    pub const fn ps_1_0_to_1_3(&self) -> bool {
        self.ps_1_x && !self.ps_1_4
    }
}

impl Version {
    /// The profile of this version. A token that names no known model (the decoder refuses
    /// those) gets the profile of the nearest model of its kind and generation, so that hand-built
    /// programs still have one.
    pub fn profile(self) -> &'static Profile {
        if let Some(p) = Profile::for_version(self) {
            return p;
        }
        let id = match (self.kind, self.major) {
            (ShaderKind::Vertex, 0 | 1) => VersionId::Vs11,
            (ShaderKind::Vertex, 2) => VersionId::Vs2x,
            (ShaderKind::Vertex, _) => VersionId::Vs30,
            (ShaderKind::Pixel, 0 | 1) => VersionId::Ps13,
            (ShaderKind::Pixel, 2) => VersionId::Ps2x,
            (ShaderKind::Pixel, _) => VersionId::Ps30,
        };
        Profile::of(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_follow_the_version_ids() {
        for (p, id) in PROFILES.iter().zip(VersionId::ALL) {
            assert_eq!(p.id, id);
            assert_eq!(p.kind, id.version().kind);
        }
    }

    #[test]
    fn the_reference_register_tables() {
        // Register counts of the D3D9 shader reference's per-version register pages.
        assert_eq!(Profile::of(VersionId::Ps20).registers.consts, 32);
        assert_eq!(Profile::of(VersionId::Ps20).registers.temps, 12);
        assert_eq!(Profile::of(VersionId::Ps30).registers.consts, 224);
        assert_eq!(Profile::of(VersionId::Ps30).registers.inputs, 10);
        assert_eq!(Profile::of(VersionId::Vs30).registers.samplers, 4);
        assert_eq!(Profile::of(VersionId::Vs3sw).registers.bools, 2048);
        assert_eq!(Profile::of(VersionId::Ps14).registers.textures, 6);
        assert_eq!(Profile::of(VersionId::Ps11).registers.of(RegisterType::Texture), Some(4));
        assert_eq!(Profile::of(VersionId::Vs11).registers.of(RegisterType::RastOut), None);
    }

    #[test]
    fn ps_1_x_and_ps_1_4() {
        let ps1: Vec<VersionId> = PROFILES.iter().filter(|p| p.ps_1_x).map(|p| p.id).collect();
        use VersionId::*;
        assert_eq!(ps1, [Ps10, Ps11, Ps12, Ps13, Ps14]);
        let ps14: Vec<VersionId> = PROFILES.iter().filter(|p| p.ps_1_4).map(|p| p.id).collect();
        assert_eq!(ps14, [Ps14]);
        let sw: Vec<VersionId> = PROFILES.iter().filter(|p| p.software).map(|p| p.id).collect();
        assert_eq!(sw, [Vs2sw, Vs3sw, Ps2sw, Ps3sw]);
        assert!(!Profile::of(Vs11).ps_1_x && Profile::of(Vs11).sm1);
    }

    #[test]
    fn cnd_decides_on_w_before_ps_1_4() {
        // docs/d3d9-rules.md#cnd: ps_1_0–1_3 choose on r0.a for all channels, ps_1_4 per component.
        use VersionId::*;
        let w: Vec<VersionId> =
            PROFILES.iter().filter(|p| p.cnd_condition == CndCondition::ReplicatedW).map(|p| p.id).collect();
        assert_eq!(w, [Ps10, Ps11, Ps12, Ps13]);
    }

    #[test]
    fn unknown_tokens_get_a_profile() {
        let v = Version { kind: ShaderKind::Pixel, major: 1, minor: 7 };
        assert!(v.profile().ps_1_x);
        assert_eq!(Version { kind: ShaderKind::Pixel, major: 2, minor: 2 }.profile().id, VersionId::Ps2x);
    }
}
