//! The decay λ the kernel view computes with, as typed and as read: a
//! number that does not read leaves the last one in use, with why.

use serde::{Deserialize, Serialize};

use crate::kernel::DEFAULT_LAMBDA;

/// The kernel view's λ, kept for the next visit as typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub struct Lambda {
    /// The λ in use.
    pub value: f64,
    /// As typed.
    pub text: String,
    /// Why `text` is not in use.
    pub error: Option<String>,
}

impl Default for Lambda {
    fn default() -> Self {
        Lambda { value: DEFAULT_LAMBDA, text: DEFAULT_LAMBDA.to_string(), error: None }
    }
}

impl From<String> for Lambda {
    fn from(text: String) -> Self {
        let mut lambda = Lambda::default();
        lambda.set(text);
        lambda
    }
}

impl From<Lambda> for String {
    fn from(lambda: Lambda) -> Self {
        lambda.text
    }
}

impl Lambda {
    /// λ as typed: in use if it is a number greater than 0.
    pub fn set(&mut self, text: String) {
        match text.trim().parse::<f64>() {
            Ok(l) if l.is_finite() && l > 0.0 => {
                self.value = l;
                self.error = None;
            }
            _ => self.error = Some(format!("λ must be a number greater than 0, found '{text}'")),
        }
        self.text = text;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_is_checked_and_kept_when_wrong() {
        let mut lambda = Lambda::default();
        lambda.set("0.25".into());
        assert_eq!((lambda.value, lambda.error.is_none()), (0.25, true));
        lambda.set("-1".into());
        assert_eq!((lambda.value, lambda.text.as_str()), (0.25, "-1"));
        assert!(lambda.error.as_deref().is_some_and(|e| e.contains("'-1'")), "{:?}", lambda.error);
    }
}
