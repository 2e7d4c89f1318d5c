//! Texture sampling: the [`TextureSampler`] trait the caller implements, and
//! [`ReferenceSampler`], a complete implementation for 2D, cube and volume textures (point and
//! linear filtering, mip selection from derivatives or an explicit level, wrap/clamp/mirror/
//! border addressing, depth-compare sampling). An unbound sampler reads (0, 0, 0, 1).

use crate::bytecode::TextureDimension;

/// How the level of detail is chosen.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Lod {
    /// From the screen-space derivatives of the coordinates (normalised texture space), plus a
    /// bias (`texldb`'s `.w`). Vertex shaders and uniform quads give zero derivatives.
    Derivatives {
        /// d(coords)/dx.
        ddx: [f32; 3],
        /// d(coords)/dy.
        ddy: [f32; 3],
        /// Added to the computed level.
        bias: f32,
    },
    /// An explicit level (`texldl`'s `.w`).
    Level(f32),
}

/// One texture lookup.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SampleRequest {
    /// The sampler (`s#`) or ps_1_x texture stage; for vertex shaders the vertex sampler 0–3.
    pub sampler: u32,
    /// Whether a vertex shader samples (D3DVERTEXTEXTURESAMPLER0 + `sampler`).
    pub vertex: bool,
    /// The type the shader declares (or the ps_1_x stage state says).
    pub ty: TextureDimension,
    /// Coordinates, already projected (`texldp`, `_dz`/`_dw`, D3DTTFF_PROJECTED); a
    /// depth-compare texture takes its reference from `.z` (2D) or `.w` (cube).
    pub coords: [f32; 4],
    /// Level of detail.
    pub lod: Lod,
    /// The lane of the 2×2 pixel quad that samples (0 top left … 3 bottom right; 0 in a vertex
    /// shader), so that a sampler can say which pixel read a texel D3D9 leaves undefined.
    pub lane: usize,
}

/// The textures bound to an invocation.
pub trait TextureSampler {
    /// The filtered texel for `request`; an unbound sampler returns (0, 0, 0, 1).
    fn sample(&self, request: &SampleRequest) -> [f32; 4];
}

/// No texture bound anywhere: every lookup reads (0, 0, 0, 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct UnboundSampler;

/// D3D9's value for an unbound sampler.
pub const UNBOUND: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

impl TextureSampler for UnboundSampler {
    fn sample(&self, _request: &SampleRequest) -> [f32; 4] {
        UNBOUND
    }
}

/// Minification and magnification filter.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Filter {
    /// Nearest texel.
    #[default]
    Point,
    /// Bilinear (trilinear within a volume).
    Linear,
}

/// D3DSAMP_MIPFILTER.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum MipFilter {
    /// Level 0 only.
    #[default]
    None,
    /// Nearest level.
    Point,
    /// Blend of the two nearest levels.
    Linear,
}

/// D3DTADDRESS mode (the same for u, v and w).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum AddressMode {
    /// Repeat.
    #[default]
    Wrap,
    /// Clamp to the edge texel.
    Clamp,
    /// Repeat mirrored.
    Mirror,
    /// The border colour outside [0, 1].
    Border,
}

/// A texture with its sampler state, texels as RGBA floats.
#[derive(Clone, PartialEq, Debug)]
pub struct ReferenceTexture {
    /// 2D, cube or volume.
    pub ty: TextureDimension,
    /// Level-0 size.
    pub width: u32,
    /// Level-0 size.
    pub height: u32,
    /// Level-0 size (1 unless volume).
    pub depth: u32,
    /// Number of mip levels.
    pub levels: u32,
    /// Texels: for each face (+X, −X, +Y, −Y, +Z, −Z; one for 2D/volume), each level from 0,
    /// each slice, rows top to bottom (v = 0 first), texels left to right.
    pub texels: Vec<[f32; 4]>,
    /// Min/mag filter.
    pub filter: Filter,
    /// Mip filter.
    pub mip_filter: MipFilter,
    /// Addressing.
    pub address: AddressMode,
    /// D3DSAMP_BORDERCOLOR.
    pub border: [f32; 4],
    /// A depth texture: sampling compares the reference with the texel's red channel
    /// (`reference <= texel` gives 1) and filters the results.
    pub shadow: bool,
    /// D3DSAMP_MIPMAPLODBIAS is `GET4` (AMD's Fetch4): a pixel shader's read of this 2D,
    /// non-shadow texture returns four texels ([`ReferenceTexture::fetch4`]).
    pub fetch4: bool,
}

/// An A8R8G8B8 texel as (r, g, b, a) floats.
pub fn from_argb8(c: u32) -> [f32; 4] {
    let ch = |s: u32| ((c >> s) & 0xFF) as f32 / 255.0;
    [ch(16), ch(8), ch(0), ch(24)]
}

fn level_size(size: u32, level: u32) -> u32 {
    (size >> level.min(31)).max(1)
}

impl ReferenceTexture {
    /// A texture of `ty` with `levels` mips and the given texels; `None` when the number of
    /// texels does not match the sizes (or a size is 0).
    pub fn new(
        ty: TextureDimension,
        width: u32,
        height: u32,
        depth: u32,
        levels: u32,
        texels: Vec<[f32; 4]>,
    ) -> Option<Self> {
        let depth = if ty == TextureDimension::Volume { depth } else { 1 };
        if width == 0 || height == 0 || depth == 0 || levels == 0 || levels > 16 {
            return None;
        }
        let t = ReferenceTexture {
            ty,
            width,
            height,
            depth,
            levels,
            texels,
            filter: Filter::Point,
            mip_filter: MipFilter::None,
            address: AddressMode::Wrap,
            border: [0.0; 4],
            shadow: false,
            fetch4: false,
        };
        (t.faces() as usize * t.face_len() == t.texels.len()).then_some(t)
    }

    /// A 1-level 2D texture from A8R8G8B8 values.
    pub fn from_argb8_2d(width: u32, height: u32, texels: &[u32]) -> Option<Self> {
        Self::new(TextureDimension::Tex2D, width, height, 1, 1, texels.iter().map(|&c| from_argb8(c)).collect())
    }

    fn faces(&self) -> u32 {
        if self.ty == TextureDimension::Cube {
            6
        } else {
            1
        }
    }

    fn level_dims(&self, level: u32) -> (u32, u32, u32) {
        (level_size(self.width, level), level_size(self.height, level), level_size(self.depth, level))
    }

    fn level_len(&self, level: u32) -> usize {
        let (w, h, d) = self.level_dims(level);
        w as usize * h as usize * d as usize
    }

    fn face_len(&self) -> usize {
        (0..self.levels).map(|l| self.level_len(l)).sum()
    }

    /// Texel (i, j, k) of `level` on `face`, with addressing applied; `None` is the border.
    pub(super) fn texel(&self, face: u32, level: u32, i: i64, j: i64, k: i64) -> [f32; 4] {
        let (w, h, d) = self.level_dims(level);
        let address = if self.ty == TextureDimension::Cube { AddressMode::Clamp } else { self.address };
        let (Some(i), Some(j), Some(k)) = (wrap(address, i, w), wrap(address, j, h), wrap(address, k, d)) else {
            return self.border;
        };
        let base = face as usize * self.face_len() + (0..level).map(|l| self.level_len(l)).sum::<usize>();
        self.texels[base + (k * h as usize + j) * w as usize + i]
    }

    /// Filters one level at normalised (u, v, w).
    fn filter_level(&self, face: u32, level: u32, uvw: [f32; 3], reference: Option<f32>) -> [f32; 4] {
        let (w, h, d) = self.level_dims(level);
        let dims = [w, h, d];
        let volume = self.ty == TextureDimension::Volume;
        let fetch = |i: i64, j: i64, k: i64| {
            let t = self.texel(face, level, i, j, k);
            match reference {
                Some(r) => [if r <= t[0] { 1.0 } else { 0.0 }; 4],
                None => t,
            }
        };
        match self.filter {
            Filter::Point => {
                let c = |a: usize| to_index((uvw[a] * dims[a] as f32).floor());
                fetch(c(0), c(1), if volume { c(2) } else { 0 })
            }
            Filter::Linear => {
                let split = |a: usize| {
                    let x = uvw[a] * dims[a] as f32 - 0.5;
                    let f = x.floor();
                    (to_index(f), if (x - f).is_finite() { x - f } else { 0.0 })
                };
                let ((i0, fi), (j0, fj)) = (split(0), split(1));
                let (k0, fk) = if volume { split(2) } else { (0, 0.0) };
                // Nested lerps a + f · (b − a), as GPU filters compute them (docs/d3d9-rules.md#mip-selection):
                // equal texels give that texel exactly, where a sum of four weighted products may not.
                let row = |j: i64, k: i64| lerp(fetch(i0, j, k), fi, || fetch(i0 + 1, j, k));
                let slice = |k: i64| lerp(row(j0, k), fj, || row(j0 + 1, k));
                lerp(slice(k0), fk, || slice(k0 + 1))
            }
        }
    }

    /// Whether D3D9 leaves the result of sampling at `coords` with `lod` to the implementation:
    /// a coordinate the texture reads is NaN or infinite (no texel, no cube face, no wrap is
    /// defined there), or the level is NaN where a level is chosen. [`Self::sample`] still
    /// returns a value (texel 0, or a face by the tie order), but another implementation may
    /// return any texel.
    pub fn reads_undefined(&self, coords: [f32; 4], lod: Lod) -> bool {
        let axes = if self.ty == TextureDimension::Tex2D { 2 } else { 3 };
        if coords[..axes].iter().any(|c| !c.is_finite()) {
            return true;
        }
        // The zero direction has no largest component to name a face, and its face coordinates
        // are 0 / 0; a largest magnitude below the normal range is that direction on a GPU that
        // flushes subnormal inputs, and one of 2^126 or more has a subnormal reciprocal, which a
        // GPU dividing through 1/|ma| may flush to 0, putting the coordinates at the face's
        // centre instead of its edge (docs/d3d9-rules.md#float-rules, cube-map directions).
        if self.ty == TextureDimension::Cube {
            let largest = coords[..3].iter().fold(0.0f32, |m, c| m.max(c.abs()));
            if !(f32::MIN_POSITIVE..CUBE_RECIPROCAL_SUBNORMAL).contains(&largest) {
                return true;
            }
        }
        let level_chosen = self.levels > 1 && self.mip_filter != MipFilter::None;
        match lod {
            Lod::Level(l) => level_chosen && l.is_nan(),
            Lod::Derivatives { ddx, ddy, bias } => {
                level_chosen && (bias.is_nan() || ddx.iter().chain(&ddy).any(|d| !d.is_finite()))
            }
        }
    }

    /// Samples at `coords` with a level of detail.
    pub fn sample(&self, coords: [f32; 4], lod: Lod) -> [f32; 4] {
        let (face, uvw, scale, reference) = match self.ty {
            TextureDimension::Cube => {
                let (face, u, v, ma) = cube_face([coords[0], coords[1], coords[2]]);
                // Face coordinates change by d/(2|ma|) per unit of the direction.
                (face, [u, v, 0.0], 1.0 / (2.0 * ma), self.shadow.then_some(coords[3]))
            }
            _ => (0, [coords[0], coords[1], coords[2]], 1.0, self.shadow.then_some(coords[2])),
        };
        let lambda = match lod {
            Lod::Level(l) => l,
            Lod::Derivatives { ddx, ddy, bias } => {
                let dims = [self.width as f32, self.height as f32, self.depth as f32];
                let n = if self.ty == TextureDimension::Volume { 3 } else { 2 };
                let len = |d: [f32; 3]| (0..n).map(|a| (d[a] * dims[a] * scale).powi(2)).sum::<f32>().sqrt();
                len(ddx).max(len(ddy)).log2() + bias
            }
        };
        let max_level = (self.levels - 1) as f32;
        match self.mip_filter {
            MipFilter::None => self.filter_level(face, 0, uvw, reference),
            MipFilter::Point => {
                let l = if lambda.is_nan() { 0.0 } else { (lambda + 0.5).floor().clamp(0.0, max_level) };
                self.filter_level(face, l as u32, uvw, reference)
            }
            MipFilter::Linear => {
                let l = if lambda.is_nan() { 0.0 } else { lambda.clamp(0.0, max_level) };
                let l0 = l.floor();
                let f = l - l0;
                let a = self.filter_level(face, l0 as u32, uvw, reference);
                if f == 0.0 {
                    return a;
                }
                let b = self.filter_level(face, l0 as u32 + 1, uvw, reference);
                std::array::from_fn(|c| a[c] + f * (b[c] - a[c]))
            }
        }
    }
}

/// a + f · (b − a) per channel; `b` is not fetched when f is 0.
fn lerp(a: [f32; 4], f: f32, b: impl FnOnce() -> [f32; 4]) -> [f32; 4] {
    if f == 0.0 {
        return a;
    }
    let b = b();
    std::array::from_fn(|c| a[c] + f * (b[c] - a[c]))
}

pub(super) fn to_index(x: f32) -> i64 {
    // Saturating conversion: NaN → 0, ±inf → the extremes, which addressing then folds.
    (x as i64).clamp(-(1 << 40), 1 << 40)
}

fn wrap(mode: AddressMode, i: i64, n: u32) -> Option<usize> {
    let n = n as i64;
    Some(match mode {
        AddressMode::Wrap => i.rem_euclid(n),
        AddressMode::Clamp => i.clamp(0, n - 1),
        AddressMode::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        AddressMode::Border => {
            if !(0..n).contains(&i) {
                return None;
            }
            i
        }
    } as usize)
}

/// D3D cube-map face selection: (face, u, v, |major axis|), faces in D3D order +X, −X, +Y, −Y,
/// +Z, −Z.
///
/// Where two or three components have the largest magnitude (a cube edge or corner), Z wins over
/// Y and Y over X. D3D9 does not say; the D3D10 specification asks for this order, and the
/// hardware and drivers that run D3D9 today follow it (AMD's `cubeid`, Mesa's llvmpipe).
/// 2^126: the magnitude from which the reciprocal of a cube direction's largest component is
/// subnormal.
const CUBE_RECIPROCAL_SUBNORMAL: f32 = f32::from_bits(0x7E80_0000);

fn cube_face([x, y, z]: [f32; 3]) -> (u32, f32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if az >= ax && az >= ay {
        if z >= 0.0 {
            (4, x, -y, az)
        } else {
            (5, -x, -y, az)
        }
    } else if ay >= ax {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if x >= 0.0 {
        (0, -z, -y, ax)
    } else {
        (1, z, -y, ax)
    };
    let ma = if ma == 0.0 { f32::MIN_POSITIVE } else { ma };
    (face, 0.5 * (sc / ma + 1.0), 0.5 * (tc / ma + 1.0), ma)
}

/// Textures by sampler number, for pixel shaders (`s#`, ps_1_x stages) and vertex shaders.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct ReferenceSampler {
    /// Pixel samplers / stages.
    pub textures: Vec<Option<ReferenceTexture>>,
    /// Vertex samplers 0–3.
    pub vertex_textures: Vec<Option<ReferenceTexture>>,
}

impl ReferenceSampler {
    /// Binds `texture` to pixel sampler `n`.
    pub fn bind(&mut self, n: usize, texture: ReferenceTexture) {
        if self.textures.len() <= n {
            self.textures.resize(n + 1, None);
        }
        self.textures[n] = Some(texture);
    }

    /// Binds `texture` to vertex sampler `n` (`D3DVERTEXTEXTURESAMPLER0 + n`).
    pub fn bind_vertex(&mut self, n: usize, texture: ReferenceTexture) {
        if self.vertex_textures.len() <= n {
            self.vertex_textures.resize(n + 1, None);
        }
        self.vertex_textures[n] = Some(texture);
    }
}

impl ReferenceSampler {
    /// Whether `r` reads a texel D3D9 leaves to the implementation
    /// ([`ReferenceTexture::reads_undefined`]); an unbound sampler's (0, 0, 0, 1) is defined.
    pub fn reads_undefined(&self, r: &SampleRequest) -> bool {
        let set = if r.vertex { &self.vertex_textures } else { &self.textures };
        matches!(set.get(r.sampler as usize), Some(Some(t)) if t.reads_undefined(r.coords, r.lod))
    }
}

impl TextureSampler for ReferenceSampler {
    fn sample(&self, r: &SampleRequest) -> [f32; 4] {
        let set = if r.vertex { &self.vertex_textures } else { &self.textures };
        match set.get(r.sampler as usize) {
            // The bound texture's own type decides how it is read (a volume bound to a
            // dcl_2d sampler is read at the coordinate's z, as Windows does).
            Some(Some(t)) if !r.vertex && t.fetch4_applies() => t.fetch4(r.coords),
            Some(Some(t)) => t.sample(r.coords, r.lod),
            _ => UNBOUND,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex2(w: u32, h: u32, vals: &[f32]) -> ReferenceTexture {
        ReferenceTexture::new(TextureDimension::Tex2D, w, h, 1, 1, vals.iter().map(|&v| [v, 0.0, 0.0, 1.0]).collect())
            .unwrap()
    }

    const L0: Lod = Lod::Level(0.0);

    #[test]
    fn point_sampling_and_addressing() {
        // 2×1 texture [10, 20]; u = 0.25 → texel 0, u = 0.75 → texel 1.
        let mut t = tex2(2, 1, &[10.0, 20.0]);
        assert_eq!(t.sample([0.25, 0.5, 0.0, 0.0], L0)[0], 10.0);
        assert_eq!(t.sample([0.75, 0.5, 0.0, 0.0], L0)[0], 20.0);
        // Wrap: u = 1.25 → texel floor(2.5) = 2 → 2 mod 2 = 0.
        assert_eq!(t.sample([1.25, 0.5, 0.0, 0.0], L0)[0], 10.0);
        // Clamp: u = 1.25 → 1; u = -3 → 0.
        t.address = AddressMode::Clamp;
        assert_eq!(t.sample([1.25, 0.5, 0.0, 0.0], L0)[0], 20.0);
        assert_eq!(t.sample([-3.0, 0.5, 0.0, 0.0], L0)[0], 10.0);
        // Mirror: u = 1.25 → index 2 → 2·2 − 1 − 2 = 1; u = 1.75 → index 3 → 0.
        t.address = AddressMode::Mirror;
        assert_eq!(t.sample([1.25, 0.5, 0.0, 0.0], L0)[0], 20.0);
        assert_eq!(t.sample([1.75, 0.5, 0.0, 0.0], L0)[0], 10.0);
        // Border: outside [0, 1] reads the border colour.
        t.address = AddressMode::Border;
        t.border = [0.5, 0.25, 0.0, 1.0];
        assert_eq!(t.sample([1.25, 0.5, 0.0, 0.0], L0), [0.5, 0.25, 0.0, 1.0]);
    }

    #[test]
    fn linear_filtering_weights_texel_centres() {
        // Texel centres at u = 0.25 and 0.75; u = 0.5 lies halfway: (10 + 20) / 2 = 15.
        let mut t = tex2(2, 1, &[10.0, 20.0]);
        t.filter = Filter::Linear;
        t.address = AddressMode::Clamp;
        assert_eq!(t.sample([0.5, 0.5, 0.0, 0.0], L0)[0], 15.0);
        // u = 0.375: x = 0.75 − 0.5 = 0.25 → 10·0.75 + 20·0.25 = 12.5.
        assert_eq!(t.sample([0.375, 0.5, 0.0, 0.0], L0)[0], 12.5);
    }

    #[test]
    fn linear_filtering_of_equal_texels_is_exact() {
        // docs/d3d9-rules.md#mip-selection: the filter is nested lerps, so texels that are all 1.0 filter to
        // exactly 1.0 at every position; a sum of weight · texel products can give 0.99999994, which
        // 10 · texel − frc(10 · texel) (vkd3d's sample-bias shader) turns into 9.
        let mut t = tex2(2, 2, &[1.0; 4]);
        t.filter = Filter::Linear;
        t.address = AddressMode::Clamp;
        for i in 0..640 {
            let (u, v) = ((i as f32 + 0.5) / 640.0, (i as f32 * 0.37 + 0.5) / 480.0 % 1.0);
            assert_eq!(t.sample([u, v, 0.0, 0.0], L0)[0], 1.0, "at ({u}, {v})");
        }
    }

    #[test]
    fn mip_selection_from_derivatives_and_level() {
        // 4×4 level 0 (value 1), 2×2 level 1 (value 2), 1×1 level 2 (value 3).
        let mut texels = vec![[1.0, 0.0, 0.0, 1.0]; 16];
        texels.extend([[2.0, 0.0, 0.0, 1.0]; 4]);
        texels.push([3.0, 0.0, 0.0, 1.0]);
        let mut t = ReferenceTexture::new(TextureDimension::Tex2D, 4, 4, 1, 3, texels).unwrap();
        t.mip_filter = MipFilter::Point;
        let c = [0.5, 0.5, 0.0, 0.0];
        // ddx = 0.5 in u: 0.5 · 4 texels = 2 → log2 2 = 1 → level 1.
        let d = |du: f32, bias: f32| Lod::Derivatives { ddx: [du, 0.0, 0.0], ddy: [0.0; 3], bias };
        assert_eq!(t.sample(c, d(0.5, 0.0))[0], 2.0);
        // Zero derivatives: log2 0 = −inf → level 0.
        assert_eq!(t.sample(c, d(0.0, 0.0))[0], 1.0);
        // Bias 1 on top of level 1 → level 2.
        assert_eq!(t.sample(c, d(0.5, 1.0))[0], 3.0);
        assert_eq!(t.sample(c, Lod::Level(2.0))[0], 3.0);
        assert_eq!(t.sample(c, Lod::Level(9.0))[0], 3.0, "clamped to the last level");
        // Linear mip filter: level 0.5 → halfway between 1 and 2.
        t.mip_filter = MipFilter::Linear;
        assert_eq!(t.sample(c, Lod::Level(0.5))[0], 1.5);
        // Mip filter none: always level 0.
        t.mip_filter = MipFilter::None;
        assert_eq!(t.sample(c, Lod::Level(2.0))[0], 1.0);
    }

    #[test]
    fn cube_faces_in_d3d_order() {
        // One 1×1 texel per face with value = face number.
        let texels = (0..6).map(|f| [f as f32, 0.0, 0.0, 1.0]).collect();
        let t = ReferenceTexture::new(TextureDimension::Cube, 1, 1, 1, 1, texels).unwrap();
        let dirs =
            [[1.0, 0.1, 0.2], [-1.0, 0.1, 0.2], [0.1, 1.0, 0.2], [0.1, -1.0, 0.2], [0.1, 0.2, 1.0], [0.1, 0.2, -1.0]];
        for (face, d) in dirs.iter().enumerate() {
            assert_eq!(t.sample([d[0], d[1], d[2], 0.0], L0)[0], face as f32);
        }
        // +X face: u = (−z/|x| + 1)/2, v = (−y/|x| + 1)/2.
        let (_, u, v, _) = cube_face([2.0, 1.0, -1.0]);
        assert_eq!((u, v), (0.75, 0.25));
    }

    #[test]
    fn non_finite_coordinates_read_undefined_texels() {
        let mut t = tex2(2, 2, &[1.0, 2.0, 3.0, 4.0]);
        assert!(!t.reads_undefined([0.25, 1e30, f32::NAN, f32::NAN], L0), "2D reads x and y only");
        assert!(t.reads_undefined([f32::NAN, 0.5, 0.0, 0.0], L0));
        assert!(t.reads_undefined([0.5, f32::INFINITY, 0.0, 0.0], L0));
        // A NaN level matters only where a level is chosen.
        assert!(!t.reads_undefined([0.5, 0.5, 0.0, 0.0], Lod::Level(f32::NAN)));
        let mut m = ReferenceTexture::new(TextureDimension::Tex2D, 2, 2, 1, 2, vec![[0.0; 4]; 5]).unwrap();
        m.mip_filter = MipFilter::Point;
        assert!(m.reads_undefined([0.5, 0.5, 0.0, 0.0], Lod::Level(f32::NAN)));
        assert!(!m.reads_undefined([0.5, 0.5, 0.0, 0.0], Lod::Level(1e30)));
        // A cube reads x, y and z: crs of huge values gave the direction (0, NaN, 0).
        t.ty = TextureDimension::Cube;
        t.texels = vec![[0.0; 4]; 24];
        assert!(t.reads_undefined([0.0, f32::NAN, 0.0, 2.7], L0));
        assert!(!t.reads_undefined([0.0, 1.0, 0.0, f32::NAN], L0));
        // The zero direction names no face, whatever the signs of its zeros.
        assert!(t.reads_undefined([0.0, -0.0, -0.0, 1.0], L0));
        assert!(!t.reads_undefined([0.0, 0.0, f32::MIN_POSITIVE, 1.0], L0));
        // A subnormal largest component is the zero direction to a GPU that flushes it; from
        // 2^126 on, 1/|ma| is subnormal: lavapipe read the centre of -Z for (-FLT_MAX, 0.5,
        // -FLT_MAX), whose u is 1 (fuzz-diff seed 2000170).
        assert!(t.reads_undefined([0.0, 1e-39, 0.0, 1.0], L0));
        assert!(t.reads_undefined([-f32::MAX, 0.5, -f32::MAX, 1.0], L0));
        assert!(t.reads_undefined([0.0, 2f32.powi(126), 1.0, 1.0], L0));
        assert!(!t.reads_undefined([0.0, 2f32.powi(125), 1.0, 1.0], L0));
        let s = ReferenceSampler { textures: vec![], vertex_textures: vec![None, Some(t)] };
        let r = |sampler, coords| SampleRequest {
            sampler,
            vertex: true,
            ty: TextureDimension::Cube,
            coords,
            lod: L0,
            lane: 0,
        };
        assert!(s.reads_undefined(&r(1, [f32::NAN; 4])));
        assert!(!s.reads_undefined(&r(0, [f32::NAN; 4])), "unbound: (0, 0, 0, 1) is defined");
    }

    #[test]
    fn cube_ties_go_to_z_then_y() {
        // Edges and corners (equal largest magnitudes): Z over Y over X, the D3D10 order that
        // hardware follows. fuzz-diff found vs_3_0 texldl at (x, x, x) (a replicated scalar such as
        // pow's) reading +X on the CPU and +Z on the GPU.
        let face = |d: [f32; 3]| cube_face(d).0;
        assert_eq!(face([6.78, 6.78, 6.78]), 4, "corner: +Z");
        assert_eq!(face([-1.0, -1.0, -1.0]), 5, "corner: -Z");
        assert_eq!(face([-12.5, 0.5, -12.5]), 5, "x = z edge: -Z");
        assert_eq!(face([0.0, 1.0, 1.0]), 4, "y = z edge: +Z");
        assert_eq!(face([2.0, -2.0, 1.0]), 3, "x = y edge: -Y");
        // -Z at (-1, -1, -1): sc = -x = 1, tc = -y = 1, ma = 1: u = v = 1.
        assert_eq!(cube_face([-1.0, -1.0, -1.0]), (5, 1.0, 1.0, 1.0));
    }

    #[test]
    fn volume_and_shadow_and_unbound() {
        // 1×1×2 volume: slice 0 = 5, slice 1 = 7; w = 0.75 → slice 1.
        let v = ReferenceTexture::new(
            TextureDimension::Volume,
            1,
            1,
            2,
            1,
            vec![[5.0, 0.0, 0.0, 1.0], [7.0, 0.0, 0.0, 1.0]],
        );
        assert_eq!(v.unwrap().sample([0.5, 0.5, 0.75, 0.0], L0)[0], 7.0);
        // Depth texel 0.5: reference 0.4 ≤ 0.5 → 1, reference 0.6 → 0.
        let mut s = tex2(1, 1, &[0.5]);
        s.shadow = true;
        assert_eq!(s.sample([0.5, 0.5, 0.4, 0.0], L0), [1.0; 4]);
        assert_eq!(s.sample([0.5, 0.5, 0.6, 0.0], L0), [0.0; 4]);
        let r = SampleRequest {
            sampler: 3,
            vertex: false,
            ty: TextureDimension::Tex2D,
            coords: [0.0; 4],
            lod: L0,
            lane: 0,
        };
        assert_eq!(ReferenceSampler::default().sample(&r), [0.0, 0.0, 0.0, 1.0]);
        assert!(ReferenceTexture::new(TextureDimension::Tex2D, 2, 2, 1, 1, vec![[0.0; 4]; 3]).is_none());
    }
}
