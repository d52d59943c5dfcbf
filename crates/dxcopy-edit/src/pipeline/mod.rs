//! The edit pipeline, in its order: the parts of a plan ([`parts`]), the
//! plan and its operations on the part list ([`plan`]), HASH upkeep
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
pub(crate) mod output;
#[cfg(test)]
mod output_tests;
pub(crate) mod parts;
pub(crate) mod plan;
pub(crate) mod policy;
pub(crate) mod unchanged;
