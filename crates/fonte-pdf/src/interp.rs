//! A content-stream interpreter that only follows what places text: the graphics state's CTM,
//! the text state (Tc, Tw, Tz, TL, Ts, font and size) and the text matrices, into form XObjects.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use pdf::content::{Op, TextDrawAdjusted};
use pdf::object::{PlainRef, Resolve, Resources, XObject};

use super::actual_text::Spans;
use super::font::FontDecoder;
use super::matrix::M;
pub use super::matrix::{annotation_matrix, M0};
use super::placed::clip_to_box;
pub use super::placed::Placed;
use super::tally::Tally;
use super::text_state::{end_at_advance, spacing_taken_back, GState};

mod show;

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
    // The glyphs of the last string shown letter-spaced, until the next string says whether
    // its spacing was letter spacing or word breaks (`show::SpacedRun`).
    spaced: Option<show::SpacedRun>,
    /// The page's fonts that it shows as a glyph table (`page::glyph_tables`): a Type3 font
    /// named from code 0 up is read by its codes there, elsewhere taken as numbered in order
    /// of use.
    pub glyph_tables: HashSet<String>,
    /// Whether Ghostscript wrote the file: its pdfwrite (5.50 to 7.07) numbered the glyphs
    /// of dvips' bitmap fonts in the order of first use and named them "a0", "a1", …; pdfTeX
    /// names a bitmap font's glyphs by their true codes, and one whose document uses every
    /// code from 0 (wasydoc.pdf shows all of wasy10) names them densely from 0 too.
    pub ghostscript: bool,
}

/// Whether a viewer shows a glyph drawn from (x, y) whose advance ends at (x_end, y_end), at
/// least in part: its origin or the middle of its advance inside `area` (x0, x1, y0, y1; none:
/// nothing is cropped). For a vertical font the middle is half way down its column, its
/// origin being its top. The origin alone dropped a 16-point glyph of vertical text whose top
/// stood 3 points above the crop box (asymptote-by-example-zh-cn's xiantu.pdf: "弦圖" read
/// "圖"); the middle alone, the last letter of code lines that run to the box's edge
/// (bacula-doc's console.pdf: "Conf" read "Con").
pub fn glyph_shown(area: Option<[f32; 4]>, x: f32, y: f32, x_end: f32, y_end: f32) -> bool {
    let inside = |x: f32, y: f32| {
        area.is_none_or(|[x0, x1, y0, y1]| (x0..=x1).contains(&x) && (y0..=y1).contains(&y))
    };
    inside(x, y) || inside((x + x_end) / 2.0, (y + y_end) / 2.0)
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
            spaced: None,
            glyph_tables: HashSet::new(),
            ghostscript: false,
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
                    let (tables, ghostscript) = (&self.glyph_tables, self.ghostscript);
                    let decoder = self
                        .fonts
                        .entry(key)
                        .or_insert_with(|| {
                            let lazy = resources?.fonts.get(name.as_str())?;
                            let font = lazy.load(resolve).ok()?;
                            let mut decoder = FontDecoder::new(&font, resolve);
                            if ghostscript
                                && decoder.numbered_from_zero()
                                && !tables.contains(name.as_str())
                            {
                                decoder.forget_code_names();
                            }
                            Some(Rc::new(decoder))
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
}
