//! A library opened from a hosted bundle (`?corpus=<url>`, or the corpus a published folder
//! opens by default): on its first opening the bundle's index is downloaded by range
//! requests, validated whole and stored in the library's own database; later openings read
//! that database (offline too). Each PDF is fetched when one of its pages is first shown, and
//! kept.

use fonte_core::bundle::{BundleError, Imported};
use fonte_core::library::Library;
use fonte_core::store::Store;
use leptos::prelude::*;

use super::Engine;
use crate::platform::hosted::Hosted;
use crate::platform::idb::IdbStore;
use crate::platform::libraries::{self, Entry};
use crate::state::{Loaded, Ui};
use crate::AppResult;

/// Downloads the bundle of `entry` (a hosted library not stored yet) and stores it in the
/// entry's database, built with the bundle's model, which must be one this app has.
pub async fn fetch(ui: Ui, entry: &mut Entry, models: &[String]) -> AppResult<Hosted> {
    let url = entry.corpus.clone().expect("a hosted library");
    let mut on = |done: u64, total: u64| ui.loaded.set(Loaded::Downloading { done, total });
    let mut hosted = Hosted::open(&url, &mut on).await?;
    let bundle = hosted.index(&mut on).await?;
    if !models.contains(&bundle.manifest.model_id) {
        return Err(BundleError::OtherModel {
            bundle: bundle.manifest.model_id.clone(),
            library: models.join(", "),
        }
        .into());
    }
    let title = bundle.manifest.title.clone();
    store(ui, &entry.db, bundle).await?;
    entry.title = title;
    entry.version = Some(hosted.version.clone());
    libraries::put(entry);
    Ok(hosted)
}

/// Stores a validated bundle into the (new or partly filled) library database `db`, opened
/// with the bundle's build: a library of its own, never mixed with another's vectors.
pub async fn store(ui: Ui, db: &str, bundle: fonte_core::bundle::Bundle) -> AppResult<Imported> {
    let store = IdbStore::open(db).await?;
    let (library, _) = Library::open(store, &bundle.info()).await?;
    let mut on = |done: usize, total: usize| ui.loaded.set(Loaded::Storing { done, total });
    let imported = library.import_bundle(bundle, &mut on).await?;
    library.into_store().close();
    Ok(imported)
}

impl Engine {
    /// The PDF of document `id`: the stored one, or for a hosted library, fetched by its
    /// range from the bundle (checked against its SHA-256), stored, then returned.
    pub async fn pdf(&self, id: &str) -> AppResult<Option<Vec<u8>>> {
        let stored = self.library.store().pdf(id).await?;
        if stored.as_ref().is_some_and(|p| !p.is_empty()) {
            return Ok(stored);
        }
        let Some(url) = self.entry.corpus.clone() else {
            return Ok(stored);
        };
        let mut hosted = self.hosted.lock().await;
        if hosted.is_none() {
            *hosted = Some(Hosted::open(&url, &mut |_, _| {}).await?);
        }
        let Some(pdf) = hosted.as_mut().expect("opened").pdf(id).await? else {
            return Ok(stored);
        };
        self.library.store().put_pdf(id, &pdf).await?;
        self.refresh_storage().await;
        Ok(Some(pdf))
    }

    /// The library the page shows.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }
}
