//! What the corpus tests of the DXIL writer and the renumbering share: the
//! walk over every program module (DXIL, ILDB, dxc's STAT) of the corpus.

// Each test binary compiles this module and reads only the fields it needs.
#![allow(dead_code)]

use dxcopy_edit::dump::dumps_as_bitcode;
use dxcopy_harness::corpus::files_under;
use dxcopy_read::dxil::Module;
use dxcopy_read::listing::dxil::release::DxcRelease;
use dxcopy_read::{container_input, Container, Program};
use std::path::Path;

/// One program module of the corpus, read into the model.
pub struct ProgramModule<'a> {
    /// The container's file name.
    pub file: &'a str,
    /// The part's name (`DXIL`, `ILDB`, `STAT`).
    pub name: String,
    /// The part's data (program header and bitcode).
    pub part: &'a [u8],
    /// The bitcode inside the part.
    pub bitcode: &'a [u8],
    /// The module read from it (a module that does not read fails the test).
    pub module: Module,
    /// The dxc release that wrote it.
    pub release: String,
}

/// Calls `f` with each program module in the corpus's containers, the
/// containers of its companion PDBs and dxc-listings' containers.
pub fn for_each_program_module(corpus: &Path, mut f: impl FnMut(ProgramModule<'_>)) {
    let mut paths = files_under(&corpus.join("bin"));
    paths.extend(files_under(&corpus.join("pdb")));
    paths.extend(files_under(&corpus.join("dxc-listings/bin")));
    paths.extend(files_under(&corpus.join("dxc-listings/console")));
    for path in paths {
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Ok(input) = container_input(&data) else {
            continue;
        };
        let Ok(container) = Container::parse(&input.bytes) else {
            continue;
        };
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for part in container.parts().filter(dumps_as_bitcode) {
            let Ok(program) = Program::parse(&part) else {
                continue;
            };
            if !program.has_bitcode_magic() {
                continue;
            }
            let name = part.name.to_string();
            let module = Module::parse(program.bitcode)
                .unwrap_or_else(|e| panic!("{file} {name}: does not read: {e}"));
            let release = DxcRelease::of_module(&container, Some(&module)).to_string();
            f(ProgramModule {
                file: &file,
                name,
                part: part.data,
                bitcode: program.bitcode,
                module,
                release,
            });
        }
    }
}
