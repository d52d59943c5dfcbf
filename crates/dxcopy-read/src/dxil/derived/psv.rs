//! PSV0 from the module, as dxc's `DxilPSVWriter` writes it
//! (docs/format/derived-parts.md §PSV0, docs/format/psv0.md for the layout).
//!
//! The version follows the module's validator version: 0 below 1.1, 1
//! below 1.6, 2 below 1.8, 3 below 1.10, else 4. The runtime information
//! comes from the entry's properties and signatures; the resources are
//! listed constant buffers first, then samplers, SRVs and UAVs; every
//! signature element (including those the signature parts leave out) gets
//! a record; the ViewID masks and input-to-output tables are copied from
//! `dx.viewIdState`.

use super::signature::{any_sample_frequency, is_allocated, sig_comp_type};
use super::{older_than, DeriveError, Facts};
use crate::dxil::metadata::layout::DataLayout;
use crate::dxil::metadata::{
    Resource, ResourceClass, Resources, SignatureElement, SHADER_FLAG_VIEW_ID,
};
use crate::psv0::{
    ElementRecord, ResourceFlags, ResourceKind, ResourceRecord, ResourceType, RuntimeInfoRecord,
    SemanticKind,
};
use crate::ShaderKind;

/// The PSV0 version dxc writes for validator version `validator`
/// (`hlsl::GetPSVVersion`).
pub fn psv_version(validator: (u32, u32)) -> u8 {
    if older_than(validator, 1, 1) {
        0
    } else if older_than(validator, 1, 6) {
        1
    } else if older_than(validator, 1, 8) {
        2
    } else if older_than(validator, 1, 10) {
        3
    } else {
        4
    }
}

/// Address space of group-shared memory.
const GROUP_SHARED_ADDRESS_SPACE: u32 = 3;

/// The PSV resource type of a resource (dxc's `InitPSVResourceBinding`).
fn resource_type(resource: &Resource) -> u32 {
    let uav = resource.class == ResourceClass::Uav;
    match resource.kind {
        ResourceKind::Sampler => 1,
        ResourceKind::CBuffer => 2,
        ResourceKind::StructuredBuffer if uav && resource.has_counter() => 9,
        ResourceKind::StructuredBuffer if uav => 8,
        ResourceKind::StructuredBuffer => 5,
        ResourceKind::RTAccelerationStructure => 4,
        ResourceKind::RawBuffer if uav => 7,
        ResourceKind::RawBuffer => 4,
        _ if uav => 6,
        _ => 3,
    }
}

fn atomic64(resource: &Resource) -> bool {
    matches!(
        resource.detail,
        crate::dxil::metadata::ResourceDetail::Uav {
            atomic64_use: true,
            ..
        }
    )
}

/// The highest register a resource takes (`UINT_MAX` when unbounded).
fn upper_bound(resource: &Resource) -> u32 {
    if resource.range_size == u32::MAX {
        u32::MAX
    } else {
        resource
            .lower_bound
            .wrapping_add(resource.range_size)
            .wrapping_sub(1)
    }
}

/// The vectors a signature's elements of `stream` take (dxc's
/// `NumVectorsUsed`).
fn vectors_used(elements: &[SignatureElement], stream: u32) -> u32 {
    elements
        .iter()
        .filter(|e| is_allocated(e) && e.output_stream == stream)
        .map(|e| (e.start_row as u32).wrapping_add(e.rows))
        .max()
        .unwrap_or(0)
}

fn byte(what: &'static str, count: usize) -> Result<u8, DeriveError> {
    u8::try_from(count).map_err(|_| DeriveError::TooMany { what, count })
}

/// Dwords of a component mask over `vectors` four-component vectors.
fn mask_dwords(vectors: u32) -> u32 {
    (vectors + 7) >> 3
}

/// One PSV signature element record and the tables it adds to.
fn element_record(
    element: &SignatureElement,
    i1_unknown: bool,
    strings: &mut Vec<u8>,
    indices: &mut Vec<u32>,
) -> ElementRecord {
    let name_offset = if element.kind == SemanticKind::Arbitrary && !element.name.is_empty() {
        let offset = strings.len() as u32;
        strings.extend_from_slice(&element.name);
        strings.push(0);
        offset
    } else {
        0
    };
    let wanted = &element.semantic_indices;
    let found = if wanted.is_empty() {
        None
    } else {
        indices
            .windows(wanted.len())
            .position(|w| w == wanted.as_slice())
    };
    let indices_offset = match found {
        Some(offset) => offset as u32,
        None => {
            let offset = indices.len() as u32;
            indices.extend_from_slice(wanted);
            offset
        }
    };
    let mut cols_start_col_allocated = element.cols & 0xf;
    let mut start_row = 0;
    if is_allocated(element) {
        cols_start_col_allocated |= 0x40 | (((element.start_col as u8) & 0x3) << 4);
        start_row = element.start_row as u8;
    }
    ElementRecord {
        name_offset,
        indices_offset,
        rows: element.rows as u8,
        start_row,
        cols_start_col_allocated,
        kind: element.kind,
        component_type: sig_comp_type(element.comp_type, i1_unknown) as u8,
        interpolation: element.interpolation,
        dynamic_mask_stream: (((element.output_stream & 0x3) << 4)
            | (element.dynamic_index_mask & 0xf)) as u8,
        reserved: 0,
    }
}

/// The 16-byte stage union and the wave lane counts of runtime info 0.
fn stage_info(facts: &Facts<'_>) -> ([u8; 16], u32, u32) {
    let mut raw = [0u8; 16];
    let put = |raw: &mut [u8; 16], at: usize, value: u32| {
        raw[at..at + 4].copy_from_slice(&value.to_le_bytes());
    };
    let mut wave = (0u32, u32::MAX);
    let Some(entry) = facts.entry else {
        return (raw, wave.0, wave.1);
    };
    let props = &entry.properties;
    let outputs = &entry.signatures.outputs;
    let position_out = outputs.iter().any(|e| e.kind == SemanticKind::Position) as u8;
    match facts.kind {
        ShaderKind::Vertex => raw[0] = position_out,
        ShaderKind::Hull => {
            if let Some(hs) = props.hs {
                put(&mut raw, 0, hs.input_control_points);
                put(&mut raw, 4, hs.output_control_points);
                put(&mut raw, 8, hs.domain);
                put(&mut raw, 12, hs.output_primitive);
            }
        }
        ShaderKind::Domain => {
            if let Some(ds) = props.ds {
                put(&mut raw, 0, ds.input_control_points);
                put(&mut raw, 8, ds.domain);
            }
            raw[4] = position_out;
        }
        ShaderKind::Geometry => {
            if let Some(gs) = props.gs {
                put(&mut raw, 0, gs.input_primitive);
                put(&mut raw, 4, gs.output_topology);
                put(&mut raw, 8, gs.active_stream_mask.max(1));
            } else {
                put(&mut raw, 8, 1);
            }
            raw[12] = position_out;
        }
        ShaderKind::Pixel => {
            raw[0] = outputs.iter().any(|e| {
                matches!(
                    e.kind,
                    SemanticKind::Depth
                        | SemanticKind::DepthLessEqual
                        | SemanticKind::DepthGreaterEqual
                )
            }) as u8;
            raw[1] = any_sample_frequency(&entry.signatures.inputs) as u8;
        }
        ShaderKind::Compute => {
            if let Some(size) = props.wave_size {
                wave = (
                    size.min,
                    size.max.filter(|&max| max != 0).unwrap_or(size.min),
                );
            }
        }
        ShaderKind::Mesh => {
            put(&mut raw, 0, group_shared_bytes(facts));
            if let Some(ms) = props.ms {
                put(&mut raw, 8, ms.payload_size);
                raw[12..14].copy_from_slice(&(ms.max_vertex_count as u16).to_le_bytes());
                raw[14..16].copy_from_slice(&(ms.max_primitive_count as u16).to_le_bytes());
            }
        }
        ShaderKind::Amplification => {
            if let Some(amp) = props.amplification {
                put(&mut raw, 0, amp.payload_size);
            }
        }
        _ => {}
    }
    (raw, wave.0, wave.1)
}

/// The bytes of the module's group-shared globals (dxc's
/// `GetTGSMSizeInBytes`).
fn group_shared_bytes(facts: &Facts<'_>) -> u32 {
    let layout = DataLayout::of(facts.module);
    facts
        .module
        .globals
        .iter()
        .filter(|g| g.address_space == GROUP_SHARED_ADDRESS_SPACE)
        .map(|g| layout.alloc_size(facts.module, g.value_type).unwrap_or(0) as u32)
        .fold(0u32, u32::wrapping_add)
}

/// The thread group size of a compute, mesh or amplification shader.
fn num_threads(facts: &Facts<'_>) -> [u32; 3] {
    let Some(entry) = facts.entry else {
        return [0; 3];
    };
    let props = &entry.properties;
    match facts.kind {
        ShaderKind::Compute => props.num_threads.unwrap_or([0; 3]),
        ShaderKind::Mesh => props
            .ms
            .map(|ms| ms.num_threads)
            .or(props.num_threads)
            .unwrap_or([0; 3]),
        ShaderKind::Amplification => props
            .amplification
            .map(|a| a.num_threads)
            .or(props.num_threads)
            .unwrap_or([0; 3]),
        _ => [0; 3],
    }
}

/// The module's PSV0 part, as dxc writes it.
pub(crate) fn write_psv(facts: &Facts<'_>) -> Result<Vec<u8>, DeriveError> {
    let version = psv_version(facts.validator);
    let i1_unknown = older_than(facts.validator, 1, 5);
    let kind = facts.kind;
    let empty = Default::default();
    let signatures = facts.entry.map_or(&empty, |e| &e.signatures);
    let resources = facts.metadata.module_resources();
    let since = |first: u8| version >= first;

    let inputs = &signatures.inputs;
    let outputs = &signatures.outputs;
    let patch = &signatures.patch_constant_or_primitive;
    let uses_view_id = facts.metadata.shader_flags() & SHADER_FLAG_VIEW_ID != 0;
    let input_vectors = vectors_used(inputs, 0);
    let output_vectors = [0, 1, 2, 3].map(|stream| vectors_used(outputs, stream));
    let patch_vectors = if matches!(
        kind,
        ShaderKind::Hull | ShaderKind::Domain | ShaderKind::Mesh
    ) {
        vectors_used(patch, 0)
    } else {
        0
    };
    let entry_props = facts.entry.map(|e| &e.properties);
    // The 16-bit union after the stage and view-ID bytes.
    let stage_data: u16 = match kind {
        ShaderKind::Geometry => entry_props
            .and_then(|p| p.gs)
            .map_or(0, |gs| gs.max_vertex_count as u16),
        ShaderKind::Hull | ShaderKind::Domain | ShaderKind::Mesh => {
            let low = u16::from(byte("patch constant vectors", patch_vectors as usize)?);
            let topology = match kind {
                ShaderKind::Mesh => entry_props
                    .and_then(|p| p.ms)
                    .map_or(0, |ms| ms.output_topology as u8),
                _ => 0,
            };
            low | u16::from(topology) << 8
        }
        _ => 0,
    };
    let mut vectors = [0u8; 4];
    for (out, &count) in vectors.iter_mut().zip(&output_vectors) {
        *out = byte("output vectors", count as usize)?;
    }

    let mut strings = vec![0u8];
    let mut indices = Vec::new();
    let mut records = Vec::with_capacity(inputs.len() + outputs.len() + patch.len());
    for element in inputs.iter().chain(outputs).chain(patch) {
        records.push(element_record(
            element,
            i1_unknown,
            &mut strings,
            &mut indices,
        ));
    }
    let entry_name_offset = strings.len() as u32;
    if since(3) {
        strings.extend_from_slice(facts.entry.map_or(&[][..], |e| &e.name));
        strings.push(0);
    }
    while strings.len() % 4 != 0 {
        strings.push(0);
    }

    let (stage_info, min_wave, max_wave) = stage_info(facts);
    let threads = num_threads(facts);
    let group_shared = if matches!(
        kind,
        ShaderKind::Compute | ShaderKind::Mesh | ShaderKind::Amplification
    ) {
        group_shared_bytes(facts)
    } else {
        0
    };
    let info = RuntimeInfoRecord {
        stage_info,
        minimum_wave_lane_count: min_wave,
        maximum_wave_lane_count: max_wave,
        shader_stage: since(1).then_some(kind.raw() as u8),
        uses_view_id: since(1).then_some(uses_view_id as u8),
        geometry_data: since(1).then_some(stage_data),
        sig_input_elements: since(1)
            .then(|| byte("input elements", inputs.len()))
            .transpose()?,
        sig_output_elements: since(1)
            .then(|| byte("output elements", outputs.len()))
            .transpose()?,
        sig_patch_or_prim_elements: since(1)
            .then(|| byte("patch constant elements", patch.len()))
            .transpose()?,
        sig_input_vectors: since(1)
            .then(|| byte("input vectors", input_vectors as usize))
            .transpose()?,
        sig_output_vectors: since(1).then_some(vectors),
        num_threads_x: since(2).then_some(threads[0]),
        num_threads_y: since(2).then_some(threads[1]),
        num_threads_z: since(2).then_some(threads[2]),
        entry_name_offset: since(3).then_some(entry_name_offset),
        num_bytes_group_shared_memory: since(4).then_some(group_shared),
    };

    let mut out = Vec::with_capacity(256);
    let u32_to = |out: &mut Vec<u8>, value: u32| out.extend_from_slice(&value.to_le_bytes());
    u32_to(&mut out, RuntimeInfoRecord::size_for(version) as u32);
    info.write_to(&mut out);

    write_resources(resources, since(2), &mut out);
    if version == 0 {
        return Ok(out);
    }

    u32_to(&mut out, strings.len() as u32);
    out.extend_from_slice(&strings);
    u32_to(&mut out, indices.len() as u32);
    for &index in &indices {
        u32_to(&mut out, index);
    }
    if !records.is_empty() {
        u32_to(&mut out, ElementRecord::SIZE as u32);
        for record in &records {
            record.write_to(&mut out);
        }
    }

    write_view_id_tables(
        facts,
        &mut out,
        ViewIdShape {
            kind,
            uses_view_id,
            input_vectors,
            output_vectors,
            patch_vectors,
        },
    )?;
    Ok(out)
}

/// PSV0's resource bindings, in dxc's order (CBVs, samplers, SRVs, UAVs):
/// the count, then the stride and the records when there are any;
/// `v2` writes the version-2 records (with kind and flags).
fn write_resources(resources: &Resources, v2: bool, out: &mut Vec<u8>) {
    let u32_to = |out: &mut Vec<u8>, value: u32| out.extend_from_slice(&value.to_le_bytes());
    let ordered: Vec<&Resource> = resources
        .cbuffers
        .iter()
        .chain(&resources.samplers)
        .chain(&resources.srvs)
        .chain(&resources.uavs)
        .collect();
    u32_to(out, ordered.len() as u32);
    if !ordered.is_empty() {
        let record_version = if v2 { 2 } else { 0 };
        u32_to(out, ResourceRecord::size_for(record_version) as u32);
        for resource in &ordered {
            ResourceRecord {
                resource_type: ResourceType::from_raw(resource_type(resource)),
                space: resource.space,
                lower_bound: resource.lower_bound,
                upper_bound: upper_bound(resource),
                kind: v2.then_some(resource.kind),
                flags: v2.then_some(ResourceFlags(atomic64(resource) as u32)),
            }
            .write_to(out);
        }
    }
}

/// The vector counts that size the ViewID and dependency tables.
struct ViewIdShape {
    kind: ShaderKind,
    uses_view_id: bool,
    input_vectors: u32,
    output_vectors: [u32; 4],
    patch_vectors: u32,
}

/// A table of `dwords` words, its start in the part, and the mask width.
struct Table {
    at: usize,
    dwords: usize,
}

fn append_table(out: &mut Vec<u8>, dwords: u32) -> Table {
    let at = out.len();
    out.resize(at + 4 * dwords as usize, 0);
    Table {
        at,
        dwords: dwords as usize,
    }
}

/// Appends the ViewID masks and input-to-output tables (zero), then fills
/// them from the serialized ViewID state as dxc's
/// `StoreViewIDStateToPSV` does.
fn write_view_id_tables(
    facts: &Facts<'_>,
    out: &mut Vec<u8>,
    shape: ViewIdShape,
) -> Result<(), DeriveError> {
    let kind = shape.kind;
    let gs = kind == ShaderKind::Geometry;
    let streams = if gs { 4 } else { 1 };
    let mut view_masks: [Option<Table>; 4] = Default::default();
    let mut io_tables: [Option<Table>; 4] = Default::default();
    let mut pc_view_mask = None;
    let mut pc_table = None;
    if shape.uses_view_id {
        for (mask, &vectors) in view_masks
            .iter_mut()
            .zip(&shape.output_vectors)
            .take(streams)
        {
            if vectors != 0 {
                *mask = Some(append_table(out, mask_dwords(vectors)));
            }
        }
        if matches!(kind, ShaderKind::Hull | ShaderKind::Mesh) && shape.patch_vectors != 0 {
            pc_view_mask = Some(append_table(out, mask_dwords(shape.patch_vectors)));
        }
    }
    for (table, &vectors) in io_tables
        .iter_mut()
        .zip(&shape.output_vectors)
        .take(streams)
    {
        if kind != ShaderKind::Mesh && vectors > 0 && shape.input_vectors > 0 {
            *table = Some(append_table(
                out,
                mask_dwords(vectors) * shape.input_vectors * 4,
            ));
        }
    }
    if kind == ShaderKind::Hull && shape.patch_vectors > 0 && shape.input_vectors > 0 {
        pc_table = Some(append_table(
            out,
            mask_dwords(shape.patch_vectors) * shape.input_vectors * 4,
        ));
    }
    if kind == ShaderKind::Domain && shape.output_vectors[0] > 0 && shape.patch_vectors > 0 {
        pc_table = Some(append_table(
            out,
            mask_dwords(shape.output_vectors[0]) * shape.patch_vectors * 4,
        ));
    }

    let Some(state) = facts.metadata.view_id_state.as_deref() else {
        return Ok(());
    };
    if state.is_empty() {
        return Ok(());
    }
    let mut reader = StateReader { state, at: 0 };
    let input_scalars = reader.next()?;
    for stream in 0..streams {
        let output_scalars = reader.next()?;
        reader.copy_for_output(
            out,
            input_scalars,
            output_scalars,
            view_masks[stream].as_ref(),
            io_tables[stream].as_ref(),
        )?;
    }
    match kind {
        ShaderKind::Hull | ShaderKind::Mesh => {
            let patch_scalars = reader.next()?;
            reader.copy_for_output(
                out,
                input_scalars,
                patch_scalars,
                pc_view_mask.as_ref(),
                pc_table.as_ref(),
            )?;
        }
        ShaderKind::Domain => {
            let patch_scalars = reader.next()?;
            let output_scalars = state.get(1).copied().unwrap_or(0);
            reader.copy_for_output(out, patch_scalars, output_scalars, None, pc_table.as_ref())?;
        }
        _ => {}
    }
    Ok(())
}

/// Reads the serialized ViewID state word by word.
struct StateReader<'a> {
    state: &'a [u32],
    at: usize,
}

impl StateReader<'_> {
    fn next(&mut self) -> Result<u32, DeriveError> {
        let word = self
            .state
            .get(self.at)
            .copied()
            .ok_or(DeriveError::ViewIdStateShort {
                found: self.state.len(),
            })?;
        self.at += 1;
        Ok(word)
    }

    fn take(&mut self, words: usize) -> Result<&[u32], DeriveError> {
        let end = self
            .at
            .checked_add(words)
            .filter(|&end| end <= self.state.len())
            .ok_or(DeriveError::ViewIdStateShort {
                found: self.state.len(),
            })?;
        let slice = &self.state[self.at..end];
        self.at = end;
        Ok(slice)
    }

    /// dxc's `CopyViewIDStateForOutputToPSV`: the mask, then one row per
    /// input scalar, each as wide as the output mask.
    fn copy_for_output(
        &mut self,
        out: &mut [u8],
        input_scalars: u32,
        output_scalars: u32,
        view_mask: Option<&Table>,
        io_table: Option<&Table>,
    ) -> Result<(), DeriveError> {
        let mask_words = mask_dwords(output_scalars.div_ceil(4)) as usize;
        if let Some(table) = view_mask {
            let words = self.take(mask_words)?;
            write_words(out, table, words);
        }
        if let Some(table) = io_table {
            let words = self.take(mask_words.saturating_mul(input_scalars as usize))?;
            write_words(out, table, words);
        }
        Ok(())
    }
}

/// Copies `words` to the start of `table` (never past its end).
fn write_words(out: &mut [u8], table: &Table, words: &[u32]) {
    for (i, word) in words.iter().take(table.dwords).enumerate() {
        let at = table.at + 4 * i;
        out[at..at + 4].copy_from_slice(&word.to_le_bytes());
    }
}
