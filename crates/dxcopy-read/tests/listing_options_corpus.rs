//! Corpus properties of the listing options (`/Ni`, `/No`, `/Lx`):
//!
//! - DXBC: the numbered and offset listing, each line's lead taken off,
//!   is the plain listing; the numbers count the executable instructions
//!   from 0; the offsets are the starts of the instructions in the SHDR or
//!   SHEX token stream (walked here by its length fields alone).
//! - DXBC: the hexadecimal listing has the plain listing's words, and
//!   each literal has the plain literal's bits.
//! - DXIL: the listing with record offsets, the ` ; bit offset N` comments
//!   taken off, is the plain listing, and the offsets are those of the
//!   instruction records of the module's function blocks, in order.
//!
//! The corpus is `$DXCOPY_SHARED/corpus` or `../shared/corpus`; without it
//! the tests are ignored.

use dxcopy_harness::corpus::{each_dxbc_program, manifest_or_skip};
use dxcopy_read::bitcode::{Bitcode, Entry};
use dxcopy_read::listing::{dxbc, dxil, DisasmFlags};
use dxcopy_read::{Container, PartName, Program};

/// The starts (byte offsets in the part) of the instructions of an SM4/SM5
/// token stream that a listing prints (every one but `customdata` blocks
/// other than the immediate constant buffer), from the length fields only.
fn printed_instruction_starts(data: &[u8]) -> Vec<u64> {
    let word = |i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(
            data.get(i * 4..i * 4 + 4)?.try_into().ok()?,
        ))
    };
    let total = word(1).unwrap_or(0) as usize;
    let mut starts = Vec::new();
    let mut at = 2usize;
    while at < total {
        let Some(token) = word(at) else { break };
        let opcode = token & 0x7ff;
        let (length, printed) = if opcode == 0x35 {
            // customdata: the length is the next word; class 3 is the
            // immediate constant buffer, the one printed.
            (word(at + 1).unwrap_or(0) as usize, token >> 11 == 3)
        } else {
            (((token >> 24) & 0x7f) as usize, true)
        };
        if length == 0 {
            break;
        }
        if printed {
            starts.push(at as u64 * 4);
        }
        at += length;
    }
    starts
}

/// A listing line's `/Ni /No` lead, parsed: the number (if any) and the
/// offset; `None` for a line without a lead (header, notes, slot line).
fn lead(line: &str) -> Option<(Option<u32>, u64, &str)> {
    let number = line.get(..4)?;
    let rest = line.get(4..)?.strip_prefix("  0x")?;
    let offset = u64::from_str_radix(rest.get(..8)?, 16).ok()?;
    let text = rest.get(8..)?.strip_prefix(": ")?;
    let number = match number.trim_start() {
        "" => None,
        n => Some(n.parse().ok()?),
    };
    Some((number, offset, text))
}

fn plain_and(container: &Container<'_>, flags: DisasmFlags) -> (String, String) {
    let plain = dxbc::listing(container, "t", &dxbc::ListingOptions::default()).unwrap();
    let options = dxbc::ListingOptions {
        flags,
        ..dxbc::ListingOptions::default()
    };
    let with = dxbc::listing(container, "t", &options).unwrap();
    assert_eq!(plain.errors, with.errors);
    (plain.text, with.text)
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn numbered_offset_listing_is_the_plain_one_led_by_instruction_starts() {
    let Some((_, rows)) = manifest_or_skip("listing_options_corpus") else {
        return;
    };
    let flags = DisasmFlags {
        numbers: true,
        offsets: true,
        ..DisasmFlags::default()
    };
    let mut lines_led = 0;
    let listings = each_dxbc_program(&rows, |row, container| {
        let part = dxbc::shader_part(container).unwrap();
        let (plain, with) = plain_and(container, flags);
        let (plain_lines, with_lines): (Vec<&str>, Vec<&str>) =
            (plain.lines().collect(), with.lines().collect());
        assert_eq!(plain_lines.len(), with_lines.len(), "{}", row.rel);
        let mut offsets = Vec::new();
        let mut next_number = 0u32;
        for (p, w) in plain_lines.iter().zip(&with_lines) {
            if p == w {
                continue;
            }
            let (number, offset, text) =
                lead(w).unwrap_or_else(|| panic!("{}: no lead on {w:?}", row.rel));
            assert_eq!(text, *p, "{}", row.rel);
            if let Some(n) = number {
                assert_eq!(n, next_number, "{}: {w:?}", row.rel);
                next_number += 1;
            }
            offsets.push(offset);
            lines_led += 1;
        }
        // The profile line at 0, then every printed instruction's start.
        let mut starts = vec![0];
        starts.extend(printed_instruction_starts(part.data));
        // A token stream cut short by a bad token lists what precedes it.
        assert!(!offsets.is_empty(), "{}", row.rel);
        assert_eq!(offsets, starts[..offsets.len()], "{}", row.rel);
    });
    println!("{listings} DXBC listings, {lines_led} lines led by a number and an offset");
    assert!(listings > 0);
}

/// The bits a plain listing's literal text stands for agree with the hex
/// text's: integers and `0x` words exactly, `%f` floats within their last
/// printed digit.
fn same_bits(plain: &str, hex: &str) -> bool {
    let Some(digits) = hex.strip_prefix("0x") else {
        return false;
    };
    if let Some(double) = plain.strip_suffix('l') {
        let Ok(bits) = u64::from_str_radix(digits, 16) else {
            return false;
        };
        return close(double, f64::from_bits(bits));
    }
    let Ok(bits) = u32::from_str_radix(digits, 16) else {
        return false;
    };
    if let Some(word) = plain.strip_prefix("0x") {
        return u32::from_str_radix(word, 16) == Ok(bits);
    }
    if !plain.contains('.') {
        return plain.parse::<i32>() == Ok(bits as i32);
    }
    close(plain, f64::from(f32::from_bits(bits)))
}

/// `text` (`%f`, six decimals) is `value` printed.
fn close(text: &str, value: f64) -> bool {
    match text.parse::<f64>() {
        Ok(printed) => (printed - value).abs() <= 5e-7 + value.abs() * 1e-15,
        // NaN and infinities print as the C runtime spells them.
        Err(_) => !value.is_finite(),
    }
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn hex_literals_have_the_plain_literals_bits() {
    let Some((_, rows)) = manifest_or_skip("listing_options_corpus") else {
        return;
    };
    let flags = DisasmFlags {
        hex: true,
        ..DisasmFlags::default()
    };
    let split = |line: &str| -> Vec<String> {
        line.split([' ', ',', '(', ')', '{', '}'])
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let mut literals = 0;
    let listings = each_dxbc_program(&rows, |row, container| {
        let (plain, with) = plain_and(container, flags);
        assert_eq!(plain.lines().count(), with.lines().count(), "{}", row.rel);
        for (p, w) in plain.lines().zip(with.lines()) {
            let (pt, wt) = (split(p), split(w));
            assert_eq!(pt.len(), wt.len(), "{}:\n{p}\n{w}", row.rel);
            for (a, b) in pt.iter().zip(&wt) {
                if a != b {
                    assert!(same_bits(a, b), "{}: {a} / {b}\n{p}\n{w}", row.rel);
                    literals += 1;
                }
            }
        }
    });
    println!("{listings} DXBC listings, {literals} literals printed in hexadecimal differently");
    assert!(listings > 0);
    assert!(literals > 0);
}

/// The bit offsets of the instruction records of every function block of
/// `bitcode`, in order (DECLAREBLOCKS and the debug-location records are
/// not instructions).
fn instruction_records(bitcode: &[u8]) -> Vec<u64> {
    const FUNCTION_BLOCK: u32 = 12;
    const NOT_INSTRUCTIONS: [u32; 3] = [1, 33, 35];
    let bc = Bitcode::parse(bitcode).unwrap();
    let mut reader = bc.reader();
    let mut out = Vec::new();
    while let Some(entry) = reader.next_entry().unwrap() {
        match entry {
            Entry::EnterBlock(h) if ![0, 8, FUNCTION_BLOCK].contains(&h.block_id) => {
                reader.skip_block().unwrap();
            }
            Entry::Record(r)
                if r.block_id == FUNCTION_BLOCK && !NOT_INSTRUCTIONS.contains(&r.code) =>
            {
                out.push(r.bit_offset);
            }
            _ => {}
        }
    }
    out
}

#[cfg_attr(
    not(dxcopy_corpus),
    ignore = "needs the shared corpus (../shared or $DXCOPY_SHARED)"
)]
#[test]
fn dxil_record_offsets_are_the_instruction_records() {
    let Some((_, rows)) = manifest_or_skip("listing_options_corpus") else {
        return;
    };
    let (mut listings, mut instructions) = (0, 0);
    for row in rows.iter().filter(|r| r.kind == "dxil").take(200) {
        let bytes = std::fs::read(&row.path).unwrap();
        let Ok(container) = Container::parse(&bytes) else {
            continue;
        };
        let Ok(plain) = dxil::container_listing(&container, &dxil::ListingOptions::default())
        else {
            continue;
        };
        let options = dxil::ListingOptions {
            flags: DisasmFlags {
                offsets: true,
                ..DisasmFlags::default()
            },
            ..dxil::ListingOptions::default()
        };
        let with = dxil::container_listing(&container, &options).unwrap();
        let mut offsets = Vec::new();
        let mut stripped = String::new();
        for line in with.split_inclusive('\n') {
            match line.rsplit_once(" ; bit offset ") {
                Some((text, bit)) => {
                    offsets.push(bit.trim_end().parse::<u64>().unwrap());
                    stripped.push_str(text);
                    stripped.push('\n');
                }
                None => stripped.push_str(line),
            }
        }
        assert_eq!(stripped, plain, "{}", row.rel);
        // The listed part: ILDB when present, as dxc.
        let part = [PartName::ILDB, PartName::DXIL]
            .into_iter()
            .find_map(|name| container.find(name))
            .unwrap();
        let program = Program::parse(&part).unwrap();
        assert_eq!(offsets, instruction_records(program.bitcode), "{}", row.rel);
        instructions += offsets.len();
        listings += 1;
    }
    println!("{listings} DXIL listings, {instructions} instructions with their record's offset");
    assert!(listings > 0);
}
