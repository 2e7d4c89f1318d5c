//! Random **valid** fixed-function states for differential testing (`cargo xtask fuzz-diff
//! --ffp`): lighting, materials and their sources, up to three lights of every type, camera
//! space, vertex blending with one to three weights, fog in every mode, and up to four texture
//! stages with every op, argument source and modifier, drawn as one full-target quad.
//!
//! A state leaves out what D3D9 leaves undefined or what would make the two sides decide a
//! tie, so that any disagreement is a bug of one side:
//! - attenuation never divides by zero (a0 ≥ 0.25), ranges and cones keep the four vertices
//!   clear of their edges only by chance, which per-vertex lighting makes rare; the specular
//!   power is at least 1 (0^0 is not defined);
//! - linear fog has end > start (start = end is its own case, docs/d3d9-rules.md);
//! - texture coordinates are the same at every vertex and at a texel centre, and a texture
//!   transform moves them by whole texels, so point sampling reads one texel everywhere;
//! - blending matrices turn and scale the quad a little about the view axis (coverage of the
//!   moved edges is the rasteriser's tie rule);
//! - the camera-space rotation is undone by the projection, so the quad covers the target
//!   whatever the rotation, while lighting and vertex fog see the rotated space;
//! - ALPHAOP is never DISABLE under an enabled COLOROP (undefined in D3D9);
//! - no bump mapping (it needs signed textures), alpha test or alpha blending;
//! - vertex tweening moves the quad a little (by up to half its size times the factor);
//! - a translated vertex shader partner ([`super::ffp_mix`]) comes with table fog or none (the
//!   fixed-function vertex fog it replaces would need its oFog).

use std::fmt::Write as _;

use super::ffp_mix::Mix;
use super::Rng;

/// Side of the square render target.
pub const SIZE: u32 = 8;

/// D3DTOP names the generator draws from (every op but the two bump-mapping ones; DISABLE only
/// ends the cascade).
const OPS: [&str; 24] = [
    "DISABLE",
    "SELECTARG1",
    "SELECTARG2",
    "MODULATE",
    "MODULATE2X",
    "MODULATE4X",
    "ADD",
    "ADDSIGNED",
    "ADDSIGNED2X",
    "SUBTRACT",
    "ADDSMOOTH",
    "BLENDDIFFUSEALPHA",
    "BLENDTEXTUREALPHA",
    "BLENDFACTORALPHA",
    "BLENDTEXTUREALPHAPM",
    "BLENDCURRENTALPHA",
    "PREMODULATE",
    "MODULATEALPHA_ADDCOLOR",
    "MODULATECOLOR_ADDALPHA",
    "MODULATEINVALPHA_ADDCOLOR",
    "MODULATEINVCOLOR_ADDALPHA",
    "DOTPRODUCT3",
    "MULTIPLYADD",
    "LERP",
];

/// D3DTA sources.
const SOURCES: [&str; 7] = ["DIFFUSE", "CURRENT", "TEXTURE", "TFACTOR", "SPECULAR", "TEMP", "CONSTANT"];

/// D3DMCS names.
const MATERIAL_SOURCES: [&str; 3] = ["MATERIAL", "COLOR1", "COLOR2"];

/// A texture stage argument: source and modifiers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arg {
    /// Index into the D3DTA sources.
    pub source: u8,
    /// D3DTA_COMPLEMENT.
    pub complement: bool,
    /// D3DTA_ALPHAREPLICATE.
    pub alpha_replicate: bool,
}

impl Arg {
    const DIFFUSE: Arg = Arg { source: 0, complement: false, alpha_replicate: false };

    fn random(rng: &mut Rng) -> Arg {
        Arg { source: rng.below(7) as u8, complement: rng.chance(20), alpha_replicate: rng.chance(20) }
    }

    fn text(self) -> String {
        let mut s = SOURCES[self.source as usize].to_string();
        if self.complement {
            s.push_str("|COMPLEMENT");
        }
        if self.alpha_replicate {
            s.push_str("|ALPHAREPLICATE");
        }
        s
    }
}

/// One texture stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// COLOROP and ALPHAOP (indices into the op names).
    pub ops: [u8; 2],
    /// COLORARG0–2 and ALPHAARG0–2.
    pub args: [[Arg; 3]; 2],
    /// RESULTARG is TEMP.
    pub result_temp: bool,
    /// D3DTSS_CONSTANT.
    pub constant: u32,
    /// TEXCOORDINDEX (0 or 1).
    pub texcoord_index: u8,
    /// The 4×4 texture's texels (A8R8G8B8).
    pub texels: [u32; 16],
    /// A texture transform (COUNT2) moving the coordinates by whole texels: (du, dv) in texels.
    pub shift: Option<(i8, i8)>,
}

/// One light.
#[derive(Clone, Debug, PartialEq)]
pub struct Light {
    /// `POINT`, `SPOT` or `DIRECTIONAL`.
    pub kind: &'static str,
    /// Diffuse, specular and ambient colours.
    pub colors: [[f32; 4]; 3],
    /// World-space position and direction.
    pub position: [f32; 3],
    /// Direction (directional and spot lights).
    pub direction: [f32; 3],
    /// Range, falloff, attenuation 0–2, theta, phi.
    pub params: [f32; 7],
}

/// Fog.
#[derive(Clone, Debug, PartialEq)]
pub struct Fog {
    /// Table (pixel) fog rather than vertex fog.
    pub table: bool,
    /// `EXP`, `EXP2` or `LINEAR`.
    pub mode: &'static str,
    /// FOGSTART, FOGEND, FOGDENSITY.
    pub start: f32,
    /// FOGEND.
    pub end: f32,
    /// FOGDENSITY.
    pub density: f32,
    /// FOGCOLOR.
    pub color: u32,
    /// RANGEFOGENABLE (vertex fog only).
    pub range: bool,
}

/// Vertex blending: `count` weights per vertex blend WORLD with WORLDMATRIX1…count.
#[derive(Clone, Debug, PartialEq)]
pub struct Blend {
    /// D3DVBF_1WEIGHTS … 3WEIGHTS.
    pub count: u8,
    /// WORLDMATRIXk (k = 1…count): a rotation about z by an angle (radians) and a scale.
    pub matrices: Vec<(f32, f32)>,
    /// The weights of each vertex (the first `count` are used).
    pub weights: [[f32; 3]; 4],
}

/// Vertex tweening (VERTEXBLEND TWEENING; not with [`Blend`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Tween {
    /// TWEENFACTOR.
    pub factor: f32,
    /// POSITION1 - POSITION0 in x and y, the same at every vertex.
    pub offset: [f32; 2],
    /// NORMAL1 of each vertex.
    pub normals: [[f32; 3]; 4],
}

/// One vertex of the quad.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// The normal.
    pub normal: [f32; 3],
    /// COLOR0 and COLOR1 (0xAARRGGBB).
    pub colors: [u32; 2],
}

/// A random fixed-function state and the quad it draws.
#[derive(Clone, Debug, PartialEq)]
pub struct FfpState {
    /// LIGHTING.
    pub lighting: bool,
    /// SPECULARENABLE, LOCALVIEWER, NORMALIZENORMALS, COLORVERTEX.
    pub flags: [bool; 4],
    /// DIFFUSE-, SPECULAR-, AMBIENT- and EMISSIVEMATERIALSOURCE (indices into the D3DMCS names).
    pub material_sources: [u8; 4],
    /// AMBIENT and TEXTUREFACTOR.
    pub ambient: u32,
    /// TEXTUREFACTOR.
    pub tfactor: u32,
    /// Material diffuse, ambient, specular, emissive.
    pub material: [[f32; 4]; 4],
    /// Material power.
    pub power: f32,
    /// The lights (indices 0…).
    pub lights: Vec<Light>,
    /// Fog, when enabled.
    pub fog: Option<Fog>,
    /// The camera's rotation (VIEW; PROJECTION is its transpose).
    pub view: Option<[f32; 9]>,
    /// Vertex blending.
    pub blend: Option<Blend>,
    /// The depth of the quad.
    pub z: f32,
    /// The stages; the stage after the last is DISABLE.
    pub stages: Vec<Stage>,
    /// The quad's corners: (−1, 1), (1, 1), (−1, −1), (1, −1).
    pub vertices: [Vertex; 4],
    /// TEXCOORD0 and TEXCOORD1 (the same at every vertex), in texels of a 4×4 texture.
    pub texcoords: [(u8, u8); 2],
    /// Vertex tweening.
    pub tween: Option<Tween>,
    /// A translated shader in place of one half.
    pub mix: Option<Mix>,
}

fn unit(rng: &mut Rng) -> [f32; 3] {
    loop {
        let v = [0, 1, 2].map(|_| rng.below(2001) as f32 / 1000.0 - 1.0);
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if n > 0.2 {
            return v.map(|x| x / n);
        }
    }
}

fn color(rng: &mut Rng) -> [f32; 4] {
    [0, 1, 2, 3].map(|_| rng.below(101) as f32 / 100.0)
}

fn light(rng: &mut Rng) -> Light {
    let kind = rng.pick(&["POINT", "SPOT", "DIRECTIONAL"]);
    let position = [0, 1, 2].map(|_| rng.below(81) as f32 / 10.0 - 4.0);
    let phi = rng.below(300) as f32 / 100.0 + 0.1;
    let theta = phi * rng.below(101) as f32 / 100.0;
    let attenuation =
        [0.25 + rng.below(100) as f32 / 100.0, rng.below(50) as f32 / 100.0, rng.below(20) as f32 / 100.0];
    Light {
        kind,
        colors: [color(rng), color(rng), color(rng)],
        position,
        direction: unit(rng),
        params: [
            1.0 + rng.below(200) as f32 / 10.0,
            rng.below(30) as f32 / 10.0,
            attenuation[0],
            attenuation[1],
            attenuation[2],
            theta,
            phi,
        ],
    }
}

fn stage(rng: &mut Rng) -> Stage {
    Stage {
        // Not DISABLE: the stage after the last ends the cascade, and D3D9 leaves an ALPHAOP
        // DISABLE under an enabled COLOROP undefined.
        ops: [1 + rng.below(OPS.len() as u32 - 1) as u8, 1 + rng.below(OPS.len() as u32 - 1) as u8],
        args: [
            [Arg::random(rng), Arg::random(rng), Arg::random(rng)],
            [Arg::random(rng), Arg::random(rng), Arg::random(rng)],
        ],
        result_temp: rng.chance(25),
        constant: rng.next_u64() as u32,
        texcoord_index: rng.below(2) as u8,
        texels: std::array::from_fn(|_| rng.next_u64() as u32),
        shift: rng.chance(30).then(|| (rng.range(-3, 3) as i8, rng.range(-3, 3) as i8)),
    }
}

/// A rotation matrix (row-major 3×3) from three angles.
fn rotation(rng: &mut Rng) -> [f32; 9] {
    let [a, b, c] = [0, 1, 2].map(|_| rng.below(628) as f32 / 100.0);
    let (sa, ca, sb, cb, sc, cc) = (a.sin(), a.cos(), b.sin(), b.cos(), c.sin(), c.cos());
    let rz = [ca, sa, 0.0, -sa, ca, 0.0, 0.0, 0.0, 1.0];
    let ry = [cb, 0.0, -sb, 0.0, 1.0, 0.0, sb, 0.0, cb];
    let rx = [1.0, 0.0, 0.0, 0.0, cc, sc, 0.0, -sc, cc];
    mul3(&mul3(&rz, &ry), &rx)
}

fn mul3(a: &[f32; 9], b: &[f32; 9]) -> [f32; 9] {
    std::array::from_fn(|i| (0..3).map(|k| a[i / 3 * 3 + k] * b[k * 3 + i % 3]).sum())
}

/// The state of `seed`.
pub fn generate_ffp(seed: u64) -> FfpState {
    let mut rng = Rng::new(seed ^ 0xFF9_0000);
    let lighting = rng.chance(60);
    let lights = (0..rng.below(4)).map(|_| light(&mut rng)).collect();
    let fog = rng.chance(40).then(|| {
        let start = rng.below(100) as f32 / 100.0;
        Fog {
            table: rng.chance(50),
            mode: rng.pick(&["EXP", "EXP2", "LINEAR"]),
            start,
            end: start + 0.1 + rng.below(300) as f32 / 100.0,
            density: rng.below(300) as f32 / 100.0,
            color: rng.next_u64() as u32,
            range: rng.chance(30),
        }
    });
    FfpState {
        lighting,
        flags: [rng.chance(50), rng.chance(50), rng.chance(50), rng.chance(70)],
        material_sources: [0, 1, 2, 3].map(|_| rng.below(3) as u8),
        ambient: rng.next_u64() as u32,
        tfactor: rng.next_u64() as u32,
        material: [color(&mut rng), color(&mut rng), color(&mut rng), color(&mut rng)],
        power: 1.0 + rng.below(300) as f32 / 10.0,
        lights,
        fog,
        view: rng.chance(50).then(|| rotation(&mut rng)),
        blend: rng.chance(25).then(|| {
            let count = 1 + rng.below(3) as u8;
            let angle = |rng: &mut Rng| rng.range(-30, 30) as f32 / 100.0;
            Blend {
                count,
                matrices: (0..count).map(|_| (angle(&mut rng), 0.8 + rng.below(41) as f32 / 100.0)).collect(),
                weights: std::array::from_fn(|_| [0, 1, 2].map(|_| rng.below(101) as f32 / 100.0 / f32::from(count))),
            }
        }),
        z: 0.1 + rng.below(80) as f32 / 100.0,
        stages: (0..1 + rng.below(4)).map(|_| stage(&mut rng)).collect(),
        vertices: std::array::from_fn(|_| Vertex {
            normal: unit(&mut rng),
            colors: [rng.next_u64() as u32, rng.next_u64() as u32],
        }),
        texcoords: [(rng.below(4) as u8, rng.below(4) as u8), (rng.below(4) as u8, rng.below(4) as u8)],
        tween: None,
        mix: None,
    }
    .with_tween_and_mix(&mut rng)
}

impl FfpState {
    /// Draws tweening and a translated partner last, so the rest of a seed's state does not
    /// depend on them.
    fn with_tween_and_mix(mut self, rng: &mut Rng) -> FfpState {
        if self.blend.is_none() && rng.chance(15) {
            let step = |rng: &mut Rng| rng.range(-50, 50) as f32 / 100.0;
            self.tween = Some(Tween {
                factor: rng.below(101) as f32 / 100.0,
                offset: [step(rng), step(rng)],
                normals: std::array::from_fn(|_| unit(rng)),
            });
        }
        if rng.chance(25) {
            let n = rng.below(3) as u8;
            self.mix = Some(if rng.chance(50) { Mix::Vertex(n) } else { Mix::Pixel(n) });
        }
        if let (Some(Mix::Vertex(_)), Some(f)) = (self.mix, &mut self.fog) {
            f.table = true;
        }
        self
    }
}

fn floats(v: &[f32]) -> String {
    v.iter().map(|x| format!("{:?}", *x as f64)).collect::<Vec<_>>().join(", ")
}

/// A 4×4 row-major matrix as the case format writes it.
fn matrix(m: [f32; 16]) -> String {
    format!("[{}]", floats(&m))
}

/// The 4×4 form of a 3×3 rotation (or its transpose).
fn matrix4(r: &[f32; 9], transpose: bool) -> [f32; 16] {
    let mut m = [0.0; 16];
    for i in 0..3 {
        for j in 0..3 {
            m[i * 4 + j] = if transpose { r[j * 3 + i] } else { r[i * 3 + j] };
        }
    }
    m[15] = 1.0;
    m
}

impl FfpState {
    /// The case file (docs/case-format.md, with the fixed-function additions) named `name`.
    pub fn to_toml(&self, name: &str) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "name = \"{name}\"\nsource = \"cargo xtask fuzz-diff --ffp\"");
        let _ = writeln!(t, "description = \"A random fixed-function state: GPU against the CPU reference.\"");
        let _ = writeln!(t, "category = \"fuzz-diff\"\n");
        let _ = writeln!(
            t,
            "[render_target]\nwidth = {SIZE}\nheight = {SIZE}\nformat = \"A8R8G8B8\"\nclear_color = 0xff000000\n"
        );
        self.render_states(&mut t);
        self.transforms(&mut t);
        let m = &self.material;
        let _ = writeln!(
            t,
            "[material]\ndiffuse = [{}]\nambient = [{}]\nspecular = [{}]\nemissive = [{}]\npower = {:?}\n",
            floats(&m[0]),
            floats(&m[1]),
            floats(&m[2]),
            floats(&m[3]),
            self.power as f64
        );
        for (i, l) in self.lights.iter().enumerate() {
            let p = &l.params;
            let _ = writeln!(
                t,
                "[[light]]\nindex = {i}\nenabled = true\ntype = \"{}\"\ndiffuse = [{}]\nspecular = [{}]\nambient = [{}]\n\
                 position = [{}]\ndirection = [{}]\nrange = {:?}\nfalloff = {:?}\nattenuation0 = {:?}\n\
                 attenuation1 = {:?}\nattenuation2 = {:?}\ntheta = {:?}\nphi = {:?}\n",
                l.kind,
                floats(&l.colors[0]),
                floats(&l.colors[1]),
                floats(&l.colors[2]),
                floats(&l.position),
                floats(&l.direction),
                p[0] as f64,
                p[1] as f64,
                p[2] as f64,
                p[3] as f64,
                p[4] as f64,
                p[5] as f64,
                p[6] as f64
            );
        }
        self.stages(&mut t);
        self.draw(&mut t, name);
        t
    }

    fn render_states(&self, t: &mut String) {
        let [specular, local_viewer, normalize, color_vertex] = self.flags;
        let _ = writeln!(t, "[render_states]\nZENABLE = false\nCULLMODE = \"NONE\"\nLIGHTING = {}", self.lighting);
        let _ = writeln!(
            t,
            "SPECULARENABLE = {specular}\nLOCALVIEWER = {local_viewer}\nNORMALIZENORMALS = {normalize}\n\
             COLORVERTEX = {color_vertex}\nAMBIENT = 0x{:08x}\nTEXTUREFACTOR = 0x{:08x}",
            self.ambient, self.tfactor
        );
        for (name, s) in ["DIFFUSE", "SPECULAR", "AMBIENT", "EMISSIVE"].iter().zip(self.material_sources) {
            let _ = writeln!(t, "{name}MATERIALSOURCE = \"{}\"", MATERIAL_SOURCES[s as usize]);
        }
        if let Some(b) = &self.blend {
            let _ = writeln!(t, "VERTEXBLEND = \"{}WEIGHTS\"", b.count);
        }
        if let Some(w) = &self.tween {
            let _ = writeln!(t, "VERTEXBLEND = \"TWEENING\"\nTWEENFACTOR = {:?}", w.factor as f64);
        }
        if let Some(f) = &self.fog {
            let (table, vertex) = if f.table { (f.mode, "NONE") } else { ("NONE", f.mode) };
            let _ = writeln!(
                t,
                "FOGENABLE = true\nFOGCOLOR = 0x{:08x}\nFOGTABLEMODE = \"{table}\"\nFOGVERTEXMODE = \"{vertex}\"\n\
                 FOGSTART = {:?}\nFOGEND = {:?}\nFOGDENSITY = {:?}\nRANGEFOGENABLE = {}",
                f.color,
                f.start as f64,
                f.end as f64,
                f.density as f64,
                f.range && !f.table
            );
        }
        t.push('\n');
    }

    fn transforms(&self, t: &mut String) {
        let shifted: Vec<(usize, (i8, i8))> =
            self.stages.iter().enumerate().filter_map(|(i, s)| s.shift.map(|d| (i, d))).collect();
        if self.view.is_none() && shifted.is_empty() && self.blend.is_none() {
            return;
        }
        t.push_str("[transforms]\n");
        if let Some(b) = &self.blend {
            for (k, (angle, scale)) in b.matrices.iter().enumerate() {
                let (s, c) = (angle.sin() * scale, angle.cos() * scale);
                let m = matrix4(&[c, s, 0.0, -s, c, 0.0, 0.0, 0.0, *scale], false);
                let _ = writeln!(t, "WORLDMATRIX{} = {}", k + 1, matrix(m));
            }
        }
        if let Some(r) = &self.view {
            let _ = writeln!(t, "VIEW = {}", matrix(matrix4(r, false)));
            let _ = writeln!(t, "PROJECTION = {}", matrix(matrix4(r, true)));
        }
        for (i, (du, dv)) in shifted {
            // COUNT2 reads (u, v) of `v' = (u, v, 1, 0) · M`: the third row translates.
            let mut m = matrix4(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], false);
            m[8] = f32::from(du) / 4.0;
            m[9] = f32::from(dv) / 4.0;
            let _ = writeln!(t, "TEXTURE{i} = {}", matrix(m));
        }
        t.push('\n');
    }

    fn stages(&self, t: &mut String) {
        for (i, s) in self.stages.iter().enumerate() {
            let _ = writeln!(
                t,
                "[[texture]]\nstage = {i}\ntype = \"2d\"\nwidth = 4\nheight = 4\nformat = \"A8R8G8B8\"\n\
                 filter = \"point\"\nmip_filter = \"none\"\naddress = \"wrap\"\ntexels = [{}]\n",
                s.texels.iter().map(|x| format!("0x{x:08x}")).collect::<Vec<_>>().join(", ")
            );
        }
        for (i, s) in self.stages.iter().enumerate() {
            let _ = writeln!(t, "[[texture_stage]]\nstage = {i}");
            for (k, which) in ["COLOR", "ALPHA"].iter().enumerate() {
                let _ = writeln!(t, "{which}OP = \"{}\"", OPS[s.ops[k] as usize]);
                for (n, a) in s.args[k].iter().enumerate() {
                    let _ = writeln!(t, "{which}ARG{n} = \"{}\"", a.text());
                }
            }
            let result = if s.result_temp { "TEMP" } else { "CURRENT" };
            let _ = writeln!(t, "RESULTARG = \"{result}\"\nCONSTANT = 0x{:08x}", s.constant);
            let _ = writeln!(t, "TEXCOORDINDEX = {}", s.texcoord_index);
            if s.shift.is_some() {
                t.push_str("TEXTURETRANSFORMFLAGS = \"COUNT2\"\n");
            }
            t.push('\n');
        }
        // The stage after the last one ends the cascade.
        let _ = writeln!(
            t,
            "[[texture_stage]]\nstage = {}\nCOLOROP = \"DISABLE\"\nALPHAOP = \"DISABLE\"\n",
            self.stages.len()
        );
    }

    fn draw(&self, t: &mut String, name: &str) {
        let [vs, ps] = ["vs", "ps"].map(|stage| match self.mix.map(|m| m.shader().0) {
            Some(s) if s == stage => format!("{name}_{stage}"),
            _ => "none".to_string(),
        });
        let _ = writeln!(t, "[[draw]]\nvertex_shader = \"{vs}\"\npixel_shader = \"{ps}\"");
        t.push_str("primitive = \"triangle_strip\"\nprimitive_count = 2\nelements = [\n");
        let elements = [
            (0, "FLOAT3", "POSITION", 0),
            (12, "FLOAT3", "NORMAL", 0),
            (24, "D3DCOLOR", "COLOR", 0),
            (28, "D3DCOLOR", "COLOR", 1),
            (32, "FLOAT2", "TEXCOORD", 0),
            (40, "FLOAT2", "TEXCOORD", 1),
        ];
        for (offset, ty, usage, index) in elements {
            let _ = writeln!(
                t,
                "    {{ stream = 0, offset = {offset}, type = \"{ty}\", usage = \"{usage}\", usage_index = {index} }},"
            );
        }
        if let Some(b) = &self.blend {
            let _ = writeln!(
                t,
                "    {{ stream = 0, offset = 48, type = \"FLOAT{}\", usage = \"BLENDWEIGHT\", usage_index = 0 }},",
                b.count
            );
        }
        if self.tween.is_some() {
            t.push_str("    { stream = 0, offset = 48, type = \"FLOAT3\", usage = \"POSITION\", usage_index = 1 },\n");
            t.push_str("    { stream = 0, offset = 60, type = \"FLOAT3\", usage = \"NORMAL\", usage_index = 1 },\n");
        }
        t.push_str("]\nvertices = [\n");
        let corners = [[-1.0f32, 1.0], [1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]];
        // A texel centre of the 4×4 textures.
        let tc = |(u, v): (u8, u8)| [(f32::from(u) + 0.5) / 4.0, (f32::from(v) + 0.5) / 4.0];
        let [t0, t1] = [tc(self.texcoords[0]), tc(self.texcoords[1])];
        for (i, ([x, y], v)) in corners.iter().zip(&self.vertices).enumerate() {
            let weights = match (&self.blend, &self.tween) {
                (Some(b), _) => format!(", {}", floats(&b.weights[i][..b.count as usize])),
                (None, Some(w)) => {
                    let p1 = [x + w.offset[0], y + w.offset[1], self.z];
                    format!(", {}, {}", floats(&p1), floats(&w.normals[i]))
                }
                (None, None) => String::new(),
            };
            let _ = writeln!(
                t,
                "    [{}, {}, 0x{:08x}, 0x{:08x}, {}, {}{weights}],",
                floats(&[*x, *y, self.z]),
                floats(&v.normal),
                v.colors[0],
                v.colors[1],
                floats(&t0),
                floats(&t1)
            );
        }
        t.push_str("]\n");
    }

    /// Smaller states, each one simplification of this one (for shrinking a mismatch): a light,
    /// the last stage, fog, the camera rotation, a texture shift or a modifier gone, an op made
    /// SELECTARG1, an argument made DIFFUSE, lighting or specular off.
    pub fn simplifications(&self) -> Vec<FfpState> {
        let mut out = Vec::new();
        let mut with = |f: &dyn Fn(&mut FfpState)| {
            let mut s = self.clone();
            f(&mut s);
            if s != *self {
                out.push(s);
            }
        };
        for i in 0..self.lights.len() {
            with(&|s| {
                s.lights.remove(i);
            });
        }
        if self.stages.len() > 1 {
            with(&|s| {
                s.stages.pop();
            });
        }
        with(&|s| s.fog = None);
        with(&|s| s.view = None);
        with(&|s| s.blend = None);
        with(&|s| s.tween = None);
        with(&|s| s.mix = None);
        with(&|s| s.lighting = false);
        with(&|s| s.flags[0] = false);
        for i in 0..self.stages.len() {
            with(&|s| s.stages[i].shift = None);
            for k in 0..2 {
                with(&|s| s.stages[i].ops[k] = 1); // SELECTARG1
            }
            with(&|s| s.stages[i].result_temp = false);
            for k in 0..2 {
                for n in 0..3 {
                    with(&|s| s.stages[i].args[k][n] = Arg::DIFFUSE);
                    with(&|s| {
                        let a = &mut s.stages[i].args[k][n];
                        (a.complement, a.alpha_replicate) = (false, false);
                    });
                }
            }
        }
        out
    }
}
