//! Sharing the library as a bundle (docs/BUNDLE.md): export all or some documents, import a
//! bundle after validating all of it (the core's `Library::import` only adds).

use fonte_core::share::bundle::{Imported, Meta};

use super::Engine;
use crate::platform::libraries::{self, Entry};
use crate::AppResult;

impl Engine {
    /// The bundle of the documents `ids` (all when `None`), with or without their PDFs.
    pub async fn export(
        &self,
        ids: Option<&[fonte_core::DocId]>,
        title: &str,
        pdfs: bool,
    ) -> AppResult<Vec<u8>> {
        let created = String::from(js_sys::Date::new_0().to_iso_string());
        let meta = Meta {
            title: title.to_string(),
            description: String::new(),
            created,
            pdfs,
        };
        Ok(self.library().export(ids, &meta).await?)
    }

    /// Imports a bundle: nothing is stored unless all of it is valid and of this library's
    /// model; `on(done, total)` after each document.
    pub async fn import(
        &self,
        bytes: &[u8],
        on: &mut dyn FnMut(usize, usize),
    ) -> AppResult<Imported> {
        let bundle = self.validated(bytes).await?;
        self.import_bundle(bundle, on).await
    }

    /// `bytes` validated as a bundle in the reader worker (never on the page).
    async fn validated(&self, bytes: &[u8]) -> AppResult<fonte_core::share::bundle::Bundle> {
        let reader = self.service().reader().await?;
        let accept = self.models.iter().map(|m| m.accepted()).collect();
        Ok(reader.read_bundle(bytes, accept).await??)
    }

    /// [`Engine::import`] of a bundle already validated.
    pub async fn import_bundle(
        &self,
        bundle: fonte_core::share::bundle::Bundle,
        on: &mut dyn FnMut(usize, usize),
    ) -> AppResult<Imported> {
        let imported = self.session.import_bundle(bundle, on).await?;
        let library = self.library();
        self.rows
            .imported(&library.corpus(), &self.shown_provenance());
        self.refresh_storage().await;
        Ok(imported)
    }

    /// Stores a bundle of another model than this library's as a library of its own (its
    /// entry is returned; the page then switches to it). Validated whole first, like any import.
    pub async fn import_separate(&self, bytes: &[u8]) -> AppResult<Entry> {
        use sha2::{Digest, Sha256};
        let bundle = self.validated(bytes).await?;
        let model = &bundle.manifest.model_id;
        if !self.models.iter().any(|m| &m.manifest.id == model) {
            return Err(fonte_core::share::bundle::BundleError::OtherModel {
                bundle: model.clone(),
                library: self.model().manifest.id,
            }
            .into());
        }
        let title = if bundle.manifest.title.is_empty() {
            model.clone()
        } else {
            bundle.manifest.title.clone()
        };
        let entry = Entry::separate(&title, &hex::encode(Sha256::digest(bytes)));
        super::hosted::store(self.ui, &entry.db, bundle).await?;
        libraries::put(&entry);
        Ok(entry)
    }
}
