//! Register files (D3DSHADER_PARAM_REGISTER_TYPE) and register references.

use super::version::{ShaderKind, Version};

/// A register file.
///
/// The token's type field is shared between files that the shader kind or version tells apart
/// (type 3 is `a0` in vertex shaders and `t#` in pixel shaders; type 6 is `oT#` before vs_3_0 and
/// `o#` from vs_3_0), and the constant banks 11–13 (`c2048`–`c8191`) fold into [`RegisterType::Const`]
/// with their absolute index, so consumers never meet the encoding's quirks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum RegisterType {
    /// `r#` (D3DSPR_TEMP = 0).
    Temp,
    /// `v#` (D3DSPR_INPUT = 1).
    Input,
    /// `c#` (D3DSPR_CONST = 2, and CONST2..4 = 11..13 for c2048..c8191).
    Const,
    /// `a0` in vertex shaders (D3DSPR_ADDR = 3).
    Addr,
    /// `t#` in pixel shaders (D3DSPR_TEXTURE = 3).
    Texture,
    /// `oPos`, `oFog`, `oPts` (D3DSPR_RASTOUT = 4).
    RastOut,
    /// `oD#` (D3DSPR_ATTROUT = 5).
    AttrOut,
    /// `oT#` before vs_3_0 (D3DSPR_TEXCRDOUT = 6).
    TexCrdOut,
    /// `o#` in vs_3_0 (D3DSPR_OUTPUT = 6).
    Output,
    /// `i#` (D3DSPR_CONSTINT = 7).
    ConstInt,
    /// `oC#` (D3DSPR_COLOROUT = 8).
    ColorOut,
    /// `oDepth` (D3DSPR_DEPTHOUT = 9).
    DepthOut,
    /// `s#` (D3DSPR_SAMPLER = 10).
    Sampler,
    /// `b#` (D3DSPR_CONSTBOOL = 14).
    ConstBool,
    /// `aL` (D3DSPR_LOOP = 15).
    Loop,
    /// D3DSPR_TEMPFLOAT16 = 16: reserved, never valid.
    TempFloat16,
    /// `vPos` (0) and `vFace` (1) (D3DSPR_MISCTYPE = 17).
    MiscType,
    /// `l#` (D3DSPR_LABEL = 18).
    Label,
    /// `p0` (D3DSPR_PREDICATE = 19).
    Predicate,
}

/// `oPos`, `oFog` and `oPts` numbers within [`RegisterType::RastOut`].
pub mod rastout {
    /// `oPos`.
    pub const POSITION: u16 = 0;
    /// `oFog`.
    pub const FOG: u16 = 1;
    /// `oPts`.
    pub const POINT_SIZE: u16 = 2;
}

/// `vPos` and `vFace` numbers within [`RegisterType::MiscType`].
pub mod misc {
    /// `vPos`.
    pub const POSITION: u16 = 0;
    /// `vFace`.
    pub const FACE: u16 = 1;
}

/// Registers per constant bank: c2048 is bank 1 (D3DSPR_CONST2), register 0.
pub const CONST_BANK_SIZE: u16 = 2048;

impl RegisterType {
    /// Every register file, in declaration order (`ALL[t as usize] == t`): a table indexed by
    /// the file needs no hashing.
    pub const ALL: [RegisterType; 19] = {
        use RegisterType::*;
        [
            Temp,
            Input,
            Const,
            Addr,
            Texture,
            RastOut,
            AttrOut,
            TexCrdOut,
            Output,
            ConstInt,
            ColorOut,
            DepthOut,
            Sampler,
            ConstBool,
            Loop,
            TempFloat16,
            MiscType,
            Label,
            Predicate,
        ]
    };

    /// Resolves the token's 5-bit type field in the context of a shader version.
    /// Returns the file and the bank offset to add to the register number.
    pub fn from_raw(raw: u32, version: Version) -> Option<(RegisterType, u16)> {
        use RegisterType::*;
        Some(match raw {
            0 => (Temp, 0),
            1 => (Input, 0),
            2 => (Const, 0),
            3 => (if version.kind == ShaderKind::Vertex { Addr } else { Texture }, 0),
            4 => (RastOut, 0),
            5 => (AttrOut, 0),
            6 => (if version.kind == ShaderKind::Vertex && version.major >= 3 { Output } else { TexCrdOut }, 0),
            7 => (ConstInt, 0),
            8 => (ColorOut, 0),
            9 => (DepthOut, 0),
            10 => (Sampler, 0),
            11 => (Const, CONST_BANK_SIZE),
            12 => (Const, 2 * CONST_BANK_SIZE),
            13 => (Const, 3 * CONST_BANK_SIZE),
            14 => (ConstBool, 0),
            15 => (Loop, 0),
            16 => (TempFloat16, 0),
            17 => (MiscType, 0),
            18 => (Label, 0),
            19 => (Predicate, 0),
            _ => return None,
        })
    }

    /// The token's type field for register `num` of this file, and the number within the bank.
    pub fn to_raw(self, num: u16) -> (u32, u16) {
        use RegisterType::*;
        match self {
            Temp => (0, num),
            Input => (1, num),
            Const => match num / CONST_BANK_SIZE {
                0 => (2, num),
                bank => (10 + bank as u32, num % CONST_BANK_SIZE),
            },
            Addr | Texture => (3, num),
            RastOut => (4, num),
            AttrOut => (5, num),
            TexCrdOut | Output => (6, num),
            ConstInt => (7, num),
            ColorOut => (8, num),
            DepthOut => (9, num),
            Sampler => (10, num),
            ConstBool => (14, num),
            Loop => (15, num),
            TempFloat16 => (16, num),
            MiscType => (17, num),
            Label => (18, num),
            Predicate => (19, num),
        }
    }
}

/// One register: a file and a number (constants keep their absolute index, up to c8191).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Register {
    /// The register file.
    pub ty: RegisterType,
    /// The register number within its file.
    pub num: u16,
}

impl Register {
    /// A register of file `ty`, number `num`.
    pub const fn new(ty: RegisterType, num: u16) -> Register {
        Register { ty, num }
    }

    /// The name the disassembler writes, e.g. `r0`, `c12`, `oPos`, `vFace`, `aL`, `oC1` (also
    /// its `Display`, which writes it without allocating).
    pub fn name(self) -> String {
        // Sized for every name but the out-of-range ones (`oRast65535`), so one allocation.
        let mut name = String::with_capacity(8);
        self.push_name(&mut name);
        name
    }
}

impl Register {
    /// The letters before the number, for the files whose every register is named that way
    /// (`r0`, `c12`, `oT3`): the one table [`Register`]'s `Display` and [`Register::push_name`]
    /// share, so that the two write the same names.
    fn numbered_prefix(self) -> Option<&'static str> {
        use RegisterType::*;
        Some(match self.ty {
            Temp => "r",
            Input => "v",
            Const => "c",
            Addr => "a",
            Texture => "t",
            AttrOut => "oD",
            TexCrdOut => "oT",
            Output => "o",
            ConstInt => "i",
            ColorOut => "oC",
            Sampler => "s",
            ConstBool => "b",
            TempFloat16 => "half",
            Label => "l",
            Predicate => "p",
            RastOut | DepthOut | Loop | MiscType => return None,
        })
    }

    /// Appends the name to `out`, as `Display` writes it: the validator names thousands of
    /// registers past their file's count on the common list, and the formatting machinery cost
    /// more than the rest of its check.
    pub(crate) fn push_name(self, out: &mut String) {
        match self.numbered_prefix() {
            Some(prefix) => {
                out.push_str(prefix);
                push_decimal(out, u32::from(self.num));
            }
            None => {
                use std::fmt::Write;
                let _ = write!(out, "{self}");
            }
        }
    }
}

/// Appends `v` in decimal, as `Display` writes it.
pub(crate) fn push_decimal(out: &mut String, mut v: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // Pushed as characters: checking the digits as UTF-8 cost about a hundred instructions a
    // number, more than writing them.
    for &d in &digits[start..] {
        out.push(char::from(d));
    }
}

impl std::fmt::Display for Register {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use RegisterType::*;
        let n = self.num;
        if let Some(prefix) = self.numbered_prefix() {
            f.write_str(prefix)?;
            return write!(f, "{n}");
        }
        match self.ty {
            RastOut => match n {
                rastout::POSITION => f.write_str("oPos"),
                rastout::FOG => f.write_str("oFog"),
                rastout::POINT_SIZE => f.write_str("oPts"),
                _ => write!(f, "oRast{n}"),
            },
            DepthOut if n == 0 => f.write_str("oDepth"),
            DepthOut => write!(f, "oDepth{n}"),
            Loop if n == 0 => f.write_str("aL"),
            Loop => write!(f, "aL{n}"),
            MiscType => match n {
                misc::POSITION => f.write_str("vPos"),
                misc::FACE => f.write_str("vFace"),
                _ => write!(f, "vMisc{n}"),
            },
            _ => unreachable!("numbered_prefix names every other file"),
        }
    }
}

/// Register names with a fixed number, as [`Register`]'s `Display` writes them.
const FIXED_NAMES: [(&str, RegisterType, u16); 7] = [
    ("oPos", RegisterType::RastOut, rastout::POSITION),
    ("oFog", RegisterType::RastOut, rastout::FOG),
    ("oPts", RegisterType::RastOut, rastout::POINT_SIZE),
    ("vPos", RegisterType::MiscType, misc::POSITION),
    ("vFace", RegisterType::MiscType, misc::FACE),
    ("oDepth", RegisterType::DepthOut, 0),
    ("aL", RegisterType::Loop, 0),
];

/// Prefixes followed by the number, longest first so that `oD1` is not read as `o` + `D1`.
const NUMBERED_NAMES: [(&str, RegisterType); 19] = [
    ("oRast", RegisterType::RastOut),
    ("vMisc", RegisterType::MiscType),
    ("oDepth", RegisterType::DepthOut),
    ("half", RegisterType::TempFloat16),
    ("aL", RegisterType::Loop),
    ("oD", RegisterType::AttrOut),
    ("oT", RegisterType::TexCrdOut),
    ("oC", RegisterType::ColorOut),
    ("o", RegisterType::Output),
    ("r", RegisterType::Temp),
    ("v", RegisterType::Input),
    ("c", RegisterType::Const),
    ("a", RegisterType::Addr),
    ("t", RegisterType::Texture),
    ("i", RegisterType::ConstInt),
    ("s", RegisterType::Sampler),
    ("b", RegisterType::ConstBool),
    ("l", RegisterType::Label),
    ("p", RegisterType::Predicate),
];

impl std::str::FromStr for Register {
    type Err = String;

    /// The register `Display` names (`v0`, `oT1`, `o3`, `vPos`, `oC0`, `oDepth`): the inverse
    /// of `Display`, whatever the shader version (the file says what the version would).
    fn from_str(name: &str) -> Result<Register, String> {
        if let Some(&(_, ty, num)) = FIXED_NAMES.iter().find(|f| f.0 == name) {
            return Ok(Register::new(ty, num));
        }
        NUMBERED_NAMES
            .iter()
            .find_map(|&(prefix, ty)| {
                let digits = name.strip_prefix(prefix)?;
                let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
                all_digits.then(|| digits.parse().ok().map(|num| Register::new(ty, num))).flatten()
            })
            .ok_or_else(|| format!("`{name}` is not a register name"))
    }
}

/// Serialised as its name (`"v0"`, `"oT1"`), the form the interface JSON has always had.
impl serde::Serialize for Register {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Register {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Register, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_name_writes_what_display_writes() {
        for ty in RegisterType::ALL {
            for num in [0, 1, 2, 9, 10, 99, 100, 255, 4095, 8191, u16::MAX] {
                let r = Register::new(ty, num);
                let mut pushed = String::new();
                r.push_name(&mut pushed);
                assert_eq!(pushed, r.to_string());
            }
        }
        for v in [0, 7, 10, 65535, u32::MAX] {
            let mut s = String::new();
            push_decimal(&mut s, v);
            assert_eq!(s, v.to_string());
        }
        assert_eq!(Register::new(RegisterType::Const, 12).to_string(), "c12");
        assert_eq!(Register::new(RegisterType::TexCrdOut, 3).to_string(), "oT3");
        assert_eq!(Register::new(RegisterType::TempFloat16, 2).to_string(), "half2");
    }

    #[test]
    fn every_name_parses_back_to_its_register() {
        use RegisterType::*;
        for ty in RegisterType::ALL {
            for num in [0, 1, 2, 3, 15, 8191] {
                let r = Register::new(ty, num);
                assert_eq!(r.name().parse::<Register>(), Ok(r), "{r}");
            }
        }
        assert_eq!("oT1".parse(), Ok(Register::new(TexCrdOut, 1)));
        assert_eq!("o3".parse(), Ok(Register::new(Output, 3)));
        assert_eq!("vPos".parse(), Ok(Register::new(MiscType, misc::POSITION)));
        for bad in ["", "x1", "v", "v-1", "oT", "v1x", "r99999"] {
            assert!(bad.parse::<Register>().is_err(), "{bad}");
        }
        assert_eq!(serde_json::to_string(&Register::new(AttrOut, 1)).unwrap(), "\"oD1\"");
        assert_eq!(serde_json::from_str::<Register>("\"oC2\"").unwrap(), Register::new(ColorOut, 2));
    }

    #[test]
    fn all_is_in_declaration_order() {
        for (t, file) in RegisterType::ALL.iter().enumerate() {
            assert_eq!(*file as usize, t, "{file:?}");
        }
    }
}
