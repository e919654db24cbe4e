use super::*;
use crate::rng::Rng;

/// A whole random game of `size` from the start (every pass explicit).
fn random_game(size: u8, seed: u64) -> GameRecord {
    let game = Reversi::DISC_DIFFERENCE;
    let mut rng = Rng::new(seed);
    let mut record = GameRecord::new(Position::start(size));
    loop {
        let p = record.last();
        let moves: Vec<Move> = game.moves(&p).collect();
        if moves.is_empty() {
            return record;
        }
        record.push(RecordedMove::plain(*rng.pick(&moves))).unwrap();
    }
}

/// The final disc count of a game replayed square by square on a plain
/// board array, flipping by walking the eight directions (independent of
/// the bitboard code).
fn replay_score(moves: &[Move]) -> i32 {
    let mut cells = [[0i8; 8]; 8];
    cells[3][3] = -1;
    cells[4][4] = -1;
    cells[3][4] = 1;
    cells[4][3] = 1;
    let mut me = 1i8;
    for mv in moves {
        if let Move::Place(sq) = mv {
            let (r, c) = (sq.row() as i32, sq.col() as i32);
            let mut flipped = 0;
            for (dr, dc) in [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ] {
                let (mut rr, mut cc, mut run) = (r + dr, c + dc, Vec::new());
                while (0..8).contains(&rr)
                    && (0..8).contains(&cc)
                    && cells[rr as usize][cc as usize] == -me
                {
                    run.push((rr, cc));
                    rr += dr;
                    cc += dc;
                }
                if !run.is_empty()
                    && (0..8).contains(&rr)
                    && (0..8).contains(&cc)
                    && cells[rr as usize][cc as usize] == me
                {
                    for (a, b) in run {
                        cells[a as usize][b as usize] = me;
                        flipped += 1;
                    }
                }
            }
            assert!(flipped > 0, "{sq} flips nothing");
            cells[r as usize][c as usize] = me;
        }
        me = -me;
    }
    let black = cells.iter().flatten().filter(|&&x| x == 1).count() as i32;
    let white = cells.iter().flatten().filter(|&&x| x == -1).count() as i32;
    let empty = 64 - black - white;
    let d = black - white;
    d + d.signum() * empty
}

#[test]
fn transcript_ggf_transcript_round_trips() {
    let mut passes = 0;
    for seed in 1..200 {
        let g = random_game(8, seed);
        passes += g.moves.iter().filter(|m| m.mv == Move::Pass).count();
        let t = write_transcript(&g);
        let back = parse_transcript(&t, Position::start(8)).unwrap();
        assert_eq!(back.move_list(), g.move_list(), "{t}");
        let ggf = write_ggf(&back);
        let from_ggf = parse_ggf(&ggf).unwrap();
        assert_eq!(from_ggf.move_list(), g.move_list(), "{ggf}");
        assert_eq!(write_transcript(&from_ggf), t);
        assert_eq!(from_ggf.final_score(), Some(replay_score(&g.move_list())));
        assert_eq!(
            from_ggf.info.result.as_deref(),
            Some(format!("{:+}", replay_score(&g.move_list())).as_str())
        );
    }
    assert!(passes > 0, "some random games should pass");
}

#[test]
fn transcripts_accept_cases_separators_and_written_passes() {
    let g = random_game(8, 7);
    let plain = write_transcript(&g);
    let spaced: Vec<String> = g
        .moves
        .iter()
        .map(|m| match m.mv {
            Move::Place(sq) => sq.to_string().to_ascii_uppercase(),
            Move::Pass => "PA".to_string(),
        })
        .collect();
    for text in [
        spaced.join(" "),
        spaced.join("-"),
        plain.to_ascii_uppercase(),
    ] {
        let r = parse_transcript(&text, Position::start(8)).unwrap();
        assert_eq!(r.move_list(), g.move_list());
    }
}

#[test]
fn small_boards_have_transcripts_too() {
    for seed in 1..30 {
        let g = random_game(6, seed);
        let t = write_transcript(&g);
        let back = parse_game(&t, 6).unwrap();
        assert_eq!(back.move_list(), g.move_list());
    }
}

#[test]
fn board_strings_round_trip_and_carry_moves() {
    for seed in 1..50 {
        let g = random_game(8, seed);
        let positions = g.positions();
        let k = positions.len() / 2;
        let s = write_board_string(&positions[k]);
        assert_eq!(s.len(), 66);
        let (p, rest) = parse_board_string(&s, 8).unwrap();
        assert_eq!(p, positions[k]);
        assert!(rest.is_empty());
        let tail = GameRecord {
            start: positions[k],
            moves: g.moves[k..].to_vec(),
            info: GameInfo::default(),
        };
        let text = format!("{s} {}", write_transcript(&tail));
        let r = parse_game(&text, 8).unwrap();
        assert_eq!(r.start, positions[k]);
        assert_eq!(r.last(), g.last());
    }
    // GGF's own characters, rows separated by spaces.
    let rows = "-------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
    let (p, _) = parse_board_string(rows, 8).unwrap();
    assert_eq!(p, Position::start(8));
}

#[test]
fn ggf_reads_header_evals_and_times() {
    let text = "(;GM[Othello]PC[NBoard]DT[2024-01-01]PB[me]PW[you]RE[?]TI[5:00]TY[8]\
                BO[8 ---------------------------O*------*O--------------------------- *]\
                B[F5//1.5]W[d6/-2.5/0.25]KM[x];)";
    let r = parse_ggf(text).unwrap();
    assert_eq!(r.info.black.as_deref(), Some("me"));
    assert_eq!(r.info.white.as_deref(), Some("you"));
    assert_eq!(r.info.time.as_deref(), Some("5:00"));
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.moves[0].seconds, Some(1.5));
    assert_eq!(r.moves[0].eval, None);
    assert_eq!(r.moves[1].eval, Some(-2.5));
    assert_eq!(write_transcript(&r), "f5d6");
    let again = parse_ggf(&write_ggf(&r)).unwrap();
    assert_eq!(again, r);
}

fn err(text: &str) -> String {
    match parse_game(text, 8) {
        Ok(r) => panic!("{text:?} was read as {r:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_records_say_where() {
    // f5 d6 c3 then d6 again (taken): the 4th move, at character 7.
    assert_eq!(
        err("f5d6c3d6"),
        "at move 4 (character 7): d6 is not a legal move for white"
    );
    assert_eq!(
        err("f5 d6 xy"),
        "at move 3 (character 7): \"xy\" is not a move (a square like f5, or PA)"
    );
    assert_eq!(
        err("f5 k4"),
        "at move 2 (character 4): k4 is not a square of the board"
    );
    assert_eq!(
        err("f5 PA"),
        "at move 2 (character 4): white cannot pass: it has a legal move"
    );
    let bo = "BO[8 ---------------------------O*------*O--------------------------- *]";
    assert_eq!(
        err(&format!("(;GM[Othello]{bo}B[f5]W[d6]B[c3]W[c3];)")),
        "at move 4 (character 103): c3 is not a legal move for white"
    );
    assert_eq!(
        err(&format!("(;GM[Othello]{bo}B[f5]B[d6];)")),
        "at move 2 (character 93): a move by black but white is to move"
    );
    assert_eq!(
        err("(;GM[Othello]TY[10];)"),
        "at character 17: board size 10: only 8x8 games are read"
    );
    assert_eq!(
        err("(;GM[Othello]BO[10 ---];)"),
        "at character 17: board size 10: only 8x8 games are read"
    );
    assert_eq!(
        err(&format!("(;GM[Othello]{bo}B[f5;)")),
        "at character 87: \"[\" without its \"]\""
    );
    assert_eq!(
        err(&format!("(;GM[Othello]{bo}B[f5]")),
        "at character 91: the GGF game does not end with \";)\""
    );
    assert_eq!(
        err("(GM[Othello];)"),
        "at character 1: a GGF game starts with \"(;\""
    );
    assert_eq!(
        err("(;GM[Go];)"),
        "at character 3: GM[Go] is not an Othello game"
    );
    assert!(
        err("---------------------------O*------*O--------------------------- Z")
            .contains("\"Z\" is not a side to move")
    );
    assert!(err("").contains("empty"));
    // Every message is one line.
    for text in ["f5d6c3d6", "(;B[f5;)", "(;TY[6];)"] {
        assert!(!err(text).contains('\n'));
    }
}

#[test]
fn forced_passes_may_be_left_out_or_written() {
    // A game with a pass: find one among random games.
    let g = (1..500)
        .map(|s| random_game(8, s))
        .find(|g| g.moves.iter().any(|m| m.mv == Move::Pass))
        .unwrap();
    let with_pa: Vec<String> = g.moves.iter().map(|m| m.mv.to_string()).collect();
    let r = parse_transcript(&with_pa.join(" "), Position::start(8)).unwrap();
    assert_eq!(r.move_list(), g.move_list());
    // GGF without the pass tag: the skipped side passes.
    let mut no_pass = g.clone();
    no_pass.moves.retain(|m| m.mv != Move::Pass);
    let mut ggf = write_ggf(&g);
    ggf = ggf.replace("B[PA]", "").replace("W[PA]", "");
    let r = parse_ggf(&ggf).unwrap();
    assert_eq!(r.move_list(), g.move_list());
}

#[test]
fn random_texts_never_panic() {
    // Fragments of every form, shuffled and cut anywhere.
    let pieces = [
        "(;",
        ";)",
        "GM[Othello]",
        "BO[8 ",
        "]",
        "[",
        "B[",
        "W[",
        "f5",
        "D6",
        "PA",
        "pass",
        "/1.5/2",
        "TY[8]",
        "TY[",
        "-",
        "X",
        "O",
        "*",
        " ",
        "\\",
        "é",
        "9",
        "a",
        "z",
        "10",
        "---------------------------O*------*O--------------------------- *",
    ];
    let mut rng = Rng::new(99);
    for _ in 0..20_000 {
        let n = rng.below(12);
        let text: String = (0..n).map(|_| *rng.pick(&pieces)).collect();
        for size in [4u8, 6, 8] {
            if let Err(e) = parse_game(&text, size) {
                assert!(!e.to_string().contains('\n'));
            }
        }
        let _ = parse_ggf(&text);
        let _ = parse_board_string(&text, 8);
    }
}

#[test]
fn until_keeps_the_first_moves_and_refuses_more_than_the_game_has() {
    let game = random_game(8, 7);
    let n = game.moves.len();
    for keep in [0, 1, n / 2, n] {
        let cut = game.until(keep).expect("within the game");
        assert_eq!(cut.moves.len(), keep);
        assert_eq!(cut.last(), game.positions()[keep]);
        assert_eq!(cut.info, game.info);
    }
    let e = game.until(n + 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("the record holds {n} moves, not {}", n + 1)
    );
}

#[test]
fn a_record_is_one_game_whole_in_every_form() {
    let bo = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let one = format!("(;GM[Othello]{bo}B[f5]W[d6];)");
    assert_eq!(write_transcript(&parse_game(&one, 8).unwrap()), "f5d6");
    // Whitespace after the game is no second game.
    assert!(parse_game(&format!("  {one} \r\n\n"), 8).is_ok());
    // A second game, or anything else, after the first is refused, never
    // read as the first game alone.
    let end = one.chars().count();
    for after in [one.clone(), "garbage".to_string(), ";)".to_string()] {
        for gap in ["", "\n", " "] {
            let text = format!("{one}{gap}{after}");
            let at = end + gap.len() + 1;
            assert_eq!(
                err(&text),
                format!("at character {at}: text after the end of the GGF game (a record holds one game)"),
                "{text:?}"
            );
        }
    }
    // PGN and .gam texts of two games, and transcripts followed by text,
    // are refused too.
    assert!(err("[Event \"a\"]\n1. f5 d6\n\n[Event \"b\"]\n1. f5 f6\n").contains("2 games"));
    assert!(err("f5d6 garbage").contains("not a move"));
}

#[test]
fn a_byte_order_mark_is_read_as_nothing_in_every_form() {
    let bo = "BO[8 ---------------------------O*------*O--------------------------- *]";
    for text in [
        format!("(;GM[Othello]{bo}B[f5]W[d6];)"),
        "[Event \"a\"]\n1. f5 d6\n".to_string(),
        "f5d6".to_string(),
        "f5 d6\r\n".to_string(),
    ] {
        let plain = parse_game(&text, 8).unwrap();
        let marked = parse_game(&format!("\u{feff}{text}"), 8).unwrap();
        assert_eq!(marked, plain, "{text:?}");
    }
}
