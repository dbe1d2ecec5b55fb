//! UI components.

pub mod drop_zone;
pub mod library;
