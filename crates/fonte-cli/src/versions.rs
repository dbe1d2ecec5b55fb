//! Versions and dates on the command line: `fonte index --group NAME=FILE,FILE --date
//! FILE=YYYY-MM-DD` (through the core's library, as the page's confirm and edit do), the
//! versions `fonte index` proposes, and how a passage's version is worded.

use fonte_core::library::propose_versions;
use fonte_core::pdf::dates::PubDate;
use fonte_core::search::corpus::VersionNote;
use fonte_core::session::Session;
use fonte_core::store::MemStore;
use fonte_core::DocId;

use crate::ingest::Native;

/// `NAME=FILE,FILE,…`: documents (by file name) confirmed as versions of one text.
#[derive(Debug, Clone)]
pub struct GroupArg {
    name: String,
    files: Vec<String>,
}

impl std::str::FromStr for GroupArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, files) = s
            .split_once('=')
            .ok_or("expected NAME=FILE,FILE (the files' names as indexed)")?;
        let files: Vec<String> = files.split(',').map(|f| f.trim().to_string()).collect();
        if name.trim().is_empty() || files.len() < 2 || files.iter().any(String::is_empty) {
            return Err("a group needs a name and at least two file names".into());
        }
        Ok(Self {
            name: name.trim().to_string(),
            files,
        })
    }
}

/// `FILE=DATE`: a document's publication date (YYYY, YYYY-MM or YYYY-MM-DD).
#[derive(Debug, Clone)]
pub struct DateArg {
    file: String,
    date: PubDate,
}

impl std::str::FromStr for DateArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (file, date) = s.rsplit_once('=').ok_or("expected FILE=YYYY-MM-DD")?;
        let date = PubDate::from_iso(date)
            .ok_or_else(|| format!("{date:?} is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"))?;
        Ok(Self {
            file: file.trim().to_string(),
            date,
        })
    }
}

/// Applies the dates, then the groups, to an indexed session; prints the versions it would
/// propose among the documents left ungrouped.
pub fn apply(
    session: &Session<MemStore, Native>,
    groups: &[GroupArg],
    dates: &[DateArg],
) -> Result<(), String> {
    let id_of = |file: &str| -> Result<DocId, String> {
        session
            .library()
            .documents()
            .into_iter()
            .find(|d| d.name == file)
            .map(|d| d.id)
            .ok_or_else(|| format!("{file}: not among the indexed documents"))
    };
    let library = session.library();
    for d in dates {
        pollster::block_on(library.set_published(&id_of(&d.file)?, Some(d.date)))
            .map_err(|e| e.to_string())?;
    }
    for g in groups {
        let ids = g
            .files
            .iter()
            .map(|f| id_of(f))
            .collect::<Result<Vec<_>, _>>()?;
        pollster::block_on(library.group_versions(&ids, &g.name)).map_err(|e| e.to_string())?;
    }
    for p in session.with_corpus(propose_versions) {
        let docs = library.documents();
        let names: Vec<String> = p
            .ids
            .iter()
            .filter_map(|id| docs.iter().find(|d| d.id == *id))
            .map(|d| d.name.clone())
            .collect();
        eprintln!(
            "these look like versions of one text ({}): {}; to keep the newest as current, index again with --group {:?}",
            p.name,
            names.join(", "),
            format!("{}={}", p.name, names.join(","))
        );
    }
    Ok(())
}

/// A date as written here: ISO 8601, as precise as known.
pub fn date(d: PubDate) -> String {
    fonte_core::answer::prompt::iso(d)
}

/// "version of 2025-02, supersedes 2023-03", "older version (2023-03), superseded by
/// 2025-02", "version of 2024 (which version is current cannot be told)".
pub fn note(n: &VersionNote) -> String {
    match n {
        VersionNote::Current {
            date: d,
            supersedes,
        } => {
            let older: Vec<String> = supersedes.iter().map(|d| date(*d)).collect();
            format!("version of {}, supersedes {}", date(*d), older.join(", "))
        }
        VersionNote::Superseded { date: d, by } => {
            format!("older version ({}), superseded by {}", date(*d), date(*by))
        }
        VersionNote::Undecided { date: Some(d) } => format!(
            "version of {} (which version is current cannot be told)",
            date(*d)
        ),
        VersionNote::Undecided { date: None } => {
            "undated version (which version is current cannot be told)".to_string()
        }
    }
}
