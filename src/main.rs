//! Fonte's browser entry point: panic hook, logging, mount. Everything else is in the library.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(fonte::app::App);
}

// The app only exists in the browser; natively this binary just says how to get it.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fonte-app runs in the browser: `scripts/serve.sh` builds and serves it");
    std::process::exit(2);
}
