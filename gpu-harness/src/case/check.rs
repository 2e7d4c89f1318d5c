//! The checks serde cannot make: sizes that must agree, probes inside the target, constants of
//! the right kind and count.

use super::*;

impl Case {
    /// The checks serde cannot make. Returns a message naming the offending item.
    pub fn check(&self) -> Result<(), String> {
        self.check_render_targets()?;
        for i in 0..self.textures.len() {
            self.check_texture(i)?;
        }
        for s in &self.texture_stages {
            check_stage(s)?;
        }
        for name in self.transforms.keys().chain(self.draws.iter().flat_map(|d| d.transforms.keys())) {
            if TransformName::parse(name).is_none() {
                return Err(format!("transforms: unknown matrix `{name}`"));
            }
        }
        for (i, l) in self.lights.iter().enumerate() {
            if self.lights[..i].iter().any(|m| m.index == l.index) {
                return Err(format!("light {}: index given twice", l.index));
            }
        }
        if self.draws.is_empty() {
            return Err("no [[draw]]".into());
        }
        for (d, draw) in self.draws.iter().enumerate() {
            self.check_draw(draw).map_err(|e| format!("draw {d}: {e}"))?;
        }
        for (p, probe) in self.probes.iter().enumerate() {
            self.check_probe(probe).map_err(|e| format!("probe {p} ({}, {}): {e}", probe.x, probe.y))?;
        }
        Ok(())
    }

    /// The render target's size, and extra targets at new indices 1..=3 without a gap.
    fn check_render_targets(&self) -> Result<(), String> {
        let rt = &self.render_target;
        if rt.width == 0 || rt.height == 0 || rt.width > 4096 || rt.height > 4096 {
            return Err(format!("render target size {}x{} out of range", rt.width, rt.height));
        }
        let mut seen = [false; 4];
        seen[0] = true;
        for t in &rt.render_targets {
            if !(1..=3).contains(&t.index) || seen[t.index as usize] {
                return Err(format!("render_targets: index {} is not a new index in 1..=3", t.index));
            }
            seen[t.index as usize] = true;
        }
        if let Some(gap) = (1..4).find(|&i| seen[i] && !seen[i - 1]) {
            return Err(format!("render_targets: target {gap} without target {}", gap - 1));
        }
        Ok(())
    }

    /// Texture `i`: its stage, size, levels, and texels matching its format.
    fn check_texture(&self, i: usize) -> Result<(), String> {
        let t = &self.textures[i];
        let what = format!("texture {i} (stage {})", t.stage);
        if t.stage >= PIXEL_SAMPLERS && t.vertex_sampler().is_none() {
            return Err(format!(
                "{what}: stage must be a pixel sampler 0..=15 or a vertex sampler {}..={} (D3DVERTEXTEXTURESAMPLER0..3)",
                VERTEX_SAMPLER0,
                VERTEX_SAMPLER0 + VERTEX_SAMPLERS - 1
            ));
        }
        if self.textures[..i].iter().any(|u| u.stage == t.stage) {
            return Err(format!("{what}: stage bound twice"));
        }
        if t.width == 0 || t.height == 0 || t.depth == 0 || t.width > 4096 || t.height > 4096 || t.depth > 256 {
            return Err(format!("{what}: size {}x{}x{} out of range", t.width, t.height, t.depth));
        }
        if t.kind != TextureDimension::Volume && t.depth != 1 {
            return Err(format!("{what}: depth {} on a non-volume texture", t.depth));
        }
        if t.kind == TextureDimension::Cube && t.width != t.height {
            return Err(format!("{what}: cube faces must be square"));
        }
        let max_levels = 32 - t.width.max(t.height).max(t.depth).leading_zeros();
        if t.mip_levels == 0 || t.mip_levels > max_levels {
            return Err(format!("{what}: mip_levels {} (1..={max_levels})", t.mip_levels));
        }
        if let Some(fill) = &t.fill {
            if !t.texels.is_empty() || t.mip_levels != 1 || t.kind == TextureDimension::Cube {
                return Err(format!("{what}: `fill` takes one level of a 2D or volume texture and no `texels`"));
            }
            for c in [&fill.r, &fill.g, &fill.b, &fill.a] {
                c.at(0, 0, 0, 0).map_err(|e| format!("{what}: {e}"))?;
            }
        } else if t.format == TextureFormat::A16B16G16R16 {
            return Err(format!("{what}: A16B16G16R16 is given by `fill` only"));
        } else if t.texels.len() as u64 != t.expected_texels() {
            return Err(format!("{what}: {} texels given, {} expected", t.texels.len(), t.expected_texels()));
        }
        let bits16 = matches!(t.format, TextureFormat::V8U8 | TextureFormat::L6V5U5);
        if bits16 && t.texels.iter().any(|&x| x > 0xffff) {
            return Err(format!("{what}: a 16-bit {:?} texel exceeds 0xffff", t.format));
        }
        if t.format == TextureFormat::D24X8 {
            if t.texels.iter().any(|&x| x > 0xff_ffff) {
                return Err(format!("{what}: a D24X8 depth exceeds 0xffffff"));
            }
            if t.kind == TextureDimension::Volume {
                return Err(format!("{what}: a depth texture cannot be a volume"));
            }
        }
        Ok(())
    }

    fn check_draw(&self, draw: &Draw) -> Result<(), String> {
        for s in &draw.texture_stages {
            check_stage(s)?;
        }
        if let Some(indices) = &draw.indices {
            let need = match draw.primitive {
                Primitive::TriangleStrip => draw.primitive_count as usize + 2,
                Primitive::TriangleList => draw.primitive_count as usize * 3,
                Primitive::PointList => draw.primitive_count as usize,
            };
            if indices.len() < need {
                return Err(format!(
                    "{} indices for {} primitives ({need} needed)",
                    indices.len(),
                    draw.primitive_count
                ));
            }
            if let Some(i) = indices.iter().find(|&&i| i as usize >= draw.vertices.len() || i > 0xffff) {
                return Err(format!("index {i} past the {} vertices", draw.vertices.len()));
            }
        }
        for name in [&draw.vertex_shader, &draw.pixel_shader] {
            if name.is_empty() || name.contains("..") || name.starts_with('/') {
                return Err(format!("shader name `{name}` is not a corpus-relative name"));
            }
        }
        if draw.elements.is_empty() {
            return Err("no elements".into());
        }
        let mut row = 0;
        for e in &draw.elements {
            row += row_values(e.ty).ok_or_else(|| format!("element type {} is not one the runner reads", e.ty))?;
        }
        if draw.indices.is_none() && draw.vertices.len() as u64 != draw.vertices_needed() {
            return Err(format!(
                "{} vertices for {} {:?} primitives ({} needed)",
                draw.vertices.len(),
                draw.primitive_count,
                draw.primitive,
                draw.vertices_needed()
            ));
        }
        for (i, v) in draw.vertices.iter().enumerate() {
            if v.len() != row {
                return Err(format!("vertex {i} has {} values, the elements take {row}", v.len()));
            }
            if v.iter().any(|n| matches!(n, Number::Bool(_))) {
                return Err(format!("vertex {i}: a boolean is not a vertex value"));
            }
        }
        for c in &draw.constants {
            let (per, limit, bools) = match c.kind {
                // The `_sw` versions (and software vertex processing) have 8192 float constants.
                ConstantKind::VsFloat | ConstantKind::PsFloat => (4, 8192, false),
                ConstantKind::VsInt | ConstantKind::PsInt => (4, 16, false),
                ConstantKind::VsBool | ConstantKind::PsBool => (1, 16, true),
            };
            if c.values.len() % per != 0 {
                return Err(format!("{:?} constants: {} values is not a multiple of {per}", c.kind, c.values.len()));
            }
            if c.start_register as usize + c.values.len() / per > limit {
                return Err(format!("{:?} constants past register {limit}", c.kind));
            }
            let ok = c.values.iter().all(|v| {
                matches!(
                    (v, bools, c.kind),
                    (Number::Bool(_), true, _)
                        | (Number::Int(_), false, ConstantKind::VsInt | ConstantKind::PsInt)
                        | (Number::Int(_) | Number::Float(_), false, ConstantKind::VsFloat | ConstantKind::PsFloat)
                )
            });
            if !ok {
                return Err(format!("{:?} constants: a value of the wrong type", c.kind));
            }
        }
        Ok(())
    }

    fn check_probe(&self, probe: &Probe) -> Result<(), String> {
        let rt = &self.render_target;
        if probe.x >= rt.width || probe.y >= rt.height {
            return Err("outside the render target".into());
        }
        if let Some([x0, y0, x1, y1]) = probe.rect {
            if x0 >= x1 || y0 >= y1 || x1 > rt.width || y1 > rt.height {
                return Err(format!("rect [{x0}, {y0}, {x1}, {y1}] empty or outside the render target"));
            }
        }
        let format = self.target_format(probe.target).ok_or_else(|| format!("no render target {}", probe.target))?;
        if let Some(n) = probe.after_draw {
            if n >= self.draws.len() {
                return Err(format!("after_draw {n} but the case has {} draws", self.draws.len()));
            }
        }
        match (probe.expected, probe.expected_float) {
            (Some(_), None) if probe.compare != Compare::Rgba => {}
            (None, Some(_)) if probe.compare == Compare::Rgba => {
                if format != TargetFormat::A32B32G32R32F {
                    return Err("expected_float on an 8-bit target".into());
                }
                if !probe.accept_also.is_empty() || probe.broken_tolerance.is_some() {
                    return Err("accept_also/broken_tolerance are 8-bit fields".into());
                }
            }
            _ => return Err("needs `expected` (rgb/argb) or `expected_float` with compare = \"rgba\"".into()),
        }
        if probe.tolerance > 255 || probe.broken_tolerance.is_some_and(|b| b > 255) {
            return Err("tolerance above 255".into());
        }
        Ok(())
    }
}

fn check_stage(s: &TextureStage) -> Result<(), String> {
    if s.stage >= 8 {
        return Err(format!("texture_stage {}: stage out of range", s.stage));
    }
    if let Some(flags) = &s.texturetransformflags {
        TransformFlags::parse(flags).map_err(|e| format!("texture_stage {}: {e}", s.stage))?;
    }
    Ok(())
}
