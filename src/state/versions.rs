//! What the page shows of the documents' dates and versions (filled by
//! `engine::rows::versions`).

use std::collections::BTreeMap;

use fonte_core::pdf::dates::PubDate;
use fonte_core::search::corpus::{Published, VersionNote};
use fonte_core::DocId;

/// What the page shows of the documents' dates and versions, from the library's records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Versions {
    /// Each stored document's.
    pub docs: BTreeMap<DocId, DocVersion>,
    /// Documents that look like versions of one text, for the person to confirm.
    pub proposals: Vec<ProposalView>,
    /// Whether any confirmed group has an older version (then searching all versions is
    /// offered).
    pub any_superseded: bool,
}

/// A document's publication date and its place among its versions.
#[derive(Debug, Clone, PartialEq)]
pub struct DocVersion {
    /// Its publication date and where it came from.
    pub published: Option<Published>,
    /// Its group's name, once confirmed.
    pub group: Option<String>,
    /// Its place in the group.
    pub note: Option<VersionNote>,
    /// The current version's file name, for an older one.
    pub superseded_by: Option<String>,
}

/// A proposed group of versions.
#[derive(Debug, Clone, PartialEq)]
pub struct ProposalView {
    /// The documents, newest first.
    pub ids: Vec<DocId>,
    /// The group's name (the newest one's title or file name).
    pub name: String,
    /// Each one's file name and date, same order.
    pub members: Vec<(String, Option<PubDate>)>,
}
