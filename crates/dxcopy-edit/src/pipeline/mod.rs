//! The edit pipeline, in its order: the parts of a plan ([`parts`]), the
//! plan and its operations on the part list ([`plan`], which takes parts by
//! strip class ([`strip`]) and by name pattern ([`matcher`])), HASH upkeep
//! ([`hash_upkeep`]), the digest decision ([`digest_decision`], from the
//! [`policy`]), the layout ([`layout`]) and the writers ([`output`], which
//! copy kept input bytes with [`copy`]); [`finish`] drives them in one line,
//! and [`unchanged`] tells whether the result reproduces its input. Each
//! step imports only the steps before it.

pub(crate) mod copy;
pub(crate) mod digest_decision;
pub(crate) mod finish;
pub(crate) mod hash_upkeep;
pub(crate) mod layout;
pub(crate) mod matcher;
pub(crate) mod output;
#[cfg(test)]
mod output_tests;
pub(crate) mod parts;
pub(crate) mod plan;
pub(crate) mod policy;
pub(crate) mod strip;
pub(crate) mod unchanged;
