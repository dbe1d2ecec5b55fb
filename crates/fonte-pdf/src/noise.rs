//! Lines of a page that are not its body but would compete with it for the evidence budget:
//! table-of-contents and index entries (a title, a leader of dots, a page number). A question
//! shares its words with the entry of its own section ("How do I install a source package?
//! . . . . 27"), so such an entry outranks the section that answers it while holding no
//! answer. They are marked like running headers ([`super::PageText::furniture`]): left in the
//! page's text (the page view and citations keep them), skipped by the chunker. Back-of-book
//! index pages, whose entries have no leader, are told by being made of entries.

/// A page number at the end of a line (arabic, or roman as front matter uses), with the text
/// before it.
fn trailing_number(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let number = line
        .rsplit(|c: char| c.is_whitespace() || c == '.' || c == '…')
        .next()
        .unwrap_or("");
    let roman = |s: &str| {
        s.chars()
            .all(|c| "ivxlcdm".contains(c.to_ascii_lowercase()))
    };
    let ok = !number.is_empty()
        && number.len() <= 6
        && (number.chars().all(|c| c.is_ascii_digit()) || roman(number));
    ok.then(|| &line[..line.len() - number.len()])
}

/// Dots (an ellipsis character counts three) in the run of dots and spaces at the end of `s`.
fn trailing_dots(s: &str) -> usize {
    s.trim_end()
        .chars()
        .rev()
        .take_while(|c| *c == '.' || *c == '…' || c.is_whitespace())
        .map(|c| match c {
            '.' => 1,
            '…' => 3,
            _ => 0,
        })
        .sum()
}

/// Four dots at least: an ellipsis in prose ("and so on... 3") is not a leader.
const LEADER: usize = 4;

/// Whether `line` is, or ends, a leader entry: "Title . . . . 27", "Title.......iv", the
/// tail of a wrapped one (". . . . 52", "Title . . . ." whose number went to the next line).
fn is_leader_line(line: &str) -> bool {
    let t = line.trim();
    let ends_with_number = trailing_number(t).is_some_and(|before| trailing_dots(before) >= LEADER);
    let leading: String = t
        .chars()
        .take_while(|c| *c == '.' || *c == '…' || c.is_whitespace())
        .collect();
    let starts_with_leader = leader_run(&leading);
    ends_with_number || starts_with_leader || dangling_leader(t)
}

/// Whether `t` ends with a leader whose page number went to the next line: spaced dots
/// (". . . .") or a long run; prose ends an unfinished sentence with "...." at most ("os seus
/// ficheiros poderão ser perdidos e ...." in the Portuguese FAQ).
fn dangling_leader(t: &str) -> bool {
    let run: String = t
        .chars()
        .rev()
        .take_while(|c| *c == '.' || *c == '…' || c.is_whitespace())
        .collect();
    leader_run(&run)
}

/// Whether a run of dots and spaces is a leader: spaced single dots (". . . .") or a long
/// run ("........"); not groups ("... ... ...", an elision in an example).
fn leader_run(run: &str) -> bool {
    let dots = |w: &str| {
        w.chars()
            .map(|c| if c == '…' { 3 } else { 1 })
            .sum::<usize>()
    };
    let spaced = run.split_whitespace().filter(|w| *w == ".").count() >= LEADER;
    let longest = run.split_whitespace().map(dots).max().unwrap_or(0);
    spaced || longest >= 2 * LEADER
}

/// Whether `line` begins like a numbered entry ("2.4 ", "11.10Como", "A.1 ").
fn numbered(line: &str) -> bool {
    let t = line.trim_start();
    let lead: String = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    lead.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// Each line of `text` with its char range (start, end).
fn numbered_lines(text: &str) -> Vec<(usize, usize, &str)> {
    let mut lines = Vec::new();
    let mut chars = 0;
    for line in text.split('\n') {
        let n = line.chars().count();
        lines.push((chars, chars + n, line));
        chars += n + 1;
    }
    lines
}

/// Char ranges (start, end) of the table-of-contents and index lines of a page's `text`:
/// leader entries and their wrapped tails; the first line of a wrapped entry (the line above
/// a tail that does not begin a numbered entry itself); and, in a paragraph that holds
/// entries, chapter lines (numbered, ending with a page number, no leader).
pub fn leader_lines(text: &str) -> Vec<(usize, usize)> {
    let lines = numbered_lines(text);
    let mut marked: Vec<bool> = lines.iter().map(|l| is_leader_line(l.2)).collect();
    // Wrapped entries: up to two lines above a tail that is not a numbered entry. Tails are
    // the lines with a leader, not the lines marked above them: those would mark the lines
    // above them in turn, up a whole paragraph (gnuplot.pdf p. 116 lost 19 lines of prose
    // above an elision "... ... ...").
    let tails = marked.clone();
    for i in (1..lines.len()).rev() {
        if tails[i] && !numbered(lines[i].2) {
            for k in (i.saturating_sub(2)..i).rev() {
                if lines[k].2.trim().is_empty() || marked[k] {
                    break;
                }
                marked[k] = true;
                if numbered(lines[k].2) {
                    break;
                }
            }
        }
    }
    // Chapter lines among entries.
    let mut start = 0;
    for end in (0..=lines.len()).filter(|&e| e == lines.len() || lines[e].2.trim().is_empty()) {
        if (start..end).any(|k| marked[k]) {
            for k in start..end {
                if numbered(lines[k].2) && trailing_number(lines[k].2).is_some() {
                    marked[k] = true;
                }
            }
        }
        start = end + 1;
    }
    lines
        .iter()
        .zip(marked)
        .filter(|(_, m)| *m)
        .map(|(l, _)| (l.0, l.1))
        .collect()
}

/// Whether `p` is a page reference of an index: a number ("64"), a roman one ("xii"), a
/// range ("114–116", "12-14"), with the marks some indexes add ("12n", "45f", "45ff").
fn page_reference(p: &str) -> bool {
    let p = p.trim();
    let p = p
        .strip_suffix("ff")
        .or_else(|| p.strip_suffix(['n', 'f']))
        .unwrap_or(p);
    let number = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.len() <= 5 && s.chars().all(|c| c.is_ascii_digit()))
            || (!s.is_empty() && s.len() <= 6 && s.chars().all(|c| "ivxlc".contains(c)))
    };
    match p.split_once(['–', '-', '—']) {
        Some((a, b)) => number(a) && number(b),
        None => number(p),
    }
}

/// Whether `line` is an entry of a back-of-book index, which has no leader: a term and its
/// page references ("pm3d, 64, 141, 188, 203", "\put, 111, 112, 114–116"), or the references
/// of a wrapped one ("1105, 1107, 1108,").
fn index_entry(line: &str) -> bool {
    let t = line.trim().trim_end_matches(',');
    let parts: Vec<&str> = t.split(',').collect();
    let references = parts.iter().rev().take_while(|p| page_reference(p)).count();
    let term = parts[..parts.len() - references].join(",");
    // A term is short (an index term, not a sentence that ends with a number).
    references >= 1 && (term.trim().is_empty() || (parts.len() > references && term.len() <= 60))
}

/// Lines that are at least this many, and half the page's lines, make an index page. A page of
/// prose may end a line or two with page numbers ("see pages 3, 4"); an index page is made of
/// them, dozens to a column.
const INDEX_LINES: usize = 8;

/// Char ranges of the entries of a back-of-book index page, and of its letter headings ("Q"):
/// like contents entries, they share the question's words and hold no answer (gnuplot.pdf's
/// "pm3d, 64, 141, 188, 203"). Only on a page whose lines are mostly entries.
pub fn index_lines(text: &str) -> Vec<(usize, usize)> {
    let lines = numbered_lines(text);
    let filled = lines.iter().filter(|l| !l.2.trim().is_empty()).count();
    let entries = lines.iter().filter(|l| index_entry(l.2)).count();
    if entries < INDEX_LINES || entries * 2 < filled {
        return Vec::new();
    }
    lines
        .iter()
        .filter(|l| index_entry(l.2) || (1..=2).contains(&l.2.trim().chars().count()))
        .map(|l| (l.0, l.1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_entries_without_leaders_on_an_index_page() {
        for yes in [
            "pm3d, 64, 141, 188, 203",
            "\\put, 111, 112, 114–116",
            "sinal de menos, 22",
            "1105, 1107, 1108,",
            "URLencode, 110, 2075, 2076, 2116, 2291",
            "preface, xii",
        ] {
            assert!(index_entry(yes), "{yes}");
        }
        for no in [
            "The answer is on page 27.",
            "gnuplot 5.4",
            "set terminal png size 800, 600 font arial",
            "see the FAQ, section 3",
            "Q",
            "Since MetaPost is a picture-drawing language that outputs PostScript, and 4",
        ] {
            assert!(!index_entry(no), "{no}");
        }
        let page = "INDEX gnuplot 5.4 309\n\npm, 274\npm3d, 64, 141, 188, 203\npng, 46, 275\n\
                    pngcairo, 276\npointinterval, 77, 201\npointintervalbox, 193\nQ\n\
                    pointnumber, 77, 201\npoints, 77, 79\npointsize, 125, 158, 193";
        let marked: Vec<&str> = index_lines(page)
            .into_iter()
            .map(|(a, b)| crate::text::slice_chars(page, a, b))
            .collect();
        assert_eq!(marked.len(), 10, "{marked:?}");
        assert!(!marked.contains(&"INDEX gnuplot 5.4 309"));
        // Prose with a few numbers is not an index page.
        let prose = "Set the size with set size 2, 3\nand the origin with set origin 0, 1\n\
                     then plot, 4\nA paragraph of explanation follows here.\nMore text.";
        assert!(index_lines(prose).is_empty());
    }

    #[test]
    fn entries_with_leaders_and_page_numbers() {
        for yes in [
            "1.1 What is this FAQ? . . . . . . . . . . . . . . 1",
            "Introdução.............................iv",
            "2.4 Como instalo o Debian a partir de CD-ROMs? . . . . . . 6",
            "Index …… 312",
            "3.1.4 Se Eu decidir mudar para outra distribuição . . . . .",
            "Chapter 2.................",
        ] {
            assert!(is_leader_line(yes), "{yes}");
        }
        for no in [
            "The answer is on page 27.",
            "Wait... 3 days",
            "and so on... 3",
            "Section 1.2.3",
            "apt-get install foo",
            "Version 11.1",
            ". . .",
            "2 Getting and installing Debian 5",
            "seus ficheiros de configuração poderão ser perdidos e ....",
            "... ... ...",
        ] {
            assert!(!is_leader_line(no), "{no}");
        }
    }

    #[test]
    fn entries_wrapped_or_split_go_whole_and_prose_stays() {
        let text = "Contents\n\n2 Getting and installing Debian 5\n2.1 What is the latest version? . . . . . . 5\n2.5 Why does the CD contain symlinks for frozen and\nunstable? . . . . . . . . . 6\n\n11.10Como é que Eu posso ter o meu pacote dispo-\nníveis que o sistema conhece? . . . . . . . .\n. . . . . . 52\n\nBody text that mentions page 5. And more.\nA line above prose... and so on.";
        let marked: Vec<&str> = leader_lines(text)
            .into_iter()
            .map(|(a, b)| crate::text::slice_chars(text, a, b))
            .collect();
        assert_eq!(
            marked,
            [
                "2 Getting and installing Debian 5",
                "2.1 What is the latest version? . . . . . . 5",
                "2.5 Why does the CD contain symlinks for frozen and",
                "unstable? . . . . . . . . . 6",
                "11.10Como é que Eu posso ter o meu pacote dispo-",
                "níveis que o sistema conhece? . . . . . . . .",
                ". . . . . . 52",
            ]
        );
    }
}
