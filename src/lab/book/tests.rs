use super::*;
use crate::engine::book::{unfinished, MAX_VALUE};

#[test]
fn the_first_two_plies_are_five_positions_up_to_symmetry() {
    // The start, its four (symmetric) moves, and the three openings of
    // the second ply: perpendicular, diagonal and parallel.
    let mut book = Book::new();
    assert_eq!(plan_new(&mut book, &[], 2, MAX_POSITIONS), Ok(5));
    let per_ply: Vec<usize> = (0..=2)
        .map(|n| book.sorted().iter().filter(|(k, _)| ply(*k) == n).count())
        .collect();
    assert_eq!(per_ply, [1, 1, 3]);
    // Only the last ply waits for searches: every other move is in the book.
    assert_eq!(pending(&book).len(), 3);
}

#[test]
fn the_first_plies_hold_every_position_once_up_to_symmetry() {
    // Every position of each ply (the published perft counts 1, 4, 12,
    // 56, 244, 1396), told apart only up to the 8 symmetries.
    let mut plies = vec![vec![RelativePosition::start(8)]];
    for _ in 0..5 {
        let last = plies.last().expect("a ply");
        let next: Vec<RelativePosition> = last
            .iter()
            .flat_map(|p| {
                (0..64u8)
                    .filter(|sq| p.moves() >> sq & 1 == 1)
                    .map(|sq| p.play(sq))
            })
            .collect();
        plies.push(next);
    }
    let raw: Vec<usize> = plies.iter().map(Vec::len).collect();
    assert_eq!(raw, [1, 4, 12, 56, 244, 1396]);
    let distinct: Vec<usize> = plies
        .iter()
        .map(|ps| {
            ps.iter()
                .map(|p| crate::board::symmetry::canonical(p.player, p.opponent).0)
                .collect::<HashSet<Key>>()
                .len()
        })
        .collect();
    let mut book = Book::new();
    plan_new(&mut book, &[], 5, MAX_POSITIONS).expect("a small plan");
    let per_ply: Vec<usize> = (0..=5)
        .map(|n| book.sorted().iter().filter(|(k, _)| ply(*k) == n).count())
        .collect();
    assert_eq!(per_ply, distinct);
    assert_eq!(per_ply, [1, 1, 3, 14, 60, 322]);
}

#[test]
fn a_searched_book_is_valued_by_negamax_and_nothing_waits() {
    let mut book = Book::new();
    plan_new(&mut book, &[], 2, MAX_POSITIONS).expect("a small plan");
    search_and_merge(&mut book, 1, 2, &mut |_, _| {});
    assert!(pending(&book).is_empty());
    let start = RelativePosition::start(8);
    let entry = book.lookup(&start).expect("the start");
    // Four searched moves, each minus the value of the position after it.
    assert_eq!(entry.searched.len(), 4);
    for m in &entry.searched {
        let after = book.lookup(&start.play(m.square.0)).expect("in the book");
        assert_eq!(m.value, -after.value().expect("valued"));
        assert!(m.value.0.abs() <= MAX_VALUE);
    }
    // Deepening follows the best lines one ply, then the new positions
    // and their parents wait for searches.
    let added = plan_deepen(&mut book, Roots::Start, 3, Eval(0), MAX_POSITIONS).expect("small");
    assert!(added >= 1, "{added}");
    assert!(!pending(&book).is_empty());
}

#[test]
fn an_opening_adds_its_line_and_its_positions_search_the_other_moves() {
    let record = crate::record::parse_game("f5d6c3", 8).expect("a transcript");
    let mut book = Book::new();
    let added = plan_new(&mut book, &[record.move_list()], 3, MAX_POSITIONS).expect("small");
    assert_eq!(added, 4);
    // Every position but the start has moves leaving the book: they wait.
    // (The start's four moves lead to images of one position.)
    assert_eq!(pending(&book).len(), 3);
    search_and_merge(&mut book, 1, 1, &mut |_, _| {});
    let f5 = RelativePosition::start(8).play(37);
    let entry = book.lookup(&f5).expect("after f5");
    assert_eq!(entry.searched.len(), 1);
    assert_eq!(entry.searched[0].square, Square(43)); // d6
    let other = entry.unsearched.expect("the best other move");
    assert_ne!(other.square, Square(43));
    assert_eq!(entry.level, 1);
}

#[test]
fn search_lines_round_trip_and_merges_refuse_wrong_results() {
    let mut book = Book::new();
    plan_new(&mut book, &[], 1, MAX_POSITIONS).expect("a small plan");
    let list = pending(&book);
    assert_eq!(list.len(), 1);
    let best = search_position(list[0], 0, 1);
    let r = Searched {
        item: 0,
        key: list[0],
        best,
        level: 1,
    };
    assert_eq!(Searched::parse_line(&r.to_line()), Ok(r));
    assert!(Searched::parse_line("0\t1\t2\td3\t0\t1").is_err());
    let mut twice = book.clone();
    assert!(merge(&mut twice, &list, &[r, r], Eval(0)).is_err());
    assert!(merge(&mut book.clone(), &list, &[], Eval(0)).is_err());
    let beyond = Searched { item: 1, ..r };
    assert!(merge(&mut book.clone(), &list, &[beyond], Eval(0)).is_err());
    assert!(merge(&mut book, &list, &[r], Eval(0)).is_ok());
}

#[test]
fn games_count_their_results_for_the_side_to_move() {
    // A whole game (each side plays its first legal move): its result
    // counts for the side to move of each position.
    let mut game = GameRecord::new(Position::start(8));
    while let Some(mv) =
        crate::game::Game::moves(&crate::reversi::Reversi::DISC_DIFFERENCE, &game.last()).next()
    {
        game.push(crate::record::RecordedMove::plain(mv))
            .expect("legal");
    }
    let score = game.final_score().expect("over");
    assert_ne!(score, 0, "a decided game tests the sides apart");
    let mut book = Book::new();
    let added = plan_game(&mut book, &game, 4, MAX_POSITIONS).expect("8x8");
    assert_eq!(added, 5);
    let start = book.lookup(&RelativePosition::start(8)).expect("start");
    assert_eq!(start.counts, GameCounts::of_result(score));
    let after = RelativePosition::start(8).play(37);
    assert_eq!(
        book.lookup(&after).expect("after f5").counts,
        GameCounts::of_result(-score)
    );
}

/// The positions a deepening adds, found the slow way: every line from
/// each root, move by move, spending the budget on each move's loss.
fn lines_reference(book: &Book, roots: &[Key], depth: u32, within: i32) -> HashSet<Key> {
    fn walk(book: &Book, key: Key, budget: i32, depth: u32, out: &mut HashSet<Key>) {
        let entry = book.get(key).expect("in the book");
        let Some(best) = entry.value() else { return };
        if ply(key) >= depth {
            return;
        }
        for m in entry.searched.iter().chain(&entry.unsearched) {
            let left = budget - (best.0 - m.value.0);
            if left < 0 {
                continue;
            }
            let Some(next) = next_position(&position_of(key), m.square.0) else {
                continue;
            };
            let next_key = key_of(&next).0;
            if book.get(next_key).is_some() {
                walk(book, next_key, left, depth, out);
            } else {
                out.insert(next_key);
            }
        }
    }
    let mut out = HashSet::new();
    for &root in roots {
        walk(book, root, within, depth, &mut out);
    }
    out
}

#[test]
fn deepening_adds_what_every_line_within_the_budget_reaches() {
    let mut book = Book::new();
    plan_new(&mut book, &[], 3, MAX_POSITIONS).expect("a small plan");
    search_and_merge(&mut book, 1, 2, &mut |_, _| {});
    let mut grew_beyond_the_best_line = false;
    for round in 0..4 {
        for (roots, within) in [
            (Roots::Start, 0),
            (Roots::Ply(2), 3 * 64),
            (Roots::Ply(3), 64),
        ] {
            let root_keys: Vec<Key> = match roots {
                Roots::Start => vec![key_of(&RelativePosition::start(8)).0],
                Roots::Ply(p) => book
                    .sorted()
                    .into_iter()
                    .map(|(k, _)| k)
                    .filter(|&k| ply(k) == p)
                    .collect(),
            };
            let expected = lines_reference(&book, &root_keys, 8, within);
            let before: HashSet<Key> = book.sorted().into_iter().map(|(k, _)| k).collect();
            let mut planned = book.clone();
            let added =
                plan_deepen(&mut planned, roots, 8, Eval(within), MAX_POSITIONS).expect("small");
            let after: HashSet<Key> = planned.sorted().into_iter().map(|(k, _)| k).collect();
            let new: HashSet<Key> = after.difference(&before).copied().collect();
            assert_eq!(new, expected, "round {round}, {roots:?} within {within}");
            assert_eq!(added, expected.len());
        }
        // Grow the book along the widest lines and value it again.
        let added =
            plan_deepen(&mut book, Roots::Ply(2), 8, Eval(3 * 64), MAX_POSITIONS).expect("small");
        grew_beyond_the_best_line |= added > 1;
        search_and_merge(&mut book, 1, 2, &mut |_, _| {});
    }
    assert!(grew_beyond_the_best_line);
}

#[test]
fn a_plan_beyond_its_limit_stops_there() {
    // The first 3 plies hold 1 + 1 + 3 + 14 = 19 positions up to symmetry.
    let mut book = Book::new();
    assert_eq!(plan_new(&mut book, &[], 3, 19), Ok(19));
    let mut book = Book::new();
    assert_eq!(plan_new(&mut book, &[], 3, 18), Err(TooManyPositions(18)));
    assert!(book.len() <= 18);
    // Deepening and games count the book's positions as well.
    let mut book = Book::new();
    plan_new(&mut book, &[], 1, MAX_POSITIONS).expect("a small plan");
    search_and_merge(&mut book, 1, 1, &mut |_, _| {});
    let before = book.len();
    assert_eq!(
        plan_deepen(&mut book, Roots::Start, 3, Eval(64 * 64), before),
        Err(TooManyPositions(before))
    );
    assert_eq!(book.len(), before, "nothing added");
}

#[test]
fn deepening_writes_every_round_until_one_adds_nothing() {
    let mut book = Book::new();
    plan_new(&mut book, &[], 1, MAX_POSITIONS).expect("a small plan");
    let plan = Deepening {
        roots: Roots::Start,
        depth: 4,
        within: Eval(0),
        limit: MAX_POSITIONS,
    };
    // The same rounds by hand: search, plan, until a plan adds nothing.
    let mut by_hand = book.clone();
    let mut added_by_hand = Vec::new();
    loop {
        search_and_merge(&mut by_hand, 1, 1, &mut |_, _| {});
        let added = plan.plan(&mut by_hand).expect("small");
        added_by_hand.push(added);
        if added == 0 {
            break;
        }
    }
    let (mut searches, mut rounds) = (0, Vec::new());
    let done = deepen::<()>(
        &mut book,
        &plan,
        &mut |b| {
            searches += 1;
            search_and_merge(b, 1, 1, &mut |_, _| {});
        },
        &mut |b, round| {
            // Each checkpoint's book waits only for its own round's
            // searches: the rounds before are searched.
            assert_eq!(pending(b).is_empty(), round.added == 0, "{round:?}");
            rounds.push(round);
            Ok(())
        },
    );
    assert!(done.is_ok());
    let numbers: Vec<u32> = rounds.iter().map(|r| r.number).collect();
    let added: Vec<usize> = rounds.iter().map(|r| r.added).collect();
    assert_eq!(numbers, (1..=rounds.len() as u32).collect::<Vec<_>>());
    assert_eq!(added, added_by_hand);
    assert!(rounds.len() >= 3, "{rounds:?}");
    assert_eq!(searches, rounds.len());
    assert_eq!(book.to_bytes(), by_hand.to_bytes());
    assert!(book.sorted().iter().all(|&(k, _)| ply(k) <= 4));
    // A checkpoint that fails stops the deepening at once.
    let mut stopped = Book::new();
    plan_new(&mut stopped, &[], 1, MAX_POSITIONS).expect("a small plan");
    let mut searches = 0;
    let e = deepen(
        &mut stopped,
        &plan,
        &mut |b| {
            searches += 1;
            search_and_merge(b, 1, 1, &mut |_, _| {});
        },
        &mut |_, round| Err(round),
    );
    assert!(matches!(
        e,
        Err(DeepenError::Checkpoint(Round { number: 1, .. }))
    ));
    assert_eq!(searches, 1);
    // A plan beyond the limit stops it too (the first 2 plies: 2
    // positions up to symmetry).
    let mut full = Book::new();
    plan_new(&mut full, &[], 1, MAX_POSITIONS).expect("a small plan");
    assert_eq!(full.len(), 2);
    let small = Deepening { limit: 2, ..plan };
    let e = deepen::<()>(
        &mut full,
        &small,
        &mut |b| search_and_merge(b, 1, 1, &mut |_, _| {}),
        &mut |_, _| Ok(()),
    );
    assert!(matches!(e, Err(DeepenError::Plan(TooManyPositions(2)))));
}

/// A deepening stopped at each of its writes in turn (the caller's
/// checkpoint writes the book, then the run stops) leaves a file that
/// every reader sees as unfinished, unless it was the last write; and a
/// run that goes on from any of those files ends with the bytes of a run
/// never stopped.
#[test]
fn a_deepening_stopped_at_any_write_leaves_an_unfinished_book_that_goes_on_to_the_same_bytes() {
    let plan = Deepening {
        roots: Roots::Start,
        depth: 4,
        within: Eval(0),
        limit: MAX_POSITIONS,
    };
    let search = &mut |b: &mut Book| search_and_merge(b, 1, 1, &mut |_, _| {});
    let fresh = || {
        let mut book = Book::new();
        plan_new(&mut book, &[], 1, MAX_POSITIONS).expect("a small plan");
        book
    };
    let mut whole = fresh();
    let mut writes = Vec::new();
    deepen::<()>(&mut whole, &plan, search, &mut |b, _| {
        writes.push(b.to_bytes());
        Ok(())
    })
    .expect("a small deepening");
    assert!(writes.len() >= 3, "{} writes", writes.len());
    assert_eq!(writes.last(), Some(&whole.to_bytes()));
    for stop_at in 1..=writes.len() {
        let mut book = fresh();
        let mut written = None;
        let mut count = 0;
        let stopped = deepen(&mut book, &plan, search, &mut |b, round| {
            count += 1;
            written = Some(b.to_bytes());
            if count == stop_at {
                Err(round)
            } else {
                Ok(())
            }
        });
        assert!(stopped.is_err());
        let file = written.expect("a write before the stop");
        assert_eq!(file, writes[stop_at - 1]);
        let mut left = Book::from_bytes(&file).expect("a whole file");
        let last = stop_at == writes.len();
        assert_eq!(
            pending(&left).is_empty(),
            last,
            "stopped at write {stop_at}"
        );
        assert_eq!(
            unfinished(&left).is_empty(),
            last,
            "stopped at write {stop_at}"
        );
        deepen::<()>(&mut left, &plan, search, &mut |_, _| Ok(())).expect("goes on");
        assert_eq!(
            left.to_bytes(),
            whole.to_bytes(),
            "going on after a stop at write {stop_at}"
        );
    }
}

#[test]
fn deepening_from_a_ply_needs_a_position_there() {
    let mut book = Book::new();
    assert_eq!(Roots::Ply(0).check(&book), Err(NoRoots::Empty));
    assert_eq!(Roots::Start.check(&book), Ok(()));
    plan_new(&mut book, &[], 2, MAX_POSITIONS).expect("a small plan");
    assert_eq!(Roots::Ply(2).check(&book), Ok(()));
    let e = Roots::Ply(5).check(&book).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the book has no position at ply 5 (its positions are at plies 0 to 2)"
    );
    assert_eq!(
        NoRoots::Empty.to_string(),
        "the book is empty: no line to deepen"
    );
}

#[test]
fn the_plan_from_the_start_is_estimated_before_it_is_built() {
    // The known sizes are the plans' own (checked up to ply 7 here).
    for depth in 0..=7 {
        let mut book = Book::new();
        let added = plan_new(&mut book, &[], depth, MAX_POSITIONS).expect("a small plan");
        assert_eq!(added, planned_from_start_at_least(depth), "ply {depth}");
    }
    // A limit below the estimate refuses at once, leaving the book as it
    // was; one at the plan's size builds it.
    let mut book = Book::new();
    let size = planned_from_start_at_least(6);
    assert_eq!(
        plan_new(&mut book, &[], 6, size - 1),
        Err(TooManyPositions(size - 1))
    );
    assert!(book.is_empty());
    assert_eq!(plan_new(&mut book, &[], 6, size), Ok(size));
    // Beyond the counted plies the estimate keeps growing, past the
    // default limit from ply 11.
    let estimates: Vec<usize> = (10..=60).map(planned_from_start_at_least).collect();
    assert!(estimates
        .windows(2)
        .all(|w| w[0] < w[1] || w[1] == usize::MAX));
    assert!(planned_from_start_at_least(11) > MAX_POSITIONS);
}

#[test]
fn openings_are_transcripts_from_the_start_at_least_one_and_at_most_the_cap() {
    let record = crate::record::parse_game("f5d6c3", 8).expect("a transcript");
    let mut openings = Openings::new("o.txt");
    openings.take(1, &record).expect("from the start");
    assert_eq!(openings.finish(), Ok(vec![record.move_list()]));
    // A game from another position is no opening.
    let mut later = record.clone();
    later.start = record.last();
    later.moves.clear();
    assert_eq!(
        Openings::new("o.txt").take(3, &later),
        Err(OpeningsRefused(
            "o.txt line 3: an opening is a transcript from the start position".to_owned()
        ))
    );
    assert_eq!(
        Openings::new("o.txt").finish(),
        Err(OpeningsRefused("o.txt holds no opening".to_owned()))
    );
    let mut many = Openings::new("o.txt");
    for n in 0..MAX_OPENINGS {
        many.take(n, &record).expect("within the cap");
    }
    assert_eq!(
        many.take(MAX_OPENINGS, &record),
        Err(OpeningsRefused(
            "o.txt holds more than 1000000 openings, the most a book is planned from".to_owned()
        ))
    );
}

#[test]
fn a_check_draws_valued_positions_by_its_seed_and_finds_leaves_equal_to_their_search() {
    let mut book = Book::new();
    plan_new(&mut book, &[], 2, MAX_POSITIONS).expect("a small plan");
    // Before any search no position has a value: nothing to draw.
    assert!(check::sample(&book, 3, 7).is_empty());
    search_and_merge(&mut book, 2, 1, &mut |_, _| {});
    let three = check::sample(&book, 3, 7);
    assert_eq!(three, check::sample(&book, 3, 7));
    assert_eq!(three.iter().collect::<HashSet<_>>().len(), 3);
    // More than the book holds: every valued position, once.
    let all = check::sample(&book, 100, 7);
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), 5);
    let mut results = Vec::new();
    check::check(&book, &all, 2, 2, |r| {
        results.push(r);
        true
    });
    assert_eq!(results.iter().map(|r| r.key).collect::<Vec<_>>(), all);
    for r in &results {
        assert_eq!(Some(r.book), book.get(r.key).and_then(Entry::value));
        // A position of the last ply has only unsearched moves: its book
        // value is the level-2 search's that the check repeats.
        if r.ply() == 2 {
            assert_eq!(r.difference(), Eval(0), "{r:?}");
        }
    }
    // Stopping early hands over no more.
    let mut first = Vec::new();
    check::check(&book, &all, 2, 2, |r| {
        first.push(r);
        false
    });
    assert_eq!(first, results[..1]);
}

#[test]
fn a_check_summary_counts_the_margin_inclusively() {
    let at = |book: i32, search: i32| check::Checked {
        key: (0, 0),
        book: Eval(book * Eval::PER_DISC),
        search: Eval(search * Eval::PER_DISC),
    };
    let results = [at(2, 0), at(0, 3), at(-1, -1), at(5, 0)];
    let s = check::CheckSummary::of(&results, Eval(2 * Eval::PER_DISC));
    assert_eq!((s.positions, s.within), (4, 2));
    assert!((s.mean_difference - 1.0).abs() < 1e-9);
    assert!((s.mean_absolute - 2.5).abs() < 1e-9);
    assert!((s.largest - 5.0).abs() < 1e-9);
    assert!((s.within_percent() - 50.0).abs() < 1e-9);
    assert_eq!(
        s.to_string(),
        "within 2.00 discs: 2 of 4 (50.0%); book less search: mean +1.00, mean absolute 2.50, largest 5.00 discs"
    );
    // The start with X to move: ply 0, its board.
    let start = crate::engine::book::key_of(&RelativePosition::start(8)).0;
    let line = check::Checked {
        key: start,
        ..at(1, -1)
    }
    .to_string();
    assert_eq!(
        line,
        format!(
            "ply  0  book  +1.00  search  -1.00  difference  +2.00  {0}---OX------XO---{0} X",
            "-".repeat(24)
        )
    );
    assert_eq!(check::CheckSummary::of(&[], Eval(0)).within_percent(), 0.0);
}
