//! Property tests of every parser of user input: whatever the text, a
//! parser returns (never panics), an error is one line (no line break, no
//! control character that could drive a terminal), and what is accepted
//! agrees with an independent reading written here.
//!
//! Each property runs 256 cases by default. The long mode runs a million
//! cases per parser (a few minutes on two cores; not in CI):
//!
//! ```text
//! PROPTEST_CASES=1000000 cargo test --release --test parsers
//! ```

use proptest::prelude::*;
use reversi::apps::study::selfplay::play_opening;
use reversi::apps::tiny::Request;
use reversi::apps::traced_game::parse_board;
use reversi::board::{Board, Color, Square};
use reversi::engine::position::read_obf;
use reversi::engine::{parse_obf, parse_obf_file};
use reversi::lines::{read_line_capped, LineRead};
use std::fmt::Display;

/// An error message fit for one `error:` line.
fn one_line(e: &impl Display) -> Result<(), TestCaseError> {
    let text = e.to_string();
    prop_assert!(
        !text.chars().any(char::is_control),
        "message with a control character: {text:?}"
    );
    prop_assert!(!text.is_empty());
    Ok(())
}

/// Text mostly made of `alphabet`, with now and then any character at all
/// (control characters, non-ASCII, the line ends), `len` characters long.
fn near(alphabet: &'static str, len: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    let letters: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(
        prop_oneof![
            12 => prop::sample::select(letters),
            1 => any::<char>(),
            1 => prop::sample::select(vec!['\n', '\r', ' ', '\t', '\u{1b}', '\u{0}']),
        ],
        len,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

/// The board a digit string describes, read independently: the square
/// count of a 4x4, 6x6 or 8x8 board and only the digits 0, 1, 2.
fn digits_board(text: &str) -> Option<Vec<Option<Color>>> {
    if ![16, 36, 64].contains(&text.chars().count()) {
        return None;
    }
    text.chars()
        .map(|c| match c {
            '0' => Some(None),
            '1' => Some(Some(Color::Black)),
            '2' => Some(Some(Color::White)),
            _ => None,
        })
        .collect()
}

/// The squares of `board` in reading order.
fn squares(board: &Board) -> Vec<Option<Color>> {
    let n = board.size();
    (0..n)
        .flat_map(|r| (0..n).map(move |c| Square::new(r, c)))
        .map(|sq| board.get(sq))
        .collect()
}

proptest! {
    #[test]
    fn board_strings(text in prop_oneof![near("012", 0..70), any::<String>()]) {
        match Board::from_digits(&text) {
            Ok(board) => {
                prop_assert_eq!(Some(squares(&board)), digits_board(&text));
            }
            Err(e) => {
                one_line(&e)?;
                prop_assert_eq!(digits_board(&text), None);
            }
        }
    }

    #[test]
    fn tiny_requests(
        flag in prop_oneof![Just("300".to_string()), near("0123456", 0..5)],
        player in prop_oneof![Just("1".to_string()), near("0123", 0..3)],
        board in prop_oneof![Just("0000021001200000".to_string()), near("012", 14..18)],
    ) {
        match Request::parse(&flag, &player, &board) {
            Ok(_) => {
                prop_assert!(["100", "200", "300", "400", "500", "600"].contains(&flag.as_str()));
                prop_assert!(player == "1" || player == "2");
                prop_assert!(digits_board(&board).is_some());
            }
            Err(e) => one_line(&e)?,
        }
    }

    #[test]
    fn board_files(
        lines in prop::collection::vec(near("*XO", 6..10), 0..11),
        crlf in any::<bool>(),
        final_end in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(end);
        if final_end {
            text.push_str(end);
        }
        // Independently: 8 lines (after one optional final line end) of 8
        // characters, each one of * X O.
        let body = text
            .strip_suffix("\r\n")
            .or_else(|| text.strip_suffix('\n'))
            .unwrap_or(&text);
        let rows: Vec<&str> = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        let valid = !body.is_empty()
            && rows.len() == 8
            && rows.iter().all(|r| r.chars().count() == 8 && r.chars().all(|c| "*XO".contains(c)));
        match parse_board(&text) {
            Ok(board) => {
                prop_assert!(valid, "accepted {text:?}");
                let expected: Vec<Option<Color>> = rows
                    .concat()
                    .chars()
                    .map(|c| match c {
                        'X' => Some(Color::Black),
                        'O' => Some(Color::White),
                        _ => None,
                    })
                    .collect();
                prop_assert_eq!(squares(&board), expected);
            }
            Err(e) => {
                prop_assert!(!valid, "rejected {text:?}: {e}");
                one_line(&e)?;
            }
        }
    }

    #[test]
    fn obf_lines(
        board in prop_oneof![near("XO-", 62..67), any::<String>()],
        gap in near(" \t", 0..3),
        side in prop_oneof![Just("X".to_string()), Just("O".to_string()), near("XO;", 0..3)],
        tail in prop_oneof![Just(";".to_string()), Just(String::new()), any::<String>()],
    ) {
        let line = format!("{board}{gap}{side}{tail}");
        match parse_obf(&line, 7) {
            Ok(p) => {
                prop_assert_eq!(p.line, 7);
                // The board part: 64 of X O - before the first whitespace.
                let first = line.trim_start().split(char::is_whitespace).next().unwrap_or("");
                prop_assert_eq!(first.chars().count(), 64);
                prop_assert!(first.chars().all(|c| "XO-".contains(c)));
                let discs = first.chars().filter(|&c| c != '-').count() as u32;
                prop_assert_eq!(64 - p.position.empties().count_ones(), discs);
            }
            Err(e) => {
                prop_assert_eq!(e.line, 7);
                one_line(&e)?;
            }
        }
    }

    #[test]
    fn obf_files_read_line_by_line_as_parsed_whole(bytes in prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(b"XO- \n#%;".to_vec()),
            1 => any::<u8>(),
        ],
        0..400,
    )) {
        let read = read_obf(bytes.as_slice());
        match std::str::from_utf8(&bytes) {
            // Short UTF-8 text: the same answer as parsing it whole (lines
            // end at \n only; a \r is part of the line for both).
            Ok(text) if !text.contains('\r') => match (&read, parse_obf_file(text)) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, &b),
                (Err(a), Err(b)) => prop_assert_eq!(a, &b),
                (a, b) => prop_assert!(false, "read_obf {a:?}, parse_obf_file {b:?}"),
            },
            _ => {}
        }
        if let Err(e) = &read {
            one_line(e)?;
        }
    }

    #[test]
    fn capped_lines(
        bytes in prop::collection::vec(prop_oneof![4 => Just(b'\n'), 6 => any::<u8>()], 0..200),
        cap in 0usize..20,
        chunk in 1usize..9,
    ) {
        // Reference: split on \n; a last empty piece is no line.
        let mut pieces: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if bytes.is_empty() || bytes.ends_with(b"\n") {
            pieces.pop();
        }
        let mut input = std::io::BufReader::with_capacity(chunk, bytes.as_slice());
        let mut line = Vec::new();
        for piece in pieces {
            let got = read_line_capped(&mut input, cap, &mut line).expect("slice");
            if piece.len() > cap {
                prop_assert_eq!(got, LineRead::TooLong);
                prop_assert_eq!(&line[..], &piece[..cap]);
                std::io::BufRead::skip_until(&mut input, b'\n').expect("slice");
            } else {
                prop_assert_eq!(got, LineRead::Line);
                prop_assert_eq!(&line[..], piece);
            }
        }
        prop_assert_eq!(read_line_capped(&mut input, cap, &mut line).expect("slice"), LineRead::End);
    }

    #[test]
    fn squares_and_openings(
        size in prop::sample::select(vec![4u8, 6, 8]),
        text in prop_oneof![near("abcdefgh12345678 ", 0..12), near("passPASS c4d3", 0..12), any::<String>()],
    ) {
        if let Err(e) = text.parse::<Square>() {
            one_line(&e)?;
        }
        match play_opening(size, &text) {
            Ok((_, moves)) => {
                prop_assert_eq!(moves.len(), text.split_whitespace().count());
            }
            Err(e) => one_line(&e)?,
        }
    }
}

/// A small valued book's file: the first 3 plies, searched at level 1.
fn small_book_bytes() -> &'static [u8] {
    use std::sync::OnceLock;
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut book = reversi::engine::book::Book::new();
        reversi::lab::book::plan_new(&mut book, &[], 3, reversi::lab::book::MAX_POSITIONS)
            .expect("a small plan");
        reversi::lab::book::search_and_merge(&mut book, 1, 1, &mut |_, _| {});
        book.to_bytes()
    })
}

/// FNV-1a, 64 bits, written here again.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01B3);
    }
    h
}

proptest! {
    /// Book files with bytes changed (and the checksum made right again, so
    /// that the positions themselves are read): refused with one line, or
    /// read as a book whose file is exactly those bytes.
    #[test]
    fn book_files(changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4), fix in any::<bool>()) {
        let mut bytes = small_book_bytes().to_vec();
        let n = bytes.len();
        for (at, b) in changes {
            bytes[at.index(n)] = b;
        }
        if fix {
            let sum = fnv(&bytes[..n - 8]);
            bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
        }
        match reversi::engine::book::Book::from_bytes(&bytes) {
            Ok(book) => prop_assert_eq!(book.to_bytes(), bytes),
            Err(e) => one_line(&e)?,
        }
    }

    /// A book's text form: lines near the form, or anything at all.
    #[test]
    fn book_text(text in prop_oneof![
        near("XO-XO-XO- level counts moves unsearched none 0123456789:+-.d3c4f5e6", 60..140),
        any::<String>(),
    ]) {
        match reversi::engine::book::Book::from_text(text.lines()) {
            Ok(book) => {
                let again = reversi::engine::book::Book::from_text(book.to_text().lines());
                prop_assert_eq!(again, Ok(book));
            }
            Err(e) => one_line(&e)?,
        }
    }

    /// The lines of `reversi book search`'s files.
    #[test]
    fn book_search_lines(text in prop_oneof![
        near("0123456789abcdef\td3c4f5e6-+", 0..70),
        any::<String>(),
    ]) {
        match reversi::lab::book::Searched::parse_line(&text) {
            Ok(s) => prop_assert_eq!(reversi::lab::book::Searched::parse_line(&s.to_line()), Ok(s)),
            Err(e) => one_line(&e)?,
        }
    }
}
