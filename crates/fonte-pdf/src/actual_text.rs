//! /ActualText (PDF 32000-1, 14.9.4): a marked-content span that says what its glyphs read
//! as, for glyphs whose own text is wrong or missing: a figure drawn in a font that maps it to
//! U+0000, a ligature, a hyphen that only breaks the line. A report exported from Word through
//! a Type3 converter (PyMuPDF's test_3197.pdf) draws every digit so, each in a span
//! `/Span <</ActualText (4)>> BDC … EMC`: read by its fonts, its numbers vanished with a
//! `complete` report, while pdftotext, which honours the spans, read them. The glyphs shown
//! inside the outermost span are replaced by one glyph of the span's text, where the first of
//! them starts and ending where the last ends.

use pdf::object::Resources;
use pdf::primitive::Primitive;

use super::docenc::text_string;
use super::placed::Placed;

/// Bytes of /ActualText taken on one page: a named property list holding a long text, named
/// by every BDC of a page, would otherwise be read (and kept) once per span.
const MOST_BYTES: usize = 4 << 20;

/// The open span, if any, and how deep marked content nests.
pub(super) struct Spans {
    depth: u32,
    open: Option<Open>,
    /// Bytes of /ActualText this page may still take.
    left: usize,
}

impl Default for Spans {
    fn default() -> Self {
        Spans {
            depth: 0,
            open: None,
            left: MOST_BYTES,
        }
    }
}

struct Open {
    /// The nesting depth its BDC opened.
    depth: u32,
    text: String,
    /// How many glyphs were placed before it opened.
    start: usize,
    /// The first glyph shown in it (placed or not): where the text goes.
    first: Option<Placed>,
    /// Where the last glyph shown in it ends.
    end: (f32, f32),
}

impl Spans {
    /// A BDC or BMC with `properties` (inline, or named in the resources' /Properties), with
    /// `placed` glyphs already on the page.
    pub(super) fn begin(
        &mut self,
        properties: Option<&Primitive>,
        resources: Option<&Resources>,
        placed: usize,
    ) {
        // Deeper than any real file nests; the count saturates rather than overflows.
        self.depth = self.depth.saturating_add(1);
        if self.open.is_some() {
            return;
        }
        let named;
        let text = match properties {
            Some(Primitive::Dictionary(d)) => d.get("ActualText"),
            Some(Primitive::Name(name)) => {
                named = resources.and_then(|r| r.properties.get(name.as_str()));
                named.and_then(|d| d.get("ActualText"))
            }
            _ => None,
        };
        // A text string is direct (an indirect one, resolved for each span, is not read: no
        // producer seen writes one). What the page's allowance does not hold is not read.
        let text = match text {
            Some(Primitive::String(s)) if s.as_bytes().len() <= self.left => {
                self.left -= s.as_bytes().len();
                text_string(s.as_bytes())
            }
            _ => return,
        };
        self.open = Some(Open {
            depth: self.depth,
            text,
            start: placed,
            first: None,
            end: (0.0, 0.0),
        });
    }

    /// Whether a span is open: its glyphs' own text does not count, lost or not.
    pub(super) fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// A glyph shown while a span is open, placed or not (one that decodes to nothing is not
    /// placed, and its span's text is all there is of it).
    pub(super) fn shown(&mut self, glyph: impl FnOnce() -> Placed) {
        if let Some(open) = &mut self.open {
            let g = glyph();
            open.end = (g.x_end, g.y_end);
            if open.first.is_none() {
                open.first = Some(g);
            }
        }
    }

    /// An EMC: closes the span its BDC opened, replacing the glyphs placed in it.
    pub(super) fn end(&mut self, out: &mut Vec<Placed>) {
        if self.open.as_ref().is_some_and(|o| o.depth == self.depth) {
            self.close(out);
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// Closes a span left open when its content ends (a BDC without its EMC).
    pub(super) fn close(&mut self, out: &mut Vec<Placed>) {
        let Some(open) = self.open.take() else {
            return;
        };
        let Some(first) = open.first else {
            return;
        };
        let size = out
            .get(open.start..)
            .unwrap_or_default()
            .iter()
            .map(|g| g.size)
            .fold(first.size, f32::max);
        out.truncate(open.start.min(out.len()));
        if !open.text.is_empty() {
            out.push(Placed {
                text: open.text,
                x_end: open.end.0,
                y_end: open.end.1,
                size,
                ..first
            });
        }
    }
}
