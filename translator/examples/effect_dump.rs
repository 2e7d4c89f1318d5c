//! Prints the preshaders of an effect's pass states (a debugging aid).
use d3d9_shader::effect::{Effect, StateSource};

fn main() {
    let path = std::env::args().nth(1).expect("usage: effect_dump FILE.fx.hex");
    let text = std::fs::read_to_string(&path).expect("read");
    let bytes: Vec<u8> =
        text.split_whitespace().flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes()).collect();
    let effect = Effect::parse(&bytes).expect("parse");
    if std::env::var_os("PROBE").is_some() {
        commit_probe(&effect);
        return;
    }
    for t in &effect.techniques {
        for (pi, p) in t.passes.iter().enumerate() {
            for s in &p.states {
                if let StateSource::Expression { preshader } | StateSource::ArraySelector { preshader, .. } = &s.source
                {
                    println!("== {} pass {pi} {}[{}]\n{preshader}", t.name, s.name(), s.index);
                }
            }
        }
    }
}

#[allow(dead_code)]
fn commit_probe(effect: &Effect) {
    let mut rt = d3d9_shader::effect::EffectRuntime::new(effect);
    rt.begin().unwrap();
    let first = rt.begin_pass(0).unwrap();
    println!("begin_pass: {} states, errors {:?}", first.states.len(), first.errors);
    let h = rt.handle("opvect1").unwrap();
    let v = rt.store.value(h).to_vec();
    rt.set_value(h, &v).unwrap();
    let c = rt.commit().unwrap();
    println!("commit: {:?}", c.states.iter().map(|s| (s.name, s.index)).collect::<Vec<_>>());
}
