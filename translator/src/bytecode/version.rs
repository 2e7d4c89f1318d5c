//! The version token: shader kind and model.

use std::fmt;

/// Whether a program runs per vertex or per pixel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum ShaderKind {
    /// A vertex shader (`vs_*`, version token `0xFFFE_mmnn`).
    Vertex,
    /// A pixel shader (`ps_*`, version token `0xFFFF_mmnn`).
    Pixel,
}

/// A shader version as the version token states it.
///
/// `minor` is 1 for the `2_x` models and 255 for the software (`_sw`) models, as in the token.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version (1, 2 or 3).
    pub major: u8,
    /// Minor version (0–4 for SM1, 0, 1 = `2_x` or 255 = `_sw` for SM2/SM3).
    pub minor: u8,
}

/// Every shader model the runtime knows, as one dense identifier, so that the opcode table can
/// hold the versions where an instruction exists as a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum VersionId {
    Vs10,
    Vs11,
    Vs20,
    Vs2x,
    Vs2sw,
    Vs30,
    Vs3sw,
    Ps10,
    Ps11,
    Ps12,
    Ps13,
    Ps14,
    Ps20,
    Ps2x,
    Ps2sw,
    Ps30,
    Ps3sw,
}

impl VersionId {
    /// All identifiers, in order.
    pub const ALL: [VersionId; 17] = [
        VersionId::Vs10,
        VersionId::Vs11,
        VersionId::Vs20,
        VersionId::Vs2x,
        VersionId::Vs2sw,
        VersionId::Vs30,
        VersionId::Vs3sw,
        VersionId::Ps10,
        VersionId::Ps11,
        VersionId::Ps12,
        VersionId::Ps13,
        VersionId::Ps14,
        VersionId::Ps20,
        VersionId::Ps2x,
        VersionId::Ps2sw,
        VersionId::Ps30,
        VersionId::Ps3sw,
    ];

    /// The bit of this version in a [`VersionSet`].
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// The version this identifier names.
    pub const fn version(self) -> Version {
        use ShaderKind::*;
        let (kind, major, minor) = match self {
            VersionId::Vs10 => (Vertex, 1, 0),
            VersionId::Vs11 => (Vertex, 1, 1),
            VersionId::Vs20 => (Vertex, 2, 0),
            VersionId::Vs2x => (Vertex, 2, 1),
            VersionId::Vs2sw => (Vertex, 2, 255),
            VersionId::Vs30 => (Vertex, 3, 0),
            VersionId::Vs3sw => (Vertex, 3, 255),
            VersionId::Ps10 => (Pixel, 1, 0),
            VersionId::Ps11 => (Pixel, 1, 1),
            VersionId::Ps12 => (Pixel, 1, 2),
            VersionId::Ps13 => (Pixel, 1, 3),
            VersionId::Ps14 => (Pixel, 1, 4),
            VersionId::Ps20 => (Pixel, 2, 0),
            VersionId::Ps2x => (Pixel, 2, 1),
            VersionId::Ps2sw => (Pixel, 2, 255),
            VersionId::Ps30 => (Pixel, 3, 0),
            VersionId::Ps3sw => (Pixel, 3, 255),
        };
        Version { kind, major, minor }
    }
}

/// A set of shader versions (one bit per [`VersionId`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct VersionSet(pub u32);

impl VersionSet {
    /// No version.
    pub const NONE: VersionSet = VersionSet(0);

    /// Whether `id` is in the set.
    pub const fn contains(self, id: VersionId) -> bool {
        self.0 & id.bit() != 0
    }

    /// The union of two sets.
    pub const fn union(self, other: VersionSet) -> VersionSet {
        VersionSet(self.0 | other.0)
    }
}

impl Version {
    /// Decodes a version token; `None` for a token that names no shader model the runtime knows.
    pub fn from_token(token: u32) -> Option<Version> {
        let kind = match token >> 16 {
            0xFFFE => ShaderKind::Vertex,
            0xFFFF => ShaderKind::Pixel,
            _ => return None,
        };
        let v = Version { kind, major: (token >> 8) as u8, minor: token as u8 };
        v.id().map(|_| v)
    }

    /// The version token.
    pub const fn token(self) -> u32 {
        let high = match self.kind {
            ShaderKind::Vertex => 0xFFFE_0000,
            ShaderKind::Pixel => 0xFFFF_0000,
        };
        high | (self.major as u32) << 8 | self.minor as u32
    }

    /// The dense identifier of a known version. Shader Model 2 minors between 2 and 254
    /// (fxc's `ps_2_b` writes 2.2) count as `2_x`: they have its instruction set; the strict
    /// validator refuses them.
    pub fn id(self) -> Option<VersionId> {
        use ShaderKind::*;
        use VersionId::*;
        // A direct match, not a search of `VersionId::ALL`: the opcode table asks for every
        // instruction (the inverse of `VersionId::version`; a test checks the two agree).
        Some(match (self.kind, self.major, self.minor) {
            (Vertex, 1, 0) => Vs10,
            (Vertex, 1, 1) => Vs11,
            (Vertex, 2, 0) => Vs20,
            (Vertex, 2, 1..=254) => Vs2x,
            (Vertex, 2, 255) => Vs2sw,
            (Vertex, 3, 0) => Vs30,
            (Vertex, 3, 255) => Vs3sw,
            (Pixel, 1, 0) => Ps10,
            (Pixel, 1, 1) => Ps11,
            (Pixel, 1, 2) => Ps12,
            (Pixel, 1, 3) => Ps13,
            (Pixel, 1, 4) => Ps14,
            (Pixel, 2, 0) => Ps20,
            (Pixel, 2, 1..=254) => Ps2x,
            (Pixel, 2, 255) => Ps2sw,
            (Pixel, 3, 0) => Ps30,
            (Pixel, 3, 255) => Ps3sw,
            _ => return None,
        })
    }

    /// Whether the token names one of the documented models (not a `2_b`-style minor).
    pub fn is_canonical(self) -> bool {
        !(self.major == 2 && (2..=254).contains(&self.minor))
    }

    /// Whether this is a vertex shader.
    pub fn is_vertex(self) -> bool {
        self.kind == ShaderKind::Vertex
    }

    /// Whether this is a pixel shader.
    pub fn is_pixel(self) -> bool {
        self.kind == ShaderKind::Pixel
    }

    /// Shader Model 1 (no length field in instruction tokens).
    pub fn is_sm1(self) -> bool {
        self.major < 2
    }

    /// Whether the version is at least `major.minor`, with `2_x` as 2.1 and `_sw` as x.255.
    pub fn at_least(self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }

    /// A software-vertex-processing model (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`).
    pub fn is_sw(self) -> bool {
        self.minor == 255
    }

    /// The name written in assembly, e.g. `ps_2_0`, `vs_2_x`, `vs_3_sw`.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// The name of a model as a constant string (what `Display` writes), for the versions with
    /// a [`VersionId`] but fxc's 2.2–2.254: the validator prefixes every diagnostic with it.
    pub fn static_name(self) -> Option<&'static str> {
        use ShaderKind::*;
        Some(match (self.kind, self.major, self.minor) {
            (Vertex, 1, 0) => "vs_1_0",
            (Vertex, 1, 1) => "vs_1_1",
            (Vertex, 2, 0) => "vs_2_0",
            (Vertex, 2, 1) => "vs_2_x",
            (Vertex, 2, 255) => "vs_2_sw",
            (Vertex, 3, 0) => "vs_3_0",
            (Vertex, 3, 255) => "vs_3_sw",
            (Pixel, 1, 0) => "ps_1_0",
            (Pixel, 1, 1) => "ps_1_1",
            (Pixel, 1, 2) => "ps_1_2",
            (Pixel, 1, 3) => "ps_1_3",
            (Pixel, 1, 4) => "ps_1_4",
            (Pixel, 2, 0) => "ps_2_0",
            (Pixel, 2, 1) => "ps_2_x",
            (Pixel, 2, 255) => "ps_2_sw",
            (Pixel, 3, 0) => "ps_3_0",
            (Pixel, 3, 255) => "ps_3_sw",
            _ => return None,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.kind {
            ShaderKind::Vertex => "vs",
            ShaderKind::Pixel => "ps",
        };
        match (self.major, self.minor) {
            (2, 1) => write!(f, "{prefix}_2_x"),
            (m, 255) => write!(f, "{prefix}_{m}_sw"),
            (m, n) => write!(f, "{prefix}_{m}_{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_names_are_the_display_names() {
        for id in VersionId::ALL {
            let v = id.version();
            assert_eq!(v.static_name(), Some(v.to_string().as_str()));
        }
        let ps_2_b = Version::from_token(0xFFFF_0202).unwrap();
        assert_eq!(ps_2_b.static_name(), None, "fxc's ps_2_b (2.2) is written by Display");
    }

    #[test]
    fn tokens_round_trip_for_every_known_version() {
        for id in VersionId::ALL {
            let v = id.version();
            assert_eq!(Version::from_token(v.token()), Some(v));
        }
        assert_eq!(Version::from_token(0xFFFE_0101).unwrap().to_string(), "vs_1_1");
        assert_eq!(Version::from_token(0xFFFF_0201).unwrap().to_string(), "ps_2_x");
        assert_eq!(Version::from_token(0xFFFE_03FF).unwrap().to_string(), "vs_3_sw");
        assert_eq!(Version::from_token(0xFFFF_0202).unwrap().to_string(), "ps_2_2");
        assert_eq!(Version::from_token(0xFFFF_0202).unwrap().id(), Some(VersionId::Ps2x));
        // vs_1_2 and ps_1_5 do not exist; neither does a kind other than FFFE/FFFF.
        assert_eq!(Version::from_token(0xFFFE_0102), None);
        assert_eq!(Version::from_token(0xFFFF_0105), None);
        assert_eq!(Version::from_token(0xFFFD_0200), None);
    }

    #[test]
    fn id_is_the_inverse_of_version_with_2_x_minors_as_2_x() {
        for kind in [ShaderKind::Vertex, ShaderKind::Pixel] {
            for major in 0..=4u8 {
                for minor in 0..=255u8 {
                    let v = Version { kind, major, minor };
                    // fxc's ps_2_a / ps_2_b (2.2, 2.3, …) are the 2_x model.
                    let canonical =
                        if major == 2 && (2..=254).contains(&minor) { Version { minor: 1, ..v } } else { v };
                    let want = VersionId::ALL.into_iter().find(|id| id.version() == canonical);
                    assert_eq!(v.id(), want, "{kind:?} {major}.{minor}");
                }
            }
        }
    }
}
