//! An extraction in progress: the file opened (decrypted, its pages counted without trusting
//! a hostile /Count), then read page by page, each page isolated, and the report of what could
//! not be read.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pdf::file::FileOptions;
use pdf::object::{ParseOptions, Resolve};

use super::dates::{self, Dated};
use super::furniture::{mark_furniture, mark_leaders};
use super::open_errors::{
    looks_like_password_error, other_security_handler, root_cause, unreadable,
};
use super::page::{page_text, PageRead};
use super::{
    docenc, document_id, line_text, Extracted, Limits, Loss, PageText, PartialReason, RejectReason,
    Report, Tally, Unreadable, LOSS_REPORTED,
};

/// An extraction in progress, one page per [`step`](Self::step): the browser app reads a long
/// PDF in slices and lets the page paint in between.
pub struct Extraction {
    id: String,
    file: pdf::file::CachedFile<Vec<u8>>,
    title: Option<String>,
    /// The dates of the document information and XMP metadata (the first pages' are added
    /// by [`Extraction::finish`]).
    dates: Vec<Dated>,
    /// Whether Ghostscript wrote the file (its /Producer says so): see `interp::Interpreter::ghostscript`.
    ghostscript: bool,
    page_count: u32,
    limits: Limits,
    next: u32,
    pages: Vec<PageText>,
    empty: Vec<u32>,
    scanned: u32,
    /// Pages where at least [`LOSS_REPORTED`] of the glyphs gave no text, with their tallies.
    undecodable: Vec<(u32, Tally)>,
    /// Pages not read (in full): damaged content.
    failed: Vec<u32>,
    /// How many of `failed` gave some text before the damage.
    partly_read: u32,
    truncated: Vec<u32>,
    /// Characters of text read so far, and the first page not read for [`Limits::max_text_chars`].
    chars: usize,
    text_capped_at: Option<u32>,
}

/// Pages in the file: its /Count, unless the page tree holds fewer pages than it claims (a
/// hostile `/Count 4000000000` would otherwise be 4 billion pages to report on). Leaves are
/// counted up to one past `max_pages`, so the walk costs no more than reading the pages would.
fn page_count(file: &pdf::file::CachedFile<Vec<u8>>, max_pages: u32) -> u32 {
    use pdf::object::PagesNode;
    fn walk(node: &PagesNode, resolve: &impl Resolve, depth: usize, n: &mut u32, cap: u32) {
        let PagesNode::Tree(tree) = node else {
            *n += 1;
            return;
        };
        if depth == 0 {
            return;
        }
        for kid in &tree.kids {
            if *n >= cap {
                return;
            }
            if let Ok(node) = resolve.get(*kid) {
                walk(&node, resolve, depth - 1, n, cap);
            }
        }
    }
    let claimed = file.num_pages();
    let cap = max_pages.saturating_add(1);
    let mut counted = 0;
    let resolve = file.resolver();
    // The crate reads page trees 16 levels deep at most.
    let root = PagesNode::Tree((*file.get_root().pages).clone());
    let walked = catch_unwind(AssertUnwindSafe(|| {
        walk(&root, &resolve, 16, &mut counted, cap)
    }));
    if walked.is_err() || counted >= cap {
        // Past the limit, the claim stands (bounded by the objects a file may hold).
        return claimed.min(pdf::backend::MAX_ID);
    }
    claimed.min(counted)
}

impl Extraction {
    /// Opens the file (decrypting with the empty password, then `password`); a file that
    /// cannot be opened is returned as its rejected [`Extracted`].
    pub fn open(
        bytes: &[u8],
        password: Option<&[u8]>,
        limits: Limits,
    ) -> Result<Self, Box<Extracted>> {
        let id = document_id(bytes);
        let rejected = |reason| Extracted {
            id: id.clone(),
            title: None,
            page_count: 0,
            dates: Vec::new(),
            pages: Vec::new(),
            report: Report::Rejected { reason },
        };
        if bytes.len() as u64 > limits.max_file_bytes {
            return Err(Box::new(rejected(RejectReason::TooLarge {
                bytes: bytes.len() as u64,
                max: limits.max_file_bytes,
            })));
        }
        let load = |pw: &[u8]| {
            catch_unwind(AssertUnwindSafe(|| {
                FileOptions::cached()
                    .parse_options(ParseOptions::tolerant())
                    .password(pw)
                    .load(bytes.to_vec())
            }))
            .unwrap_or_else(|_| {
                Err(pdf::error::PdfError::Other {
                    msg: "parser panicked".into(),
                })
            })
        };
        let first = load(b"");
        // No password opens a file encrypted for certificate holders: say so before asking.
        if let Some(handler) = first
            .as_ref()
            .err()
            .and_then(|e| other_security_handler(&e.to_string()))
        {
            return Err(Box::new(rejected(RejectReason::OtherSecurityHandler {
                handler,
            })));
        }
        let file = match first {
            Ok(f) => f,
            Err(e) => match password {
                Some(pw) => match load(pw) {
                    Ok(f) => f,
                    Err(e2) if looks_like_password_error(&e2.to_string()) => {
                        return Err(Box::new(rejected(RejectReason::NeedsPassword)))
                    }
                    Err(e2) => {
                        return Err(Box::new(rejected(RejectReason::Malformed {
                            cause: unreadable(bytes),
                            detail: root_cause(&e2.to_string()),
                        })))
                    }
                },
                None if looks_like_password_error(&e.to_string()) => {
                    return Err(Box::new(rejected(RejectReason::NeedsPassword)))
                }
                None => {
                    return Err(Box::new(rejected(RejectReason::Malformed {
                        cause: unreadable(bytes),
                        detail: root_cause(&e.to_string()),
                    })))
                }
            },
        };

        let title = file
            .trailer
            .info_dict
            .as_ref()
            .and_then(|info| info.title.as_ref())
            .map(|t| line_text::clean(&docenc::text_string(t.as_bytes())))
            .filter(|t| !t.trim().is_empty());
        let dates = dates::of_file(&file);
        let ghostscript = file
            .trailer
            .info_dict
            .as_ref()
            .and_then(|info| info.producer.as_ref())
            .is_some_and(|p| {
                docenc::text_string(p.as_bytes())
                    .to_ascii_lowercase()
                    .contains("ghostscript")
            });
        let page_count = page_count(&file, limits.max_pages);
        Ok(Self {
            id,
            file,
            title,
            dates,
            ghostscript,
            page_count,
            limits,
            next: 0,
            pages: Vec::new(),
            empty: Vec::new(),
            scanned: 0,
            undecodable: Vec::new(),
            failed: Vec::new(),
            partly_read: 0,
            truncated: Vec::new(),
            chars: 0,
            text_capped_at: None,
        })
    }

    /// Physical pages in the file.
    pub fn page_count(&self) -> u32 {
        self.page_count
    }

    /// Pages read so far.
    pub fn pages_read(&self) -> u32 {
        self.next
    }

    /// Reads the next page; false when every page (up to the limit) has been read.
    pub fn step(&mut self) -> bool {
        let n = self.next;
        if n >= self.page_count.min(self.limits.max_pages) || self.text_capped_at.is_some() {
            return false;
        }
        self.next += 1;
        let number = n + 1;
        let (file, limits, ghostscript) = (&self.file, self.limits, self.ghostscript);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let resolver = file.resolver();
            let page = file.get_page(n).map_err(|e| e.to_string())?;
            let form_resources = file.get_root().forms.as_ref().and_then(|f| f.dr.as_deref());
            Ok::<_, String>(page_text(
                &page,
                Some(page.get_ref()),
                form_resources,
                &resolver,
                limits,
                ghostscript,
            ))
        }));
        match result {
            Ok(Ok(PageRead {
                text,
                lines,
                saw_image,
                truncated,
                damaged,
                tally,
            })) => {
                let lost = tally.lost_total();
                // A page whose glyphs did not decode is not a page without a text layer.
                if lost > 0 && lost as f32 >= LOSS_REPORTED * tally.shown as f32 {
                    self.undecodable.push((number, tally));
                }
                if damaged {
                    // Reported with the pages that could not be read at all.
                    self.failed.push(number);
                    if !text.trim().is_empty() {
                        self.partly_read += 1;
                    }
                } else if text.trim().is_empty() && lost == 0 {
                    self.empty.push(number);
                    if saw_image {
                        self.scanned += 1;
                    }
                }
                if truncated {
                    self.truncated.push(number);
                }
                self.chars += text.chars().count();
                if self.chars > self.limits.max_text_chars {
                    // This page and the rest are not indexed.
                    self.text_capped_at = Some(number);
                    return false;
                }
                self.pages.push(PageText {
                    number,
                    text,
                    furniture: Vec::new(),
                    lines,
                });
            }
            Ok(Err(_)) | Err(_) => {
                self.failed.push(number);
                self.pages.push(PageText {
                    number,
                    text: String::new(),
                    furniture: Vec::new(),
                    lines: Vec::new(),
                });
            }
        }
        true
    }

    /// The text of the pages read, with the report.
    pub fn finish(self) -> Extracted {
        let Self {
            id,
            title,
            mut dates,
            page_count,
            limits,
            mut pages,
            empty,
            scanned,
            undecodable,
            failed,
            partly_read,
            truncated,
            text_capped_at,
            ..
        } = self;
        mark_furniture(&mut pages);
        mark_leaders(&mut pages);
        let report = if page_count == 0 {
            Report::Rejected {
                reason: RejectReason::Malformed {
                    cause: Unreadable::NoPages,
                    detail: "the file has no pages".into(),
                },
            }
        } else if empty.len() as u32 == page_count.min(limits.max_pages) && failed.is_empty() {
            Report::Rejected {
                reason: RejectReason::NoTextLayer,
            }
        } else if failed.is_empty() && pages.iter().all(|p| p.text.trim().is_empty()) {
            // Every page is blank or lost its glyphs: text is there, Fonte cannot decode it.
            let mut all = Tally::default();
            undecodable.iter().for_each(|(_, t)| all.add(t));
            Report::Rejected {
                reason: RejectReason::Undecodable {
                    why: all.main_loss().unwrap_or(Loss::NoUnicode),
                    shown: all.shown,
                },
            }
        } else if failed.len() as u32 == page_count.min(limits.max_pages) && partly_read == 0 {
            Report::Rejected {
                reason: RejectReason::Malformed {
                    cause: Unreadable::NoPageReadable,
                    detail: "no page could be read".into(),
                },
            }
        } else if !failed.is_empty() {
            Report::Partial {
                pages: failed,
                reason: if partly_read > 0 {
                    PartialReason::PartlyDamaged
                } else {
                    PartialReason::Damaged
                },
            }
        } else if let Some(first) = text_capped_at {
            Report::Partial {
                pages: (first..=page_count.min(limits.max_pages)).collect(),
                reason: PartialReason::TextLimit,
            }
        } else if page_count > limits.max_pages {
            Report::Partial {
                pages: (limits.max_pages + 1..=page_count).collect(),
                reason: PartialReason::PageLimit,
            }
        } else if !truncated.is_empty() {
            Report::Partial {
                pages: truncated,
                reason: PartialReason::TooComplex,
            }
        } else if !undecodable.is_empty() {
            let mut all = Tally::default();
            undecodable.iter().for_each(|(_, t)| all.add(t));
            Report::Partial {
                pages: undecodable.iter().map(|(n, _)| *n).collect(),
                reason: PartialReason::Undecodable {
                    why: all.main_loss().unwrap_or(Loss::NoUnicode),
                    shown: all.shown,
                    lost: all.lost_total(),
                },
            }
        } else if scanned > 0 {
            Report::Partial {
                pages: empty,
                reason: PartialReason::NoTextLayer,
            }
        } else {
            Report::Complete
        };
        // A cover or title page says which edition it is; later pages cite other works.
        for p in pages.iter().filter(|p| p.number <= dates::DATED_PAGES) {
            dates.extend(dates::from_text(&p.text, p.number));
        }
        Extracted {
            id,
            title,
            page_count,
            dates,
            pages,
            report,
        }
    }
}
