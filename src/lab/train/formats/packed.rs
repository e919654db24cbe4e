//! Packed label files: a label file kept whole in a compact, compressed
//! form, for the repository.
//!
//! The labels the shipped weights are fitted on are kept in the repository
//! (`data/labels/`), so that a fresh machine refits without labelling
//! again and a later refit starts from them. A packed file holds one label
//! file (its header line and every label: [`unpack`] gives its bytes back)
//! with where it came from: the inputs' names and checksums, and the
//! recipe (commands, seeds) that made it. Every reader of label files
//! (`train fit --labels`, `compare`, `probcut --labels`) takes a packed
//! file as it takes the text ([`super::read_label_file`] tells them apart by
//! the first line).
//!
//! Layout: header lines of text, then the deflated body:
//!
//! ```text
//! # reversi-lab train pack: 775730 labels, packed labels format 1
//! # labels: # reversi-lab train label: empties 3-18 exact-empties 18 ...
//! # input: G60k.txt 0123456789abcdef
//! # recipe: reversi-lab train label --games G60k.txt --empties 3-18 ...
//! # body: 7311234 13963140 fedcba9876543210
//! (7311234 bytes: the body, deflated)
//! ```
//!
//! `# input` (any number: a name without spaces and the FNV-1a checksum of
//! its bytes) and `# recipe` (any number, free text) lines are kept as
//! written. The body line gives the deflated length, the plain length and
//! the FNV-1a checksum of the plain body. The plain body holds, for the
//! `N` labels in the file's order, by columns (a column of like numbers
//! deflates far better than the rows): the occupied squares, 8 byte planes
//! (byte 0 of every label's `u64`, then byte 1, ...); the side to move's
//! discs gathered along the occupied squares (bit `i`: the `i`-th occupied
//! square from a1), 8 planes; the values (`i16`, 1/64 disc), 2 planes; the
//! sources, a byte each (0 exact, `1 + d` a `d`-ply search); then the
//! games and the items, each the zigzag difference from the previous
//! label's number (the first from 0) in LEB128. About 9.5 bytes a label,
//! against 18 for the two bitboards and the value alone.

use super::labels::{LABELS, MAX_LABELS};
use super::{FormatError, LabelFile};
use crate::hash::{fnv1a, fnv1a_continue, FNV_OFFSET};
use crate::lab::train::formats::labels::write as write_text;
use crate::lab::train::labels::{Label, LabelSource, ListedPosition};
use crate::lines::{read_line_capped, LineRead};
use crate::units::Eval;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use std::io::{self, BufRead, Read, Write};

/// The first characters of a packed label file.
pub const PACKED_START: &str = "# reversi-lab train pack:";

/// The packed format's version, written in the first line.
pub const PACKED_FORMAT: u32 = 1;

/// The longest header line of a packed file.
const MAX_HEADER_LINE: usize = 4096;

/// The most header lines (inputs and recipe) a packed file may hold.
const MAX_HEADER_LINES: usize = 256;

/// A named input of a packed file's labels and its checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedInput {
    /// The input's name (a file name, without spaces).
    pub name: String,
    /// The FNV-1a checksum of its bytes ([`checksum`]).
    pub checksum: u64,
}

/// Where a packed file's labels came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The inputs, with their checksums.
    pub inputs: Vec<PackedInput>,
    /// The recipe: commands and seeds, one line each.
    pub recipe: Vec<String>,
}

/// The FNV-1a 64-bit checksum of a stream's bytes (an input's checksum).
///
/// # Errors
/// `input`'s read errors.
pub fn checksum(mut input: impl Read) -> io::Result<u64> {
    let mut hash = FNV_OFFSET;
    let mut buffer = [0u8; 1 << 16];
    loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => return Ok(hash),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hash = fnv1a_continue(hash, &buffer[..n]);
    }
}

/// The bits of `x` on the squares of `mask`, gathered into the low bits
/// in the squares' order.
fn gather(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let square = mask & mask.wrapping_neg();
        if x & square != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask ^= square;
    }
    out
}

/// The low bits of `bits` spread onto the squares of `mask`, in order:
/// the inverse of [`gather`].
fn scatter(bits: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let square = mask & mask.wrapping_neg();
        if bits >> bit & 1 != 0 {
            out |= square;
        }
        bit += 1;
        mask ^= square;
    }
    out
}

fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

fn unzigzag(x: u64) -> i64 {
    (x >> 1) as i64 ^ -((x & 1) as i64)
}

fn push_leb128(out: &mut Vec<u8>, mut x: u64) {
    loop {
        let byte = (x & 0x7F) as u8;
        x >>= 7;
        if x == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The plain body of `labels` (the module's columns).
fn body(labels: &[Label]) -> Vec<u8> {
    let n = labels.len();
    let mut out = Vec::with_capacity(19 * n + 4 * n);
    let occupied: Vec<u64> = labels
        .iter()
        .map(|l| l.position.player | l.position.opponent)
        .collect();
    let own: Vec<u64> = labels
        .iter()
        .zip(&occupied)
        .map(|(l, &m)| gather(l.position.player, m))
        .collect();
    for column in [&occupied, &own] {
        for plane in 0..8 {
            out.extend(column.iter().map(|x| (x >> (8 * plane)) as u8));
        }
    }
    for plane in 0..2 {
        out.extend(
            labels
                .iter()
                .map(|l| ((l.value.0 as i16 as u16) >> (8 * plane)) as u8),
        );
    }
    out.extend(labels.iter().map(|l| match l.source {
        LabelSource::Exact => 0,
        LabelSource::Search(d) => (d + 1) as u8,
    }));
    for number in [|l: &Label| l.position.game, |l: &Label| l.position.item] {
        let mut previous = 0u64;
        for l in labels {
            let x = number(l);
            push_leb128(&mut out, zigzag(x.wrapping_sub(previous) as i64));
            previous = x;
        }
    }
    out
}

/// Writes `labels` under the label file header `header` as a packed file
/// with `provenance`.
///
/// # Errors
/// `out`'s write errors; an input name with a space or a line break, or a
/// recipe line with a line break, as [`io::ErrorKind::InvalidInput`].
pub fn write(
    out: &mut impl Write,
    header: &str,
    labels: &[Label],
    provenance: &Provenance,
) -> io::Result<()> {
    let invalid = |m: &str| io::Error::new(io::ErrorKind::InvalidInput, m.to_owned());
    if header.contains('\n') || provenance.recipe.iter().any(|r| r.contains('\n')) {
        return Err(invalid("a header line holds a line break"));
    }
    if provenance
        .inputs
        .iter()
        .any(|i| i.name.is_empty() || i.name.contains(char::is_whitespace))
    {
        return Err(invalid("an input's name is empty or holds a space"));
    }
    let plain = body(labels);
    let hash = fnv1a(&plain);
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(&plain)?;
    let deflated = encoder.finish()?;
    writeln!(
        out,
        "{PACKED_START} {} labels, packed labels format {PACKED_FORMAT}",
        labels.len()
    )?;
    writeln!(out, "# labels: {header}")?;
    for input in &provenance.inputs {
        writeln!(out, "# input: {} {:016x}", input.name, input.checksum)?;
    }
    for line in &provenance.recipe {
        writeln!(out, "# recipe: {line}")?;
    }
    writeln!(
        out,
        "# body: {} {} {:016x}",
        deflated.len(),
        plain.len(),
        hash
    )?;
    out.write_all(&deflated)
}

/// Writes `file` as the text label file it holds (its header line, then
/// a label a line): a packed file's labels unpacked.
///
/// # Errors
/// `out`'s write errors.
pub fn unpack(out: &mut impl Write, file: &LabelFile) -> io::Result<()> {
    write_text(out, &file.header, &file.labels)
}

/// A packed file's header, read up to its body line.
struct PackedHeader {
    count: usize,
    header: String,
    provenance: Provenance,
    deflated: u64,
    plain: u64,
    checksum: u64,
}

/// Reads a header line of at most [`MAX_HEADER_LINE`] bytes.
fn header_line(input: &mut impl BufRead, name: &str) -> Result<String, FormatError> {
    let mut line = Vec::new();
    let read = read_line_capped(input, MAX_HEADER_LINE, &mut line)
        .map_err(|e| FormatError(format!("{name}: {e}")))?;
    match read {
        LineRead::Line => {
            String::from_utf8(line).map_err(|_| FormatError(format!("{name}'s header is not text")))
        }
        LineRead::TooLong => Err(FormatError(format!(
            "{name} has a header line over {MAX_HEADER_LINE} bytes"
        ))),
        LineRead::End => Err(FormatError(format!(
            "{name} ends before its body: the packed file is cut short"
        ))),
    }
}

fn read_header(
    first: &str,
    input: &mut impl BufRead,
    name: &str,
) -> Result<PackedHeader, FormatError> {
    let bad = |what: &str| FormatError(format!("{name} {what}"));
    let rest = first
        .strip_prefix(PACKED_START)
        .ok_or_else(|| bad("is not a packed label file"))?;
    let (count, format) = rest
        .trim()
        .split_once(" labels, packed labels format ")
        .ok_or_else(|| bad("has no label count in its first line"))?;
    if format != PACKED_FORMAT.to_string() {
        return Err(bad(&format!(
            "is of packed labels format {format}; this build reads format {PACKED_FORMAT}"
        )));
    }
    let count: usize = count
        .parse()
        .ok()
        .filter(|&c| c as u64 <= MAX_LABELS)
        .ok_or_else(|| {
            bad(&format!(
                "announces {count:?} labels (at most {MAX_LABELS})"
            ))
        })?;
    let header = header_line(input, name)?
        .strip_prefix("# labels: ")
        .map(str::to_owned)
        .filter(|h| LABELS.starts(h))
        .ok_or_else(|| bad("has no label file header on its second line"))?;
    let mut provenance = Provenance::default();
    for _ in 0..MAX_HEADER_LINES {
        let line = header_line(input, name)?;
        if let Some(input) = line.strip_prefix("# input: ") {
            let parsed = input.rsplit_once(' ').and_then(|(n, sum)| {
                (sum.len() == 16)
                    .then(|| u64::from_str_radix(sum, 16).ok())
                    .flatten()
                    .map(|sum| (n, sum))
            });
            let (input_name, sum) = parsed.ok_or_else(|| {
                bad(&format!(
                    "has an input line {line:?} without a name and checksum"
                ))
            })?;
            provenance.inputs.push(PackedInput {
                name: input_name.to_owned(),
                checksum: sum,
            });
        } else if let Some(recipe) = line.strip_prefix("# recipe: ") {
            provenance.recipe.push(recipe.to_owned());
        } else if let Some(body) = line.strip_prefix("# body: ") {
            let fields: Vec<&str> = body.split(' ').collect();
            let parsed = match fields[..] {
                [deflated, plain, sum] if sum.len() == 16 => deflated
                    .parse()
                    .ok()
                    .zip(plain.parse().ok())
                    .zip(u64::from_str_radix(sum, 16).ok()),
                _ => None,
            };
            let ((deflated, plain), checksum) =
                parsed.ok_or_else(|| bad(&format!("has a body line {line:?} it cannot read")))?;
            return Ok(PackedHeader {
                count,
                header,
                provenance,
                deflated,
                plain,
                checksum,
            });
        } else {
            return Err(bad(&format!("has a header line {line:?} of no known kind")));
        }
    }
    Err(bad(&format!(
        "has more than {MAX_HEADER_LINES} header lines"
    )))
}

/// Reads the rest of a packed file whose first line, `first`, has been
/// read from `input`: its header lines, then its body, checked (lengths,
/// checksum, every label as [`Label::check`] checks a line's).
///
/// # Errors
/// A header or body that is not of the format, a cut-short or corrupt
/// body, a label that is not one, or a read error; each message names
/// `name`.
pub fn read_rest(
    first: &str,
    mut input: impl BufRead,
    name: &str,
) -> Result<LabelFile, FormatError> {
    let bad = |what: String| FormatError(format!("{name} {what}"));
    let head = read_header(first, &mut input, name)?;
    let n = head.count;
    let fixed = 19 * n as u64;
    // Each of the two numbers a label takes 1 to 10 bytes.
    if head.plain < fixed + 2 * n as u64 || head.plain > fixed + 20 * n as u64 {
        return Err(bad(format!(
            "announces a body of {} bytes for {n} labels",
            head.plain
        )));
    }
    let mut plain = Vec::with_capacity(head.plain as usize);
    let mut decoder = DeflateDecoder::new(input.take(head.deflated));
    decoder
        .by_ref()
        .take(head.plain + 1)
        .read_to_end(&mut plain)
        .map_err(|e| {
            bad(format!(
                "is cut short or corrupt: its body does not inflate ({e})"
            ))
        })?;
    if plain.len() as u64 != head.plain {
        return Err(bad(format!(
            "has a body of {} bytes where its header says {}: the file is cut short or corrupt",
            plain.len(),
            head.plain
        )));
    }
    let mut rest = decoder.into_inner().into_inner();
    let mut extra = [0u8; 1];
    if rest
        .read(&mut extra)
        .map_err(|e| bad(format!("could not be read: {e}")))?
        != 0
    {
        return Err(bad("holds bytes after its body".into()));
    }
    if fnv1a(&plain) != head.checksum {
        return Err(bad("is corrupt (its body's checksum does not match)".into()));
    }
    let labels = labels_of(&plain, n).map_err(bad)?;
    Ok(LabelFile {
        header: head.header,
        labels,
        provenance: Some(head.provenance),
    })
}

/// The `n` labels of a plain body.
fn labels_of(plain: &[u8], n: usize) -> Result<Vec<Label>, String> {
    let plane_u64 = |column: usize, i: usize| {
        (0..8).fold(0u64, |x, k| {
            x | u64::from(plain[(column * 8 + k) * n + i]) << (8 * k)
        })
    };
    let values = 16 * n;
    let sources = 18 * n;
    let mut numbers = &plain[19 * n..];
    let mut read_numbers = |what: &str| -> Result<Vec<u64>, String> {
        let mut out = Vec::with_capacity(n);
        let mut previous = 0u64;
        for _ in 0..n {
            let mut x = 0u64;
            let mut shift = 0;
            loop {
                let (&byte, more) = numbers
                    .split_first()
                    .ok_or_else(|| format!("has its {what} cut short"))?;
                numbers = more;
                if shift > 63 {
                    return Err(format!("has a {what} number over 64 bits"));
                }
                x |= u64::from(byte & 0x7F) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            previous = previous.wrapping_add(unzigzag(x) as u64);
            out.push(previous);
        }
        Ok(out)
    };
    let games = read_numbers("games")?;
    let items = read_numbers("items")?;
    if !numbers.is_empty() {
        return Err(format!(
            "holds {} bytes after its labels' numbers",
            numbers.len()
        ));
    }
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let occupied = plane_u64(0, i);
        let own = plane_u64(1, i);
        if own >> occupied.count_ones() != 0 {
            return Err(format!("label {i} has discs off the occupied squares"));
        }
        let player = scatter(own, occupied);
        let value = i16::from_le_bytes([plain[values + i], plain[values + n + i]]);
        let source = match plain[sources + i] {
            0 => LabelSource::Exact,
            d => LabelSource::Search(u32::from(d) - 1),
        };
        let label = Label {
            position: ListedPosition {
                item: items[i],
                game: games[i],
                player,
                opponent: occupied & !player,
            },
            value: Eval(i32::from(value)),
            source,
        };
        label.check().map_err(|e| format!("label {i} {e}"))?;
        labels.push(label);
    }
    Ok(labels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::canonical;
    use crate::lab::train::formats::labels;

    /// Labels of distinct positions: every canonical position reached by
    /// a few plies from the start, some exact, some searched, with
    /// numbers that go back and forth.
    fn sample_labels() -> Vec<Label> {
        let games = crate::lab::train::test_games(3, 10);
        let list = crate::lab::train::labels::position_list(&games, &(4..=58));
        list.iter()
            .enumerate()
            .map(|(i, &position)| Label {
                position: ListedPosition {
                    item: position.item * 3,
                    game: if i % 7 == 3 { 1 << 40 } else { position.game },
                    ..position
                },
                value: Eval((i as i32 * 37 % 8193) - 4096),
                source: if i % 3 == 0 {
                    LabelSource::Exact
                } else {
                    LabelSource::Search(i as u32 % 61)
                },
            })
            .collect()
    }

    fn provenance() -> Provenance {
        Provenance {
            inputs: vec![PackedInput {
                name: "G60k.txt".into(),
                checksum: 0x0123_4567_89AB_CDEF,
            }],
            recipe: vec![
                "reversi-lab train label --games G60k.txt --empties 4-58 --depth 2".into(),
            ],
        }
    }

    const HEADER: &str = "# reversi-lab train label: empties 4-58 exact-empties 10 depth 2";

    fn packed(labels: &[Label]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write(&mut bytes, HEADER, labels, &provenance()).expect("written");
        bytes
    }

    fn read_packed(bytes: &[u8]) -> Result<LabelFile, FormatError> {
        let mut input = bytes;
        let mut first = Vec::new();
        read_line_capped(&mut input, 4096, &mut first).expect("a line");
        read_rest(std::str::from_utf8(&first).expect("text"), input, "p")
    }

    #[test]
    fn gather_and_scatter_are_inverse_on_every_subset() {
        let mask = 0x8100_0018_2400_00C3u64;
        for bits in 0..(1u64 << mask.count_ones()) {
            let x = scatter(bits, mask);
            assert_eq!(x & !mask, 0);
            assert_eq!(gather(x, mask), bits);
        }
    }

    #[test]
    fn a_packed_file_gives_back_its_labels_header_and_provenance() {
        let labels = sample_labels();
        assert!(labels.len() > 100);
        let bytes = packed(&labels);
        let file = read_packed(&bytes).expect("read");
        assert_eq!(file.header, HEADER);
        assert_eq!(file.labels, labels);
        assert_eq!(file.provenance, Some(provenance()));
        // Unpacked, the text label file: byte for byte what `train label` writes.
        let mut text = Vec::new();
        unpack(&mut text, &file).expect("unpacked");
        let mut expected = Vec::new();
        labels::write(&mut expected, HEADER, &labels).expect("text");
        assert_eq!(text, expected);
        // Smaller than the text, and than 18 bytes a label.
        assert!(bytes.len() < 18 * labels.len(), "{} bytes", bytes.len());
    }

    #[test]
    fn an_empty_label_file_packs() {
        let file = read_packed(&packed(&[])).expect("read");
        assert!(file.labels.is_empty());
    }

    #[test]
    fn a_cut_short_corrupt_or_longer_file_is_refused() {
        let bytes = packed(&sample_labels());
        for cut in [bytes.len() - 1, bytes.len() - 20, bytes.len() / 2, 40] {
            let e = read_packed(&bytes[..cut]).expect_err("cut short");
            assert!(e.0.starts_with("p "), "{e}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(read_packed(&longer)
            .expect_err("longer")
            .0
            .contains("after its body"));
        // One bit of the body flipped: refused (inflate error, lengths or checksum).
        let body_start = bytes.len() - 50;
        let mut flipped = bytes.clone();
        flipped[body_start] ^= 0x10;
        read_packed(&flipped).expect_err("corrupt");
    }

    #[test]
    fn a_label_that_is_not_one_is_refused() {
        let mut labels = sample_labels();
        // A position that is not canonical.
        let start = labels[0];
        let ((p, o), _) = canonical(start.position.player, start.position.opponent);
        let flipped = crate::board::symmetry::all(p)[1];
        let flipped_o = crate::board::symmetry::all(o)[1];
        if (flipped, flipped_o) != (p, o) {
            labels[0].position.player = flipped;
            labels[0].position.opponent = flipped_o;
            let e = read_packed(&packed(&labels)).expect_err("not canonical");
            assert!(e.0.contains("label 0") && e.0.contains("canonical"), "{e}");
        }
        let mut labels = sample_labels();
        labels[5].value = Eval(64 * 64 + 1);
        let e = read_packed(&packed(&labels)).expect_err("beyond 64 discs");
        assert!(e.0.contains("label 5") && e.0.contains("64 discs"), "{e}");
    }

    #[test]
    fn header_lines_are_checked() {
        let bytes = packed(&sample_labels());
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let replace = |from: &str, to: &str| {
            let mut b = bytes.clone();
            let at = text.find(from).expect("found");
            b.splice(at..at + from.len(), to.bytes());
            read_packed(&b)
        };
        let e = replace("format 1", "format 2").expect_err("format");
        assert!(e.0.contains("format 2"), "{e}");
        let e = replace("# input: G60k.txt", "# inputs G60k.txt").expect_err("kind");
        assert!(e.0.contains("no known kind"), "{e}");
        let e = replace("# labels: #", "# labels: x").expect_err("label header");
        assert!(e.0.contains("label file header"), "{e}");
    }

    #[test]
    fn names_with_spaces_and_line_breaks_are_not_written() {
        let mut p = provenance();
        p.inputs[0].name = "two words".into();
        assert!(write(&mut Vec::new(), HEADER, &[], &p).is_err());
        let mut p = provenance();
        p.recipe.push("a\nb".into());
        assert!(write(&mut Vec::new(), HEADER, &[], &p).is_err());
    }

    #[test]
    fn checksum_is_fnv1a() {
        // FNV-1a 64 of "a", a published test vector.
        assert_eq!(checksum(&b"a"[..]).expect("read"), 0xAF63_DC4C_8601_EC8C);
    }
}
