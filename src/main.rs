//! Fonte's browser entry point: panic hook, logging, mount. Everything else is in the library.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(fonte::app::App);
}
