//! `listing::dxil` on the repository's dxc-compiled example, a shader with a
//! debug module: the ILDB listing by default, DXIL's on request, the module
//! part alone, and with its DXIL bitcode broken the part sections, then the
//! bit offset.

use dxcopy_read::listing::dxil::release::DxcRelease;
use dxcopy_read::listing::dxil::{
    container_listing, module_listing, write_container_listing, write_container_listing_to,
    ListingError, ListingOptions,
};
use dxcopy_read::{Container, PartName};

const DXC_BUILT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/learn-sdl-gpu/shader.frag.dxil"
);

#[test]
fn the_debug_module_is_listed_by_default_as_dxc_does() {
    let bytes = std::fs::read(DXC_BUILT).unwrap();
    let container = Container::parse(&bytes).unwrap();
    let text = container_listing(&container, &ListingOptions::default()).unwrap();
    assert!(text.starts_with(";\n; Input signature:\n"), "{text}");
    assert!(text.contains("\n!llvm.dbg.cu = !{!0}\n"), "{text}");
    assert!(
        text.contains("\n  ret void, !dbg !49 ; line:8 col:5\n}\n"),
        "{text}"
    );
    let plain = container_listing(
        &container,
        &ListingOptions {
            part: Some(PartName::DXIL),
            release: None,
            ..ListingOptions::default()
        },
    )
    .unwrap();
    assert!(plain.contains("\n  ret void\n}\n"), "{plain}");
    assert!(!plain.contains("!dbg"), "{plain}");
    // The DXIL part alone: the module's tables and the module, which the
    // container's listing ends with (same release).
    let release = DxcRelease::of_container(&container);
    let part = container.require(PartName::DXIL).unwrap();
    let alone = module_listing(part.data, Some(release)).unwrap();
    assert!(alone.starts_with(";\n; Input signature:\n;\n; Name                 Index             InterpMode DynIdx\n"), "{alone}");
    assert!(plain.ends_with(&alone), "{plain}\n----\n{alone}");
}

/// The shader with the second half of its DXIL bitcode overwritten with
/// 0xFF (abbreviation IDs no block defines).
fn broken_dxil() -> Vec<u8> {
    let mut bytes = std::fs::read(DXC_BUILT).unwrap();
    let (start, end) = {
        let container = Container::parse(&bytes).unwrap();
        let part = container.require(PartName::DXIL).unwrap();
        let program = dxcopy_read::Program::parse(&part).unwrap();
        let start = program.bitcode_file_offset as usize;
        (start, start + program.bitcode.len())
    };
    let middle = (start + end) / 2;
    bytes[middle..end].fill(0xff);
    bytes
}

#[test]
fn a_module_that_does_not_read_names_the_bit_offset_after_the_part_sections() {
    let bytes = broken_dxil();
    let container = Container::parse(&bytes).unwrap();
    let options = ListingOptions {
        part: Some(PartName::DXIL),
        release: None,
        ..ListingOptions::default()
    };
    let mut out = String::new();
    let err =
        write_container_listing(&container, &options, &mut out).expect_err("the bitcode is cut");
    let ListingError::Module { part, source } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(*part, PartName::DXIL);
    assert!(source.bit_offset > 0, "{source}");
    assert!(
        err.to_string().starts_with("DXIL module: bitcode at bit "),
        "{err}"
    );
    // The part sections, as the whole listing starts.
    let good = std::fs::read(DXC_BUILT).unwrap();
    let whole = container_listing(&Container::parse(&good).unwrap(), &options).unwrap();
    assert!(out.ends_with("; EntryFunctionName: main\n;\n"), "{out}");
    assert!(whole.starts_with(&out), "{out}");
    assert!(!out.contains("target datalayout"), "{out}");
    // A part that holds no module is refused by name.
    let err = container_listing(
        &container,
        &ListingOptions {
            part: Some(PartName::SFI0),
            release: None,
            ..ListingOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(err, ListingError::NotAModule(PartName::SFI0));
}

/// The written listing ([`write_container_listing_to`]) is the string
/// listing byte for byte, for each module part; for a module that does not
/// read it is the same error with nothing written (the string listing keeps
/// the part sections for its caller); a writer that fails gives its error.
#[test]
fn the_streamed_listing_is_the_string_listing() {
    let good = std::fs::read(DXC_BUILT).unwrap();
    let broken = broken_dxil();
    for (bytes, part) in [
        (&good, None),
        (&good, Some(PartName::DXIL)),
        (&good, Some(PartName::ILDB)),
        (&broken, Some(PartName::DXIL)),
    ] {
        let container = Container::parse(bytes).unwrap();
        let options = ListingOptions {
            part,
            release: None,
            ..ListingOptions::default()
        };
        let mut text = String::new();
        let expected = write_container_listing(&container, &options, &mut text);
        let mut streamed = Vec::new();
        let got = write_container_listing_to(&container, &options, &mut streamed).unwrap();
        assert_eq!(got, expected, "{part:?}");
        if got.is_ok() {
            assert_eq!(String::from_utf8(streamed).unwrap(), text, "{part:?}");
        } else {
            assert!(
                !text.is_empty(),
                "the string listing keeps the part sections"
            );
            assert!(streamed.is_empty(), "{part:?}: nothing written on error");
        }
    }
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let container = Container::parse(&good).unwrap();
    let err = write_container_listing_to(&container, &Default::default(), &mut Full).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::StorageFull);
}
