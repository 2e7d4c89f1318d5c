//! Cacheable translations: a stable 128-bit hash of what decides a translation, and the
//! translation's outputs as serde data, for a layer that keeps translations on disk or in
//! IndexedDB.
//!
//! The hash ([`cache_hash`]) covers the token stream, the key (as [`ShaderKey::minimal`] leaves
//! it, deliveries included) and this crate's version, written in a fixed byte encoding (below),
//! and hashed with 128-bit FNV-1a. It is the same on every platform and every run: a layer may
//! name files by it. A new crate version changes every hash, as its translations may differ.
//!
//! Encoding, in order: `b"d3d9-shader\0"`, the crate version and `\0`; the token count (u32) and
//! each token (u32, little-endian); then the key: float rules, alpha function, fog mode, fog
//! source (one byte each, the enum's declaration index), clip planes (u8), point size, point
//! sprite, flat shading (one byte each), shadow and unbound masks (u16 each), the 16 sampler
//! types (a byte each: 0 none, 1 + the type's declaration index), the 8 projection counts,
//! software vertex processing (a byte), the linkage (0 none; else 1, the stable flag, the slot
//! count as u32, each slot as usage, index, and 0xffff_ffff for a missing slot or its location
//! as u32), the 16 vertex input types (a byte each: 0 none, 1 + D3DDECLTYPE), the eight
//! deliveries in [`crate::key::delivery::FIELDS`] order (a byte each), the boolean constants
//! (u16) and the 16 integer constants (four i32 each, little-endian; both 0 unless baked).

mod stored;

use serde::{Deserialize, Serialize};

pub use stored::StoredModule;

use crate::emit::EmitError;
use crate::key::delivery::Delivery;
use crate::key::linkage::LinkSlot;
use crate::key::pipeline_constants::PipelineConstants;
use crate::key::state_block::Modes;
use crate::key::{RenderState, ShaderKey};
use crate::lower::{BindingLayout, InterfaceMap};
use crate::{Shader, Translation};

/// 128-bit FNV-1a.
struct Fnv128(u128);

impl Fnv128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ u128::from(x)).wrapping_mul(Self::PRIME);
        }
    }

    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
}

fn delivery_byte(d: Delivery) -> u8 {
    d as u8
}

fn key_bytes(h: &mut Fnv128, k: &ShaderKey) {
    h.bytes(&[k.float_rules as u8, k.alpha_func as u8, k.fog as u8, k.fog_source as u8, k.clip_planes]);
    h.bytes(&[u8::from(k.point_size), u8::from(k.point_sprite), u8::from(k.flat_shading)]);
    h.bytes(&[k.point_expansion as u8]);
    h.bytes(&k.shadow_samplers.to_le_bytes());
    h.bytes(&k.unbound_samplers.to_le_bytes());
    h.bytes(&k.fetch4_samplers.to_le_bytes());
    for t in &k.sampler_types {
        h.bytes(&[t.map_or(0, |t| 1 + t as u8)]);
    }
    h.bytes(&k.projected);
    h.bytes(&[u8::from(k.swvp), u8::from(k.finite_constants)]);
    h.bytes(&k.normalised_samplers.to_le_bytes());
    match &k.linkage {
        None => h.bytes(&[0]),
        Some(l) => {
            h.bytes(&[1, u8::from(l.stable)]);
            h.u32(l.slots.len() as u32);
            for &(usage, index, slot) in &l.slots {
                h.bytes(&[usage, index]);
                h.u32(match slot {
                    LinkSlot::Location(n) => n,
                    LinkSlot::Missing => u32::MAX,
                });
            }
        }
    }
    for t in &k.vertex_inputs {
        h.bytes(&[t.map_or(0, |t| 1 + t as u8)]);
    }
    for x in k.delivery.in_order() {
        h.bytes(&[delivery_byte(x)]);
    }
    h.bytes(&k.bool_constants.to_le_bytes());
    for v in k.int_constants.iter().flatten() {
        h.bytes(&v.to_le_bytes());
    }
}

/// The stable hash of translating `tokens` under `key` (use the minimal key, as
/// [`Shader::cache_hash`] does, so that equivalent keys share an entry).
pub fn cache_hash(tokens: &[u32], key: &ShaderKey) -> u128 {
    let mut h = Fnv128(Fnv128::OFFSET);
    h.bytes(b"d3d9-shader\0");
    h.bytes(env!("CARGO_PKG_VERSION").as_bytes());
    h.bytes(&[0]);
    h.u32(tokens.len() as u32);
    for &t in tokens {
        h.u32(t);
    }
    key_bytes(&mut h, key);
    h.0
}

impl Shader {
    /// The cache hash of this shader under `key` reduced to what it reads ([`cache_hash`]).
    pub fn cache_hash(&self, key: &ShaderKey) -> CacheHash {
        CacheHash(cache_hash(&self.tokens(), &self.minimal_key(key)))
    }
}

/// The cache hash of a translation ([`cache_hash`]); displayed, and serialised, as 32
/// lower-case hexadecimal digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CacheHash(pub u128);

impl std::fmt::Display for CacheHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl Serialize for CacheHash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CacheHash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CacheHash, D::Error> {
        let text = String::deserialize(d)?;
        u128::from_str_radix(&text, 16)
            .map(CacheHash)
            .map_err(|e| serde::de::Error::custom(format!("cache hash `{text}`: {e}")))
    }
}

/// A translation's outputs as plain data: what a layer stores and loads back instead of
/// translating again. `d3d9-shader translate --emit-json` writes one.
///
/// An artifact with overrides (override delivery) also keeps its naga module
/// ([`StoredModule`]), so that it gives the SPIR-V of any state ([`Artifact::to_spirv`]): the
/// same bytes as the translation specialised with the same modes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Artifact {
    /// [`Shader::cache_hash`] (serialised as 32 hexadecimal digits).
    pub hash: CacheHash,
    /// The crate version that translated it.
    pub version: String,
    /// `vertex` or `pixel`.
    pub stage: String,
    /// The WGSL text.
    pub wgsl: String,
    /// SPIR-V words; `None` when the module has overrides (naga writes no SPIR-V for them:
    /// specialise first, [`crate::key::delivery`]).
    pub spirv: Option<Vec<u32>>,
    /// The overrides' names (override delivery).
    pub overrides: Vec<String>,
    /// What to bind.
    pub layout: BindingLayout,
    /// Where inputs and outputs went.
    pub interface: InterfaceMap,
    /// The shader's reflection (as `d3d9-shader info --json` prints it).
    pub reflection: serde_json::Value,
    /// The naga module when it has overrides (`spirv` is then `None`): what
    /// [`Artifact::to_spirv`] specialises.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<StoredModule>,
}

impl Artifact {
    /// The artifact of `shader` translated under `key` as `translation`.
    pub fn new(shader: &Shader, key: &ShaderKey, translation: &Translation) -> Result<Artifact, EmitError> {
        let overrides = translation.overrides();
        let (spirv, module) = if overrides.is_empty() {
            (Some(translation.to_spirv()?), None)
        } else {
            (None, Some(StoredModule::new(&translation.module)?))
        };
        let reflection = serde_json::to_value(shader.reflection())
            .map_err(|e| EmitError::Backend { backend: "json", message: e.to_string() })?;
        Ok(Artifact {
            hash: shader.cache_hash(key),
            version: env!("CARGO_PKG_VERSION").to_string(),
            stage: if shader.stage() == crate::bytecode::ShaderKind::Vertex { "vertex" } else { "pixel" }.into(),
            wgsl: translation.to_wgsl()?,
            spirv,
            overrides,
            layout: translation.layout.clone(),
            interface: translation.interface.clone(),
            reflection,
            module,
        })
    }

    /// The pipeline constants of the artifact's overrides under a draw's `modes` (take them
    /// from the device state, [`Shader::modes`]) and the application's boolean and integer
    /// constants (`bools` bit n is `b n`, `ints[n]` is `i n`), as wgpu takes them beside
    /// [`Artifact::wgsl`] ([`Translation::pipeline_constants`]; the values
    /// [`Artifact::to_spirv_with_constants`] bakes in).
    pub fn pipeline_constants(&self, modes: &Modes, bools: u16, ints: &[[i32; 4]; 16]) -> PipelineConstants {
        PipelineConstants::new(&self.overrides, modes, bools, ints)
    }

    /// The SPIR-V of the artifact under `modes` (take them from the device state,
    /// [`Shader::modes`]): the stored words when it has no overrides, else its module
    /// specialised ([`Translation::specialise`]), the same bytes as the translation's.
    pub fn to_spirv(&self, modes: &Modes) -> Result<Vec<u32>, EmitError> {
        self.to_spirv_with_constants(modes, 0, &[[0; 4]; 16])
    }

    /// [`Artifact::to_spirv`] with the boolean and integer constants of override delivery
    /// ([`Translation::specialise_with_constants`]).
    pub fn to_spirv_with_constants(
        &self,
        modes: &Modes,
        bools: u16,
        ints: &[[i32; 4]; 16],
    ) -> Result<Vec<u32>, EmitError> {
        if let Some(words) = &self.spirv {
            return Ok(words.clone());
        }
        let stored = self.module.as_ref().ok_or_else(|| EmitError::Backend {
            backend: "artifact",
            message: "an artifact with overrides and no module (written before artifacts kept it)".into(),
        })?;
        let (module, analysis) = stored.module()?;
        let t = Translation::with_analysis(module, analysis, self.layout.clone(), self.interface.clone());
        let state = RenderState { modes: *modes, ..RenderState::default() };
        t.specialise_with_constants(&state, bools, ints)?.to_spirv()
    }
}

/// Artifacts by cache hash, in memory: each (shader, minimal key) translated once. A layer that
/// keeps its artifacts on disk fills one with [`ArtifactCache::insert`] at start.
#[derive(Clone, Debug, Default)]
pub struct ArtifactCache {
    artifacts: std::collections::HashMap<CacheHash, Artifact>,
    translations: usize,
}

impl ArtifactCache {
    /// The artifact of `shader` under `key`: from the cache, or translated once.
    pub fn get(&mut self, shader: &Shader, key: &ShaderKey) -> crate::error::Result<&Artifact> {
        let hash = shader.cache_hash(key);
        if !self.artifacts.contains_key(&hash) {
            let translation = shader.translate(key)?;
            self.translations += 1;
            self.artifacts.insert(hash, Artifact::new(shader, key, &translation)?);
        }
        Ok(&self.artifacts[&hash])
    }

    /// Adds a stored artifact (one read back from disk).
    pub fn insert(&mut self, artifact: Artifact) {
        self.artifacts.insert(artifact.hash, artifact);
    }

    /// How many translations [`ArtifactCache::get`] made.
    pub fn translations(&self) -> usize {
        self.translations
    }

    /// How many artifacts it holds.
    pub fn len(&self) -> usize {
        self.artifacts.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.artifacts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::device::{BoundTexture, DeviceState};
    use crate::ParseOptions;

    fn ps() -> Shader {
        Shader::from_asm("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n", &ParseOptions::default())
            .unwrap()
    }

    #[test]
    fn fnv1a_128_of_known_inputs() {
        // FNV-1a 128 of the empty string is the offset basis; of "a", the published test vector
        // d228cb696f1a8caf78912b704e4a8964.
        let mut h = Fnv128(Fnv128::OFFSET);
        assert_eq!(h.0, 0x6c62272e07bb014262b821756295c58d);
        h.bytes(b"a");
        assert_eq!(h.0, 0xd228cb696f1a8caf78912b704e4a8964);
    }

    #[test]
    fn the_hash_follows_what_the_translation_reads_and_nothing_else() {
        let s = ps();
        let base = s.cache_hash(&ShaderKey::default());
        // The same state seen through a vertex-only field: the same entry.
        assert_eq!(base, s.cache_hash(&ShaderKey { clip_planes: 3, ..ShaderKey::default() }));
        // A mode it reads: another entry.
        let mut k = ShaderKey::default();
        k.set("alpha_func=less").unwrap();
        assert_ne!(base, s.cache_hash(&k));
        // Under override delivery the mode is not in the hash.
        let mut a = k.clone();
        a.delivery.set("alpha_func=override").unwrap();
        let mut b = ShaderKey::default();
        b.delivery.set("alpha_func=override").unwrap();
        assert_eq!(s.cache_hash(&a), s.cache_hash(&b));
        assert_ne!(s.cache_hash(&a), base);
        // States that differ in an unused sampler's texture.
        let st = |t| {
            let mut d = DeviceState::default();
            d.textures[0] = Some(BoundTexture::Tex2D);
            d.textures[5] = t;
            d
        };
        assert_eq!(s.cache_hash(&s.key(&st(None))), s.cache_hash(&s.key(&st(Some(BoundTexture::Cube)))));
    }

    #[test]
    fn baked_constants_are_in_the_hash_only_where_read() {
        let s = Shader::from_asm(
            "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nif b2\nrep i1\nadd r0, r0, v0\nendrep\nendif\nmov o0, r0\n",
            &ParseOptions::default(),
        )
        .unwrap();
        let mut k = ShaderKey::default();
        k.delivery.set("all=baked").unwrap();
        let base = s.cache_hash(&k);
        let with = |a: &str| {
            let mut k = k.clone();
            k.set(a).unwrap();
            s.cache_hash(&k)
        };
        assert_ne!(with("bool_constants=4"), base);
        assert_ne!(with("int1=3,0,1"), base);
        assert_eq!(with("bool_constants=3"), base, "b0 and b1 are not read");
        assert_eq!(with("int0=3,0,1"), base, "i0 is not read");
        // Uniform (the default): the values are not read.
        let mut u = k.clone();
        u.delivery = crate::key::Deliveries::default();
        let hu = s.cache_hash(&u);
        u.set("bool_constants=4").unwrap();
        assert_eq!(s.cache_hash(&u), hu);
    }

    fn v_hash(json: &str) -> String {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["hash"].as_str().unwrap().to_string()
    }

    #[test]
    fn an_artifact_round_trips_through_json() {
        let s = ps();
        for deliver in ["all=baked", "all=override"] {
            let mut key = ShaderKey::default();
            key.delivery.set(deliver).unwrap();
            let t = s.translate(&key).unwrap();
            let a = Artifact::new(&s, &key, &t).unwrap();
            let json = serde_json::to_string(&a).unwrap();
            let back: Artifact = serde_json::from_str(&json).unwrap();
            assert_eq!(back, a);
            assert_eq!(back.layout, t.layout);
            assert_eq!(back.interface, t.interface);
            assert_eq!(back.spirv.is_some(), deliver == "all=baked");
            assert_eq!(back.hash.to_string().len(), 32);
            assert_eq!(v_hash(&json), back.hash.to_string());
            // Registers keep their names in the JSON: ps_2_0's t0 in, oC0 out.
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(
                (&v["interface"]["inputs"][0]["register"], &v["interface"]["outputs"][0]["register"]),
                (&"t0".into(), &"oC0".into())
            );
        }
    }

    /// Issue 44: an override-delivered artifact, stored and read back, gives for any state the
    /// SPIR-V bytes of the translation specialised with the same modes.
    #[test]
    fn a_stored_override_artifact_gives_the_translations_spirv_for_any_state() {
        let shaders = [
            // Alpha test, fog and an unbound-sampler mask (ps_2_0).
            ps(),
            // rsq of 0 is +inf (a private `u32` of its bits, bitcast).
            Shader::from_asm("ps_2_0\ndcl t0\nrsq r0, t0.x\nmov oC0, r0\n", &ParseOptions::default()).unwrap(),
            // Clip planes (vertex), boolean and integer constants.
            Shader::from_asm(
                "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nif b2\nrep i1\nadd r0, r0, v0\nendrep\nendif\nmov o0, r0\n",
                &ParseOptions::default(),
            )
            .unwrap(),
            // ps_1_1 projection counts.
            Shader::from_asm("ps_1_1\ntex t0\nmov r0, t0\n", &ParseOptions::default()).unwrap(),
        ];
        // D3DCMP_GREATER with linear fog on w; LESS with exp fog; planes 0 and 2; stage 0 / z.
        let modes = [
            Modes::default(),
            Modes { alpha_func: 5, fog_mode: 3, fog_source: 1, unbound_samplers: 1, ..Modes::default() },
            Modes {
                alpha_func: 2,
                fog_mode: 1,
                clip_plane_mask: 5,
                projected: [3, 0, 0, 0, 0, 0, 0, 0],
                ..Modes::default()
            },
        ];
        for s in &shaders {
            let mut key = ShaderKey::default();
            key.delivery.set("all=override").unwrap();
            let t = s.translate(&key).unwrap();
            assert!(!t.overrides().is_empty());
            let json = serde_json::to_string(&Artifact::new(s, &key, &t).unwrap()).unwrap();
            let back: Artifact = serde_json::from_str(&json).unwrap();
            assert_eq!(back.spirv, None);
            for m in &modes {
                let state = RenderState { modes: *m, ..RenderState::default() };
                let want = t.specialise_with_constants(&state, 4, &[[3, 0, 1, 0]; 16]).unwrap().to_spirv().unwrap();
                assert_eq!(back.to_spirv_with_constants(m, 4, &[[3, 0, 1, 0]; 16]).unwrap(), want);
                assert_eq!(back.to_spirv(m).unwrap(), t.specialise(&state).unwrap().to_spirv().unwrap());
            }
        }
    }

    /// Issue 44's gap: pipeline constants taken from the modes alone left `bool_constants` at 0.
    /// A ps_3_0 `if b0` delivered as an override: the one call gives b0's value, and what naga
    /// makes of the artifact's module with those constants (what wgpu does at pipeline creation)
    /// is the code with b0 on, not the code with b0 off.
    #[test]
    fn an_override_delivered_boolean_reaches_the_pipeline_constants() {
        let ps = Shader::from_asm(
            "ps_3_0\ndef c0, 1, 0, 0, 1\ndef c1, 0, 0, 1, 1\nmov r0, c0\nif b0\nmov r0, c1\nendif\nmov oC0, r0\n",
            &ParseOptions::default(),
        )
        .unwrap();
        let mut key = ShaderKey::default();
        key.delivery.set("all=override").unwrap();
        let t = ps.translate(&key).unwrap();
        let back: Artifact =
            serde_json::from_str(&serde_json::to_string(&Artifact::new(&ps, &key, &t).unwrap()).unwrap()).unwrap();
        let (modes, ints) = (Modes::default(), [[0; 4]; 16]);
        let constants = back.pipeline_constants(&modes, 1, &ints);
        assert_eq!(constants.get("bool_constants"), Some(1.0));
        assert_eq!(constants, t.pipeline_constants(&modes, 1, &ints));
        let (module, info) =
            naga::back::pipeline_constants::process_overrides(&t.module, t.info().unwrap(), None, &constants.to_naga())
                .unwrap();
        let analysis = crate::emit::Analysis::with_info(&module, info.into_owned()).unwrap();
        let wgpu_like = crate::emit::spirv(&module, &analysis).unwrap();
        let on = back.to_spirv_with_constants(&modes, 1, &ints).unwrap();
        assert_eq!(wgpu_like, on);
        // b0 off is other code: what the modes-only constants gave.
        assert_ne!(on, back.to_spirv(&modes).unwrap());
    }

    #[test]
    fn the_cache_hash_prints_and_reads_as_32_hex_digits() {
        let h = CacheHash(0xd228cb696f1a8caf78912b704e4a8964);
        assert_eq!(h.to_string(), "d228cb696f1a8caf78912b704e4a8964");
        assert_eq!(CacheHash(1).to_string(), format!("{}1", "0".repeat(31)));
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, "\"d228cb696f1a8caf78912b704e4a8964\"");
        assert_eq!(serde_json::from_str::<CacheHash>(&json).unwrap(), h);
    }
}
