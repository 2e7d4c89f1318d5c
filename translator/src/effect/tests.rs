//! The reader on the hand-built sample effect (`fuzz::sample_effect`, whose layout is written out
//! word by word there) and on damaged copies of it.

use super::runtime::{EffectRuntime, StateValue};
use super::*;
use crate::fuzz::{mutate_effect, sample_effect, Rng};

#[test]
fn the_sample_effect_reads_as_built() {
    let e = Effect::parse(&sample_effect()).expect("the sample parses");
    assert_eq!(e.parameters.len(), 1);
    let p = &e.parameters[0];
    assert_eq!((p.name.as_str(), p.semantic.as_str()), ("g_Color", "COLOR"));
    assert_eq!((p.class, p.ty, p.rows, p.columns, p.elements), (ParameterClass::Vector, ParameterType::Float, 1, 4, 0));
    assert_eq!(p.value, [0x3f80_0000, 0x3f00_0000, 0, 0x3f80_0000]);
    // The value starts at base offset 52: byte 8 + 52.
    assert_eq!(p.value_offset, 60);
    assert_eq!(p.annotations[0].name, "a");
    assert_eq!(p.annotations[0].value, [7]);
    assert_eq!(e.techniques[0].name, "t");
    let state = &e.techniques[0].passes[0].states[0];
    assert_eq!((state.name(), state.index, state.value.value.as_slice()), ("ZENABLE", 0, &[1u32][..]));
}

#[test]
fn names_resolve_and_the_pass_gives_typed_states() {
    let e = Effect::parse(&sample_effect()).expect("the sample parses");
    let mut rt = EffectRuntime::new(&e);
    let a = rt.handle("g_Color@a").expect("the annotation by full name");
    assert_eq!(rt.store.value(a), [7]);
    assert!(rt.handle("g_Color.x").is_err(), "a vector has no members");
    assert_eq!(rt.by_semantic("color"), rt.handle("g_Color").ok(), "semantics compare without case");
    assert_eq!(rt.begin(), Ok(1));
    let pass = rt.begin_pass(0).expect("the pass");
    let z = &pass.states[0];
    assert_eq!((z.name, z.class, z.code), ("ZENABLE", StateClass::RenderState, 7), "D3DRS_ZENABLE is 7");
    assert_eq!(z.value, StateValue::Words { ty: ParameterType::Int, words: vec![1] });
    // Nothing the pass reads changed: a commit recomputes nothing.
    assert_eq!(rt.commit().expect("commit").states, []);
}

#[test]
fn every_truncation_is_an_error_naming_a_byte_offset() {
    let blob = sample_effect();
    for len in 0..blob.len() {
        let e = Effect::parse(&blob[..len]).expect_err("a cut blob is malformed");
        assert!(e.offset() <= blob.len(), "{len}: {e}");
        assert!(e.to_string().starts_with("byte "), "{len}: {e}");
    }
}

#[test]
fn a_wrapped_effect_reads_like_the_bare_one() {
    let mut wrapped = vec![0xCF, 0x0B, 0xF0, 0xBC, 12, 0, 0, 0, 0, 0, 0, 0];
    wrapped.extend(sample_effect());
    let e = Effect::parse(&wrapped).expect("the XNA wrapper is accepted");
    assert_eq!(e.header.start, 12);
    assert_eq!(e.parameters[0].value_offset, 72);
    let bad = Effect::parse(&[1, 2, 3, 4, 0, 0, 0, 0]).expect_err("a bad magic");
    assert_eq!(bad, EffectError::BadMagic { offset: 0, magic: 0x0403_0201 });
}

#[test]
fn damaged_samples_never_panic() {
    let blob = sample_effect();
    let mut rng = Rng::new(17);
    for _ in 0..20_000 {
        let bytes = mutate_effect(&blob, &mut rng);
        if let Ok(e) = Effect::parse(&bytes) {
            let mut rt = EffectRuntime::new(&e);
            if rt.begin().is_ok_and(|n| n > 0) {
                let _ = rt.begin_pass(0);
            }
        }
    }
}
