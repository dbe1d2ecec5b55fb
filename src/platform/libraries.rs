//! The libraries this browser holds, and which one the page opens. Each library is its own
//! IndexedDB database, so two models' vectors or a hosted corpus and the reader's own
//! documents are never mixed: "my library" (`fonte`, the database of every Fonte before
//! libraries existed), and one per hosted corpus or per bundle of another model. The list
//! and the current choice are in `localStorage`; switching reloads the page on the other one.

use gloo::storage::{LocalStorage, Storage};
use serde::{Deserialize, Serialize};

/// The reader's own library.
pub const MINE: &str = "fonte";
const LIST_KEY: &str = "fonte.libraries";
const CURRENT_KEY: &str = "fonte.library";

/// One library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Its IndexedDB database.
    pub db: String,
    /// Its title (the bundle's; empty for the reader's own library).
    pub title: String,
    /// The hosted bundle it was opened from (absolute URL), whose PDFs are fetched from there.
    #[serde(default)]
    pub corpus: Option<String>,
    /// SHA-256 of that bundle's header once it is stored whole (None while it is not yet).
    #[serde(default)]
    pub version: Option<String>,
}

impl Entry {
    /// The reader's own library.
    pub fn mine() -> Self {
        Self {
            db: MINE.into(),
            title: String::new(),
            corpus: None,
            version: None,
        }
    }

    /// The library of the bundle hosted at `url` (absolute): one per address.
    pub fn hosted(url: &str) -> Self {
        use sha2::{Digest, Sha256};
        let name = url.rsplit('/').next().unwrap_or(url);
        let name = name.split(['?', '#']).next().unwrap_or(name);
        Self {
            db: format!("fonte-corpus-{}", &hex::encode(Sha256::digest(url))[..16]),
            title: name.to_string(),
            corpus: Some(url.to_string()),
            version: None,
        }
    }

    /// A library for a bundle file of another model than the current library's.
    pub fn separate(title: &str, bundle_id: &str) -> Self {
        Self {
            db: format!("fonte-bundle-{}", &bundle_id[..bundle_id.len().min(16)]),
            title: title.to_string(),
            corpus: None,
            version: None,
        }
    }
}

/// Whether any library was ever recorded (false on a first visit).
pub fn known() -> bool {
    LocalStorage::raw()
        .get_item(LIST_KEY)
        .ok()
        .flatten()
        .is_some()
}

/// Every library, the reader's own first.
pub fn all() -> Vec<Entry> {
    let mut list: Vec<Entry> = LocalStorage::get(LIST_KEY).unwrap_or_default();
    if !list.iter().any(|e| e.db == MINE) {
        list.insert(0, Entry::mine());
    }
    list
}

fn save(list: &[Entry]) {
    // A full or disabled localStorage only loses the list: each database stays as it is.
    let _ = LocalStorage::set(LIST_KEY, list);
}

/// Adds `entry`, or updates the one of the same database.
pub fn put(entry: &Entry) {
    let mut list = all();
    match list.iter_mut().find(|e| e.db == entry.db) {
        Some(e) => *e = entry.clone(),
        None => list.push(entry.clone()),
    }
    save(&list);
}

/// Forgets a library (its database is deleted by the caller).
pub fn forget(db: &str) {
    let list: Vec<Entry> = all().into_iter().filter(|e| e.db != db).collect();
    save(&list);
    if current().db == db {
        set_current(MINE);
    }
}

/// The library the page opens.
pub fn current() -> Entry {
    let db: Option<String> = LocalStorage::get(CURRENT_KEY).ok();
    let list = all();
    db.and_then(|db| list.iter().find(|e| e.db == db).cloned())
        .unwrap_or_else(Entry::mine)
}

/// Makes `db` the library the page opens.
pub fn set_current(db: &str) {
    let _ = LocalStorage::set(CURRENT_KEY, db);
}

/// The library to open now: the page address's `?corpus=<url>` (resolved against the page),
/// else on a first visit the corpus a published folder names in its
/// `<meta name="fonte-corpus">`, else the one chosen last. A hosted corpus stored before is
/// made current; one not stored yet is recorded and made current only once it is downloaded,
/// validated and stored (`engine::hosted::fetch`), so a link to a bad corpus leaves the
/// library chosen last as it was.
pub fn chosen() -> Entry {
    let window = web_sys::window().expect("a window");
    let asked = window
        .location()
        .search()
        .ok()
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get("corpus"))
        .filter(|c| !c.is_empty());
    let published = || {
        window
            .document()?
            .query_selector("meta[name=fonte-corpus]")
            .ok()??
            .get_attribute("content")
            .filter(|c| !c.is_empty())
    };
    let first_visit = !known();
    let corpus = asked.or_else(|| first_visit.then(published).flatten());
    if first_visit {
        put(&Entry::mine());
    }
    let Some(corpus) = corpus else {
        return current();
    };
    let url = crate::platform::assets::absolute(&corpus);
    match all()
        .into_iter()
        .find(|e| e.corpus.as_deref() == Some(url.as_str()) && e.version.is_some())
    {
        Some(stored) => {
            set_current(&stored.db);
            stored
        }
        None => Entry::hosted(&url),
    }
}

/// The origin of a hosted library's corpus when it is not this page's: opening it first
/// contacts that server, which the user is asked about. `None` for the page's own origin.
pub fn foreign_origin(entry: &Entry) -> Option<String> {
    let url = web_sys::Url::new(entry.corpus.as_deref()?).ok()?;
    let page = web_sys::window()?.location().origin().ok()?;
    let origin = url.origin();
    (origin != page).then_some(origin)
}
