//! Floating-point constants as LLVM 3.7's AsmWriter writes them
//! (docs/format/dxil-listing.md, "Numbers"): `float` and `double` in C's
//! `%e` (six decimals, at least two exponent digits) when that text reads
//! back as the same double, else the IEEE double's bits as `0x` and
//! upper-case hex without leading zeros (a `float` widened to double
//! first); `half` always as `0xH` and its four hex digits.

/// A `float` constant from its IEEE single bits.
pub fn float_text(bits: u32) -> String {
    let value = f32::from_bits(bits);
    if value.is_finite() {
        if let Some(text) = exponent_text(f64::from(value)) {
            return text;
        }
    }
    format!("0x{:X}", widen_single_bits(bits))
}

/// A `double` constant from its IEEE double bits.
pub fn double_text(bits: u64) -> String {
    let value = f64::from_bits(bits);
    if value.is_finite() {
        if let Some(text) = exponent_text(value) {
            return text;
        }
    }
    format!("0x{bits:X}")
}

/// A `half` constant from its IEEE half bits: `0xH3C00`.
pub fn half_text(bits: u16) -> String {
    format!("0xH{bits:04X}")
}

/// `%e` of `value`, if it reads back as `value` exactly.
fn exponent_text(value: f64) -> Option<String> {
    let rust = format!("{value:.6e}");
    let (mantissa, exponent) = rust.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let sign = if exponent < 0 { '-' } else { '+' };
    let text = format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs());
    let back: f64 = text.parse().ok()?;
    (back == value && back.is_sign_negative() == value.is_sign_negative()).then_some(text)
}

/// The IEEE double with the same value as the single `bits` (APFloat's
/// conversion: exact for every finite value; infinities and NaNs keep sign
/// and payload, the payload moved to the top of the wider fraction).
fn widen_single_bits(bits: u32) -> u64 {
    let sign = u64::from(bits >> 31) << 63;
    let exponent = (bits >> 23) & 0xff;
    let fraction = u64::from(bits & 0x7f_ffff);
    if exponent == 0xff {
        return sign | (0x7ff << 52) | (fraction << 29);
    }
    f64::from(f32::from_bits(bits)).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_llvm_3_7_writes_them() {
        let cases: &[(f32, &str)] = &[
            (0.0, "0.000000e+00"),
            (-0.0, "-0.000000e+00"),
            (1.0, "1.000000e+00"),
            (0.5, "5.000000e-01"),
            (-1.0, "-1.000000e+00"),
            (2.0, "2.000000e+00"),
            (255.0, "2.550000e+02"),
            (1.0e10, "1.000000e+10"),
            (0.1, "0x3FB99999A0000000"),
            (0.2, "0x3FC99999A0000000"),
            (1.0 / 3.0, "0x3FD5555560000000"),
            (0.0625, "6.250000e-02"),
            (0.001_953_125, "1.953125e-03"),
            (3.402_823_5e38, "0x47EFFFFFE0000000"),
            (f32::MIN_POSITIVE, "0x3810000000000000"),
            (1.0e-45, "0x36A0000000000000"),
            (f32::INFINITY, "0x7FF0000000000000"),
            (f32::NEG_INFINITY, "0xFFF0000000000000"),
            (f32::NAN, "0x7FF8000000000000"),
        ];
        for (value, want) in cases {
            assert_eq!(float_text(value.to_bits()), *want, "{value}");
        }
    }

    #[test]
    fn signalling_nan_keeps_its_payload() {
        assert_eq!(float_text(0x7f80_0001), "0x7FF0000020000000");
    }

    #[test]
    fn doubles_as_llvm_3_7_writes_them() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.000000e+00"),
            (1.5, "1.500000e+00"),
            (1.0e100, "1.000000e+100"),
            (1.0e-300, "1.000000e-300"),
            (0.1, "1.000000e-01"),
            (0.123_456_789, "0x3FBF9ADD3739635F"),
            (f64::from_bits(1), "4.940656e-324"),
            (f64::INFINITY, "0x7FF0000000000000"),
        ];
        for (value, want) in cases {
            assert_eq!(double_text(value.to_bits()), *want, "{value}");
        }
    }

    #[test]
    fn halves_are_always_hex() {
        assert_eq!(half_text(0x3c00), "0xH3C00");
        assert_eq!(half_text(0), "0xH0000");
        assert_eq!(half_text(0xfbff), "0xHFBFF");
    }
}
