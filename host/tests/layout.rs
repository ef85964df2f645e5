//! The GTP engine's modules import one way: each module of `src/gtp/`
//! imports only the modules its module table (`src/gtp/mod.rs`) lists
//! below it, so the command table is on top, the reply types at the bottom,
//! and no two modules import each other.

use std::fs;
use std::path::Path;

/// The module names of the table in `mod.rs`, top first.
fn table(dir: &Path) -> Vec<String> {
    let text = fs::read_to_string(dir.join("mod.rs")).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("//! | [`"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// The sibling modules `file` imports (`super::name`), tests and comments
/// left out.
fn imports(file: &Path, names: &[String]) -> Vec<String> {
    let text = fs::read_to_string(file).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, _) in line.match_indices("super::") {
            let rest = &line[i + "super::".len()..];
            let words: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or("");
                group.split(',').map(|w| w.trim()).collect()
            } else {
                vec![rest]
            };
            for w in words {
                let name: String = w
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if names.contains(&name) && !found.contains(&name) {
                    found.push(name);
                }
            }
        }
    }
    found
}

#[test]
fn gtp_modules_import_only_the_modules_below_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gtp");
    let names = table(&dir);
    let mut files: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".rs") && f != "mod.rs")
        .map(|f| f.trim_end_matches(".rs").to_string())
        .collect();
    files.sort();
    let mut listed = names.clone();
    listed.sort();
    assert_eq!(files, listed, "every module in the table, once");
    let mut wrong = Vec::new();
    for (rank, name) in names.iter().enumerate() {
        for dep in imports(&dir.join(format!("{name}.rs")), &names) {
            let below = names.iter().position(|n| *n == dep).unwrap() > rank;
            if !below {
                wrong.push(format!("{name} imports {dep}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the table's order: {wrong:?}"
    );
}
