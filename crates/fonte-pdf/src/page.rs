//! One page read: its content stream and the forms and annotation appearances it draws,
//! interpreted within the page's budgets, its glyphs inside the crop box laid out as text.

use std::collections::{HashMap, HashSet};

use pdf::content::{FormXObject, Op, TextDrawAdjusted};
use pdf::object::{Object, Page, RcRef, Rectangle, Ref, Resolve};
use pdf::primitive::Primitive;

use super::fields;
use super::interp::{self, glyph_shown, Budget, Interpreter, M0};
use super::tally::Tally;
use super::{layout, Limits, TextLine};

/// A visible annotation of the page: its normal appearance stream, its /Rect, and what its
/// form field shows where the appearance shows no text.
struct Annotation {
    form: Option<RcRef<FormXObject>>,
    rect: Rectangle,
    field: fields::Shown,
}

/// The page's visible annotations.
///
/// Read from the raw dictionaries: the crate's `Annot` cannot load an appearance stream that is
/// an indirect object (it asks `RcRef` to parse a stream that is no longer a reference), which is
/// how nearly every form field stores it.
fn annotations(page_ref: pdf::object::PlainRef, resolve: &impl Resolve) -> Vec<Annotation> {
    const HIDDEN: i32 = 2;
    let mut out = Vec::new();
    let Ok(page) = resolve
        .resolve(page_ref)
        .and_then(Primitive::into_dictionary)
    else {
        return out;
    };
    let Some(annots) = page
        .get("Annots")
        .cloned()
        .and_then(|a| a.resolve(resolve).ok())
        .and_then(|a| a.into_array().ok())
    else {
        return out;
    };
    for annot in annots.into_iter().take(10_000) {
        let Ok(annot) = annot.resolve(resolve).and_then(Primitive::into_dictionary) else {
            continue;
        };
        if annot
            .get("F")
            .and_then(|f| f.as_integer().ok())
            .is_some_and(|f| f & HIDDEN != 0)
        {
            continue;
        }
        let Some(rect) = annot
            .get("Rect")
            .cloned()
            .and_then(|r| Rectangle::from_primitive(r, resolve).ok())
        else {
            continue;
        };
        let normal = annot
            .get("AP")
            .cloned()
            .and_then(|ap| ap.resolve(resolve).ok())
            .and_then(|ap| ap.into_dictionary().ok())
            .and_then(|mut ap| ap.remove("N"));
        // /N is the stream itself, or a dictionary of states (checkboxes) chosen by /AS.
        let stream_ref = match normal {
            Some(Primitive::Reference(r)) => match resolve.resolve(r) {
                Ok(Primitive::Dictionary(states)) => pick_state(&annot, &states),
                Ok(_) => Some(r),
                Err(_) => None,
            },
            Some(Primitive::Dictionary(states)) => pick_state(&annot, &states),
            _ => None,
        };
        let form = stream_ref.and_then(|r| resolve.get(Ref::<FormXObject>::new(r)).ok());
        let is_widget = annot
            .get("Subtype")
            .and_then(|s| s.as_name().ok())
            .is_some_and(|s| s == "Widget");
        let field = if is_widget {
            fields::shown(&annot, resolve)
        } else {
            fields::Shown::default()
        };
        if form.is_some() || !field.lines.is_empty() {
            out.push(Annotation { form, rect, field });
        }
    }
    out
}

fn pick_state(
    annot: &pdf::primitive::Dictionary,
    states: &pdf::primitive::Dictionary,
) -> Option<pdf::object::PlainRef> {
    let state = annot.get("AS")?.as_name().ok()?;
    match states.get(state)? {
        Primitive::Reference(r) => Some(*r),
        _ => None,
    }
}

/// What reading one page gave.
pub(super) struct PageRead {
    pub(super) text: String,
    pub(super) lines: Vec<TextLine>,
    /// Whether it drew images (a page with images and no text is probably a scan).
    pub(super) saw_image: bool,
    /// Whether a budget cut it short.
    pub(super) truncated: bool,
    /// Whether part of its content could not be decoded or parsed: the text is what came
    /// before the damage, and the page is reported as not read in full.
    pub(super) damaged: bool,
    /// Glyphs shown, and those that gave no text.
    pub(super) tally: Tally,
}

/// Reads one page. `form_resources`: the AcroForm's default resources, where field
/// appearances find their fonts; `ghostscript`: whether Ghostscript wrote the file.
pub(super) fn page_text(
    page: &Page,
    page_ref: Option<pdf::object::PlainRef>,
    form_resources: Option<&pdf::object::Resources>,
    resolve: &impl Resolve,
    limits: Limits,
    ghostscript: bool,
) -> PageRead {
    let mut damaged = false;
    let mut truncated = false;
    // A page without /Contents is blank, which is not damage.
    let mut data = Vec::new();
    // The crate joins the parts of a multi-part content stream without a separator, so `Q`
    // at the end of one part and `BT` at the start of the next become `QBT` and all text after
    // is lost. Join them with a newline ourselves.
    for part in page.contents.iter().flat_map(|c| &c.parts) {
        match part.data(resolve) {
            Ok(bytes) if data.len() + bytes.len() < limits.max_content_bytes_per_page => {
                data.extend_from_slice(&bytes);
                data.push(b'\n');
            }
            Ok(_) => {
                truncated = true;
                break;
            }
            Err(_) => {
                // A part whose Flate data breaks off (a truncated file) keeps what decodes
                // before the break, as other readers do; the page stays reported damaged.
                damaged = true;
                if let Some(prefix) = part.data_prefix(resolve) {
                    if data.len() + prefix.len() < limits.max_content_bytes_per_page {
                        data.extend_from_slice(&prefix);
                        data.push(b'\n');
                    }
                }
            }
        }
    }
    let (ops, error, cut) =
        pdf::content::parse_ops_limited(&data, resolve, limits.max_ops_per_page);
    damaged |= error.is_some();
    truncated |= cut;
    let content_left = limits.max_content_bytes_per_page.saturating_sub(data.len());
    drop(data);
    let resources = match page.resources() {
        Ok(r) => Some(&**r),
        Err(_) => {
            damaged |= !ops.is_empty();
            None
        }
    };
    let mut interp = Interpreter::new(
        resolve,
        Budget {
            ops: limits.max_ops_per_page,
            glyphs: limits.max_glyphs_per_page,
            content_bytes: content_left,
        },
    );
    // Text outside the crop box is not shown by viewers.
    interp.shown_area = page.crop_box().or_else(|_| page.media_box()).ok().map(|b| {
        let (x0, x1) = (b.left.min(b.right) - 2.0, b.left.max(b.right) + 2.0);
        let (y0, y1) = (b.bottom.min(b.top) - 2.0, b.bottom.max(b.top) + 2.0);
        [x0, x1, y0, y1]
    });
    interp.ghostscript = ghostscript;
    if ghostscript {
        // Only Ghostscript's files have fonts numbered in order of use to tell from tables:
        // elsewhere the page's ops are not scanned twice.
        interp.glyph_tables = glyph_tables(&ops);
    }
    let mut glyphs = Vec::new();
    interp.run(&ops, resources, M0::IDENTITY, &mut glyphs, 0);
    // Form field values and free-text notes live in annotation appearance streams, which
    // viewers (and pdftotext) draw over the page.
    if let Some(page_ref) = page_ref {
        for annot in annotations(page_ref, resolve) {
            let before = glyphs.len();
            if let Some(form) = &annot.form {
                if let Some(parsed) = interp.form(form.get_ref().get_inner(), form) {
                    damaged |= parsed.1;
                    let dict = form.dict();
                    let ctm =
                        interp::annotation_matrix(dict.matrix.as_ref(), &dict.bbox, &annot.rect);
                    let res = dict.resources.as_deref().or(form_resources).or(resources);
                    interp.run(&parsed.0, res, ctm, &mut glyphs, 1);
                }
            }
            // An empty appearance of a field with a value: the viewer draws the value.
            if glyphs.len() == before {
                interp.place(fields::glyphs(&annot.field, &annot.rect), &mut glyphs);
            }
        }
    }
    interp.finish(&mut glyphs);
    let area = interp.shown_area;
    glyphs.retain(|g| glyph_shown(area, g.x, g.y, g.x_end, g.y_end));
    let (text, lines) = layout::lay_out(glyphs);
    PageRead {
        text,
        lines,
        saw_image: interp.saw_image,
        truncated: truncated || interp.truncated,
        damaged: damaged || interp.damaged,
        tally: interp.tally,
    }
}

/// The page's fonts (by resource name) that it shows as a glyph table: at least 16 distinct
/// codes, each shown after a lower one (nine steps in ten), as a table prints a font's glyphs
/// in the order of their codes. Text goes back to letters it used before at every few glyphs,
/// also where a font's codes number its glyphs in the order of first use (the page that first
/// uses them shows 0, 1, 2, … but returns to them: "Introduction" is 0 1 2 3 4 5 6 7 2 8 4 1).
fn glyph_tables(ops: &[Op]) -> HashSet<String> {
    // Enough of a font's codes to tell; a page may show millions.
    const SAMPLE: usize = 4096;
    let mut shown: HashMap<&str, Vec<u8>> = HashMap::new();
    let mut font = None;
    for op in ops {
        let text: Vec<&[u8]> = match op {
            Op::TextFont { name, .. } => {
                font = Some(name.as_str());
                continue;
            }
            Op::TextDraw { text } => vec![text.as_bytes()],
            Op::TextDrawAdjusted { array } => array
                .iter()
                .filter_map(|item| match item {
                    TextDrawAdjusted::Text(text) => Some(text.as_bytes()),
                    TextDrawAdjusted::Spacing(_) => None,
                })
                .collect(),
            _ => continue,
        };
        if let Some(font) = font {
            let codes = shown.entry(font).or_default();
            for bytes in text {
                let room = SAMPLE.saturating_sub(codes.len());
                codes.extend_from_slice(&bytes[..bytes.len().min(room)]);
            }
        }
    }
    shown
        .into_iter()
        .filter(|(_, codes)| {
            let distinct = codes.iter().collect::<HashSet<_>>().len();
            let rising = codes.windows(2).filter(|w| w[1] > w[0]).count();
            distinct >= 16 && rising * 10 >= 9 * (codes.len() - 1)
        })
        .map(|(name, _)| name.to_string())
        .collect()
}
