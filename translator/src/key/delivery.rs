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
//! | field (`--deliver`) | override name(s) (`u32`) | values |
//! |---|---|---|
//! | `alpha_func` | `alpha_func` | D3DCMPFUNC: 1 never … 8 always (8 when the test is off) |
//! | `fog` | `fog_mode` | 0 none, 1 exp, 2 exp2, 3 linear (D3DFOGMODE), 4 vertex fog |
//! | `fog_source` | `fog_source` | 0 z, 1 w |
//! | `clip_planes` | `clip_plane_mask` | D3DRS_CLIPPLANEENABLE: bit n enables plane n |
//! | `unbound_samplers` | `unbound_samplers` | bit n: nothing bound to `s n` (bind any texture of the declared type there) |
//! | `projected` | `stage0_projection` … `stage7_projection` | ps_1_0–ps_1_3: stage n's D3DTTFF_COUNT when D3DTTFF_PROJECTED is set, else 0 |
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

/// The delivery of each mode that can be delivered otherwise than baked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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
}

/// The field names `--deliver` takes, in order.
pub const FIELDS: [&str; 6] = ["alpha_func", "fog", "fog_source", "clip_planes", "unbound_samplers", "projected"];

impl Deliveries {
    /// Every field delivered the same way.
    pub fn all(d: Delivery) -> Deliveries {
        Deliveries { alpha_func: d, fog: d, fog_source: d, clip_planes: d, unbound_samplers: d, projected: d }
    }

    /// Whether any field is not baked.
    pub fn any(&self) -> bool {
        *self != Deliveries::default()
    }

    fn field_mut(&mut self, name: &str) -> Option<&mut Delivery> {
        Some(match name {
            "alpha_func" => &mut self.alpha_func,
            "fog" => &mut self.fog,
            "fog_source" => &mut self.fog_source,
            "clip_planes" => &mut self.clip_planes,
            "unbound_samplers" => &mut self.unbound_samplers,
            "projected" => &mut self.projected,
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
}
