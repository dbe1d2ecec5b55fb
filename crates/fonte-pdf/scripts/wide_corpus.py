#!/usr/bin/env python3
"""The wide fidelity corpus (issue 16): PDFs nobody here wrote, gathered into one folder with a
list of where each came from.

- PyPI: the test PDFs in the source distributions of PDF libraries (SOURCES; the simple index,
  then the file it links; cached in $FONTE_TOOLS/wide-corpus/sdists).
- Debian: the PDF documentation of Debian packages (DEBIAN, pinned to bookworm's versions;
  `apt-get download`, cached in $FONTE_TOOLS/wide-corpus/debs), made by many producers
  (pdfTeX, LuaTeX, XeTeX, texinfo, dblatex, Sphinx, Ghostscript…); at most `cap` files of a
  package, the first by path, so TeX Live's hundreds do not swamp the rest.
Every PDF is copied to OUT/<package>-<version>/<path>. OUT/SOURCES.tsv lists package, version,
path, licence (PyPI: PKG-INFO's License-Expression, License or licence classifiers; Debian: the
first License: field of the package's copyright file), bytes and sha256. Idempotent; nothing is
committed (the files are large and their licences vary: see the list).

usage: crates/fonte-pdf/scripts/wide_corpus.py [--out target/wide-corpus]
then:  crates/fonte-pdf/scripts/pdf_fidelity.py --dir target/wide-corpus [--fonte target/release/fonte-pdf]
The random draws alone (packages nobody chose): --random-draws --out target/random-draws.
"""
import argparse
import email.parser
import gzip
import hashlib
import io
import os
import pathlib
import re
import shutil
import subprocess
import tarfile
import urllib.request
import zipfile

# The workspace root: this file is crates/fonte-pdf/scripts/NAME.py.
ROOT = pathlib.Path(__file__).resolve().parents[3]
CACHE = pathlib.Path(os.environ.get("FONTE_TOOLS", pathlib.Path.home() / ".cache" / "fonte")) / "wide-corpus"

# PDF libraries whose source packages carry test PDFs made by many producers. Pinned.
SOURCES = [
    ("pypdf", "5.1.0"),
    ("PyPDF2", "3.0.1"),
    ("pdfplumber", "0.11.4"),
    ("pdfminer.six", "20240706"),
    ("pikepdf", "9.4.2"),
    ("camelot-py", "0.11.0"),
    ("pdfrw", "0.4"),
    ("borb", "2.1.25"),
    # Added at stop 32 for producers the TeX-heavy list lacked: Microsoft Word, iText, Qt,
    # PDFium, Apache FOP, Scribus, scanners' tiff2pdf/img2pdf, LibreOffice, early dvipdfmx.
    ("pdf2docx", "0.5.13"),
    ("ocrmypdf", "17.13.0"),
    ("pdfminer", "20191125"),
    ("pypdfium2", "5.15.2"),
    # Added at stop 33: MuPDF's Python binding ships the files of its users' bug reports
    # (scans with OCR layers, Word and PowerPoint exports, Chinese tables, broken files), and
    # tabula's real-world tables.
    ("PyMuPDF", "2.1"),
    ("tabula-py", "2.10.0"),
    # Added at stop 34: pyHanko's signing tests (incremental updates, signature appearances,
    # certificate encryption, the PDF Association's compacted syntax test) and pdfreader's
    # examples.
    ("pyHanko", "0.38.0"),
    ("pdfreader", "0.1.15"),
    # Added at stop 44, found by listing the sdists of PyPI's PDF tools: pdfx's and pdfannots'
    # papers (annotations, references), pdfly's resources, img2pdf's image-only outputs.
    ("pdfx", "1.4.1"),
    ("pdfannots", "0.5"),
    ("pdfly", "0.5.1"),
    ("img2pdf", "0.6.3"),
]

# (package, version, cap): Debian packages with PDF documentation.
DEBIAN = [
    ("r-doc-pdf", "4.2.2.20221110-2", 40),
    ("octave-doc", "7.3.0-2", 40),
    ("pari-doc", "2.15.2-1", 40),
    ("asymptote-doc", "2.85+ds-1", 40),
    ("debmake-doc", "1.17-7", 40),
    ("developers-reference", "12.18", 40),
    ("maint-guide", "1.2.53", 40),
    ("ghostscript-doc", "10.0.0~dfsg-11+deb12u9", 40),
    ("texlive-fonts-recommended-doc", "2022.20230122-3", 40),
    ("texlive-lang-portuguese", "2022.20230122-1", 40),
    ("texlive-humanities-doc", "2022.20230122-4", 40),
    ("texlive-metapost-doc", "2022.20230122-3", 40),
    ("texlive-latex-recommended-doc", "2022.20230122-3", 40),
    ("texlive-latex-base-doc", "2022.20230122-3", 60),
    # Added at stop 32 for their producers: ReportLab, Apache FOP, htmldoc, Ghostscript, and
    # one manual in ten languages and five scripts (xdvipdfmx: Korean, Japanese, Russian…).
    ("python-reportlab-doc", "3.6.12-1+deb12u1", 40),
    ("fop-doc", "1:2.8-2", 40),
    ("xfig-doc", "1:3.2.8b-2", 40),
    ("debian-history", "2.28", 40),
    # Added at stop 35 for CJK scripts: the documentation of TeX's Chinese, Japanese and Korean
    # packages (pTeX and dvipdfmx, XeTeX, LuaTeX-ja; CID fonts, vertical writing, ruby,
    # Hangul drawn as jamo).
    ("texlive-lang-chinese", "2022.20230122-1", 40),
    ("texlive-lang-japanese", "2022.20230122-1", 40),
    ("texlive-lang-korean", "2022.20230122-1", 40),
    # Added at stop 36 for producers no package above had: Apache FOP 0.95 and 2.5, Apple's
    # pstopdf, DBLaTeX, cairo, Mac OS X Quartz, Acrobat Distiller 3 and 9, Photoshop, FPDF
    # (gofpdf), groff through Ghostscript, pod2pdf, Matplotlib's PDF backend (Type 3 fonts),
    # and the installation guide in 18 languages (xdvipdfmx). Many ship their PDFs gzipped.
    ("db5.3-doc", "5.3.28+dfsg2-1", 40),
    ("debian-refcard", "12.0", 40),
    ("erlang-doc", "1:25.2.3+dfsg-1+deb12u4", 40),
    ("xorg-docs", "1:1.7.1-1.2", 40),
    ("fonts-sil-gentiumplus", "6.101-1", 40),
    ("fonts-sil-mondulkiri", "7.100-3", 40),
    ("golang-github-jung-kurt-gofpdf-dev", "2.17.2+ds-3", 40),
    ("graphviz-doc", "2.42.2-7+deb12u1", 40),
    ("gretl-doc", "2022c-1", 40),
    ("installation-guide-amd64", "20230508+deb12u1", 40),
    ("lure-of-the-temptress", "1.1+ds3-1", 40),
    ("parallel", "20221122+ds-2", 40),
    ("python-astropy-doc", "5.2.1-2+deb12u1", 40),
    ("python-matplotlib-data", "3.6.3-1", 40),
    ("smlnj-doc", "110.79-8", 40),
    # Added at stop 40 from Debian's Contents index: packages with a few PDFs each, outside TeX
    # Live, for producers and font paths the list above lacks (Prawn, TCPDF, PDF::Builder,
    # Text::PDF, PyX, GLE, asciidoctor-pdf, Word and LibreOffice exports, printers' test pages,
    # security scanners' and forensics' samples, games' and hardware manuals).
    ("auto-multiple-choice-doc-pdf", "1.6.0-1", 40),
    ("libreoffice-common", "4:7.4.7-1+deb12u14", 40),
    ("ruby-prawn-doc", "2.4.0+dfsg-1~", 40),
    ("ruby-prawn-table", "0.2.2-1.1", 40),
    ("php-tcpdf", "6.6.2+dfsg1-1+deb12u1", 40),
    ("libtext-pdf-perl", "0.31-3", 40),
    ("libpdf-builder-perl", "3.025-1", 40),
    ("libcam-pdf-perl", "1.60-5", 40),
    ("libjs-pdf", "2.14.305+dfsg-2", 40),
    ("python3-pyx-doc", "0.16-1", 40),
    ("pyxplot-doc", "0.9.2-13", 40),
    ("gri-pdf-doc", "2.12.27-1.1", 40),
    ("gle-graphics-manual", "0~20221108-3", 40),
    ("clamav-testfiles", "1.4.6+dfsg-0+deb12u1", 40),
    ("forensics-samples-files", "1.1.4-5", 40),
    ("libgit2-fixtures", "1.5.1+ds-1+deb12u2", 40),
    ("ippsample-data", "0.0~git20220607.72f89b3-1", 40),
    ("hplip-data", "3.22.10+dfsg0-2+deb12u1", 40),
    ("printer-driver-foo2zjs-common", "20200505dfsg0-2", 40),
    ("gutenprint-doc", "5.3.4.20220624T01008808d602-1", 40),
    ("k3b-data", "22.12.3-1", 40),
    ("mixxx-data", "2.3.3~dfsg-2", 40),
    ("jmeter-help", "2.13-5", 40),
    ("libimage-exiftool-perl", "12.57+dfsg-1", 40),
    ("khronos-api", "4.6+git20220505-1", 40),
    ("debian-handbook", "11.20220922", 40),
    ("live-manual-pdf", "2:20151217.2", 40),
    ("docbook-xsl-doc-pdf", "1.79.1-1", 40),
    ("king", "2.24+dfsg2-1", 40),
    ("jverein", "2.8.19+dfsg-1", 40),
    ("gnumed-server", "22.19-1", 40),
    ("openlp", "3.0.2-2", 40),
    ("scolasync", "5.4-3", 40),
    ("microhope", "5.3.0+repack-3", 40),
    ("eyes17-manuals-en", "5.1.2+repack-1", 40),
    ("expeyes", "5.3.0+repack-3", 40),
    ("music-doc", "1.1.16-1.1", 40),
    ("denemo-doc", "2.6.18-1", 40),
    ("dia-common", "0.97.3+git20220525-5", 40),
    ("cqrlog-data", "2.5.2-3", 40),
    ("crawl-common", "2:0.28.0-1.1", 40),
    ("abcl", "1.9.0-1", 40),
    ("uhd-doc", "4.3.0.0+ds1-5", 40),
    ("hackrf-doc", "2022.09.1-3", 40),
    ("weka-doc", "3.6.14-3", 40),
    ("sqlite3-doc", "3.40.1-2+deb12u2", 40),
    ("cardpeek-data", "0.8.4-1.1", 40),
    ("caja-actions-common", "1.27.0-1", 40),
    ("nut-doc", "2.8.0-7", 40),
    ("krb5-doc", "1.20.1-2+deb12u5", 40),
    ("bacula-doc", "9.6.7-2", 40),
    ("glpk-doc", "5.0-1", 40),
    ("clips-doc", "6.30-4.1", 40),
    ("paperwork-gtk", "2.1.1-1", 40),
    ("linuxcnc-doc-en", "2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2", 40),
    ("muttprint-manual", "0.73-11", 40),
    ("winff-doc", "1.5.5-9", 40),
    ("ansible", "7.7.0+dfsg-3+deb12u1", 40),
    ("beancount", "2.3.5-2", 40),
    ("avrdude-doc", "7.1+dfsg-3", 40),
    ("libemf-doc", "1.0.13-5", 40),
    ("lightyears", "1.5.0-2", 40),
    ("freedoom", "0.12.1-2", 40),
    ("tcl-combat", "0.8.1-1.1", 40),
    ("fonts-train", "1.000-20210120-2", 40),
    ("ufoai-misc", "2.5-7", 40),
    ("mcu8051ide", "1.4.9-2", 40),
    ("pymol", "2.5.0+dfsg-1", 40),
    ("c++-annotations-pdf", "12.2.0-2", 40),
    ("zsh-doc", "5.9-4", 40),
    ("yodl-doc", "4.03.03-1", 40),
    ("swig4.0-doc", "4.1.0-0.2", 40),
    ("scons-doc", "4.4.0+dfsg-1", 40),
    # Added at stop 40 too: ConTeXt's own manuals (LuaTeX/LuaMetaTeX, a producer and font
    # loader of its own), and two TeX Live packages of many fonts and journal classes.
    ("context", "2021.03.05.20230120+dfsg-1+deb12u1", 40),
    ("texlive-fonts-extra-doc", "2022.20230122-4", 40),
    ("texlive-publishers-doc", "2022.20230122-4", 40),
    # Added at stop 41 from Debian's Contents index, 20 a package, none looked at before:
    # LilyPond's manuals (texinfo + music fonts), Sphinx's LaTeX builds (SageMath, SymPy,
    # statsmodels, QuTiP, Biopython, SasView), R's vignettes (Sweave, knitr, tikzDevice), groff's
    # own PDF writer (gropdf), jadetex (DocBook DSSSL), LyX, gonum/plot's vector backend, CUPS
    # filters' test pages, asciidoc and FOP (AltOS), and TeX Live's Arabic, Greek, Cyrillic,
    # German, music and games documentation.
    ("lilypond-doc-pdf", "2.24.1-2", 20),
    ("sagemath-doc", "9.5-6", 20),
    ("python-sympy-doc", "1.11.1-1", 20),
    ("labplot-data", "2.9.0-1", 20),
    ("python-statsmodels-doc", "0.13.5+dfsg-7", 20),
    ("therion-doc", "6.1.6-3", 20),
    ("docbook-dsssl", "1.79-10", 20),
    ("groff", "1.22.4-10", 20),
    ("cups-filters", "1.28.17-3+deb12u2", 20),
    ("lyx-common", "2.3.7-1", 20),
    ("golang-gonum-v1-plot-dev", "0.7.0-5", 20),
    ("goldencheetah", "1:3.5-1.1", 20),
    ("dynare-doc", "5.3-1", 20),
    ("simh", "3.8.1-6.1", 20),
    ("ettercap-common", "1:0.8.3.1-11", 20),
    ("texlive-lang-arabic", "2022.20230122-1", 20),
    ("texlive-lang-greek", "2022.20230122-1", 20),
    ("texlive-lang-cyrillic", "2022.20230122-1", 20),
    ("texlive-lang-german", "2022.20230122-1", 20),
    ("texlive-music", "2022.20230122-4", 20),
    ("texlive-games", "2022.20230122-4", 20),
    ("altos", "1.9.16-2", 20),
    ("genometools-doc", "1.6.2+ds-3", 20),
    ("libsystemc-doc", "2.3.4-2", 20),
    ("packaging-tutorial", "0.29", 20),
    ("r-cran-tikzdevice", "0.12.4-1", 20),
    ("r-base-core", "4.2.2.20221110-2", 20),
    ("r-cran-xtable", "1:1.8-4-2", 20),
    ("faust-common", "2.54.9+ds0-1", 20),
    ("fuzzylite", "6.0+dfsg-6", 20),
    ("macsyfinder", "2.0-2+b1", 20),
    ("grcompiler", "5.2.1-0.2+b1", 20),
    ("cafeobj", "1.6.0-2", 20),
    ("python-qutip-doc", "4.7.1-2", 20),
    ("lammps-doc", "20220106.git7586adbb6a+ds1-2", 20),
    ("gnustep-make-doc", "2.9.1-2", 20),
    ("tipa-doc", "2:1.3-21", 20),
    ("yacas-doc", "1.3.6-2.1", 20),
    ("python-biopython-doc", "1.80+dfsg-4", 20),
    ("libsuitesparse-doc", "1:5.12.0+dfsg-2", 20),
    ("hmmer-examples", "3.3.2+dfsg-1", 20),
    ("sasview-doc", "5.0.5-5", 20),
    # Added at stop 41 too, after that batch's run: SIL's and TeX Gyre's font documentation,
    # R packages' vignettes and test files, Doxygen and Sphinx manuals of scientific software,
    # GnuCash's guides (DocBook through FOP), code_saturne's manuals, LilyPond's German manual.
    ("fonts-sil-andika", "6.101-2", 20),
    ("fonts-sil-charis", "6.101-1", 20),
    ("fonts-sil-doulos", "6.101-1", 20),
    ("fonts-texgyre", "20180621-6", 20),
    ("fonts-lmodern", "2.005-1", 20),
    ("r-cran-pdftools", "3.3.3-1", 20),
    ("r-cran-survival", "3.5-3-1", 20),
    ("r-cran-partykit", "1.2-16-1", 20),
    ("r-cran-metafor", "3.8-1-1", 20),
    ("r-cran-rcpp", "1.0.10-1", 20),
    ("r-cran-boolnet", "2.1.7-1", 20),
    ("r-cran-adephylo", "1.1-13-1", 20),
    ("r-cran-hsaur3", "1.0-13-1", 20),
    ("libstxxl-doc", "1.4.1-3", 20),
    ("snek", "1.9-1", 20),
    ("wannier90-data", "3.1.0+ds-7", 20),
    ("mma", "21.09-1", 20),
    ("minlog", "4.0.99.20100221-7", 20),
    ("aplus-fsf-doc", "4.22.1-10.2", 20),
    ("ifeffit-doc", "2:1.2.11d-12.5", 20),
    ("liggghts-doc", "3.8.0+repack1-9", 20),
    ("libatlas-doc", "3.10.3-13", 20),
    ("toulbar2-doc", "1.1.1+dfsg-1", 20),
    ("python-pyregion-doc", "2.1.1-2", 20),
    ("python-periodictable-doc", "1.6.0-1", 20),
    ("python-simpy-doc", "2.3.1+dfsg-5", 20),
    ("bedops-doc", "2.4.41+dfsg-1", 20),
    ("simbody-doc", "3.7+dfsg-3", 20),
    ("maxima-share", "5.46.0-11", 20),
    ("eigensoft", "8.0.0+dfsg-1", 20),
    ("python-astroplan-doc", "0.7-4", 20),
    ("python-nibabel-doc", "5.0.0-2", 20),
    ("python-dtcwt-doc", "0.12.0-5", 20),
    ("lilypond-doc-pdf-de", "2.24.1-2", 20),
    ("gnucash-docs", "4.13-1", 20),
    ("code-saturne-doc", "6.0.2-2", 20),
    # Added at stop 41 last: 79 packages drawn at random (Python's random.seed(41), shuffled)
    # from those of Contents-all/-amd64 with a PDF and not yet listed, TeX Live, R, LilyPond,
    # SageMath, python3-*, LibreOffice and Noto fonts left out (they are in already or
    # would swamp the draw): the long tail of one to five PDFs a package, no choice made.
    ("octave-queueing", "1.2.7-5", 20),
    ("ftp-proxy-doc", "1.9.2.4-10.1", 20),
    ("petsc3.18-doc", "3.18.5+dfsg1-1", 20),
    ("fonts-yusei-magic", "1.000-20210130-2", 20),
    ("rasmol-doc", "2.7.6.0-3", 20),
    ("gpsman", "6.4.4.2-4", 20),
    ("lepton-eda", "1.9.18-1", 20),
    ("openocd", "0.12.0-1", 20),
    ("debian-reference-pt", "2.100", 20),
    ("libargtable2-docs", "13-1.1", 20),
    ("tcm-doc", "2.20+TSQD-7", 20),
    ("texworks-help-en", "20210308-2", 20),
    ("cli-common", "0.10+nmu1", 20),
    ("debian-faq-fr", "11.1", 20),
    ("dblatex-doc", "0.3.12py3-2", 20),
    ("dlt-viewer", "2.23.0+dfsg-3", 20),
    ("debian-edu-doc-es", "2.12.23~deb12u1", 20),
    ("mathomatic", "16.0.5-5", 20),
    ("cwebx", "3.52-3", 20),
    ("libdbuskit-dev", "0.1.1-3+b5", 20),
    ("debian-reference-fr", "2.100", 20),
    ("srf-doc", "0.1+dfsg-7", 20),
    ("yosys-doc", "0.23-6", 20),
    ("blends-doc", "0.7.5", 20),
    ("debian-edu-doc-legacy-pt-br", "2.12.23~deb12u1", 20),
    ("liblip2", "2.0.0-1.5", 20),
    ("gap-hapcryst", "0.1.15-1", 20),
    ("clisp-doc", "1:2.49.20210628.gitde01f0f-3", 20),
    ("xemacs21-basesupport", "2009.02.17.dfsg.3-1", 20),
    ("fonts-cwtex-docs", "1.0-4", 20),
    ("gmsh-doc", "4.8.4+ds2-3", 20),
    ("fonts-stick", "1.000-20210120-2", 20),
    ("enfuse", "4.2-10+b1", 20),
    ("libosp5", "1.5.2-13+b2", 20),
    ("libpostscriptbarcode", "20200401-1.1", 20),
    ("asn1c-doc", "0.9.28+dfsg-5", 20),
    ("gap-doc", "4.12.1-2", 20),
    ("libigraph-doc", "0.10.2+ds-2", 20),
    ("fonts-sil-shimenkan-zonghe", "1.000-3", 20),
    ("brz-doc", "3.3.2-3", 20),
    ("eyes17-manuals-es", "5.1.2+repack-1", 20),
    ("kannel-docs", "1.4.5-12", 20),
    ("maint-guide-zh-cn", "1.2.53", 20),
    ("sioyek", "2.0.0+dfsg-3+b6", 20),
    ("gdcm-doc", "3.0.21-1", 20),
    ("debian-edu-doc-da", "2.12.23~deb12u1", 20),
    ("expeyes-doc-en", "4.3-3", 20),
    ("texworks-help-fr", "20210308-2", 20),
    ("fonts-sil-ezra", "2.51-9", 20),
    ("previsat", "3.5.1.7+dfsg1-5", 20),
    ("liblog4c-doc", "1.2.4-3", 20),
    ("octave-zeromq", "1.5.5-1", 20),
    ("sumatra", "1.0.36+ds-2", 20),
    ("lmodern", "2.005-1", 20),
    ("flann-doc", "1.9.2+dfsg-1+deb12u1", 20),
    ("flex-doc", "2.6.4-8.2", 20),
    ("unihedron-device-manager", "1.0.0.322-4", 20),
    ("vdk2-tutorial", "1.1-3.1", 20),
    ("shishi-doc", "1.0.3-1", 20),
    ("evolver-doc", "2.70+ds-8", 20),
    ("liblapack-doc", "3.11.0-2", 20),
    ("octave-communications-common", "1.2.4-4", 20),
    ("debian-edu-doc-legacy-nb-no", "2.12.23~deb12u1", 20),
    ("qdbm-doc", "1.8.78-12", 20),
    ("hmmer-doc", "3.3.2+dfsg-1", 20),
    ("slang-pvm", "0.1.5-17", 20),
    ("gap-smallgrp", "1.5.1-1", 20),
    ("debian-policy", "4.6.2.0", 20),
    ("gnustep-examples", "1:1.4.0-3+b3", 20),
    ("libtomcrypt-dev", "1.18.2-6", 20),
    ("claws-mail-doc", "4.1.1-2", 20),
    ("gputils-doc", "1.4.0-0.2", 20),
    ("libball1.5-doc", "1.5.0+git20180813.37fc53c-11", 20),
    ("libdds-dev", "2.9.0-9", 20),
    ("gap-congruence", "1.2.4-1", 20),
    ("gnustep-dl2", "0.12.0-16", 20),
    ("xmlformat-doc", "1.04-3", 20),
    ("gap-io", "4.8.0+ds-1", 20),
    ("elpa-ess", "18.10.2+git20220915.f45542e-3", 20),
    # A second draw the same way, after the first was listed: the candidates sorted by name,
    # then shuffled with random.seed(42), the first 80 (flightgear-data-base left out for its
    # 1.3 GB).
    ("lirc-doc", "0.10.1-7.2", 20),
    ("pianobooster", "1.0.0-3", 20),
    ("tokyocabinet-doc", "1.4.48-15", 20),
    ("polymake-common", "4.6-5", 20),
    ("fonts-arphic-uming", "0.2.20080216.2-11", 20),
    ("python-py7zr-doc", "0.11.3+dfsg-5", 20),
    ("coco-doc", "20060919.0-1", 20),
    ("ragel", "6.10-4", 20),
    ("freedombox-doc-es", "23.6.2+deb12u2", 20),
    ("librlog-dev", "1.4-4.1+b1", 20),
    ("ipadic-common", "2.7.0+main-3.1", 20),
    ("libtheora-doc", "1.1.1+dfsg.1-16.1+deb12u1", 20),
    ("gap-autpgrp", "1.11-1", 20),
    ("libgnatcoll-db-doc", "23.0.0-4", 20),
    ("python-slepc4py-doc", "3.18.2-1", 20),
    ("jflex", "1.7.0-3", 20),
    ("libgfshare-dev", "2.0.0-6", 20),
    ("libcamltemplate-ocaml-dev", "1.0.2-3+b3", 20),
    ("libtrompeloeil-cpp-dev", "43-3", 20),
    ("python-escript-doc", "5.6-4", 20),
    ("seqan-raptor-doc", "2.0.0.0.git.fecfbca+ds-3", 20),
    ("debian-edu-doc-ja", "2.12.23~deb12u1", 20),
    ("libcdd-doc", "094m-1", 20),
    ("libmatio-doc", "1.5.23-2+deb12u1", 20),
    ("cvs", "2:1.12.13+real-28+deb12u1", 20),
    ("libpod-2-docbook-perl", "0.03-4", 20),
    ("jmodeltest", "2.1.10+dfsg-12", 20),
    ("ledger", "3.3.0-3", 20),
    ("glpk-utils", "5.0-1", 20),
    ("fonts-le-murmure", "0.2-2", 20),
    ("autoconf-doc", "2.71-3", 20),
    ("jigsaw-generator", "0.2.7-1", 20),
    ("firehol-doc", "3.1.7+ds-2.1", 20),
    ("octave-optics", "0.1.4-4", 20),
    ("gap-scscp", "2.4.0+ds-1", 20),
    ("wiki2beamer", "0.10.0-5", 20),
    ("systemtap-doc", "4.8-2", 20),
    ("tuna", "0.15-1", 20),
    ("rdkit-doc", "202209.3-1", 20),
    ("texinfo", "6.8-6+b1", 20),
    ("debian-edu-doc-pt-pt", "2.12.23~deb12u1", 20),
    ("openhpi-plugin-ilo2-ribcl", "3.8.0-2.1+b1", 20),
    ("vmg", "3.7.1-7", 20),
    ("andi", "0.14-2", 20),
    ("bibledit-data", "5.0.994-3", 20),
    ("octave-octproj", "3.0.2-1", 20),
    ("blkreplay", "1.0-3.1", 20),
    ("maint-guide-es", "1.2.53", 20),
    ("survex", "1.4.4-1", 20),
    ("logdata-anomaly-miner", "2.6.0-1", 20),
    ("alqalam", "0.2-10", 20),
    ("pyscanfcs", "0.3.6+ds-4+b1", 20),
    ("libcaca-dev", "0.99.beta20-3+deb12u1", 20),
    ("systraq", "20201231-1", 20),
    ("fonts-sil-charis-compact", "5.000-2", 20),
    ("nagios-nrpe-server", "4.1.0-1+b1", 20),
    ("rocketcea", "1.1.18+dfsg-3+b1", 20),
    ("geotranz-doc", "3.7-3", 20),
    ("mrgingham", "1.22-1+b2", 20),
    ("gorm.app", "1.2.28-2+b1", 20),
    ("libtemplates-parser-doc", "23.0.0-3", 20),
    ("maint-guide-vi", "1.2.53", 20),
    ("afl++-doc", "4.04c-4", 20),
    ("eyes17-manuals-fr", "5.1.2+repack-1", 20),
    ("tigr-glimmer", "3.02b-6+b1", 20),
    ("elastix-doc", "5.0.1-4", 20),
    ("abinit-doc", "9.6.2-1", 20),
    ("fireqos-doc", "3.1.7+ds-2.1", 20),
    ("pfstools", "2.2.0-5+b1", 20),
    ("nyquist", "3.20+ds-2", 20),
    ("fltk1.3-doc", "1.3.8-5", 20),
    ("litl-doc", "0.1.9-13", 20),
    ("gsequencer-doc", "4.4.3-1", 20),
    ("stow", "2.3.1-1", 20),
    ("dbconfig-common", "2.0.24", 20),
    ("cl-cffi", "1:0.24.1-3", 20),
    ("fonts-reggae", "1.000-20210120-2", 20),
    ("tix-dev", "8.4.3-11", 20),
    ("python-sfepy-doc", "2021.4-4", 20),
    # A third draw at stop 42, the same way (the 282 candidates left, sorted by name, shuffled
    # with random.seed(43), the first 80).
    ("libblitz-doc", "1:1.0.2+ds-4", 20),
    ("giac-doc", "1.9.0.35+dfsg2-1.1", 20),
    ("preview-latex-style", "12.2-1", 20),
    ("maint-guide-fr", "1.2.53", 20),
    ("debian-paketmanagement-buch", "0~2023.03.11", 20),
    ("gap-polymaking", "0.8.6-2", 20),
    ("pymca-data", "5.8.0+dfsg-2", 20),
    ("python-pymzml-doc", "2.5.2+repack1-1", 20),
    ("instead-doc-ru", "3.3.2-1.1", 20),
    ("gap-transgrp", "3.6.3-1", 20),
    ("auctex", "12.2-1", 20),
    ("debian-edu-doc-legacy-pl", "2.12.23~deb12u1", 20),
    ("libsimbody-dev", "3.7+dfsg-3", 20),
    ("ufoai", "2.5-7", 20),
    ("python-cvxopt-doc", "1.3.0+dfsg-1", 20),
    ("racket-common", "8.7+dfsg1-1", 20),
    ("topparser", "1.3-3", 20),
    ("libcamlpdf-ocaml-dev", "2.5.3-1", 20),
    ("quilt", "0.67+really0.66-1", 20),
    ("libdbd-mysql", "0.9.0-11", 20),
    ("shared-mime-info", "2.2-1", 20),
    ("libdsk4-dev", "1.5.9+dfsg-1+b1", 20),
    ("sumaclust", "1.0.36+ds-2", 20),
    ("maxima-sage-share", "5.45.1-2", 20),
    ("altree", "1.3.2-1+b3", 20),
    ("debian-edu-doc-legacy-fr", "2.12.23~deb12u1", 20),
    ("kissplice", "2.6.2-2", 20),
    ("highway-doc", "1.0.3-3+deb12u1", 20),
    ("pytidylib-doc", "0.3.2~dfsg-7", 20),
    ("vym", "2.6.11-3+b2", 20),
    ("python-jpylyzer-doc", "2.1.0-3", 20),
    ("glam2", "1064-9", 20),
    ("massxpert-doc", "7.0.0-2", 20),
    ("pd-pmpd", "0.9-7", 20),
    ("lammps-examples", "20220106.git7586adbb6a+ds1-2", 20),
    ("slurm-wlm-doc", "22.05.8-4+deb12u3", 20),
    ("apvlv", "0.4.0+repack-1", 20),
    ("gerbv", "2.9.6-1", 20),
    ("tex-gyre", "20180621-6", 20),
    ("minexpert2-doc", "8.6.3-1", 20),
    ("mummer-doc", "3.23+dfsg-8", 20),
    ("debian-reference-pt-br", "2.100", 20),
    ("fonts-texgyre-math", "20180621-6", 20),
    ("pspp", "1.6.2-2", 20),
    ("octave-biosig", "2.5.0-1+b1", 20),
    ("mailfromd-doc", "8.15-2", 20),
    ("verilator", "5.006-3", 20),
    ("gap-openmath", "11.5.2+ds-1", 20),
    ("debian-edu-doc-fr", "2.12.23~deb12u1", 20),
    ("latex-coffee-stains", "7-2", 20),
    ("sc3-plugins-language", "3.9.1~repack-4", 20),
    ("velvet", "1.2.10+dfsg1-8", 20),
    ("infernal-doc", "1.1.4-1", 20),
    ("eyes17", "5.3.0+repack-3", 20),
    ("debian-edu-doc-nb-no", "2.12.23~deb12u1", 20),
    ("feynmf", "1.08-14", 20),
    ("libball1.5-data", "1.5.0+git20180813.37fc53c-11", 20),
    ("libexplain-doc", "1.4.D001-12", 20),
    ("debian-edu-doc-it", "2.12.23~deb12u1", 20),
    ("tree-puzzle-doc", "5.3~rc16+dfsg-9", 20),
    ("elpa-fountain-mode", "3.6.0-1", 20),
    ("developers-reference-ru", "12.18", 20),
    ("derivations", "0.57.20210107-3", 20),
    ("debian-reference-zh-tw", "2.100", 20),
    ("python-tables-doc", "3.7.0-5", 20),
    ("whizzytex", "1.3.7-1", 20),
    ("gap-float", "1.0.3+ds-3+b1", 20),
    ("libocamlviz-ocaml-doc", "1.01-6", 20),
    ("netgen-doc", "6.2.2006+really6.2.1905+dfsg-5.1", 20),
    ("debian-edu-doc-legacy-sv", "2.12.23~deb12u1", 20),
    ("phyml", "3:3.3.20220408-3", 20),
    ("libtasn1-doc", "4.19.0-2+deb12u1", 20),
    ("geomview", "1.9.5-4+b1", 20),
    ("denemo-data", "2.6.18-1", 20),
    ("debian-edu-doc-en", "2.12.23~deb12u1", 20),
    ("bibtool", "2.68+ds-1", 20),
    ("apt-cacher-ng", "3.7.4-1+b2", 20),
    ("python-petsc4py-doc", "3.18.5-1", 20),
    ("gap-cryst", "4.1.25-1", 20),
    ("pd-iemlib", "1.22.2-3", 20),
    # A fourth draw at stop 42 (the 202 candidates left, sorted by name, shuffled with
    # random.seed(44), the first 80).
    ("cb2bib", "2.0.1-2", 20),
    ("debian-reference-ja", "2.100", 20),
    ("latexml", "0.8.7-2", 20),
    ("debian-reference-de", "2.100", 20),
    ("4ti2-doc", "1.6.9+ds-8", 20),
    ("debian-edu-doc-legacy-ja", "2.12.23~deb12u1", 20),
    ("mrbayes-doc", "3.2.7a-6", 20),
    ("context-modules", "20220508-2", 20),
    ("dvi2ps", "5.1j-1.5", 20),
    ("coinor-libdylp-doc", "1.10.4-3", 20),
    ("gprolog-doc", "1.4.5.0-3", 20),
    ("pstoedit", "3.78-2", 20),
    ("gap-laguna", "3.9.5+ds-2", 20),
    ("enblend", "4.2-10+b1", 20),
    ("ettercap-graphical", "1:0.8.3.1-11", 20),
    ("ghc-doc", "9.0.2-4", 20),
    ("dicomscope-doc", "3.6.0-25", 20),
    ("impressive", "0.13.1-1", 20),
    ("minimap2", "2.24+dfsg-3+b1", 20),
    ("libmpfi-doc", "1.5.3+ds-6", 20),
    ("git-dpm", "0.10.0-1.1", 20),
    ("gap-aclib", "1.3.2-2", 20),
    ("libevas-loaders", "1.26.3-1+b1", 20),
    ("gap-radiroot", "2.9-1", 20),
    ("bsdgames", "2.17-29+b1", 20),
    ("librust-sha1collisiondetection-dev", "0.2.6-1+b2", 20),
    ("pd-cyclone", "0.6.1-2", 20),
    ("yaws-doc", "2.1.1+dfsg-2", 20),
    ("coinor-csdp-doc", "6.2.0-4", 20),
    ("tachyon-doc", "0.99~b6+dsx-10", 20),
    ("maint-guide-zh-tw", "1.2.53", 20),
    ("librust-content-inspector-dev", "0.2.4-1+b1", 20),
    ("monero-tests", "0.18.0.0+~0+20200826-1+deb12u1", 20),
    ("emacs-common", "1:28.2+1-15+deb12u4", 20),
    ("why3-doc-pdf", "1.5.1-1", 20),
    ("debdelta-doc", "0.67", 20),
    ("developers-reference-fr", "12.18", 20),
    ("libpodofo-utils", "0.9.8+dfsg-3+b1", 20),
    ("fai-doc", "6.0.3+deb12u1", 20),
    ("debian-edu-doc-legacy-nl", "2.12.23~deb12u1", 20),
    ("gnutls-doc", "3.7.9-2+deb12u7", 20),
    ("libdbd-sqlite3", "0.9.0-11", 20),
    ("python-mlpy-doc", "3.5.0+ds-2", 20),
    ("instead-doc-en", "3.3.2-1.1", 20),
    ("dasm", "2.20.15~20201109+really2.20.14.1-2", 20),
    ("form-doc", "4.3.0+git20230104+ds-1", 20),
    ("gnubg-data", "1.07.001-1", 20),
    ("gap-grape", "4.9.0+ds-1", 20),
    ("macaulay2-common", "1.21+ds-3", 20),
    ("developers-reference-ja", "12.18", 20),
    ("gap-crystcat", "1.1.10-1", 20),
    ("python-cysignals-doc", "1.11.2+ds-2", 20),
    ("biber", "2.18-1", 20),
    ("gap-utils", "0.81-1", 20),
    ("gem-doc", "1:0.94-8", 20),
    ("debian-reference-es", "2.100", 20),
    ("linuxdoc-tools", "0.9.82-1", 20),
    ("linuxcnc-uspace", "2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2", 20),
    ("bash-doc", "5.2.15-2", 20),
    ("surf-alggeo-doc", "1.0.6+ds-6", 20),
    ("libbullet-doc", "3.24+dfsg-2", 20),
    ("proofgeneral-doc", "4.4.1~pre170114-1.2", 20),
    ("libdbd-pgsql", "0.9.0-11", 20),
    ("chasen", "2.4.5-44+b1", 20),
    ("debian-edu-doc-legacy-pt-pt", "2.12.23~deb12u1", 20),
    ("slime", "2:2.27+dfsg-1", 20),
    ("gss-doc", "1.0.4-1+deb12u2", 20),
    ("libscscp-doc", "1.0.3+ds-7", 20),
    ("linuxcnc-doc-es", "2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2", 20),
    ("gap-atlasrep", "2.1.6-1", 20),
    ("pari-gp2c", "0.0.13-1", 20),
    ("maint-guide-de", "1.2.53", 20),
    ("gap-factint", "1.6.3+ds-2", 20),
    ("debian-edu-doc-pt-br", "2.12.23~deb12u1", 20),
    ("gap-table-of-marks", "1.2.9-2", 20),
    ("flightgear-data-base", "1:2020.3.16+dfsg-1", 20),
    ("pycode-browser", "1:1.03-1", 20),
    ("debian-reference-id", "2.100", 20),
    ("gap-fga", "1.4.0-2", 20),
    ("fragmaster", "1.7-11", 20),
    # A fifth draw at stop 43 (the 122 candidates left, sorted by name, shuffled with
    # random.seed(45), the first 80).
    ("tix", "8.4.3-11", 20),
    ("maint-guide-ca", "1.2.53", 20),
    ("debian-reference-it", "2.100", 20),
    ("debian-installer", "20230607+deb12u15", 20),
    ("gromacs-data", "2022.5-2", 20),
    ("phyx", "1.3+ds-2", 20),
    ("esnacc-doc", "1.8.1-3", 20),
    ("libcgns-dev", "3.4.0-3", 20),
    ("gitmagic", "20160304-1.2", 20),
    ("sagetex-doc", "3.6.1+ds-1", 20),
    ("developers-reference-it", "12.18", 20),
    ("invesalius", "3.1.99998-4", 20),
    ("debian-astro-logo", "4.0", 20),
    ("liblatex-table-perl", "1.0.6-4", 20),
    ("warmux-data", "1:11.04.1+repack2-4", 20),
    ("libu2f-host-doc", "1.1.10-3", 20),
    ("debian-edu-doc-nl", "2.12.23~deb12u1", 20),
    ("gap-sonata", "2.9.6+ds-1", 20),
    ("brewtarget", "3.0.6-1", 20),
    ("metaphlan", "4.0.4-1", 20),
    ("snakemake-doc", "7.21.0-1", 20),
    ("qtpdf5-examples", "5.15.13+dfsg-1~deb12u1", 20),
    ("ikarus", "0.0.3+bzr.2010.01.26+bap.1-1", 20),
    ("pampi", "1.1+dfsg1-7", 20),
    ("pbuilder", "0.231", 20),
    ("trace2dbest-doc", "3.0.1-2", 20),
    ("sha1cdsum", "0.2.6-1+b2", 20),
    ("maint-guide-ja", "1.2.53", 20),
    ("libann-dev", "1.1.2+doc-9+b1", 20),
    ("latex-make", "2.4.3-1", 20),
    ("metastudent", "2.0.1-9", 20),
    ("gap-polycyclic", "2.16-2", 20),
    ("qgis3-survex-import", "1.3-1", 20),
    ("3depict", "0.0.23-2", 20),
    ("rambo-k", "1.21+dfsg-4", 20),
    ("visp-images-data", "3.5.0-1", 20),
    ("libgeo-coordinates-osgb-perl", "2.20-2", 20),
    ("debian-edu-doc-legacy-zh-cn", "2.12.23~deb12u1", 20),
    ("juce-modules-source-data", "7.0.5+ds-1", 20),
    ("fig2dev", "1:3.2.8b-3+deb12u2", 20),
    ("maint-guide-it", "1.2.53", 20),
    ("python-xraylarch-doc", "0.9.58+ds1-5", 20),
    ("linuxcnc-doc-zh-cn", "2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2", 20),
    ("sollya-doc", "8.0+ds-2", 20),
    ("songwrite", "3-0.2-1", 20),
    ("linuxcnc-doc-de", "2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2", 20),
    ("bibledit-cloud-data", "5.0.992-4", 20),
    ("python-sklearn-doc", "1.2.1+dfsg-1", 20),
    ("gentle", "1.9+cvs20100605+dfsg1-10+b2", 20),
    ("blktrace", "1.2.0-5", 20),
    ("fonts-lxgw-wenkai-doc", "1.250+repack-1", 20),
    ("doxygen-doc", "1.9.4-4", 20),
    ("freefem-doc", "3.5.8-7", 20),
    ("python-mpi4py-doc", "3.1.4-2", 20),
    ("hol-light", "20230128-1+b1", 20),
    ("yade", "2023.02a-1", 20),
    ("debian-reference-en", "2.100", 20),
    ("linuxcnc-doc-fr", "2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2", 20),
    ("d-itg", "2.8.1-r1023-6", 20),
    ("purifyeps", "1.1-3", 20),
    ("python-osmnx-doc", "1.2.3+ds-1", 20),
    ("roundcube-core", "1.6.5+dfsg-1+deb12u14", 20),
    ("rheolef-doc", "7.2-2", 20),
    ("librust-sequoia-openpgp-dev", "1.12.0-2", 20),
    ("expeyes-doc-fr", "4.3-3", 20),
    ("python-cherrypy3-doc", "18.8.0-2", 20),
    ("python-skimage-doc", "0.19.3-8", 20),
    ("gap-hap", "1.47-1", 20),
    ("debian-reference-zh-cn", "2.100", 20),
    ("gap-primgrp", "3.4.3-1", 20),
    ("libadolc-dev", "2.7.2-6", 20),
    ("primesieve-doc", "11.0+ds-2", 20),
    ("normaliz-doc", "3.9.4+ds-2", 20),
    ("libjaula-doc", "1.4.0-8", 20),
    ("libidn2-doc", "2.3.3-1", 20),
    ("gap-toric", "1.9.5+ds-2", 20),
    ("mrmpi-doc", "1.0~20140404-3", 20),
    ("gap-gapdoc", "1.6.6-1", 20),
    ("tig", "2.5.5-1", 20),
    ("circuit-macros", "10.1.4-1", 20),
    # A sixth draw at stop 44: the 42 candidates left (sorted by name, shuffled with
    # random.seed(46)), all of them; the pool of bookworm's Contents files is then used up.
    ("maq", "0.7.1-9", 20),
    ("gap-design", "1.7+ds-3", 20),
    ("cd-hit", "4.8.1-4", 20),
    ("camlidl-doc", "1.04-5", 20),
    ("gap-nq", "2.5.9-1", 20),
    ("gap-autodoc", "2022.10.20-1", 20),
    ("lhs2tex", "1.24-1+b2", 20),
    ("ch5m3d", "1.2.5+dfsg-3", 20),
    ("gap-alnuth", "3.2.1-1", 20),
    ("gap-guava", "3.17+ds-3", 20),
    ("dblatex", "0.3.12py3-2", 20),
    ("debian-edu-doc-zh-cn", "2.12.23~deb12u1", 20),
    ("lazarus-src-2.2", "2.2.6+dfsg2-2", 20),
    ("raster3d-doc", "3.0-7-2", 20),
    ("coccinelle-doc", "1.1.1.deb-2", 20),
    ("gnuplot-doc", "5.4.4+dfsg1-2", 20),
    ("debian-edu-doc-legacy-en", "2.12.23~deb12u1", 20),
    ("fasta3-doc", "36.3.8i.14-Nov-2020-1", 20),
    ("debian-edu-doc-legacy-uk", "2.12.23~deb12u1", 20),
    ("python-nipy-doc", "0.5.0-7", 20),
    ("maint-guide-ru", "1.2.53", 20),
    ("firehol-tools-doc", "3.1.7+ds-2.1", 20),
    ("python-nbsphinx-doc", "0.8.11+ds-1", 20),
    ("freedombox-doc-en", "23.6.2+deb12u2", 20),
    ("nauty-doc", "2.8.6+ds-2", 20),
    ("amoebax", "0.2.1+dfsg-6", 20),
    ("pssh", "2.3.4-2", 20),
    ("gnustep-gui-doc", "0.29.0-2", 20),
    ("gap-character-tables", "1.3.4-1", 20),
    ("debian-edu-doc-de", "2.12.23~deb12u1", 20),
    ("w3c-markup-validator", "1.3+dfsg-4", 20),
    ("zoneminder", "1.36.33+dfsg1-1", 20),
    ("ampliconnoise", "1.29-10+b2", 20),
    ("tcl-doc", "8.6.13", 20),
    ("deap-doc", "1.3.1-4", 20),
    ("pycorrfit", "1.1.7+dfsg-2+b1", 20),
    ("developers-reference-de", "12.18", 20),
    ("seqsero", "1.0.1+dfsg-6", 20),
    ("rna-star", "2.7.10b+dfsg-2+b2", 20),
    ("bliss-doc", "0.73-5", 20),
    ("gnustep-base-doc", "1.28.1+really1.28.0-5", 20),
    ("cassbeam", "1.1-3", 20),
]


# The first package of the random draws (stop 41 on): every later entry of DEBIAN was drawn,
# not chosen; `--random-draws` gathers those alone.
FIRST_DRAWN = "octave-queueing"


def sdist_url(name, version):
    page = urllib.request.urlopen(f"https://pypi.org/simple/{name}/", timeout=120).read().decode()
    stems = {f"{name}-{version}".lower(), f"{name.replace('-', '_').replace('.', '_')}-{version}".lower()}
    for href in re.findall(r'href="([^"]+)"', page):
        filename = href.split("/")[-1].split("#")[0]
        for ext in (".tar.gz", ".zip"):
            if filename.lower().endswith(ext) and filename.lower()[: -len(ext)] in stems:
                return href.split("#")[0], filename
    raise SystemExit(f"wide_corpus: no source distribution of {name}=={version} on PyPI")


def fetch(name, version):
    CACHE.joinpath("sdists").mkdir(parents=True, exist_ok=True)
    done = list(CACHE.joinpath("sdists").glob(f"{name}-{version}.*")) + list(
        CACHE.joinpath("sdists").glob(f"{name.replace('-', '_').replace('.', '_')}-{version}.*"))
    if done:
        return done[0]
    url, filename = sdist_url(name, version)
    path = CACHE / "sdists" / filename
    data = urllib.request.urlopen(url, timeout=600).read()
    path.with_suffix(".part").write_bytes(data)
    path.with_suffix(".part").rename(path)
    return path


def members(path):
    """(name, bytes) of every file in the archive."""
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                yield n, z.read(n)
    else:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.isfile():
                    yield m.name, t.extractfile(m).read()


def fetch_deb(name, version, fall_back=True):
    """The package's .deb and its version, from the configured Debian mirror (cached). A mirror
    may carry only a later point release than the pinned one (a security update replaces it):
    then that one is taken, said, and recorded with its own version."""
    folder = CACHE / "debs"
    folder.mkdir(parents=True, exist_ok=True)
    quoted = version.replace(":", "%3a")
    found = list(folder.glob(f"{name}_{quoted}_*.deb"))
    if not found:
        got = subprocess.run(["apt-get", "download", "-q", f"{name}={version}"], cwd=folder,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if got.returncode != 0 and fall_back:
            policy = subprocess.run(["apt-cache", "policy", name], capture_output=True, text=True).stdout
            candidate = re.search(r"Candidate:\s*(\S+)", policy)
            if not candidate or candidate.group(1) == "(none)":
                raise SystemExit(f"wide_corpus: {name} is not on this machine's Debian mirror")
            version = candidate.group(1)
            print(f"{name}: {got.args[-1]} is not on the mirror; taking {version}")
            return fetch_deb(name, version, fall_back=False)
        found = list(folder.glob(f"{name}_{quoted}_*.deb"))
    if not found:
        raise SystemExit(f"wide_corpus: apt-get download {name}={version} gave no .deb")
    return found[0], version


def deb_members(path):
    """(name, bytes) of every file of the package (its data tarball); a gzipped PDF (Debian
    compresses documentation) is given unpacked, under its name without the .gz."""
    tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(path)], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        for m in t.getmembers():
            if m.isfile():
                name, data = m.name.lstrip("./"), t.extractfile(m).read()
                if name.lower().endswith(".pdf.gz"):
                    name, data = name[:-3], gzip.decompress(data)
                yield name, data


def deb_licence(files):
    for name, data in files:
        if name.startswith("usr/share/doc/") and name.endswith("/copyright"):
            for line in data.decode("utf-8", "replace").splitlines():
                if line.startswith("License:") and line[8:].strip():
                    return line[8:].strip()
            return "see its copyright file"
    return "unknown"


def licence(pkg_info):
    meta = email.parser.Parser().parsestr(pkg_info)
    for key in ("License-Expression", "License"):
        value = (meta.get(key) or "").strip()
        if value and value.upper() != "UNKNOWN" and len(value) < 80:
            return value
    classes = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License")]
    return "; ".join(classes) or "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "target/wide-corpus")
    ap.add_argument("--random-draws", action="store_true",
                    help="only the packages drawn at random (no choice made: a sample nobody tuned to)")
    args = ap.parse_args()
    rows = []
    sources, debian = SOURCES, DEBIAN
    if args.random_draws:
        first = next(i for i, (name, *_) in enumerate(DEBIAN) if name == FIRST_DRAWN)
        sources, debian = [], DEBIAN[first:]
    for name, version in sources:
        sdist = fetch(name, version)
        files = list(members(sdist))
        info = next((b.decode("utf-8", "replace") for n, b in files if n.count("/") == 1 and n.endswith("/PKG-INFO")), "")
        lic = licence(info)
        n = 0
        for member, data in files:
            if not member.lower().endswith(".pdf") or not data.startswith(b"%PDF") and b"%PDF" not in data[:1024]:
                continue
            inner = member.split("/", 1)[1]
            target = args.out / f"{name}-{version}" / inner
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_bytes() != data:
                target.write_bytes(data)
            rows.append((name, version, inner, lic, len(data), hashlib.sha256(data).hexdigest()))
            n += 1
        print(f"{name} {version}: {n} PDFs ({lic})")
    for name, version, cap in debian:
        deb, version = fetch_deb(name, version)
        files = list(deb_members(deb))
        lic = deb_licence(files)
        pdfs = sorted((n, b) for n, b in files if n.lower().endswith(".pdf") and b.startswith(b"%PDF"))
        for member, data in pdfs[:cap]:
            target = args.out / f"{name}-{version}" / member
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_bytes() != data:
                target.write_bytes(data)
            rows.append((name, version, member, lic, len(data), hashlib.sha256(data).hexdigest()))
        print(f"{name} {version}: {min(cap, len(pdfs))} of {len(pdfs)} PDFs ({lic})")
    # A folder of a package version no longer gathered (a pin moved, a security update
    # replaced a Debian version) would be read twice by pdf_fidelity.py: removed.
    kept = {f"{r[0]}-{r[1]}" for r in rows}
    for folder in sorted(p for p in args.out.iterdir() if p.is_dir() and p.name not in kept):
        print(f"removed {folder.name}: no longer in the lists")
        shutil.rmtree(folder)
    with open(args.out / "SOURCES.tsv", "w") as f:
        f.write("package\tversion\tpath\tlicence\tbytes\tsha256\n")
        for r in rows:
            f.write("\t".join(map(str, r)) + "\n")
    print(f"{len(rows)} PDFs in {args.out} (list: {args.out / 'SOURCES.tsv'})")


if __name__ == "__main__":
    main()
