//! A run's options turned into an edit plan over one container, with the
//! warnings and notes the options earn.

use super::*;

impl Config {
    /// Builds the edit plan for `container` (reads the files named by add,
    /// update, set-private and add-debug-from). Split-debug is applied by
    /// [`run_on`](Self::run_on), after the plan.
    pub fn plan<'data>(&self, container: &Container<'data>) -> Result<EditPlan<'data>> {
        self.plan_with_warnings(container, &mut Vec::new())
    }

    pub(super) fn plan_with_warnings<'data>(
        &self,
        container: &Container<'data>,
        warnings: &mut Vec<EditWarning>,
    ) -> Result<EditPlan<'data>> {
        self.plan_with_notes(container, None, warnings, &mut Vec::new())
    }

    /// The plan; data files mapped in `files` are borrowed, not read.
    pub(super) fn plan_with_notes<'data>(
        &self,
        container: &Container<'data>,
        files: Option<&'data DataFiles>,
        warnings: &mut Vec<EditWarning>,
        notes: &mut Vec<EditNote>,
    ) -> Result<EditPlan<'data>> {
        let mut plan = EditPlan::from_container(container);
        plan.digest_policy = self.digest;
        plan.hash_policy = self.hash;
        plan.keep(&self.matcher(&self.keep)?);
        if !self.edits.only.is_empty() {
            plan.only(&self.matcher(&self.edits.only)?);
        } else if !self.edits.remove.is_empty() {
            plan.remove(&self.matcher(&self.edits.remove)?);
        }
        for class in &self.edits.strip {
            plan.strip(*class);
        }
        for (name, path) in &self.edits.update {
            let name = part_name(name)?;
            let data = self.data_file(path, Operation::UpdateSection, files)?;
            let data = match root_signature::unwrap_update(name, path, &data)? {
                Some(inner) => {
                    notes.push(EditNote::UnwrappedRootSignature { path: path.clone() });
                    Cow::Owned(inner)
                }
                None => data,
            };
            let is_program = name == PartName::DXIL || name == PartName::ILDB;
            let data = match data {
                // Raw bitcode replaces only the bitcode: never padded.
                Cow::Borrowed(b) if is_program && b.starts_with(&program::BITCODE_MAGIC) => {
                    PartData::Borrowed(b)
                }
                Cow::Borrowed(b) => PartData::new_data(name, b),
                Cow::Owned(v) => {
                    plan.update(name, v)?;
                    continue;
                }
            };
            plan.update_data(name, data)?;
        }
        if let Some(path) = &self.edits.set_root_signature {
            let (data, _) =
                root_signature::load(path, &self.read_file(path, Operation::SetRootSignature)?)?;
            root_signature::set_root_signature(&mut plan, data)?;
        }
        for (name, path) in &self.edits.add {
            let name = part_name(name)?;
            if plan.find(name).is_some() {
                return Err(EditError::AlreadyExists(name));
            }
            match self.data_file(path, Operation::AddSection, files)? {
                Cow::Borrowed(b) => plan.add_data(name, PartData::new_data(name, b))?,
                Cow::Owned(v) => plan.add(name, v)?,
            }
        }
        if let Some(path) = &self.edits.set_private {
            match self.data_file(path, Operation::SetPrivate, files)? {
                Cow::Borrowed(b) => plan.set_private_data(PartData::Borrowed(b)),
                Cow::Owned(v) => plan.set_private(v),
            }
        }
        if let Some(path) = &self.edits.set_renderdoc_debug_path {
            if path.is_empty() || path.contains('\0') {
                return Err(EditError::BadRenderDocDebugPath);
            }
            plan.set_private(private::build_debug_path(path.as_bytes()));
        }
        if let Some(given) = &self.edits.add_debug_from {
            let path = if given.is_dir() {
                let found = find_debug_file(&plan, given)?;
                notes.push(EditNote::DebugFileUsed {
                    path: found.clone(),
                });
                found
            } else {
                given.clone()
            };
            let path = &path;
            let option = Operation::AddDebugFrom;
            let in_file = |e: EditError| EditError::DataFile {
                path: path.clone(),
                option,
                source: Box::new(e),
            };
            let file = self.open_container_file(path)?;
            let found = container_input(&file).map_err(|e| in_file(e.into()))?;
            let guid = match found.source {
                ContainerSource::PdbStream5 { info } => Some(info.guid),
                ContainerSource::Container => None,
            };
            let pdb = Container::parse(&found.bytes).map_err(|e| in_file(e.into()))?;
            let pairing = debug::add_debug_from(&mut plan, &pdb, guid, self.force);
            if let Some(change) = file.changed() {
                return Err(EditError::InputChanged {
                    path: path.clone(),
                    change,
                });
            }
            if let debug::Pairing::Forced { reason } = pairing? {
                warnings.push(EditWarning::PdbMismatchForced { reason });
            }
        }
        if let Some(name) = &self.edits.set_debug_name {
            debug::set_debug_name(&mut plan, name)?;
        }
        if self.edits.strip_bitcode_names {
            crate::name_strip::strip_plan_names(&mut plan)?;
            if crate::name_strip::stat_keeps_names(&plan) {
                warnings.push(EditWarning::StatKeepsBitcodeNames);
            }
        }
        let mut rebuilt = false;
        if let Some(version) = self.edits.set_validator_version {
            rebuilt = crate::validator::set_validator_version(&mut plan, version)?.is_some();
        }
        if self.edits.rebuild_parts {
            rebuild::rebuild_parts(&mut plan)?;
        } else if rebuilt {
        } else if let Some(stale) = stale_derived_parts(container, &plan) {
            notes.push(EditNote::DerivedPartsStale { parts: stale });
        }
        Ok(plan)
    }
}

/// The derived parts of `plan` when its DXIL bitcode differs from the
/// input's (they describe the former module); `None` when the module is
/// unchanged or there is no derived part.
pub(super) fn stale_derived_parts(
    container: &Container<'_>,
    plan: &EditPlan<'_>,
) -> Option<Vec<PartName>> {
    let bitcode = |bytes: &[u8]| {
        dxcopy_read::Program::parse_data(bytes, 0)
            .ok()
            .map(|p| p.bitcode.to_vec())
    };
    let before = container.find(PartName::DXIL)?;
    let after = plan.find(PartName::DXIL)?;
    if bitcode(before.data)? == bitcode(after.bytes())? {
        return None;
    }
    let parts: Vec<PartName> = dxcopy_read::dxil::derived::DERIVED_NAMES
        .into_iter()
        .filter(|&name| plan.find(name).is_some())
        .collect();
    (!parts.is_empty()).then_some(parts)
}
