//! Sharing a library: the `.fonte` bundle format ([`bundle`]), written, validated, exported and
//! imported.

pub mod bundle;
