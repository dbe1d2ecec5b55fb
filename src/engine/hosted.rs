//! A library opened from a hosted bundle (`?corpus=<url>`, or the corpus a published folder
//! opens by default): on its first opening the bundle's index is downloaded by range
//! requests, validated whole and stored in the library's own database; later openings read
//! that database (offline too). Each PDF is fetched when one of its pages is first shown, and
//! kept.

use fonte_core::library::Library;
use fonte_core::share::bundle::Imported;
use fonte_core::store::Store;
use leptos::prelude::*;

use super::Engine;
use crate::models::Model;
use crate::platform::hosted::Hosted;
use crate::platform::idb::IdbStore;
use crate::platform::libraries::{self, Entry};
use crate::platform::reader::ReaderWorker;
use crate::state::{Loaded, Ui};
use crate::AppResult;

/// Downloads the bundle of `entry` (a hosted library not stored yet), validates it in a
/// reader worker of its own (no model is loaded yet) and stores it in the entry's database,
/// built with the bundle's model, which must be one this app has. Only then is the library
/// recorded and made the one the page opens: a link to a bad corpus changes nothing, and
/// what it stored part-way is removed.
pub async fn fetch(ui: Ui, entry: &mut Entry, models: &[Model]) -> AppResult<Hosted> {
    let url = entry.corpus.clone().expect("a hosted library");
    let mut on = |done: u64, total: u64| ui.loaded.set(Loaded::Downloading { done, total });
    let mut hosted = Hosted::open(&url, &mut on).await?;
    let accept: Vec<_> = models.iter().map(Model::accepted).collect();
    let reader = ReaderWorker::for_bundles();
    let bundle = hosted.index(&reader, &mut on, &accept).await?;
    drop(reader);
    let title = bundle.manifest.title.clone();
    if let Err(e) = store(ui, &entry.db, bundle).await {
        // Never recorded: nothing else refers to it.
        let _ = crate::platform::idb::delete(&entry.db).await;
        return Err(e);
    }
    entry.title = title;
    entry.version = Some(hosted.version.clone());
    libraries::put(entry);
    libraries::set_current(&entry.db);
    Ok(hosted)
}

/// Stores a validated bundle into the (new or partly filled) library database `db`, opened
/// with the bundle's build: a library of its own, never mixed with another's vectors.
pub async fn store(
    ui: Ui,
    db: &str,
    bundle: fonte_core::share::bundle::Bundle,
) -> AppResult<Imported> {
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
        let stored = self.library().store().pdf(id).await?;
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
        let reader = self.service().reader().await?;
        let Some(pdf) = hosted.as_mut().expect("opened").pdf(&reader, id).await? else {
            return Ok(stored);
        };
        self.library().store().put_pdf(id, &pdf).await?;
        self.refresh_storage().await;
        Ok(Some(pdf))
    }

    /// A hosted library's update: when the bundle at its address changed since it was
    /// stored, its new documents are added, then those it no longer holds are removed (in
    /// that order: nothing goes before its replacement is stored). (added, removed), or
    /// `None` when it did not change or the library is not hosted.
    pub async fn refresh_hosted(&self) -> AppResult<Option<(usize, usize)>> {
        let (Some(url), Some(stored)) = (self.entry.corpus.clone(), self.entry.version.clone())
        else {
            return Ok(None);
        };
        // Just downloaded in this visit: nothing to check.
        if self
            .hosted
            .lock()
            .await
            .as_ref()
            .is_some_and(|h| h.version == stored)
        {
            return Ok(None);
        }
        let mut hosted = Hosted::open(&url, &mut |_, _| {}).await?;
        if hosted.version == stored {
            *self.hosted.lock().await = Some(hosted);
            return Ok(None);
        }
        let bundle = hosted
            .index(
                &*self.service().reader().await?,
                &mut |_, _| {},
                &[self.model().accepted()],
            )
            .await?;
        let keep: Vec<fonte_core::DocId> = bundle
            .manifest
            .documents
            .iter()
            .map(|d| d.id.clone())
            .collect();
        let imported = self.import_bundle(bundle, &mut |_, _| {}).await?;
        let gone: Vec<(u64, fonte_core::DocId)> = self
            .ui
            .rows
            .get_untracked()
            .into_iter()
            .filter_map(|r| Some((r.key, r.id?)))
            .filter(|(_, id)| !keep.contains(id))
            .collect();
        for (key, id) in &gone {
            self.delete(*key, id).await?;
        }
        libraries::put(&Entry {
            version: Some(hosted.version.clone()),
            ..self.entry.clone()
        });
        *self.hosted.lock().await = Some(hosted);
        Ok(Some((imported.added.len(), gone.len())))
    }

    /// The library the page shows.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }
}
