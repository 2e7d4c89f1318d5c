//! The vector and matrix arithmetic of the reference, and D3DCOLOR to floats: the leaf the
//! vertex, lighting and pixel files build on.

/// Row vector times D3DMATRIX (row-major, `v' = v * M`).
pub(crate) fn mul(v: [f32; 4], m: &[f32; 16]) -> [f32; 4] {
    std::array::from_fn(|c| v[0] * m[c] + v[1] * m[4 + c] + v[2] * m[8 + c] + v[3] * m[12 + c])
}

/// `a * b` for D3DMATRIX values.
pub(crate) fn mat_mul(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    std::array::from_fn(|i| {
        let (r, c) = (i / 4, i % 4);
        (0..4).map(|k| a[r * 4 + k] * b[k * 4 + c]).sum()
    })
}

/// The inverse of a 4x4 matrix by cofactors, or `None` when its determinant is 0.
pub(crate) fn inverse(m: &[f32; 16]) -> Option<[f32; 16]> {
    let at = |r: usize, c: usize| m[r * 4 + c] as f64;
    let minor = |r: usize, c: usize| {
        let rows: Vec<usize> = (0..4).filter(|&x| x != r).collect();
        let cols: Vec<usize> = (0..4).filter(|&x| x != c).collect();
        let e = |i: usize, j: usize| at(rows[i], cols[j]);
        e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
            + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
    };
    let cof = |r: usize, c: usize| if (r + c).is_multiple_of(2) { minor(r, c) } else { -minor(r, c) };
    let det: f64 = (0..4).map(|c| at(0, c) * cof(0, c)).sum();
    if det == 0.0 {
        return None;
    }
    // inverse[r][c] = cofactor[c][r] / det.
    Some(std::array::from_fn(|i| (cof(i % 4, i / 4) / det) as f32))
}

pub(crate) fn dot3(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = dot3(a, a).sqrt();
    if l == 0.0 {
        a
    } else {
        a.map(|x| x / l)
    }
}

pub(crate) fn xyz(v: [f32; 4]) -> [f32; 3] {
    [v[0], v[1], v[2]]
}

pub(crate) fn saturate(x: f32) -> f32 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

/// 0xAARRGGBB as (r, g, b, a) in [0, 1].
pub(crate) fn argb(c: u32) -> [f32; 4] {
    let b = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
    [b(16), b(8), b(0), b(24)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_a_scale_and_translation() {
        let m = [2.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 3.0, 0.0, 0.0, 1.0];
        let inv = inverse(&m).unwrap();
        // x' = 2x + 3 inverts to x = (x' - 3) / 2.
        assert_eq!(mul([7.0, 4.0, 1.0, 1.0], &inv), [2.0, 1.0, 1.0, 1.0]);
        let singular = [0.0; 16];
        assert!(inverse(&singular).is_none());
        assert_eq!(mat_mul(&m, &inv), crate::ffp_state::IDENTITY);
    }
}
