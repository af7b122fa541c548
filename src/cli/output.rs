//! Whole outputs or none. A command's files are written under a temporary
//! name beside them and renamed into place once complete, all of a
//! command's files together, so a failed run leaves no half file that could
//! be taken for a result (and keeps what was there before). A streamed
//! output to stdout checks its input first ([`super::stream::check_pairs`],
//! [`super::stream::check_trees`]); an error met after the first line is
//! written is reported as [`CliError::Incomplete`], naming how much was written.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::CliError;

/// Writes `bytes` to `file` whole, or leaves `file` as it was.
pub fn write_file(file: &str, bytes: impl AsRef<[u8]>) -> Result<(), CliError> {
    write_files(&[(file, bytes.as_ref())])
}

/// Writes every file whole, or none of them: each goes to a temporary file
/// first, and only when all are written are they renamed into place.
pub fn write_files(files: &[(&str, &[u8])]) -> Result<(), CliError> {
    let mut written: Vec<(PathBuf, &str)> = Vec::with_capacity(files.len());
    let result = files.iter().try_for_each(|&(file, bytes)| {
        let temporary = temporary_name(Path::new(file));
        let wrote = std::fs::File::create(&temporary).and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        });
        // Listed before its result is known: a half-written temporary is removed too.
        written.push((temporary, file));
        wrote.map_err(|source| CliError::WriteFile { file: file.to_string(), source })
    });
    let result = result.and_then(|()| {
        written.iter().try_for_each(|(temporary, file)| {
            std::fs::rename(temporary, file).map_err(|source| CliError::WriteFile { file: file.to_string(), source })
        })
    });
    if result.is_err() {
        for (temporary, _) in &written {
            let _ = std::fs::remove_file(temporary);
        }
    }
    result
}

/// Makes the directory `dir` (and its parents) if missing.
pub fn create_dir(dir: &str) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|source| CliError::WriteFile { file: dir.to_string(), source })
}

/// `dir/.name.treelink-PID.tmp`: in the same directory, so the rename is
/// atomic on the same file system; hidden, and named by this process.
fn temporary_name(file: &Path) -> PathBuf {
    let name = file.file_name().map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    file.with_file_name(format!(".{name}.treelink-{}.tmp", std::process::id()))
}

/// Lines written to stdout as they come, counted, so that an error after
/// the first says the output above it is incomplete.
pub struct Lines {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    written: usize,
    /// Lines the whole output has, when the input was counted first.
    expected: Option<usize>,
    what: &'static str,
}

impl Lines {
    /// `expected` lines of `what` (e.g. "pairs' links"), if known.
    pub fn new(expected: Option<usize>, what: &'static str) -> Lines {
        Lines { out: std::io::BufWriter::new(std::io::stdout().lock()), written: 0, expected, what }
    }

    pub fn line(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), CliError> {
        self.out.write_fmt(text).and_then(|()| self.out.write_all(b"\n")).map_err(CliError::Write)?;
        self.written += 1;
        Ok(())
    }

    /// Flushes what was written, then hands on `result`; an error after the
    /// first line written becomes [`CliError::Incomplete`].
    pub fn finish<T>(mut self, result: Result<T, CliError>) -> Result<T, CliError> {
        let flushed = self.out.flush().map_err(CliError::Write);
        match result {
            Err(e) if self.written > 0 && !matches!(e, CliError::Write(_)) => Err(CliError::Incomplete {
                written: self.written,
                expected: self.expected,
                what: self.what,
                error: Box::new(e),
            }),
            Err(e) => Err(e),
            Ok(value) => flushed.map(|()| value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("treelink-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn files_are_written_together_and_leave_no_temporary() {
        let d = dir("together");
        let (a, b) = (d.join("a.src"), d.join("a.trg"));
        let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
        write_files(&[(a, b"(S (X x))\n"), (b, b"(S (Y y))\n")]).unwrap();
        assert_eq!(std::fs::read_to_string(a).unwrap(), "(S (X x))\n");
        assert_eq!(std::fs::read_to_string(b).unwrap(), "(S (Y y))\n");
        let mut names: Vec<String> =
            std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["a.src", "a.trg"]);
    }

    #[test]
    fn a_failed_write_leaves_every_file_as_it_was() {
        let d = dir("failed");
        let kept = d.join("kept.gold");
        std::fs::write(&kept, "0-0\n").unwrap();
        // The second file's directory does not exist: nothing is renamed into place.
        let missing = d.join("no-such-dir").join("x.trg");
        let err =
            write_files(&[(kept.to_str().unwrap(), b"1-1\n"), (missing.to_str().unwrap(), b"(S x)\n")]).unwrap_err();
        assert!(err.to_string().contains("no-such-dir/x.trg: cannot write"), "{err}");
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "0-0\n");
        let names: Vec<String> =
            std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["kept.gold"]);
    }
}
