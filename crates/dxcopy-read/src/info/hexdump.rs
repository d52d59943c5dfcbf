//! Canonical hex dump (`hexdump -C` layout) of part data, addressed by
//! absolute file offset.

use std::io::{self, Write};

/// Writes `data`, which starts at absolute file offset `base`, as lines of
/// 16 bytes: offset, hex bytes in two groups of 8, printable ASCII.
pub fn write_hex(w: &mut dyn Write, data: &[u8], base: u64) -> io::Result<()> {
    for (i, chunk) in data.chunks(16).enumerate() {
        let mut line = format!("{:08x} ", base + 16 * i as u64);
        for j in 0..16 {
            if j == 8 {
                line.push(' ');
            }
            match chunk.get(j) {
                Some(b) => line.push_str(&format!(" {b:02x}")),
                None => line.push_str("   "),
            }
        }
        line.push_str("  |");
        line.extend(chunk.iter().map(|&b| {
            if (0x20..0x7f).contains(&b) {
                b as char
            } else {
                '.'
            }
        }));
        line.push('|');
        writeln!(w, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        let mut out = Vec::new();
        let data: Vec<u8> = (0x40..0x40 + 20).collect();
        write_hex(&mut out, &data, 0x28).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "00000028  40 41 42 43 44 45 46 47  48 49 4a 4b 4c 4d 4e 4f  |@ABCDEFGHIJKLMNO|"
        );
        assert_eq!(
            lines[1],
            "00000038  50 51 52 53                                       |PQRS|"
        );
        let mut out = Vec::new();
        write_hex(&mut out, &[0, 0x7f, b'a'], 0).unwrap();
        assert!(String::from_utf8(out).unwrap().ends_with("|..a|\n"));
        let mut out = Vec::new();
        write_hex(&mut out, &[], 0).unwrap();
        assert!(out.is_empty());
    }
}
