//! The driver: opening the input, checking the destinations, writing
//! dumps, extracts and the output (in place, to a path, or to stdout), and
//! batches of inputs.

use super::*;

impl Config {
    /// Runs the invocation on `input` (a path, or `-` for stdin). `output`
    /// `None` edits in place (or writes to stdout when the input is stdin);
    /// read-only invocations write no container at all.
    ///
    /// A regular input file is memory-mapped and the kept bytes of a
    /// container file go from it straight to the output (dumps too); bytes
    /// that are not kept are never read. Anything else (stdin, a pipe, a
    /// device) is read only as far as its header allows. An in-place edit
    /// needs a regular file. Every output is staged and renamed only when all
    /// are ready, after checking that the input did not change meanwhile.
    pub fn run(&self, input: &Path, output: Option<&Path>) -> Result<Report> {
        self.run_input(input, output, false)
            .map(|r| r.expect("every input is run"))
    }

    /// [`run`](Self::run) on a file found by walking a directory: a file
    /// whose first bytes are not the container magic is left alone and
    /// `None` is returned (a PDB or any other file beside the shaders). The
    /// file is opened and read once for both the check and the run.
    pub fn run_if_container(&self, input: &Path, output: Option<&Path>) -> Result<Option<Report>> {
        self.run_input(input, output, true)
    }

    pub(super) fn run_input(
        &self,
        input: &Path,
        output: Option<&Path>,
        containers_only: bool,
    ) -> Result<Option<Report>> {
        let (file, plain) = self.open_input(input, output)?;
        if containers_only && !file.starts_with(crate::batch::CONTAINER_MAGIC) {
            return Ok(None);
        }
        self.run_opened(&file, plain, input, output, None).map(Some)
    }

    /// Checks the options for `input` and opens it: once, as the in-place
    /// edit's regular file (`true` when `input` named it without a link),
    /// or for reading only.
    pub(super) fn open_input(
        &self,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<(MappedFile, bool)> {
        self.check_options(input)?;
        let stdin = input.as_os_str() == "-";
        if output.is_none() && !stdin && !self.is_read_only() {
            let opened = crate::file::open_in_place(input)?;
            let file = MappedFile::from_file_with(opened.file, opened.metadata)
                .map_err(|e| EditError::io(input, e))?;
            Ok((file, opened.plain))
        } else {
            let file = MappedFile::open(input).map_err(|e| EditError::io(input, e))?;
            Ok((file, false))
        }
    }

    /// Runs on the opened `file`; `digests` are its digests when they were
    /// computed ahead (see [`run_batch`](Self::run_batch)).
    pub(super) fn run_opened(
        &self,
        file: &MappedFile,
        plain: bool,
        input: &Path,
        output: Option<&Path>,
        digests: Option<InputDigests>,
    ) -> Result<Report> {
        let result = self.run_file(file, input, output, plain, digests);
        input_change_wins(file, input, result)
    }

    /// Whether a batch should hash `bytes` ahead: `--digest=auto` will
    /// classify the input's digest (it is not zero or a sentinel) because
    /// the strip classes remove one of its parts, so the output differs.
    /// Only a guess of speed: digests computed ahead are the input's own,
    /// so an edit that ends up not needing them is still right.
    pub(crate) fn hashes_ahead(&self, bytes: &[u8]) -> bool {
        self.batches_digests()
            && bytes
                .get(4..20)
                .is_some_and(|stored| digest::sentinel_kind(stored).is_none())
            && Container::parse(bytes).is_ok_and(|c| {
                c.parts()
                    .any(|p| self.edits.strip.iter().any(|class| class.covers(&p.name)))
            })
    }

    /// Whether [`run_batch`](Self::run_batch) hashes inputs ahead for this
    /// configuration: `--digest=auto` strips by class (dxstrip's runs)
    /// with no `--keep-section` or `-j` that could save the parts.
    pub(crate) fn batches_digests(&self) -> bool {
        self.digest == DigestPolicy::Auto
            && !self.edits.strip.is_empty()
            && self.keep.is_empty()
            && self.edits.only.is_empty()
    }

    /// [`run`](Self::run) on each of `inputs`, with the digests of the
    /// inputs `--digest=auto` will classify computed together, several
    /// messages side by side ([`digest::container_digests_many`]), before
    /// the edits. The inputs are opened and read first, all of them; each
    /// result is what [`run`](Self::run) gives for that input.
    pub fn run_batch(&self, inputs: &[PathBuf], output: Option<&Path>) -> Vec<Result<Report>> {
        self.run_batch_walked(inputs, &[], output)
            .into_iter()
            .map(|r| r.map(|r| r.expect("every input is run")))
            .collect()
    }

    /// [`run_batch`](Self::run_batch) where `walked[i]` says that input `i`
    /// was found by walking a directory and is left alone (`Ok(None)`) when
    /// it is not a container, as [`run_if_container`](Self::run_if_container)
    /// does.
    pub(crate) fn run_batch_walked(
        &self,
        inputs: &[PathBuf],
        walked: &[bool],
        output: Option<&Path>,
    ) -> Vec<Result<Option<Report>>> {
        let opened: Vec<Result<Option<(MappedFile, bool)>>> = inputs
            .iter()
            .enumerate()
            .map(|(i, input)| {
                let (file, plain) = self.open_input(input, output)?;
                let skip = walked.get(i).copied().unwrap_or(false)
                    && !file.starts_with(crate::batch::CONTAINER_MAGIC);
                Ok((!skip).then_some((file, plain)))
            })
            .collect();
        let ahead: Vec<(usize, &[u8])> = opened
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let (file, _) = o.as_ref().ok()?.as_ref()?;
                self.hashes_ahead(file).then_some((i, &file[..]))
            })
            .collect();
        let bytes: Vec<&[u8]> = ahead.iter().map(|(_, b)| *b).collect();
        let mut digests: Vec<Option<InputDigests>> = vec![None; inputs.len()];
        for ((i, _), d) in ahead.iter().zip(digest::container_digests_many(&bytes)) {
            digests[*i] = Some(d);
        }
        opened
            .into_iter()
            .zip(inputs)
            .zip(digests)
            .map(|((o, input), d)| match o? {
                Some((file, plain)) => self.run_opened(&file, plain, input, output, d).map(Some),
                None => Ok(None),
            })
            .collect()
    }

    pub(super) fn run_file(
        &self,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
        plain: bool,
        digests: Option<InputDigests>,
    ) -> Result<Report> {
        if is_header_input(file) {
            return self.run_header(file, input, output, plain);
        }
        if let Some(array) = &self.headers.array {
            return Err(EditError::NotAHeader(array.clone()));
        }
        let found = container_input(file)?;
        let source = InputSource {
            path: input,
            file: Some(file),
            copy_from: !found.is_from_pdb(),
            plain,
            // Digests of the file's bytes are the container's only when
            // they are the container (not a PDB's stream).
            digests: digests.filter(|_| !found.is_from_pdb()),
            header: None,
        };
        if !found.is_from_pdb() {
            let container = Container::parse(file)?;
            return self.run_with(&container, &source, output);
        }
        let in_stream = |e: EditError| {
            if e.names_its_file() {
                e
            } else {
                EditError::InPdbStream(Box::new(e))
            }
        };
        if output.is_none() && !self.is_read_only() {
            return Err(EditError::PdbInPlace);
        }
        let container = Container::parse(&found.bytes).map_err(|e| in_stream(e.into()))?;
        let mut report = self
            .run_with(&container, &source, output)
            .map_err(in_stream)?;
        report.input_is_pdb = true;
        Ok(report)
    }

    /// [`run`](Self::run) on an already parsed container read from `input`.
    pub fn run_on(
        &self,
        container: &Container<'_>,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<Report> {
        self.check_options(input)?;
        let source = InputSource {
            path: input,
            file: None,
            copy_from: false,
            plain: false,
            digests: None,
            header: None,
        };
        self.run_with(container, &source, output)
    }

    /// [`run_on`](Self::run_on) for a container whose bytes are those of
    /// `file`, opened from `input` some time before (a Python `Container`):
    /// as [`run`](Self::run) does, the outputs are renamed only when `file`
    /// did not change since it was opened, and a change (a truncation read
    /// as zeros through the map, a new length or modification time) is the
    /// error reported, whatever else failed.
    pub fn run_on_file(
        &self,
        container: &Container<'_>,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
    ) -> Result<Report> {
        let result = self.check_options(input).and_then(|()| {
            let source = InputSource {
                path: input,
                file: Some(file),
                copy_from: false,
                plain: false,
                digests: None,
                header: None,
            };
            self.run_with(container, &source, output)
        });
        input_change_wins(file, input, result)
    }

    /// The container of one array of the C header `file` (see
    /// [`run_header`](Self::run_header)): its main output is `target`
    /// rewritten when given.
    pub(crate) fn run_header_array(
        &self,
        container: &Container<'_>,
        file: &MappedFile,
        input: &Path,
        output: Option<&Path>,
        plain: bool,
        target: Option<&HeaderTarget<'_>>,
    ) -> Result<Report> {
        let source = InputSource {
            path: input,
            file: Some(file),
            copy_from: false,
            plain,
            digests: None,
            header: target,
        };
        self.run_with(container, &source, output)
    }

    /// The edited container's bytes, for an array of a header edited beside
    /// the run's own (dxstrip's every-array runs); its warnings, notes and
    /// part counts go to `report`.
    pub(crate) fn edit_in_memory(
        &self,
        container: &Container<'_>,
        report: &mut Report,
    ) -> Result<Vec<u8>> {
        Self::check_single_programs(container)?;
        let plan =
            self.plan_with_notes(container, None, &mut report.warnings, &mut report.notes)?;
        let out = plan.finish()?;
        report.parts_before += container.part_count() as usize;
        report.parts_after += out.parts().len();
        report.warnings.extend(out.warnings().iter().cloned());
        Ok(out.to_vec())
    }

    /// [`run_on`](Self::run_on), with the file the input was read from.
    pub(super) fn run_with(
        &self,
        container: &Container<'_>,
        source: &InputSource<'_>,
        output: Option<&Path>,
    ) -> Result<Report> {
        Self::check_single_programs(container)?;
        let input = source.path;
        let mapped = source.file.filter(|_| source.copy_from);
        let mut report = Report {
            parts_before: container.part_count() as usize,
            ..Report::default()
        };
        report.option_warnings = self.option_warnings(container)?;
        // 1. Resolve every dump and extract first: nothing is written if one fails.
        let mut dumps = Vec::new();
        for d in &self.dumps {
            let m = NameMatcher::from_patterns(&[&d.pattern], self.match_style)?;
            let what = match d.mode {
                DumpMode::Bitcode => Operation::DumpSection,
                DumpMode::Raw => Operation::DumpSectionRaw,
                DumpMode::FixedBitcode => Operation::DumpBitcode,
            };
            dumps.push((
                dump::dump(container, &m, &d.pattern, d.mode)?,
                &d.path,
                what,
            ));
        }
        let mut extracts = Vec::new();
        for (pattern, path) in &self.extracts {
            let m = NameMatcher::from_patterns(&[pattern], self.match_style)?;
            let mut plan = dump::extract(container, &m, pattern)?;
            // The container is new: under auto it is signed for itself, since
            // the input's digest does not cover it.
            plan.digest_policy = match self.digest {
                DigestPolicy::Auto => DigestPolicy::Retail,
                other => other,
            };
            plan.hash_policy = HashPolicy::Keep;
            extracts.push((plan.finish()?, path));
        }
        let private_pdb = match &self.extract_private_pdb {
            Some(path) => Some((debug::extract_private_pdb(container)?, path)),
            None => None,
        };
        let source_files = match &self.extract_sources {
            Some(dir) => Some((sources::source_files(container)?, dir)),
            None => None,
        };
        // 2. The main edit, then the debug split (which needs the final parts).
        let write_main = output.is_some() || !self.is_read_only();
        let mut companion = None;
        let data_files = if write_main {
            DataFiles::open(self)?
        } else {
            DataFiles::default()
        };
        let main = if write_main {
            let plan = self.plan_with_notes(
                container,
                Some(&data_files),
                &mut report.warnings,
                &mut report.notes,
            )?;
            let out = if self.edits.split_debug.is_some() || self.edits.pdb_in_private {
                let options = SplitOptions {
                    target: self.edits.split_debug.as_deref().map(PdbTarget::parse),
                    pdb_in_private: self.edits.pdb_in_private,
                };
                let split = debug::split_debug(plan, &options)?;
                report.warnings.extend(split.warnings);
                companion = split.pdb_path.map(|path| (path, split.pdb));
                split.main
            } else {
                plan.finish()?
            };
            report.parts_after = out.parts().len();
            Some(match source.digests {
                Some(d) => out.with_input_digests(d),
                None => out,
            })
        } else {
            None
        };
        let stdin = input.as_os_str() == "-";
        // An in-place edit that would write the input's own bytes leaves the
        // file alone (same inode and modification time): it has no destination.
        let in_place = !stdin && (output.is_none() || output == Some(input));
        // A C header as the main output: the input header rewritten, or the
        // header a compiler writes.
        if self.headers.output.is_some() && main.is_some() && in_place {
            return Err(EditError::HeaderOutputInPlace);
        }
        let main_text = match (&main, source.header, &self.headers.output) {
            (Some(out), Some(target), _) => Some(target.rewrite(&out.to_vec(), &self.headers)?),
            (Some(out), None, Some(spec)) => {
                Some(c_header::compiler_header(&out.to_vec(), spec)?.into_bytes())
            }
            _ => None,
        };
        let unchanged = main.as_ref().is_some_and(|out| {
            in_place && mapped.is_some() && unchanged::reproduces_input(out, container, self.digest)
        }) || (in_place
            && source.header.is_some()
            && main_text.as_deref() == source.file.map(|f| &f[..]));
        let main_dest: Option<PathBuf> =
            main.as_ref().filter(|_| !unchanged).map(|_| match output {
                Some(o) => o.to_path_buf(),
                None if stdin => PathBuf::from("-"),
                None => input.to_path_buf(),
            });
        // 3. Check where everything goes before anything is written: no
        //    output may be the input (the main output in place excepted) and
        //    no two outputs one file.
        let mut planned: Vec<(&Path, Operation)> = Vec::new();
        for (_, path, what) in &dumps {
            planned.push((path, *what));
        }
        for (_, path) in &extracts {
            planned.push((path, Operation::ExtractSection));
        }
        if let Some((_, path)) = &private_pdb {
            planned.push((path, Operation::ExtractPrivatePdb));
        }
        if let Some((path, _)) = &companion {
            planned.push((path, Operation::SplitDebugPdb));
        }
        let destinations = check_destinations(source, &planned, main_dest.as_deref())?;
        let mut destinations = destinations.into_iter();
        let mut next_destination = || destinations.next().expect("one per output");
        // 4. Stage every output, then commit them together.
        let fresh = FileOptions::default();
        let write_output = |out: &Output<'_>, sink: Sink<'_>| match (sink, mapped) {
            (Sink::File(f), Some(m)) => out.write_file_from(m, f).map(drop),
            (Sink::File(f), None) => out.write_to_seekable(f).map(drop),
            (Sink::Stream(w), _) => out.write_to(w).map(drop),
        };
        // Declared first so it is dropped last, after the temp files in it.
        let mut created_dirs = CreatedDirs::default();
        let mut outputs = Outputs::new();
        for (bytes, path, _) in &dumps {
            let path: &PathBuf = path;
            outputs.add_to(path, next_destination(), &fresh, move |sink| match sink {
                Sink::File(f) => match (mapped, bytes) {
                    // Zero-copy dumps go from the mapped input; a fixed
                    // bitcode (`--dump-bitcode`) is written from memory.
                    (Some(m), std::borrow::Cow::Borrowed(bytes)) => {
                        copy::write_from_input(m, bytes, f)
                    }
                    _ => f.write_all(bytes),
                },
                Sink::Stream(w) => w.write_all(bytes),
            })?;
            report.dumped.push(path.clone());
        }
        for (out, path) in &extracts {
            outputs.add_to(path, next_destination(), &fresh, |sink| {
                write_output(out, sink)
            })?;
            report.dumped.push(path.to_path_buf());
        }
        if let Some((bytes, path)) = private_pdb {
            outputs.add_to(path, next_destination(), &fresh, move |sink| match sink {
                Sink::File(f) => f.write_all(bytes),
                Sink::Stream(w) => w.write_all(bytes),
            })?;
            report.dumped.push(path.clone());
        }
        if let Some((path, bytes)) = &companion {
            // `--split-debug=dir/` names a directory: make it when missing.
            let into_directory = self
                .edits
                .split_debug
                .as_deref()
                .is_some_and(|t| matches!(PdbTarget::parse(t), PdbTarget::Directory(_)));
            if into_directory {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    created_dirs.create(dir)?;
                }
            }
            outputs.add_to(path, next_destination(), &fresh, |sink| match sink {
                Sink::File(f) => f.write_all(bytes),
                Sink::Stream(w) => w.write_all(bytes),
            })?;
            report.pdb_written = Some(path.clone());
        }
        if let (Some(out), Some(dest)) = (&main, &main_dest) {
            // -p: the times read before the input was (so its access time is
            // the old one); mode and owner follow the destination.
            let meta = match source.file.and_then(MappedFile::metadata) {
                Some(meta) => Some(meta.clone()),
                // An input parsed by the caller (run_on): its file, when it has one.
                None if self.preserve_dates && !stdin => std::fs::metadata(input).ok(),
                None => None,
            };
            let options = match &meta {
                Some(meta) if self.preserve_dates && !stdin => FileOptions::times_of(meta),
                _ => FileOptions::default(),
            };
            let text = main_text.as_deref();
            outputs.add_to(dest, next_destination(), &options, move |sink| {
                match (text, sink) {
                    (Some(text), Sink::File(f)) => f.write_all(text),
                    (Some(text), Sink::Stream(w)) => w.write_all(text),
                    (None, sink) => write_output(out, sink),
                }
            })?;
        }
        // The sources are written before the edit is committed, so an in-place
        // edit that removes them never loses them.
        if let Some((files, dir)) = &source_files {
            let input_path = Some(input).filter(|_| !stdin);
            report.sources = Some(sources::write_sources(dir, files, input_path)?);
        }
        outputs.commit(|| {
            source.check_unchanged()?;
            data_files.check_unchanged()
        })?;
        created_dirs.keep();
        for (out, _) in &extracts {
            report.warnings.extend(out.warnings().iter().cloned());
        }
        if unchanged {
            report.unchanged = true;
            return Ok(report);
        }
        if let Some(out) = &main {
            // After writing: the writer may have classified the input's digest.
            report.warnings.extend(out.warnings().iter().cloned());
            report.output_digest = Some(out.digest_kind());
            report.wrote_output = true;
        }
        Ok(report)
    }
}

/// Directories a run created for its outputs (`--split-debug=dir/`): removed
/// again, deepest first and only while empty, unless the run commits, so a
/// failed run leaves nothing behind.
#[derive(Default)]
pub(super) struct CreatedDirs {
    dirs: Vec<PathBuf>,
    kept: bool,
}

impl CreatedDirs {
    /// Creates `dir` and its missing parents, remembering those it made.
    pub(super) fn create(&mut self, dir: &Path) -> Result<()> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir).map_err(|e| EditError::io(dir, e))?;
        self.dirs.extend(missing);
        Ok(())
    }

    /// The run committed: the directories stay.
    pub(super) fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for CreatedDirs {
    fn drop(&mut self) {
        if !self.kept {
            // `dirs` lists each directory before its parents.
            for d in &self.dirs {
                let _ = std::fs::remove_dir(d);
            }
        }
    }
}

/// The input of a run: its path, the file it was read from, and whether the
/// parsed container's bytes are that file's (so writers may copy from it).
pub(super) struct InputSource<'a> {
    path: &'a Path,
    file: Option<&'a MappedFile>,
    copy_from: bool,
    /// `path` named the regular file `file` itself (no symbolic link) when
    /// it was opened for an in-place edit: the in-place destination is that
    /// file, classified from its metadata without another look-up.
    plain: bool,
    /// The container's `(retail, debug)` digests, when computed ahead.
    digests: Option<InputDigests>,
    /// The C header the container came from, when the main output is that
    /// header rewritten.
    header: Option<&'a HeaderTarget<'a>>,
}

impl InputSource<'_> {
    /// The input did not change since it was opened.
    pub(super) fn check_unchanged(&self) -> Result<()> {
        match self.file.and_then(MappedFile::changed) {
            Some(change) => Err(EditError::InputChanged {
                path: self.path.to_path_buf(),
                change,
            }),
            None => Ok(()),
        }
    }

    /// The input's identity, when it is a file.
    pub(super) fn id(&self) -> Option<FileId> {
        if self.path.as_os_str() == "-" {
            return None;
        }
        match self.file.and_then(MappedFile::metadata) {
            Some(meta) => Some(FileId::of(meta)),
            None => std::fs::metadata(self.path).ok().map(|m| FileId::of(&m)),
        }
    }
}

/// Classifies every output (the `planned` side outputs, then the main one)
/// and checks that none is the input (the main output may be: that is an
/// in-place edit) and no two are one file. Returns the destinations in the
/// same order.
pub(super) fn check_destinations(
    source: &InputSource<'_>,
    planned: &[(&Path, Operation)],
    main: Option<&Path>,
) -> Result<Vec<Destination>> {
    if planned.is_empty() && main.is_none() {
        return Ok(Vec::new());
    }
    let input_id = source.id();
    let mut seen: Vec<(FileId, &Path, Operation)> = Vec::new();
    let mut destinations = Vec::new();
    let main = main.map(|m| (m, Operation::Output));
    for (index, (path, what)) in planned.iter().copied().chain(main).enumerate() {
        let is_main = index == planned.len();
        let destination = match source.file.and_then(MappedFile::metadata) {
            // The input itself, opened through this very name, which was
            // no symbolic link: the file and its metadata are known.
            Some(meta) if is_main && source.plain && path == source.path => {
                Destination::Existing(path.to_path_buf(), meta.clone())
            }
            _ => Destination::of(path)?,
        };
        if planned.is_empty() {
            // The only output: there is nothing to compare it with (the
            // main output may be the input), so its identity is not needed.
            destinations.push(destination);
            break;
        }
        let id = destination.id()?;
        if !is_main && input_id.as_ref() == Some(&id) {
            return Err(EditError::OutputIsInput {
                path: path.to_path_buf(),
                what,
            });
        }
        if let Some((_, first, first_what)) = seen.iter().find(|(seen_id, ..)| *seen_id == id) {
            return Err(EditError::DuplicateOutput {
                first: first.to_path_buf(),
                first_what: *first_what,
                second: path.to_path_buf(),
                second_what: what,
            });
        }
        seen.push((id, path, what));
        destinations.push(destination);
    }
    Ok(destinations)
}

/// The outcome of a run on a memory-mapped `file`: a change of the input
/// explains any other error (a part past the new end, a short copy), so it
/// is the one reported. A run that succeeded checked the file before it
/// renamed anything; one that wrote nothing only needs its bytes to have
/// been read whole.
pub(super) fn input_change_wins(
    file: &MappedFile,
    input: &Path,
    result: Result<Report>,
) -> Result<Report> {
    let change = match &result {
        Ok(_) => file.changed_while_read(),
        Err(_) => file.changed(),
    };
    match change {
        Some(change) => Err(EditError::InputChanged {
            path: input.to_path_buf(),
            change,
        }),
        None => result,
    }
}
