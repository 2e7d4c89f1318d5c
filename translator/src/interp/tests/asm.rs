//! A tiny assembler for the interpreter's tests: enough Microsoft syntax to write test programs
//! readably (`mad_sat r0.xy, -c0.x, r1_bx2, v0`), building the bytecode model directly so that
//! the tests depend on nothing but `bytecode/`.

use crate::bytecode::{
    Comparison, Decl, DstParam, Instruction, Opcode, Payload, Program, Register, RegisterType as T, RelAddr,
    ResultModifiers, SrcModifier, SrcParam, Swizzle, TextureType, Usage, Version, WriteMask, OPCODES,
};

/// Assembles `text` (first line: the version, e.g. `ps_2_0`). Panics with the line on a typo.
pub fn asm(text: &str) -> Program {
    let mut lines = text.lines().map(|l| l.split("//").next().unwrap().trim()).filter(|l| !l.is_empty());
    let version = parse_version(lines.next().expect("version line"));
    let mut program = Program::new(version);
    for line in lines {
        program.instructions.push(instruction(version, line).unwrap_or_else(|e| panic!("`{line}`: {e}")));
    }
    program
}

fn parse_version(s: &str) -> Version {
    let token = match s {
        "vs_1_0" => 0xFFFE_0100,
        "vs_1_1" => 0xFFFE_0101,
        "vs_2_0" => 0xFFFE_0200,
        "vs_2_x" => 0xFFFE_0201,
        "vs_3_0" => 0xFFFE_0300,
        "ps_1_1" => 0xFFFF_0101,
        "ps_1_2" => 0xFFFF_0102,
        "ps_1_3" => 0xFFFF_0103,
        "ps_1_4" => 0xFFFF_0104,
        "ps_2_0" => 0xFFFF_0200,
        "ps_2_x" => 0xFFFF_0201,
        "ps_3_0" => 0xFFFF_0300,
        _ => panic!("unknown version {s}"),
    };
    Version::from_token(token).unwrap()
}

fn register(v: Version, s: &str) -> Result<Register, String> {
    let named = [
        ("oPos", T::RastOut, 0),
        ("oFog", T::RastOut, 1),
        ("oPts", T::RastOut, 2),
        ("oDepth", T::DepthOut, 0),
        ("vPos", T::MiscType, 0),
        ("vFace", T::MiscType, 1),
        ("aL", T::Loop, 0),
    ];
    if let Some((_, ty, n)) = named.iter().find(|(name, ..)| *name == s) {
        return Ok(Register::new(*ty, *n));
    }
    let split = s.find(|c: char| c.is_ascii_digit()).ok_or(format!("no register number in {s}"))?;
    let (prefix, num) = s.split_at(split);
    let num: u16 = num.parse().map_err(|_| format!("bad register {s}"))?;
    let ty = match prefix {
        "r" => T::Temp,
        "v" => T::Input,
        "c" => T::Const,
        "a" => T::Addr,
        "t" => T::Texture,
        "oD" => T::AttrOut,
        "oT" => T::TexCrdOut,
        "o" if v.major >= 3 => T::Output,
        "i" => T::ConstInt,
        "b" => T::ConstBool,
        "oC" => T::ColorOut,
        "s" => T::Sampler,
        "l" => T::Label,
        "p" => T::Predicate,
        _ => return Err(format!("unknown register {s}")),
    };
    Ok(Register::new(ty, num))
}

fn components(s: &str) -> Result<Vec<u8>, String> {
    s.chars()
        .map(|c| match c {
            'x' | 'r' => Ok(0),
            'y' | 'g' => Ok(1),
            'z' | 'b' => Ok(2),
            'w' | 'a' => Ok(3),
            _ => Err(format!("bad component {c}")),
        })
        .collect()
}

fn swizzle(s: &str) -> Result<Swizzle, String> {
    let c = components(s)?;
    let last = *c.last().ok_or("empty swizzle")?;
    let get = |i: usize| c.get(i).copied().unwrap_or(last);
    Ok(Swizzle::new(get(0), get(1), get(2), get(3)))
}

/// `c[a0.x + 3]`, `c3[a0.x]`, `v[aL]`, `o[aL + 1]`: (base, relative).
fn relative(v: Version, s: &str) -> Result<(String, Option<RelAddr>), String> {
    let Some(open) = s.find('[') else { return Ok((s.to_string(), None)) };
    let close = s.rfind(']').ok_or("missing ]")?;
    let (head, inside, tail) = (&s[..open], &s[open + 1..close], &s[close + 1..]);
    let mut parts = inside.split('+').map(str::trim);
    let addr = parts.next().unwrap();
    let offset: u16 = parts.next().map_or(Ok(0), |o| o.parse().map_err(|_| format!("bad offset {o}")))?;
    let (areg, comp) = addr.split_once('.').unwrap_or((addr, "x"));
    let reg = register(v, areg)?;
    let base_num: u16 = head.trim_start_matches(|c: char| c.is_alphabetic()).parse().unwrap_or(0);
    let prefix = head.trim_end_matches(|c: char| c.is_ascii_digit());
    let implicit = v.is_vertex() && v.major == 1;
    Ok((
        format!("{prefix}{}{tail}", base_num + offset),
        Some(RelAddr { reg, swizzle: swizzle(comp)?, implicit }),
    ))
}

fn src(v: Version, s: &str) -> Result<SrcParam, String> {
    let mut s = s.trim();
    let mut modifier = SrcModifier::None;
    let mut neg = false;
    if let Some(rest) = s.strip_prefix("1-") {
        modifier = SrcModifier::Comp;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('-') {
        neg = true;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('!') {
        modifier = SrcModifier::Not;
        s = rest;
    }
    let (s, rel) = relative(v, s)?;
    let (body, swz) = match s.rsplit_once('.') {
        Some((b, w)) => (b.to_string(), swizzle(w)?),
        None => (s.clone(), Swizzle::IDENTITY),
    };
    let (name, suffix) = match body.split_once('_') {
        Some((n, m)) => (n, Some(m)),
        None => (body.as_str(), None),
    };
    if let Some(m) = suffix {
        modifier = match (m, neg) {
            ("bias", false) => SrcModifier::Bias,
            ("bias", true) => SrcModifier::BiasNeg,
            ("bx2", false) => SrcModifier::Sign,
            ("bx2", true) => SrcModifier::SignNeg,
            ("x2", false) => SrcModifier::X2,
            ("x2", true) => SrcModifier::X2Neg,
            ("dz" | "db", _) => SrcModifier::Dz,
            ("dw" | "da", _) => SrcModifier::Dw,
            ("abs", false) => SrcModifier::Abs,
            ("abs", true) => SrcModifier::AbsNeg,
            _ => return Err(format!("bad source modifier {m}")),
        };
    } else if neg {
        modifier = SrcModifier::Neg;
    }
    Ok(SrcParam { reg: register(v, name)?, swizzle: swz, modifier, relative: rel })
}

fn dst(v: Version, s: &str) -> Result<DstParam, String> {
    let (s, rel) = relative(v, s.trim())?;
    let (name, mask) = match s.split_once('.') {
        Some((n, m)) => (n, components(m)?.iter().fold(0, |a, &c| a | 1 << c)),
        None => (s.as_str(), 0xF),
    };
    Ok(DstParam { relative: rel, ..DstParam::new(register(v, name)?, WriteMask(mask)) })
}

fn opcode_named(v: Version, name: &str) -> Option<Opcode> {
    OPCODES.iter().find(|row| row.opcode.form(v).is_some_and(|f| f.name == name)).map(|row| row.opcode)
}

fn instruction(v: Version, line: &str) -> Result<Instruction, String> {
    let mut line = line;
    let mut predicate = None;
    if let Some(rest) = line.strip_prefix('(') {
        let (p, rest) = rest.split_once(')').ok_or("missing )")?;
        predicate = Some(src(v, p)?);
        line = rest.trim();
    }
    let coissue = line.starts_with('+');
    let line = line.trim_start_matches('+');
    let (head, operands) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let operands: Vec<&str> = operands.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let mut parts = head.split('_');
    let base = parts.next().unwrap();
    let rest: Vec<&str> = parts.collect();

    if base == "dcl" {
        let d = dst(v, operands[0])?;
        let mut decl = Decl { usage: 0, usage_index: 0, texture_type: 0 };
        if let Some(u) = rest.first() {
            let tt = match *u {
                "2d" => Some(TextureType::Tex2D),
                "cube" => Some(TextureType::Cube),
                "volume" => Some(TextureType::Volume),
                _ => None,
            };
            if let Some(tt) = tt {
                decl.texture_type = tt.raw();
            } else {
                let split = u.find(|c: char| c.is_ascii_digit()).unwrap_or(u.len());
                let usage = Usage::ALL.iter().find(|x| x.name() == &u[..split]).ok_or(format!("usage {u}"))?;
                decl.usage = *usage as u8;
                decl.usage_index = u[split..].parse().unwrap_or(0);
            }
        }
        return Ok(Instruction { dst: Some(d), payload: Payload::Dcl(decl), ..Instruction::new(Opcode::Dcl) });
    }
    if base.starts_with("def") {
        let d = dst(v, operands[0])?;
        let vals = &operands[1..];
        let payload = match base {
            "def" => Payload::Def(std::array::from_fn(|i| vals[i].parse::<f32>().unwrap().to_bits())),
            "defi" => Payload::DefI(std::array::from_fn(|i| vals[i].parse().unwrap())),
            _ => Payload::DefB((vals[0] == "true") as u32),
        };
        let op = match base {
            "def" => Opcode::Def,
            "defi" => Opcode::DefI,
            _ => Opcode::DefB,
        };
        return Ok(Instruction { dst: Some(d), payload, ..Instruction::new(op) });
    }

    let mut control = 0;
    let mut modifiers = 0;
    let mut shift = 0;
    for r in &rest {
        match *r {
            "sat" => modifiers |= ResultModifiers::SATURATE,
            "pp" => modifiers |= ResultModifiers::PARTIAL_PRECISION,
            "x2" => shift = 1,
            "x4" => shift = 2,
            "x8" => shift = 3,
            "d2" => shift = -1,
            "d4" => shift = -2,
            "d8" => shift = -3,
            c => {
                control = Comparison::ALL.iter().find(|x| x.suffix() == c).ok_or(format!("suffix {c}"))?.to_owned() as u8
            }
        }
    }
    let (opcode, control) = match base {
        "texldp" => (Opcode::Tex, 1),
        "texldb" => (Opcode::Tex, 2),
        "texld" if !v.is_sm1() => (Opcode::Tex, 0),
        "if" if control != 0 => (Opcode::Ifc, control),
        "if" => (Opcode::If, 0),
        "break" if control != 0 => (Opcode::BreakC, control),
        "break" => (Opcode::Break, 0),
        "setp" => (Opcode::Setp, control),
        "phase" => (Opcode::Phase, 0),
        name => (opcode_named(v, name).ok_or(format!("no opcode {name} in {v}"))?, control),
    };
    let form = opcode.form(v).ok_or("opcode not in version")?;
    let mut ins = Instruction { control, coissue, predicate, ..Instruction::new(opcode) };
    let mut ops = operands.iter();
    if form.shape.dst {
        let mut d = dst(v, ops.next().ok_or("missing dst")?)?;
        d.modifiers = ResultModifiers(modifiers);
        d.shift = shift;
        ins.dst = Some(d);
    }
    for o in ops {
        ins.src.push(src(v, o)?);
    }
    if ins.src.len() != form.shape.srcs as usize {
        return Err(format!("{} sources, expected {}", ins.src.len(), form.shape.srcs));
    }
    Ok(ins)
}
