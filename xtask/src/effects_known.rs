//! Expectation records of `../shared/effects` that `cargo xtask effects` does not reproduce yet,
//! each with the reason. They are reported as KNOWN and do not fail the run; a listed record
//! that passes is reported as FIXED so that the entry can go.

/// (effect name, record as `kind[index]`, why it is not reproduced).
pub const KNOWN: &[(&str, &str, &str)] = &[
    (
        "wine_preshader",
        "scenario[0]",
        "vertex sampler 1 (258) MIN/MAGFILTER read 0 on Windows after a state-saving Begin (todo_wine: \
         Wine writes samplers_array[1]'s 2) but 2 after a D3DXFX_DONOTSAVESTATE one (scenario[1]); \
         no rule found for it",
    ),
    (
        "wine_preshader",
        "scenario[3]",
        "the same 258 MINFILTER = 0 after a state-saving Begin (effect.c:5650, todo_wine); every other \
         check of the scenario passes",
    ),
];

/// The reason a record is known to fail, if it is listed.
pub fn known(effect: &str, record: &str) -> Option<&'static str> {
    KNOWN.iter().find(|k| k.0 == effect && k.1 == record).map(|k| k.2)
}
