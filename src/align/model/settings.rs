//! The training settings a person types, by the one name `treelink
//! train`'s flag and the page's field share (`--max-examples`,
//! `train-max-examples`): how a text is read into [`TrainOptions`], what
//! it must look like, and its default shown as text. Both front ends read
//! this table, so a setting added here is read, checked and defaulted the
//! same way by each.

use super::TrainOptions;

/// One setting typed by name.
pub struct TrainSetting {
    /// The flag's name without `--`, and the page field's.
    pub name: &'static str,
    /// Reads the setting's text into the options, or says what it expected.
    pub read: fn(&str, &mut TrainOptions) -> Result<(), String>,
    /// The options' value of the setting, as its text.
    pub show: fn(&TrainOptions) -> String,
}

/// The settings typed by name, in the order the page shows them.
pub const TRAIN_SETTINGS: [TrainSetting; 6] = [
    TrainSetting {
        name: "lambda",
        read: |text, o| {
            o.spec.lambda = read_positive(text, "a decay λ")?;
            Ok(())
        },
        show: |o| o.spec.lambda.to_string(),
    },
    TrainSetting {
        name: "c",
        read: |text, o| {
            o.c = read_positive(text, "a cost C")?;
            Ok(())
        },
        show: |o| o.c.to_string(),
    },
    TrainSetting {
        name: "max-examples",
        read: |text, o| {
            o.max_examples = read_max_examples(text)?;
            Ok(())
        },
        show: |o| show_max_examples(o.max_examples),
    },
    TrainSetting {
        name: "cost-factor",
        read: |text, o| {
            o.cost_factor = match text.trim() {
                "auto" => None,
                t => Some(read_positive(t, "auto or a cost factor C+/C−")?),
            };
            Ok(())
        },
        show: |o| o.cost_factor.map_or("auto".into(), |j| j.to_string()),
    },
    TrainSetting {
        name: "max-negative-ratio",
        read: |text, o| {
            o.max_negative_ratio = read_negative_ratio(text)?;
            Ok(())
        },
        show: |o| o.max_negative_ratio.to_string(),
    },
    TrainSetting {
        name: "seed",
        read: |text, o| {
            o.seed = text.trim().parse().map_err(|_| format!("expected a whole number, found '{text}'"))?;
            Ok(())
        },
        show: |o| o.seed.to_string(),
    },
];

/// The setting called `name`.
pub fn train_setting(name: &str) -> Option<&'static TrainSetting> {
    TRAIN_SETTINGS.iter().find(|s| s.name == name)
}

/// A number greater than 0 (`what` names it in the error).
pub fn read_positive(text: &str, what: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("expected {what} greater than 0, found '{text}'")),
    }
}

/// `--max-examples`: all, or a whole number of at least 2 (an SVM needs two examples).
pub fn read_max_examples(text: &str) -> Result<usize, String> {
    match text.trim() {
        "all" => Ok(usize::MAX),
        t => t
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 2)
            .ok_or_else(|| format!("expected all or a whole number of at least 2, found '{text}'")),
    }
}

/// A number of training examples as `--max-examples` reads it: all, or the number.
pub fn show_max_examples(n: usize) -> String {
    if n == usize::MAX {
        "all".into()
    } else {
        n.to_string()
    }
}

/// `--max-negative-ratio`: inf, or a number of negatives per positive greater than 0.
pub fn read_negative_ratio(text: &str) -> Result<f64, String> {
    match text.trim() {
        "inf" => Ok(f64::INFINITY),
        t => t.parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0).ok_or_else(|| {
            format!("expected inf or a number of negatives per positive greater than 0, found '{text}'")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setting reads back the default it shows, and a bad text names what it expected.
    #[test]
    fn every_setting_reads_its_default_and_refuses_a_bad_text_by_name() {
        let defaults = TrainOptions::default();
        for s in &TRAIN_SETTINGS {
            let mut o = TrainOptions { seed: 99, c: 9.0, max_examples: 7, ..TrainOptions::default() };
            (s.read)(&(s.show)(&defaults), &mut o).unwrap();
            assert_eq!((s.show)(&o), (s.show)(&defaults), "{}", s.name);
            let err = (s.read)("x", &mut o).unwrap_err();
            assert!(err.starts_with("expected ") && err.ends_with("found 'x'"), "{}: {err}", s.name);
        }
        assert_eq!((read_max_examples("all"), read_max_examples("1")).0, Ok(usize::MAX));
        assert!(read_max_examples("1").is_err());
        assert_eq!(read_negative_ratio("inf"), Ok(f64::INFINITY));
        assert!(read_negative_ratio("0").is_err() && read_positive("-1", "C").is_err());
        assert_eq!(train_setting("c").map(|s| s.name), Some("c"));
    }
}
