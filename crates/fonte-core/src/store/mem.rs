//! [`MemStore`]: the store in memory, the reference implementation and the one tests use.

use std::cell::RefCell;
use std::collections::BTreeMap;

use super::{LibraryMeta, PendingFile, Store, StoredDocument};
use crate::pdf::PageText;
use crate::search::chunk::Chunk;
use crate::search::corpus::DocumentMeta;
use crate::DocId;
use crate::Result;

/// A [`Store`] in memory: the reference implementation and the one tests use.
#[derive(Default)]
pub struct MemStore {
    meta: RefCell<Option<LibraryMeta>>,
    documents: RefCell<Vec<StoredDocument>>,
    pending: RefCell<BTreeMap<DocId, (PendingFile, Vec<u8>)>>,
    index: RefCell<Option<Vec<u8>>>,
    // Bytes it may hold (documents, pending files and the saved index), as a browser's quota
    // does.
    quota: Option<usize>,
}

impl MemStore {
    /// A store that refuses writes past `bytes` with [`Error::StoreFull`](crate::Error::StoreFull),
    /// as a browser does when the site's quota is used up (tests of what a full storage does).
    pub fn with_quota(bytes: usize) -> Self {
        Self {
            quota: Some(bytes),
            ..Self::default()
        }
    }

    fn document_size(doc: &StoredDocument) -> usize {
        let text: usize = doc.chunks.iter().map(|c| c.text.len()).sum();
        let vectors: usize = doc.vectors.iter().map(|v| 4 * v.len()).sum();
        let pages: usize = doc
            .pages
            .iter()
            .map(|p| p.text.len() + 24 * p.lines.len())
            .sum();
        doc.pdf.len() + text + vectors + pages
    }

    /// Bytes held, leaving out the document and pending file with id `except`.
    fn used_except(&self, except: &str) -> usize {
        let docs: usize = self
            .documents
            .borrow()
            .iter()
            .filter(|d| d.meta.id != except)
            .map(Self::document_size)
            .sum();
        let pending: usize = self
            .pending
            .borrow()
            .values()
            .filter(|(p, _)| p.id != except)
            .map(|(_, bytes)| bytes.len())
            .sum();
        let index = self.index.borrow().as_ref().map_or(0, Vec::len);
        docs + pending + index
    }

    fn check_quota(&self, id: &str, adding: usize) -> Result<()> {
        match self.quota {
            Some(quota) if self.used_except(id) + adding > quota => Err(crate::Error::StoreFull(
                format!("{adding} bytes more do not fit in {quota}"),
            )),
            _ => Ok(()),
        }
    }
}

impl Store for MemStore {
    async fn meta(&self) -> Result<Option<LibraryMeta>> {
        Ok(self.meta.borrow().clone())
    }
    async fn set_meta(&self, meta: &LibraryMeta) -> Result<()> {
        *self.meta.borrow_mut() = Some(meta.clone());
        Ok(())
    }
    async fn documents(&self) -> Result<Vec<DocumentMeta>> {
        Ok(self
            .documents
            .borrow()
            .iter()
            .map(|d| d.meta.clone())
            .collect())
    }
    async fn load_document(&self, id: &str) -> Result<Option<(Vec<Chunk>, Vec<Vec<f32>>)>> {
        Ok(self
            .documents
            .borrow()
            .iter()
            .find(|d| d.meta.id == id)
            .map(|d| (d.chunks.clone(), d.vectors.clone())))
    }
    async fn pdf(&self, id: &str) -> Result<Option<Vec<u8>>> {
        Ok(self
            .documents
            .borrow()
            .iter()
            .find(|d| d.meta.id == id)
            .map(|d| d.pdf.clone()))
    }
    async fn page(&self, id: &str, number: u32) -> Result<Option<PageText>> {
        Ok(self
            .documents
            .borrow()
            .iter()
            .find(|d| d.meta.id == id)
            .and_then(|d| d.pages.iter().find(|p| p.number == number).cloned()))
    }
    async fn pages(&self, id: &str) -> Result<Vec<PageText>> {
        Ok(self
            .documents
            .borrow()
            .iter()
            .find(|d| d.meta.id == id)
            .map(|d| d.pages.clone())
            .unwrap_or_default())
    }
    async fn put_document(&self, doc: &StoredDocument) -> Result<()> {
        self.check_quota(&doc.meta.id, Self::document_size(doc))?;
        let mut docs = self.documents.borrow_mut();
        docs.retain(|d| d.meta.id != doc.meta.id);
        docs.push(doc.clone());
        self.pending.borrow_mut().remove(&doc.meta.id);
        *self.index.borrow_mut() = None;
        Ok(())
    }
    async fn put_meta(&self, meta: &DocumentMeta) -> Result<()> {
        if let Some(d) = self
            .documents
            .borrow_mut()
            .iter_mut()
            .find(|d| d.meta.id == meta.id)
        {
            d.meta = meta.clone();
            *self.index.borrow_mut() = None;
        }
        Ok(())
    }
    async fn delete_document(&self, id: &str) -> Result<()> {
        self.documents.borrow_mut().retain(|d| d.meta.id != id);
        *self.index.borrow_mut() = None;
        Ok(())
    }
    async fn put_pending(&self, file: &PendingFile, bytes: &[u8]) -> Result<()> {
        self.check_quota(&file.id, bytes.len())?;
        self.pending
            .borrow_mut()
            .insert(file.id.clone(), (file.clone(), bytes.to_vec()));
        Ok(())
    }
    async fn pending(&self) -> Result<Vec<PendingFile>> {
        Ok(self
            .pending
            .borrow()
            .values()
            .map(|(p, _)| p.clone())
            .collect())
    }
    async fn pending_bytes(&self, id: &str) -> Result<Option<Vec<u8>>> {
        Ok(self.pending.borrow().get(id).map(|(_, b)| b.clone()))
    }
    async fn delete_pending(&self, id: &str) -> Result<()> {
        self.pending.borrow_mut().remove(id);
        Ok(())
    }
    async fn index(&self) -> Result<Option<Vec<u8>>> {
        Ok(self.index.borrow().clone())
    }
    async fn set_index(&self, bytes: &[u8]) -> Result<()> {
        let old = self.index.borrow().as_ref().map_or(0, Vec::len);
        self.check_quota("", bytes.len().saturating_sub(old))?;
        *self.index.borrow_mut() = Some(bytes.to_vec());
        Ok(())
    }
    async fn clear(&self) -> Result<()> {
        *self.meta.borrow_mut() = None;
        self.documents.borrow_mut().clear();
        self.pending.borrow_mut().clear();
        *self.index.borrow_mut() = None;
        Ok(())
    }
}
