#!/usr/bin/env python3
"""Writes the CID -> Unicode tables of the four Adobe CJK character collections that
fonte-core reads a CID font without ToUnicode through (crates/fonte-core/data/cid/).

Source: Adobe's own CMaps Adobe-Japan1-UCS2, Adobe-GB1-UCS2, Adobe-CNS1-UCS2 and
Adobe-Korea1-UCS2 (BSD-3-Clause, copyright Adobe), as Debian's `poppler-data` package
installs them under /usr/share/poppler/cMap (`apt-get install poppler-data`); pdf.js reads the
same CMaps for the same purpose. The written files are generated data, committed so that no
build needs the package; run this again only to update them.

Format of each `<collection>.txt.z`: zlib-compressed UTF-8, line i the text of CID i (empty
where the CMap maps nothing, and for CID 0, .notdef).
"""
import pathlib
import re
import sys
import zlib

COLLECTIONS = ["Japan1", "GB1", "CNS1", "Korea1"]
HEX = r"<([0-9A-Fa-f]+)>"
VARIANT = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef\ufffd]")


def text(hexstr):
    raw = bytes.fromhex(hexstr)
    return raw.decode("utf-16-be", errors="replace")


def parse(cmap):
    """CID -> text of one Adobe-*-UCS2 CMap (bfchar and bfrange sections)."""
    out = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        for src, dst in re.findall(HEX + r"\s*" + HEX, block):
            out[int(src, 16)] = text(dst)
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for lo, hi, dst in re.findall(HEX + r"\s*" + HEX + r"\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])", block):
            lo, hi = int(lo, 16), int(hi, 16)
            if dst.startswith("["):
                for i, d in enumerate(re.findall(HEX, dst)):
                    out[lo + i] = text(d)
            else:
                raw = bytearray(bytes.fromhex(dst[1:-1]))
                for cid in range(lo, hi + 1):
                    out[cid] = raw.decode("utf-16-be", errors="replace")
                    # The last UTF-16 unit counts up through the range.
                    last = int.from_bytes(raw[-2:], "big") + 1
                    raw[-2:] = (last & 0xFFFF).to_bytes(2, "big")
    return out


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/poppler/cMap")
    dst = pathlib.Path(__file__).resolve().parent.parent / "crates/fonte-core/data/cid"
    dst.mkdir(parents=True, exist_ok=True)
    for name in COLLECTIONS:
        cmap = (src / f"Adobe-{name}" / f"Adobe-{name}-UCS2").read_text(encoding="latin-1")
        table = parse(cmap)
        table.pop(0, None)
        # Variation selectors name a glyph variant of the character before them: the text is
        # the character (pdftotext and MuPDF print it alone).
        lines = [VARIANT.sub("", table.get(cid, "")) for cid in range(max(table) + 1)]
        assert not any("\n" in t for t in lines)
        data = zlib.compress("\n".join(lines).encode("utf-8"), 9)
        (dst / f"{name}.txt.z").write_bytes(data)
        mapped = sum(1 for t in lines if t)
        print(f"Adobe-{name}: {len(lines)} CIDs, {mapped} mapped, {len(data)} bytes")


if __name__ == "__main__":
    main()
