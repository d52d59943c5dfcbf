//! A work-graph node's properties: the entry property tags 13–22 of a node
//! shader (`dx.entryPoints`), read as dxc's `DxilMDHelper` loads them into
//! `DxilFunctionProps::Node` and the node input/output lists
//! (`LoadDxilNodeIOState`, `LoadDxilNodeRecordType`).

use super::read::{int, node, required, string_at, tag_values, uint, uint_at, Md};
use super::{EntryProperties, Result};
use crate::budget::Budget;
use crate::dxil::model::{MetadataId, Module};

/// A node's name and array index (`NodeID`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeId {
    /// The node name (empty: none given).
    pub name: Vec<u8>,
    /// The array index.
    pub index: u32,
}

/// The record a node input or output carries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeRecordType {
    /// Record size in bytes (tag 0).
    pub size: u32,
    /// `SV_DispatchGrid` (tag 1): byte offset, component type (0: none),
    /// component count.
    pub dispatch_grid: (u32, u32, u32),
    /// Record alignment in bytes (tag 2; 0: not given).
    pub alignment: u32,
}

/// One node input or output (`NodeIOProperties`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeIo {
    /// `NodeIOFlags` with the node I/O kind (tag 1).
    pub flags: u32,
    /// The record (tag 2).
    pub record: NodeRecordType,
    /// The output's node (tag 0).
    pub output_id: NodeId,
    /// `MaxRecords` (tag 3; 0: not given).
    pub max_records: u32,
    /// `MaxRecordsSharedWith` (tag 4; -1: not given).
    pub max_records_shared_with: i32,
    /// The output array size (tag 5).
    pub output_array_size: u32,
    /// `AllowSparseNodes` (tag 6).
    pub allow_sparse_nodes: bool,
}

/// NodeIOFlags: an input.
pub const NODE_IO_INPUT: u32 = 0x1;
/// NodeIOFlags: an output.
pub const NODE_IO_OUTPUT: u32 = 0x2;
/// NodeIOFlags: the record granularity bits.
pub const NODE_IO_RECORD_GRANULARITY: u32 = 0x60;

impl NodeIo {
    /// An output node (not an output record).
    pub fn is_output_node(&self) -> bool {
        self.flags & NODE_IO_OUTPUT != 0 && self.flags & NODE_IO_RECORD_GRANULARITY == 0
    }

    /// An input record.
    pub fn is_input_record(&self) -> bool {
        self.flags & NODE_IO_INPUT != 0
    }
}

/// A node shader's properties (tags 13–22 of its entry record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeProperties {
    /// `NodeLaunchType` (tag 13).
    pub launch_type: u32,
    /// The node is a program entry (tag 14).
    pub is_program_entry: bool,
    /// The node's own ID (tag 15).
    pub id: NodeId,
    /// The local root arguments table index (tag 16; -1: none).
    pub local_root_arguments_table_index: i32,
    /// The node whose input this one shares (tag 17).
    pub share_input_of: NodeId,
    /// The fixed dispatch grid (tag 18).
    pub dispatch_grid: [u32; 3],
    /// The maximum recursion depth (tag 19).
    pub max_recursion_depth: u32,
    /// The maximum dispatch grid (tag 22).
    pub max_dispatch_grid: [u32; 3],
    /// Input nodes (tag 20).
    pub inputs: Vec<NodeIo>,
    /// Output nodes (tag 21).
    pub outputs: Vec<NodeIo>,
}

const WHAT: &str = "node properties";

/// The node properties of an entry (`None` when it has none of tags
/// 13–22).
pub fn node_properties(
    module: &Module,
    properties: &EntryProperties,
) -> Result<Option<NodeProperties>> {
    let budget = Budget::for_stored(super::stored_size(module));
    let module = &Md {
        module,
        budget: &budget,
    };
    let mut props = NodeProperties {
        launch_type: 0,
        is_program_entry: false,
        id: NodeId::default(),
        local_root_arguments_table_index: -1,
        share_input_of: NodeId::default(),
        dispatch_grid: [0; 3],
        max_recursion_depth: 0,
        max_dispatch_grid: [0; 3],
        inputs: Vec::new(),
        outputs: Vec::new(),
    };
    let mut any = false;
    for &(tag, value) in &properties.other {
        let Some(value) = value else { continue };
        any |= (13..=22).contains(&tag);
        match tag {
            13 => props.launch_type = uint(module, value, WHAT)?,
            14 => props.is_program_entry = int(module, value, WHAT)? != 0,
            15 => props.id = node_id(module, value)?,
            16 => props.local_root_arguments_table_index = uint(module, value, WHAT)? as i32,
            17 => props.share_input_of = node_id(module, value)?,
            18 => props.dispatch_grid = three(module, value)?,
            19 => props.max_recursion_depth = uint(module, value, WHAT)?,
            20 | 21 => {
                let list = node(module, value, WHAT)?;
                let mut nodes = Vec::with_capacity(list.len().min(1024));
                for (index, io) in list.iter().enumerate() {
                    let io =
                        io.ok_or(super::MetadataError::MissingOperand { what: WHAT, index })?;
                    nodes.push(node_io(module, io)?);
                }
                if tag == 20 {
                    props.inputs = nodes;
                } else {
                    props.outputs = nodes;
                }
            }
            22 => props.max_dispatch_grid = three(module, value)?,
            _ => {}
        }
    }
    Ok(any.then_some(props))
}

fn three(module: &Md<'_>, id: MetadataId) -> Result<[u32; 3]> {
    let ops = node(module, id, WHAT)?;
    Ok([
        uint_at(module, ops, 0, WHAT)?,
        uint_at(module, ops, 1, WHAT)?,
        uint_at(module, ops, 2, WHAT)?,
    ])
}

fn node_id(module: &Md<'_>, id: MetadataId) -> Result<NodeId> {
    let ops = node(module, id, WHAT)?;
    Ok(NodeId {
        name: string_at(module, ops, 0, WHAT)?,
        index: uint_at(module, ops, 1, WHAT)?,
    })
}

fn node_io(module: &Md<'_>, id: MetadataId) -> Result<NodeIo> {
    let mut io = NodeIo {
        flags: 0,
        record: NodeRecordType::default(),
        output_id: NodeId::default(),
        max_records: 0,
        max_records_shared_with: -1,
        output_array_size: 0,
        allow_sparse_nodes: false,
    };
    for (tag, value) in tag_values(module, Some(id), WHAT)? {
        let value = value.ok_or(super::MetadataError::MissingOperand {
            what: WHAT,
            index: 1,
        })?;
        match tag {
            0 => io.output_id = node_id(module, value)?,
            1 => io.flags = uint(module, value, WHAT)?,
            2 => {
                for (tag, value) in tag_values(module, Some(value), WHAT)? {
                    let value = value.ok_or(super::MetadataError::MissingOperand {
                        what: WHAT,
                        index: 1,
                    })?;
                    match tag {
                        0 => io.record.size = uint(module, value, WHAT)?,
                        1 => {
                            let ops = node(module, value, WHAT)?;
                            io.record.dispatch_grid = (
                                uint(module, required(ops, 0, WHAT)?, WHAT)?,
                                uint(module, required(ops, 1, WHAT)?, WHAT)?,
                                uint(module, required(ops, 2, WHAT)?, WHAT)?,
                            );
                        }
                        2 => io.record.alignment = uint(module, value, WHAT)?,
                        _ => {}
                    }
                }
            }
            3 => io.max_records = uint(module, value, WHAT)?,
            4 => io.max_records_shared_with = uint(module, value, WHAT)? as i32,
            5 => io.output_array_size = uint(module, value, WHAT)?,
            6 => io.allow_sparse_nodes = int(module, value, WHAT)? != 0,
            _ => {}
        }
    }
    Ok(io)
}
