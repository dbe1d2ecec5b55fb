//! What a library knows of a document beyond its text: when it was published (and where that
//! date came from), when it was added, and which versions of one text it belongs with. A
//! confirmed group whose members all have distinct dates has one current version; the others
//! are *superseded* and left out of the evidence by default. Where a date is missing or the
//! newest dates tie, nothing is left out: which one holds cannot be told.

use serde::{Deserialize, Serialize};

use super::DocumentMeta;
use crate::pdf::dates::{DateSource, Dated, PubDate};
use crate::DocId;

/// Where a document's publication date came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DateFrom {
    /// Chosen from the dates the file gives for itself.
    File(DateSource),
    /// Given by the person (edited in the page, or `fonte index --date`).
    Given,
}

/// A publication date and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Published {
    /// The date.
    pub date: PubDate,
    /// Its source.
    pub from: DateFrom,
}

/// A document's metadata beyond its file: publication date, when added, its versions. Each
/// field may be missing where it is read as JSON (a bundle's manifest, a stored record).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct About {
    /// When it was published, if known.
    pub published: Option<Published>,
    /// Every date the file gives for itself (what an edit offers).
    pub found: Vec<Dated>,
    /// When it was added to this library, milliseconds since 1970 (UTC); `None` for
    /// documents added before this was recorded.
    pub added: Option<u64>,
    /// The precedence group it belongs to (versions of one text, each superseding the older
    /// ones entirely), once confirmed; its name.
    pub group: Option<String>,
    /// Documents the person said it is not a version of: never proposed again.
    pub distinct: Vec<DocId>,
}

impl About {
    /// What a document read again (re-embedded, or its bundle copy replaced by its PDF) keeps
    /// of its earlier record: what the person decided (a date they gave, its versions) and
    /// when it was added; the file's own dates are those read now (`fresh`).
    pub fn carried_into(&self, fresh: About) -> About {
        let given = self
            .published
            .filter(|p| p.from == DateFrom::Given)
            .or(fresh.published)
            .or(self.published);
        About {
            published: given,
            found: fresh.found,
            added: self.added.or(fresh.added),
            group: self.group.clone().or(fresh.group),
            distinct: if self.distinct.is_empty() {
                fresh.distinct
            } else {
                self.distinct.clone()
            },
        }
    }
}

/// A document's place among its versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    /// In no group.
    Alone,
    /// The newest of its group: it supersedes the documents listed (document numbers,
    /// newest first).
    Current {
        /// The older versions.
        supersedes: Vec<u32>,
    },
    /// An older version: `by` (a document number) is current.
    Superseded {
        /// The current version.
        by: u32,
    },
    /// In a group whose current version cannot be told (a date missing, or the newest dates
    /// tie): searched like any document.
    Undecided,
}

impl Standing {
    /// Whether it is left out of the evidence by default.
    pub fn is_superseded(&self) -> bool {
        matches!(self, Standing::Superseded { .. })
    }
}

/// What a passage's document is among its versions, as an answer or a result names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum VersionNote {
    /// The current version, of `date`, superseding versions of the dates listed (newest
    /// first).
    Current {
        /// Its date.
        date: PubDate,
        /// The older versions' dates.
        supersedes: Vec<PubDate>,
    },
    /// An older version (searched only when all versions are asked for).
    Superseded {
        /// Its date.
        date: PubDate,
        /// The current version's date.
        by: PubDate,
    },
    /// In a group whose current version cannot be told.
    Undecided {
        /// Its date, if known.
        date: Option<PubDate>,
    },
}

impl VersionNote {
    /// Whether it is an older version.
    pub fn is_superseded(&self) -> bool {
        matches!(self, VersionNote::Superseded { .. })
    }
}

/// Each document's [`VersionNote`] (`None` for one in no group), from its `standings`.
pub fn version_notes(docs: &[DocumentMeta], standings: &[Standing]) -> Vec<Option<VersionNote>> {
    let date = |i: u32| docs[i as usize].about.published.map(|p| p.date);
    standings
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Standing::Alone => None,
            Standing::Current { supersedes } => Some(VersionNote::Current {
                date: date(i as u32)?,
                supersedes: supersedes.iter().filter_map(|&o| date(o)).collect(),
            }),
            Standing::Superseded { by } => Some(VersionNote::Superseded {
                date: date(i as u32)?,
                by: date(*by)?,
            }),
            Standing::Undecided => Some(VersionNote::Undecided {
                date: date(i as u32),
            }),
        })
        .collect()
}

/// Each document's standing among its versions (same order as `docs`).
pub fn standings(docs: &[DocumentMeta]) -> Vec<Standing> {
    let mut out = vec![Standing::Alone; docs.len()];
    let mut groups: Vec<(&str, Vec<u32>)> = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        if let Some(g) = &d.about.group {
            match groups.iter_mut().find(|(name, _)| name == g) {
                Some((_, members)) => members.push(i as u32),
                None => groups.push((g, vec![i as u32])),
            }
        }
    }
    for (_, mut members) in groups {
        if members.len() < 2 {
            continue;
        }
        let date = |i: u32| docs[i as usize].about.published.map(|p| p.date);
        if members.iter().any(|&i| date(i).is_none()) {
            members
                .iter()
                .for_each(|&i| out[i as usize] = Standing::Undecided);
            continue;
        }
        members.sort_by_key(|&i| std::cmp::Reverse(date(i)));
        let newest = members[0];
        if !newer(date(newest), date(members[1])) {
            members
                .iter()
                .for_each(|&i| out[i as usize] = Standing::Undecided);
            continue;
        }
        for &i in &members[1..] {
            out[i as usize] = Standing::Superseded { by: newest };
        }
        out[newest as usize] = Standing::Current {
            supersedes: members[1..].to_vec(),
        };
    }
    out
}

/// Whether `a` is certainly later than `b`: a year-only date is not later than a dated day of
/// the same year (which of them came first cannot be told).
fn newer(a: Option<PubDate>, b: Option<PubDate>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    if a.year != b.year {
        return a.year > b.year;
    }
    match (a.month, b.month) {
        (Some(am), Some(bm)) if am != bm => am > bm,
        (Some(_), Some(_)) => matches!((a.day, b.day), (Some(ad), Some(bd)) if ad > bd),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: &str, group: Option<&str>, date: Option<(u16, Option<u8>)>) -> DocumentMeta {
        let mut d = DocumentMeta::one_page(id);
        d.about.group = group.map(str::to_string);
        d.about.published = date.map(|(year, month)| Published {
            date: PubDate {
                year,
                month,
                day: None,
            },
            from: DateFrom::Given,
        });
        d
    }

    #[test]
    fn the_newest_dated_version_of_a_group_supersedes_the_others() {
        let docs = [
            doc("a", Some("manual"), Some((2023, Some(3)))),
            doc("b", None, Some((2025, None))),
            doc("c", Some("manual"), Some((2025, Some(1)))),
            doc("d", Some("manual"), Some((2024, None))),
        ];
        let s = standings(&docs);
        assert_eq!(s[0], Standing::Superseded { by: 2 });
        assert_eq!(s[1], Standing::Alone);
        assert_eq!(
            s[2],
            Standing::Current {
                supersedes: vec![3, 0]
            }
        );
        assert_eq!(s[3], Standing::Superseded { by: 2 });
    }

    #[test]
    fn a_missing_date_or_a_tie_leaves_every_version_searched() {
        let missing = [
            doc("a", Some("g"), Some((2023, None))),
            doc("b", Some("g"), None),
        ];
        assert!(standings(&missing)
            .iter()
            .all(|s| *s == Standing::Undecided));
        // 2024 and March 2024: which came first cannot be told.
        let tie = [
            doc("a", Some("g"), Some((2024, None))),
            doc("b", Some("g"), Some((2024, Some(3)))),
        ];
        assert!(standings(&tie).iter().all(|s| *s == Standing::Undecided));
        let alone = [doc("a", Some("g"), Some((2024, None)))];
        assert_eq!(standings(&alone), vec![Standing::Alone]);
    }
}
