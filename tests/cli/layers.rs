//! The library's layers import only downward: a module may use
//! `crate::X` only where X is in its own layer or a lower one
//! (docs/ARCHITECTURE.md). Test code (`tests.rs` files and `mod tests`
//! blocks) may reach anywhere, to compare a layer against a higher one.
//!
//! The lab (the library's `lab` and the `reversi-lab` binary's drivers)
//! stands apart from the product: no product file imports it, and the
//! front ends' files (each binary's module tree) import one another
//! without a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level library module and its layer, lowest first.
const LAYERS: &[(&str, u8)] = &[
    ("board", 1),
    ("files", 1),
    ("game", 1),
    ("hash", 1),
    ("lines", 1),
    ("record", 1),
    ("reversi", 1),
    ("rng", 1),
    ("units", 1),
    ("treblecross", 1),
    ("eval", 2),
    ("search", 3),
    ("engine", 4),
    ("apps", 5),
    ("lab", 6),
    ("kit", 7),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// The non-test code of a source file: every line but those of its
/// inline test modules (`#[cfg(test)] mod tests { ... }`, to their closing
/// brace), without comments. A `mod tests;` line (the tests in a file of
/// their own) ends nothing: the lines after it are read.
fn code(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let attribute = lines[i].trim();
        let is_test = attribute.starts_with("#[cfg(") && attribute.contains("test");
        // The item the attribute is on: the next line that is not one.
        let mut item = i + 1;
        while is_test && item < lines.len() && lines[item].trim().starts_with("#[") {
            item += 1;
        }
        let inline_module = is_test
            && lines.get(item).is_some_and(|l| {
                let l = l.trim();
                l.trim_start_matches("pub(super) ")
                    .trim_start_matches("pub ")
                    .starts_with("mod ")
                    && l.ends_with('{')
            });
        if !inline_module {
            kept.push(lines[i]);
            i += 1;
            continue;
        }
        // Skip the module to the brace that closes it.
        let mut depth = 0i64;
        i = item;
        while i < lines.len() {
            depth += brace_balance(lines[i]);
            i += 1;
            if depth <= 0 {
                break;
            }
        }
    }
    kept.join("\n")
}

/// The opening braces of `line` less its closing ones, those inside
/// string and character literals (`"{"`, `'}'`) left out.
fn brace_balance(line: &str) -> i64 {
    let mut balance = 0;
    let mut chars = line.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                chars.next();
            }
            (true, '"') | (false, '"') => in_string = !in_string,
            (false, '\'') => {
                // A character literal ('{', '\'') or a lifetime ('a).
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            (false, '{') => balance += 1,
            (false, '}') => balance -= 1,
            _ => {}
        }
    }
    balance
}

/// The modules named as `crate::NAME` in `code`.
fn crate_paths(code: &str) -> Vec<String> {
    code.match_indices("crate::")
        .map(|(i, m)| {
            code[i + m.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Every `.rs` file below `dir` with the top-level module it belongs to.
fn sources(dir: &Path, top: Option<&str>, out: &mut Vec<(String, String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("read src").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let module = top.map_or(name.clone(), str::to_owned);
        if path.is_dir() {
            sources(&path, Some(&module), out);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "tests" {
            let text = fs::read_to_string(&path).expect("read source");
            out.push((path.display().to_string(), module, text));
        }
    }
}

/// What the code of `text`, a file of the library's `module`, imports
/// from a layer above the module's (`crate::engine (layer 4)`), or from a
/// module without a layer.
fn upward_imports(module: &str, text: &str) -> Vec<String> {
    let own = layer(module).unwrap_or(0);
    crate_paths(&code(text))
        .into_iter()
        .filter_map(|target| match layer(&target) {
            Some(l) if l > own => Some(format!("crate::{target} (layer {l})")),
            Some(_) => None,
            None => Some(format!("crate::{target}, which has no layer")),
        })
        .collect()
}

#[test]
fn library_imports_point_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, None, &mut files);
    let mut problems = Vec::new();
    for (path, module, text) in &files {
        if ["lib", "main", "cli", "bin"].contains(&module.as_str()) {
            continue;
        }
        let Some(own) = layer(module) else {
            problems.push(format!("{path}: module {module} has no layer in LAYERS"));
            continue;
        };
        for problem in upward_imports(module, text) {
            problems.push(format!("{path}: {module} (layer {own}) imports {problem}"));
        }
    }
    assert!(files.len() > 20, "found only {} source files", files.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every source file is compiled once, as the module its place names: no
/// `#[path]` mounts a file into a second module tree (the front ends' kit
/// is the library's `kit`, used by both binaries by one name).
#[test]
fn no_file_is_mounted_by_path() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, None, &mut files);
    let mounted: Vec<&String> = files
        .iter()
        .filter(|(_, _, text)| code(text).contains("#[path"))
        .map(|(path, _, _)| path)
        .collect();
    assert!(mounted.is_empty(), "files with #[path]: {mounted:?}");
    assert!(code("#[path = \"../kit/mod.rs\"]\nmod cli;").contains("#[path"));
}

#[test]
fn the_check_sees_an_upward_import() {
    let text = "use crate::board::Board;\nuse crate::engine::perft;\n#[cfg(test)]\nmod tests {\n use crate::apps::tiny;\n fn f() -> char { '}' }\n}\nuse crate::search::minimax;\n";
    assert_eq!(crate_paths(&code(text)), ["board", "engine", "search"]);
}

/// A `mod tests;` line (the tests in `tests.rs`) hides nothing after it:
/// an upward import placed below it is seen, and refused.
#[test]
fn the_check_reads_past_a_test_module_of_its_own_file() {
    let text = "use crate::board::Board;\n#[cfg(test)]\nmod tests;\n\nuse crate::apps::tiny;\n";
    assert_eq!(crate_paths(&code(text)), ["board", "apps"]);
    let text = "#[cfg(all(test, unix))]\nmod tests {\n    use crate::kit::usage;\n}\n";
    assert!(crate_paths(&code(text)).is_empty());
    // The layer check itself refuses such a file of layer 3.
    let upward = upward_imports(
        "search",
        "#[cfg(test)]\nmod tests;\nuse crate::engine::perft;\n",
    );
    assert_eq!(upward, ["crate::engine (layer 4)"]);
}

/// A module tree of one crate: each module's path (`cli::kit::input`,
/// the root `""`) with its file.
type Modules = BTreeMap<String, PathBuf>;

/// The modules of the crate whose root file is `root`, following its
/// `mod NAME;` lines (and their `#[path = ...]`), test modules left out.
fn module_tree(root: &Path) -> Modules {
    let mut modules = Modules::new();
    let mut todo = vec![(String::new(), root.to_path_buf())];
    while let Some((name, file)) = todo.pop() {
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let own_folder = if ["mod", "main", "lib"].contains(&stem.as_str()) || name.is_empty() {
            file.parent().unwrap().to_path_buf()
        } else {
            file.parent().unwrap().join(&stem)
        };
        let mut path_attribute = None;
        for line in code(&text).lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("#[path = \"") {
                path_attribute = rest.split('"').next().map(str::to_owned);
                continue;
            }
            let declared = line
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ");
            let Some(child) = declared
                .strip_prefix("mod ")
                .and_then(|r| r.strip_suffix(';'))
            else {
                if !line.starts_with("#[") {
                    path_attribute = None;
                }
                continue;
            };
            let child_file = match path_attribute.take() {
                Some(p) => file.parent().unwrap().join(p),
                None if own_folder.join(format!("{child}.rs")).exists() => {
                    own_folder.join(format!("{child}.rs"))
                }
                None => own_folder.join(child).join("mod.rs"),
            };
            if child == "tests" {
                continue;
            }
            let full = if name.is_empty() {
                child.to_owned()
            } else {
                format!("{name}::{child}")
            };
            todo.push((full, child_file));
        }
        modules.insert(name, file);
    }
    modules
}

/// The module paths that `text` (of module `own`) names with `crate::`,
/// `super::` and `self::` paths, use groups (`super::{a, b::c}`) spread.
fn named_paths(text: &str, own: &str) -> Vec<Vec<String>> {
    let own: Vec<String> = own
        .split("::")
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect();
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let word_start = |i: usize| {
        i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':')
    };
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in text.match_indices(start) {
            if !word_start(i) {
                continue;
            }
            // The module the path starts from, and the rest of the path.
            let mut base: Vec<String> = match start {
                "crate::" => Vec::new(),
                "super::" => own[..own.len().saturating_sub(1)].to_vec(),
                _ => own.clone(),
            };
            let mut rest = &text[i + start.len()..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            spread(rest, &base, &mut out);
        }
    }
    out
}

/// Adds to `out` the paths of `text` (after `base::`): one path, or a
/// brace group of paths.
fn spread(text: &str, base: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = base.to_vec();
    let mut rest = text;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = 0;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        spread(group[item..j].trim(), &path, out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        spread(group[item..j].trim(), &path, out);
                        item = j + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if word.is_empty() || word == "self" {
            break;
        }
        path.push(word.clone());
        match rest[word.len()..].strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    out.push(path);
}

/// The module a path names: its longest prefix that is a module of
/// `modules`, through glob re-exports (`pub use kit::*;`).
fn resolve(path: &[String], modules: &Modules, texts: &BTreeMap<PathBuf, String>) -> String {
    let mut at = String::new();
    for component in path {
        let join = |m: &str, c: &str| {
            if m.is_empty() {
                c.to_owned()
            } else {
                format!("{m}::{c}")
            }
        };
        let direct = join(&at, component);
        if modules.contains_key(&direct) {
            at = direct;
            continue;
        }
        let text = &texts[&modules[&at]];
        let through = code(text).lines().find_map(|l| {
            let glob = l.trim().strip_prefix("pub use ")?.strip_suffix("::*;")?;
            let candidate = join(&join(&at, glob), component);
            modules.contains_key(&candidate).then_some(candidate)
        });
        match through {
            Some(m) => at = m,
            None => break,
        }
    }
    at
}

/// The imports between the modules of one crate: module -> the modules it
/// names, its own submodules (its parts) left out.
fn import_graph(
    modules: &Modules,
    texts: &BTreeMap<PathBuf, String>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (name, file) in modules {
        let mut targets = BTreeSet::new();
        for path in named_paths(&code(&texts[file]), name) {
            let target = resolve(&path, modules, texts);
            let inside = name.is_empty() || target.starts_with(&format!("{name}::"));
            if target != *name && !inside {
                targets.insert(target);
            }
        }
        graph.insert(name.clone(), targets);
    }
    graph
}

/// A circle of imports in `graph`, if any (its modules in order).
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == m) {
            let mut found = stack[i..].to_vec();
            found.push(m.to_owned());
            return Some(found);
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.to_owned());
        for next in graph.get(m).into_iter().flatten() {
            if let Some(found) = visit(next, graph, stack, done) {
                return Some(found);
            }
        }
        stack.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

/// The texts of the files of `modules`.
fn texts_of(modules: &Modules) -> BTreeMap<PathBuf, String> {
    modules
        .values()
        .map(|f| (f.clone(), fs::read_to_string(f).expect("source")))
        .collect()
}

/// Whether a file's code names the lab: the library's `lab` module or a
/// file of the lab's drivers.
fn names_the_lab(code: &str) -> bool {
    code.contains("reversi::lab") || code.contains("crate::lab") || code.contains("reversi-lab/")
}

/// Whether `file` is the lab's: the library's `src/lab/` or the
/// `reversi-lab` binary's `src/bin/reversi-lab/`.
fn is_lab_file(file: &Path, src: &Path) -> bool {
    file.starts_with(src.join("lab")) || file.starts_with(src.join("bin/reversi-lab"))
}

#[test]
fn no_product_file_imports_the_lab() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, None, &mut files);
    let mut problems = Vec::new();
    for (path, _, text) in &files {
        if !is_lab_file(Path::new(path), &src) && names_the_lab(&code(text)) {
            problems.push(format!("{path}: a product file names the lab"));
        }
    }
    // The product's binaries hold no file of the lab's.
    for root in ["main.rs", "bin/ring-treblecross.rs"] {
        for (name, file) in module_tree(&src.join(root)) {
            if is_lab_file(&file, &src) {
                problems.push(format!(
                    "{root}: module {name} is the lab's {}",
                    file.display()
                ));
            }
        }
    }
    assert!(
        files
            .iter()
            .any(|(p, _, _)| is_lab_file(Path::new(p), &src)),
        "no lab file found"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The files of the library and of each binary import one another without
/// a circle (a module's use of its own parts, its submodules, is not an
/// import between files; a part's use of its parent is).
#[test]
fn no_files_import_one_another_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Each tree's size and edges, at least: the parse found the files.
    for (root, files, edges) in [
        ("lib.rs", 100, 100),
        ("main.rs", 20, 20),
        ("bin/reversi-lab/main.rs", 3, 2),
    ] {
        let modules = module_tree(&src.join(root));
        assert!(modules.len() >= files, "{root}: {modules:?}");
        let graph = import_graph(&modules, &texts_of(&modules));
        assert!(
            graph.values().map(BTreeSet::len).sum::<usize>() >= edges,
            "{root}: {graph:?}"
        );
        if let Some(found) = circle(&graph) {
            panic!(
                "{root}: the modules {} import one another in a circle",
                found.join(" -> ")
            );
        }
    }
}

#[test]
fn the_checks_see_a_circle_and_the_lab() {
    let graph_of = |files: &[(&str, &str)]| {
        let modules: Modules = files
            .iter()
            .map(|(m, _)| (m.to_string(), PathBuf::from(format!("{m}.rs"))))
            .collect();
        let texts = files
            .iter()
            .map(|(m, t)| (PathBuf::from(format!("{m}.rs")), t.to_string()))
            .collect();
        import_graph(&modules, &texts)
    };
    // cli/book uses cli/hint and cli/hint uses cli/book (as before the
    // readers moved): a circle; the parent's dispatch to its parts is not.
    let before = graph_of(&[
        ("", "mod cli;"),
        (
            "cli",
            "pub use kit::*;\nfn run() { book::run(); hint::run(); }",
        ),
        ("cli::kit", "pub fn usage() {}"),
        (
            "cli::book",
            "use super::hint::position_record;\nuse super::{usage, value};",
        ),
        (
            "cli::hint",
            "use super::{flag, option};\nfn f() { super::book::read_book(p) }",
        ),
    ]);
    assert_eq!(
        before["cli::book"],
        BTreeSet::from(["cli::hint".to_owned(), "cli".to_owned()])
    );
    assert_eq!(before["cli"], BTreeSet::new());
    assert!(circle(&before).is_some_and(|c| c.contains(&"cli::book".to_owned())));
    let after = graph_of(&[
        ("", "mod cli;"),
        (
            "cli",
            "pub use kit::*;\nfn run() { book::run(); hint::run(); }",
        ),
        ("cli::kit", "pub fn usage() {}"),
        ("cli::kit::readers", "use super::{usage, UsageError};"),
        (
            "cli::book",
            "use super::hint::position_record;\nuse crate::cli::readers::read_book;",
        ),
        (
            "cli::hint",
            "use super::{flag, option};\nfn f() { super::readers::read_book(p) }",
        ),
    ]);
    assert!(
        after["cli::hint"].contains("cli::kit::readers"),
        "{after:?}"
    );
    assert_eq!(circle(&after), None);
    assert!(names_the_lab("use reversi::lab::train::Shard;"));
    assert!(!names_the_lab(
        "use reversi::engine::book::Book; // the lab builds it"
    ));
}

/// Whether `code` spells out a lab file's header: the start of a games,
/// label, import or book-search file's first line, in either spelling.
fn spells_a_lab_header(code: &str) -> bool {
    ["\"# reversi ", "\"# reversi-lab "].iter().any(|program| {
        ["train", "book search"]
            .iter()
            .any(|what| code.contains(&format!("{program}{what}")))
    })
}

/// Each lab file format is read and written in its own module: the header
/// strings that name the files' kinds appear (outside test code) only in
/// `lab::train::formats` and `lab::book::searches`; everyone else, the
/// `reversi-lab` binary included, goes through them.
#[test]
fn lab_file_formats_are_spelled_out_in_their_modules_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, None, &mut files);
    let owners = [
        src.join("lab/train/formats"),
        src.join("lab/book/searches.rs"),
    ];
    let mut found = 0;
    let mut problems = Vec::new();
    for (path, _, text) in &files {
        if !spells_a_lab_header(&code(text)) {
            continue;
        }
        if owners.iter().any(|o| Path::new(path).starts_with(o)) {
            found += 1;
        } else {
            problems.push(format!("{path}: spells out a lab file's header"));
        }
    }
    assert!(found >= 3, "the formats' modules were not found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(spells_a_lab_header(
        "let h = format!(\"# reversi train label: empties {e}\");"
    ));
    assert!(spells_a_lab_header(
        "let h = format!(\"# reversi-lab book search: level {l}\");"
    ));
}
