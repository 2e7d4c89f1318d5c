//! The project's own shaders (`shaders/asm/<version>/*.asm`): each assembles, its tokens decode
//! back to the same program, its listing assembles to the same tokens, and together the files of
//! a version use every opcode the opcode table gives that version and every register file the
//! D3D9 documentation lists for it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use d3d9_shader::asm::{assemble, disassemble, parse_version, DisasmOptions};
use d3d9_shader::bytecode::{decode, encode, Opcode, RegisterType, OPCODES};

fn shaders_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("shaders/asm")
}

/// The register files of each version, from the D3D9 register tables of each shader model.
fn documented_registers(version: &str) -> Option<Vec<RegisterType>> {
    use RegisterType::*;
    let vs11 = vec![Temp, Input, Const, Addr, RastOut, AttrOut, TexCrdOut];
    let vs20 = [vs11.clone(), vec![ConstInt, ConstBool, Loop, Label]].concat();
    let ps1 = vec![Temp, Input, Const, Texture];
    let ps20 = vec![Temp, Input, Const, Texture, Sampler, ColorOut, DepthOut];
    Some(match version {
        "vs_1_1" => vs11,
        "vs_2_0" => vs20,
        "vs_2_x" => [vs20, vec![Predicate]].concat(),
        "vs_3_0" => vec![Temp, Input, Const, Addr, ConstInt, ConstBool, Loop, Label, Predicate, Sampler, Output],
        "ps_1_1" | "ps_1_2" | "ps_1_3" | "ps_1_4" => ps1,
        "ps_2_0" => ps20,
        "ps_2_x" => [ps20, vec![ConstBool, ConstInt, Predicate, Label]].concat(),
        "ps_3_0" => {
            vec![Temp, Input, Const, ConstBool, ConstInt, Sampler, Loop, Predicate, Label, MiscType, ColorOut, DepthOut]
        }
        _ => return None, // the _sw models: checked for round trips only
    })
}

#[test]
fn own_shaders_assemble_round_trip_and_cover_every_opcode_and_register() {
    let mut versions: Vec<PathBuf> = std::fs::read_dir(shaders_dir()).unwrap().flatten().map(|e| e.path()).collect();
    versions.sort();
    let names: Vec<String> = versions.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for wanted in
        ["vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4", "ps_2_0", "ps_2_x", "ps_3_0"]
    {
        assert!(names.iter().any(|n| n == wanted), "shaders/asm/{wanted} is missing");
    }
    assert!(names.iter().any(|n| n.ends_with("_sw")), "a software-processing model is missing");
    let mut count = 0;
    for dir in &versions {
        let version_name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let version = parse_version(&version_name).unwrap_or_else(|| panic!("{version_name} is no version"));
        let mut opcodes = BTreeSet::new();
        let mut registers = BTreeSet::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            count += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let program = assemble(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(program.version, version, "{}: version line disagrees with its folder", path.display());
            let tokens = encode(&program);
            assert_eq!(decode(&tokens).unwrap(), program, "{}: decode(encode) differs", path.display());
            let listing = disassemble(&program, &DisasmOptions::default());
            let again = assemble(&listing).unwrap_or_else(|e| panic!("{}: listing: {e}\n{listing}", path.display()));
            assert_eq!(encode(&again), tokens, "{}: disassembly does not reassemble exactly", path.display());
            assert!(text.starts_with("//"), "{}: needs a header comment saying what it covers", path.display());
            for inst in &program.instructions {
                opcodes.insert(inst.opcode);
                let srcs = inst.src.iter().chain(inst.predicate.iter());
                for s in srcs {
                    registers.insert(s.reg.ty);
                    registers.extend(s.relative.map(|r| r.reg.ty));
                }
                if let Some(d) = inst.dst {
                    registers.insert(d.reg.ty);
                    registers.extend(d.relative.map(|r| r.reg.ty));
                }
            }
        }
        let Some(expected_registers) = documented_registers(&version_name) else { continue };
        let allowed: BTreeSet<Opcode> = OPCODES.iter().map(|r| r.opcode).filter(|op| op.exists_in(version)).collect();
        let missing: Vec<_> = allowed.difference(&opcodes).collect();
        let foreign: Vec<_> = opcodes.difference(&allowed).collect();
        assert!(missing.is_empty(), "{version_name}: no shader uses {missing:?}");
        assert!(foreign.is_empty(), "{version_name}: {foreign:?} do not exist in this version");
        let expected: BTreeSet<RegisterType> = expected_registers.into_iter().collect();
        assert_eq!(registers, expected, "{version_name}: register files used differ from the documented ones");
    }
    assert!(count >= 13, "found only {count} shaders");
}
