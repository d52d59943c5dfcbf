//! `--strip-bitcode-names`: removes the names that leak source identifiers
//! and that nothing needs — struct type names (except `dx.*`, which the
//! runtime and validator need), the names of local values (instructions,
//! arguments, basic blocks: the function-level VALUE_SYMTAB entries), and
//! the names of globals with local linkage (internal, private). Function
//! names, external globals' names and all metadata stay.

use super::rewrite::{rewrite, NewRecord, RecordEdit, RewriteError};
use dxcopy_read::bitcode::codes::{block, module, types, value_symtab};
use dxcopy_read::bitcode::{abbrev_id, Record};

/// How many names [`strip_names`] removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StripStats {
    /// Struct type names removed.
    pub struct_names: usize,
    /// Local value names removed (instructions, arguments, basic blocks).
    pub local_names: usize,
    /// Names of internal or private globals removed.
    pub global_names: usize,
}

impl StripStats {
    /// All names removed.
    pub fn total(&self) -> usize {
        self.struct_names + self.local_names + self.global_names
    }
}

/// Linkage values with local linkage: internal (3) and private (9, and the
/// old linker_private 13 / linker_private_weak 14 that read as private).
fn is_local_linkage(linkage: u64) -> bool {
    matches!(linkage, 3 | 9 | 13 | 14)
}

/// Removes struct, local-value and local-global names from LLVM bitcode
/// (wrapper header allowed); returns the new bitcode and what was removed.
pub fn strip_names(data: &[u8]) -> Result<(Vec<u8>, StripStats), RewriteError> {
    let mut stats = StripStats::default();
    let mut module_version = 0u64;
    let mut value_count = 0u64;
    let mut local_globals: Vec<u64> = Vec::new();
    let bytes = rewrite(data, |path, r: &Record<'_>| {
        match path {
            [block::MODULE] => match r.code {
                module::VERSION => {
                    module_version = r.values().next().unwrap_or(0);
                    RecordEdit::Keep
                }
                module::GLOBALVAR => {
                    let id = value_count;
                    value_count += 1;
                    let shift = if module_version >= 2 { 2 } else { 0 };
                    let linkage = r.values().nth(3 + shift).unwrap_or(0);
                    if !is_local_linkage(linkage) {
                        return RecordEdit::Keep;
                    }
                    if module_version < 2 {
                        local_globals.push(id);
                        return RecordEdit::Keep;
                    }
                    // Strtab writers: the name is (offset, size) in the record.
                    let mut values: Vec<u64> = r.values().collect();
                    if values.get(1).copied().unwrap_or(0) == 0 {
                        return RecordEdit::Keep;
                    }
                    values[1] = 0;
                    stats.global_names += 1;
                    RecordEdit::Replace(NewRecord {
                        abbrev_id: abbrev_id::UNABBREV_RECORD,
                        code: r.code,
                        values,
                        blob: None,
                    })
                }
                module::FUNCTION | module::ALIAS | module::ALIAS_OLD | module::IFUNC => {
                    value_count += 1;
                    RecordEdit::Keep
                }
                _ => RecordEdit::Keep,
            },
            [block::MODULE, block::TYPE] if r.code == types::STRUCT_NAME => {
                let name = r.string_from(0).unwrap_or_default();
                if name.starts_with(b"dx.") {
                    RecordEdit::Keep
                } else {
                    stats.struct_names += 1;
                    RecordEdit::Drop
                }
            }
            [block::MODULE, block::VALUE_SYMTAB] if r.code == value_symtab::ENTRY => {
                let id = r.values().next().unwrap_or(u64::MAX);
                if local_globals.binary_search(&id).is_ok() {
                    stats.global_names += 1;
                    RecordEdit::Drop
                } else {
                    RecordEdit::Keep
                }
            }
            [block::MODULE, block::FUNCTION, block::VALUE_SYMTAB]
                if r.code == value_symtab::ENTRY || r.code == value_symtab::BBENTRY =>
            {
                stats.local_names += 1;
                RecordEdit::Drop
            }
            _ => RecordEdit::Keep,
        }
    })?;
    Ok((bytes, stats))
}
