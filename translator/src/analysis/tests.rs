use super::*;
use crate::bytecode::decode;

#[test]
fn signature_of_a_small_vs_3_0() {
    // vs_3_0: dcl_position v0; dcl_texcoord2 o3; def c5, 1,0,0,0; mov o3, c[a0.x + 2]; ret-free
    let v = 0xFFFE_0300u32;
    let tokens = [
        v,
        0x0200_001F,
        0x8000_0000,
        0x900F_0000, // dcl_position v0
        0x0200_001F,
        0x8002_0005,
        0xE00F_0003, // dcl_texcoord2 o3
        0x0500_0051,
        0xA00F_0005,
        0x3F80_0000,
        0,
        0,
        0, // def c5, 1, 0, 0, 0
        0x0300_0001,
        0xE00F_0003,
        0xA0E4_2002,
        0xB000_0000, // mov o3, c[a0.x + 2]
        0x0000_FFFF,
    ];
    let p = decode(&tokens).unwrap();
    let s = analyse(&p);
    assert_eq!(s.inputs.len(), 1);
    assert_eq!(s.inputs[0].usage, Some(Usage::Position));
    let o = s.output(RegisterType::Output, 3).unwrap();
    assert_eq!((o.usage, o.usage_index, o.used_mask), (Some(Usage::TexCoord), 2, 0xF));
    assert!(s.float_constants.relative);
    assert_eq!(s.float_constants.relative_bases, vec![2]);
    assert_eq!(s.float_constants.defined.get(&5), Some(&[0x3F80_0000, 0, 0, 0]));
    assert!(s.features.relative_addressing);
}
