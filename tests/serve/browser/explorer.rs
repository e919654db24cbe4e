//! The explorer: the contract counts, the alpha-beta replay with its cutoffs and minimax compared, the trees, and the play page's "explore this position".

use super::*;

#[test]
fn explorer_reads_the_contract_counts_and_steps_through_alphabeta() {
    let cli = |flag: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args([flag, "1", "0000021001200000"])
            .output()
            .unwrap();
        let s = String::from_utf8(out.stdout).unwrap();
        let mut l = s.lines();
        (l.next().unwrap().to_string(), l.next().unwrap().to_string())
    };
    let (mm_value, mm_count) = cli("300");
    let (ab_value, ab_count) = cli("500");
    assert_eq!((mm_value.as_str(), mm_count.as_str()), ("-1", "224821"));
    let Some((mut b, server)) = browser_and_server(1400, 1000) else {
        return;
    };
    b.open(&format!("{}explore", server.url));
    // The contract's start position is the default; minimax first.
    set_value(&mut b, "#algorithm", "minimax");
    b.click("#run");
    wait_text(&mut b, "[data-testid=count]", &mm_count);
    assert_eq!(text(&mut b, "[data-testid=value]"), mm_value);
    // Open the root: four children whose sizes add up to the count.
    b.click("#tree-a > li > .node .toggle");
    b.wait_for(
        "document.querySelectorAll('#tree-a > li > ul > li').length === 4",
        WAIT,
        "the root's children",
    );
    let sizes = b.eval(
        "[...document.querySelectorAll('#tree-a > li > ul > li')].map(li => Number(li.querySelector('.node').getAttribute('aria-label').match(/([0-9]+) states/)[1]))",
    );
    let total: u64 = sizes
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!((total + 1).to_string(), mm_count);
    // Alpha-beta: the contract's 500 count, and its first steps.
    set_value(&mut b, "#algorithm", "alphabeta");
    b.click("#run");
    wait_text(&mut b, "[data-testid=count]", &ab_count);
    assert_eq!(text(&mut b, "[data-testid=value]"), ab_value);
    wait_text(&mut b, "[data-testid=step-count]", "1");
    let mut depths = Vec::new();
    for k in 2..=12 {
        b.click("#next");
        b.wait_for(
            &format!(
                "document.querySelector('[data-testid=step-event]').textContent.startsWith('{k} of ')"
            ),
            WAIT,
            &format!("replay step {k}"),
        );
        let frames = b.eval("document.querySelectorAll('#frames .frame').length");
        depths.push(frames.as_u64().unwrap());
    }
    // Depth-first: the first steps go down one ply at a time from the root.
    assert_eq!(depths[0], 2);
    assert!(depths.windows(2).all(|w| w[1] <= w[0] + 1), "{depths:?}");
    b.click("#prev");
    b.wait_for(
        "document.querySelector('[data-testid=step-event]').textContent.startsWith('11 of ')",
        WAIT,
        "replay step 11",
    );
    // The chosen line opens in red down to a leaf.
    b.click("#line-a");
    b.wait_for(
        "document.querySelector('#tree-a').dataset.lineOpen === 'true'",
        WAIT,
        "the chosen line",
    );
    let chosen = b.eval("document.querySelectorAll('#tree-a .node.chosen').length");
    assert!(chosen.as_u64().unwrap() >= 5, "{chosen}");
    // A node where alpha-beta cut off shows its remaining moves as pruned.
    assert_eq!(
        b.eval("document.querySelectorAll('#tree-a .node.pruned').length"),
        json!(0)
    );
    b.click("#tree-a .node[data-cutoff] .toggle");
    let pruned = b.wait_for(
        "document.querySelectorAll('#tree-a .node.pruned').length",
        WAIT,
        "the pruned children of a cut-off node",
    );
    assert!(pruned.as_u64().unwrap() >= 1);
    // Natural against best order, side by side.
    b.click("#compare");
    b.wait_for(
        "!document.querySelector('#view-b').hidden && /^[0-9]+$/.test(document.querySelector('[data-testid=count-b]').textContent)",
        WAIT,
        "both counts",
    );
    wait_text(&mut b, "[data-testid=count]", &ab_count);
    assert_eq!(text(&mut b, "[data-testid=value-b]"), ab_value);
    b.click("#line-b");
    b.wait_for(
        "document.querySelector('#tree-b').dataset.lineOpen === 'true'",
        WAIT,
        "the right tree's chosen line",
    );
    b.click("#line-a");
    b.wait_for(
        "document.querySelector('#tree-a').dataset.lineOpen === 'true'",
        WAIT,
        "the left tree's chosen line",
    );
    b.click("#next");
    b.click("#next");
    wait_text(&mut b, "[data-testid=step-count]", "3");
    save_screenshot(&mut b, "serve-explore.png");
}

#[test]
fn the_explorer_replays_each_cutoff_and_compares_minimax_with_alphabeta() {
    let Some((mut b, server)) = browser_and_server(1366, 850) else {
        return;
    };
    b.open(&format!("{}explore", server.url));
    // Side by side on the contract's start: the CLI's 300 and 500 counts.
    b.click("#versus");
    b.wait_for(
        "!document.querySelector('#view-b').hidden && /^[0-9]+$/.test(document.querySelector('[data-testid=count-b]').textContent)",
        WAIT,
        "both counts",
    );
    wait_text(&mut b, "[data-testid=count]", "224821");
    wait_text(&mut b, "[data-testid=count-b]", "7208");
    let title = text(&mut b, "#title-b");
    assert!(title.starts_with("alpha-beta"), "{title}");
    // The alpha-beta replay: step until the first cutoff, which names the
    // moves it prunes, the window and the value that closed it.
    set_value(&mut b, "#step-tree", "b");
    b.wait_for(
        "document.querySelector('[data-testid=step-event]').textContent.startsWith('1 of ')",
        WAIT,
        "the first step",
    );
    let mut clicks = 0;
    loop {
        b.click("#next");
        clicks += 1;
        let seen = b.wait_for(
            &format!(
                "document.querySelector('[data-testid=step-event]').textContent.startsWith('{} of ') && \
                 (document.querySelector('#cutoff').hidden ? 'enter' : 'cut')",
                clicks + 1
            ),
            WAIT,
            "the next step",
        );
        if seen == json!("cut") {
            break;
        }
        assert!(clicks < 300, "no cutoff in the first 300 steps");
    }
    let reason = text(&mut b, "[data-testid=cutoff]");
    let pruned = b.eval(
        "[...document.querySelectorAll('#frames .frame:last-child .chip.pruned')].map(c => c.textContent)",
    );
    let pruned: Vec<&str> = pruned
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(!pruned.is_empty(), "{reason}");
    assert!(
        reason.contains(&format!("so {} ", pruned.join(" "))),
        "{reason} {pruned:?}"
    );
    assert!(
        reason.contains("pruned") && (reason.contains("beta") || reason.contains("alpha")),
        "{reason}"
    );
    // A cutoff is not a state: the count did not move.
    let count_at_cut = text(&mut b, "[data-testid=step-count]");
    b.click("#prev");
    wait_text(&mut b, "[data-testid=step-count]", &count_at_cut);
    // The replay opens the tree at its node, marked, with MAX/MIN markers.
    // (Both are read in one expression: the frames and the tree are
    // redrawn one after the other.)
    let named = b.wait_for(
        "(() => { const n = document.querySelector('#tree-b .node.current'); \
         const f = document.querySelector('#frames .frame:last-child'); \
         if (!n || !f || !n.dataset.testid) return null; \
         const i = n.dataset.testid.replace('node-', ''); \
         return f.textContent.includes('#' + i + ' ') ? i : null; })()",
        WAIT,
        "the replay's node in the tree, named by the last frame",
    );
    assert!(named.as_str().is_some_and(|i| !i.is_empty()), "{named}");
    let sides = b.eval("[...document.querySelectorAll('#tree-b .side')].map(s => s.textContent)");
    let sides = sides.as_array().unwrap();
    assert!(sides.iter().any(|s| s.as_str().unwrap().starts_with("MAX")));
    assert!(sides.iter().any(|s| s.as_str().unwrap().starts_with("MIN")));
    // The last step: every state counted, the contract's 7,208.
    let events = b.eval("document.querySelector('[data-testid=step-event]').textContent.split(' of ')[1].replace(/,/g, '')");
    set_value(&mut b, "#goto", events.as_str().unwrap());
    wait_text(&mut b, "[data-testid=step-count]", "7208");
    // The tree is one Tab stop; the arrow keys walk it.
    let stops = b.eval("document.querySelectorAll('#tree-b [tabindex=\"0\"]').length");
    assert_eq!(stops, json!(1));
    b.eval("document.querySelector('#tree-b [tabindex=\"0\"]').focus()");
    let before = b.eval("document.activeElement.dataset.testid");
    b.key("Home");
    assert_eq!(
        b.eval("document.activeElement.dataset.testid"),
        json!("node-0")
    );
    b.key("ArrowDown");
    let next = b.eval("document.activeElement.dataset.testid");
    assert_ne!(next, json!("node-0"), "{before}");
    assert_eq!(
        b.eval("document.querySelectorAll('#tree-b [tabindex=\"0\"]').length"),
        json!(1)
    );
    b.key("ArrowUp");
    assert_eq!(
        b.eval("document.activeElement.dataset.testid"),
        json!("node-0")
    );
    // A preset with varied values (a depth bound and positional weights).
    set_value(&mut b, "#preset", "weights");
    b.wait_for(
        "document.querySelector('#title-a').textContent.includes('depth 4')",
        WAIT,
        "the preset's search",
    );
    // A search small enough is drawn: a shape per node (squares MAX,
    // circles MIN), values that vary, a dashed stub per pruned move.
    set_value(&mut b, "#preset", "small");
    b.wait_for(
        "document.querySelector('#title-a').textContent.includes('depth 3') && \
         document.querySelectorAll('#drawn-a .dnode').length > 0",
        WAIT,
        "the drawn tree",
    );
    let count: u64 = text(&mut b, "[data-testid=count]").parse().unwrap();
    let drawn = b.eval(
        "[document.querySelectorAll('#drawn-a .dnode').length, document.querySelectorAll('#drawn-a .dnode.max rect').length, \
          document.querySelectorAll('#drawn-a .dnode.min circle').length, \
          new Set([...document.querySelectorAll('#drawn-a .dnode > text:not(.mvlabel)')].map(t => t.textContent)).size, \
          document.querySelectorAll('#drawn-a .edge.pruned').length]",
    );
    assert_eq!(drawn[0], json!(count), "{drawn}");
    assert_eq!(
        drawn[1].as_u64().unwrap() + drawn[2].as_u64().unwrap(),
        count
    );
    assert!(drawn[3].as_u64().unwrap() >= 3, "values vary: {drawn}");
    assert!(drawn[4].as_u64().unwrap() >= 1, "a pruned move: {drawn}");
    // A node of the drawing selects it and moves the replay there.
    b.click("#drawn-a .dnode[data-index='3'] > :is(rect, circle)");
    b.wait_for(
        "document.querySelector('#node-info').textContent.startsWith('node #3')",
        WAIT,
        "node 3 selected",
    );
}

/// The first cutoff event of the replay of the tree in view `which`,
/// found by walking its events one by one through the API.
fn first_cutoff_by_walking(b: &mut Browser) -> u64 {
    b.eval(
        "(async () => { const id = views.a.id; for (let e = 0; e < views.a.events; e++) { \
           const s = await (await fetch(`/api/tree/${id}/event/${e}`)).json(); \
           if (s.kind === 'cutoff') return e; } return -1; })()",
    )
    .as_u64()
    .expect("a cutoff")
}

#[test]
fn the_explorer_draws_readable_trees_linked_to_the_replay_and_keeps_its_state_in_the_address() {
    for (width, height) in [(1366, 768), (390, 844)] {
        let Some((mut b, server)) = browser_and_server(width, height) else {
            return;
        };
        // It opens on the contract's position, searched by alpha-beta.
        b.open(&format!("{}explore", server.url));
        wait_text(&mut b, "[data-testid=count]", "7208");
        assert_eq!(
            b.eval("document.querySelector('#board').value"),
            json!("0000021001200000")
        );
        // The drawn tree of the small preset: every label at least 11 px.
        set_value(&mut b, "#preset", "small");
        b.wait_for(
            "document.querySelector('#drawn-a svg') && !document.querySelector('#drawn-a').hidden",
            WAIT,
            "the drawn tree",
        );
        let smallest = b.eval(
            "(() => { const svg = document.querySelector('#drawn-a svg'); \
               const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; \
               return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale)); })()",
        );
        assert!(
            smallest.as_f64().unwrap() >= 11.0,
            "labels {smallest} px at {width}"
        );
        // The replay moves the drawing; a click on the drawing moves the replay.
        wait_text(&mut b, "[data-testid=step-count]", "1");
        for k in 2..=4 {
            b.click("#next");
            b.wait_for(
                &format!("document.querySelector('[data-testid=step-event]').textContent.startsWith('{k} of ')"),
                WAIT,
                &format!("step {k}"),
            );
        }
        let linked = b.wait_for(
            "(async () => { const s = await (await fetch(`/api/tree/${views.a.id}/event/3`)).json(); \
               const g = document.querySelector('#drawn-a .dnode.current'); \
               return g && Number(g.dataset.index) === s.path[s.path.length - 1].index; })()",
            WAIT,
            "the drawn tree's current node",
        );
        assert_eq!(linked, json!(true));
        b.click("#drawn-a .dnode[data-index='7']");
        b.wait_for(
            "(async () => { const k = step && step.k; if (k === null) return false; \
               const s = await (await fetch(`/api/tree/${views.a.id}/event/${k}`)).json(); \
               return s.kind === 'enter' && s.path[s.path.length - 1].index === 7 \
                 && document.querySelector('#drawn-a .dnode.current').dataset.index === '7'; })()",
            WAIT,
            "the replay at the clicked node",
        );
        // Next cutoff: the first cutoff in one press from the start.
        b.click("#first");
        wait_text(&mut b, "[data-testid=step-count]", "1");
        let first_cut = first_cutoff_by_walking(&mut b);
        b.click("#next-cut");
        b.wait_for(
            &format!(
                "document.querySelector('[data-testid=step-event]').textContent.startsWith('{} of ')",
                first_cut + 1
            ),
            WAIT,
            "the first cutoff",
        );
        assert_eq!(
            b.eval("document.querySelector('#cutoff').hidden"),
            json!(false)
        );
        assert_eq!(
            b.eval("document.querySelector('#prev-cut').disabled"),
            json!(true)
        );
        // The address keeps the search and the step: a reload restores them.
        let event = text(&mut b, "[data-testid=step-event]");
        let nodes = b.eval("document.querySelectorAll('#drawn-a .dnode').length");
        let url = b.eval("location.href").as_str().unwrap().to_string();
        assert!(
            url.contains("depth=3") && url.contains("eval=strong") && url.contains("step="),
            "{url}"
        );
        b.open(&url);
        wait_text(&mut b, "[data-testid=step-event]", &event);
        b.wait_for(
            &format!("document.querySelectorAll('#drawn-a .dnode').length === {nodes}"),
            WAIT,
            "the same drawn tree",
        );
        assert_eq!(
            b.eval("document.querySelector('#cutoff').hidden"),
            json!(false)
        );
        // A node chosen in one search is not described after the next.
        b.click("#tree-a > li > .node");
        b.wait_for(
            "document.querySelector('[data-testid=node-info]').textContent.includes('node #0')",
            WAIT,
            "the node panel",
        );
        set_value(&mut b, "#preset", "contract");
        wait_text(&mut b, "[data-testid=count]", "7208");
        assert!(!text(&mut b, "[data-testid=node-info]").contains("node #"));
        // Side by side, with both chosen lines open: no row is cut.
        b.click("#compare");
        b.wait_for(
            "!document.querySelector('#view-b').hidden && /^[0-9]+$/.test(document.querySelector('[data-testid=count-b]').textContent) && step",
            WAIT,
            "both trees",
        );
        for side in ["a", "b"] {
            b.click(&format!("#line-{side}"));
            b.wait_for(
                &format!("document.querySelector('#tree-{side}').dataset.lineOpen === 'true'"),
                WAIT,
                "a chosen line",
            );
        }
        let cut = b.eval(
            "[...document.querySelectorAll('#tree-a .node, #tree-b .node')].filter(r => { \
               const tree = r.closest('ul.tree').getBoundingClientRect(), box = r.getBoundingClientRect(); \
               return r.scrollWidth > r.clientWidth + 1 || box.right > tree.right + 1; }).map(r => r.textContent)",
        );
        assert_eq!(cut, json!([]), "clipped rows at {width}");
        assert_eq!(
            b.eval("document.querySelectorAll('#tree-b .node').length > 5"),
            json!(true)
        );
    }
}

#[test]
fn explore_this_position_carries_the_games_settings() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=6&black=human&white=human&depth=3&eval=weights&algorithm=minimax&moves=d5",
        server.url
    ));
    wait_turn(&mut b, 1);
    let href = b.eval("document.querySelector('#explore').href");
    b.open(href.as_str().unwrap());
    b.wait_for(
        "/^[0-9]+$/.test(document.querySelector('[data-testid=count]').textContent)",
        WAIT,
        "the search",
    );
    let form = b.eval("['board', 'player', 'algorithm', 'depth', 'eval'].map(k => document.querySelector('#' + k).value)");
    let game = b.eval(
        "fetch('/api/game?size=6&moves=d5').then(r => r.json()).then(g => [g.board, String(g.player)])",
    );
    assert_eq!(form, json!([game[0], game[1], "minimax", "3", "weights"]));
}

/// A node clicked while the chosen line opens (its button) stays
/// selected: the line's own selection at its end does not take it back.
/// The node answers are slowed down in the page so that the line is
/// still opening when the click comes.
#[test]
fn a_node_clicked_while_the_line_opens_stays_selected() {
    let Some((mut b, server)) = browser_and_server(1366, 850) else {
        return;
    };
    b.open(&format!("{}explore", server.url));
    b.wait_for(
        "document.readyState === 'complete' && !!document.querySelector('#preset option')",
        WAIT,
        "the page",
    );
    b.eval(
        "(() => { const f = window.fetch; window.fetch = (u, o) => /\\/node\\//.test(String(u)) \
         ? new Promise(r => setTimeout(r, 400)).then(() => f(u, o)) : f(u, o); return true; })()",
    );
    set_value(&mut b, "#preset", "small");
    b.wait_for(
        "document.querySelector('#title-a').textContent.includes('depth 3') && \
         document.querySelectorAll('#drawn-a .dnode').length > 0",
        WAIT,
        "the drawn tree",
    );
    // A node of the drawing off the chosen line (the line ends at another).
    let off = b.eval(
        "[...document.querySelectorAll('#drawn-a .dnode')].map(n => Number(n.dataset.index)) \
         .filter(k => k > 0 && !views.a.line.has(k)).pop()",
    );
    let off = off.as_u64().expect("a node off the line");
    // Open the chosen line (node by node, each answer slowed), and click
    // that node while it opens.
    b.click("#line-a");
    b.click(&format!(
        "#drawn-a .dnode[data-index='{off}'] > :is(rect, circle)"
    ));
    assert_eq!(
        b.eval("document.querySelector('#tree-a').dataset.lineOpen || ''"),
        json!(""),
        "the line is still opening"
    );
    b.wait_for(
        "document.querySelector('#tree-a').dataset.lineOpen === 'true'",
        WAIT,
        "the line opened",
    );
    b.wait_for(
        "document.querySelector('#node-info').textContent.startsWith('node #')",
        WAIT,
        "a node shown",
    );
    let info = text(&mut b, "#node-info");
    assert!(info.starts_with(&format!("node #{off} ")), "{info}");
}
