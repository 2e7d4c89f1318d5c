//! How each render-state mode reaches the code: baked in, as a pipeline-overridable constant,
//! or read from the render-state block at run time.
//!
//! A mode in the [`ShaderKey`](crate::ShaderKey) (the alpha function, the fog mode, …) is
//! **baked** by default: the translation holds code for that one value, and another value is
//! another translation. [`Delivery::Override`] makes the mode a WGSL `override` (a naga
//! `Override`): one module serves every value, chosen when the pipeline is created (wgpu's
//! `PipelineCompilationOptions::constants`, by the names below; the values for a state are
//! [`RenderState::pipeline_constants`](crate::key::state_block::RenderState::pipeline_constants)).
//! [`Delivery::Uniform`] reads the mode from the render-state block (`modes` in the layout of
//! [`crate::lower`]), so one *pipeline* serves every value: the ubershader trade-off. Under either,
//! the key's value of the field is ignored ([`crate::ShaderKey::minimal`] resets it) and the
//! code tests the mode where baked code had none:
//!
//! - override: the driver folds the constant when it compiles the pipeline, so the code it runs
//!   is the baked code, but a new value is a new pipeline (a compile, not a translation);
//! - uniform: every mode is a uniform load and a few selects per pixel (alpha test: three
//!   comparisons; fog: the three table formulas; clip planes: all eight distances; unbound
//!   samplers: the sample is taken and then replaced), and the pipeline never changes.
//!
//! | field (`--deliver`) | override name(s) (`u32` unless said) | values |
//! |---|---|---|
//! | `alpha_func` | `alpha_func` | D3DCMPFUNC: 1 never … 8 always (8 when the test is off) |
//! | `fog` | `fog_mode` | 0 none, 1 exp, 2 exp2, 3 linear (D3DFOGMODE), 4 vertex fog |
//! | `fog_source` | `fog_source` | 0 z, 1 w |
//! | `clip_planes` | `clip_plane_mask` | D3DRS_CLIPPLANEENABLE: bit n enables plane n |
//! | `unbound_samplers` | `unbound_samplers` | bit n: nothing bound to `s n` (bind any texture of the declared type there) |
//! | `projected` | `stage0_projection` … `stage7_projection` | ps_1_0–ps_1_3: stage n's D3DTTFF_COUNT when D3DTTFF_PROJECTED is set, else 0 |
//!
//! | `bool_constants` | `bool_constants` | bit n: `b n` is true (b0–b15) |
//! | `int_constants` | `int_constant<N>_count`, `_start`, `_step`, `_w` (`i32`) | `i N`'s four components (i0–i15; `loop aL, i N` counts, starts and steps by the first three) |
//!
//! # Boolean and integer constants
//!
//! The constants `b0`–`b15` and `i0`–`i15` that static flow control reads (`if b#`,
//! `callnz l#, b#`, `loop aL, i#`, `rep i#`) have the same three deliveries, but their default
//! is **uniform**: they are read from their buffers (bindings
//! [`INT_CONSTANTS_BINDING`](crate::lower::INT_CONSTANTS_BINDING) and
//! [`BOOL_CONSTANTS_BINDING`](crate::lower::BOOL_CONSTANTS_BINDING)), as every translation did
//! before they had a delivery. Baked, the values are the key's
//! ([`ShaderKey::bool_constants`](crate::ShaderKey::bool_constants), bit n = `b n`, and
//! [`ShaderKey::int_constants`](crate::ShaderKey::int_constants)): `if b#` has a literal
//! condition and `rep i#` a literal count, so the driver drops the dead branch and may unroll
//! the loop, as with DXVK's specialisation-constant mask of booleans. As overrides, the same
//! folding happens when the pipeline is created, the values given by
//! [`constant_overrides`](crate::key::state_block::constant_overrides). Each loop keeps its
//! bound of 255 iterations whatever the delivery. Constants a `defb`/`defi` defines win, as they
//! do over the buffers; registers past 15 (the `_sw` versions' 2048) are always read from the
//! buffers. The constants are not render state: [`ShaderKey::from_state`](crate::ShaderKey::from_state)
//! leaves them at 0, and a layer that bakes them fills the key's values from the constants the
//! application set (`SetVertexShaderConstantB`/`I`, `SetPixelShaderConstantB`/`I`) before
//! [`ShaderKey::minimal`](crate::ShaderKey::minimal), which keeps only the registers the shader
//! reads. A new value is then a new translation (baked) or a new pipeline (override): bake
//! where an application sets few distinct values.
//!
//! Always baked, whatever the delivery: shadow samplers and sampler types (they change the
//! binding's type: `texture_depth_2d`, `texture_cube`), fetch4 samplers (the read is a gather
//! and a swizzle, not a sample; docs/d3d9-rules.md#fetch4), point size and point sprites (built-ins
//! that WGSL does not have), flat shading (an interpolation qualifier), the float rules.
//!
//! SPIR-V has no place for a naga `Override` in naga's writer: emit SPIR-V (or MSL, GLSL, HLSL)
//! after [`Translation::specialise`](crate::Translation::specialise) has replaced the overrides
//! by values. wgpu does the same itself when given the WGSL or the naga module.

use serde::{Deserialize, Serialize};

/// Beside the other modes in [`super::modes`], whose one spelling table (`baked`, `override`,
/// `uniform`) every parser reads: `--deliver`, serde, xtask's `--deliver`.
pub use super::modes::Delivery;

/// The delivery of each mode that can be delivered otherwise than baked, and of the boolean
/// and integer constants (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Deliveries {
    /// The alpha function (pixel shaders).
    pub alpha_func: Delivery,
    /// The fog mode (pixel shaders before ps_3_0).
    pub fog: Delivery,
    /// The fog depth source (table fog).
    pub fog_source: Delivery,
    /// The clip-plane mask (vertex shaders).
    pub clip_planes: Delivery,
    /// The unbound-sampler mask.
    pub unbound_samplers: Delivery,
    /// The ps_1_0–ps_1_3 projection counts.
    pub projected: Delivery,
    /// The boolean constants `b0`–`b15` (`if b#`, `callnz l#, b#`); uniform by default.
    #[serde(default = "uniform")]
    pub bool_constants: Delivery,
    /// The integer constants `i0`–`i15` (`loop aL, i#`, `rep i#`); uniform by default.
    #[serde(default = "uniform")]
    pub int_constants: Delivery,
}

fn uniform() -> Delivery {
    Delivery::Uniform
}

impl Default for Deliveries {
    /// Every render-state mode baked, the constants read from their buffers (uniform): the
    /// translations of the key's defaults before the constants had a delivery.
    fn default() -> Deliveries {
        Deliveries {
            bool_constants: Delivery::Uniform,
            int_constants: Delivery::Uniform,
            ..Deliveries::all(Delivery::Baked)
        }
    }
}

/// The field names `--deliver` takes, in order.
pub const FIELDS: [&str; 8] = [
    "alpha_func",
    "fog",
    "fog_source",
    "clip_planes",
    "unbound_samplers",
    "projected",
    "bool_constants",
    "int_constants",
];

impl Deliveries {
    /// Every field delivered the same way (the constants too: `all(Delivery::Baked)` bakes
    /// them, unlike [`Deliveries::default`]).
    pub fn all(d: Delivery) -> Deliveries {
        Deliveries {
            alpha_func: d,
            fog: d,
            fog_source: d,
            clip_planes: d,
            unbound_samplers: d,
            projected: d,
            bool_constants: d,
            int_constants: d,
        }
    }

    /// Whether any field is delivered otherwise than by default.
    pub fn any(&self) -> bool {
        *self != Deliveries::default()
    }

    /// The deliveries in [`FIELDS`] order.
    pub fn in_order(&self) -> [Delivery; 8] {
        [
            self.alpha_func,
            self.fog,
            self.fog_source,
            self.clip_planes,
            self.unbound_samplers,
            self.projected,
            self.bool_constants,
            self.int_constants,
        ]
    }

    fn field_mut(&mut self, name: &str) -> Option<&mut Delivery> {
        Some(match name {
            "alpha_func" => &mut self.alpha_func,
            "fog" => &mut self.fog,
            "fog_source" => &mut self.fog_source,
            "clip_planes" => &mut self.clip_planes,
            "unbound_samplers" => &mut self.unbound_samplers,
            "projected" => &mut self.projected,
            "bool_constants" => &mut self.bool_constants,
            "int_constants" => &mut self.int_constants,
            _ => return None,
        })
    }

    /// Sets one field from `FIELD=baked|override|uniform` (the CLI's `--deliver`); `all=`
    /// sets every field.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (field, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("`{assignment}`: expected FIELD={}", Delivery::NAMES.join("|")))?;
        let (field, value) = (field.trim(), value.trim());
        let d: Delivery = value.parse().map_err(|e| format!("`{field}`: {e}"))?;
        if field == "all" {
            *self = Deliveries::all(d);
            return Ok(());
        }
        match self.field_mut(field) {
            Some(slot) => {
                *slot = d;
                Ok(())
            }
            None if matches!(
                field,
                "shadow_samplers" | "fetch4_samplers" | "point_size" | "point_sprite" | "flat_shading"
            ) =>
            {
                Err(format!("`{field}` is always baked (see the delivery documentation)"))
            }
            None => Err(format!("`{field}`: unknown field (one of all, {})", FIELDS.join(", "))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_parses_fields_and_all() {
        let mut d = Deliveries::default();
        d.set("all=override").unwrap();
        assert_eq!(d, Deliveries::all(Delivery::Override));
        d.set("fog = Uniform").unwrap();
        assert_eq!((d.fog, d.alpha_func), (Delivery::Uniform, Delivery::Override));
        assert!(d.set("shadow_samplers=override").unwrap_err().contains("always baked"));
        assert!(d.set("fog=sometimes").is_err());
        assert!(d.set("colour=baked").unwrap_err().contains("unknown field"));
    }

    #[test]
    fn every_parser_reads_the_one_table() {
        for &d in Delivery::ALL {
            let mut all = Deliveries::default();
            all.set(&format!("all={}", d.name().to_uppercase())).unwrap();
            assert_eq!(all, Deliveries::all(d));
            assert_eq!(d.to_string().parse::<Delivery>(), Ok(d));
            let json = serde_json::to_string(&d).unwrap();
            assert_eq!(json, format!("\"{}\"", d.name()));
            assert_eq!(serde_json::from_str::<Delivery>(&json).unwrap(), d);
        }
        assert_eq!(Delivery::NAMES, ["baked", "override", "uniform"]);
    }

    #[test]
    fn the_constants_are_uniform_by_default_and_follow_all() {
        let d = Deliveries::default();
        assert_eq!(
            (d.bool_constants, d.int_constants, d.alpha_func),
            (Delivery::Uniform, Delivery::Uniform, Delivery::Baked)
        );
        assert!(!d.any());
        let mut e = d;
        e.set("int_constants=baked").unwrap();
        assert!(e.any());
        assert_eq!((e.int_constants, e.bool_constants), (Delivery::Baked, Delivery::Uniform));
        e.set("all=baked").unwrap();
        assert_eq!(e.in_order(), [Delivery::Baked; 8]);
        e.set("bool_constants=override").unwrap();
        assert_eq!(e.bool_constants, Delivery::Override);
        // Deliveries written before the constants had one read back with the default.
        let old = r#"{"alpha_func":"override","fog":"baked","fog_source":"baked","clip_planes":"baked","unbound_samplers":"baked","projected":"baked"}"#;
        let back: Deliveries = serde_json::from_str(old).unwrap();
        assert_eq!(back, Deliveries { alpha_func: Delivery::Override, ..Deliveries::default() });
    }
}
