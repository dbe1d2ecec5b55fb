//! Lines of a page that are not its body but would compete with it for the evidence budget:
//! table-of-contents and index entries (a title, a leader of dots, a page number). A question
//! shares its words with the entry of its own section ("How do I install a source package?
//! . . . . 27"), so such an entry outranks the section that answers it while holding no
//! answer. They are marked like running headers ([`super::PageText::furniture`]): left in the
//! page's text (the page view and citations keep them), skipped by the chunker.

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
    let leading_dots = t
        .chars()
        .take_while(|c| *c == '.' || *c == '…' || c.is_whitespace());
    let starts_with_leader = leading_dots.filter(|c| *c == '.').count() >= LEADER;
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
    let spaced = run.trim().contains(|c: char| c.is_whitespace());
    let dots = trailing_dots(t);
    dots >= LEADER && (spaced || dots >= 2 * LEADER)
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

/// Char ranges (start, end) of the table-of-contents and index lines of a page's `text`:
/// leader entries and their wrapped tails; the first line of a wrapped entry (the line above
/// a tail that does not begin a numbered entry itself); and, in a paragraph that holds
/// entries, chapter lines (numbered, ending with a page number, no leader).
pub fn leader_lines(text: &str) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut chars = 0;
    for line in text.split('\n') {
        let n = line.chars().count();
        lines.push((chars, chars + n, line));
        chars += n + 1;
    }
    let mut marked: Vec<bool> = lines.iter().map(|l| is_leader_line(l.2)).collect();
    // Wrapped entries: up to two lines above a tail that is not a numbered entry.
    for i in (1..lines.len()).rev() {
        if marked[i] && !numbered(lines[i].2) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(!is_leader_line(no), "{no}");
        }
    }

    #[test]
    fn entries_wrapped_or_split_go_whole_and_prose_stays() {
        let text = "Contents\n\n2 Getting and installing Debian 5\n2.1 What is the latest version? . . . . . . 5\n2.5 Why does the CD contain symlinks for frozen and\nunstable? . . . . . . . . . 6\n\n11.10Como é que Eu posso ter o meu pacote dispo-\nníveis que o sistema conhece? . . . . . . . .\n. . . . . . 52\n\nBody text that mentions page 5. And more.\nA line above prose... and so on.";
        let marked: Vec<&str> = leader_lines(text)
            .into_iter()
            .map(|(a, b)| crate::chunk::slice_chars(text, a, b))
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
