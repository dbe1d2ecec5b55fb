//! Margin line numbers (legal drafts, pleadings, manuscripts set with `lineno`): a number
//! beside every line, or every fifth. The text layer gives them as lines of their own between
//! the lines of prose, or at the start or end of each line when they share its baseline. Left
//! in, they put a dozen numbers into every passage: noise for BM25 and the embedding, and
//! text the model is shown. The chunker leaves them out of a chunk's text (its character
//! range on the page stays whole, so the page view marks the same place).

use std::ops::Range;

/// How many numbers in arithmetic sequence make a margin: fewer could be a short list.
const RUN: usize = 5;

/// Where a number sits on its line.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Alone,
    Start,
    End,
}

/// A line's number, if it has one in `place`, and the bytes to drop (relative to the line).
fn number_at(line: &str, place: Place) -> Option<(u32, Range<usize>)> {
    let number = |s: &str| -> Option<u32> {
        let ok = !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| s.parse().ok()).flatten()
    };
    let content = line.trim_end();
    let lead = content.len() - content.trim_start().len();
    let t = content.trim_start();
    match place {
        Place::Alone => Some((number(t)?, 0..line.len())),
        Place::Start => {
            let (n, rest) = t.split_once(' ')?;
            let body = rest.trim_start();
            if !body.starts_with(char::is_alphabetic) {
                return None;
            }
            Some((number(n)?, 0..lead + t.len() - body.len()))
        }
        Place::End => {
            let (rest, n) = t.rsplit_once(' ')?;
            let body = rest.trim_end();
            if !body.chars().any(char::is_alphabetic) {
                return None;
            }
            Some((number(n)?, lead + body.len()..content.len()))
        }
    }
}

/// Up to this many numbers of a run may be missing in one place (a number the text layer put
/// on a line of its own, or next to a short line, instead of at its end).
const GAP: u32 = 3;

/// Byte ranges of `text` that are margin line numbers: numbers in the same place on their
/// lines (alone, first, last) that run in one arithmetic sequence (1 2 3…, 5 10 15…, a few
/// missing allowed) over at least five lines of the page, and numbers in another place that
/// fill a gap of such a run. A lone number takes its line break with it.
pub fn line_numbers(text: &str) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line));
        offset += line.len();
    }
    let mut out = Vec::new();
    let mut accepted: Vec<(u32, u32)> = Vec::new(); // (number, step of its run)
    let mut left: Vec<(u32, Range<usize>)> = Vec::new();
    for place in [Place::Alone, Place::Start, Place::End] {
        // A number far from a short line is laid out on a line of its own, one near a long
        // line at its end: the same margin gives both, so a run at the start or the end of the
        // lines takes the lone numbers too.
        let found: Vec<(u32, Range<usize>)> = lines
            .iter()
            .filter_map(|&(at, line)| {
                number_at(line, place)
                    .or_else(|| number_at(line, Place::Alone))
                    .map(|(n, r)| (n, at + r.start..at + r.end))
            })
            .collect();
        // Runs of one step; a break starts a new run from the number before it, which may
        // begin the real sequence.
        let mut run: Vec<&(u32, Range<usize>)> = Vec::new();
        let mut step = 0;
        let mut close = |run: &[&(u32, Range<usize>)], step: u32| {
            if run.len() >= RUN {
                out.extend(run.iter().map(|r| r.1.clone()));
                accepted.extend(run.iter().map(|r| (r.0, step)));
            } else {
                left.extend(run.iter().map(|r| (*r).clone()));
            }
        };
        for x in &found {
            // The step is the smallest difference so far: a run whose second number is missing
            // ("5 15 20") finds its real step at the next one.
            let continues = match run.as_slice() {
                [] => true,
                [one] => x.0 > one.0,
                [.., b] => {
                    let d = x.0.saturating_sub(b.0);
                    d > 0 && (d % step == 0 || step % d == 0) && d.max(step) / d.min(step) <= GAP
                }
            };
            if !continues {
                close(&run, step);
                let before = run.last().copied().filter(|b| x.0 > b.0);
                run = before.into_iter().collect();
            }
            if let Some(b) = run.last() {
                let d = x.0 - b.0;
                step = if run.len() == 1 { d } else { step.min(d) };
            }
            run.push(x);
        }
        close(&run, step);
    }
    for (n, r) in left {
        let fills = accepted
            .iter()
            .any(|&(m, s)| m + s == n && accepted.iter().any(|&(k, _)| k == n + s));
        if fills {
            out.push(r);
        }
    }
    out.sort_by_key(|r| r.start);
    out.dedup();
    out
}

/// `text[range]` without what it holds of the `drop` ranges (sorted; a chunk may begin or end
/// inside one, between a sentence and the number at the end of its line).
pub fn without(text: &str, range: Range<usize>, drop: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(range.len());
    let mut at = range.start;
    for d in drop
        .iter()
        .filter(|d| d.start < range.end && d.end > range.start)
    {
        let (start, end) = (d.start.max(at), d.end.min(range.end));
        if end > start {
            out.push_str(&text[at..start]);
            at = end;
        }
    }
    out.push_str(&text[at..range.end]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(text: &str) -> String {
        without(text, 0..text.len(), &line_numbers(text))
    }

    #[test]
    fn numbers_alone_first_or_last_in_sequence_go_and_the_prose_stays() {
        let prose = [
            "the tenant pays",
            "on the first day",
            "of each month",
            "by transfer",
            "to the account",
            "that is named",
        ];
        let alone: String = prose
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{l}\n{}\n", i + 1))
            .collect();
        assert_eq!(strip(&alone), prose.map(|l| format!("{l}\n")).concat());
        let first: String = prose
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{}  {l}\n", 5 * (i + 1)))
            .collect();
        assert_eq!(strip(&first), prose.map(|l| format!("{l}\n")).concat());
        let last: String = prose
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{l} {}\n", i + 20))
            .collect();
        assert_eq!(strip(&last), prose.map(|l| format!("{l}\n")).concat());
    }

    #[test]
    fn a_margin_split_between_line_ends_and_lines_of_their_own_goes() {
        // Every fifth line numbered in the right margin: beside a long line the number ends it,
        // beside a short one it is a line of its own.
        let text =
            "a long line of prose here 5\nshort\n\n10\n\nanother long line 15\nshort\n\n20\n\n\
                    the next long line of text 25\nand more\n";
        assert_eq!(
            strip(text),
            // A lone number takes its own line break only.
            "a long line of prose here\nshort\n\n\nanother long line\nshort\n\n\nthe next long line of text\nand more\n"
        );
    }

    #[test]
    fn numbers_that_do_not_run_in_sequence_stay() {
        for keep in [
            // A short list.
            "1 Open the lid\n2 Pour the water\n3 Close it\n",
            // Figures in prose, out of sequence.
            "it costs 30\nand weighs 12\nor 45\nthen 7\nand 8\n",
            // A lone page number.
            "Last line of the page.\n27\n",
        ] {
            assert_eq!(strip(keep), keep, "{keep}");
        }
    }
}
