//! The d3d9-shader library for JavaScript, through wasm-bindgen.
//!
//! ```js
//! import init, { load } from "./pkg/d3d9_shader_web.js";
//! await init();
//! const shader = load(new TextEncoder().encode("ps_2_0\nmov oC0, c0"), { name: "a.asm" });
//! shader.listing();              // "ps_2_0\nmov oC0, c0\n"
//! shader.messages();             // [{ severity, message, token, instruction, line }]
//! shader.reflection();           // the same object as `d3d9-shader info --json`
//! const t = shader.translate({ float_rules: "ieee" });
//! // b1 true and rep i2 three times, in the code rather than read from their buffers:
//! shader.translate({ deliver: { bool_constants: "baked", int_constants: "baked" }, bool_constants: 2, int2: [3, 0, 1, 0] });
//! t.wgsl(); t.spirv(); t.spirvText(); t.bindings();
//! ```
//!
//! Failures throw an `Error` whose `kind` names the stage (`input`, `decode`, `asm`, `invalid`,
//! `translate`, `key`, `emit`) and whose `token`, or `line` and `column`, say where in the input.
//! The TypeScript declarations come with the generated package (`d3d9_shader_web.d.ts`). The
//! native half of the API is [`document`]; the playground page is in `web/www/` (README).

pub mod document;
pub mod error;

use wasm_bindgen::prelude::*;

use crate::document::{Document, LoadOptions, Output};
use crate::error::WebError;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** How to read an input. */
export interface LoadOptions {
  /** A file name whose extension names the format (.hex, .h, .asm, .pso…); otherwise the content decides. */
  name?: string;
  /** Refuse what the Direct3D 9 runtime refuses (default: lenient). */
  strict?: boolean;
  /** Software vertex processing limits. */
  swvp?: boolean;
}
/** One validation message. */
export interface Message {
  severity: "error" | "warning";
  message: string;
  /** Token index of the instruction (byte offset = 4 × token). */
  token?: number;
  instruction?: number;
  /** Line in the listing, from 1. */
  line?: number;
}
/** The error every call throws. */
export interface ShaderError extends Error {
  kind: "input" | "decode" | "asm" | "invalid" | "translate" | "key" | "emit";
  token?: number;
  line?: number;
  column?: number;
}
/** How a mode or the constants reach the code (the CLI's --deliver). */
export type Delivery = "baked" | "override" | "uniform";
/**
 * Key fields as the CLI's --key takes them: { float_rules: "ieee", fog: "linear", sampler0: "cube" }.
 * The boolean and integer constants: bool_constants (bit n: b n is true), int0 … int15 (count,
 * start, step[, w] as an array or "3,0,1"), read when `deliver` bakes them (by default they are
 * read from their buffers): { deliver: { bool_constants: "baked", int_constants: "baked" },
 * bool_constants: 0b10, int2: [3, 0, 1, 0] }. `deliver: "override"` delivers every field so.
 */
export type Key = {
  deliver?: Delivery | Partial<Record<"alpha_func" | "fog" | "fog_source" | "clip_planes" | "unbound_samplers" | "projected" | "bool_constants" | "int_constants", Delivery>>;
} & Record<string, string | number | boolean | number[] | { [field: string]: Delivery | undefined } | undefined>;
"#;

/// Reads, decodes and validates a shader: a blob (`Uint8Array`), hex words, an fxc header or
/// assembly text (a `string` or its bytes).
#[wasm_bindgen(unchecked_return_type = "Shader")]
pub fn load(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "LoadOptions | undefined")] options: JsValue,
) -> Result<JsShader, JsValue> {
    let bytes = match input.as_string() {
        Some(text) => text.into_bytes(),
        None => js_sys::Uint8Array::new(&input).to_vec(),
    };
    let options = LoadOptions {
        name: get(&options, "name").and_then(|v| v.as_string()).unwrap_or_default(),
        strict: get(&options, "strict").is_some_and(|v| v.is_truthy()),
        swvp: get(&options, "swvp").is_some_and(|v| v.is_truthy()),
    };
    Document::load(&bytes, &options).map(|document| JsShader { document }).map_err(to_js)
}

/// A loaded shader.
#[wasm_bindgen(js_name = Shader)]
pub struct JsShader {
    document: Document,
}

#[wasm_bindgen(js_class = Shader)]
impl JsShader {
    /// `vertex` or `pixel`.
    #[wasm_bindgen(getter)]
    pub fn stage(&self) -> String {
        self.document.stage().into()
    }

    /// The version, e.g. `ps_2_0`.
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> String {
        self.document.version()
    }

    /// How the input was read: `blob`, `hex`, `header` or `asm`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.document.format().into()
    }

    /// Whether the program passed validation (warnings allowed).
    #[wasm_bindgen(getter)]
    pub fn valid(&self) -> bool {
        self.document.is_valid()
    }

    /// The disassembly, one instruction per line after the version line.
    pub fn listing(&self) -> String {
        self.document.listing().into()
    }

    /// The token stream.
    pub fn tokens(&self) -> Vec<u32> {
        self.document.tokens()
    }

    /// Every validation message, errors first.
    #[wasm_bindgen(unchecked_return_type = "Message[]")]
    pub fn messages(&self) -> Result<JsValue, JsValue> {
        json(serde_json::to_string(self.document.messages()).map_err(|e| WebError::new("emit", e.to_string())))
    }

    /// The reflection: inputs and outputs by semantic, constants, samplers, constant table, features.
    pub fn reflection(&self) -> Result<JsValue, JsValue> {
        json(self.document.reflection_json())
    }

    /// Translates under a key (`{ float_rules: "ieee" }`; see the README for the fields).
    #[wasm_bindgen(unchecked_return_type = "Translation")]
    pub fn translate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Key | undefined")] key: JsValue,
    ) -> Result<JsTranslation, JsValue> {
        let fields = key_fields(&key);
        let output = self.document.translate(pairs(&fields)).map_err(to_js)?;
        Ok(JsTranslation { output })
    }
}

/// Translates a vertex and a pixel shader linked by semantic (D3D9's rule for SM3 pairs and
/// mixed pairs): `[vertexTranslation, pixelTranslation]`.
#[wasm_bindgen(js_name = translatePair, unchecked_return_type = "[Translation, Translation]")]
pub fn translate_pair(
    vs: &JsShader,
    ps: &JsShader,
    #[wasm_bindgen(unchecked_param_type = "Key | undefined")] vs_key: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Key | undefined")] ps_key: JsValue,
) -> Result<js_sys::Array, JsValue> {
    let (vs_key, ps_key) = (key_fields(&vs_key), key_fields(&ps_key));
    let (vs_out, ps_out) =
        document::translate_pair(&vs.document, &ps.document, pairs(&vs_key), pairs(&ps_key)).map_err(to_js)?;
    Ok(js_sys::Array::of2(&JsTranslation { output: vs_out }.into(), &JsTranslation { output: ps_out }.into()))
}

fn pairs(fields: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    fields.iter().map(|(f, v)| (f.as_str(), v.as_str()))
}

/// A key object's fields as `FIELD=VALUE` strings: strings as they are, numbers in decimal,
/// arrays (an integer constant's components) joined by commas, an object (`deliver`'s) as one
/// `FIELD.NAME` per entry, anything else as a boolean.
fn key_fields(key: &JsValue) -> Vec<(String, String)> {
    if !key.is_object() {
        return Vec::new();
    }
    let mut fields = Vec::new();
    for entry in js_sys::Object::entries(&js_sys::Object::from(key.clone())).iter() {
        let pair = js_sys::Array::from(&entry);
        let (name, value) = (pair.get(0).as_string().unwrap_or_default(), pair.get(1));
        if value.is_object() && !js_sys::Array::is_array(&value) {
            for (inner, v) in key_fields(&value) {
                fields.push((format!("{name}.{inner}"), v));
            }
        } else if js_sys::Array::is_array(&value) {
            let parts: Vec<String> = js_sys::Array::from(&value).iter().map(|v| scalar(&v)).collect();
            fields.push((name, parts.join(",")));
        } else {
            fields.push((name, scalar(&value)));
        }
    }
    fields
}

/// A key value as text: a string as it is, a number in decimal, anything else as a boolean.
fn scalar(value: &JsValue) -> String {
    let text = value.as_string().or_else(|| value.as_f64().map(|f| f.to_string()));
    text.unwrap_or_else(|| if value.is_truthy() { "true" } else { "false" }.into())
}

/// One translation of a shader.
#[wasm_bindgen(js_name = Translation)]
pub struct JsTranslation {
    output: Output,
}

#[wasm_bindgen(js_class = Translation)]
impl JsTranslation {
    /// WGSL source.
    pub fn wgsl(&self) -> Result<String, JsValue> {
        self.output.wgsl().map_err(to_js)
    }

    /// SPIR-V words.
    pub fn spirv(&self) -> Result<Vec<u32>, JsValue> {
        self.output.spirv().map_err(to_js)
    }

    /// SPIR-V as text.
    #[wasm_bindgen(js_name = spirvText)]
    pub fn spirv_text(&self) -> Result<String, JsValue> {
        self.output.spirv_text().map_err(to_js)
    }

    /// `{ layout, interface }`: what to bind, and where inputs and outputs went.
    pub fn bindings(&self) -> Result<JsValue, JsValue> {
        json(self.output.bindings_json())
    }
}

fn get(object: &JsValue, field: &str) -> Option<JsValue> {
    if !object.is_object() {
        return None;
    }
    js_sys::Reflect::get(object, &JsValue::from_str(field)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

fn json(text: Result<String, WebError>) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&text.map_err(to_js)?)
}

/// A JavaScript `Error` with the fields of [`WebError`].
fn to_js(e: WebError) -> JsValue {
    let error = js_sys::Error::new(&e.message);
    let set = |field: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&error, &JsValue::from_str(field), &value);
    };
    set("kind", JsValue::from_str(e.kind));
    for (field, value) in [("token", e.token), ("line", e.line), ("column", e.column)] {
        if let Some(v) = value {
            set(field, JsValue::from_f64(v as f64));
        }
    }
    error.into()
}

#[cfg(test)]
mod tests;
