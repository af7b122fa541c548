//! Reading the JSON model files with errors that say where: the file, the
//! line and column serde_json stopped at, and the JSON path of the value
//! (`support_vectors[3].source`), so a damaged model is as easy to fix as a
//! damaged tree file.
//!
//! Checks that need more than the JSON syntax (a bracketed tree inside a
//! string, weights that must match the kernel) run while deserializing, in
//! `deserialize_with` functions such as [`bracketed_tree`], so their errors
//! carry the same position and path.

use serde::de::{DeserializeOwned, DeserializeSeed, Error as _};
use serde::{Deserialize, Deserializer};

use crate::tree::Tree;

/// A located error in a JSON file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: expected {what} (JSON): {}{message}", at(path))]
pub struct JsonError {
    pub file: String,
    /// 1-based line and column where reading stopped (for a value that does
    /// not check out, just after it).
    pub line: usize,
    pub column: usize,
    /// The value's JSON path, e.g. `support_vectors[3].source`; empty at the top.
    pub path: String,
    /// What the file should be, e.g. "a treelink alignment model".
    pub what: &'static str,
    pub message: String,
}

fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("at {path}: ")
    }
}

/// A string of a model file (JSON or binary), borrowed from the input when
/// it can be (the binary form, and JSON strings without escapes): a reader
/// that keeps only parts of its strings, or keeps them its own way
/// ([`crate::mt::phrase::PhraseTable`]), allocates nothing for them.
#[derive(Deserialize)]
pub struct Text<'a>(#[serde(borrow)] pub std::borrow::Cow<'a, str>);

/// Reads `text` as a `T`; errors name `file`, line, column and JSON path.
pub fn from_json<T: DeserializeOwned>(text: &str, file: &str, what: &'static str) -> Result<T, JsonError> {
    read_seed(text, file, what, std::marker::PhantomData::<T>)
}

/// Reads `text` through `seed`, a reading that needs what an earlier
/// reading of the same text found (a model's support vectors checked
/// against its kernel); errors located as [`from_json`]'s.
pub fn read_seed<'de, S: DeserializeSeed<'de>>(
    text: &'de str,
    file: &str,
    what: &'static str,
    seed: S,
) -> Result<S::Value, JsonError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let located = |path: String, e: serde_json::Error| {
        let (line, column) = (e.line().max(1), e.column().max(1));
        let text = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
        // serde_path_to_error writes `.` for the top and `?` for a place a
        // syntax error left unknown: keep only the known part.
        let mut path = path.as_str();
        while let Some(known) = path.strip_suffix('?') {
            path = known.strip_suffix('.').unwrap_or(known);
        }
        let path = if path == "." { String::new() } else { path.to_string() };
        JsonError { file: file.to_string(), line, column, path, what, message }
    };
    let mut track = serde_path_to_error::Track::new();
    let value = seed
        .deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
        .map_err(|e| located(track.path().to_string(), e))?;
    // Only whitespace may follow the value.
    de.end().map_err(|e| located(String::new(), e))?;
    Ok(value)
}

/// A string holding one bracketed tree (a support vector's sub-tree): the
/// string, checked to read as exactly one tree.
pub fn bracketed_tree<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    match Tree::parse_one(&text, "") {
        Ok(_) => Ok(text),
        Err(e) => Err(D::Error::custom(format!(
            "expected one bracketed tree; at {}:{} of the string: {}",
            e.line, e.column, e.kind
        ))),
    }
}

/// A list of exactly `N` finite feature weights (a translation model's λs).
pub fn weights<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<Vec<f64>, D::Error> {
    let w = Vec::<f64>::deserialize(d)?;
    if w.len() != N || !w.iter().all(|x| x.is_finite()) {
        return Err(D::Error::custom(format!("expected {N} finite feature weights, found {} ({w:?})", w.len())));
    }
    Ok(w)
}

/// A probability in `(0, 1]`.
pub fn positive_probability<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let p = f64::deserialize(d)?;
    if !(p > 0.0 && p <= 1.0) {
        return Err(D::Error::custom(format!("expected a probability greater than 0 and at most 1, found {p}")));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Sv {
        #[serde(deserialize_with = "bracketed_tree")]
        #[allow(dead_code)]
        source: String,
    }

    #[derive(Debug, Deserialize)]
    struct File {
        #[allow(dead_code)]
        svs: Vec<Sv>,
    }

    #[test]
    fn errors_carry_position_and_path() {
        let text = "{\"svs\": [\n {\"source\": \"(A a)\"},\n {\"source\": \"(A (B b)\"}]}";
        let e = from_json::<File>(text, "m.json", "a test file").unwrap_err();
        assert_eq!(e.path, "svs[1].source");
        assert_eq!((e.line, e.column), (3, 23));
        assert_eq!(
            e.to_string(),
            "m.json:3:23: expected a test file (JSON): at svs[1].source: expected one bracketed tree; \
             at 1:9 of the string: expected ')' to close '(A' opened at 1:1, found end of input"
        );
        let e = from_json::<File>("{\"svs\": [{\"source\": 3}]}", "m", "x").unwrap_err();
        assert_eq!((e.path.as_str(), e.column), ("svs[0].source", 21));
        assert!(e.message.starts_with("invalid type: integer `3`, expected a string"), "{}", e.message);
        let e = from_json::<File>("{\"svs\": []} x", "m", "x").unwrap_err();
        assert_eq!((e.path.as_str(), e.line, e.column), ("", 1, 13));
        let e = from_json::<File>("{\n  \"svs\": [],\n  oops\n}", "m", "x").unwrap_err();
        assert_eq!(e.to_string(), "m:3:3: expected x (JSON): key must be a string");
        let e = from_json::<File>("{\"svs\": [{\"source\": \"(A a)\", oops}]}", "m", "x").unwrap_err();
        assert_eq!(e.path, "svs[0]");
        let e = from_json::<File>("", "m", "x").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
    }
}

/// A ratio that may be infinite (`--max-negative-ratio inf`): JSON has no
/// infinity (serde_json writes `null`, which does not read back), so +∞ is
/// the string `"inf"`; a finite value is a number.
pub mod ratio {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Ratio {
        Number(f64),
        Text(String),
    }

    fn to_ratio(v: f64) -> Ratio {
        if v == f64::INFINITY {
            Ratio::Text("inf".into())
        } else {
            Ratio::Number(v)
        }
    }

    fn from_ratio<E: serde::de::Error>(r: Ratio) -> Result<f64, E> {
        match r {
            Ratio::Number(v) => Ok(v),
            Ratio::Text(t) if t == "inf" => Ok(f64::INFINITY),
            Ratio::Text(t) => Err(E::custom(format!("expected a number or \"inf\", found \"{t}\""))),
        }
    }

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        to_ratio(*v).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        from_ratio(Ratio::deserialize(d)?)
    }

    /// The same for a list of ratios.
    pub mod list {
        use super::*;

        pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
            v.iter().map(|&x| to_ratio(x)).collect::<Vec<_>>().serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            Vec::<Ratio>::deserialize(d)?.into_iter().map(from_ratio).collect()
        }
    }

    #[cfg(test)]
    mod tests {
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct Holds {
            #[serde(with = "super")]
            one: f64,
            #[serde(with = "super::list")]
            many: Vec<f64>,
        }

        #[test]
        fn an_infinite_ratio_goes_through_json_and_back() {
            let h = Holds { one: f64::INFINITY, many: vec![2.0, f64::INFINITY] };
            let json = serde_json::to_string(&h).unwrap();
            assert_eq!(json, r#"{"one":"inf","many":[2.0,"inf"]}"#);
            assert_eq!(serde_json::from_str::<Holds>(&json).unwrap(), h);
            assert_eq!(serde_json::from_str::<Holds>(r#"{"one":6,"many":[]}"#).unwrap().one, 6.0);
            assert!(serde_json::from_str::<Holds>(r#"{"one":"many","many":[]}"#).is_err());
        }
    }
}
