//! What decoding gives: a glyph's text and advance, or why it has none.

use serde::{Deserialize, Serialize};

/// Why a glyph shown on a page gave no text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// The font has no ToUnicode map and an unknown or custom encoding, and its program (if
    /// embedded) does not say either.
    NoUnicode,
    /// The font does not load: its dictionary, or the embedded program its text depends on.
    FontNotLoaded,
    /// The glyph's name (in /Differences, the program's encoding or its `post` table) is not
    /// one that maps to text.
    UnmappedGlyphNames,
}

/// One decoded glyph.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    /// Text it stands for ("" when unknown).
    pub text: String,
    /// Advance in text space units per unit font size (width / 1000 for most fonts).
    pub width: f32,
    /// Whether it is the single-byte code 32, to which word spacing (Tw) applies.
    pub is_space_code: bool,
    /// Why it has no text, when it has none and is not a space.
    pub lost: Option<Loss>,
}
