//! What a form field's widget shows when its appearance stream shows no text.
//!
//! Forms made by LibreOffice and many others store an empty appearance (`/Tx BMC EMC`) and set
//! the AcroForm's /NeedAppearances, leaving the viewer to draw the field's value from /V: a
//! filled form read only through its appearance streams loses every value the user typed
//! ("Alice" in pypdf's libreoffice-form.pdf). Viewers (and pdftotext, through poppler) draw the
//! value of a text field, the chosen item of a combo box and the items of a list box; so does
//! this, as plain glyphs in the widget's rectangle. A password field shows nothing.

use pdf::object::{Rectangle, Resolve};
use pdf::primitive::{Dictionary, Primitive};

use super::docenc;
use super::interp::Placed;

/// Field flags (PDF 32000-1, tables 226–230).
const MULTILINE: i32 = 1 << 12;
const PASSWORD: i32 = 1 << 13;
const COMBO: i32 = 1 << 17;

/// The lines a widget's field shows, and the font size its /DA asks for (0: fit the box).
#[derive(Debug, Default, PartialEq)]
pub(super) struct Shown {
    pub(super) lines: Vec<String>,
    pub(super) size: f32,
}

/// What the field behind widget `annot` shows: nothing for a button, a signature or an empty
/// field.
pub(super) fn shown(annot: &Dictionary, resolve: &impl Resolve) -> Shown {
    let name = |key| inherited(annot, key, resolve).and_then(|p| p.into_name().ok());
    let flags = inherited(annot, "Ff", resolve)
        .and_then(|f| f.as_integer().ok())
        .unwrap_or(0);
    let size = inherited(annot, "DA", resolve)
        .and_then(|da| text(&da))
        .map_or(0.0, |da| font_size(&da));
    let value = inherited(annot, "V", resolve);
    let lines = match name("FT").as_deref() {
        Some("Tx") if flags & PASSWORD == 0 => {
            let value = value.as_ref().and_then(text).unwrap_or_default();
            if flags & MULTILINE != 0 {
                value.split(['\r', '\n']).map(str::to_string).collect()
            } else {
                vec![value.split(['\r', '\n']).collect::<Vec<_>>().join(" ")]
            }
        }
        Some("Ch") if flags & COMBO != 0 => value.as_ref().and_then(text).into_iter().collect(),
        // A list box shows its items from its top index (/TI: the list scrolled so, as the
        // user left it) down, as poppler draws them.
        Some("Ch") => inherited(annot, "Opt", resolve)
            .and_then(|o| o.resolve(resolve).ok())
            .and_then(|o| o.into_array().ok())
            .unwrap_or_default()
            .iter()
            .skip(top_index(annot, resolve))
            .take(1_000)
            .filter_map(|item| match item {
                // An item is its text, or [export value, text shown].
                Primitive::Array(pair) => pair.get(1).and_then(text),
                other => text(other),
            })
            .collect(),
        _ => Vec::new(),
    };
    let lines: Vec<String> = lines
        .into_iter()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    Shown { lines, size }
}

/// A list box's /TI, where it is a usable index.
fn top_index(annot: &Dictionary, resolve: &impl Resolve) -> usize {
    inherited(annot, "TI", resolve)
        .and_then(|t| t.as_integer().ok())
        .and_then(|t| usize::try_from(t).ok())
        .unwrap_or(0)
}

/// Glyphs for `shown` in `rect`: from its left edge, a single line centred in the box and
/// several lines from its top, at an average advance of half the font size.
pub(super) fn glyphs(shown: &Shown, rect: &Rectangle) -> Vec<Placed> {
    let left = rect.left.min(rect.right);
    let (bottom, top) = (rect.bottom.min(rect.top), rect.bottom.max(rect.top));
    let height = top - bottom;
    let size = match shown.size {
        s if s > 0.0 => s,
        _ => (height * 0.7).clamp(4.0, 12.0),
    };
    let mut out = Vec::new();
    for (i, line) in shown.lines.iter().enumerate() {
        let y = if shown.lines.len() == 1 && height < 2.5 * size {
            bottom + (height - size) / 2.0 + 0.25 * size
        } else {
            top - 2.0 - 0.8 * size - i as f32 * 1.15 * size
        };
        let mut x = left + 2.0;
        for c in line.chars() {
            let x_end = x + 0.5 * size;
            out.push(Placed {
                text: c.to_string(),
                x,
                y,
                x_end,
                y_end: y,
                size,
                turns: Some(0),
                synthesized: true,
            });
            x = x_end;
        }
    }
    out
}

/// A field attribute, from the widget or the nearest field above it (a widget is often the
/// only kid of its field, which holds /FT, /V and /Ff).
fn inherited(annot: &Dictionary, key: &str, resolve: &impl Resolve) -> Option<Primitive> {
    let mut node = annot.clone();
    for _ in 0..16 {
        if let Some(v) = node.get(key) {
            return v.clone().resolve(resolve).ok();
        }
        node = node
            .get("Parent")?
            .clone()
            .resolve(resolve)
            .ok()?
            .into_dictionary()
            .ok()?;
    }
    None
}

fn text(p: &Primitive) -> Option<String> {
    match p {
        Primitive::String(s) => Some(docenc::text_string(s.as_bytes())),
        _ => None,
    }
}

/// The size of `/F 11 Tf` in a default appearance string.
fn font_size(da: &str) -> f32 {
    let words: Vec<&str> = da.split_whitespace().collect();
    words
        .windows(2)
        .rev()
        .find(|w| w[1] == "Tf")
        .and_then(|w| w[0].parse::<f32>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1_000.0)
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdf::primitive::PdfString;

    fn string(s: &str) -> Primitive {
        Primitive::String(PdfString::new(s.as_bytes().into()))
    }

    fn widget(entries: Vec<(&str, Primitive)>) -> Dictionary {
        let mut d = Dictionary::new();
        for (k, v) in entries {
            d.insert(k, v);
        }
        d
    }

    fn lines(annot: &Dictionary) -> Vec<String> {
        shown(annot, &pdf::object::NoResolve).lines
    }

    #[test]
    fn a_text_field_shows_its_value_at_its_font_size() {
        let field = widget(vec![
            ("FT", Primitive::name("Tx")),
            ("V", string("Alice")),
            ("DA", string("0.3 0.3 0.3 rg /F3 11 Tf")),
        ]);
        let shown = shown(&field, &pdf::object::NoResolve);
        assert_eq!(shown.lines, ["Alice"]);
        assert_eq!(shown.size, 11.0);
        let rect = Rectangle {
            left: 100.0,
            bottom: 700.0,
            right: 200.0,
            top: 716.0,
        };
        let placed = glyphs(&shown, &rect);
        assert_eq!(placed.len(), 5);
        assert!(placed
            .iter()
            .all(|g| g.y > 700.0 && g.y < 716.0 && g.x > 100.0));
    }

    #[test]
    fn a_widget_takes_type_and_value_from_its_field() {
        let parent = widget(vec![
            ("FT", Primitive::name("Tx")),
            ("Ff", Primitive::Integer(MULTILINE)),
            ("V", string("first line\rsecond line\n")),
        ]);
        let kid = widget(vec![("Parent", Primitive::Dictionary(parent))]);
        assert_eq!(lines(&kid), ["first line", "second line"]);
    }

    #[test]
    fn a_list_box_shows_its_items_and_a_combo_box_its_choice() {
        let items = Primitive::Array(vec![
            string("Liste1"),
            Primitive::Array(vec![string("x2"), string("Liste2")]),
        ]);
        let list = widget(vec![("FT", Primitive::name("Ch")), ("Opt", items.clone())]);
        assert_eq!(lines(&list), ["Liste1", "Liste2"]);
        let combo = widget(vec![
            ("FT", Primitive::name("Ch")),
            ("Ff", Primitive::Integer(COMBO)),
            ("Opt", items),
            ("V", string("Liste2")),
        ]);
        assert_eq!(lines(&combo), ["Liste2"]);
    }

    #[test]
    fn passwords_buttons_and_empty_fields_show_nothing() {
        let password = widget(vec![
            ("FT", Primitive::name("Tx")),
            ("Ff", Primitive::Integer(PASSWORD)),
            ("V", string("hunter2")),
        ]);
        assert!(lines(&password).is_empty());
        let button = widget(vec![("FT", Primitive::name("Btn")), ("V", string("Yes"))]);
        assert!(lines(&button).is_empty());
        let empty = widget(vec![("FT", Primitive::name("Tx")), ("V", string(""))]);
        assert!(lines(&empty).is_empty());
    }
}
