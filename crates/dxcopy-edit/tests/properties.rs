//! Property tests for the layout engine and the digest / HASH upkeep.
//!
//! Each property is checked against a plain model (a list of names and
//! bytes) rather than against the code's own output.

use dxcopy_edit::{DigestPolicy, EditPlan, HashPolicy, NameMatcher, StripClass};
use dxcopy_read::digest::{self, DigestHasher, Variant};
use dxcopy_read::hash::{md5_of, HashStatus, ShaderHash};
use dxcopy_read::program::build_program_data;
use dxcopy_read::ShaderKind;
use dxcopy_read::{Container, DigestKind, FindingKind, PartName, Program};
use proptest::prelude::*;

/// A small alphabet so that removals, duplicates and PRIV come up often.
const NAMES: [&[u8; 4]; 8] = [
    b"DXIL", b"ILDB", b"STAT", b"SFI0", b"PSV0", b"RTS0", b"FKE0", b"PRIV",
];

fn part() -> impl Strategy<Value = (PartName, Vec<u8>)> {
    (
        0..NAMES.len(),
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(i, data)| (PartName(*NAMES[i]), data))
}

/// Parts with at most one PRIV, anywhere.
fn parts() -> impl Strategy<Value = Vec<(PartName, Vec<u8>)>> {
    proptest::collection::vec(part(), 0..10).prop_map(|mut v| {
        let mut seen = false;
        v.retain(|(n, _)| {
            let is_priv = *n == PartName::PRIV;
            let keep = !(is_priv && seen);
            seen |= is_priv;
            keep
        });
        v
    })
}

fn raw_plan(parts: &[(PartName, Vec<u8>)]) -> EditPlan<'static> {
    let mut plan = EditPlan::new();
    plan.hash_policy = HashPolicy::Keep;
    for (n, d) in parts {
        plan.add_raw(*n, d.clone());
    }
    plan
}

/// The model of the layout: PRIV moved last, everything else in order.
fn model_order(parts: &[(PartName, Vec<u8>)]) -> Vec<(PartName, Vec<u8>)> {
    let (mut rest, privs): (Vec<_>, Vec<_>) = parts
        .iter()
        .cloned()
        .partition(|(n, _)| *n != PartName::PRIV);
    rest.extend(privs);
    rest
}

fn read_back(bytes: &[u8]) -> Vec<(PartName, Vec<u8>)> {
    Container::parse(bytes)
        .unwrap()
        .parts()
        .map(|p| (p.name, p.data.to_vec()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Offsets follow the table, each placed part at the next 4-byte
    /// boundary after zero padding, FileSize is the length, the parts are the
    /// model's, PRIV is last, no gap is reported, and re-writing is
    /// byte-identical (the padding is kept).
    #[test]
    fn layout_is_contiguous_and_true(parts in parts()) {
        let out = raw_plan(&parts).finish().unwrap();
        let bytes = out.to_vec();
        let c = Container::parse(&bytes).unwrap();
        prop_assert_eq!(u64::from(c.header().file_size), bytes.len() as u64);
        prop_assert_eq!(c.part_count() as usize, parts.len());
        let mut next = 32 + 4 * parts.len() as u64;
        for (p, &o) in c.parts().zip(out.part_offsets()) {
            let aligned = next.next_multiple_of(4);
            prop_assert!(bytes[next as usize..aligned as usize].iter().all(|&b| b == 0));
            next = aligned;
            prop_assert_eq!(p.offset, next);
            prop_assert_eq!(u64::from(o), next);
            next += 8 + p.data.len() as u64;
        }
        prop_assert!(c.is_contiguous());
        let gaps = c
            .check()
            .iter()
            .filter(|f| matches!(f.kind, FindingKind::Gap { .. }))
            .count();
        prop_assert_eq!(gaps, 0);
        prop_assert_eq!(next, bytes.len() as u64);
        prop_assert_eq!(read_back(&bytes), model_order(&parts));
        let again = EditPlan::from_container(&c).finish().unwrap().to_vec();
        prop_assert_eq!(again, bytes);
    }

    /// `add` pads non-PRIV data with zeros to 4 and keeps PRIV exact and last.
    #[test]
    fn added_parts_are_padded_priv_is_exact(
        base in parts(),
        name in 0..NAMES.len(),
        data in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        let base_bytes = raw_plan(&base).finish().unwrap().to_vec();
        let c = Container::parse(&base_bytes).unwrap();
        let mut plan = EditPlan::from_container(&c);
        let name = PartName(*NAMES[name]);
        let exists = base.iter().any(|(n, _)| *n == name);
        let r = plan.add(name, data.clone());
        prop_assert_eq!(r.is_err(), exists);
        let bytes = plan.finish().unwrap().to_vec();
        let got = read_back(&bytes);
        if !exists {
            let (_, written) = got.iter().find(|(n, _)| *n == name).unwrap();
            if name == PartName::PRIV {
                prop_assert_eq!(written, &data);
                prop_assert_eq!(got.last().map(|(n, _)| *n), Some(PartName::PRIV));
            } else {
                prop_assert_eq!(written.len(), data.len().div_ceil(4) * 4);
                prop_assert_eq!(&written[..data.len()], &data[..]);
                prop_assert!(written[data.len()..].iter().all(|&b| b == 0));
            }
        }
        // Input parts are carried over byte for byte.
        for (n, d) in model_order(&base) {
            prop_assert!(got.contains(&(n, d)));
        }
    }

    /// remove / only / keep / strip give the model's filtered list, in order.
    #[test]
    fn removal_matches_model(
        base in parts(),
        remove in 0..NAMES.len(),
        keep in 0..NAMES.len(),
        only in any::<bool>(),
        strip in any::<bool>(),
    ) {
        let base_bytes = raw_plan(&base).finish().unwrap().to_vec();
        let c = Container::parse(&base_bytes).unwrap();
        let mut plan = EditPlan::from_container(&c);
        let (remove, keep) = (PartName(*NAMES[remove]), PartName(*NAMES[keep]));
        plan.keep(&NameMatcher::exact(keep));
        if only {
            plan.only(&NameMatcher::exact(remove));
        } else {
            plan.remove(&NameMatcher::exact(remove));
        }
        if strip {
            plan.strip(StripClass::Debug);
        }
        let bytes = plan.finish().unwrap().to_vec();
        let model: Vec<_> = model_order(&base)
            .into_iter()
            .filter(|(n, _)| {
                let by_match = if only { *n != remove } else { *n == remove };
                let by_strip = strip && StripClass::Debug.covers(n);
                *n == keep || !(by_match || by_strip)
            })
            .collect();
        prop_assert_eq!(read_back(&bytes), model);
    }

    /// The streaming digest equals the one-shot digest however it is fed.
    #[test]
    fn digest_streaming_equals_one_shot(
        data in proptest::collection::vec(any::<u8>(), 0..300),
        cuts in proptest::collection::vec(0usize..300, 0..6),
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (data.len() + 1)).collect();
        cuts.sort_unstable();
        let mut h = DigestHasher::new();
        let mut at = 0;
        for c in cuts.into_iter().chain([data.len()]) {
            h.update(&data[at..c]);
            at = c;
        }
        prop_assert_eq!(h.finish(Variant::Retail), digest::retail(&data));
        prop_assert_eq!(h.finish(Variant::Debug), digest::debug(&data));
    }

    /// Whatever the edit, the digest policy decides the output's digest kind,
    /// and a computed digest verifies.
    #[test]
    fn digest_policy_is_honoured(
        base in parts(),
        input_policy in 0..5usize,
        output_policy in 0..7usize,
        private in proptest::collection::vec(any::<u8>(), 0..9),
    ) {
        let input_kinds = [
            (DigestPolicy::Retail, DigestKind::Retail),
            (DigestPolicy::Debug, DigestKind::Debug),
            (DigestPolicy::Zero, DigestKind::Zero),
            (DigestPolicy::Bypass, DigestKind::Bypass),
            (DigestPolicy::Preview, DigestKind::Preview),
        ];
        let (in_policy, in_kind) = input_kinds[input_policy];
        let mut plan = raw_plan(&base);
        plan.digest_policy = in_policy;
        let input = plan.finish().unwrap().to_vec();
        prop_assert_eq!(digest::classify(&input), in_kind);
        let c = Container::parse(&input).unwrap();
        let mut plan = EditPlan::from_container(&c);
        plan.set_private(private);
        let policies = DigestPolicy::ALL;
        plan.digest_policy = policies[output_policy];
        let out = plan.finish().unwrap();
        let bytes = out.to_vec();
        let got = digest::classify(&bytes);
        let want = match plan_policy(policies[output_policy]) {
            Some(k) => k,
            None if policies[output_policy] == DigestPolicy::Auto => in_kind,
            None => {
                // Keep: the input's bytes, whatever they verify as now.
                prop_assert_eq!(&bytes[4..20], &input[4..20]);
                return Ok(());
            }
        };
        prop_assert_eq!(got, want);
        prop_assert_eq!(out.digest_kind(), want);
    }

    /// HASH upkeep: a valid HASH follows new DXIL bitcode (auto), a stale one
    /// is left alone (auto), `keep` never touches it, `update` always makes it
    /// valid, and removing other parts never changes it.
    #[test]
    fn hash_upkeep(
        old_bc in proptest::collection::vec(any::<u8>(), 0..64),
        new_bc in proptest::collection::vec(any::<u8>(), 0..64),
        stale in any::<bool>(),
        policy in 0..3usize,
        remove_stat in any::<bool>(),
    ) {
        let mut old_bitcode = b"BC\xc0\xde".to_vec();
        old_bitcode.extend(&old_bc);
        let mut new_bitcode = b"BC\xc0\xde".to_vec();
        new_bitcode.extend(&new_bc);
        let dxil = build_program_data(6, 0, ShaderKind::Pixel, 1, 0, &old_bitcode);
        let mut hash = ShaderHash { flags: 0, digest: md5_of(&old_bitcode) };
        if stale {
            hash.digest[0] ^= 0xff;
        }
        let mut plan = EditPlan::new();
        plan.hash_policy = HashPolicy::Keep;
        plan.add_raw(PartName::HASH, hash.to_bytes().to_vec());
        plan.add_raw(PartName::DXIL, dxil);
        plan.add_raw(PartName::STAT, b"stat".to_vec());
        let input = plan.finish().unwrap().to_vec();
        let c = Container::parse(&input).unwrap();

        let policy = [HashPolicy::Auto, HashPolicy::Keep, HashPolicy::Update][policy];
        let mut plan = EditPlan::from_container(&c);
        plan.hash_policy = policy;
        if remove_stat {
            plan.remove(&NameMatcher::exact(PartName::STAT));
        }
        let changed = new_bitcode != old_bitcode;
        plan.replace_bitcode(PartName::DXIL, &new_bitcode).unwrap();
        let bytes = plan.finish().unwrap().to_vec();
        let out = Container::parse(&bytes).unwrap();
        let program = Program::parse(&out.find(PartName::DXIL).unwrap()).unwrap();
        prop_assert_eq!(program.bitcode, &new_bitcode[..]);
        let out_hash = ShaderHash::parse(&out.find(PartName::HASH).unwrap()).unwrap();
        match policy {
            HashPolicy::Keep => prop_assert_eq!(out_hash, hash),
            HashPolicy::Update => prop_assert_eq!(out_hash.verify(&out), HashStatus::Valid),
            HashPolicy::Auto if stale || !changed => prop_assert_eq!(out_hash, hash),
            HashPolicy::Auto => prop_assert_eq!(out_hash.verify(&out), HashStatus::Valid),
        }

        // Removal alone never touches HASH.
        let mut plan = EditPlan::from_container(&c);
        plan.remove(&NameMatcher::exact(PartName::STAT));
        let bytes = plan.finish().unwrap().to_vec();
        let out = Container::parse(&bytes).unwrap();
        prop_assert_eq!(out.find(PartName::HASH).unwrap().data, &hash.to_bytes()[..]);
    }
}

/// The kind a fixed or computing policy gives (None for auto and keep).
fn plan_policy(p: DigestPolicy) -> Option<DigestKind> {
    match p {
        DigestPolicy::Retail => Some(DigestKind::Retail),
        DigestPolicy::Debug => Some(DigestKind::Debug),
        DigestPolicy::Zero => Some(DigestKind::Zero),
        DigestPolicy::Bypass => Some(DigestKind::Bypass),
        DigestPolicy::Preview => Some(DigestKind::Preview),
        _ => None,
    }
}
