//! Fixed-function stand-ins for draws whose case says `"none"`, on both paths: the CPU stages
//! implement [`VertexStage`]/[`PixelStage`], and the same rules are generated as WGSL for the GPU.
//!
//! - Vertex stage (docs/d3d9-rules.md#ff-vertex, docs/d3d9-rules.md#vertex-elements, docs/d3d9-rules.md#fog): identity
//!   transforms, so an XYZ position is the clip position; an XYZRHW (POSITIONT) position is in
//!   pixels (D3D9 pixel centres) with 1/w.
//!   The diffuse colour is the vertex's (white when absent) with LIGHTING FALSE; with LIGHTING TRUE,
//!   no lights and the default material it is black with the vertex's alpha. The specular colour is
//!   the vertex's or (0, 0, 0, 0). Texture coordinates pass on expanded to four components. Vertex
//!   fog (FOGVERTEXMODE, with FOGTABLEMODE NONE) is computed per vertex from z.
//! - Pixel stage (docs/d3d9-rules.md#ff-pixel): no texture bound, so stage 0 selects the diffuse colour,
//!   saturated.
//!
//! Input registers follow the D3D8 numbering of docs/d3d9-rules.md#d3d8-inputs ([`crate::vertex::D3D8_REGISTERS`]):
//! POSITION(T) → v0, COLOR0 → v5, COLOR1 → v6, TEXCOORDn → v(7 + n).

use d3d9_shader::bytecode::Usage;

use crate::case::FogMode;
use crate::cpu::{fog_factor, PixelIn, PixelOut, PixelStage, StageVertex, VertexStage};
use crate::vertex::Semantic;

/// The fixed-function vertex stage's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedVertex {
    /// Position is POSITIONT (XYZRHW, pixels) rather than XYZ.
    pub pretransformed: bool,
    /// Render-target size (for XYZRHW).
    pub target_size: (u32, u32),
    /// Whether the vertices carry COLOR0 / COLOR1.
    pub has_diffuse: bool,
    /// Whether the vertices carry COLOR1.
    pub has_specular: bool,
    /// Texture coordinate sets present (bit n = TEXCOORDn).
    pub texcoords: u8,
    /// D3DRS_LIGHTING.
    pub lighting: bool,
    /// Vertex fog (FOGVERTEXMODE, when fog is on and FOGTABLEMODE is NONE): mode, start, end, density.
    pub vertex_fog: Option<(FogMode, f32, f32, f32)>,
}

impl FixedVertex {
    /// The semantics this stage writes, in order.
    pub fn outputs(&self) -> Vec<Semantic> {
        let mut out = vec![(Usage::Color, 0), (Usage::Color, 1)];
        out.extend((0..8).filter(|n| self.texcoords & (1 << n) != 0).map(|n| (Usage::TexCoord, n)));
        if self.vertex_fog.is_some() {
            out.push((Usage::Fog, 0));
        }
        out
    }

    fn position(&self, p: [f32; 4]) -> [f32; 4] {
        if !self.pretransformed {
            return [p[0], p[1], p[2], 1.0];
        }
        // Pixel X maps to NDC X / (W/2) - 1 (integer pixel centres); 1/rhw is the clip w.
        let (w, h) = (self.target_size.0 as f32, self.target_size.1 as f32);
        let cw = 1.0 / p[3];
        [(p[0] / (w / 2.0) - 1.0) * cw, (1.0 - p[1] / (h / 2.0)) * cw, p[2] * cw, cw]
    }
}

impl VertexStage for FixedVertex {
    fn run(&self, v: &[[f32; 4]; 16]) -> Result<StageVertex, String> {
        let diffuse = if self.has_diffuse { v[5] } else { [1.0; 4] };
        let diffuse = if self.lighting { [0.0, 0.0, 0.0, diffuse[3]] } else { diffuse };
        let specular = if self.has_specular { v[6] } else { [0.0; 4] };
        let mut outputs = vec![((Usage::Color, 0), diffuse), ((Usage::Color, 1), specular)];
        for n in 0..8u8 {
            if self.texcoords & (1 << n) != 0 {
                outputs.push(((Usage::TexCoord, n), v[7 + n as usize]));
            }
        }
        if let Some((mode, start, end, density)) = self.vertex_fog {
            let f = fog_factor(mode, v[0][2], start, end, density);
            outputs.push(((Usage::Fog, 0), [f, 0.0, 0.0, 0.0]));
        }
        Ok(StageVertex { position: self.position(v[0]), outputs, tie: false, point_size: None })
    }
}

/// The fixed-function pixel stage with no texture: the diffuse colour, saturated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FixedPixel;

impl PixelStage for FixedPixel {
    fn run_quad(&self, lanes: &[PixelIn; 4]) -> Result<[PixelOut; 4], String> {
        Ok(std::array::from_fn(|i| {
            let c = lanes[i].get((Usage::Color, 0)).unwrap_or([1.0; 4]);
            let sat = c.map(|x| if x > 0.0 { x.min(1.0) } else { 0.0 });
            PixelOut { color: [Some(sat), None, None, None], ..PixelOut::default() }
        }))
    }
}

/// Where each varying lives between the GPU stages.
pub type VaryingLayout = Vec<(Semantic, u32)>;

/// The stand-ins' own layout: COLOR0 → 0, COLOR1 → 1, TEXCOORDn → 2 + n, FOG → 10.
pub fn default_layout() -> VaryingLayout {
    let mut l = vec![((Usage::Color, 0), 0), ((Usage::Color, 1), 1)];
    l.extend((0..8).map(|n| ((Usage::TexCoord, n), 2 + n as u32)));
    l.push(((Usage::Fog, 0), 10));
    l
}

/// An exact WGSL float: the bit pattern, so that every value (0.1, huge, tiny) survives.
pub fn wgsl_f32(x: f32) -> String {
    format!("bitcast<f32>(0x{:08x}u)", x.to_bits())
}

fn wgsl_fog(mode: FogMode, z: &str, start: f32, end: f32, density: f32) -> String {
    let (s, e, d) = (wgsl_f32(start), wgsl_f32(end), wgsl_f32(density));
    match mode {
        FogMode::None => "1.0".into(),
        FogMode::Linear => format!("clamp(({e} - {z}) / ({e} - {s}), 0.0, 1.0)"),
        FogMode::Exp => format!("clamp(exp(-{d} * {z}), 0.0, 1.0)"),
        FogMode::Exp2 => format!("clamp(exp(-({d} * {z}) * ({d} * {z})), 0.0, 1.0)"),
    }
}

/// The interpolation attribute of a varying: COLOR is centroid-sampled (as the translator
/// declares it; both stages must agree), the rest perspective at the pixel centre.
fn interpolate(sem: Semantic) -> &'static str {
    if sem.0 == Usage::Color {
        " @interpolate(perspective, centroid)"
    } else {
        ""
    }
}

/// WGSL of the fixed-function vertex stage writing every varying of `layout` (the pixel stage's
/// inputs): those the stage has, and D3D9's defaults for the others (COLOR0 white, COLOR1
/// (0, 0, 0, 1)... as the stage itself gives them; other semantics 0).
pub fn vertex_wgsl(ff: &FixedVertex, layout: &VaryingLayout) -> String {
    let written = ff.outputs();
    let mut s = String::from("struct VsOut {\n    @builtin(position) pos: vec4<f32>,\n");
    for (i, (sem, loc)) in layout.iter().enumerate() {
        s += &format!("    @location({loc}){} o{i}: vec4<f32>,\n", interpolate(*sem));
    }
    s += "};\n\n@vertex\nfn main(@location(0) v0: vec4<f32>, @location(5) v5: vec4<f32>, @location(6) v6: vec4<f32>";
    for n in 0..8 {
        s += &format!(", @location({}) v{}: vec4<f32>", 7 + n, 7 + n);
    }
    s += ") -> VsOut {\n    var out: VsOut;\n";
    if ff.pretransformed {
        let (w, h) = (ff.target_size.0 as f32 / 2.0, ff.target_size.1 as f32 / 2.0);
        s += &format!(
            "    let cw = 1.0 / v0.w;\n    out.pos = vec4<f32>((v0.x / {} - 1.0) * cw, (1.0 - v0.y / {}) * cw, v0.z * cw, cw);\n",
            wgsl_f32(w),
            wgsl_f32(h)
        );
    } else {
        s += "    out.pos = vec4<f32>(v0.xyz, 1.0);\n";
    }
    for (i, (sem, _)) in layout.iter().enumerate() {
        let value = match *sem {
            (Usage::Color, 0) => {
                let d = if ff.has_diffuse { "v5" } else { "vec4<f32>(1.0)" };
                if ff.lighting {
                    format!("vec4<f32>(0.0, 0.0, 0.0, {d}.w)")
                } else {
                    d.to_string()
                }
            }
            (Usage::Color, 1) => if ff.has_specular { "v6" } else { "vec4<f32>(0.0)" }.to_string(),
            (Usage::TexCoord, n) if written.contains(sem) => format!("v{}", 7 + n),
            (Usage::Fog, 0) if written.contains(sem) => {
                let (mode, start, end, density) = ff.vertex_fog.expect("FOG is written only with vertex fog");
                format!("vec4<f32>({}, 0.0, 0.0, 0.0)", wgsl_fog(mode, "v0.z", start, end, density))
            }
            _ => "vec4<f32>(0.0)".to_string(),
        };
        s += &format!("    out.o{i} = {value};\n");
    }
    s += "    return out;\n}\n";
    s
}

/// Fog and alpha test of the fixed-function pixel stage's WGSL.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedPixelState {
    /// Fog: table (mode, start, end, density), or the FOG varying (`None` mode), or off.
    pub fog: crate::cpu::FogSource,
    /// FOGCOLOR.
    pub fog_color: [f32; 3],
    /// Alpha test.
    pub alpha_test: Option<crate::cpu::AlphaTest>,
}

/// WGSL of the fixed-function pixel stage reading COLOR0 (and FOG) where `layout` puts them.
pub fn pixel_wgsl(state: &FixedPixelState, layout: &VaryingLayout) -> String {
    use crate::case::CompareFunc;
    use crate::cpu::FogSource;
    let loc = |sem: Semantic| layout.iter().find(|(s, _)| *s == sem).map(|(_, l)| *l);
    let mut args = vec!["@builtin(position) frag: vec4<f32>".to_string()];
    if let Some(l) = loc((Usage::Color, 0)) {
        args.push(format!("@location({l}) @interpolate(perspective, centroid) color0: vec4<f32>"));
    }
    let fog_varying = state.fog == FogSource::Varying;
    if let (true, Some(l)) = (fog_varying, loc((Usage::Fog, 0))) {
        args.push(format!("@location({l}) fog: vec4<f32>"));
    }
    let mut s = format!("@fragment\nfn main({}) -> @location(0) vec4<f32> {{\n", args.join(", "));
    s += if loc((Usage::Color, 0)).is_some() {
        "    var c = clamp(color0, vec4<f32>(0.0), vec4<f32>(1.0));\n"
    } else {
        "    var c = vec4<f32>(1.0);\n"
    };
    let f = match state.fog {
        FogSource::Off => None,
        FogSource::Table { mode, start, end, density } => Some(wgsl_fog(mode, "frag.z", start, end, density)),
        FogSource::Varying if loc((Usage::Fog, 0)).is_some() => Some("clamp(fog.x, 0.0, 1.0)".to_string()),
        FogSource::Varying => Some("0.0".to_string()),
    };
    if let Some(f) = f {
        let [r, g, b] = state.fog_color.map(wgsl_f32);
        s += &format!("    let f = {f};\n    c = vec4<f32>(f * c.rgb + (1.0 - f) * vec3<f32>({r}, {g}, {b}), c.a);\n");
    }
    if let Some(test) = state.alpha_test {
        // At render target 0's precision (docs/d3d9-rules.md#alpha-test).
        let (a, r) = if test.float_target {
            ("c.a".to_string(), wgsl_f32(test.reference as f32 / 255.0))
        } else {
            ("round(clamp(c.a, 0.0, 1.0) * 255.0)".to_string(), format!("{}.0", test.reference))
        };
        let pass = match test.func {
            CompareFunc::Never => "false".to_string(),
            CompareFunc::Always => "true".to_string(),
            CompareFunc::Less => format!("{a} < {r}"),
            CompareFunc::Equal => format!("{a} == {r}"),
            CompareFunc::LessEqual => format!("{a} <= {r}"),
            CompareFunc::Greater => format!("{a} > {r}"),
            CompareFunc::NotEqual => format!("{a} != {r}"),
            CompareFunc::GreaterEqual => format!("{a} >= {r}"),
        };
        s += &format!("    if !({pass}) {{\n        discard;\n    }}\n");
    }
    s += "    return c;\n}\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xyz_is_identity_and_absent_diffuse_is_white() {
        let ff = FixedVertex {
            pretransformed: false,
            target_size: (640, 480),
            has_diffuse: false,
            has_specular: false,
            texcoords: 1,
            lighting: false,
            vertex_fog: None,
        };
        let mut v = [[0.0, 0.0, 0.0, 1.0]; 16];
        v[0] = [0.5, -0.5, 0.25, 1.0];
        v[7] = [0.3, 0.7, 0.0, 1.0];
        let out = ff.run(&v).unwrap();
        assert_eq!(out.position, [0.5, -0.5, 0.25, 1.0]);
        assert_eq!(out.outputs[0], ((Usage::Color, 0), [1.0; 4]));
        assert_eq!(out.outputs[1], ((Usage::Color, 1), [0.0; 4]));
        assert_eq!(out.outputs[2], ((Usage::TexCoord, 0), [0.3, 0.7, 0.0, 1.0]));
    }

    #[test]
    fn xyzrhw_maps_pixels_to_integer_centres() {
        let ff = FixedVertex {
            pretransformed: true,
            target_size: (640, 480),
            has_diffuse: true,
            has_specular: false,
            texcoords: 0,
            lighting: true,
            vertex_fog: None,
        };
        let mut v = [[0.0; 4]; 16];
        // Pixel (320, 240) with rhw 0.5: NDC (0, 0), clip w 2.
        v[0] = [320.0, 240.0, 0.5, 0.5];
        v[5] = [1.0, 1.0, 1.0, 0.5];
        let out = ff.run(&v).unwrap();
        assert_eq!(out.position, [0.0, 0.0, 1.0, 2.0]);
        // LIGHTING TRUE, no lights: black with the vertex alpha.
        assert_eq!(out.outputs[0].1, [0.0, 0.0, 0.0, 0.5]);
    }

    #[test]
    fn pixel_stage_saturates_diffuse() {
        let lane = PixelIn {
            varyings: vec![((Usage::Color, 0), [2.0, -1.0, 0.5, 1.0])],
            vpos: [0.0; 2],
            vface: 1.0,
            covered: true,
        };
        let out = FixedPixel.run_quad(&[lane.clone(), lane.clone(), lane.clone(), lane]).unwrap();
        assert_eq!(out[0].color[0], Some([1.0, 0.0, 0.5, 1.0]));
    }

    #[test]
    fn generated_wgsl_parses() {
        let ff = FixedVertex {
            pretransformed: true,
            target_size: (640, 480),
            has_diffuse: true,
            has_specular: true,
            texcoords: 0b101,
            lighting: false,
            vertex_fog: Some((FogMode::Linear, 0.1, 0.9, 1.0)),
        };
        let vs = vertex_wgsl(&ff, &default_layout());
        naga::front::wgsl::parse_str(&vs).unwrap_or_else(|e| panic!("{vs}\n{}", e.emit_to_string(&vs)));
        let st = FixedPixelState {
            fog: crate::cpu::FogSource::Varying,
            fog_color: [1.0, 0.0, 0.0],
            alpha_test: Some(crate::cpu::AlphaTest {
                func: crate::case::CompareFunc::GreaterEqual,
                reference: 0x70,
                float_target: true,
            }),
        };
        let ps = pixel_wgsl(&st, &default_layout());
        naga::front::wgsl::parse_str(&ps).unwrap_or_else(|e| panic!("{ps}\n{}", e.emit_to_string(&ps)));
    }
}
