//! Where words break when a line is justified by Ghostscript (ps2pdf of groff and other
//! PostScript, grdemo-doc.pdf in the wide corpus, issue 16): spaces measured with the standard
//! font's own width, a word break made by the character spacing of a two-glyph string, and a
//! space squeezed away by a negative word spacing.

mod common;

use common::text_of_page as text_of;

#[test]
fn a_word_placed_after_spaces_of_a_standard_font_is_a_word_of_its_own() {
    // /F1 is Helvetica without /Widths or /Encoding: code 32 reads through StandardEncoding,
    // whose "space" pdf_encoding gives as U+00A0. "as explained in the" is 91.718 pt wide at
    // 11 pt; Ghostscript places the next word one space (3.058 pt) after it.
    let text = text_of(
        b"BT /F1 11 Tf 72 700 Td (as explained in the) Tj 94.776 0 Td (grops) Tj
          94.776 0 Td (manual) Tj ET",
    );
    assert!(text.contains("as explained in the grops"), "{text:?}");
}

#[test]
fn the_character_spacing_of_a_two_glyph_string_is_a_word_break() {
    let text = text_of(
        b"BT /F1 11 Tf 72 700 Td (is invoke) Tj 4.4 Tc (dw) Tj 0 Tc (ith the option) Tj ET
          BT /F1 14 Tf 72 650 Td 3 Tc (Double) Tj 0 Tc ( spaced) Tj ET
          BT /F1 11 Tf 72 600 Td 0.2 Tc (up) Tj 0 Tc (per) Tj ET",
    );
    assert!(text.contains("is invoked with the option"), "{text:?}");
    // Letter spacing over a run of letters, and a spacing too narrow to be a word break, join.
    assert!(text.contains("Double spaced"), "{text:?}");
    assert!(text.contains("upper"), "{text:?}");
}

#[test]
fn a_space_squeezed_to_nothing_by_word_spacing_breaks_no_word() {
    // Helvetica's space is 3.058 pt at 11 pt; at -2.5 Tw it advances 0.56 pt.
    let text = text_of(b"BT /F1 11 Tf 72 700 Td (they ) Tj -2.5 Tw (hav e) Tj 0 Tw ( to go) Tj ET");
    assert!(text.contains("they have to go"), "{text:?}");
}

#[test]
fn glyphs_spaced_an_em_or_wider_are_items_apart() {
    // A glyph table's header row as pdfTeX draws it: one string, cells spaced by 1.3 em of Tc
    // (txfontsdoc.pdf); letters a whole em apart (4.208 Tc at 4.208 pt, Acrobat's TouchUp in
    // PyMuPDF's test-2462.pdf). Tracking of 0.6 em (pypdf's toy.pdf) is still a letter-spaced
    // word.
    let text = text_of(
        b"BT /F1 1 Tf 10.9 0 0 10.9 72 700 Tm 1.3 Tc [(01) -5.5 (23)] TJ ET
          BT /F1 4.208 Tf 72 680 Td 4.208 Tc (aaa) Tj ET
          BT /F1 20 Tf 72 650 Td 12 Tc (Double) Tj ET",
    );
    assert!(text.contains("0 1 2 3"), "{text:?}");
    assert!(text.contains("a a a"), "{text:?}");
    assert!(text.contains("Double"), "{text:?}");
}

#[test]
fn a_character_spacing_kerned_back_glyph_by_glyph_leaves_the_word_breaks() {
    // A contents line as pdfTeX draws it in txfontsdoc.pdf: half an em of Tc, each glyph
    // kerned back by as much, and a quarter em less at each word break.
    let text = text_of(
        b"BT /F1 1 Tf 10.9 0 0 10.9 72 700 Tm 0.498 Tc
          [(7)497.5(.)500.5(1)-553(S)498.5(o)497.5(m)500.5(e)243.5(F)515(o)497.5(n)497.5(t)248
           (D)499.5(e)496.5(s)496.5(i)495.5(g)497.5(n)255.5(I)495.5(s)496.5(s)496.5(u)497.5(e)
           496.5(s)-70(.)-5.5(...)-902(8)] TJ ET
          BT /F1 20 Tf 72 650 Td 3 Tc [(W) 60 (ave)] TJ ET",
    );
    assert!(text.contains("7.1 Some Font Design Issues"), "{text:?}");
    // A font's kern inside letter-spaced display type keeps the word whole.
    assert!(text.contains("Wave"), "{text:?}");
}

#[test]
fn the_spacing_a_kerned_back_string_does_not_take_back_is_the_word_break() {
    // pxfontsdoc.pdf: ", and" at a quarter em of Tc, each glyph after the comma kerned back by
    // as much, and the next word, in another font, placed where the d's spacing ends (2.448 em
    // after the comma in Helvetica's widths). A letter-spaced word with a font kern that goes
    // on in the next string stays whole.
    let text = text_of(
        b"BT /F1 1 Tf 9.96 0 0 9.96 72 700 Tm (vf) Tj 0.2499 Tc [(,a) 250 (n) 247.7 (d)] TJ
          /F1 1 Tf 3.226 0 TD -0.001 Tc (pfb) Tj ET
          BT /F1 1 Tf 11.96 0 0 11.96 72 600 Tm (Mittelbach) Tj 0.3503 Tc
          [(,w) 354.9 (h) 352.3 (o) -23.3 (w) 385 (a) 348 (s)] TJ ET
          BT /F1 20 Tf 72 650 Td 3 Tc [(W) 60 (av)] TJ (e) Tj ET",
    );
    assert!(text.contains("vf, and pfb"), "{text:?}");
    // fancyref.pdf: the break inside the array is the one glyph whose spacing is not taken back.
    assert!(text.contains("Mittelbach, who was"), "{text:?}");
    assert!(text.contains("Wave"), "{text:?}");
}

#[test]
fn a_tight_word_break_stands_out_from_the_gaps_beside_it() {
    // A justified line squeezed to 0.13 em between words (footnotehyper.pdf) breaks there; a
    // label tracked by 0.105 em between all its letters (float.pdf's caption) and a gap as
    // wide before punctuation do not.
    let text = text_of(
        b"BT /F1 10 Tf 72 700 Td [(the) -130 (package) -130 (inserts) -130 (no)] TJ ET
          BT /F1 10 Tf 72 650 Td [(T) -105 (a) -105 (b) -105 (l) -105 (e) -400 (1) -130 (:)] TJ ET",
    );
    assert!(text.contains("the package inserts no"), "{text:?}");
    assert!(text.contains("Table 1:"), "{text:?}");
}

#[test]
fn a_raised_footnote_mark_is_a_word_apart_from_the_text_after_it() {
    // footnotehyper.pdf: the footnote's number at 6.55 pt, raised 3.26 pt, then its text at
    // 8.07 pt with no gap ("¹⁰Alternatively"). A mark after a word stays with it.
    let text = text_of(
        b"BT /F1 6.55 Tf 72 700 Td 3.26 Ts (10) Tj 0 Ts /F1 8.07 Tf (Alternatively a pair) Tj ET
          BT /F1 8.07 Tf 72 650 Td (see) Tj /F1 6.55 Tf 3.26 Ts (1) Tj 0 Ts /F1 8.07 Tf (Nota) Tj ET",
    );
    assert!(text.contains("10 Alternatively a pair"), "{text:?}");
    assert!(text.contains("see1 Nota"), "{text:?}");
}

#[test]
fn a_mark_raised_over_a_line_that_starts_with_a_small_number_stays_on_the_line() {
    // eledmac's tabular (1-tabular.pdf): a 7 pt line number, 10 pt text, and a 7 pt footnote
    // mark raised 3.6 pt after it, more than half the line number's size.
    let text = text_of(
        b"BT /F1 6.97 Tf 72 700 Td (2) Tj /F1 9.96 Tf 20 0 Td (linea secunda) Tj
          /F1 6.97 Tf 62 3.6 Td (1) Tj /F1 9.96 Tf -82 -15.6 Td (linea tertia) Tj ET",
    );
    assert!(text.starts_with("2 linea secunda1\n"), "{text:?}");
}

#[test]
fn letters_tracked_by_the_kerns_of_a_tj_array_are_one_word() {
    // barsant2.pdf (TeX Live's autosp): pdfTeX sets a small-capital title "Adagio" with each
    // letter kerned 0.13 to 0.15 em apart; read as "Adag i o" while any gap over 0.15 em was a
    // break. Its words are the tracking and a space apart ("Allegro ma non troppo").
    let text = text_of(
        b"BT /F1 24 Tf 72 700 Td [(A) -1.4 (d) -134.6 (a) -129.7 (g) -150.8 (i) -151.1 (o)] TJ ET
          BT /F1 24 Tf 72 650 Td [(m) -140 (a) -420 (n) -140 (o) -140 (n)] TJ ET",
    );
    assert!(text.contains("Adagio"), "{text:?}");
    assert!(text.contains("ma non"), "{text:?}");
}

#[test]
fn letters_of_which_only_some_are_apart_are_words() {
    // Math in thin spaces (pt-lshort.pdf's "ln x dx"): a sixth of an em between some letters,
    // none between others.
    let text = text_of(b"BT /F1 10 Tf 72 700 Td [(ln) -170 (x) -170 (dx)] TJ ET");
    assert!(text.contains("ln x dx"), "{text:?}");
}

#[test]
fn a_negative_character_spacing_moves_the_pen_not_the_ink() {
    // groff through Ghostscript kerns a pair by character spacing, then places the rest of the
    // word where the pair's ink ends (libexplain's readme.pdf: "-1 Tc (Ve) Tj 0 Tc 10.66 0 Td
    // (rsion ...)"). Helvetica at 10 pt: V 6.67, e 5.56; at -1.2 Tc the "e" starts at 5.47 and
    // its ink ends at 11.03, where "rsion" starts; ended at the pen, it left 0.12 em.
    let text = text_of(
        b"BT /F1 10 Tf 72 700 Td -1.2 Tc (Ve) Tj 0 Tc 11.03 0 Td (rsion 1.4) Tj ET
          BT /F1 10 Tf 72 650 Td -0.5 Tc (word) Tj 0 Tc 22.58 0 Td (next) Tj ET",
    );
    assert!(text.contains("Version 1.4"), "{text:?}");
    // A word placed a space after the ink of one so tightened is still a word apart.
    assert!(text.contains("word next"), "{text:?}");
}

#[test]
fn letter_spacing_whose_next_string_starts_at_the_ink_was_word_breaks() {
    // Ghostscript justifies groff's "• A false" as "2.5 Tc (•Af) Tj", the rest of "false"
    // placed where the "f"'s ink ends (libexplain's readme.pdf). Helvetica at 10 pt: x 5, A
    // 6.67, f 2.78; at 2.5 Tc the "f" starts at 16.67 and its ink ends at 19.45.
    let text = text_of(
        b"BT /F1 10 Tf 72 700 Td 2.5 Tc (xAf) Tj 0 Tc 19.45 0 Td (alse negative) Tj ET
          BT /F1 10 Tf 72 650 Td 2.5 Tc (TIT) Tj (LES) Tj 0 Tc 51.68 0 Td (next) Tj ET",
    );
    assert!(text.contains("x A false negative"), "{text:?}");
    // Letter spacing that goes on in the next string, a spacing after the last glyph, is one
    // word: the run's glyphs keep their spacing.
    assert!(text.contains("TITLES next"), "{text:?}");
}
