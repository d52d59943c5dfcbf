//! The data files of a run: files named by options (`--add-section`,
//! `--update-section`, …) read with the data-file size caps, containers
//! given as data, and the debug file of `--add-debug-from`.

use super::*;

/// Reads a data file of `option` (`-` is standard input): at most
/// [`MAX_DATA_FILE`] bytes from a regular file, checked before reading, and
/// [`MAX_STREAMED_DATA`] from anything else; more is an error naming the file.
pub fn read_data_file(path: &Path, option: Operation) -> Result<Vec<u8>> {
    let io_err = |e: std::io::Error| EditError::io(path, e);
    let too_large = |limit| EditError::DataTooLarge {
        path: path.to_path_buf(),
        option,
        limit,
        streamed: limit == MAX_STREAMED_DATA,
    };
    let (mut reader, limit): (Box<dyn Read>, u64) = if path.as_os_str() == "-" {
        (Box::new(std::io::stdin().lock()), MAX_STREAMED_DATA)
    } else {
        let file = std::fs::File::open(path).map_err(io_err)?;
        let meta = file.metadata().map_err(io_err)?;
        if meta.is_dir() {
            return Err(io_err(crate::file::is_a_directory()));
        }
        if meta.is_file() && meta.len() > MAX_DATA_FILE {
            return Err(too_large(MAX_DATA_FILE));
        }
        let limit = if meta.is_file() && meta.len() > 0 {
            MAX_DATA_FILE
        } else {
            MAX_STREAMED_DATA
        };
        (Box::new(file), limit)
    };
    let mut buf = Vec::new();
    reader
        .by_ref()
        .take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(io_err)?;
    if buf.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(buf)
}

/// The data files of a run (`--add-section`, `--update-section`,
/// `--set-private`) that are regular files, mapped before the plan is made:
/// their bytes go from the page cache to the output as the input's kept
/// parts do, never copied to the heap, however large. Other data files
/// (standard input, pipes, devices) are read with the caps of
/// [`read_data_file`] when the plan is made.
#[derive(Default)]
pub(super) struct DataFiles {
    mapped: Vec<(PathBuf, MappedFile)>,
}

impl DataFiles {
    /// Maps every regular data file of `config` that has no inline data.
    pub(super) fn open(config: &Config) -> Result<DataFiles> {
        let mut files = DataFiles::default();
        let edits = &config.edits;
        let named = edits.add.iter().map(|(_, p)| (Operation::AddSection, p));
        let named = named.chain((edits.update.iter()).map(|(_, p)| (Operation::UpdateSection, p)));
        let named = named.chain(edits.set_private.iter().map(|p| (Operation::SetPrivate, p)));
        for (option, path) in named {
            let inline = config.inline_data.iter().any(|(p, _)| p == path);
            if inline || path.as_os_str() == "-" || files.get(path).is_some() {
                continue;
            }
            let meta = std::fs::metadata(path).map_err(|e| EditError::io(path, e))?;
            if !meta.is_file() {
                continue;
            }
            if meta.len() > MAX_DATA_FILE {
                return Err(EditError::DataTooLarge {
                    path: path.clone(),
                    option,
                    limit: MAX_DATA_FILE,
                    streamed: false,
                });
            }
            let file = MappedFile::open(path).map_err(|e| EditError::io(path, e))?;
            files.mapped.push((path.clone(), file));
        }
        Ok(files)
    }

    /// The mapped bytes of `path`, when it was mapped.
    pub(super) fn get(&self, path: &Path) -> Option<&[u8]> {
        self.mapped
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, f)| &f[..])
    }

    /// No data file changed since it was mapped.
    pub(super) fn check_unchanged(&self) -> Result<()> {
        for (path, file) in &self.mapped {
            if let Some(change) = file.changed() {
                return Err(EditError::InputChanged {
                    path: path.clone(),
                    change,
                });
            }
        }
        Ok(())
    }
}

/// Opens a container or PDB data file (`--add-debug-from`): mapped when it
/// is a regular file, else read as far as its header allows.
pub(super) fn open_data_container(path: &Path) -> Result<MappedFile> {
    let meta = if path.as_os_str() == "-" {
        None
    } else {
        Some(std::fs::metadata(path).map_err(|e| EditError::io(path, e))?)
    };
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(EditError::io(path, crate::file::is_a_directory()));
    }
    MappedFile::open(path).map_err(|e| EditError::io(path, e))
}

/// `--add-debug-from=DIR`: the debug file RenderDoc would use for the
/// shader in `plan`, found by its ILDN name or its HASH (see [`debug_search`]).
pub(super) fn find_debug_file(plan: &EditPlan<'_>, dir: &Path) -> Result<PathBuf> {
    let name = plan
        .find(PartName::ILDN)
        .and_then(|p| DebugName::parse_data(p.bytes(), 0).ok())
        .map(|n| String::from_utf8_lossy(n.name).into_owned());
    let hash = plan
        .find(PartName::HASH)
        .and_then(|p| ShaderHash::parse_data(p.bytes(), 0).ok())
        .map(|h| h.pdb_name());
    let candidates = debug_search::candidates(name.as_deref(), hash.as_deref());
    debug_search::search(dir, &candidates)
        .map(|found| found.path)
        .map_err(|tried| EditError::DebugFileNotFound {
            dir: dir.to_path_buf(),
            tried,
        })
}

impl Config {
    /// A data-file argument of `option`: its
    /// [`inline_data`](Self::inline_data) if it has some, else the file's
    /// bytes, read with the data-file size cap (see [`read_data_file`]).
    pub(super) fn read_file(&self, path: &Path, option: Operation) -> Result<Vec<u8>> {
        if let Some((_, data)) = self.inline_data.iter().find(|(p, _)| p == path) {
            return Ok(data.clone());
        }
        read_data_file(path, option)
    }

    /// [`read_file`](Self::read_file), borrowing the bytes of a data file
    /// mapped in `files` instead of reading it.
    pub(super) fn data_file<'f>(
        &self,
        path: &Path,
        option: Operation,
        files: Option<&'f DataFiles>,
    ) -> Result<Cow<'f, [u8]>> {
        let inline = self.inline_data.iter().any(|(p, _)| p == path);
        match files.and_then(|f| f.get(path)) {
            Some(bytes) if !inline => Ok(Cow::Borrowed(bytes)),
            _ => self.read_file(path, option).map(Cow::Owned),
        }
    }

    /// A container argument of `option` (`--add-debug-from`): its
    /// [`inline_data`](Self::inline_data) if it has some, else the file,
    /// mapped when it is a regular file.
    pub(super) fn open_container_file(&self, path: &Path) -> Result<MappedFile> {
        if let Some((_, data)) = self.inline_data.iter().find(|(p, _)| p == path) {
            return Ok(MappedFile::from_vec(data.clone()));
        }
        open_data_container(path)
    }
}

#[cfg(test)]
mod data_file_tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_streamed_data_file_over_the_cap_says_so() {
        // A device has no length to check first: read up to the cap, no further.
        let e = read_data_file(Path::new("/dev/zero"), Operation::AddSection).unwrap_err();
        assert!(
            matches!(
                &e,
                EditError::DataTooLarge {
                    limit: MAX_STREAMED_DATA,
                    streamed: true,
                    ..
                }
            ),
            "{e:?}"
        );
        // A regular file is only checked against the container's limit.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        std::fs::write(&path, b"data").unwrap();
        assert_eq!(
            read_data_file(&path, Operation::AddSection).unwrap(),
            b"data"
        );
    }

    #[test]
    fn mapped_data_files_are_borrowed_and_checked_for_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.bin");
        std::fs::write(&path, vec![7u8; 100_000]).unwrap();
        let config = Config {
            edits: Edits {
                add: vec![("BIGE".into(), path.clone())],
                set_private: Some(PathBuf::from("-")),
                ..Edits::default()
            },
            ..Config::default()
        };
        let files = DataFiles::open(&config).unwrap();
        // Regular files are mapped; standard input is read later.
        assert_eq!(files.mapped.len(), 1);
        let data = config
            .data_file(&path, Operation::AddSection, Some(&files))
            .unwrap();
        assert!(matches!(data, Cow::Borrowed(b) if b.len() == 100_000));
        assert!(files.check_unchanged().is_ok());
        // Shrunk by another process: the commit check names the data file.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(10)
            .unwrap();
        let e = files.check_unchanged().unwrap_err();
        assert!(
            matches!(&e, EditError::InputChanged { path: p, .. } if p == &path),
            "{e}"
        );
        // Inline data wins over the file.
        let config = Config {
            inline_data: vec![(path.clone(), b"abc".to_vec())],
            ..config
        };
        let files = DataFiles::open(&config).unwrap();
        assert!(files.mapped.is_empty());
        let data = config
            .data_file(&path, Operation::AddSection, Some(&files))
            .unwrap();
        assert_eq!(&data[..], b"abc");
    }

    /// `run_on_file` (the Python package's `write()`): a mapped input that
    /// shrank after it was opened is the error, and nothing is written.
    #[test]
    fn run_on_file_refuses_an_input_that_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.dxbc");
        // Larger than READ_LIMIT, so it is mapped.
        let big = vec![1u8; 300_000];
        let bytes = crate::ContainerBuilder::new()
            .part(b"SFI0", &[0; 8])
            .part(b"BIGP", &big)
            .build()
            .unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let file = MappedFile::open(&path).unwrap();
        let container = Container::parse(&file).unwrap();
        let config = Config {
            edits: Edits {
                remove: vec!["SFI0".into()],
                ..Edits::default()
            },
            ..Config::default()
        };
        let out = dir.path().join("out.dxbc");
        config
            .run_on_file(&container, &file, &path, Some(&out))
            .unwrap();
        // SFI0 went: its 8 bytes, its 8-byte header and its offset entry.
        assert_eq!(std::fs::read(&out).unwrap().len(), bytes.len() - 20);
        std::fs::remove_file(&out).unwrap();
        if !file.is_mapped() {
            println!(
                "no fault guard slot: the input was read, not mapped; skipping the truncation"
            );
            return;
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        let e = config
            .run_on_file(&container, &file, &path, Some(&out))
            .unwrap_err();
        assert!(
            matches!(&e, EditError::InputChanged { path: p, .. } if p == &path),
            "{e}"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the input is left");
    }
}
