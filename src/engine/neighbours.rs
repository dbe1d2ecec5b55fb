//! Each passage's nearest neighbours (what the bilingual model's ranking takes hubness from,
//! docs/QUALITY.md §4), computed a slice at a time when the library lacks them: a saved index
//! written before they were kept, a hosted library just stored, a library cleared or moved to
//! another model. Opening never waits for them; searches rank without them until they are
//! all there, then they are kept up to date with every document and saved with the index.

use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;

use super::{yield_now, Engine};

/// Pairs of passages compared per slice: about 20 ms in WebAssembly at ~115 ns a pair
/// (docs/PERFORMANCE.md), so the page stays responsive while they are computed.
pub(crate) const SLICE_PAIRS: usize = 200_000;

/// How often a library with nothing to compute looks again (a search after clearing the
/// library or switching models begins them anew).
const IDLE_MS: u32 = 2_000;

impl Engine {
    /// Computes the neighbours the library's ranking is missing, in slices, for as long as
    /// the engine lives.
    pub(super) fn keep_neighbours(self: &Rc<Self>) {
        let engine = Rc::downgrade(self);
        leptos::task::spawn_local(async move {
            loop {
                let Some(e) = engine.upgrade() else { return };
                if e.library().build_neighbours(0) {
                    drop(e);
                    TimeoutFuture::new(IDLE_MS).await;
                    continue;
                }
                if e.library().build_neighbours(SLICE_PAIRS) {
                    // Saved so the next visit need not compute them; worth it, not required
                    // (a full quota is reported where documents are stored).
                    let _ = e.library().save_index().await;
                }
                drop(e);
                yield_now().await;
            }
        });
    }
}
