//! The game records a model learns from and is tested on: SGF files found
//! in directories, single files, or `.tar.gz` archives (as the KGS
//! collections come), split into training and test games by a hash of each
//! game's name, so `train` and `test` agree on the split without a list.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;

/// One SGF file's text and the name it is known by (its path, inside its
/// archive for a `.tar.gz`).
pub struct GameText {
    /// Path of the file (`archive.tar.gz:inner/path.sgf` inside an archive).
    pub name: String,
    /// The SGF text.
    pub text: String,
}

/// Which games of a collection a command uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The games not in the test part.
    Train,
    /// One game in `split`, picked by a hash of its name.
    Test,
}

/// Return the FNV-1a hash of `name` (stable across builds and machines).
fn name_hash(name: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Query whether the game named `name` belongs to `part` when one game in
/// `split` is a test game. Only the file name counts (not the directory or
/// archive it sits in), so moving a collection does not move games between
/// the parts.
pub fn in_part(name: &str, part: Part, split: u64) -> bool {
    let base = name.rsplit(['/', ':']).next().unwrap_or(name);
    let test = name_hash(base).is_multiple_of(split.max(2));
    test == (part == Part::Test)
}

/// Read every SGF game under `paths` (directories are walked, `.tar.gz`
/// archives read in place), sorted by name.
///
/// # Errors
/// A message naming the path that cannot be read.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<GameText>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
                let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
                let p = entry.path();
                if entry.file_type().is_file() {
                    read_path(p, &mut out)?;
                }
            }
        } else {
            read_path(path, &mut out)?;
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Read one file: an SGF file (`.sgf`, or `.mgt` as the goban packages
/// name them), or the SGF files of a `.tar.gz` archive; other files are
/// skipped.
fn read_path(path: &Path, out: &mut Vec<GameText>) -> Result<(), String> {
    let name = path.display().to_string();
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".sgf") || lower.ends_with(".mgt") {
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        out.push(GameText {
            text: String::from_utf8_lossy(&bytes).into_owned(),
            name,
        });
    } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
        let file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
        let mut archive = tar::Archive::new(GzDecoder::new(file));
        let entries = archive.entries().map_err(|e| format!("{name}: {e}"))?;
        for entry in entries {
            let mut entry = entry.map_err(|e| format!("{name}: {e}"))?;
            let inner = entry
                .path()
                .map_err(|e| format!("{name}: {e}"))?
                .display()
                .to_string();
            let inner_lower = inner.to_ascii_lowercase();
            if !inner_lower.ends_with(".sgf") && !inner_lower.ends_with(".mgt") {
                continue;
            }
            let mut bytes = Vec::new();
            entry
                .read_to_end(&mut bytes)
                .map_err(|e| format!("{name}:{inner}: {e}"))?;
            out.push(GameText {
                text: String::from_utf8_lossy(&bytes).into_owned(),
                name: format!("{name}:{inner}"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_reads_only_the_file_name_and_parts_are_disjoint() {
        let names = (0..1000).map(|i| format!("dir/game-{i}.sgf"));
        let mut test = 0;
        for n in names {
            let moved = n.replace("dir/", "a.tar.gz:other/");
            assert_eq!(in_part(&n, Part::Test, 10), in_part(&moved, Part::Test, 10));
            assert_ne!(in_part(&n, Part::Test, 10), in_part(&n, Part::Train, 10));
            test += in_part(&n, Part::Test, 10) as u32;
        }
        assert!((60..140).contains(&test), "{test} test games of 1000");
    }
}
