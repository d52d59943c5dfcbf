//! The work budget every decoder and printer of untrusted structure spends
//! (docs/hardening.md, "Work budget").
//!
//! Bitcode, metadata and type tables are graphs: a record can be re-used
//! through an abbreviation, a node or a type can be referred to from many
//! places. Reading or printing such a graph as a tree does work in
//! proportion to the nodes *expanded*, which a small hostile file can make
//! exponential. Each pass over untrusted structure therefore takes a
//! [`Budget`] sized from its input ([`Budget::for_input`]: [`PER_INPUT_BYTE`]
//! units per byte plus [`FLOOR`]) and spends one unit per field walked,
//! operand or member expanded, or byte of structure produced; past it the
//! pass stops with an error naming where it was. One unit stands for at
//! most one byte of memory kept, so a pass holds at most a constant multiple
//! of its input: real modules spend a few units per input byte.
//!
//! ```
//! use dxcopy_read::budget::{Budget, FLOOR, PER_INPUT_BYTE};
//! let budget = Budget::for_input(100);
//! assert_eq!(budget.limit(), 100 * PER_INPUT_BYTE + FLOOR);
//! assert!(budget.spend(FLOOR).is_ok());
//! assert!(budget.spend(100 * PER_INPUT_BYTE + 1).is_err());
//! assert!(budget.spend(1).is_err(), "a spent budget stays spent");
//! ```

use std::cell::Cell;

/// Work units a pass may spend per byte of its input.
pub const PER_INPUT_BYTE: u64 = 256;
/// Work units every pass may spend whatever its input's size (what a tiny
/// input needs for the fixed parts of a listing or a reflection).
pub const FLOOR: u64 = 1 << 22;
/// Work units a pass over a model already decoded from the input (and paid
/// for there) may spend per byte the model stores: reading a metadata graph
/// as a tree, say. Small, because the model itself is up to
/// [`PER_INPUT_BYTE`] times its input.
pub const PER_STORED_BYTE: u64 = 16;
/// Deepest nesting any decoder or printer follows (types inside types,
/// constant expressions inside constant expressions, struct members): past
/// it a pass stops with an error rather than recurse further.
pub const MAX_NESTING: usize = 256;

/// A work budget: shared by reference among the parts of one pass (it
/// counts through a [`Cell`]).
#[derive(Debug, Clone)]
pub struct Budget {
    limit: u64,
    used: Cell<u64>,
}

/// The budget ran out: the pass did more than [`Budget::limit`] units of
/// work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the input expands past its work budget of {limit} units (shared or re-used structure)")]
pub struct OverBudget {
    /// The budget's limit.
    pub limit: u64,
}

impl Budget {
    /// The budget for a pass over `input_len` bytes.
    pub fn for_input(input_len: usize) -> Budget {
        Budget::with_limit((input_len as u64).saturating_mul(PER_INPUT_BYTE) + FLOOR)
    }

    /// The budget for a pass over a decoded model that stores
    /// `stored_bytes` ([`PER_STORED_BYTE`]).
    pub fn for_stored(stored_bytes: usize) -> Budget {
        Budget::with_limit((stored_bytes as u64).saturating_mul(PER_STORED_BYTE) + FLOOR)
    }

    /// A budget of exactly `limit` units (tests, and callers that add
    /// several inputs).
    pub fn with_limit(limit: u64) -> Budget {
        Budget {
            limit,
            used: Cell::new(0),
        }
    }

    /// The limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Units spent so far (the work count tests assert on).
    pub fn used(&self) -> u64 {
        self.used.get()
    }

    /// Spends `units`; an error once more than the limit has been spent
    /// (and at every call after that).
    #[inline]
    pub fn spend(&self, units: u64) -> Result<(), OverBudget> {
        let used = self.used.get().saturating_add(units);
        self.used.set(used);
        if used > self.limit {
            Err(OverBudget { limit: self.limit })
        } else {
            Ok(())
        }
    }

    /// Whether more than the limit has been spent.
    pub fn is_spent(&self) -> bool {
        self.used.get() > self.limit
    }

    /// Spends the bytes a value of type `T` holds (a decoded struct kept in
    /// the result).
    #[inline]
    pub fn spend_size_of<T>(&self) -> Result<(), OverBudget> {
        self.spend(std::mem::size_of::<T>() as u64)
    }
}
