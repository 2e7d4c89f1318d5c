//! What a generated program of each version may use: register counts, modifiers, flow control.
//!
//! The numbers are the Direct3D 9 runtime's limits (the strict validator's), kept conservative
//! where the documentation leaves room: a generated program must always be valid.

use d3d9_shader::bytecode::{Opcode, ShaderKind, Version, VersionId};

/// Resources and features a version offers to the generator.
#[derive(Clone, Debug)]
pub struct Profile {
    /// The version.
    pub version: Version,
    /// `r#` registers.
    pub temps: u16,
    /// `c#` registers.
    pub float_consts: u16,
    /// `i#`/`b#` exist.
    pub int_bool_consts: bool,
    /// Input registers the generator declares and reads.
    pub inputs: u16,
    /// `_abs` source modifiers.
    pub abs_modifier: bool,
    /// `_sat` on arithmetic results.
    pub saturate: bool,
    /// `if b#` / `rep` / `call` (SM2 static flow control).
    pub static_flow: bool,
    /// `loop aL, i#`.
    pub loops: bool,
    /// `if_cc`, `break`, `setp`, predication (2_x and 3.0).
    pub dynamic_flow: bool,
    /// Deepest loop/rep nesting.
    pub loop_depth: u32,
    /// Texture sampling with `texld` and samplers (ps 2.0+), or `texldl` in vs_3_0.
    pub samplers: u16,
}

impl Profile {
    /// The profile of `version`; `None` for versions the generator does not cover.
    pub fn of(version: Version) -> Option<Profile> {
        use VersionId::*;
        let id = version.id()?;
        let p = |temps, float_consts, inputs| Profile {
            version,
            temps,
            float_consts,
            int_bool_consts: false,
            inputs,
            abs_modifier: false,
            saturate: version.kind == ShaderKind::Pixel,
            static_flow: false,
            loops: false,
            dynamic_flow: false,
            loop_depth: 0,
            samplers: 0,
        };
        Some(match id {
            Vs10 | Vs11 => p(12, 96, 8),
            Vs20 => Profile { int_bool_consts: true, static_flow: true, loops: true, loop_depth: 1, ..p(12, 256, 8) },
            Vs2x | Vs2sw => Profile {
                int_bool_consts: true,
                static_flow: true,
                loops: true,
                dynamic_flow: true,
                loop_depth: 1,
                ..p(12, 256, 8)
            },
            Vs30 | Vs3sw => Profile {
                int_bool_consts: true,
                static_flow: true,
                loops: true,
                dynamic_flow: true,
                loop_depth: 2,
                abs_modifier: true,
                saturate: true,
                samplers: 4,
                ..p(32, 256, 8)
            },
            Ps10 | Ps11 | Ps12 | Ps13 => p(2, 8, 2),
            Ps14 => p(6, 8, 2),
            Ps20 => Profile { samplers: 8, ..p(12, 32, 2) },
            Ps2x | Ps2sw => Profile {
                int_bool_consts: true,
                static_flow: true,
                dynamic_flow: true,
                loop_depth: 1,
                samplers: 8,
                // `_abs` is a Shader Model 3 source modifier; ps_2_x has the `abs` instruction only.
                ..p(12, 32, 2)
            },
            Ps30 | Ps3sw => Profile {
                int_bool_consts: true,
                static_flow: true,
                loops: true,
                dynamic_flow: true,
                loop_depth: 2,
                samplers: 8,
                abs_modifier: true,
                ..p(32, 224, 8)
            },
        })
    }

    /// Whether `op` exists in this version (the opcode table decides).
    pub fn has(&self, op: Opcode) -> bool {
        op.exists_in(self.version)
    }

    /// Shader Model 1.
    pub fn sm1(&self) -> bool {
        self.version.is_sm1()
    }

    /// A pixel shader.
    pub fn pixel(&self) -> bool {
        self.version.kind == ShaderKind::Pixel
    }
}
