//! Numbers as Microsoft's disassembler prints them: `%f` for SM4/SM5
//! immediates (`l(0.500000)`, `d(1.500000l)`), `%.9g` for the Level9
//! (DX9) constants, and the integer spellings.
//!
//! The C runtime that formats them decides how exact ties round
//! (docs/format/sm4-listing.md, "Numbers"): the one of Windows 10 version
//! 2004 and later rounds the exact binary value, ties to even
//! (`0.0078125` → `0.007812`), as glibc and Rust do; older ones (msvcrt)
//! first cut the value to 17 significant digits and round ties away from
//! zero (`0.007813`), printing zeros past the 17th digit. A container does
//! not say which Windows ran the disassembler, so [`FloatRounding`] lets
//! the caller choose.

/// How floating-point immediates round (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum FloatRounding {
    /// Windows 10 version 2004 and later: the exact value, exact ties to
    /// even.
    #[default]
    Current,
    /// Earlier Windows (msvcrt): 17 significant digits, then ties away from
    /// zero.
    Legacy,
}

/// An integer immediate: decimal within ±10000, else `0x%08x`.
pub fn int_text(v: u32) -> String {
    let signed = v as i32;
    if (-10000..=10000).contains(&signed) {
        signed.to_string()
    } else {
        format!("0x{v:08x}")
    }
}

/// An immediate of an untyped instruction: a float when its exponent is
/// neither 0 nor all ones, or when it is -0.0 (`-0.000000`, fxc 6.3's
/// TressFX listings), else an integer.
pub fn untyped_text(v: u32, rounding: FloatRounding) -> String {
    let exponent = (v >> 23) & 0xff;
    if (exponent != 0 && exponent != 0xff) || v == 0x8000_0000 {
        float_text(f32::from_bits(v), rounding)
    } else {
        int_text(v)
    }
}

/// A 32-bit float as `%f`.
pub fn float_text(f: f32, rounding: FloatRounding) -> String {
    fixed6(f64::from(f), rounding)
}

/// The decimal digits of a positive finite value cut to 17 significant
/// digits, as msvcrt does before it rounds: `(digits, exponent)` with
/// value ≈ d.dddd × 10^exponent.
fn legacy_digits(a: f64) -> (Vec<u8>, i64) {
    let sci = format!("{a:.16e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// Keeps the first `keep` digits of `digits` (padding with zeros), rounding
/// half away from zero on the digit after them. Returns the kept digits and
/// whether rounding carried into a new leading digit.
fn round_half_up(digits: &[u8], keep: i64) -> (Vec<u8>, bool) {
    let len = usize::try_from(keep.max(0)).unwrap_or(0);
    let mut kept: Vec<u8> = (0..len)
        .map(|i| digits.get(i).copied().unwrap_or(0))
        .collect();
    let next = usize::try_from(keep)
        .ok()
        .and_then(|i| digits.get(i).copied());
    if next.is_none_or(|d| d < 5) {
        return (kept, false);
    }
    for d in kept.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return (kept, false);
        }
    }
    kept.insert(0, 1);
    (kept, true)
}

/// `%f`: six decimals, and `1.#INF00` / `1.#QNAN0` / `-1.#IND00` for the
/// special values.
pub fn fixed6(v: f64, rounding: FloatRounding) -> String {
    if v.is_nan() {
        let bits = v.to_bits();
        let negative = bits >> 63 != 0;
        let quiet = bits & (1 << 51) != 0;
        let payload = bits & ((1 << 51) - 1);
        return match (negative, quiet, payload) {
            (true, true, 0) => "-1.#IND00".into(),
            (n, true, _) => format!("{}1.#QNAN0", if n { "-" } else { "" }),
            (n, false, _) => format!("{}1.#SNAN0", if n { "-" } else { "" }),
        };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-1.#INF00" } else { "1.#INF00" }.into();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let a = v.abs();
    if rounding == FloatRounding::Current || a == 0.0 {
        return format!("{sign}{a:.6}");
    }
    let (digits, exponent) = legacy_digits(a);
    // Digits of a × 10^6: those before the point plus six decimals.
    let (mut kept, _) = round_half_up(&digits, exponent + 1 + 6);
    while kept.len() < 7 {
        kept.insert(0, 0);
    }
    let split = kept.len() - 6;
    let int_start = kept[..split]
        .iter()
        .position(|&d| d != 0)
        .unwrap_or(split - 1);
    let text = |ds: &[u8]| ds.iter().map(|d| char::from(b'0' + d)).collect::<String>();
    format!(
        "{sign}{}.{}",
        text(&kept[int_start..split]),
        text(&kept[split..])
    )
}

/// `%.9g` with three-digit exponents, as the Microsoft C runtime prints the
/// Level9 constants (`0.100000001`, `9.99999975e-006`, `1e+010`), and
/// `1.#INF` / `-1.#IND` for the special values.
pub(crate) fn general9(value: f32, rounding: FloatRounding) -> String {
    let v = f64::from(value);
    if v == 0.0 {
        return if value.is_sign_negative() { "-0" } else { "0" }.into();
    }
    if !v.is_finite() {
        return if v.is_nan() {
            "-1.#IND"
        } else if v > 0.0 {
            "1.#INF"
        } else {
            "-1.#INF"
        }
        .into();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    let a = v.abs();
    // Nine significant digits and the exponent of the first.
    let (digits, exponent) = match rounding {
        FloatRounding::Current => {
            let sci = format!("{a:.8e}");
            let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
            let digits: Vec<u8> = mantissa
                .bytes()
                .filter(u8::is_ascii_digit)
                .map(|b| b - b'0')
                .collect();
            (digits, exponent.parse::<i64>().unwrap_or(0))
        }
        FloatRounding::Legacy => {
            let (digits, exponent) = legacy_digits(a);
            let (mut kept, carried) = round_half_up(&digits, 9);
            kept.truncate(9);
            (kept, exponent + i64::from(carried))
        }
    };
    let text = |ds: &[u8]| ds.iter().map(|d| char::from(b'0' + d)).collect::<String>();
    let significant = digits
        .iter()
        .rposition(|&d| d != 0)
        .map_or(1, |last| last + 1);
    let digits = &digits[..significant];
    if (-4..9).contains(&exponent) {
        if exponent < 0 {
            let zeros = "0".repeat((-exponent - 1) as usize);
            format!("{sign}0.{zeros}{}", text(digits))
        } else {
            let point = exponent as usize + 1;
            if digits.len() <= point {
                let zeros = "0".repeat(point - digits.len());
                format!("{sign}{}{zeros}", text(digits))
            } else {
                format!(
                    "{sign}{}.{}",
                    text(&digits[..point]),
                    text(&digits[point..])
                )
            }
        }
    } else {
        let mantissa = match digits {
            [first] => text(&[*first]),
            [first, rest @ ..] => format!("{}.{}", text(&[*first]), text(rest)),
            [] => "0".into(),
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{exp_sign}{:03}", exponent.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FloatRounding::{Current, Legacy};

    #[test]
    fn fixed_six_decimals_in_both_roundings() {
        for (value, current, legacy) in [
            (0.0f64, "0.000000", "0.000000"),
            (-0.0, "-0.000000", "-0.000000"),
            (0.5, "0.500000", "0.500000"),
            // Exact ties at the sixth decimal: to even, or away from zero.
            (0.007_812_5, "0.007812", "0.007813"),
            (-0.007_812_5, "-0.007812", "-0.007813"),
            (18.851_562_5, "18.851562", "18.851563"),
            (0.003_906_25, "0.003906", "0.003906"), // 2^-8: the even digit is 6 either way
            (0.000_000_5, "0.000000", "0.000000"),  // just below the tie in binary
            (0.000_002_5, "0.000003", "0.000003"),  // just above the tie in binary
            (1.000_000_5, "1.000001", "1.000001"),
            (f64::from(2.000_000_5f32), "2.000000", "2.000000"),
            (1e-7, "0.000000", "0.000000"),
            (999_999.999_999_9, "1000000.000000", "1000000.000000"),
            (1e11, "100000000000.000000", "100000000000.000000"),
            (
                f64::from(f32::MAX),
                "340282346638528859811704183484516925440.000000",
                "340282346638528860000000000000000000000.000000",
            ),
            (f64::INFINITY, "1.#INF00", "1.#INF00"),
            (f64::NEG_INFINITY, "-1.#INF00", "-1.#INF00"),
            (
                f64::from_bits(0xfff8_0000_0000_0000),
                "-1.#IND00",
                "-1.#IND00",
            ),
            (
                f64::from_bits(0x7ff8_0000_0000_0000),
                "1.#QNAN0",
                "1.#QNAN0",
            ),
        ] {
            assert_eq!(fixed6(value, Current), current, "{value}");
            assert_eq!(fixed6(value, Legacy), legacy, "{value}");
        }
    }

    #[test]
    fn every_f32_tie_at_the_sixth_decimal_rounds_to_even() {
        // k / 2^7 for odd k has seven decimals ending in 5 (…0078125): an
        // exact tie. Current rounding keeps an even sixth digit; legacy
        // rounding always goes up, so the two differ where the cut-off
        // digit is even.
        let mut differ = 0;
        for k in (1u32..2000).step_by(2) {
            let v = f64::from(k) / 128.0;
            let exact = format!("{v:.7}");
            assert!(exact.ends_with('5'), "{exact}");
            let cut_digit = exact.as_bytes()[exact.len() - 2] - b'0';
            let current = fixed6(v, Current);
            let sixth = current.as_bytes()[current.len() - 1] - b'0';
            assert!(sixth.is_multiple_of(2), "{v} printed {current}");
            let legacy = fixed6(v, Legacy);
            assert_eq!(
                legacy != current,
                cut_digit.is_multiple_of(2),
                "{v}: {legacy} {current}"
            );
            assert_eq!(fixed6(-v, Legacy), format!("-{legacy}"));
            differ += usize::from(legacy != current);
        }
        assert_eq!(differ, 500);
    }

    #[test]
    fn general_nine_digits() {
        for (value, current, legacy) in [
            (0.0f32, "0", "0"),
            (-0.0, "-0", "-0"),
            (1.0, "1", "1"),
            (-0.5, "-0.5", "-0.5"),
            (0.1, "0.100000001", "0.100000001"),
            (1e-5, "9.99999975e-006", "9.99999975e-006"),
            (0.0001, "9.99999975e-005", "9.99999975e-005"),
            (0.001, "0.00100000005", "0.00100000005"),
            (123_456_789.0, "123456792", "123456792"),
            (1e10, "1e+010", "1e+010"),
            // 2^-13 = 0.0001220703125: ten significant digits, a tie at the ninth.
            (
                f32::from_bits(0x3900_0000),
                "0.000122070312",
                "0.000122070313",
            ),
            (f32::INFINITY, "1.#INF", "1.#INF"),
            (f32::NEG_INFINITY, "-1.#INF", "-1.#INF"),
            (f32::NAN, "-1.#IND", "-1.#IND"),
        ] {
            assert_eq!(general9(value, Current), current, "{value}");
            assert_eq!(general9(value, Legacy), legacy, "{value}");
        }
    }

    #[test]
    fn integer_spellings() {
        for (value, want) in [
            (0u32, "0"),
            (10000, "10000"),
            (10001, "0x00002711"),
            (u32::MAX, "-1"),
            (0xc800_0000, "0xc8000000"),
        ] {
            assert_eq!(int_text(value), want);
        }
        assert_eq!(untyped_text(0x40b0_0000, Current), "5.500000");
        assert_eq!(untyped_text(0x7f80_0000, Current), "0x7f800000");
        assert_eq!(untyped_text(3, Legacy), "3");
        assert_eq!(untyped_text(0x8000_0000, Current), "-0.000000");
        assert_eq!(untyped_text(0, Current), "0");
        assert_eq!(untyped_text(1, Current), "1");
    }
}
