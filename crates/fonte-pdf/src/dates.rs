//! Dates a PDF gives for itself, each with where it came from: the document information's
//! /CreationDate and /ModDate, the XMP metadata's creation, modification and publication
//! dates, and dates written on its first pages ("March 2025", "4 de maio de 2023",
//! "2024-11-02", "© 2019–2024"). Which one is the publication date is the library's choice
//! ([`Dated`] keeps them all): a file's own dates are often when it was last exported, while a
//! manual's cover says which edition it is.

use pdf::object::Resolve;
use serde::{Deserialize, Serialize};

/// A calendar date, as precise as its source (a cover may give only the year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PubDate {
    /// The year.
    pub year: u16,
    /// 1–12, when known.
    pub month: Option<u8>,
    /// 1–31, when known.
    pub day: Option<u8>,
}

/// Where a date was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DateSource {
    /// The document information's /CreationDate.
    InfoCreated,
    /// The document information's /ModDate.
    InfoModified,
    /// XMP `xmp:CreateDate`.
    XmpCreated,
    /// XMP `xmp:ModifyDate`.
    XmpModified,
    /// XMP `dc:date` or `prism:publicationDate`.
    XmpPublished,
    /// Written on this page (1-based).
    Text {
        /// The page.
        page: u32,
    },
}

/// A date and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dated {
    /// The date.
    pub date: PubDate,
    /// Its source.
    pub source: DateSource,
}

/// Years taken for dates: before printing presses wrote PDFs, or far in the future, a number
/// is not a date.
const YEARS: std::ops::RangeInclusive<u16> = 1900..=2100;

impl PubDate {
    fn new(year: u16, month: Option<u8>, day: Option<u8>) -> Option<Self> {
        let month = month.filter(|m| (1..=12).contains(m));
        let day = day.filter(|d| month.is_some() && (1..=31).contains(d));
        YEARS.contains(&year).then_some(Self { year, month, day })
    }

    /// From the pdf crate's parsed date (a date dictionary value).
    pub fn from_pdf(d: &pdf::primitive::Date) -> Option<Self> {
        Self::new(d.year, Some(d.month), Some(d.day))
    }

    /// From an ISO 8601 date as XMP writes it ("2023", "2023-05", "2023-05-04T10:00:00Z").
    pub fn from_iso(text: &str) -> Option<Self> {
        let text = text.trim();
        let date = text.split(['T', ' ']).next()?;
        let mut parts = date.split('-');
        let year = parts.next()?.parse().ok()?;
        let month = parts.next().map(|m| m.parse().ok()).unwrap_or(None);
        let day = parts.next().map(|d| d.parse().ok()).unwrap_or(None);
        Self::new(year, month, day)
    }
}

/// The dates of an XMP packet. A plain scan rather than an XML parser: four properties are
/// wanted, written either as attributes (`xmp:CreateDate="…"`) or as elements, `dc:date`
/// inside an `rdf:Seq`.
pub fn from_xmp(xml: &str) -> Vec<Dated> {
    let mut out = Vec::new();
    for (name, source) in [
        ("xmp:CreateDate", DateSource::XmpCreated),
        ("xmp:ModifyDate", DateSource::XmpModified),
        ("dc:date", DateSource::XmpPublished),
        ("prism:publicationDate", DateSource::XmpPublished),
    ] {
        if let Some(date) = xmp_value(xml, name).and_then(|v| PubDate::from_iso(&v)) {
            out.push(Dated { date, source });
        }
    }
    out
}

/// The value of property `name`: its attribute, or the text of its element (the first
/// `rdf:li` of a sequence).
fn xmp_value(xml: &str, name: &str) -> Option<String> {
    if let Some(at) = xml.find(&format!("{name}=")) {
        let rest = &xml[at + name.len() + 1..];
        let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let rest = &rest[1..];
        return rest.find(quote).map(|end| rest[..end].to_string());
    }
    let open = xml.find(&format!("<{name}"))?;
    let rest = &xml[open..];
    let body = &rest[rest.find('>')? + 1..];
    let end = body.find(&format!("</{name}"))?;
    let body = &body[..end];
    // Inside a sequence: the first item's text.
    let text = match body.find("<rdf:li") {
        Some(li) => {
            let item = &body[li..];
            let start = item.find('>')? + 1;
            let stop = item.find("</rdf:li")?;
            item.get(start..stop)?
        }
        None => body,
    };
    Some(text.trim().to_string())
}

const MONTHS: [(&str, u8); 24] = [
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("janeiro", 1),
    ("fevereiro", 2),
    ("marco", 3),
    ("abril", 4),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("agosto", 8),
    ("setembro", 9),
    ("outubro", 10),
    ("novembro", 11),
    ("dezembro", 12),
];

fn month_of(word: &str) -> Option<u8> {
    let word: String = word
        .chars()
        .map(|c| if c == 'ç' || c == 'Ç' { 'c' } else { c })
        .collect::<String>()
        .to_lowercase();
    MONTHS.iter().find(|(m, _)| *m == word).map(|(_, n)| *n)
}

fn year_of(word: &str) -> Option<u16> {
    (word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
        .filter(|y| YEARS.contains(y))
}

/// Dates written in `text` (page `page`): "4 May 2023", "May 4, 2023", "May 2023", "4 de maio
/// de 2023", "maio de 2023", ISO "2023-05-04", and the last year of a copyright line
/// ("© 2019–2024", "Copyright 2021"). A bare year elsewhere is not taken: page numbers,
/// quantities and references look the same.
pub fn from_text(text: &str, page: u32) -> Vec<Dated> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | ';' | ':'))
        // A full stop ends a word, not a number ("3.2" is a version, not a day).
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    let mut push = |date: Option<PubDate>| {
        if let Some(date) = date {
            out.push(Dated {
                date,
                source: DateSource::Text { page },
            });
        }
    };
    let day_of = |w: &str| {
        w.trim_end_matches(['º', 'o'])
            .parse::<u8>()
            .ok()
            .filter(|d| (1..=31).contains(d))
    };
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = |k: usize| words.get(i + k).copied().unwrap_or("");
        if let Some(month) = month_of(w) {
            // "May 4, 2023" / "May 2023" / "maio de 2023"
            if let (Some(day), Some(year)) = (day_of(next(1)), year_of(next(2))) {
                push(PubDate::new(year, Some(month), Some(day)));
                i += 3;
                continue;
            }
            let after = if next(1).eq_ignore_ascii_case("de") {
                2
            } else {
                1
            };
            if let Some(year) = year_of(next(after)) {
                // "4 May 2023" / "4 de maio de 2023": the day before.
                let before = if i >= 2 && words[i - 1].eq_ignore_ascii_case("de") {
                    day_of(words[i - 2])
                } else if i >= 1 {
                    day_of(words[i - 1])
                } else {
                    None
                };
                push(PubDate::new(year, Some(month), before));
                i += after + 1;
                continue;
            }
        }
        // ISO dates.
        if w.len() == 10 && w.as_bytes()[4] == b'-' && w.as_bytes()[7] == b'-' {
            if let (Some(year), Ok(month @ 1..=12), Ok(day @ 1..=31)) = (
                year_of(&w[..4]),
                w[5..7].parse::<u8>(),
                w[8..10].parse::<u8>(),
            ) {
                push(PubDate::new(year, Some(month), Some(day)));
            }
        }
        // Copyright: the last year of the years that follow.
        let lower = w.to_lowercase();
        if lower == "©" || lower == "copyright" || lower == "(c)" {
            let mut last = None;
            for k in 1..=4 {
                for part in next(k).split(['–', '-', '—']) {
                    if let Some(y) = year_of(part) {
                        last = Some(y);
                    }
                }
            }
            push(last.and_then(|y| PubDate::new(y, None, None)));
        }
        i += 1;
    }
    out
}

/// Pages whose text is searched for dates.
pub(crate) const DATED_PAGES: u32 = 2;

/// The dates of the document information and the XMP metadata; what does not parse is left
/// out (a date is a hint, never a reason to refuse a file).
pub(crate) fn of_file(file: &pdf::file::CachedFile<Vec<u8>>) -> Vec<Dated> {
    let mut out = Vec::new();
    if let Some(info) = file.trailer.info_dict.as_ref() {
        for (date, source) in [
            (&info.creation_date, DateSource::InfoCreated),
            (&info.mod_date, DateSource::InfoModified),
        ] {
            if let Some(date) = date.as_ref().and_then(PubDate::from_pdf) {
                out.push(Dated { date, source });
            }
        }
    }
    let resolver = file.resolver();
    let xmp = file
        .get_root()
        .metadata
        .as_ref()
        .and_then(|r| resolver.get(*r).ok())
        .and_then(|s| s.data(&resolver).ok());
    // An XMP packet is a few kilobytes; a huge one is not read as text.
    if let Some(xml) = xmp.filter(|x| x.len() <= 1 << 20) {
        out.extend(from_xmp(&String::from_utf8_lossy(&xml)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(year: u16, month: Option<u8>, day: Option<u8>) -> PubDate {
        PubDate { year, month, day }
    }

    #[test]
    fn dates_written_on_a_page_in_english_and_portuguese() {
        let dates = |t: &str| -> Vec<PubDate> { from_text(t, 1).iter().map(|x| x.date).collect() };
        assert_eq!(
            dates("Version 3.2, March 2025"),
            vec![d(2025, Some(3), None)]
        );
        assert_eq!(
            dates("Published May 4, 2023."),
            vec![d(2023, Some(5), Some(4))]
        );
        assert_eq!(dates("Updated 4 May 2023"), vec![d(2023, Some(5), Some(4))]);
        assert_eq!(
            dates("Brasília, 4 de maio de 2023"),
            vec![d(2023, Some(5), Some(4))]
        );
        assert_eq!(
            dates("Revisão: março de 2024"),
            vec![d(2024, Some(3), None)]
        );
        assert_eq!(
            dates("Build 2024-11-02 (final)"),
            vec![d(2024, Some(11), Some(2))]
        );
        assert_eq!(
            dates("© 2019–2024 The R Core Team"),
            vec![d(2024, None, None)]
        );
        assert_eq!(
            dates("Copyright (C) 2021 Someone"),
            vec![d(2021, None, None)]
        );
        // Numbers that are not dates.
        assert!(dates("Table 2023 shows 1999 items on page 2001.").is_empty());
        assert!(dates("may 12 items").is_empty());
        assert!(dates("2023-13-45").is_empty());
    }

    #[test]
    fn xmp_dates_as_attributes_elements_and_sequences() {
        let xml = r#"<rdf:Description xmp:CreateDate="2022-05-31T11:29:35Z"
            xmp:ModifyDate='2023-01-20'><dc:date><rdf:Seq><rdf:li>2021-07</rdf:li></rdf:Seq>
            </dc:date><prism:publicationDate>2020</prism:publicationDate></rdf:Description>"#;
        assert_eq!(
            from_xmp(xml),
            vec![
                Dated {
                    date: d(2022, Some(5), Some(31)),
                    source: DateSource::XmpCreated
                },
                Dated {
                    date: d(2023, Some(1), Some(20)),
                    source: DateSource::XmpModified
                },
                Dated {
                    date: d(2021, Some(7), None),
                    source: DateSource::XmpPublished
                },
                Dated {
                    date: d(2020, None, None),
                    source: DateSource::XmpPublished
                },
            ]
        );
        assert!(from_xmp("<x:xmpmeta/>").is_empty());
        assert!(from_xmp("xmp:CreateDate=\"garbage\"").is_empty());
    }
}
