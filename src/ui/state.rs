//! The page's one state and the reducer that changes it.

use std::rc::Rc;

use yew::prelude::*;

use crate::corpus::{Corpus, Named, TreePair};
use crate::io::links::Link;
use crate::kernel::DEFAULT_LAMBDA;
use crate::tree::{NodeId, Tree};

const SAMPLE_SRC: &str = include_str!("../../www/sample/dev.src");
const SAMPLE_TRG: &str = include_str!("../../www/sample/dev.trg");
const SAMPLE_GOLD: &str = include_str!("../../www/sample/dev.gold");

/// The kinds of file the loader accepts, each with its own status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Source,
    Target,
    Gold,
    Tiger,
}

impl Slot {
    pub const ALL: [Slot; 4] = [Slot::Source, Slot::Target, Slot::Gold, Slot::Tiger];

    pub fn id(self) -> &'static str {
        match self {
            Slot::Source => "src",
            Slot::Target => "trg",
            Slot::Gold => "gold",
            Slot::Tiger => "tiger",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Slot::Source => "Source trees (.src)",
            Slot::Target => "Target trees (.trg)",
            Slot::Gold => "Gold links (.gold)",
            Slot::Tiger => "TigerXML pair + STA alignment (.xml)",
        }
    }

    /// Which slot a file goes to, by name (and, for XML, by content).
    fn of_file(name: &str) -> Option<Slot> {
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit('.').next().unwrap_or("");
        match ext {
            "src" => Some(Slot::Source),
            "trg" => Some(Slot::Target),
            "gold" => Some(Slot::Gold),
            "xml" | "tiger" => Some(Slot::Tiger),
            _ => None,
        }
    }
}

/// A file the user gave, kept so a later file can complete it.
#[derive(Debug, Clone, PartialEq)]
pub struct Upload {
    pub name: String,
    pub text: Rc<str>,
}

/// What a slot shows: its files and either a summary or an error.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlotStatus {
    pub files: Vec<Upload>,
    pub message: Option<Result<String, String>>,
}

/// Which sub-tree pair the selected one is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// The gold link of the selected source (else target) node, else itself.
    Auto,
    Itself,
    Gold(Link),
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub corpus: Rc<Corpus>,
    pub corpus_name: String,
    pub pair: usize,
    pub sel_source: Option<NodeId>,
    pub sel_target: Option<NodeId>,
    pub compare: Compare,
    pub lambda: f64,
    pub lambda_text: String,
    pub lambda_error: Option<String>,
    /// Status of each [`Slot`], indexed as in [`Slot::ALL`].
    pub slots: [SlotStatus; 4],
    /// A message about a file that fits no slot.
    pub stray: Option<String>,
}

pub enum Action {
    FileRead { name: String, text: String },
    FileFailed { name: String, error: String },
    SelectPair(usize),
    ClickSource(NodeId),
    ClickTarget(NodeId),
    ClearSelection,
    SetCompare(Compare),
    SetLambda(String),
    LoadSample,
}

fn sample() -> Corpus {
    Corpus::from_texts(
        Named { name: "sample/dev.src", text: SAMPLE_SRC },
        Named { name: "sample/dev.trg", text: SAMPLE_TRG },
        Some(Named { name: "sample/dev.gold", text: SAMPLE_GOLD }),
    )
    .unwrap_or_default()
}

impl State {
    pub fn with_sample() -> Self {
        State {
            corpus: Rc::new(sample()),
            corpus_name: "Built-in sample (SQUOIA German–Spanish, dev)".into(),
            pair: 0,
            sel_source: None,
            sel_target: None,
            compare: Compare::Auto,
            lambda: DEFAULT_LAMBDA,
            lambda_text: DEFAULT_LAMBDA.to_string(),
            lambda_error: None,
            slots: Default::default(),
            stray: None,
        }
    }

    pub fn current_pair(&self) -> Option<Rc<TreePair>> {
        self.corpus.pairs.get(self.pair).cloned().map(Rc::new)
    }

    pub fn corpus_summary(&self) -> String {
        let c = &self.corpus;
        let nodes: usize = c.pairs.iter().map(|p| p.source.len() + p.target.len()).sum();
        format!("{}: {} pairs, {} nodes, {} gold links", self.corpus_name, c.len(), nodes, c.gold_links())
    }

    pub fn slot(&self, slot: Slot) -> &SlotStatus {
        &self.slots[slot as usize]
    }

    fn slot_mut(&mut self, slot: Slot) -> &mut SlotStatus {
        &mut self.slots[slot as usize]
    }

    /// The sub-tree pair the selection is compared with, as (source, target).
    pub fn comparison(&self) -> Option<(NodeId, NodeId)> {
        let (s, t) = (self.sel_source?, self.sel_target?);
        let gold = &self.corpus.pairs.get(self.pair)?.gold;
        Some(match self.compare {
            Compare::Itself => (s, t),
            Compare::Gold(l) => (l.source, l.target),
            Compare::Auto => gold
                .iter()
                .find(|l| l.source == s)
                .or_else(|| gold.iter().find(|l| l.target == t))
                .map_or((s, t), |l| (l.source, l.target)),
        })
    }

    fn file_read(&mut self, name: String, text: String) {
        let Some(slot) = Slot::of_file(&name) else {
            self.stray = Some(format!(
                "{name}: expected a .src, .trg, .gold or TigerXML/STA .xml file; nothing was loaded from it"
            ));
            return;
        };
        self.stray = None;
        let upload = Upload { name: name.clone(), text: text.into() };
        let status = self.slot_mut(slot);
        match slot {
            // Tiger input takes three files; same-named files replace each other.
            Slot::Tiger => {
                status.files.retain(|u| u.name != name);
                status.files.push(upload);
            }
            _ => status.files = vec![upload],
        }
        self.validate(slot);
        self.assemble(slot);
    }

    /// Checks a file on its own so its status shows at once.
    fn validate(&mut self, slot: Slot) {
        let status = self.slot_mut(slot);
        let Some(u) = status.files.last().cloned() else { return };
        status.message = Some(match slot {
            Slot::Source | Slot::Target => Tree::parse_all(&u.text, &u.name)
                .map(|t| format!("{}: {} trees", u.name, t.len()))
                .map_err(|e| e.to_string()),
            Slot::Gold => crate::io::links::parse_links(&u.text, &u.name)
                .map(|l| format!("{}: {} lines, {} links", u.name, l.len(), l.iter().map(Vec::len).sum::<usize>()))
                .map_err(|e| e.to_string()),
            Slot::Tiger => Ok(format!(
                "{} of 3 files: {}",
                status.files.len(),
                status.files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
            )),
        });
    }

    /// Replaces the corpus when the uploads make a whole one; otherwise
    /// reports why next to the file at fault and keeps the corpus.
    fn assemble(&mut self, changed: Slot) {
        if changed == Slot::Tiger {
            let files = self.slot(Slot::Tiger).files.clone();
            if files.len() < 3 {
                return;
            }
            let result = super::loader::import_tiger(&files);
            match result {
                Ok((corpus, report)) => {
                    self.slot_mut(Slot::Tiger).message = Some(Ok(report));
                    self.replace_corpus(corpus, "Uploaded TigerXML pair".into());
                }
                Err(e) => self.slot_mut(Slot::Tiger).message = Some(Err(e)),
            }
            return;
        }
        let get = |s: Slot| self.slot(s).files.last().cloned();
        let (Some(src), Some(trg)) = (get(Slot::Source), get(Slot::Target)) else { return };
        if [Slot::Source, Slot::Target, Slot::Gold].iter().any(|&s| matches!(self.slot(s).message, Some(Err(_)))) {
            return;
        }
        let gold = get(Slot::Gold);
        let result = Corpus::from_texts(
            Named { name: &src.name, text: &src.text },
            Named { name: &trg.name, text: &trg.text },
            gold.as_ref().map(|g| Named { name: &g.name, text: &g.text }),
        );
        match result {
            Ok(corpus) => {
                let name = format!("Uploaded {} / {}", src.name, trg.name);
                self.replace_corpus(corpus, name);
            }
            Err(e) => {
                let msg = e.to_string();
                // The error names its file: show it there.
                let at = [
                    (Slot::Gold, gold.map(|g| g.name)),
                    (Slot::Target, Some(trg.name)),
                    (Slot::Source, Some(src.name)),
                ]
                .into_iter()
                .find(|(_, n)| n.as_ref().is_some_and(|n| msg.starts_with(n.as_str())))
                .map_or(changed, |(s, _)| s);
                self.slot_mut(at).message = Some(Err(msg));
            }
        }
    }

    fn replace_corpus(&mut self, corpus: Corpus, name: String) {
        self.corpus = Rc::new(corpus);
        self.corpus_name = name;
        self.pair = 0;
        self.clear_selection();
    }

    fn clear_selection(&mut self) {
        self.sel_source = None;
        self.sel_target = None;
        self.compare = Compare::Auto;
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::FileRead { name, text } => s.file_read(name, text),
            Action::FileFailed { name, error } => {
                s.stray = Some(format!("{name}: cannot read the file: {error}"));
            }
            Action::SelectPair(p) => {
                let p = p.min(s.corpus.len().saturating_sub(1));
                if p != s.pair {
                    s.pair = p;
                    s.clear_selection();
                }
            }
            Action::ClickSource(n) => {
                s.sel_source = if s.sel_source == Some(n) { None } else { Some(n) };
                s.compare = Compare::Auto;
            }
            Action::ClickTarget(n) => {
                s.sel_target = if s.sel_target == Some(n) { None } else { Some(n) };
                s.compare = Compare::Auto;
            }
            Action::ClearSelection => s.clear_selection(),
            Action::SetCompare(c) => s.compare = c,
            Action::SetLambda(text) => {
                match text.trim().parse::<f64>() {
                    Ok(l) if l.is_finite() && l > 0.0 => {
                        s.lambda = l;
                        s.lambda_error = None;
                    }
                    _ => s.lambda_error = Some(format!("λ must be a number greater than 0, found '{text}'")),
                }
                s.lambda_text = text;
            }
            Action::LoadSample => {
                let slots = s.slots.clone();
                s = State::with_sample();
                s.slots = slots;
            }
        }
        Rc::new(s)
    }
}
