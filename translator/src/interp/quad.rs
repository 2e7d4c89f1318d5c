//! Pixel quads: the 2×2 lanes of a pixel shader run in lockstep (0 = top-left, 1 = top-right,
//! 2 = bottom-left, 3 = bottom-right), so that screen-space derivatives exist.
//!
//! Derivatives are "fine": `dsx` differences the two pixels of the lane's own row, `dsy` the two
//! pixels of its own column. A vertex shader (one lane) has zero derivatives. A demoted
//! (`texkill`ed) lane keeps computing, so its neighbours' derivatives stay defined.

/// d(value)/dx for `lane`: right pixel minus left pixel of the lane's row.
pub(super) fn ddx(values: &[[f32; 4]], lane: usize) -> [f32; 4] {
    if values.len() < 4 {
        return [0.0; 4];
    }
    let row = lane & 2;
    std::array::from_fn(|c| values[row + 1][c] - values[row][c])
}

/// d(value)/dy for `lane`: bottom pixel minus top pixel of the lane's column.
pub(super) fn ddy(values: &[[f32; 4]], lane: usize) -> [f32; 4] {
    if values.len() < 4 {
        return [0.0; 4];
    }
    let col = lane & 1;
    std::array::from_fn(|c| values[col + 2][c] - values[col][c])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fine_derivatives_per_row_and_column() {
        // Values x + 10·y at lanes (0,0), (1,0), (0,1), (1,1), plus a quadratic in .y: x² + y².
        let v = [[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0], [10.0, 1.0, 0.0, 0.0], [11.0, 2.0, 0.0, 0.0]];
        for lane in 0..4 {
            assert_eq!(ddx(&v, lane)[0], 1.0);
            assert_eq!(ddy(&v, lane)[0], 10.0);
        }
        // Quadratic: ddx on the top row is 1 − 0, on the bottom row 2 − 1.
        assert_eq!(ddx(&v, 0)[1], 1.0);
        assert_eq!(ddx(&v, 3)[1], 1.0);
        assert_eq!(ddx(&v[..1], 0), [0.0; 4], "a single lane has no derivatives");
    }
}
