//! The hostile modules of `dxcopy_harness::attacks`, each at two sizes,
//! through every reader and printer of untrusted DXIL structure: the
//! bitstream reader, module facts, the module reader, name stripping, the
//! listing (streamed) and reflection. Each stops at the work budget with
//! the error its row names, or finishes; the heap stays within
//! [`HEAP_PER_INPUT_BYTE`] of the input, and work is asserted as counts
//! (the bitstream reader's budget units, the bytes allocated), never as
//! time.

use dxcopy_harness::alloc::{Counting, ThreadCounts, Used};
use dxcopy_harness::attacks::{self, Attack, ATTACKS};
use dxcopy_read::bitcode::{Bitcode, BitcodeError, BitcodeErrorKind};
use dxcopy_read::budget::{FLOOR, PER_INPUT_BYTE};
use dxcopy_read::dxil::facts::ModuleFacts;
use dxcopy_read::dxil::metadata::{DxilMetadata, MetadataError};
use dxcopy_read::dxil::Module;
use dxcopy_read::error::{Limit, ReadErrorKind};
use dxcopy_read::listing::dxil::header::HeaderError;
use dxcopy_read::listing::dxil::ir::AsmError;
use dxcopy_read::listing::dxil::{write_container_listing_to, ListingError, ListingOptions};
use dxcopy_read::{Container, PartName, ReadError, Reflection};

#[global_allocator]
static ALLOCATOR: Counting<ThreadCounts> = Counting(ThreadCounts);

/// The peak heap of any one pass (docs/hardening.md, "Work budget"): the budget's units are
/// bytes kept, a growing vector or string may hold twice what it needs, and
/// a pass may hold what the one before it made.
fn heap_bound(input: usize) -> usize {
    3 * (input as u64 * PER_INPUT_BYTE + FLOOR) as usize
}

/// What every pass did with one input.
#[derive(Debug)]
struct Outcome {
    module: Result<(), BitcodeError>,
    facts: Result<(), BitcodeError>,
    strip: Result<(), String>,
    metadata: Option<Result<(), MetadataError>>,
    listing: Result<usize, ListingError>,
    reflection: Result<(), ReadError>,
    /// Budget units the bitstream reader spent walking the stream, and its
    /// limit.
    walk_units: u64,
    walk_limit: u64,
    /// The most any pass used.
    used: Used,
    /// The module.
    bitcode: Vec<u8>,
}

fn max(a: Used, b: Used) -> Used {
    Used {
        peak: a.peak.max(b.peak),
        total: a.total.max(b.total),
    }
}

fn run(bitcode: &[u8]) -> Outcome {
    let expected_limit = bitcode.len() as u64 * PER_INPUT_BYTE + FLOOR;
    let bytes = attacks::container(bitcode);
    let container = Container::parse(&bytes).expect("a container");
    let mut used = Used { peak: 0, total: 0 };
    let mut walk_units = 0;
    let mut walk_limit = 0;
    let mut measure = |f: &mut dyn FnMut()| {
        let u = ThreadCounts::measure(f);
        if std::env::var_os("HOSTILE_DEBUG").is_some() {
            eprintln!("pass: {u:?}");
        }
        used = max(used, u)
    };
    measure(&mut || {
        let mut reader = Bitcode::parse(bitcode).unwrap().reader();
        while let Ok(Some(_)) = reader.next_entry() {}
        walk_units = reader.budget().used();
        walk_limit = reader.budget().limit();
    });
    let mut module = Ok(());
    let mut metadata = None;
    measure(&mut || match Module::parse(bitcode) {
        Ok(m) => metadata = Some(DxilMetadata::read(&m).map(drop)),
        Err(e) => module = Err(e),
    });
    let mut facts = Ok(());
    measure(&mut || facts = ModuleFacts::decode(bitcode).map(drop));
    let mut strip = Ok(());
    measure(&mut || {
        strip = dxcopy_edit::bitcode::strip_names(bitcode)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    let mut listing = Ok(0);
    measure(&mut || {
        let mut sink = dxcopy_harness::CountingSink(0);
        listing = write_container_listing_to(&container, &ListingOptions::default(), &mut sink)
            .expect("a counting sink takes every write")
            .map(|()| sink.0);
    });
    let mut reflection = Ok(());
    measure(&mut || reflection = Reflection::from_container(&container).map(drop));
    assert_eq!(walk_limit, expected_limit);
    Outcome {
        module,
        facts,
        strip,
        metadata,
        listing,
        reflection,
        walk_units,
        walk_limit,
        used,
        bitcode: bitcode.to_vec(),
    }
}

/// Where `attacks::container` puts the DXIL part's bitcode: after the
/// header (32 bytes), one part offset (4), the part header (8) and the
/// program header (24).
const DXIL_BITCODE_OFFSET: u64 = 32 + 4 + 8 + 24;

/// The bit offsets of the module-level METADATA records that define an
/// ID (string, value, node, distinct node: what the generators write), in
/// ID order, found by walking the bitstream.
fn metadata_definitions(bitcode: &[u8]) -> Vec<u64> {
    use dxcopy_read::bitcode::Entry;
    const METADATA_BLOCK: u32 = 15;
    let mut reader = Bitcode::parse(bitcode).unwrap().reader();
    let mut at = Vec::new();
    while let Ok(Some(entry)) = reader.next_entry() {
        if let Entry::Record(r) = entry {
            if r.block_id == METADATA_BLOCK && matches!(r.code, 1 | 2 | 3 | 5) {
                at.push(r.bit_offset);
            }
        }
    }
    at
}

/// The listing stopped at the `dx.*` metadata budget, with the node, the
/// module's part, the file offset of its bitcode and the bit offset of
/// the node's record in the error.
fn assert_header_over_budget_in_dxil(o: &Outcome) {
    let listing = &o.listing;
    let Err(
        e @ ListingError::Header {
            part,
            offset,
            record,
            source: HeaderError::Metadata(MetadataError::OverBudget { id, .. }),
        },
    ) = listing
    else {
        panic!("{listing:?}")
    };
    assert_eq!((*part, *offset), (PartName::DXIL, DXIL_BITCODE_OFFSET));
    let bit = metadata_definitions(&o.bitcode)[id.0 as usize];
    assert_eq!(*record, Some(bit));
    let text = e.to_string();
    assert!(
        text.starts_with(&format!(
            "DXIL module (bitcode at offset 0x44), metadata record at bit {bit}: \
             module metadata: metadata !{}: ",
            id.0
        )),
        "{text}"
    );
}

fn attack(name: &str) -> &'static Attack {
    ATTACKS.iter().find(|a| a.name == name).expect("an attack")
}

/// Runs `name` at both its scales; checks the heap bound and the
/// outcome's kinds with `check`.
fn at_both_sizes(name: &str, check: impl Fn(&Outcome, usize)) -> [(usize, Outcome); 2] {
    attack(name).scales.map(|scale| {
        let bitcode = (attack(name).build)(scale);
        let outcome = run(&bitcode);
        let len = attacks::container(&bitcode).len();
        assert!(
            outcome.used.peak <= heap_bound(len),
            "{name} at {scale} ({len} bytes): peak heap {}",
            outcome.used.peak
        );
        check(&outcome, len);
        (len, outcome)
    })
}

fn is_over_budget(e: &BitcodeError) -> bool {
    matches!(e.kind, BitcodeErrorKind::OverBudget(_))
}

fn is_work_limit(e: &ReadError) -> bool {
    matches!(e.kind, ReadErrorKind::LimitExceeded { .. })
        && matches!(e.kind.detail(), Some(Limit::WorkBudget { .. }))
}

#[test]
fn literal_heavy_abbreviations_stop_at_the_budget_everywhere() {
    at_both_sizes("literal-abbrev", |o, len| {
        let e = o.module.as_ref().unwrap_err();
        assert!(is_over_budget(e), "{e}");
        // The error is at a record inside the stream, not at its start.
        assert!(e.bit_offset > 64 && e.bit_offset < 8 * len as u64);
        assert!(is_over_budget(o.facts.as_ref().unwrap_err()));
        assert!(o.strip.as_ref().unwrap_err().contains("work budget"));
        assert!(matches!(o.listing, Err(ListingError::Module { .. })));
        assert!(is_work_limit(o.reflection.as_ref().unwrap_err()));
        // The walk stops just past the budget (one record of 1,001 fields
        // at 8 units each): work is bounded by the input.
        assert!(o.walk_units > o.walk_limit && o.walk_units <= o.walk_limit + 8_008);
    });
}

#[test]
fn blockinfo_abbreviations_copied_into_many_blocks_are_paid_for() {
    let [(small, a), (large, b)] = at_both_sizes("blockinfo-reuse", |o, _| {
        assert!(is_over_budget(o.module.as_ref().unwrap_err()));
        assert!(is_over_budget(o.facts.as_ref().unwrap_err()));
        assert!(o.strip.as_ref().unwrap_err().contains("work budget"));
    });
    // Each block costs a copy of the 1,000 abbreviations: the walk stops
    // at the budget, which grows with the input and no faster.
    assert!(large > 3 * small);
    for o in [a, b] {
        assert!(o.walk_units > o.walk_limit && o.walk_units <= o.walk_limit + 8_008);
    }
}

#[test]
fn a_wide_node_reached_many_times_is_walked_once() {
    let [(small, a), (large, b)] = at_both_sizes("wide-metadata", |o, _| {
        assert_eq!(o.module, Ok(()));
        assert!(matches!(o.metadata, Some(Ok(()))), "{:?}", o.metadata);
        let printed = *o.listing.as_ref().expect("a listing");
        assert!(printed > 0);
    });
    // Four times the operands: about four times the bytes allocated (a
    // node copied per reference made it sixteen).
    assert!(large > 3 * small);
    assert!(
        b.used.total < 8 * a.used.total,
        "{} then {} bytes allocated",
        a.used.total,
        b.used.total
    );
}

#[test]
fn entry_points_sharing_signatures_stop_at_the_metadata_budget() {
    at_both_sizes("entry-signature-dag", |o, _| {
        assert_eq!(o.module, Ok(()));
        let Some(Err(MetadataError::OverBudget { .. })) = &o.metadata else {
            panic!("{:?}", o.metadata)
        };
        assert_header_over_budget_in_dxil(o);
        assert!(is_work_limit(o.reflection.as_ref().unwrap_err()));
    });
}

#[test]
fn a_fan_of_entry_references_stops_at_the_metadata_budget() {
    at_both_sizes("entry-fan", |o, _| {
        assert_eq!(o.module, Ok(()));
        assert!(
            matches!(&o.metadata, Some(Err(MetadataError::OverBudget { .. }))),
            "{:?}",
            o.metadata
        );
        assert_header_over_budget_in_dxil(o);
        assert!(is_work_limit(o.reflection.as_ref().unwrap_err()));
    });
}

#[test]
fn a_cbuffer_struct_dag_stops_reflection_at_the_budget() {
    at_both_sizes("cbuffer-struct-dag", |o, _| {
        assert_eq!(o.module, Ok(()));
        assert!(matches!(o.metadata, Some(Ok(()))), "{:?}", o.metadata);
        let e = o.reflection.as_ref().unwrap_err();
        assert!(is_work_limit(e), "{e}");
        assert!(e.to_string().contains("struct types"), "{e}");
    });
}

#[test]
fn struct_nesting_past_the_tables_limit_is_an_error_not_a_shorter_table() {
    use dxcopy_read::error::Limit;
    use dxcopy_read::listing::dxil::header::module::{BufferTablesError, MAX_NESTING};
    at_both_sizes("cbuffer-struct-chain", |o, _| {
        assert_eq!(o.module, Ok(()));
        assert!(matches!(o.metadata, Some(Ok(()))), "{:?}", o.metadata);
        // The listing's buffer definitions: an error with the part.
        let Err(
            e @ ListingError::Header {
                part,
                offset,
                record: None,
                source: HeaderError::BufferTables(BufferTablesError::TooDeep { limit }),
            },
        ) = &o.listing
        else {
            panic!("{:?}", o.listing)
        };
        assert_eq!(
            (*part, *offset, *limit),
            (PartName::DXIL, DXIL_BITCODE_OFFSET, MAX_NESTING)
        );
        assert!(e.to_string().contains("nest deeper than 32 levels"), "{e}");
        // Reflection: a read error naming the part and the offset.
        let e = o.reflection.as_ref().unwrap_err();
        assert_eq!(e.offset, DXIL_BITCODE_OFFSET, "{e}");
        let ReadErrorKind::LimitExceeded {
            part: Some(part), ..
        } = &e.kind
        else {
            panic!("{e}")
        };
        assert_eq!(
            e.kind.detail(),
            Some(&Limit::ConstantBufferTypeDepth { limit: 32 })
        );
        assert_eq!(part.name, PartName::DXIL);
    });
    // Within the limit the same shape lists and reflects, every level
    // printed (one `struct` line per level).
    let bitcode = attacks::cbuffer_struct_chain(20);
    let o = run(&bitcode);
    let printed = *o.listing.as_ref().expect("a listing");
    assert!(printed > 0);
    let bytes = attacks::container(&bitcode);
    let container = Container::parse(&bytes).unwrap();
    let text =
        dxcopy_read::listing::dxil::container_listing(&container, &Default::default()).unwrap();
    // One struct line per level: S19 (the variable) down to S0.
    assert_eq!(text.matches("struct ").count(), 20, "{text}");
    let reflection = Reflection::from_container(&container).unwrap();
    // The cbuffer's variable is S19's one member, S18: 19 levels of
    // members below it down to the float.
    let mut depth = 0;
    let mut ty = &reflection.constant_buffers[0].variables[0].var_type;
    while let Some(member) = ty.members.first() {
        ty = &member.member_type;
        depth += 1;
    }
    assert_eq!(depth, 19);
}

#[test]
fn nesting_past_the_limit_is_an_error_not_a_stand_in() {
    for name in ["constant-chain", "array-type-chain"] {
        at_both_sizes(name, |o, _| {
            assert_eq!(o.module, Ok(()), "{name}");
            let Err(
                e @ ListingError::TooLarge {
                    part,
                    offset,
                    source: AsmError::TooDeep { limit, .. },
                },
            ) = &o.listing
            else {
                panic!("{name}: {:?}", o.listing)
            };
            assert_eq!(*limit, dxcopy_read::budget::MAX_NESTING);
            // Named with the module's part and where its bitcode starts
            // in the file.
            assert_eq!((*part, *offset), (PartName::DXIL, DXIL_BITCODE_OFFSET));
            assert!(
                e.to_string()
                    .starts_with("DXIL module (bitcode at offset 0x44): the module's"),
                "{e}"
            );
        });
    }
}

#[test]
fn a_constant_that_contains_itself_does_not_read() {
    at_both_sizes("self-constant", |o, _| {
        let e = o.module.as_ref().unwrap_err();
        let BitcodeErrorKind::InvalidRecord { reason, .. } = &e.kind else {
            panic!("{e}")
        };
        assert!(reason.contains("contains itself"), "{e}");
        assert!(matches!(o.listing, Err(ListingError::Module { .. })));
    });
    // --verify reads the module too: the facts read, the module does not.
    let bytes = attacks::container(&(attack("self-constant").build)(1));
    let inspection = dxcopy_read::info::Inspection::parse(&bytes).unwrap();
    let verification = dxcopy_read::info::verify::verify(&inspection);
    let errors: Vec<String> = verification
        .checks
        .iter()
        .filter(|f| f.severity() == dxcopy_read::finding::Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("contains itself"), "{errors:?}");
    assert!(!verification.is_clean());
}

#[test]
fn every_attack_runs_through_the_harness_without_a_violation() {
    for a in ATTACKS {
        let bitcode = (a.build)(a.scales[0]);
        dxcopy_harness::bitcode_input(&bitcode).unwrap_or_else(|v| panic!("{}: {v}", a.name));
        dxcopy_harness::exercise(&attacks::container(&bitcode))
            .unwrap_or_else(|v| panic!("{}: {v}", a.name));
    }
}

/// The write side on every hostile module the reader takes: the module
/// writer, the renumbering and the derived parts work on the model the
/// reader built within its budget, each node written once however often it
/// is shared, so their heap stays within the same bound of the input and
/// all they allocate within a few times it. A module the reader refuses
/// (a bomb past the budget) never reaches them.
#[test]
fn the_writer_and_the_derived_parts_stay_within_the_input_s_bound() {
    let mut written = 0;
    for a in ATTACKS {
        for scale in a.scales {
            let bitcode = (a.build)(scale);
            let len = attacks::container(&bitcode).len();
            let Ok(module) = Module::parse(&bitcode) else {
                continue;
            };
            let mut outcome = String::new();
            let used = ThreadCounts::measure(&mut || {
                match dxcopy_edit::bitcode::write_module(&module) {
                    Ok(bytes) => outcome.push_str(&format!("written {} bytes; ", bytes.len())),
                    Err(e) => outcome.push_str(&format!("not written: {e}; ")),
                }
                let mut again = module.clone();
                if let Err(e) = dxcopy_edit::bitcode::renumber(&mut again) {
                    outcome.push_str(&format!("not renumbered: {e}; "));
                }
                if let Err(e) = dxcopy_read::dxil::derived::derive_parts(&module) {
                    outcome.push_str(&format!("not derived: {e}"));
                }
            });
            if std::env::var_os("HOSTILE_DEBUG").is_some() {
                eprintln!("{} at {scale} ({len} bytes): {used:?} {outcome}", a.name);
            }
            assert!(
                used.peak <= heap_bound(len),
                "{} at {scale} ({len} bytes): peak heap {} ({outcome})",
                a.name,
                used.peak
            );
            assert!(
                used.total <= 4 * heap_bound(len),
                "{} at {scale} ({len} bytes): allocated {} ({outcome})",
                a.name,
                used.total
            );
            written += 1;
        }
    }
    assert!(written > 0, "no hostile module reached the writer");
}
