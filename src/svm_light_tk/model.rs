//! SVM-Light-TK 1.5's model file, written so that its `svm_classify` reads
//! treelink's models and read so that treelink classifies with its models.
//!
//! ```text
//! SVM-light Version V5.01-TK-1.5
//! 5 # kernel type
//! 3 # kernel parameter -d
//! ...                          (-g -s -r -u -L -T -C -F -S -M -N -V -W -U)
//! 0 # highest feature index
//! 4 # number of training documents
//! 3 # number of support vectors plus 1
//! 0.25 # threshold b, each following line is a SV (starting with alpha*y)
//! 0.5 |BT| (NP (DT the) (NN dog)) |ET|
//! -0.5 |BT| (VP (VB run)) |ET|
//! ```
//!
//! Numbers are written as the shortest decimal that reads back to the same
//! double (SVM-Light-TK writes b with 8 digits). Reading refuses a kernel
//! treelink does not compute (module [`super`] lists what it does), never
//! approximating it.

use super::example::{parse_example, write_body, Example, ExampleError};
use super::kernel::{Combination, KernelParams, Pairing, TreeKernel, VectorKernel};
use crate::svm::PolyKernel;

/// The version line SVM-Light-TK 1.5 writes and requires.
pub const VERSION: &str = "V5.01-TK-1.5";

/// A trained model: the kernel, the threshold `b` (`D(x) = Σ α_i y_i K(sv_i, x) − b`)
/// and the support vectors with their `α_i y_i`.
#[derive(Debug, Clone, PartialEq)]
pub struct TkModel {
    pub kernel: KernelParams,
    pub b: f64,
    pub support_vectors: Vec<(f64, Example)>,
    /// The highest vector index among the training examples.
    pub highest_feature: u32,
    pub training_examples: usize,
}

/// Why a model file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("{file}:{line}:1: expected {expected}, found '{found}'")]
    Header { file: String, line: usize, expected: String, found: String },
    #[error("{file}:{line}:1: {what} is not supported by treelink svm-light-tk (it computes {supported})")]
    Unsupported { file: String, line: usize, what: String, supported: &'static str },
    #[error("{file}:{line}:1: expected {expected} support vectors (the header's count minus 1), found {found}")]
    Count { file: String, line: usize, expected: usize, found: usize },
    #[error(transparent)]
    Example(#[from] ExampleError),
}

/// Lines of a model file's header (the version line and 20 values), before
/// the support vectors.
const HEADER_LINES: usize = 21;

impl TkModel {
    /// The line (1-based) of support vector `index` (1-based) in the model
    /// file `text` this model was read from: where a support vector that
    /// reads but cannot be used is shown.
    pub fn support_vector_line(text: &str, index: usize) -> Option<usize> {
        let k = index.checked_sub(1)?;
        text.lines().enumerate().skip(HEADER_LINES).filter(|(_, l)| !l.trim().is_empty()).nth(k).map(|(n, _)| n + 1)
    }

    /// The model file's text.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let k = &self.kernel;
        let (s, d, sa, r) = match k.vector_kernel {
            VectorKernel::Linear => (0, 3, 1.0, 1.0),
            VectorKernel::Polynomial(p) => (1, p.degree, p.gamma, p.coef0),
        };
        let mut out = String::new();
        let header: [(String, &str); 20] = [
            (format!("{d}"), "kernel parameter -d"),
            ("1".into(), "kernel parameter -g"),
            (format!("{sa}"), "kernel parameter -s"),
            (format!("{r}"), "kernel parameter -r"),
            ("empty".into(), "kernel parameter -u"),
            (format!("{}", k.lambda), "kernel parameter -L"),
            (format!("{}", k.tree_constant), "kernel parameter -T"),
            (combination_letter(k.combination).into(), "kernel parameter -C"),
            (format!("{}", tree_kernel_number(k.tree_kernel)), "kernel parameter -F"),
            (format!("{s}"), "kernel parameter -S"),
            ("0.4".into(), "kernel parameter -M"),
            (format!("{}", k.normalization), "kernel parameter -N"),
            (k.vectors.to_string(), "kernel parameter -V"),
            (k.trees.to_string(), "kernel parameter -W"),
            ("0".into(), "kernel parameter -U"),
            (format!("{}", self.highest_feature), "highest feature index"),
            (format!("{}", self.training_examples), "number of training documents"),
            (format!("{}", self.support_vectors.len() + 1), "number of support vectors plus 1"),
            (format!("{}", self.b), "threshold b, each following line is a SV (starting with alpha*y)"),
            (String::new(), ""),
        ];
        let _ = writeln!(out, "SVM-light Version {VERSION}\n5 # kernel type");
        for (value, comment) in header.iter().filter(|(_, c)| !c.is_empty()) {
            // SVM-Light-TK reads -u up to '#', so no space before it.
            let sep = if *comment == "kernel parameter -u" { "" } else { " " };
            let _ = writeln!(out, "{value}{sep}# {comment}");
        }
        for (coef, e) in &self.support_vectors {
            let _ = write!(out, "{coef}");
            let _ = write_body(&mut out, &e.trees, &e.vectors);
            out.push('\n');
        }
        out
    }

    /// Reads a model file of SVM-Light-TK 1.5 or of treelink; `file` names it in errors.
    pub fn from_text(text: &str, file: &str) -> Result<TkModel, ModelError> {
        let mut h = Header { lines: text.lines().enumerate(), file, total: text.lines().count() };
        let (n, version) = h.value("the version line")?;
        if version != format!("SVM-light Version {VERSION}") {
            return Err(h.error(n, &format!("'SVM-light Version {VERSION}'"), &version));
        }
        let (n, t) = h.number("the kernel type")?;
        if t != 5.0 {
            return Err(h.unsupported(n, format!("kernel type -t {t}"), "-t 5"));
        }
        let (_, d) = h.number("-d")?;
        h.number("-g")?;
        let (_, s) = h.number("-s")?;
        let (_, r) = h.number("-r")?;
        h.value("-u")?;
        let (_, lambda) = h.number("-L")?;
        let (_, tree_constant) = h.number("-T")?;
        let (n, c) = h.value("-C")?;
        let combination = match c.as_str() {
            "T" => Combination::Trees,
            "+" => Combination::Sum,
            other => return Err(h.unsupported(n, format!("-C {other}"), "-C T and -C +")),
        };
        let (n, f) = h.number("-F")?;
        let tree_kernel = if f == 0.0 {
            TreeKernel::Subtree
        } else if f == 1.0 {
            TreeKernel::SubsetTree
        } else {
            return Err(h.unsupported(n, format!("-F {f}"), "-F 0 (ST) and -F 1 (SST)"));
        };
        let (n, sk) = h.number("-S")?;
        let vector_kernel = if sk == 0.0 {
            VectorKernel::Linear
        } else if sk == 1.0 && d >= 0.0 && d.fract() == 0.0 && d <= f64::from(u32::MAX) {
            VectorKernel::Polynomial(PolyKernel { gamma: s, coef0: r, degree: d as u32 })
        } else {
            return Err(h.unsupported(n, format!("-S {sk} -d {d}"), "-S 0 and -S 1 with a whole -d"));
        };
        h.number("-M")?;
        let (n, norm) = h.number("-N")?;
        if !(0.0..=3.0).contains(&norm) || norm.fract() != 0.0 {
            return Err(h.unsupported(n, format!("-N {norm}"), "-N 0, 1, 2, 3"));
        }
        let vectors = h.pairing("-V")?;
        let trees = h.pairing("-W")?;
        let (n, u) = h.number("-U")?;
        if u != 0.0 {
            return Err(h.unsupported(n, format!("-U {u} (per-tree parameters)"), "-U 0"));
        }
        let (_, highest) = h.number("the highest feature index")?;
        let (_, docs) = h.number("the number of training documents")?;
        let (n, svs) = h.number("the number of support vectors plus 1")?;
        if svs < 1.0 || svs.fract() != 0.0 {
            return Err(h.error(n, "the number of support vectors plus 1", &svs.to_string()));
        }
        let (_, b) = h.number("the threshold b")?;
        let mut support_vectors = Vec::new();
        let expected = svs as usize - 1;
        // Where a wrong count shows: the first support vector too many, else the end.
        let mut extra = None;
        for (k, line) in h.lines {
            if !line.trim().is_empty() {
                let e = parse_example(line, file, k + 1)?;
                if support_vectors.len() == expected {
                    extra.get_or_insert(k + 1);
                }
                support_vectors.push((e.label, e));
            }
        }
        if support_vectors.len() != expected {
            let line = extra.unwrap_or(h.total + 1);
            return Err(ModelError::Count { file: file.into(), line, expected, found: support_vectors.len() });
        }
        Ok(TkModel {
            kernel: KernelParams {
                tree_kernel,
                trees,
                vectors,
                combination,
                lambda,
                tree_constant,
                normalization: norm as u8,
                vector_kernel,
            },
            b,
            support_vectors,
            highest_feature: highest.max(0.0) as u32,
            training_examples: docs.max(0.0) as usize,
        })
    }
}

/// The header lines of a model file: `VALUE # comment`.
struct Header<'a, I> {
    lines: I,
    file: &'a str,
    total: usize,
}

impl<'a, I: Iterator<Item = (usize, &'a str)>> Header<'a, I> {
    fn error(&self, line: usize, expected: &str, found: &str) -> ModelError {
        ModelError::Header { file: self.file.into(), line, expected: expected.into(), found: found.into() }
    }

    fn unsupported(&self, line: usize, what: String, supported: &'static str) -> ModelError {
        ModelError::Unsupported { file: self.file.into(), line, what, supported }
    }

    /// The next line's value (before `#`) and its line number.
    fn value(&mut self, expected: &str) -> Result<(usize, String), ModelError> {
        match self.lines.next() {
            Some((k, l)) => Ok((k + 1, l.split('#').next().unwrap_or("").trim().to_string())),
            None => Err(self.error(self.total + 1, expected, "the end of the file")),
        }
    }

    fn number(&mut self, expected: &str) -> Result<(usize, f64), ModelError> {
        let (n, v) = self.value(expected)?;
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok((n, x)),
            _ => Err(self.error(n, expected, &v)),
        }
    }

    fn pairing(&mut self, what: &str) -> Result<Pairing, ModelError> {
        let (n, v) = self.value(what)?;
        match v.as_str() {
            "S" => Ok(Pairing::Sequence),
            "A" => Ok(Pairing::AllPairs),
            other => Err(self.unsupported(n, format!("{what} {other}"), "S and A")),
        }
    }
}

fn combination_letter(c: Combination) -> &'static str {
    match c {
        Combination::Trees => "T",
        Combination::Sum => "+",
    }
}

fn tree_kernel_number(t: TreeKernel) -> u8 {
    match t {
        TreeKernel::Subtree => 0,
        TreeKernel::SubsetTree => 1,
    }
}
