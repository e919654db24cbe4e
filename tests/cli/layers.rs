//! The library's layers import only downward: a module may use
//! `crate::X` only where X is in its own layer or a lower one
//! (docs/ARCHITECTURE.md). Test code (`tests.rs` files and `mod tests`
//! blocks) may reach anywhere, to compare a layer against a higher one.

use std::fs;
use std::path::Path;

/// Each top-level library module and its layer, lowest first.
const LAYERS: &[(&str, u8)] = &[
    ("board", 1),
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
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// The non-test code of a source file: everything before its
/// `#[cfg(test)] mod tests` block, without comments.
fn code(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
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
        for target in crate_paths(&code(text)) {
            match layer(&target) {
                Some(l) if l > own => problems.push(format!(
                    "{path}: {module} (layer {own}) imports crate::{target} (layer {l})"
                )),
                Some(_) => {}
                None => problems.push(format!("{path}: crate::{target} has no layer")),
            }
        }
    }
    assert!(files.len() > 20, "found only {} source files", files.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import() {
    let text = "use crate::board::Board;\nuse crate::engine::perft;\n#[cfg(test)]\nmod tests {\n use crate::apps::tiny;\n}\n";
    assert_eq!(crate_paths(&code(text)), ["board", "engine"]);
}
