//! The workspace's layering holds: no module of any crate imports one that imports it back,
//! directly or through others, and the crates depend on each other only downwards (rules ←
//! search ← protocols and front ends; the match runner knows no search).
//!
//! A module's imports are the `crate::`, `super::` and `self::` paths in its file, outside
//! comments and `#[cfg(test)]` items: `use` lines and paths written inline alike. A path is
//! charged to the deepest module it names; a name the crate root re-exports (`crate::Board`) is
//! charged to the module it comes from. A module that uses its own submodules is made of them,
//! and using the crate root's own items is using the crate itself: neither is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its path inside its crate (`[]` is the crate root).
type Module = Vec<String>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The workspace's crates: each folder of `crates/` with a `src/`.
fn crates() -> Vec<PathBuf> {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("a crate folder").path())
        .filter(|path| path.join("src").is_dir())
        .collect();
    crates.sort();
    crates
}

/// Every module file of the crate at `dir`, by module path.
fn modules(dir: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(src: &Path, dir: &Path, out: &mut BTreeMap<Module, PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("a source file").path();
            if path.is_dir() {
                walk(src, &path, out);
                continue;
            }
            if path.extension().is_none_or(|extension| extension != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("inside src").with_extension("");
            let mut module: Module =
                relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            out.insert(module, path);
        }
    }
    let mut out = BTreeMap::new();
    walk(&dir.join("src"), &dir.join("src"), &mut out);
    out
}

/// `text` without comments, string and character literals, and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let find = |from: usize, needle: &[u8]| {
        bytes[from..].windows(needle.len()).position(|w| w == needle).map(|at| from + at)
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            i = find(i, b"\n").unwrap_or(bytes.len());
        } else if rest.starts_with(b"/*") {
            i = find(i, b"*/").map_or(bytes.len(), |end| end + 2);
        } else if rest.starts_with(b"#[cfg(test)]") {
            // Skip the item: up to the end of its braces, or its semicolon.
            let mut depth = 0usize;
            let mut j = i + b"#[cfg(test)]".len();
            while j < bytes.len() {
                match bytes[j] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    b';' if depth == 0 => {
                        j += 1;
                        break;
                    }
                    _ => {}
                }
                j += 1;
            }
            i = j;
        } else if rest.starts_with(b"\"") || rest.starts_with(b"r\"") || rest.starts_with(b"r#") {
            let raw = rest[0] == b'r';
            let hashes = rest.iter().skip(usize::from(raw)).take_while(|&&b| b == b'#').count();
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let mut j = i + usize::from(raw) + hashes + 1;
            while j < bytes.len() {
                if !raw && bytes[j] == b'\\' {
                    j += 2;
                } else if bytes[j..].starts_with(&close) {
                    j += close.len();
                    break;
                } else {
                    j += 1;
                }
            }
            out.extend_from_slice(b"\"\"");
            i = j;
        } else if rest[0] == b'\'' && (rest.get(1) == Some(&b'\\') || rest.get(2) == Some(&b'\'')) {
            // A character literal ('a', '\n', '\''), not a lifetime ('a).
            let from = i + if rest[1] == b'\\' { 3 } else { 1 };
            i = find(from, b"'").map_or(bytes.len(), |end| end + 1);
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The paths of a `use` tree such as `crate::a::{b, c::{d, e}}`.
fn expand(tree: &str) -> Vec<String> {
    // Whitespace matters only in `name as alias`.
    let tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let tree = ["{", "}", ",", "::"].iter().fold(tree, |tree, mark| {
        tree.replace(&format!(" {mark}"), mark).replace(&format!("{mark} "), mark)
    });
    let Some(open) = tree.find('{') else { return vec![tree] };
    let head = &tree[..open];
    let body = &tree[open + 1..tree.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| expand(part).into_iter().map(move |path| format!("{head}{path}")))
        .collect()
}

/// The `crate::`/`super::`/`self::` paths written in `code`: `use` trees expanded, and every
/// such path written inline.
fn paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let words =
        |at: usize| code[..at].chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '_');
    for (at, _) in code.match_indices("use ") {
        if !words(at) {
            continue;
        }
        let rest = &code[at + 4..];
        let Some(end) = rest.find(';') else { continue };
        let tree = rest[..end].trim();
        if ["crate::", "super::", "self::"].iter().any(|start| tree.starts_with(start)) {
            paths.extend(expand(tree));
        }
    }
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            if !words(at) {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |end| at + end);
            paths.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
    paths
}

/// The names the crate root re-exports (`pub use board::Board;`), with the module each comes
/// from.
fn reexports(lib: &str) -> BTreeMap<String, Module> {
    let mut names = BTreeMap::new();
    for (at, _) in lib.match_indices("pub use ") {
        let rest = &lib[at + "pub use ".len()..];
        let Some(end) = rest.find(';') else { continue };
        for path in expand(&rest[..end]) {
            let mut segments: Vec<&str> =
                path.split("::").filter(|s| !s.is_empty() && *s != "self").collect();
            if segments.first() == Some(&"crate") {
                segments.remove(0);
            }
            if let Some((name, module)) = segments.split_last() {
                let name = name.rsplit(" as ").next().unwrap_or(name);
                names.insert(name.to_owned(), module.iter().map(|s| s.to_string()).collect());
            }
        }
    }
    names
}

/// Each module's imports of other modules of its crate.
fn graph(dir: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules(dir);
    let lib = modules.get(&Vec::new()).map(|path| std::fs::read_to_string(path).unwrap());
    let reexported = lib.as_deref().map(|lib| reexports(&code(lib))).unwrap_or_default();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = code(&std::fs::read_to_string(file).expect("a readable source file"));
        for path in paths(&text) {
            let mut segments = path.split("::").map(str::to_owned).peekable();
            let mut full: Module = Vec::new();
            match segments.peek().map(String::as_str) {
                Some("crate") => {
                    segments.next();
                }
                _ => {
                    full = module.clone();
                    while let Some(step) = segments.next_if(|s| s == "super" || s == "self") {
                        if step == "super" {
                            full.pop();
                        }
                    }
                }
            }
            full.extend(segments.map(|s| s.split(" as ").next().unwrap_or(&s).to_owned()));
            let Some(known) = (0..=full.len()).rev().find(|&k| modules.contains_key(&full[..k]))
            else {
                continue;
            };
            let mut target = full[..known].to_vec();
            if target.is_empty() {
                match full.get(known).and_then(|name| reexported.get(name)) {
                    Some(module) => target.clone_from(module),
                    None => continue,
                }
            }
            if target.is_empty() || target.starts_with(module) {
                continue;
            }
            graph.entry(module.clone()).or_default().insert(target);
        }
    }
    graph
}

/// A circle of `graph`, if it has one: the modules on it, in order.
fn circle(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        graph: &BTreeMap<Module, BTreeSet<Module>>,
        module: &Module,
        marks: &mut BTreeMap<Module, Mark>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        match marks.get(module) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|m| m == module).expect("on the stack");
                return Some(stack[from..].to_vec());
            }
            None => {}
        }
        marks.insert(module.clone(), Mark::Open);
        stack.push(module.clone());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(circle) = visit(graph, next, marks, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        marks.insert(module.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph.keys().find_map(|module| visit(graph, module, &mut marks, &mut Vec::new()))
}

fn name(module: &Module) -> String {
    if module.is_empty() { "lib".to_owned() } else { module.join("::") }
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut circles = Vec::new();
    for dir in crates() {
        if let Some(circle) = circle(&graph(&dir)) {
            let crate_name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let mut names: Vec<String> = circle.iter().map(name).collect();
            names.push(names[0].clone());
            circles.push(format!("{crate_name}: {}", names.join(" → ")));
        }
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_checker_sees_a_circle() {
    let mut graph = BTreeMap::new();
    let module = |name: &str| vec![name.to_owned()];
    graph.insert(module("a"), BTreeSet::from([module("b")]));
    graph.insert(module("b"), BTreeSet::from([module("c")]));
    assert_eq!(circle(&graph), None);
    graph.insert(module("c"), BTreeSet::from([module("a")]));
    assert_eq!(circle(&graph), Some(vec![module("a"), module("b"), module("c")]));
}

#[test]
fn paths_are_read_from_use_trees_and_inline() {
    let text = code(
        "use crate::a::{b, c::{d, e as f}};\n// use crate::x;\nfn g() { super::h::i(); \
         let s = \"crate::y\"; }\n#[cfg(test)]\nmod tests { use crate::z; }\n",
    );
    let mut found = paths(&text);
    found.sort();
    found.dedup();
    assert_eq!(
        found,
        ["crate::a", "crate::a::b", "crate::a::c::d", "crate::a::c::e as f", "super::h::i"]
    );
}

/// Each crate's layer: a crate may depend only on crates of lower layers. The match runner and
/// the search share a layer, so neither may use the other; both speak the protocol below them.
const LAYERS: [(&str, u8); 16] = [
    ("arbiter-scan", 0),
    ("arbiter-duck", 1),
    ("arbiter-chess-record", 1),
    ("arbiter-arena", 1),
    ("arbiter-rating", 1),
    ("arbiter-duck-protocol", 2),
    ("arbiter-chess-parquet", 2),
    ("arbiter-live", 2),
    ("arbiter-duck-engine", 3),
    ("arbiter-duck-match", 3),
    ("arbiter-contest", 4),
    ("arbiter-duck-train", 4),
    ("arbiter-duck-learn", 4),
    ("arbiter-web", 5),
    ("arbiter-python", 4),
    ("arbiter-cli", 6),
];

/// The package name and the workspace crates among the `[dependencies]` of `manifest`.
fn dependencies(manifest: &str) -> (String, Vec<String>) {
    let mut section = "";
    let mut name = String::new();
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[package]" && line.starts_with("name") {
            name = line.split('"').nth(1).unwrap_or_default().to_owned();
        } else if section == "[dependencies]" && line.starts_with("arbiter-") {
            found.push(line.split([' ', '=', '.']).next().unwrap_or_default().to_owned());
        }
    }
    (name, found)
}

#[test]
fn crates_depend_only_on_lower_layers() {
    let layer = |name: &str| LAYERS.iter().find(|(crate_name, _)| *crate_name == name).map(|l| l.1);
    let mut manifests: Vec<PathBuf> = crates().iter().map(|dir| dir.join("Cargo.toml")).collect();
    manifests.push(root().join("python/Cargo.toml"));
    let mut wrong = Vec::new();
    for manifest in manifests {
        let (name, dependencies) = dependencies(&std::fs::read_to_string(&manifest).unwrap());
        let own = layer(&name).unwrap_or_else(|| panic!("{name} has no layer in LAYERS"));
        for dependency in dependencies {
            match layer(&dependency) {
                Some(theirs) if theirs < own => {}
                _ => wrong.push(format!("{name} (layer {own}) depends on {dependency}")),
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies against the layers:\n{}", wrong.join("\n"));
}
