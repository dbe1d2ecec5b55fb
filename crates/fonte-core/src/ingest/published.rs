//! Which of the dates a PDF gives for itself is its publication date. A file's own dates
//! (document information, XMP) say when that file was written, often a re-export years after
//! the edition; a date on the cover or title page says which edition it is. So a date written
//! on the first pages wins, unless it lies after the file was last written (then it is a
//! deadline or a date in the text, not the edition's); then the file's declared publication
//! date, its creation date, and last a year-only date from the pages (a copyright line). The
//! person can always give another ([`crate::search::corpus::DateFrom::Given`]).

use crate::pdf::dates::{DateSource, Dated, PubDate};
use crate::search::corpus::{DateFrom, Published};

/// Days a cover date may lie after the file's own latest date: a file exported on the last
/// days of a month is dated the next month on its cover.
const COVER_GRACE_DAYS: u32 = 31;

/// Days since year 0 of a date (a missing month or day counts as the first): for comparing.
fn day_number(d: PubDate) -> u32 {
    d.year as u32 * 372 + (d.month.unwrap_or(1) as u32 - 1) * 31 + d.day.unwrap_or(1) as u32
}

/// The publication date among `found` (see the module's text); `None` when it gives none.
pub fn choose(found: &[Dated]) -> Option<Published> {
    let own = |d: &&Dated| !matches!(d.source, DateSource::Text { .. });
    let latest_own = found.iter().filter(own).map(|d| day_number(d.date)).max();
    let plausible =
        |d: &&Dated| latest_own.is_none_or(|l| day_number(d.date) <= l + COVER_GRACE_DAYS);
    let text = found
        .iter()
        .filter(|d| matches!(d.source, DateSource::Text { .. }))
        .filter(plausible);
    // A month named on the first pages: the latest (a cover may also date the first edition).
    let cover = text
        .clone()
        .filter(|d| d.date.month.is_some())
        .max_by_key(|d| day_number(d.date));
    let by = |source: DateSource| found.iter().find(|d| d.source == source);
    let pick = cover
        .or_else(|| by(DateSource::XmpPublished))
        .or_else(|| {
            // Created, whichever of the two says it earlier (an XMP rewrite keeps the
            // information dictionary's, and the other way round).
            found
                .iter()
                .filter(|d| matches!(d.source, DateSource::InfoCreated | DateSource::XmpCreated))
                .min_by_key(|d| day_number(d.date))
        })
        .or_else(|| text.max_by_key(|d| day_number(d.date)))
        .or_else(|| {
            found
                .iter()
                .filter(|d| matches!(d.source, DateSource::InfoModified | DateSource::XmpModified))
                .max_by_key(|d| day_number(d.date))
        })?;
    Some(Published {
        date: pick.date,
        from: DateFrom::File(pick.source),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(year: u16, month: Option<u8>, day: Option<u8>, source: DateSource) -> Dated {
        Dated {
            date: PubDate { year, month, day },
            source,
        }
    }

    #[test]
    fn a_cover_date_wins_over_the_files_own_unless_it_lies_after_them() {
        let info = at(2023, Some(1), Some(20), DateSource::InfoCreated);
        let cover = at(2022, Some(9), Some(8), DateSource::Text { page: 1 });
        let chosen = choose(&[info, cover]).unwrap();
        assert_eq!(chosen.date, cover.date);
        assert_eq!(chosen.from, DateFrom::File(DateSource::Text { page: 1 }));
        // A deadline in the text, years after the file was written, is not its date.
        let deadline = at(2030, Some(12), Some(31), DateSource::Text { page: 2 });
        assert_eq!(choose(&[info, deadline]).unwrap().date, info.date);
        // Exported on 30 January, dated February on the cover: still the cover.
        let feb = at(2023, Some(2), None, DateSource::Text { page: 1 });
        assert_eq!(choose(&[info, feb]).unwrap().date, feb.date);
    }

    #[test]
    fn without_a_cover_date_the_declared_then_the_created_then_a_copyright_year() {
        let published = at(2021, Some(5), None, DateSource::XmpPublished);
        let created = at(2022, Some(1), Some(2), DateSource::InfoCreated);
        let xmp_created = at(2021, Some(12), Some(30), DateSource::XmpCreated);
        let modified = at(2024, Some(3), Some(3), DateSource::InfoModified);
        let copyright = at(2019, None, None, DateSource::Text { page: 2 });
        assert_eq!(
            choose(&[created, published, modified]).unwrap().date,
            published.date
        );
        assert_eq!(
            choose(&[created, xmp_created, copyright]).unwrap().date,
            xmp_created.date
        );
        assert_eq!(choose(&[copyright, modified]).unwrap().date, copyright.date);
        assert_eq!(choose(&[modified]).unwrap().date, modified.date);
        assert_eq!(choose(&[]), None);
    }
}
