//! The Windows-measured cases of `../shared/conformance` on the CPU interpreter alone.
//!
//! A small reference pipeline stands around the interpreter: the vertex shader (or the
//! fixed-function pass-through of docs/d3d9-rules.md#ff-vertex) runs on every vertex; the probe
//! pixel is located in the first triangle of the draw that covers it (D3D9 pixel centres at integer
//! coordinates, clockwise front faces, CULLMODE honoured); the vertex outputs are interpolated
//! perspective-correctly at the probe pixel and its three quad neighbours; the pixel shader runs
//! as that 2×2 quad (so texture levels of detail come from real derivatives) or, without one, the
//! fixed-function stage passes the diffuse colour through (docs/d3d9-rules.md#ff-pixel). Then come the
//! render-state stages the cases use: fog (docs/d3d9-rules.md#fog), the alpha test (docs/d3d9-rules.md#alpha-test),
//! the depth test (with `oDepth`/`texdepth` replacing the depth) and per-draw clears and states. The result is
//! quantised like an A8R8G8B8 target (or kept as floats) and compared with the Windows value.
//!
//! Every case is run; none is skipped.

use d3d9_shader::bytecode::TextureDimension;
use std::collections::HashMap;
use std::path::Path;

use d3d9_shader::bytecode::{decode, Opcode, Program, RegisterType, Usage};
use d3d9_shader::interp::{
    run_pixel_quad, run_vertex, AddressMode, Constants, Filter, MipFilter, Options, PixelInput, ReferenceSampler,
    ReferenceTexture, TextureTransform, VertexInput, VertexOutput,
};
use d3d9_tests::{parse_hex, shared_dir};
use toml::Value;

type Table = toml::map::Map<String, Value>;

fn float(v: &Value) -> f32 {
    v.as_float().map(|f| f as f32).or_else(|| v.as_integer().map(|i| i as f32)).expect("a number")
}

fn int(v: &Value) -> i64 {
    v.as_integer().expect("an integer")
}

fn argb_to_rgba(c: u32) -> [f32; 4] {
    let ch = |s: u32| ((c >> s) & 0xFF) as f32 / 255.0;
    [ch(16), ch(8), ch(0), ch(24)]
}

fn load(shared: &Path, name: &str) -> Result<Program, String> {
    let text = std::fs::read_to_string(shared.join("corpus").join(format!("{name}.hex")))
        .map_err(|e| format!("{name}: {e}"))?;
    decode(&parse_hex(&text)?).map_err(|e| format!("{name}: {e}"))
}

/// Signed and colour texel formats (docs/d3d9-rules.md#signed-formats).
fn texel(format: &str, raw: u32) -> Result<[f32; 4], String> {
    let s = |bits: u32, shift: u32| {
        let v = ((raw >> shift) & ((1 << bits) - 1)) as i32;
        let v = if v >= 1 << (bits - 1) { v - (1 << bits) } else { v };
        (v as f32 / ((1 << (bits - 1)) - 1) as f32).max(-1.0)
    };
    let u = |bits: u32, shift: u32| ((raw >> shift) & ((1 << bits) - 1)) as f32 / ((1 << bits) - 1) as f32;
    let s5 = |shift: u32| {
        let v = ((raw >> shift) & 31) as i32;
        let v = if v >= 16 { v - 32 } else { v };
        if v >= 0 {
            v as f32 / 15.0
        } else {
            8.0 * v as f32 / 127.0
        }
    };
    Ok(match format {
        "A8R8G8B8" => argb_to_rgba(raw),
        "V8U8" => [s(8, 0), s(8, 8), 1.0, 1.0],
        "V16U16" => [s(16, 0), s(16, 16), 1.0, 1.0],
        "Q8W8V8U8" => [s(8, 0), s(8, 8), s(8, 16), s(8, 24)],
        "X8L8V8U8" => [s(8, 0), s(8, 8), u(8, 16), 1.0],
        "L6V5U5" => [s5(0), s5(5), u(6, 10), 1.0],
        other => return Err(format!("texture format {other}")),
    })
}

fn texture(t: &Table) -> Result<ReferenceTexture, String> {
    let ty = TextureDimension::from_name(t["type"].as_str().unwrap()).unwrap_or(TextureDimension::Volume);
    let dim = |k: &str| t.get(k).map_or(1, int) as u32;
    let format = t["format"].as_str().unwrap();
    let texels =
        t["texels"].as_array().unwrap().iter().map(|v| texel(format, int(v) as u32)).collect::<Result<_, _>>()?;
    let mut tex = ReferenceTexture::new(ty, dim("width"), dim("height"), dim("depth"), dim("mip_levels"), texels)
        .ok_or("texel count does not match the sizes")?;
    tex.filter = if t.get("filter").and_then(Value::as_str) == Some("linear") { Filter::Linear } else { Filter::Point };
    tex.mip_filter = match t.get("mip_filter").and_then(Value::as_str) {
        Some("point") => MipFilter::Point,
        Some("linear") => MipFilter::Linear,
        _ => MipFilter::None,
    };
    tex.address = match t.get("address").and_then(Value::as_str) {
        Some("clamp") => AddressMode::Clamp,
        Some("mirror") => AddressMode::Mirror,
        Some("border") => AddressMode::Border,
        _ => AddressMode::Wrap,
    };
    Ok(tex)
}

/// One vertex after the vertex stage: its position and what it gives each semantic.
struct Vertex {
    pos: [f32; 4],
    attrs: Attrs,
    /// The vertex fog factor: a shader's oFog.x (0 when never written), or the fixed-function
    /// FOGVERTEXMODE formula of the vertex z.
    fog: f32,
}

enum Attrs {
    /// A vertex shader's outputs (linked by semantic with the library's rules).
    Shader(Box<VertexOutput>),
    /// The fixed-function pass-through: COLOR0, COLOR1 and TEXCOORD# by usage.
    Fixed(HashMap<(Usage, u8), [f32; 4]>),
}

impl Vertex {
    fn get(&self, key: (Usage, u8)) -> [f32; 4] {
        match &self.attrs {
            Attrs::Shader(out) => out.semantic(key.0, key.1),
            Attrs::Fixed(map) => map.get(&key).copied().unwrap_or(match key {
                (Usage::Color, 0) => [1.0; 4],
                (Usage::Color, 1) => [0.0, 0.0, 0.0, 1.0],
                _ => [0.0; 4],
            }),
        }
    }
}

fn usage_of(name: &str) -> Usage {
    Usage::ALL.iter().copied().find(|u| u.name().eq_ignore_ascii_case(name)).expect("known usage")
}

/// Expands an element to four components (docs/d3d9-rules.md#vertex-elements); D3DCOLOR is one 0xAARRGGBB integer.
fn elements(draw: &Table, vertex: &[Value]) -> Vec<((Usage, u8), [f32; 4])> {
    let mut out = Vec::new();
    let mut k = 0;
    for e in draw["elements"].as_array().unwrap() {
        let e = e.as_table().unwrap();
        let key = (usage_of(e["usage"].as_str().unwrap()), int(&e["usage_index"]) as u8);
        let ty = e["type"].as_str().unwrap();
        let value = if ty == "D3DCOLOR" {
            k += 1;
            argb_to_rgba(int(&vertex[k - 1]) as u32)
        } else {
            let n: usize = ty.trim_start_matches("FLOAT").parse().unwrap();
            let mut v = [0.0, 0.0, 0.0, 1.0];
            for (i, slot) in v.iter_mut().enumerate().take(n) {
                *slot = float(&vertex[k + i]);
            }
            k += n;
            v
        };
        out.push((key, value));
    }
    out
}

/// D3D8 vertex-shader input registers by usage (docs/d3d9-rules.md#d3d8-inputs).
fn d3d8_register((usage, index): (Usage, u8)) -> Option<usize> {
    Some(match (usage, index) {
        (Usage::Position, 0) => 0,
        (Usage::BlendWeight, _) => 1,
        (Usage::BlendIndices, _) => 2,
        (Usage::Normal, 0) => 3,
        (Usage::PSize, _) => 4,
        (Usage::Color, 0) => 5,
        (Usage::Color, 1) => 6,
        (Usage::TexCoord, i) if i < 8 => 7 + i as usize,
        (Usage::Position, 1) => 15,
        _ => return None,
    })
}

struct Case {
    toml: Table,
}

/// What a draw leaves at the probe when it covers it: the colour per target (`None` for a
/// target the pixel shader does not write, or for all of them when the pixel is killed) and the
/// fragment's depth.
struct Pixel {
    colors: Vec<Option<[f32; 4]>>,
    depth: f32,
    /// The interpolated per-vertex fog factor (docs/d3d9-rules.md#fog).
    vertex_fog: f32,
    /// Whether D3D9's fog stage follows the pixel shader (ps_1_x, ps_2_x, fixed function).
    fogged: bool,
}

/// A fog factor from a distance with the FOG*MODE formulas (docs/d3d9-rules.md#fog).
fn fog_factor(mode: &str, z: f32, start: f32, end: f32, density: f32) -> f32 {
    match mode {
        "LINEAR" => (end - z) / (end - start),
        "EXP" => (-density * z).exp(),
        "EXP2" => (-(density * z).powi(2)).exp(),
        _ => 1.0,
    }
}

/// The draw's `constants` tables, as the vertex and the pixel shader see them.
fn draw_constants(draw: &Table) -> (Constants, Constants) {
    let mut vs_consts = Constants::default();
    let mut ps_consts = Constants::default();
    for c in draw.get("constants").and_then(Value::as_array).into_iter().flatten() {
        let c = c.as_table().unwrap();
        let start = int(&c["start_register"]) as usize;
        let values = c["values"].as_array().unwrap();
        let kind = c["kind"].as_str().unwrap();
        let target = if kind.starts_with("vs") { &mut vs_consts } else { &mut ps_consts };
        match &kind[3..] {
            "float" => {
                for (i, chunk) in values.chunks(4).enumerate() {
                    if target.float.len() <= start + i {
                        target.float.resize(start + i + 1, [0.0; 4]);
                    }
                    target.float[start + i] = std::array::from_fn(|k| float(&chunk[k]));
                }
            }
            "int" => {
                for (i, chunk) in values.chunks(4).enumerate() {
                    target.int[start + i] = std::array::from_fn(|k| int(&chunk[k]) as i32);
                }
            }
            _ => {
                for (i, b) in values.iter().enumerate() {
                    target.bool[start + i] = b.as_bool().unwrap();
                }
            }
        }
    }
    (vs_consts, ps_consts)
}

/// The case's textures bound to their stages, and the pixel stage's per-stage states (texture
/// types, bump matrices, texture transform flags).
fn texture_stages(case: &Case) -> Result<(ReferenceSampler, Options), String> {
    let mut sampler = ReferenceSampler::default();
    let mut ps_options = Options::default();
    for t in case.toml.get("texture").and_then(Value::as_array).into_iter().flatten() {
        let t = t.as_table().unwrap();
        let tex = texture(t)?;
        let stage = int(&t["stage"]) as usize;
        ps_options.stages[stage].texture_type = tex.ty;
        sampler.bind(stage, tex);
    }
    for s in case.toml.get("texture_stage").and_then(Value::as_array).into_iter().flatten() {
        let s = s.as_table().unwrap();
        let st = &mut ps_options.stages[int(&s["stage"]) as usize];
        let f = |k: &str| s.get(k).map_or(0.0, float);
        st.bump_matrix = [[f("BUMPENVMAT00"), f("BUMPENVMAT01")], [f("BUMPENVMAT10"), f("BUMPENVMAT11")]];
        st.luminance_scale = f("BUMPENVLSCALE");
        st.luminance_offset = f("BUMPENVLOFFSET");
        if let Some(flags) = s.get("TEXTURETRANSFORMFLAGS").and_then(Value::as_str) {
            let count = (1..=4).find(|n| flags.contains(&format!("COUNT{n}"))).unwrap_or(0) as u8;
            st.transform = TextureTransform { count, projected: flags.contains("PROJECTED") };
        }
    }
    Ok((sampler, ps_options))
}

/// A vertex through the fixed-function pass-through with identity transforms
/// (docs/d3d9-rules.md#ff-vertex): COLOR0 black when lit, the vertex fog from z.
fn fixed_function_vertex(elems: &[((Usage, u8), [f32; 4])], states: &Table) -> Result<Vertex, String> {
    let lighting = states.get("LIGHTING").and_then(Value::as_bool).unwrap_or(true);
    let fog_param = |k: &str, default: f32| states.get(k).map_or(default, float);
    let mut attrs: HashMap<_, _> = elems.iter().copied().filter(|(k, _)| k.0 != Usage::Position).collect();
    let diffuse =
        if lighting { [0.0, 0.0, 0.0, 1.0] } else { attrs.get(&(Usage::Color, 0)).copied().unwrap_or([1.0; 4]) };
    attrs.insert((Usage::Color, 0), diffuse);
    attrs.entry((Usage::Color, 1)).or_insert([0.0; 4]);
    let p = elems.iter().find(|(k, _)| *k == (Usage::Position, 0)).ok_or("no position")?.1;
    let mode = states.get("FOGVERTEXMODE").and_then(Value::as_str).unwrap_or("NONE");
    let fog =
        fog_factor(mode, p[2], fog_param("FOGSTART", 0.0), fog_param("FOGEND", 1.0), fog_param("FOGDENSITY", 1.0));
    Ok(Vertex { pos: [p[0], p[1], p[2], 1.0], attrs: Attrs::Fixed(attrs), fog: fog.clamp(0.0, 1.0) })
}

/// A vertex through a vertex shader: its inputs by declaration (or D3D8's fixed registers),
/// its fog the shader's oFog.x (or a vs_3_0 FOG output).
fn shader_vertex(
    prog: &Program,
    elems: &[((Usage, u8), [f32; 4])],
    d3d8: bool,
    consts: &Constants,
    sampler: &ReferenceSampler,
) -> Result<Vertex, String> {
    let mut input = VertexInput::default();
    if d3d8 {
        for (k, val) in elems {
            if let Some(r) = d3d8_register(*k) {
                input.v[r] = *val;
            }
        }
    } else {
        for ins in prog.iter().filter(|i| i.opcode == Opcode::Dcl) {
            let (dst, decl) = (ins.dst.unwrap(), ins.decl().unwrap());
            if dst.reg.ty == RegisterType::Input {
                let key = (decl.usage().ok_or("usage")?, decl.usage_index);
                if let Some((_, val)) = elems.iter().find(|(k, _)| *k == key) {
                    input.v[dst.reg.num as usize] = *val;
                }
            }
        }
    }
    let out = run_vertex(prog, &input, consts, &Options::default(), sampler).map_err(|e| e.to_string())?;
    let fog = if prog.version.major < 3 {
        out.fog.value[0]
    } else {
        let i = out.semantics.iter().position(|s| *s == Some((Usage::Fog, 0)));
        i.map_or(0.0, |i| out.outputs[i].value[0])
    };
    Ok(Vertex { pos: out.position.value, attrs: Attrs::Shader(Box::new(out)), fog: fog.clamp(0.0, 1.0) })
}

/// The triangle a probe pixel falls in: its vertices' indices, its screen corners and signed
/// area, and whether it faces front.
struct Hit {
    idx: [usize; 3],
    corners: [(f32, f32); 3],
    area: f32,
    front: bool,
}

impl Hit {
    /// The first non-culled triangle of the draw that covers `px`.
    fn find(verts: &[Vertex], draw: &Table, cull: &str, (w, h): (f32, f32), px: (f32, f32)) -> Option<Hit> {
        let screen = |v: &Vertex| ((v.pos[0] / v.pos[3] + 1.0) * w / 2.0, (1.0 - v.pos[1] / v.pos[3]) * h / 2.0);
        let strip = draw["primitive"].as_str() == Some("triangle_strip");
        let count = int(&draw["primitive_count"]) as usize;
        for t in 0..count {
            let idx = match (strip, t % 2) {
                (true, 0) => [t, t + 1, t + 2],
                (true, _) => [t + 1, t, t + 2],
                (false, _) => [3 * t, 3 * t + 1, 3 * t + 2],
            };
            let p = idx.map(|i| screen(&verts[i]));
            let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (p[1].1 - p[0].1);
            if area == 0.0 {
                continue;
            }
            // y points down: a positive area is clockwise on screen, D3D9's front face.
            let front = area > 0.0;
            if (cull == "CCW" && !front) || (cull == "CW" && front) {
                continue;
            }
            let hit = Hit { idx, corners: p, area, front };
            if hit.bary(px).iter().all(|&b| b >= -1e-6) {
                return Some(hit);
            }
        }
        None
    }

    /// The screen-space barycentric weights of `(x, y)`.
    fn bary(&self, (x, y): (f32, f32)) -> [f32; 3] {
        let p = self.corners;
        let l1 = ((x - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (y - p[0].1)) / self.area;
        let l2 = ((p[1].0 - p[0].0) * (y - p[0].1) - (x - p[0].0) * (p[1].1 - p[0].1)) / self.area;
        [1.0 - l1 - l2, l1, l2]
    }

    /// Window depth z/w, which interpolates linearly in screen space.
    fn depth(&self, verts: &[Vertex], px: (f32, f32)) -> f32 {
        let b = self.bary(px);
        (0..3).map(|k| b[k] * verts[self.idx[k]].pos[2] / verts[self.idx[k]].pos[3]).sum()
    }

    /// `value` of each vertex interpolated perspective-correctly at `xy`. A zero weight
    /// contributes nothing, even for an infinite attribute.
    fn interpolate(&self, verts: &[Vertex], xy: (f32, f32), value: impl Fn(&Vertex) -> f32) -> f32 {
        let b = self.bary(xy);
        let ws = self.idx.map(|i| verts[i].pos[3]);
        let norm: f32 = (0..3).map(|k| b[k] / ws[k]).sum();
        let term = |k: usize| if b[k] == 0.0 { 0.0 } else { b[k] / ws[k] * value(&verts[self.idx[k]]) };
        (0..3).map(term).sum::<f32>() / norm
    }
}

fn run_draw(shared: &Path, case: &Case, draw: &Table, px: (f32, f32), states: &Table) -> Result<Option<Pixel>, String> {
    let cull = states.get("CULLMODE").and_then(Value::as_str).unwrap_or("CCW");
    let rt = case.toml["render_target"].as_table().unwrap();
    let (w, h) = (rt.get("width").map_or(640, int) as f32, rt.get("height").map_or(480, int) as f32);
    let d3d8 = case.toml["api"].as_str() == Some("d3d8");
    let (vs_consts, ps_consts) = draw_constants(draw);
    let vs_name = draw["vertex_shader"].as_str().unwrap();
    let ps_name = draw["pixel_shader"].as_str().unwrap();
    let (sampler, ps_options) = texture_stages(case)?;

    let vs = if vs_name == "none" { None } else { Some(load(shared, vs_name)?) };
    let mut verts = Vec::new();
    for v in draw["vertices"].as_array().unwrap() {
        let elems = elements(draw, v.as_array().unwrap());
        verts.push(match &vs {
            None => fixed_function_vertex(&elems, states)?,
            Some(prog) => {
                shader_vertex(prog, &elems, d3d8, &vs_consts, &sampler).map_err(|e| format!("{vs_name}: {e}"))?
            }
        });
    }

    let Some(hit) = Hit::find(&verts, draw, cull, (w, h), px) else { return Ok(None) };
    let depth = hit.depth(&verts, px);
    let vertex_fog = hit.interpolate(&verts, px, |v| v.fog);
    let interp = |xy: (f32, f32), key: (Usage, u8)| -> [f32; 4] {
        std::array::from_fn(|c| hit.interpolate(&verts, xy, |v| v.get(key)[c]))
    };

    let Some(ps) = (if ps_name == "none" { None } else { Some(load(shared, ps_name)?) }) else {
        // Fixed-function pixel stage: the diffuse colour, saturated (docs/d3d9-rules.md#ff-pixel).
        let colour = interp(px, (Usage::Color, 0)).map(|x| x.clamp(0.0, 1.0));
        return Ok(Some(Pixel { colors: vec![Some(colour)], depth, vertex_fog, fogged: true }));
    };
    let inputs: [PixelInput; 4] = std::array::from_fn(|lane| {
        let xy = (px.0 + (lane & 1) as f32, px.1 + (lane >> 1) as f32);
        let input = PixelInput::link(&ps, |usage, index| interp(xy, (usage, index)));
        PixelInput { vpos: [xy.0, xy.1], vface: if hit.front { 1.0 } else { -1.0 }, ..input }
    });
    let out = run_pixel_quad(&ps, &inputs, &ps_consts, &ps_options, &sampler).map_err(|e| format!("{ps_name}: {e}"))?;
    if out[0].discarded {
        return Ok(None);
    }
    let fogged = ps.version.major < 3;
    Ok(Some(Pixel { colors: out[0].color.to_vec(), depth: out[0].depth.unwrap_or(depth), vertex_fog, fogged }))
}

fn to8(c: [f32; 4]) -> [i64; 4] {
    c.map(|x| (if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) } * 255.0).round() as i64)
}

fn run_case(shared: &Path, case: &Case) -> Result<Vec<String>, String> {
    let t = &case.toml;
    let case_states = t.get("render_states").and_then(Value::as_table).cloned().unwrap_or_default();
    let draws = t["draw"].as_array().unwrap();
    let rt = t["render_target"].as_table().unwrap();
    let float_target = rt.get("format").and_then(Value::as_str) == Some("A32B32G32R32F");
    let mut clear: Vec<[f32; 4]> = vec![argb_to_rgba(int(&rt["clear_color"]) as u32)];
    for extra in rt.get("render_targets").and_then(Value::as_array).into_iter().flatten() {
        clear.push(argb_to_rgba(int(&extra["clear_color"]) as u32));
    }
    let mut failures = Vec::new();
    for probe in t["probe"].as_array().unwrap() {
        let p = probe.as_table().unwrap();
        let px = (int(&p["x"]) as f32, int(&p["y"]) as f32);
        let target = p.get("target").map_or(0, int) as usize;
        let last = p.get("after_draw").map_or(draws.len() - 1, |v| int(v) as usize);
        let cleared = (clear[target], float(&rt["clear_depth"]));
        let colour = probe_colour(shared, case, &draws[..=last], &case_states, cleared, px, target)?;
        if !probe_matches(p, colour, float_target) {
            failures.push(format!(
                "probe ({}, {}) target {target}: got {colour:?} ({:?}), expected 0x{:08x}",
                px.0,
                px.1,
                to8(colour),
                p.get("expected").map_or(0, int)
            ));
        }
    }
    Ok(failures)
}

/// Render state `k` as a boolean, `default` when the states do not set it.
fn flag(states: &Table, k: &str, default: bool) -> bool {
    states.get(k).and_then(Value::as_bool).unwrap_or(default)
}

/// The colour of target `target` at pixel `px` after `draws`, starting from the cleared
/// (colour, depth): each draw's clear, then the pixel it writes through the depth test, fog and
/// the alpha test.
fn probe_colour(
    shared: &Path,
    case: &Case,
    draws: &[Value],
    case_states: &Table,
    (mut colour, mut z): ([f32; 4], f32),
    px: (f32, f32),
    target: usize,
) -> Result<[f32; 4], String> {
    // Render states persist from draw to draw, as SetRenderState does.
    let mut states = case_states.clone();
    for d in draws {
        let d = d.as_table().unwrap();
        for (k, v) in d.get("render_states").and_then(Value::as_table).into_iter().flatten() {
            states.insert(k.clone(), v.clone());
        }
        if let Some(c) = d.get("clear") {
            if let Some(c) = c.get("color") {
                colour = argb_to_rgba(int(c) as u32);
            }
            if let Some(depth) = c.get("depth") {
                z = float(depth);
            }
        }
        let Some(mut px_out) = run_draw(shared, case, d, px, &states)? else { continue };
        // The depth test (D3D9's automatic D24 buffer; ZENABLE defaults to TRUE).
        let depth = px_out.depth.clamp(0.0, 1.0);
        let z_func = states.get("ZFUNC").and_then(Value::as_str).unwrap_or("LESSEQUAL");
        if flag(&states, "ZENABLE", true) && !compare(z_func, depth, z) {
            continue;
        }
        apply_fog(&states, &mut px_out, depth);
        if !alpha_test_passes(&states, &px_out) {
            continue;
        }
        if flag(&states, "ZENABLE", true) && flag(&states, "ZWRITEENABLE", true) {
            z = depth;
        }
        if let Some(Some(c)) = px_out.colors.get(target) {
            colour = *c;
        }
    }
    Ok(colour)
}

/// `value` against `reference` under the D3DCMP function named `func` (ZFUNC, ALPHAFUNC); a name
/// the cases do not use passes.
fn compare<T: PartialOrd>(func: &str, value: T, reference: T) -> bool {
    match func {
        "NEVER" => false,
        "LESS" => value < reference,
        "EQUAL" => value == reference,
        "LESSEQUAL" => value <= reference,
        "GREATER" => value > reference,
        "NOTEQUAL" => value != reference,
        "GREATEREQUAL" => value >= reference,
        _ => true,
    }
}

/// Fog after the pixel shader (docs/d3d9-rules.md#fog): table fog from the pixel depth wins, else
/// the interpolated vertex fog; rgb only.
fn apply_fog(states: &Table, px_out: &mut Pixel, depth: f32) {
    if !(flag(states, "FOGENABLE", false) && px_out.fogged) {
        return;
    }
    let mode = states.get("FOGTABLEMODE").and_then(Value::as_str).unwrap_or("NONE");
    let p = |k: &str, default: f32| states.get(k).map_or(default, float);
    let f = if mode == "NONE" {
        px_out.vertex_fog
    } else {
        fog_factor(mode, depth, p("FOGSTART", 0.0), p("FOGEND", 1.0), p("FOGDENSITY", 1.0))
    }
    .clamp(0.0, 1.0);
    let fog_colour = argb_to_rgba(states.get("FOGCOLOR").map_or(0, int) as u32);
    if let Some(Some(c)) = px_out.colors.get_mut(0) {
        for k in 0..3 {
            c[k] = f * c[k] + (1.0 - f) * fog_colour[k];
        }
    }
}

/// The alpha test at 8-bit precision, only the low byte of ALPHAREF (docs/d3d9-rules.md#alpha-test);
/// true when it is off.
fn alpha_test_passes(states: &Table, px_out: &Pixel) -> bool {
    if !flag(states, "ALPHATESTENABLE", false) {
        return true;
    }
    let alpha = px_out.colors.first().copied().flatten().map_or(0, |c| to8(c)[3]);
    let reference = states.get("ALPHAREF").map_or(0, int) & 0xFF;
    compare(states.get("ALPHAFUNC").and_then(Value::as_str).unwrap_or("ALWAYS"), alpha, reference)
}

/// Whether probe `p` accepts `colour`: within `tolerance_float` of `expected_float` on a float
/// target, else quantised to 8 bits and within `tolerance` of `expected` or an `accept_also` value
/// (rgb, or argb with `compare = "argb"`).
fn probe_matches(p: &Table, colour: [f32; 4], float_target: bool) -> bool {
    if float_target {
        let want: Vec<f32> = p["expected_float"].as_array().unwrap().iter().map(float).collect();
        let tol = p.get("tolerance_float").map_or(0.0, float);
        return (0..4).all(|c| (colour[c] - want[c]).abs() <= tol);
    }
    let got = to8(colour);
    let tol = int(&p["tolerance"]);
    let alpha = p.get("compare").and_then(Value::as_str) == Some("argb");
    let matches = |want: u32| {
        let w = [(want >> 16) & 0xFF, (want >> 8) & 0xFF, want & 0xFF, want >> 24].map(|x| x as i64);
        (0..if alpha { 4 } else { 3 }).all(|c| (got[c] - w[c]).abs() <= tol)
    };
    let mut candidates = vec![int(&p["expected"]) as u32];
    candidates.extend(p.get("accept_also").and_then(Value::as_array).into_iter().flatten().map(|v| int(v) as u32));
    candidates.into_iter().any(matches)
}

#[test]
fn windows_measured_cases_on_the_interpreter() {
    let Some(shared) = shared_dir() else {
        eprintln!("SKIPPED: ../shared not present");
        return;
    };
    let mut names: Vec<_> = std::fs::read_dir(shared.join("conformance"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    names.sort();
    let (mut passed, mut failed) = (0, Vec::new());
    let total = names.len();
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let toml: Table = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let case = Case { toml };
        match run_case(&shared, &case) {
            Ok(f) if f.is_empty() => passed += 1,
            Ok(f) => failed.push(format!("{name}:\n  {}", f.join("\n  "))),
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    eprintln!("{passed} of {total} cases passed");
    assert!(total > 150, "expected the conformance cases, found {total}");
    assert!(failed.is_empty(), "{} cases failed:\n{}", failed.len(), failed.join("\n"));
}
