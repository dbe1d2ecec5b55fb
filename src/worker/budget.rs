//! The worker's memory budget: an allocator that refuses to hold more than [`BUDGET`] bytes
//! at once. A hostile file that asks for more is stopped here, with the page told why (`-1`),
//! rather than growing the tab's memory until the browser kills it. The refused allocation then
//! aborts the module (Rust's allocation-failure path), which the page's watchdog sees.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use wasm_bindgen::JsValue;
use web_sys::DedicatedWorkerGlobalScope;

/// Live heap bytes allowed (the same bound crates/fonte-pdf/tests/hostile.rs holds every
/// hostile and fuzzed input to). The largest file the app accepts (200 MB) is held once here
/// plus its text and chunks; the hostile fixtures peak at 452 MiB natively
/// (docs/RELIABILITY.md).
pub const BUDGET: usize = 1 << 30;

// The budget in force: BUDGET unless the page asks for less (`?reader-mib=`, for diagnosis and
// the end-to-end test of this path).
static LIMIT: AtomicUsize = AtomicUsize::new(BUDGET);

/// Sets the budget, MiB (at most [`BUDGET`]).
pub fn set_mib(mib: u32) {
    LIMIT.store(((mib as usize) << 20).min(BUDGET), Ordering::SeqCst);
}

struct Budgeted;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static REPORTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    // Fetched once at start: looking the global up inside the allocator could allocate.
    static SCOPE: std::cell::OnceCell<DedicatedWorkerGlobalScope> =
        const { std::cell::OnceCell::new() };
}

/// Remembers the worker's scope, so an allocation over budget can say so.
pub fn start(scope: DedicatedWorkerGlobalScope) {
    SCOPE.with(|s| {
        let _ = s.set(scope);
    });
}

fn over_budget() {
    if !REPORTED.swap(true, Ordering::SeqCst) {
        // A number crosses to JavaScript without allocating on this side.
        let _ = SCOPE.try_with(|s| {
            if let Some(scope) = s.get() {
                let _ = scope.post_message(&JsValue::from_f64(-1.0));
            }
        });
    }
}

unsafe impl GlobalAlloc for Budgeted {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if LIVE.load(Ordering::Relaxed) + layout.size() > LIMIT.load(Ordering::Relaxed) {
            over_budget();
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size()
            && LIVE.load(Ordering::Relaxed) + new_size - layout.size()
                > LIMIT.load(Ordering::Relaxed)
        {
            over_budget();
            return std::ptr::null_mut();
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Budgeted = Budgeted;
