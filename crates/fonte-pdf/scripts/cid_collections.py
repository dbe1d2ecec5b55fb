#!/usr/bin/env python3
"""Writes the CID -> Unicode tables of the four Adobe CJK character collections that
fonte-pdf reads a CID font without ToUnicode through, and the code -> CID tables of the
predefined CMaps whose codes are not Unicode (H, 90ms-RKSJ-H, GBK-EUC-H, B5pc-H, KSC-EUC-H...),
through which such a font's codes reach those CIDs (crates/fonte-pdf/data/cid/).

Source: Adobe's own CMaps Adobe-Japan1-UCS2, Adobe-GB1-UCS2, Adobe-CNS1-UCS2 and
Adobe-Korea1-UCS2 (BSD-3-Clause, copyright Adobe), as Debian's `poppler-data` package
installs them under /usr/share/poppler/cMap (`apt-get install poppler-data`); pdf.js reads the
same CMaps for the same purpose. The written files are generated data, committed so that no
build needs the package; run this again only to update them.

Format of each `<collection>.txt.z`: zlib-compressed UTF-8, line i the text of CID i (empty
where the CMap maps nothing, and for CID 0, .notdef).

Format of `cmaps.bin.z` (zlib), one record per horizontal predefined CMap of the four
collections, other than the Unicode ones (a -V CMap swaps some codes for vertical variants
whose text is the same but for a few marks, where the -H gives the character typed: the reader
reads a -V as its -H):
  name length (1 byte), name (ASCII), collection (1 byte: 0 Japan1, 1 GB1, 2 CNS1, 3 Korea1),
  number of codespace ranges (varint), each: byte length n, first code (n bytes), last (n bytes),
  number of code ranges (varint), each, sorted by first code: first code - the previous
  range's last code (zigzag varint), last code - first (varint), CID of the first code - the
  previous range's CID of its last code (zigzag varint); both "previous" are 0 for the first.
A CMap that builds on another (`usecmap`) is written whole, its own mappings over the other's.
"""
import pathlib
import re
import sys
import zlib

COLLECTIONS = ["Japan1", "GB1", "CNS1", "Korea1"]
# Not code -> CID CMaps of a text encoding: the collections' own CID maps and the Unicode ones.
NOT_ENCODINGS = re.compile(r"^(Uni|Adobe-|UCS2)|UCS2|-V$|^V$")
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


def cid_cmap(path):
    """Codespace ranges [(first, last) as hex] and {(byte length, code): CID} of one CMap file,
    with those of the CMap it builds on (`usecmap`) under its own."""
    text = path.read_text(encoding="latin-1")
    spaces, cids = [], {}
    used = re.search(r"/(\S+)\s+usecmap", text)
    if used:
        spaces, cids = cid_cmap(path.parent / used.group(1))
    for block in re.findall(r"begincodespacerange(.*?)endcodespacerange", text, re.S):
        spaces += [s for s in re.findall(HEX + r"\s*" + HEX, block) if s not in spaces]
    for block in re.findall(r"begincidrange(.*?)endcidrange", text, re.S):
        for lo, hi, cid in re.findall(HEX + r"\s*" + HEX + r"\s*(\d+)", block):
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                cids[(len(lo) // 2, code)] = int(cid) + i
    for block in re.findall(r"begincidchar(.*?)endcidchar", text, re.S):
        for code, cid in re.findall(HEX + r"\s*(\d+)", block):
            cids[(len(code) // 2, int(code, 16))] = int(cid)
    return spaces, cids


def varint(n, out):
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | 0x80 if n else byte)
        if not n:
            return


def zigzag(n):
    return n << 1 if n >= 0 else ((-n) << 1) - 1


def cmap_record(name, collection, spaces, cids):
    out = bytearray([len(name)]) + name.encode("ascii") + bytes([collection])
    varint(len(spaces), out)
    for lo, hi in spaces:
        out += bytes([len(lo) // 2]) + bytes.fromhex(lo) + bytes.fromhex(hi)
    # Runs of consecutive codes (of one length) to consecutive CIDs.
    ranges = []
    for (n, code), cid in sorted(cids.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        last = ranges[-1] if ranges else None
        if last and last[0] == n and code == last[2] + 1 and cid == last[3] + (code - last[1]):
            last[2] = code
        else:
            ranges.append([n, code, code, cid])
    varint(len(ranges), out)
    previous_code = previous_cid = 0
    for _, lo, hi, cid in ranges:
        varint(zigzag(lo - previous_code), out)
        varint(hi - lo, out)
        varint(zigzag(cid - previous_cid), out)
        previous_code, previous_cid = hi, cid + (hi - lo)
    return bytes(out)


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/poppler/cMap")
    dst = pathlib.Path(__file__).resolve().parent.parent / "data/cid"
    dst.mkdir(parents=True, exist_ok=True)
    for name in COLLECTIONS:
        cmap = (src / f"Adobe-{name}" / f"Adobe-{name}-UCS2").read_text(encoding="latin-1")
        table = parse(cmap)
        table.pop(0, None)
        # Variation selectors name a glyph variant of the character before them: the text is
        # the character (pdftotext and MuPDF print it alone).
        lines = [VARIANT.sub("", table.get(cid, "")) for cid in range(max(table) + 1)]
        # The half-width Roman space (Japan1's CID 231, which a one-byte 0x20 selects under
        # 90ms-RKSJ-H) is U+2002 in Adobe's tables: the text of a space is a space.
        lines = [" " if t == "\u2002" else t for t in lines]
        assert not any("\n" in t for t in lines)
        data = zlib.compress("\n".join(lines).encode("utf-8"), 9)
        (dst / f"{name}.txt.z").write_bytes(data)
        mapped = sum(1 for t in lines if t)
        print(f"Adobe-{name}: {len(lines)} CIDs, {mapped} mapped, {len(data)} bytes")
    records = bytearray()
    count = 0
    for index, name in enumerate(COLLECTIONS):
        for path in sorted((src / f"Adobe-{name}").iterdir()):
            if NOT_ENCODINGS.search(path.name):
                continue
            # poppler-data keeps Adobe-Japan2's Hojo CMaps (Hojo-H, Hojo-EUC-H) in the Japan1
            # folder: their CIDs are of another collection, read as Japan1's they would be
            # other characters ("D" for the first kanji code), so only a CMap that says it
            # selects the folder's collection is written.
            ordering = re.search(r"/Ordering \((\w+)\)", path.read_text(encoding="latin-1"))
            if not ordering or ordering.group(1) != name:
                print(f"{path.name}: CIDs of Adobe-{ordering.group(1) if ordering else '?'}, left out")
                continue
            spaces, cids = cid_cmap(path)
            records += cmap_record(path.name, index, spaces, cids)
            count += 1
    data = zlib.compress(bytes(records), 9)
    (dst / "cmaps.bin.z").write_bytes(data)
    print(f"{count} predefined CMaps: {len(data)} bytes")


if __name__ == "__main__":
    main()
