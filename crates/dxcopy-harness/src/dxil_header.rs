//! The DXIL listing header and the `dx.*` metadata reading on one container,
//! for the mutation sweep and the fuzz targets: every release layout
//! (oldest, a build-month one, newest), errors being a pass.

use dxcopy_read::dxil::metadata::DxilMetadata;
use dxcopy_read::dxil::Module;
use dxcopy_read::listing::dxil::header::write_header;
use dxcopy_read::listing::dxil::release::DxcRelease;
use dxcopy_read::{Container, PartName, Program};
use std::fmt::Write as _;

/// Reads the container's module (ILDB, else DXIL), its metadata, and prints
/// the header in three release layouts; returns the number of decodes.
pub(crate) fn exercise_header(container: &Container<'_>, sink: &mut crate::Discard) -> usize {
    let module = [PartName::ILDB, PartName::DXIL]
        .into_iter()
        .filter_map(|name| container.find(name))
        .filter_map(|part| Program::parse(&part).ok())
        .find_map(|program| Module::parse(program.bitcode).ok());
    if let Some(module) = &module {
        match DxilMetadata::read(module) {
            Ok(metadata) => {
                let _ = write!(sink, "{:?}", metadata.shader_kind());
            }
            Err(e) => {
                let _ = write!(sink, "{e}");
            }
        }
    }
    let detected = DxcRelease::of_module(container, module.as_ref());
    let xbox = DxcRelease::from_ident("dxcxbox 2406.2406.1.1", Some((1, 8)));
    let mut decodes = 0;
    for release in [
        Some(detected),
        Some(DxcRelease::line(1, 2)),
        xbox,
        Some(DxcRelease::LATEST),
    ]
    .into_iter()
    .flatten()
    {
        let mut text = String::new();
        if let Err(e) = write_header(container, module.as_ref(), &release, &mut text) {
            let _ = write!(sink, "{e} {e:?}");
        }
        let _ = write!(sink, "{}", text.len());
        decodes += 1;
    }
    decodes
}
