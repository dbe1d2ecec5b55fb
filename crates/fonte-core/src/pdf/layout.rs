//! Placed glyphs -> page text: lines from baselines, spaces from gaps, paragraphs from vertical
//! gaps, TeX accents drawn as separate glyphs merged onto their letters, ligatures spelled out.
//! Words hyphenated at a line end stay as printed (the page text is what a citation
//! highlights); search joins them again (`text::words`).

use unicode_normalization::UnicodeNormalization;

use super::interp::Placed;

/// Spacing accents TeX and others draw as their own glyph, with the combining mark each becomes.
fn combining_for(accent: &str) -> Option<char> {
    Some(match accent {
        "´" | "\u{2CA}" | "\u{301}" => '\u{301}',
        "`" | "\u{2CB}" | "\u{300}" => '\u{300}',
        "^" | "ˆ" | "\u{302}" => '\u{302}',
        "~" | "˜" | "\u{303}" => '\u{303}',
        "¨" | "\u{308}" => '\u{308}',
        "¸" | "\u{327}" => '\u{327}',
        "˘" | "\u{306}" => '\u{306}',
        "ˇ" | "\u{30C}" => '\u{30C}',
        "˙" | "\u{307}" => '\u{307}',
        "˚" | "\u{30A}" => '\u{30A}',
        "˝" | "\u{30B}" => '\u{30B}',
        "˛" | "\u{328}" => '\u{328}',
        "¯" | "ˉ" | "\u{304}" => '\u{304}',
        _ => return None,
    })
}

struct Line {
    glyphs: Vec<Placed>,
    y: f32,
    size: f32,
    x_min: f32,
}

fn same_line(line: &Line, g: &Placed) -> bool {
    let last = line.glyphs.last().expect("lines are never empty");
    let tol = 0.5 * line.size.max(g.size).max(1.0);
    (g.y - line.y).abs() < tol
        && g.x > last.x - 0.5 * g.size.max(1.0)
        && g.x - last.x_end < 30.0 * g.size.max(1.0)
}

/// Merges accent glyphs onto the letter they sit over: of the letters before and after the
/// accent, the one whose centre is nearest the accent's centre, if the accent is over it.
fn merge_accents(glyphs: Vec<Placed>) -> Vec<Placed> {
    let centre = |g: &Placed| (g.x + g.x_end) / 2.0;
    let is_letter =
        |g: &Placed| g.text.chars().all(char::is_alphabetic) && combining_for(&g.text).is_none();
    let mut marks: Vec<Vec<char>> = vec![Vec::new(); glyphs.len()];
    let mut dropped = vec![false; glyphs.len()];
    for i in 0..glyphs.len() {
        let Some(mark) = combining_for(&glyphs[i].text) else {
            continue;
        };
        let cx = centre(&glyphs[i]);
        let near = |j: usize| {
            let g = &glyphs[j];
            let over = g.x - 0.2 * g.size <= cx && cx <= g.x_end + 0.2 * g.size;
            (is_letter(g) && over).then(|| (centre(g) - cx).abs())
        };
        let prev = i.checked_sub(1).and_then(|j| near(j).map(|d| (j, d)));
        let next = (i + 1 < glyphs.len())
            .then(|| near(i + 1).map(|d| (i + 1, d)))
            .flatten();
        let target = match (prev, next) {
            (Some(p), Some(n)) => Some(if n.1 < p.1 { n.0 } else { p.0 }),
            (Some(p), None) => Some(p.0),
            (None, Some(n)) => Some(n.0),
            (None, None) => None,
        };
        if let Some(t) = target {
            marks[t].push(mark);
            dropped[i] = true;
        }
    }
    glyphs
        .into_iter()
        .zip(marks)
        .zip(dropped)
        .filter(|(_, d)| !d)
        .map(|((mut g, m), _)| {
            if !m.is_empty() {
                // TeX puts accents on a dotless i or j: the accented letter is the dotted one.
                let base = g.text.replace('ı', "i").replace('ȷ', "j");
                g.text = base.chars().chain(m).collect::<String>().nfc().collect();
            }
            g
        })
        .collect()
}

fn line_text(glyphs: &[Placed]) -> String {
    let mut s = String::new();
    let mut prev: Option<&Placed> = None;
    for g in glyphs {
        if let Some(p) = prev {
            let gap = g.x - p.x_end;
            let size = g.size.max(p.size).max(1.0);
            let has_space =
                s.ends_with(char::is_whitespace) || g.text.starts_with(char::is_whitespace);
            if gap > 0.15 * size && !has_space {
                s.push(' ');
            }
        }
        s.push_str(&g.text);
        prev = Some(g);
    }
    s
}

/// Spells out Latin ligatures, drops soft hyphens and control characters, composes accents.
pub fn clean(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{FB00}' => s.push_str("ff"),
            '\u{FB01}' => s.push_str("fi"),
            '\u{FB02}' => s.push_str("fl"),
            '\u{FB03}' => s.push_str("ffi"),
            '\u{FB04}' => s.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => s.push_str("st"),
            '\u{AD}' => {}
            '\u{A0}' | '\t' => s.push(' '),
            c if c.is_control() && c != '\n' => {}
            c => s.push(c),
        }
    }
    s.nfc().collect()
}

/// Builds the page text from glyphs in content-stream order.
pub fn page_text(glyphs: Vec<Placed>) -> String {
    let mut lines: Vec<Line> = Vec::new();
    for g in glyphs.into_iter().filter(|g| g.upright && g.size > 0.0) {
        match lines.last_mut() {
            Some(line) if same_line(line, &g) => {
                line.x_min = line.x_min.min(g.x);
                line.glyphs.push(g);
            }
            _ => lines.push(Line {
                y: g.y,
                size: g.size,
                x_min: g.x,
                glyphs: vec![g],
            }),
        }
    }
    let mut text = String::new();
    let mut prev: Option<(f32, f32, f32)> = None;
    for line in lines {
        let body = clean(&line_text(&merge_accents(line.glyphs)));
        let body = body.trim_end();
        if body.trim().is_empty() {
            continue;
        }
        if let Some((py, psize, px)) = prev {
            let drop = py - line.y;
            let paragraph = drop > 1.7 * psize.max(line.size)
                || drop < -0.5 * line.size
                || (px - line.x_min).abs() > 40.0 * line.size;
            text.push_str(if paragraph { "\n\n" } else { "\n" });
        }
        text.push_str(body);
        prev = Some((line.y, line.size, line.x_min));
    }
    text
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
            size: 10.0,
            upright: true,
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
