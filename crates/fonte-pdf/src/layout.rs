//! Placed glyphs -> page text: lines from baselines, spaces from gaps, paragraphs from vertical
//! gaps, TeX accents drawn as separate glyphs merged onto their letters, ligatures spelled out.
//! Words hyphenated at a line end stay as printed (the page text is what a citation
//! highlights); search joins them again (`text::words`).

use serde::{Deserialize, Serialize};

use super::accents::merge_accents;
use super::bidi;
use super::interp::Placed;
use super::line_text::{clean, line_text};
use super::overdraw::{drop_overdrawn, drop_spaces_drawn_back};
use super::skewed;

struct Line {
    glyphs: Vec<Placed>,
    // Whether it holds right-to-left letters.
    rtl: bool,
    y: f32,
    // Its largest glyph's size: a line may start with a small line number or mark, and a
    // mark raised over its text is measured against the text (1-tabular.pdf).
    size: f32,
    x_min: f32,
}

fn same_line(line: &Line, g: &Placed) -> bool {
    let last = line.glyphs.last().expect("lines are never empty");
    let tol = 0.5 * line.size.max(g.size).max(1.0);
    let size = g.size.max(1.0);
    // How far a glyph may start behind the last one's start: half an em of the smaller of the
    // two, so a glyph ten times the line's size does not reach back over its last word.
    let back = 0.5 * g.size.min(last.size).max(1.0);
    let rightwards = g.x > last.x - back && g.x - last.x_end < 30.0 * size;
    // Right-to-left text drawn glyph by glyph in reading order moves leftwards (LuaTeX).
    let leftwards = (line.rtl || bidi::has_rtl(&g.text))
        && g.x_end < last.x + 0.5 * size
        && last.x - g.x_end < 30.0 * size;
    // A combining mark placed on its own, above or below its letter (LuaTeX), is part of it.
    let mark_over_last = bidi::is_mark(g)
        && (g.y - line.y).abs() < 1.5 * size
        && g.x > last.x.min(last.x_end) - 0.5 * size
        && g.x < last.x.max(last.x_end) + 0.5 * size;
    mark_over_last || ((g.y - line.y).abs() < tol && (rightwards || leftwards))
}

/// Puts each run of left-to-right glyphs drawn leftwards, one after another, back in the
/// order they stand on the page: three glyphs or more of one size on one baseline, each
/// ending just left of where the one before starts (less than 0.8 em apart: a word space).
/// ConTeXt sets Latin right to left so ("esu ni stpircs" in bidi.pdf), which read a letter a
/// line, since only a line of right-to-left letters may run leftwards (`same_line`); right-
/// to-left letters are left to the bidirectional reordering. Only the run is turned, not its
/// line: small labels drawn among the words stay where they were drawn. At least half the
/// run's steps must be letters touching: a row of items placed leftwards a space apart is no
/// word.
fn reverse_leftward_runs(mut glyphs: Vec<Placed>) -> Vec<Placed> {
    let abuts = |a: &Placed, b: &Placed| {
        let size = a.size.max(1.0);
        (a.size - b.size).abs() <= 0.01 * size
            && (a.y - b.y).abs() < 0.1 * size
            && b.x < a.x
            && b.x_end <= a.x + 0.1 * size
            && a.x - b.x_end < 0.8 * size
            && !bidi::has_rtl(&a.text)
            && !bidi::has_rtl(&b.text)
    };
    let mut i = 0;
    while i < glyphs.len() {
        let mut j = i + 1;
        while j < glyphs.len() && abuts(&glyphs[j - 1], &glyphs[j]) {
            j += 1;
        }
        // Letters drawn leftwards touch, but for the word spaces; items placed leftwards one
        // by one (a Chinese report's footer "第 26 页 共 29 页", test_4699.pdf) stand apart.
        let touching = glyphs[i..j]
            .windows(2)
            .filter(|w| w[0].x - w[1].x_end < 0.15 * w[0].size.max(1.0))
            .count();
        if j - i >= 3 && 2 * touching >= j - i - 1 {
            glyphs[i..j].reverse();
        }
        i = j;
    }
    glyphs
}

/// One line of a page's text: its characters and where it is drawn, so a passage (a range of
/// characters) can be marked on the rendered page by geometry, not by matching words.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TextLine {
    /// First character (Unicode scalar values of the page text).
    pub start: u32,
    /// One past the last character.
    pub end: u32,
    /// The box of its glyphs in the page's user space (y up): left, bottom, right, top.
    pub rect: [f32; 4],
}

/// Boxes covering characters `start..end` of a page laid out as `lines` from `text`: whole
/// lines inside the range, and the covered share of a line the range starts or ends in (by
/// characters, which is close enough for a highlight: a line's glyphs are of one font, mostly),
/// measured from the line's right end where it reads right to left (its characters are in
/// reading order, its box is on the page). Told from the line's letters, so pages stored before
/// right-to-left lines were laid out mark the same way.
pub fn marks(text: &str, lines: &[TextLine], start: usize, end: usize) -> Vec<[f32; 4]> {
    let (start, end) = (start as f32, end as f32);
    let chars: Vec<char> = text.chars().collect();
    lines
        .iter()
        .filter(|l| (l.start as f32) < end && (l.end as f32) > start && l.end > l.start)
        .map(|l| {
            let [x0, y0, x1, y1] = l.rect;
            let n = (l.end - l.start) as f32;
            let from = (start - l.start as f32).max(0.0) / n;
            let to = (end - l.start as f32).min(n) / n;
            let line = chars
                .get(l.start as usize..l.end as usize)
                .unwrap_or_default();
            if from > 0.0 || to < 1.0 {
                let line: String = line.iter().collect();
                if bidi::reads_right_to_left(&line) {
                    return [x1 - (x1 - x0) * to, y0, x1 - (x1 - x0) * from, y1];
                }
            }
            [x0 + (x1 - x0) * from, y0, x0 + (x1 - x0) * to, y1]
        })
        .collect()
}

/// Builds the page text from glyphs in content-stream order.
pub fn page_text(glyphs: Vec<Placed>) -> String {
    lay_out(glyphs).0
}

/// The page text from glyphs in content-stream order, with its lines. Text in each of the four
/// right-angle directions is laid out in its own frame, turned upright (a label running up the
/// margin, a rotated table), and follows the upright text, as pdftotext lists it; skewed text
/// follows them, run by run (`skewed`). Line boxes are in the page's space whatever the
/// direction.
pub fn lay_out(glyphs: Vec<Placed>) -> (String, Vec<TextLine>) {
    let mut frames: [Vec<Placed>; 4] = Default::default();
    let mut skewed = Vec::new();
    for g in glyphs {
        match g.turns {
            Some(turns) => frames[turns as usize % 4].push(upright(g, turns)),
            None => skewed.push(g),
        }
    }
    let mut text = String::new();
    let mut boxes = Vec::new();
    for (turns, glyphs) in frames.into_iter().enumerate() {
        let (part, lines) = lay_out_upright(glyphs);
        if part.is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        let offset = text.chars().count() as u32;
        text.push_str(&part);
        boxes.extend(lines.into_iter().map(|l| TextLine {
            start: l.start + offset,
            end: l.end + offset,
            rect: page_rect(l.rect, turns as u8),
        }));
    }
    // Counted as it grows: a page of a thousand slanted labels would count its text again
    // for each.
    let (mut first, mut offset) = (true, text.chars().count() as u32);
    for run in skewed::runs(skewed) {
        let (part, lines) = lay_out_upright(skewed::unrolled(&run));
        if part.is_empty() {
            continue;
        }
        if !text.is_empty() {
            let gap = if first { "\n\n" } else { "\n" };
            text.push_str(gap);
            offset += gap.len() as u32;
        }
        first = false;
        let start = offset;
        offset += part.chars().count() as u32;
        text.push_str(&part);
        let rect = skewed::bounds(&run);
        boxes.extend(lines.into_iter().map(|l| TextLine {
            start: l.start + start,
            end: l.end + start,
            rect,
        }));
    }
    (text, boxes)
}

/// A glyph in the frame that makes its text upright: its points turned by `-turns` quarter
/// turns.
fn upright(mut g: Placed, turns: u8) -> Placed {
    let turn = |x: f32, y: f32| match turns {
        1 => (y, -x),
        2 => (-x, -y),
        3 => (-y, x),
        _ => (x, y),
    };
    let (x, y) = turn(g.x, g.y);
    let (x_end, y_end) = turn(g.x_end, g.y_end);
    (g.x, g.y, g.x_end, g.y_end, g.turns) = (x, y, x_end, y_end, Some(0));
    g
}

/// A box of the upright frame of `turns` back in the page's space.
fn page_rect([x0, y0, x1, y1]: [f32; 4], turns: u8) -> [f32; 4] {
    match turns {
        1 => [-y1, x0, -y0, x1],
        2 => [-x1, -y1, -x0, -y0],
        3 => [y0, -x1, y1, -x0],
        _ => [x0, y0, x1, y1],
    }
}

/// [`lay_out`] for glyphs already upright.
fn lay_out_upright(glyphs: Vec<Placed>) -> (String, Vec<TextLine>) {
    let mut lines: Vec<Line> = Vec::new();
    let glyphs = glyphs
        .into_iter()
        // No page is larger than 14,400 units (PDF 32000-1, C.2): a glyph larger than that,
        // or placed at no finite point, shows nothing a reader could see.
        .filter(|g| {
            g.size > 0.0
                && g.size < 14_400.0
                && g.x.is_finite()
                && g.y.is_finite()
                && g.x_end.is_finite()
        })
        .collect();
    for g in reverse_leftward_runs(drop_spaces_drawn_back(drop_overdrawn(glyphs))) {
        match lines.last_mut() {
            Some(line) if same_line(line, &g) => {
                line.x_min = line.x_min.min(g.x);
                line.size = line.size.max(g.size);
                line.rtl |= bidi::has_rtl(&g.text);
                line.glyphs.push(g);
            }
            _ => lines.push(Line {
                y: g.y,
                size: g.size,
                x_min: g.x,
                rtl: bidi::has_rtl(&g.text),
                glyphs: vec![g],
            }),
        }
    }
    let mut text = String::new();
    let mut chars = 0u32;
    let mut boxes = Vec::with_capacity(lines.len());
    let mut prev: Option<(f32, f32, f32)> = None;
    for line in lines {
        // Ascender and descender as shares of the font size: typical Latin faces (the font's
        // own metrics are not read; a highlight needs no more).
        let rect = line.glyphs.iter().fold(
            [f32::MAX, f32::MAX, f32::MIN, f32::MIN],
            |[x0, y0, x1, y1], g| {
                [
                    x0.min(g.x.min(g.x_end)),
                    y0.min(g.y - 0.22 * g.size),
                    x1.max(g.x.max(g.x_end)),
                    y1.max(g.y + 0.82 * g.size),
                ]
            },
        );
        let body = if line.rtl {
            bidi::line_text(line.glyphs)
        } else {
            clean(&line_text(&merge_accents(line.glyphs)))
        };
        let body = body.trim_end();
        if body.trim().is_empty() {
            continue;
        }
        if let Some((py, psize, px)) = prev {
            let drop = py - line.y;
            let paragraph = drop > 1.7 * psize.max(line.size)
                || drop < -0.5 * line.size
                || (px - line.x_min).abs() > 40.0 * line.size;
            let gap = if paragraph { "\n\n" } else { "\n" };
            text.push_str(gap);
            chars += gap.len() as u32;
        }
        let start = chars;
        text.push_str(body);
        chars += body.chars().count() as u32;
        boxes.push(TextLine {
            start,
            end: chars,
            rect,
        });
        prev = Some((line.y, line.size, line.x_min));
    }
    (text, boxes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(text: &str, x: f32, y: f32, w: f32) -> Placed {
        Placed {
            text: text.into(),
            x,
            y,
            x_end: x + w,
            y_end: y,
            size: 10.0,
            turns: Some(0),
            synthesized: false,
        }
    }

    #[test]
    fn spaces_come_from_gaps_and_lines_from_baselines() {
        let glyphs = vec![
            g("H", 0.0, 100.0, 6.0),
            g("i", 6.0, 100.0, 3.0),
            g("y", 12.0, 100.0, 5.0),
            g("o", 0.0, 88.0, 5.0),
            g("u", 5.2, 88.0, 5.0),
            g("P", 0.0, 40.0, 6.0),
        ];
        assert_eq!(page_text(glyphs), "Hi y\nou\n\nP");
    }

    /// gofpdf's Fpdf_SetAlpha_transparency.pdf: a 12-point label, then a letter fifteen times
    /// its size drawn left of it, its baseline within half the big letter's size: the letter
    /// starts a line of its own, it is not glued to the label's end ("NormalA").
    #[test]
    fn a_large_glyph_drawn_behind_a_small_line_does_not_join_its_last_word() {
        let mut glyphs = run("Normal", 64.0, 601.6, 6.0);
        glyphs.iter_mut().for_each(|g| g.size = 12.0);
        let mut big = g("A", 35.0, 632.5, 100.0);
        big.size = 150.0;
        glyphs.push(big);
        assert_eq!(page_text(glyphs), "Normal\nA");
    }

    /// Glyphs of `text` laid from `x` with each advance `w`, left to right.
    fn run(text: &str, x: f32, y: f32, w: f32) -> Vec<Placed> {
        let chars: Vec<char> = text.chars().collect();
        (0..chars.len())
            .map(|i| g(&chars[i].to_string(), x + w * i as f32, y, w))
            .collect()
    }

    #[test]
    fn right_to_left_text_reads_in_logical_order_whichever_way_it_is_drawn() {
        // XeTeX: each line drawn left to right in visual order ("פרק 1" on the page: "1 קרפ").
        let mut drawn = run("1 קרפ", 200.0, 100.0, 5.0);
        drawn.extend(run("The word ", 0.0, 88.0, 5.0));
        drawn.extend(run("םולש", 45.0, 88.0, 5.0));
        drawn.extend(run(".הלילח", 200.0, 76.0, 5.0));
        assert_eq!(page_text(drawn), "פרק 1\nThe word שלום\nחלילה.");
        // LuaTeX: each glyph drawn leftwards in reading order, a mark after its letter.
        let mut reading: Vec<Placed> = run("1 קרפ", 200.0, 100.0, 5.0).into_iter().rev().collect();
        let mut syriac: Vec<Placed> = run("ܝܟܪܟܡ", 200.0, 88.0, 5.0).into_iter().rev().collect();
        syriac.insert(1, g("\u{73f}", 224.0, 92.0, 0.0));
        reading.extend(syriac);
        assert_eq!(page_text(reading), "פרק 1\nܡ\u{73f}ܟܪܟܝ");
        // A left-to-right line is left as drawn: a glyph drawn back starts a new line.
        let latin = vec![
            g("a", 0.0, 100.0, 5.0),
            g("b", 5.0, 100.0, 5.0),
            g("c", -10.0, 100.0, 5.0),
        ];
        assert_eq!(page_text(latin), "ab\nc");
    }

    #[test]
    fn latin_set_right_to_left_glyph_by_glyph_stays_on_its_line() {
        // ConTeXt's bidi.pdf: "There are many " then "scripts in" set right to left, each
        // letter drawn left of the one before (a word space as a gap), then " and" rightwards
        // again; read a letter a line before. Read as it stands on the page.
        let mut glyphs = run("There are many ", 0.0, 100.0, 5.0);
        // Drawn from x = 120 leftwards: "scripts" ends at 85, a 3-unit word space, "in".
        let mut x = 120.0;
        for c in "scripts in".chars() {
            if c == ' ' {
                x -= 3.0;
                continue;
            }
            x -= 5.0;
            glyphs.push(g(&c.to_string(), x, 100.0, 5.0));
        }
        glyphs.extend(run(" and", 120.0, 100.0, 5.0));
        assert_eq!(page_text(glyphs), "There are many ni stpircs and");
        // Two glyphs drawn back are no run: the second still starts a line.
        let two = vec![g("a", 10.0, 100.0, 5.0), g("b", 5.0, 100.0, 5.0)];
        assert_eq!(page_text(two), "a\nb");
        // Items placed leftwards a word space apart are no word to turn round (a footer's "第
        // 26 页 共 29 页" drawn from its right end, test_4699.pdf: "2 页 共" once the "2" ended
        // at its ink): each stays where it was drawn, one a line.
        let items = vec![
            g("共", 357.5, 100.0, 8.25),
            g("页", 345.5, 100.0, 8.25),
            g("2", 334.2, 100.0, 4.8),
            g("6", 338.4, 100.0, 4.8),
        ];
        assert_eq!(page_text(items), "共\n页\n26");
    }

    #[test]
    fn part_of_a_right_to_left_line_is_marked_from_its_right_end() {
        // "פרק 1" drawn from x = 200 to 225: its first word is the right part of the line.
        let mut drawn = run("1 קרפ", 200.0, 100.0, 5.0);
        drawn.extend(run("The word ", 200.0, 88.0, 5.0));
        let (text, lines) = lay_out(drawn);
        assert_eq!(text, "פרק 1\nThe word");
        let [first] = marks(&text, &lines, 0, 3)[..] else {
            panic!("one line")
        };
        assert!(first[0] > 209.0 && first[2] > 224.0, "{first:?}");
        let [last] = marks(&text, &lines, 4, 5)[..] else {
            panic!("one line")
        };
        assert!(last[0] < 201.0 && last[2] < 206.0, "{last:?}");
        // A left-to-right line is marked from its left end, a whole line as its box.
        let [word] = marks(&text, &lines, 6, 9)[..] else {
            panic!("one line")
        };
        assert!(word[0] < 201.0 && word[2] < 217.5, "{word:?}");
        assert_eq!(marks(&text, &lines, 0, 5), vec![lines[0].rect]);
    }

    #[test]
    fn tex_accents_merge_onto_their_letters() {
        // TeX draws the acute first and moves back over the e; the cedilla after the c.
        let glyphs = vec![
            g("a", 0.0, 100.0, 5.0),
            g("´", 5.5, 100.0, 4.0),
            g("e", 5.0, 100.0, 5.0),
            g("c", 10.0, 100.0, 5.0),
            g("¸", 11.0, 100.0, 3.0),
            g("a", 15.0, 100.0, 5.0),
        ];
        assert_eq!(page_text(glyphs), "aéça");
    }

    #[test]
    fn an_accent_between_two_letters_goes_to_the_nearest_one() {
        // "dispon\\'{\\i}vel": the acute is drawn after the n, centred over the dotless i.
        let glyphs = vec![
            g("n", 0.0, 100.0, 5.5),
            g("´", 5.0, 100.0, 4.0),
            g("ı", 5.5, 100.0, 3.0),
            g("v", 8.5, 100.0, 5.0),
        ];
        assert_eq!(page_text(glyphs), "nív");
    }

    #[test]
    fn an_accent_beside_a_letter_is_not_put_on_it() {
        // `stable' in a font that maps its opening quote to the combining grave, and ~user
        // in code: neither glyph overlaps the letter after it.
        let glyphs = vec![
            g("\u{300}", 0.0, 100.0, 3.0),
            g("s", 3.0, 100.0, 4.0),
            g("~", 10.0, 100.0, 5.0),
            g("u", 15.0, 100.0, 5.0),
        ];
        assert_eq!(page_text(glyphs), "\u{300}s ~u");
    }

    #[test]
    fn a_footnote_mark_is_a_word_of_its_own_before_text() {
        // "¹Nota" at the foot of a page: the raised, smaller mark touches the text after it.
        let mut mark = g("1", 0.0, 104.0, 3.5);
        mark.size = 7.0;
        let glyphs = vec![mark, g("N", 3.6, 100.0, 7.0), g("o", 10.6, 100.0, 5.0)];
        assert_eq!(page_text(glyphs), "1 No");
    }

    #[test]
    fn text_drawn_again_over_itself_is_read_once() {
        // Fake bold draws each word twice 0.3 pt apart; a shadow draws it again 1 pt off.
        let mut glyphs = Vec::new();
        for dx in [0.0, 0.3, 0.8] {
            glyphs.push(g("O", dx, 100.0 - dx, 7.0));
            glyphs.push(g("k", 7.0 + dx, 100.0 - dx, 5.0));
        }
        // The same letters further along are real text.
        glyphs.push(g("O", 14.0, 100.0, 7.0));
        glyphs.push(g("k", 21.0, 100.0, 5.0));
        assert_eq!(page_text(glyphs), "Ok Ok");
    }

    #[test]
    fn a_space_drawn_back_over_the_text_breaks_no_word() {
        // "the loans", drawn as "in t", "he loa", "ns", an invisible space back inside each
        // piece before the next.
        let mut glyphs = run("in t", 0.0, 100.0, 5.0);
        glyphs.push(g(" ", 8.0, 100.0, 2.5));
        glyphs.extend(run("he loa", 20.0, 100.0, 5.0));
        glyphs.push(g(" ", 40.0, 100.0, 2.5));
        glyphs.extend(run("ns", 50.0, 100.0, 5.0));
        assert_eq!(page_text(glyphs), "in the loans");
        // A space after the text is a word break.
        let mut glyphs = run("in", 0.0, 100.0, 5.0);
        glyphs.push(g(" ", 10.0, 100.0, 2.5));
        glyphs.extend(run("t", 12.5, 100.0, 5.0));
        assert_eq!(page_text(glyphs), "in t");
    }

    #[test]
    fn hyphenated_words_stay_as_printed_and_ligatures_are_spelled_out() {
        let glyphs = vec![
            g("in", 0.0, 100.0, 8.0),
            g("for-", 8.0, 100.0, 12.0),
            g("mation", 0.0, 88.0, 20.0),
            g("\u{FB01}le", 0.0, 76.0, 10.0),
        ];
        assert_eq!(page_text(glyphs), "infor-\nmation\nfile");
    }
}
