//! Sweep disagreements found and not yet explained, each with what is known of it. A listed
//! shader that disagrees is reported as KNOWN and does not fail the run; one that agrees is
//! reported as FIXED so that its entry can go. The list is a to-do list, not a tolerance: every
//! entry is either a bug to fix or a rule to write in `gpu-harness/src/compare.rs`.

/// (shader name, as the sweep names it, what is known).
pub const KNOWN: &[(&str, &str)] = &[
    (
        "bgfx_fs_sky_landscape",
        "1 pixel: the GPU gives 4.35e16 where the CPU gives 0.477; the noise code's log(frc(t) + 1e-5) \
         reads as −FLT_MAX on the GPU only (suspected lavapipe; not settled)",
    ),
    (
        "vs_skin_b4",
        "edge input set 3 (--inputs 4): the GPU covers 80 pixels the CPU does not, at huge clip-space \
         values (clipping differs; not investigated)",
    ),
];

/// What is known of `name`'s disagreement, if it is listed.
pub fn known(name: &str) -> Option<&'static str> {
    KNOWN.iter().find(|(n, _)| name.contains(n)).map(|(_, why)| *why)
}
