//! A derivation drawn as trees: the target SMS (§3.1, §4 of the
//! meta-structure paper) built back into one tree, so the page can lay it
//! out under the source tree and link each source RM to the target RM it
//! became.
//!
//! A target RM is a structure string (`NP[DA-NC] VM`); each bare label is a
//! pre-terminal standing for one word ([`crate::mt::meta::structure`]), so
//! the RM's words hang under its pre-terminals in order. The RMs of a
//! derivation, in target order, are the children of one root labelled
//! [`SMS_ROOT`]. The phrase-based system's translation is drawn alike
//! ([`target_phrase_tree`]), with its phrase numbers for structure.

use crate::mt::meta::RmShape;
use crate::mt::ms::MsStep;
use crate::mt::phrase::PhraseStep;
use crate::tree::{NodeId, Tree, TreeBuilder};

/// The label of the root that holds a target SMS.
pub const SMS_ROOT: &str = "SMS";
/// The label of the root that holds a phrase-based translation.
pub const PHRASES_ROOT: &str = "phrases";

/// The target side of a derivation as a tree.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetSms {
    /// [`SMS_ROOT`] over the MS of every target RM, left to right.
    pub tree: Tree,
    /// For each step of the derivation, the roots of its target RM's MS in `tree`.
    pub roots: Vec<Vec<NodeId>>,
}

/// Why a derivation's target RMs do not make a tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetSmsError {
    #[error("step {step}: target RM '{rm}': {message}")]
    Structure { step: usize, rm: String, message: String },
    #[error("step {step}: target RM '{rm}' has {leaves} pre-terminals but {words} words")]
    Words { step: usize, rm: String, leaves: usize, words: usize },
    #[error("the derivation has no steps")]
    Empty,
}

/// Builds the target SMS tree of a derivation (steps in target order, as
/// [`crate::mt::ms::MsTranslation::derivation`]).
///
/// # Examples
/// ```
/// use treelink::mt::ms::derivation::target_sms_tree;
/// use treelink::mt::ms::MsStep;
/// let step = |rm: &str, words: &[&str]| MsStep {
///     source: (0, 0),
///     source_rm: String::new(),
///     source_roots: Vec::new(),
///     target_rm: rm.into(),
///     target: words.iter().map(|w| w.to_string()).collect(),
///     phrases: Vec::new(),
///     glue: false,
/// };
/// let sms = target_sms_tree(&[step("NP[DA-NC]", &["el", "perro"]), step("VM", &["ladra"])]).unwrap();
/// assert_eq!(sms.tree.to_bracketed(), "(SMS (NP (DA el) (NC perro)) (VM ladra))");
/// let n = treelink::tree::NodeId::new;
/// assert_eq!(sms.roots, [vec![n(1)], vec![n(4)]]);
/// ```
pub fn target_sms_tree(steps: &[MsStep]) -> Result<TargetSms, TargetSmsError> {
    if steps.is_empty() {
        return Err(TargetSmsError::Empty);
    }
    let mut b = TreeBuilder::new();
    b.open_phrase(SMS_ROOT);
    let mut next_id = 1;
    let mut roots = Vec::with_capacity(steps.len());
    for (k, step) in steps.iter().enumerate() {
        let shape: RmShape = step.target_rm.parse().map_err(|e: crate::mt::meta::StructureError| {
            TargetSmsError::Structure { step: k + 1, rm: step.target_rm.clone(), message: e.to_string() }
        })?;
        let leaves = shape.word_count();
        if leaves != step.target.len() {
            return Err(TargetSmsError::Words {
                step: k + 1,
                rm: step.target_rm.clone(),
                leaves,
                words: step.target.len(),
            });
        }
        let mut words = step.target.iter();
        let mut step_roots = Vec::new();
        // Children still to come of each open node of this RM.
        let mut pending: Vec<usize> = Vec::new();
        for node in shape.nodes() {
            if pending.is_empty() {
                step_roots.push(NodeId::new(next_id));
            }
            if node.arity == 0 {
                b.pos(node.label.as_str(), words.next().cloned().unwrap_or_default());
            } else {
                b.open_phrase(node.label.as_str());
            }
            next_id += 1;
            if let Some(p) = pending.last_mut() {
                *p -= 1;
            }
            if node.arity > 0 {
                pending.push(node.arity);
            }
            while pending.last() == Some(&0) {
                pending.pop();
                b.close();
            }
        }
        roots.push(step_roots);
    }
    let tree = b.finish().ok_or(TargetSmsError::Empty)?;
    Ok(TargetSms { tree, roots })
}

/// The phrase-based system's translation drawn the same way: it has no
/// target structure, so each target word hangs under a node labelled with
/// the number of its phrase (in target order), under one root labelled
/// [`PHRASES_ROOT`]; `roots` holds each phrase's word nodes. `None` when
/// there are no target words.
///
/// # Examples
/// ```
/// use treelink::mt::phrase::PhraseStep;
/// use treelink::mt::ms::derivation::target_phrase_tree;
/// let step = |target: &[&str]| PhraseStep { source: (0, 1), target: target.iter().map(|w| w.to_string()).collect(), unknown: false };
/// let t = target_phrase_tree(&[step(&["el", "perro"]), step(&["ladra"])]).unwrap();
/// assert_eq!(t.tree.to_bracketed(), "(phrases (1 el) (1 perro) (2 ladra))");
/// let n = treelink::tree::NodeId::new;
/// assert_eq!(t.roots, [vec![n(1), n(2)], vec![n(3)]]);
/// ```
pub fn target_phrase_tree(phrases: &[PhraseStep]) -> Option<TargetSms> {
    let mut b = TreeBuilder::new();
    b.open_phrase(PHRASES_ROOT);
    let roots: Vec<Vec<NodeId>> = phrases
        .iter()
        .enumerate()
        .map(|(k, p)| p.target.iter().map(|w| b.pos((k + 1).to_string(), w.as_str())).collect())
        .collect();
    roots.iter().any(|r| !r.is_empty()).then_some(())?;
    Some(TargetSms { tree: b.finish()?, roots })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(rm: &str, words: &str) -> MsStep {
        MsStep {
            source: (0, 0),
            source_rm: String::new(),
            source_roots: Vec::new(),
            target_rm: rm.into(),
            target: words.split_whitespace().map(str::to_string).collect(),
            phrases: Vec::new(),
            glue: false,
        }
    }

    #[test]
    fn nested_ms_and_several_ms_per_rm() {
        let sms =
            target_sms_tree(&[step("AP[AP[BMP[m-q]-a]-usde] wj", "w1 w2 w3 w4 w5"), step("S[NP[DT-NN]-VBZ]", "a b c")])
                .unwrap();
        assert_eq!(
            sms.tree.to_bracketed(),
            "(SMS (AP (AP (BMP (m w1) (q w2)) (a w3)) (usde w4)) (wj w5) (S (NP (DT a) (NN b)) (VBZ c)))"
        );
        assert_eq!(sms.roots, [vec![NodeId::new(1), NodeId::new(8)], vec![NodeId::new(9)]]);
        for (k, roots) in sms.roots.iter().enumerate() {
            for &r in roots {
                assert_eq!(sms.tree.parent(r), Some(NodeId::new(0)), "step {k}: root {r} hangs under SMS");
            }
        }
    }

    #[test]
    fn mismatches_are_errors_not_panics() {
        assert_eq!(
            target_sms_tree(&[step("NP[DA-NC]", "el")]),
            Err(TargetSmsError::Words { step: 1, rm: "NP[DA-NC]".into(), leaves: 2, words: 1 })
        );
        assert!(matches!(target_sms_tree(&[step("NP[DA-NC", "el perro")]), Err(TargetSmsError::Structure { .. })));
        assert_eq!(target_sms_tree(&[]), Err(TargetSmsError::Empty));
    }

    #[test]
    fn labels_with_brackets_are_kept_as_text() {
        let sms = target_sms_tree(&[step(r"X\[1\] <b>", "a b")]).unwrap();
        assert_eq!(sms.tree.label(NodeId::new(1)), "X[1]");
        assert_eq!(sms.tree.label(NodeId::new(2)), "<b>");
    }
}
