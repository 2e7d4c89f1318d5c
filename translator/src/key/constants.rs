//! The boolean and integer constants of a key: the values a translation bakes when
//! [`Deliveries::bool_constants`](super::Deliveries::bool_constants) or
//! [`Deliveries::int_constants`](super::Deliveries::int_constants) is
//! [`Delivery::Baked`] ([`super::delivery`]'s module documentation says what each delivery
//! costs). Only `b0`–`b15` and `i0`–`i15` have a delivery: the `_sw` versions' higher registers
//! are always read from their buffers.

use super::{int, Delivery, KeySetError, ShaderKey};
use crate::analysis::{ConstantUse, Signature};

/// The registers with a delivery: `b0`–`b15`, `i0`–`i15` (the API's 16 of each).
pub const DELIVERED: u16 = 16;

/// The registers of `c` the program reads from the application (not `defb`/`defi`-defined):
/// bit n for register n < 16, and whether any register at all is read.
fn application_reads(c: &ConstantUse) -> (u16, bool) {
    let mut mask = 0u16;
    let mut any = false;
    for &n in c.used.iter().filter(|n| !c.defined.contains_key(n)) {
        any = true;
        if n < DELIVERED {
            mask |= 1 << n;
        }
    }
    (mask, any)
}

impl ShaderKey {
    /// Sets the baked constants from the values an application set: `bools[n]` is `b n`,
    /// `ints[n]` is `i n` (count, start, step, and the fourth component); registers past 15 are
    /// ignored, missing ones are 0. A layer calls it before [`ShaderKey::minimal`] when it bakes
    /// them (the delivery decides whether they are read at all).
    pub fn set_constants(&mut self, bools: &[bool], ints: &[[i32; 4]]) {
        self.bool_constants =
            bools.iter().take(usize::from(DELIVERED)).enumerate().fold(0, |m, (n, &b)| m | u16::from(b) << n);
        self.int_constants = [[0; 4]; 16];
        for (slot, v) in self.int_constants.iter_mut().zip(ints) {
            *slot = *v;
        }
    }

    /// `bool_constants=MASK` of [`ShaderKey::set`].
    pub(super) fn set_bool_constants(&mut self, v: &str) -> Option<()> {
        self.bool_constants = int(v)?;
        Some(())
    }

    /// `int<N>=count,start,step[,w]` of [`ShaderKey::set`] (decimal, a leading `-` for a
    /// negative start or step; w is 0 when left out).
    pub(super) fn set_int_constant(&mut self, field: &str, n: usize, v: &str) -> Result<(), KeySetError> {
        let slot = self
            .int_constants
            .get_mut(n)
            .ok_or_else(|| KeySetError::IndexOutOfRange { field: field.to_string(), what: "integer constant" })?;
        let bad = || KeySetError::BadValue { field: field.to_string(), value: v.to_string(), expected: &[] };
        let parts: Vec<&str> = v.split(',').map(str::trim).collect();
        if !(3..=4).contains(&parts.len()) {
            return Err(bad());
        }
        let mut value = [0i32; 4];
        for (c, p) in value.iter_mut().zip(&parts) {
            *c = p.parse().map_err(|_| bad())?;
        }
        *slot = value;
        Ok(())
    }

    /// [`ShaderKey::minimal`] for the constants: a kind the program reads nothing of from the
    /// application takes the default delivery (uniform); the values are kept only when baked,
    /// and only for the registers read.
    pub(super) fn minimal_constants(&mut self, sig: &Signature) {
        let (bools, any_bool) = application_reads(&sig.bool_constants);
        let (ints, any_int) = application_reads(&sig.int_constants);
        let d = &mut self.delivery;
        if !any_bool {
            d.bool_constants = Delivery::Uniform;
        }
        if !any_int {
            d.int_constants = Delivery::Uniform;
        }
        let baked = |x: Delivery| x == Delivery::Baked;
        self.bool_constants &= if baked(d.bool_constants) { bools } else { 0 };
        let keep = if baked(d.int_constants) { ints } else { 0 };
        for (n, v) in self.int_constants.iter_mut().enumerate() {
            if keep & (1 << n) == 0 {
                *v = [0; 4];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;
    use crate::asm::assemble;
    use crate::key::Deliveries;

    #[test]
    fn set_spells_the_constants() {
        let mut k = ShaderKey::default();
        k.set("bool_constants=0x5").unwrap();
        k.set("int3=4, -1, 2").unwrap();
        k.set("int15=1,2,3,4").unwrap();
        assert_eq!(k.bool_constants, 0b101);
        assert_eq!((k.int_constants[3], k.int_constants[15]), ([4, -1, 2, 0], [1, 2, 3, 4]));
        assert!(matches!(k.set("int16=1,2,3"), Err(KeySetError::IndexOutOfRange { .. })));
        assert!(k.set("int0=1,2").is_err());
        assert!(k.set("int0=1,x,2").is_err());
        assert!(k.set("bool_constants=0x10000").is_err());
        k.set_constants(&[true, false, true, true], &[[7, 0, 1, 0]]);
        assert_eq!((k.bool_constants, k.int_constants[0], k.int_constants[3]), (0b1101, [7, 0, 1, 0], [0; 4]));
    }

    #[test]
    fn minimal_keeps_only_the_baked_constants_read() {
        // b1 and i2 read from the application; b3 and i0 defined by the shader (the definition
        // wins, so the key's value is never read).
        let p = assemble(
            "vs_3_0\ndcl_position v0\ndcl_position o0\ndefb b3, true\ndefi i0, 1, 0, 1, 0\n\
             mov r0, v0\nif b1\nadd r0, r0, v0\nendif\nif b3\nendif\nrep i2\nadd r0, r0, v0\nendrep\n\
             rep i0\nendrep\nmov o0, r0\n",
        )
        .unwrap();
        let sig = analyse(&p);
        let mut k = ShaderKey { delivery: Deliveries::all(Delivery::Baked), ..ShaderKey::default() };
        k.set_constants(&[true; 16], &[[9, 8, 7, 6]; 16]);
        let m = k.minimal(p.version, &sig);
        assert_eq!(m.bool_constants, 0b10);
        let mut ints = [[0; 4]; 16];
        ints[2] = [9, 8, 7, 6];
        assert_eq!(m.int_constants, ints);
        assert_eq!((m.delivery.bool_constants, m.delivery.int_constants), (Delivery::Baked, Delivery::Baked));
        // Not baked: no value kept.
        for d in [Delivery::Override, Delivery::Uniform] {
            let m = ShaderKey { delivery: Deliveries::all(d), ..k.clone() }.minimal(p.version, &sig);
            assert_eq!((m.bool_constants, m.int_constants), (0, [[0; 4]; 16]));
        }
        // A shader that reads none: the default delivery, no values, the same key as by default.
        let plain = assemble("vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n").unwrap();
        let m = k.minimal(plain.version, &analyse(&plain));
        assert_eq!((m.delivery.bool_constants, m.delivery.int_constants), (Delivery::Uniform, Delivery::Uniform));
        assert_eq!((m.bool_constants, m.int_constants), (0, [[0; 4]; 16]));
    }
}
