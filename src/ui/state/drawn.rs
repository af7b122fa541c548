//! The links the diagram draws for the pair shown, by mode: gold links,
//! or the model's links marked correct, wrong or missed (Inspect); the
//! student's links, a refused one, or *Check*'s marks (Teach); the
//! search's links so far, this step's candidate and what blocks it (Steps).

use super::{Mode, State};
use crate::align::greedy::Outcome;
use crate::exercise::Mark;
use crate::svg::{gold_links, link_name, marked_links, DrawnLink, LinkStyle};
use crate::tree::NodeId;

impl State {
    /// The links the diagram draws for the current pair, bottom to top.
    pub fn drawn_links(&self) -> Vec<DrawnLink> {
        let Some(pair) = self.loaded.corpus.pair(self.selection.pair) else { return Vec::new() };
        let names = |s: NodeId, t: NodeId| link_name(pair, s, t);
        let gold_links = || gold_links(pair).into_iter();
        let checked = self.classroom.checks.as_ref().and_then(|c| c.get(self.selection.pair.index()));
        match self.selection.mode {
            Mode::Inspect => {
                let Some(r) = self.results().filter(|r| r.aligned(self.selection.pair)) else {
                    return gold_links().collect();
                };
                let predicted = r.predicted.get(self.selection.pair.index()).map_or(&[][..], |l| l);
                marked_links(pair, predicted, |s, t| r.posterior(self.selection.pair, s, t))
            }
            Mode::Teach if checked.is_some() => {
                // After *Check*: each link marked against the exercise's key.
                let mut links: Vec<DrawnLink> = checked
                    .into_iter()
                    .flat_map(|c| &c.marks)
                    .map(|&(s, t, mark)| {
                        let (style, what) = match mark {
                            Mark::Correct => (LinkStyle::Correct, "correct: your link"),
                            Mark::Wrong => (LinkStyle::Wrong, "wrong: your link"),
                            Mark::Missed => (LinkStyle::Missed, "missed: the key's link"),
                            Mark::Unscored => (LinkStyle::Student, "not scored (a POS node): your link"),
                        };
                        DrawnLink { source: s, target: t, style, title: format!("{what} {}", names(s, t)) }
                    })
                    .collect();
                // Wrong under correct, as in the inspector.
                links.sort_by_key(|l| l.style != LinkStyle::Wrong);
                links
            }
            Mode::Teach => {
                let gold: Vec<DrawnLink> = if self.teach.reveal_gold { gold_links().collect() } else { Vec::new() };
                let student = self.student_links().iter().map(|&(s, t)| DrawnLink {
                    source: s,
                    target: t,
                    style: LinkStyle::Student,
                    title: format!("your link {} (click it to remove it)", names(s, t)),
                });
                let refused = self.teach.refused.iter().map(|(s, t, why)| DrawnLink {
                    source: *s,
                    target: *t,
                    style: LinkStyle::Refused,
                    title: why.clone(),
                });
                gold.into_iter().chain(student).chain(refused).collect()
            }
            Mode::Annotate => {
                let k = self.selection.pair;
                let done = self.annotation.is_done(k);
                let kept = self.annotation.edits.get(&k).map_or(&[][..], |(e, _)| &e.kept[..]);
                self.proposal(k)
                    .into_iter()
                    .map(|(s, t)| {
                        let (style, title) = if done || kept.contains(&(s, t)) {
                            (LinkStyle::Student, format!("your link {} (click it to remove it)", names(s, t)))
                        } else {
                            let posterior = self
                                .proposed_posterior(k, s, t)
                                .map_or(String::new(), |p| format!(", posterior {p:.3}"));
                            (
                                LinkStyle::Predicted,
                                format!("proposed {}{posterior} (click it if it is wrong)", names(s, t)),
                            )
                        };
                        DrawnLink { source: s, target: t, style, title }
                    })
                    .collect()
            }
            Mode::Steps => {
                let Some(search) = self
                    .results()
                    .filter(|r| r.aligned(self.selection.pair))
                    .and_then(|r| r.searches.get(self.selection.pair.index()))
                else {
                    return Vec::new();
                };
                let k = self.teach.step.min(search.steps.len().saturating_sub(1));
                let mut links: Vec<DrawnLink> = search.steps[..k]
                    .iter()
                    .filter(|st| matches!(st.outcome, Outcome::Taken(_)))
                    .map(|st| {
                        let (s, t) = (st.candidate.source, st.candidate.target);
                        DrawnLink {
                            source: s,
                            target: t,
                            style: LinkStyle::Taken,
                            title: format!("taken {}, posterior {:.3}", names(s, t), st.candidate.score),
                        }
                    })
                    .collect();
                if let Some(step) = search.steps.get(k) {
                    let (s, t) = (step.candidate.source, step.candidate.target);
                    if let Outcome::Blocked { by, .. } = step.outcome {
                        links.retain(|l| (l.source, l.target) != by);
                        links.push(DrawnLink {
                            source: by.0,
                            target: by.1,
                            style: LinkStyle::Blocker,
                            title: format!("the earlier link {} blocks this step's candidate", names(by.0, by.1)),
                        });
                    }
                    links.push(DrawnLink {
                        source: s,
                        target: t,
                        style: LinkStyle::Current,
                        title: format!(
                            "step {}: candidate {}, posterior {:.3}",
                            k + 1,
                            names(s, t),
                            step.candidate.score
                        ),
                    });
                }
                links
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::align::greedy::Search;

    /// Inspecting results: the model's links marked against gold — wrong
    /// ones drawn first, under the correct ones — and the gold links it
    /// missed; pair 1 of the sample has one gold link, 0-0.
    #[test]
    fn the_model_s_links_are_drawn_correct_wrong_or_missed() {
        let mut s = State::with_sample();
        let (n0, n1) = (NodeId::new(0), NodeId::new(1));
        let gold: Vec<_> = s.loaded.corpus.pairs[0].gold.iter().map(|l| (l.source, l.target)).collect();
        assert_eq!(gold, [(n0, n0)]);
        let align = |s: &mut State, links: Vec<(NodeId, NodeId)>| {
            align_changed(s, |searches, _| searches[0] = Search { links, steps: Vec::new() });
            s.drawn_links().into_iter().map(|l| (l.source, l.target, l.style)).collect::<Vec<_>>()
        };
        assert_eq!(s.drawn_links().iter().map(|l| l.style).collect::<Vec<_>>(), [LinkStyle::Gold], "no results yet");
        s.alignment.model = Some(uploaded_model());
        assert_eq!(align(&mut s, vec![(n1, n1)]), [(n0, n0, LinkStyle::Missed), (n1, n1, LinkStyle::Wrong)]);
        assert_eq!(align(&mut s, vec![(n0, n0), (n1, n1)]), [(n1, n1, LinkStyle::Wrong), (n0, n0, LinkStyle::Correct)]);
        let drawn = s.drawn_links();
        assert!(drawn[1].title.starts_with("correct predicted link 0-0: "), "{}", drawn[1].title);
    }
}
