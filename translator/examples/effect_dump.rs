//! Prints the preshaders of an effect's pass states (a debugging aid).
use d3d9_shader::effect::{Effect, StateSource};

fn main() {
    let path = std::env::args().nth(1).expect("usage: effect_dump FILE.fx.hex");
    let text = std::fs::read_to_string(&path).expect("read");
    let bytes: Vec<u8> =
        text.split_whitespace().flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes()).collect();
    let effect = Effect::parse(&bytes).expect("parse");
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
