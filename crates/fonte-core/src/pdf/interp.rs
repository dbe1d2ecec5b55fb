//! A content-stream interpreter that only follows what places text: the graphics state's CTM,
//! the text state (Tc, Tw, Tz, TL, Ts, font and size) and the text matrices, into form XObjects.

use std::collections::HashMap;
use std::rc::Rc;

use pdf::content::{Op, TextDrawAdjusted};
use pdf::object::{PlainRef, Resolve, Resources, XObject};

use super::actual_text::Spans;
use super::font::{FontDecoder, Loss};
pub use super::matrix::{annotation_matrix, M0};
use super::matrix::{mirrored_on_a_line, quarter_turns, turned, M};
use super::placed::clip_to_box;
pub use super::placed::Placed;
use super::tally::Tally;
use super::text_state::{end_at_advance, spacing_taken_back, GState};

/// Limits that keep a hostile file from running away.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Operators left to interpret on this page (forms included).
    pub ops: usize,
    /// Glyphs left to place.
    pub glyphs: usize,
    /// Decoded content bytes left (forms drawn by the page).
    pub content_bytes: usize,
}

/// Glyph codes are at most 4 bytes: a string longer than this many bytes per glyph left in the
/// budget is cut before decoding (one `Tj` of 20 MB asked for an 800 MB glyph list).
const MAX_CODE_BYTES: usize = 4;

/// A form's operators, parsed once per page however often it is drawn, with whether its
/// stream was damaged.
pub type FormOps = Rc<(Vec<Op>, bool)>;

/// Interprets `ops` with `resources`, appending placed glyphs to `out`.
pub struct Interpreter<'r, R: Resolve> {
    resolve: &'r R,
    budget: Budget,
    /// Set when a budget ran out, so the page is reported as partial.
    pub truncated: bool,
    /// Whether an image was drawn (a page with images and no text is probably a scan).
    pub saw_image: bool,
    /// Set when text may be missing: a form whose stream is damaged. The page is then
    /// reported as not read in full.
    pub damaged: bool,
    /// Glyphs shown, and those that gave no text.
    pub tally: Tally,
    /// The page area a viewer shows (x0, x1, y0, y1): a glyph placed outside it (a printer's
    /// slug line beyond the crop box) is not counted, since no reader could miss it.
    pub shown_area: Option<[f32; 4]>,
    // Forms by object, parsed once: a form drawn 100,000 times was decoded and parsed as often.
    forms: HashMap<PlainRef, FormOps>,
    // Fonts by (resources, name), loaded once per page, not once per form drawn.
    fonts: HashMap<(usize, String), Option<Rc<FontDecoder>>>,
    // Marked content, and the /ActualText span open in it.
    spans: Spans,
}

impl<'r, R: Resolve> Interpreter<'r, R> {
    /// A fresh interpreter for one page.
    pub fn new(resolve: &'r R, budget: Budget) -> Self {
        Self {
            resolve,
            budget,
            truncated: false,
            saw_image: false,
            damaged: false,
            tally: Tally::default(),
            shown_area: None,
            forms: HashMap::new(),
            fonts: HashMap::new(),
            spans: Spans::default(),
        }
    }

    /// The operators of form `key` (parsed on first use, within the content and operator
    /// budgets; those before damage are kept). None when the content budget is spent.
    pub fn form(&mut self, key: PlainRef, form: &pdf::content::FormXObject) -> Option<FormOps> {
        if let Some(ops) = self.forms.get(&key) {
            return Some(ops.clone());
        }
        // A form whose Flate data breaks off keeps what decodes before the break, as a page's
        // content does; it is damage either way.
        let (data, damaged) = match form.stream.data(self.resolve) {
            Ok(data) => (Some(data), false),
            Err(_) => (form.stream.data_prefix(self.resolve).map(Into::into), true),
        };
        let parsed = match data {
            Some(data) if data.len() <= self.budget.content_bytes => {
                self.budget.content_bytes -= data.len();
                let (ops, error, cut) =
                    pdf::content::parse_ops_limited(&data, self.resolve, self.budget.ops);
                self.truncated |= cut;
                (ops, damaged || error.is_some())
            }
            Some(_) => {
                self.truncated = true;
                return None;
            }
            None => (Vec::new(), true),
        };
        let parsed = Rc::new(parsed);
        self.forms.insert(key, parsed.clone());
        Some(parsed)
    }

    /// Glyphs placed from outside a content stream (a form field's value), within the glyph
    /// budget like any others: what is over it is cut and the page reported truncated.
    pub fn place(&mut self, mut glyphs: Vec<Placed>, out: &mut Vec<Placed>) {
        if glyphs.len() > self.budget.glyphs {
            glyphs.truncate(self.budget.glyphs);
            self.truncated = true;
        }
        self.budget.glyphs -= glyphs.len();
        out.extend(glyphs);
    }

    /// Ends the page: an /ActualText span its content left open takes its glyphs all the same.
    pub fn finish(&mut self, out: &mut Vec<Placed>) {
        self.spans.close(out);
    }

    /// Runs a page's (or form's) operators.
    pub fn run(
        &mut self,
        ops: &[Op],
        resources: Option<&Resources>,
        ctm: M0,
        out: &mut Vec<Placed>,
        depth: usize,
    ) {
        let mut stack: Vec<GState> = Vec::new();
        let mut gs = GState {
            ctm: M(ctm.0),
            font: None,
            font_broken: false,
            invisible: false,
            size: 0.0,
            char_space: 0.0,
            word_space: 0.0,
            scale: 1.0,
            leading: 0.0,
            rise: 0.0,
            words_by_spacing: false,
        };
        let mut tm = M::IDENTITY;
        let mut tlm = M::IDENTITY;
        for op in ops {
            if self.budget.ops == 0 || self.budget.glyphs == 0 {
                self.truncated = true;
                return;
            }
            self.budget.ops -= 1;
            match op {
                // Deeper nesting than any real file needs is ignored, not an unbounded stack.
                Op::Save if stack.len() < 256 => stack.push(gs.clone()),
                Op::Restore => {
                    if let Some(s) = stack.pop() {
                        gs = s;
                    }
                }
                Op::Transform { matrix } => gs.ctm = M::from(matrix).then(gs.ctm),
                Op::BeginText => {
                    tm = M::IDENTITY;
                    tlm = M::IDENTITY;
                }
                Op::CharSpacing { char_space } => gs.char_space = *char_space,
                Op::WordSpacing { word_space } => gs.word_space = *word_space,
                Op::TextScaling { horiz_scale } => gs.scale = horiz_scale / 100.0,
                Op::Leading { leading } => gs.leading = *leading,
                Op::TextRise { rise } => gs.rise = *rise,
                Op::TextRenderMode { mode } => {
                    use pdf::content::TextMode;
                    gs.invisible = matches!(mode, TextMode::Invisible | TextMode::Clip)
                }
                Op::TextFont { name, size } => {
                    gs.size = *size;
                    let key = (
                        resources.map_or(0, |r| r as *const Resources as usize),
                        name.as_str().to_string(),
                    );
                    let resolve = self.resolve;
                    let decoder = self
                        .fonts
                        .entry(key)
                        .or_insert_with(|| {
                            let lazy = resources?.fonts.get(name.as_str())?;
                            let font = lazy.load(resolve).ok()?;
                            Some(Rc::new(FontDecoder::new(&font, resolve)))
                        })
                        .clone();
                    gs.font_broken = decoder.is_none();
                    gs.font = decoder;
                }
                Op::MoveTextPosition { translation } => {
                    tlm = M::translate(translation.x, translation.y).then(tlm);
                    tm = tlm;
                }
                Op::SetTextMatrix { matrix } => {
                    tlm = M::from(matrix);
                    tm = tlm;
                }
                Op::TextNewline => {
                    tlm = M::translate(0.0, -gs.leading).then(tlm);
                    tm = tlm;
                }
                Op::TextDraw { text } => {
                    self.show(text.as_bytes(), &gs, &mut tm, out);
                }
                Op::TextDrawAdjusted { array } => {
                    // Where a kern takes back (nearly) all of the character spacing, the
                    // spacing is no letter spacing but pdfTeX's way of spacing words: it sets
                    // "who was" as "[(,w) 354.9 (h) 352.3 (o) -23.3 (w) 385 (a) 348 (s)]" at
                    // 0.35 em of Tc (fancyref.pdf), each letter's spacing kerned back and the
                    // break left, and "and pfb" with the next word a spacing after the d
                    // (pxfontsdoc.pdf). Every glyph of such an array ends at its advance, and
                    // the layout reads the gaps. A font's kern in letter-spaced display type
                    // takes back a small share of the spacing.
                    let shown = GState {
                        words_by_spacing: spacing_taken_back(array, &gs),
                        ..gs.clone()
                    };
                    let mut last_shown = false;
                    for item in array {
                        match item {
                            TextDrawAdjusted::Text(text) => {
                                last_shown = self.show(text.as_bytes(), &shown, &mut tm, out);
                            }
                            TextDrawAdjusted::Spacing(n) => {
                                // A kern that takes back a good part of the spacing (a quarter:
                                // pdfTeX's contents lines at 0.5 em of Tc, each glyph kerned
                                // back by as much, txfontsdoc.pdf) ends the glyph before it at
                                // its advance too.
                                let back = n / 1000.0 * gs.size;
                                if last_shown && gs.char_space > 0.0 && back >= gs.char_space / 4.0
                                {
                                    end_at_advance(out, &gs, tm);
                                }
                                last_shown = false;
                                // In vertical writing the number moves the pen down.
                                tm = if gs.font.as_ref().is_some_and(|f| f.vertical()) {
                                    M::translate(0.0, -n / 1000.0 * gs.size)
                                } else {
                                    M::translate(-n / 1000.0 * gs.size * gs.scale, 0.0)
                                }
                                .then(tm);
                            }
                        }
                    }
                }
                Op::BeginMarkedContent { properties, .. } => {
                    self.spans.begin(properties.as_ref(), resources, out.len())
                }
                Op::EndMarkedContent => self.spans.end(out),
                Op::InlineImage { .. } => self.saw_image = true,
                Op::XObject { name } => {
                    let Some(xref) = resources.and_then(|r| r.xobjects.get(name.as_str())) else {
                        continue;
                    };
                    let Ok(xobject) = self.resolve.get(*xref) else {
                        continue;
                    };
                    match &*xobject {
                        XObject::Image(_) => self.saw_image = true,
                        XObject::Form(form) if depth < 8 => {
                            let Some(parsed) = self.form(xref.get_inner(), form) else {
                                continue;
                            };
                            self.damaged |= parsed.1;
                            let dict = form.dict();
                            let m = dict.matrix.as_ref().map_or(M::IDENTITY, M::from);
                            let res = dict.resources.as_deref().or(resources);
                            let (before, to_page) = (out.len(), m.then(gs.ctm));
                            self.run(&parsed.0, res, M0(to_page.0), out, depth + 1);
                            let b = &dict.bbox;
                            let bbox = [b.left, b.bottom, b.right, b.top];
                            clip_to_box(out, before, bbox, to_page);
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// Places the glyphs of one string; true when its last glyph was placed (the last of `out`).
    fn show(&mut self, bytes: &[u8], gs: &GState, tm: &mut M, out: &mut Vec<Placed>) -> bool {
        let most = self.budget.glyphs.saturating_mul(MAX_CODE_BYTES);
        let bytes = if bytes.len() > most {
            self.truncated = true;
            &bytes[..most]
        } else {
            bytes
        };
        let Some(font) = &gs.font else {
            if gs.font_broken {
                // How many glyphs is unknown without the font: one a byte, as a simple font.
                let n = bytes.len().min(self.budget.glyphs) as u32;
                self.budget.glyphs -= n as usize;
                self.tally
                    .count(!gs.invisible, Some(Loss::FontNotLoaded), n);
            }
            return false;
        };
        let glyphs = font.decode(bytes);
        // Ghostscript (ps2pdf of troff and other PostScript) justifies a line by showing the
        // two glyphs around a word break as one string with a character spacing as wide as
        // the break: "(dw) Tj" at 4.4 Tc is "invoked with". Letter-spaced text spaces a run
        // of three glyphs or more, so only a two-glyph string's spacing is left out of its
        // first glyph's end, and the layout sees the gap and reads a word break where it is
        // wide enough (as pdftotext does; grdemo-doc.pdf, issue 16).
        let break_between =
            glyphs.len() == 2 && gs.char_space > 0.0 && !glyphs.iter().any(|g| g.is_space_code);
        // A character spacing of an em or more is no letter spacing (tracking rarely passes
        // half an em): the glyphs are items apart, as the cells of a glyph table that pdfTeX
        // spaces with 1.3 em of Tc (txfontsdoc.pdf).
        let apart = gs.size > 0.0 && gs.char_space >= gs.size;
        // A lone glyph reflected in place is a typographic device (the reversed E of the XeTeX
        // logo) and stays in its line; a reflected string is a mirror image, read along its
        // advance with the skewed text.
        let alone = glyphs.len() == 1;
        // Vertical writing (Japanese columns): each glyph moves the pen down, and a column
        // reads as a line turned a quarter clockwise, whose frame turns the page so that
        // columns read right to left become lines read top to bottom.
        let vertical = font.vertical();
        let frame = font.glyph_frame();
        let mut placed_last = false;
        for (i, glyph) in glyphs.into_iter().enumerate() {
            placed_last = false;
            let trm = M([gs.size * gs.scale, 0.0, 0.0, gs.size, 0.0, gs.rise])
                .then(*tm)
                .then(gs.ctm);
            let trm = match frame {
                Some([fa, fb, fc, fd]) => {
                    // Which way up a Type3 glyph is drawn its matrices cannot tell: its
                    // procedures may draw it with y down and the font's matrix flip it back
                    // (test_3197.pdf), or upright (dvips). As poppler, only the direction of
                    // its baseline counts, and a reflected glyph reads as upright.
                    let [a, b, c, d, e, f] = M([fa, fb, fc, fd, 0.0, 0.0]).then(trm).0;
                    let sign = if a * d - b * c < 0.0 { -1.0 } else { 1.0 };
                    M([a, b, sign * c, sign * d, e, f])
                }
                None => trm,
            };
            let [a, b, c, d, e, f] = trm.0;
            let in_view = self
                .shown_area
                .is_none_or(|[x0, x1, y0, y1]| (x0..=x1).contains(&e) && (y0..=y1).contains(&f));
            if in_view && !(glyph.is_space_code && glyph.text.is_empty()) {
                let lost = glyph.lost.filter(|_| !self.spans.is_open());
                self.tally.count(!gs.invisible, lost, 1);
            }
            let mut advance = glyph.width * gs.size + gs.char_space;
            if glyph.is_space_code {
                advance += gs.word_space;
            }
            if vertical {
                *tm = M::translate(0.0, -advance).then(*tm);
            } else {
                advance *= gs.scale;
                *tm = M::translate(advance, 0.0).then(*tm);
            }
            let spacing_apart = (break_between && i == 0) || apart || gs.words_by_spacing;
            let (x_end, y_end) = if spacing_apart && !vertical {
                M::translate(-gs.char_space * gs.scale, 0.0)
                    .then(*tm)
                    .then(gs.ctm)
                    .apply(0.0, 0.0)
            } else {
                tm.then(gs.ctm).apply(0.0, 0.0)
            };
            // Every decoded glyph costs, shown or not: a string of unmapped codes repeated
            // by a million `Tj` is work too.
            self.budget.glyphs = self.budget.glyphs.saturating_sub(1);
            self.spans.shown(|| Placed {
                text: String::new(),
                x: e,
                y: f,
                x_end,
                y_end,
                size: (c * c + d * d).sqrt(),
                turns: turned(quarter_turns(a, b, c, d), vertical),
                synthesized: false,
            });
            if glyph.text.is_empty() {
                continue;
            }
            // A space squeezed by a negative word spacing to under a tenth of an em separates
            // nothing on the page (Ghostscript draws "hav e" at -2.5 Tw for "have"): the
            // layout then reads the gap, as it does where no space is drawn.
            if glyph.text.chars().all(char::is_whitespace) && advance < 0.1 * gs.size * gs.scale {
                continue;
            }
            let size = (c * c + d * d).sqrt();
            let (x, x_end, turns) = match quarter_turns(a, b, c, d) {
                None if alone && !vertical && mirrored_on_a_line(a, b, c, d) => {
                    (e.min(x_end), e.max(x_end), Some(0))
                }
                turns => (e, x_end, turned(turns, vertical)),
            };
            out.push(Placed {
                text: glyph.text,
                x,
                y: f,
                x_end,
                y_end,
                size,
                turns,
                synthesized: false,
            });
            placed_last = true;
        }
        placed_last
    }
}
