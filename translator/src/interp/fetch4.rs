//! AMD's Fetch4 sampler mode on the CPU (docs/d3d9-rules.md#fetch4): the 2×2 block whose top-left
//! texel is the one point sampling selects, returned as (top-right, bottom-left, bottom-right,
//! top-left), red channel, level 0, unfiltered.

use super::textures::{to_index, ReferenceTexture};
use crate::bytecode::TextureDimension;

impl ReferenceTexture {
    /// Whether a pixel shader's read of this texture is a Fetch4 read: the mode is on, the
    /// texture is 2D, and it is not sampled with comparison (a shadow map keeps its comparison).
    pub fn fetch4_applies(&self) -> bool {
        self.fetch4 && self.ty == TextureDimension::Tex2D && !self.shadow
    }

    /// The Fetch4 vector at normalised `coords` (x and y read): with (i, j) = (⌊u · W⌋, ⌊v · H⌋)
    /// on level 0, (T[i+1, j], T[i, j+1], T[i+1, j+1], T[i, j]) of the texels' red channel, each
    /// neighbour addressed by the texture's address mode. The filter and any level of detail
    /// play no part.
    pub fn fetch4(&self, coords: [f32; 4]) -> [f32; 4] {
        let i = to_index((coords[0] * self.width as f32).floor());
        let j = to_index((coords[1] * self.height as f32).floor());
        let red = |di: i64, dj: i64| self.texel(0, 0, i + di, j + dj, 0)[0];
        [red(1, 0), red(0, 1), red(1, 1), red(0, 0)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::textures::{
        AddressMode, Filter, Lod, MipFilter, ReferenceSampler, SampleRequest, TextureSampler,
    };
    use super::*;

    /// A 4×4 texture whose texel (i, j) (column i, row j from the top) holds 4j + i in red and
    /// other values elsewhere, so that a wrong channel shows.
    fn numbered() -> ReferenceTexture {
        let texels = (0..16).map(|n| [n as f32, 100.0, 200.0, 0.5]).collect();
        let mut t = ReferenceTexture::new(TextureDimension::Tex2D, 4, 4, 1, 1, texels).unwrap();
        t.fetch4 = true;
        t
    }

    #[test]
    fn the_block_starts_at_the_point_sampled_texel_in_d3d9_order() {
        // (0.3, 0.6) · 4 = (1.2, 2.4): point sampling picks texel (1, 2) = 9. The block is
        // TL (1, 2) = 9, TR (2, 2) = 10, BL (1, 3) = 13, BR (2, 3) = 14, returned as
        // (TR, BL, BR, TL). (The bilinear footprint at 1.2 would start at column 0: 1.2 lies
        // left of texel 1's centre 1.5.)
        let t = numbered();
        assert_eq!(t.fetch4([0.3, 0.6, 0.0, 0.0]), [10.0, 13.0, 14.0, 9.0]);
        // (0.6, 0.1) · 4 = (2.4, 0.4): TL (2, 0) = 2, TR 3, BL (2, 1) = 6, BR 7.
        assert_eq!(t.fetch4([0.6, 0.1, 0.0, 0.0]), [3.0, 6.0, 7.0, 2.0]);
    }

    #[test]
    fn neighbours_past_the_edge_follow_the_address_mode() {
        // (0.9, 0.95) · 4 = (3.6, 3.8): TL (3, 3) = 15; wrap: TR (0, 3) = 12, BL (3, 0) = 3,
        // BR (0, 0) = 0.
        let mut t = numbered();
        assert_eq!(t.fetch4([0.9, 0.95, 0.0, 0.0]), [12.0, 3.0, 0.0, 15.0]);
        // Clamp: every neighbour is the corner texel 15.
        t.address = AddressMode::Clamp;
        assert_eq!(t.fetch4([0.9, 0.95, 0.0, 0.0]), [15.0; 4]);
        // Wrap below zero: u = -0.1 → -0.4 → column -1 → 3; v = 0.1 → row 0: TL (3, 0) = 3,
        // TR (0, 0) = 0, BL (3, 1) = 7, BR (0, 1) = 4.
        t.address = AddressMode::Wrap;
        assert_eq!(t.fetch4([-0.1, 0.1, 0.0, 0.0]), [0.0, 7.0, 4.0, 3.0]);
    }

    fn request(vertex: bool, lod: Lod) -> SampleRequest {
        SampleRequest { sampler: 0, vertex, ty: TextureDimension::Tex2D, coords: [0.3, 0.6, 0.0, 0.0], lod, lane: 0 }
    }

    #[test]
    fn pixel_reads_ignore_filter_and_level_and_other_reads_sample() {
        // Two levels: level 0 numbered, level 1 (2×2) all 50; mip filter point, linear filter.
        let mut texels: Vec<[f32; 4]> = (0..16).map(|n| [n as f32, 0.0, 0.0, 1.0]).collect();
        texels.extend([[50.0, 0.0, 0.0, 1.0]; 4]);
        let mut t = ReferenceTexture::new(TextureDimension::Tex2D, 4, 4, 1, 2, texels).unwrap();
        (t.fetch4, t.filter, t.mip_filter) = (true, Filter::Linear, MipFilter::Point);
        let mut s = ReferenceSampler::default();
        s.bind(0, t.clone());
        s.bind_vertex(0, t.clone());
        // texldl at level 1 and a linear filter: still level 0's block (10, 13, 14, 9).
        assert_eq!(s.sample(&request(false, Lod::Level(1.0))), [10.0, 13.0, 14.0, 9.0]);
        // A vertex texture fetch samples as usual: level 1 reads 50.
        assert_eq!(s.sample(&request(true, Lod::Level(1.0))), [50.0, 0.0, 0.0, 1.0]);
        // A shadow map compares (reference 0 <= every texel: 1), a cube is not gathered.
        let mut cube = t.clone();
        cube.ty = TextureDimension::Cube;
        assert!(!cube.fetch4_applies());
        t.shadow = true;
        assert!(!t.fetch4_applies());
        s.bind(0, t);
        assert_eq!(s.sample(&request(false, Lod::Level(0.0))), [1.0; 4]);
    }
}
