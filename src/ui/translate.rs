//! The Translate view: train a translation model on the loaded pairs (in
//! the worker) or use one uploaded from `treelink mt-train`, translate a
//! pair of the corpus or a pasted tree, and see the derivation: the source
//! tree with each source RM outlined, the target SMS as a tree below it
//! ([`crate::mt::ms::derivation::target_sms_tree`]), a link from every
//! source RM to the target RM it became, the translation next to the
//! reference with its sentence BLEU, and the n-best list with every
//! feature value (meta-structure paper §4, eq. 14's `h`).
//!
//! Labels, words and structure strings are text nodes (never markup).

use yew::prelude::*;

use super::panels::TranslateView;
use super::results::training_data_warning;
use super::state::{
    CorpusTranslation, ExportFile, JobAction, JobKind, SelectAction, Shared, TranslateAction, Translated,
};
use super::store::Dispatch;
use super::train::{model_summary, JobStatus};
use super::zoom::{use_zoom, FIT_MAX_TEXT_PX, PRESENT_MAX_TEXT_PX};
use crate::corpus::PairIndex;
use crate::eval::bleu::sentence_bleu;
use crate::layout::{layout_pair, layout_tree, Rect, Style, TreeLayout};
use crate::lexicon::WordModel;
use crate::mt::model::SystemKind;
use crate::mt::ms::derivation::{target_phrase_tree, target_sms_tree};
use crate::mt::ms::{MsReading, RmEstimate};
use crate::mt::phrase::unknown::{SourceNote, WordRule};
use crate::mt::phrase::ExtractMethod;
use crate::svg::DERIVATION_CSS;
use crate::tree::{NodeId, Tree};

#[derive(Properties, PartialEq)]
pub struct TranslateProps {
    pub view: TranslateView,
    pub translate: Dispatch<TranslateAction>,
    /// The progress bar's *Cancel* and *Restart the worker*.
    pub job: Dispatch<JobAction>,
    /// A translated pair's number opens the pair.
    pub select: Dispatch<SelectAction>,
    /// The derivation's download.
    pub export: Dispatch<ExportFile>,
}

/// Step colours (Okabe–Ito, without the yellow that vanishes on white).
const COLOURS: [&str; 7] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#1b1f24"];

fn colour(step: usize) -> &'static str {
    COLOURS[step % COLOURS.len()]
}

/// A select's first option, what is left open: chosen on dev, or without
/// dev pairs the default.
fn open_label(on_dev: bool, default: &str) -> String {
    match on_dev {
        true => "chosen on dev".into(),
        false => format!("default: {default}"),
    }
}

/// The value chosen in the select an event came from.
fn chosen(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()
}

#[function_component(TranslatePanel)]
pub fn translate_panel(props: &TranslateProps) -> Html {
    let state = &props.view;
    let translate = props.translate;
    let mt = state;
    let busy = state.busy;
    let has_gold = state.corpus.gold_links() > 0;
    let choices = mt.choices;
    let needs_gold = choices.extract.is_some_and(|m| m != ExtractMethod::Word);
    let on_dev = matches!(state.dev, Ok(Some(_)));

    let on_system = Callback::from(move |e: Event| {
        if let Ok(system) = chosen(&e).parse::<SystemKind>() {
            translate.emit(TranslateAction::SetSystem(system));
        }
    });
    // The empty value: left open, chosen on dev (or the default without dev pairs).
    let on_extract = Callback::from(move |e: Event| {
        translate.emit(TranslateAction::SetExtract(chosen(&e).parse::<ExtractMethod>().ok()));
    });
    let on_reading = Callback::from(move |e: Event| {
        let reading = match chosen(&e).as_str() {
            "paper" => Some(MsReading::PAPER),
            "discount" => Some(MsReading { rm_estimate: RmEstimate::Discount, ..MsReading::PAPER }),
            _ => None,
        };
        translate.emit(TranslateAction::SetReading(reading));
    });
    let on_word_model = Callback::from(move |e: Event| {
        translate.emit(TranslateAction::SetWordModel(WordModel::ALL.into_iter().find(|m| m.name() == chosen(&e))));
    });
    let on_tune = Callback::from(move |e: Event| {
        translate.emit(TranslateAction::SetTune(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()));
    });
    let on_train =
        Callback::from(move |_: MouseEvent| translate.emit(TranslateAction::Train { now: js_sys::Date::now() }));
    let on_download = Callback::from(move |_: MouseEvent| translate.emit(TranslateAction::Download));
    let on_translate_pair = {
        let k = state.pair;
        Callback::from(move |_: MouseEvent| translate.emit(TranslateAction::TranslatePair(k)))
    };
    let on_translate_all =
        Callback::from(move |_: MouseEvent| translate.emit(TranslateAction::TranslateAll { now: js_sys::Date::now() }));
    let on_translate_pasted = Callback::from(move |_: MouseEvent| translate.emit(TranslateAction::TranslatePasted));
    let on_input = Callback::from(move |e: InputEvent| {
        translate.emit(TranslateAction::SetInput(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()));
    });

    let note = match &mt.note {
        Some(Ok(m)) => html! { <p id="mt-note" class="ok" role="status">{m}</p> },
        Some(Err(m)) => {
            html! { <p id="mt-note" class="error" role="alert">{m}{super::train::restart_worker(state.worker_stopped, props.job, "restart-worker-mt")}</p> }
        }
        None => html! {},
    };
    let option = |value: &'static str, label: &str, selected: bool| {
        html! { <option value={value} {selected}>{label.to_string()}</option> }
    };
    // Not while a new model trains: the worker would answer with the new one.
    let training_mt = state.training_mt;
    let can_translate = mt.held.is_some() && !mt.translating && !training_mt;
    html! {
        <section class="panel translate" id="translate-panel" aria-labelledby="translate-title">
            <h2 id="translate-title">{"Translate"}</h2>
            <div class="translate-grid">
                <div class="translate-model">
                    <div class="form-row">
                        <label for="mt-system">{"System"}</label>
                        <select id="mt-system" onchange={on_system}>
                            {option("ms", "meta-structure (MS)", choices.system == SystemKind::Ms)}
                            {option("phrase", "phrase-based baseline", choices.system == SystemKind::Phrase)}
                        </select>
                    </div>
                    <label class="option" for="mt-tune">
                        <input type="checkbox" id="mt-tune" checked={choices.tune} onchange={on_tune} />
                        {" Hold out dev pairs: choose what is left open below and tune the weights on them"}
                    </label>
                    {match &state.dev {
                        Ok(Some(dev)) => html! {
                            <>
                                <p id="mt-dev" class="hint">{format!("Dev pairs: {dev}.")}</p>
                                <p id="mt-plan" class="hint">{match state.configurations {
                                    1 => "Train tunes one configuration on them.".to_string(),
                                    n => format!("Train tries {n} configurations on them and keeps the best; pin some below to try fewer."),
                                }}</p>
                            </>
                        },
                        Ok(None) => html! {},
                        Err(()) => html! { <p id="mt-dev" class="error">{"Too few pairs to hold some out as dev pairs."}</p> },
                    }}
                    <div class="form-row">
                        <label for="mt-extract">{"Extraction"}</label>
                        <select id="mt-extract" onchange={on_extract}>
                            {option("", &open_label(on_dev, "word alignment only"), choices.extract.is_none())}
                            {option("word", "word alignment only", choices.extract == Some(ExtractMethod::Word))}
                            {option("dirc", "DirC: + gold sub-tree pairs", choices.extract == Some(ExtractMethod::DirC))}
                            {option("ewos", "EWoS: word or sub-tree", choices.extract == Some(ExtractMethod::EWoS))}
                        </select>
                    </div>
                    <div class="form-row">
                        <label for="mt-reading">{"Structure reading"}</label>
                        <select id="mt-reading" onchange={on_reading} disabled={choices.system != SystemKind::Ms} aria-describedby="mt-reading-help">
                            {option("", &open_label(on_dev, "paper"), choices.reading.is_none())}
                            {option("paper", "paper: relative frequencies (§3.2)", choices.reading.is_some_and(|r| r.rm_estimate == RmEstimate::Paper))}
                            {option("discount", "discount: h1/h2 discounted to coarse RM pairs", choices.reading.is_some_and(|r| r.rm_estimate == RmEstimate::Discount))}
                        </select>
                        <span id="mt-reading-help" class="hint">{"--ms-reading (MS only)"}</span>
                    </div>
                    <div class="form-row">
                        <label for="mt-word-model">{"Word model"}</label>
                        <select id="mt-word-model" onchange={on_word_model} aria-describedby="mt-word-model-help">
                            {option("", &open_label(on_dev, "fast-align"), choices.word_model.is_none())}
                            {option("fast-align", "fast-align (IBM1 + IBM2)", choices.word_model == Some(WordModel::FastAlign))}
                            {option("hmm", "hmm (IBM1 + IBM2 + HMM)", choices.word_model == Some(WordModel::Hmm))}
                        </select>
                        <span id="mt-word-model-help" class="hint">{"--word-model"}</span>
                    </div>
                    <p class="hint">{if on_dev {
                            "As `treelink mt-train --train A --dev B`: word alignment trained in the engine on both; every configuration left open is trained, its weights tuned on the dev pairs (PRO), and the best on dev kept. "
                        } else {
                            "As `treelink mt-train` without --dev: word alignment trained in the engine, untuned default weights. "
                        }}
                        {match &state.lm {
                            Some(name) => format!("Language model: the uploaded {name}."),
                            None => "Language model: trained on the pairs' target sentences (or load an ARPA file in the Data panel).".into(),
                        }}</p>
                    <div class="buttons">
                        <button id="mt-train" type="button" class="primary" onclick={on_train}
                            disabled={busy || (needs_gold && !has_gold) || state.dev.is_err()}>
                            {"Train"}</button>
                        <button id="mt-download" type="button" onclick={on_download} disabled={mt.held.is_none()}>{"Download the model (.json)"}</button>
                    </div>
                    if needs_gold && !has_gold {
                        <p class="hint">{"DirC and EWoS need sub-tree links: load gold links."}</p>
                    }
                    {model_summary("mt-summary", "Translation model: ", &mt.held, "No translation model yet: train one here (under a minute on the sample), or load a model file from `treelink mt-train` in the Data panel.")}
                    <JobStatus kinds={&[JobKind::TrainMt, JobKind::TranslateAll][..]} job={props.job} />
                </div>
                <div class="translate-input">
                    <div class="buttons">
                        <button id="translate-pair" type="button" class="primary" onclick={on_translate_pair}
                            disabled={!can_translate || state.corpus.is_empty()}>
                            {format!("Translate pair {}", state.pair.number())}</button>
                        <span class="hint">{"the workbench's pair; its target sentence is the reference"}</span>
                    </div>
                    <div class="buttons">
                        <button id="translate-all" type="button" onclick={on_translate_all}
                            disabled={!can_translate || busy || state.corpus.is_empty()}>
                            {format!("Translate all {} pairs (corpus BLEU)", state.corpus.len())}</button>
                    </div>
                    <label for="mt-input">{"Or paste a bracketed source tree:"}</label>
                    <textarea id="mt-input" rows="3" spellcheck="false" value={mt.input.clone()} oninput={on_input}
                        placeholder="(S (NP (ART die) (NN Katze)) (VVFIN schläft))"
                        aria-invalid={mt.input_error.is_some().to_string()} aria-describedby="mt-input-error" />
                    if let Some(e) = &mt.input_error {
                        <p id="mt-input-error" class="error" role="alert">{"✗ "}{e}</p>
                    }
                    <div class="buttons">
                        <button id="translate-pasted" type="button" onclick={on_translate_pasted}
                            disabled={!can_translate || mt.input.trim().is_empty()}>{"Translate the pasted tree"}</button>
                    </div>
                    if mt.translating {
                        <p id="mt-busy" class="hint" role="status">{"Translating in the worker…"}</p>
                    }
                    {note}
                </div>
            </div>
            if let Some(c) = &mt.all {
                {corpus_view(c, props)}
            }
            if let Some(t) = &mt.result {
                {result_view(t.clone(), props.export)}
            }
        </section>
    }
}

/// Every pair's translation with corpus and sentence BLEU; a pair's number
/// opens its derivation.
fn corpus_view(c: &CorpusTranslation, props: &TranslateProps) -> Html {
    let state = &props.view;
    let (select, translate) = (props.select, props.translate);
    let rows = c.hyps.iter().zip(&c.sentence_bleu).zip(PairIndex::all(c.hyps.len())).map(|((hyp, bleu), k)| {
        let onclick = Callback::from(move |_: MouseEvent| {
            select.emit(SelectAction::SelectPair(k));
            translate.emit(TranslateAction::TranslatePair(k));
        });
        let reference = state.corpus.pair(k).map_or(String::new(), |p| p.target.words().join(" "));
        html! {
            <tr class={classes!((k == state.pair).then_some("current"))}>
                <td><button type="button" class="link-button" {onclick} title="Show this pair's derivation">{k.to_string()}</button></td>
                <td>{format!("{bleu:.2}")}</td>
                <td class="text words">{hyp.join(" ")}</td>
                <td class="text words">{reference}</td>
            </tr>
        }
    });
    html! {
        <div id="mt-corpus" class="mt-corpus">
            <h3>{format!("All {} pairs ({})", c.hyps.len(), c.model)}</h3>
            <p id="mt-corpus-bleu" data-bleu={format!("{:.2}", c.bleu.score)}><strong>{"Corpus "}</strong>{c.bleu.to_string()}</p>
            if c.trained_on_these {
                {training_data_warning("mt-corpus-caution")}
            }
            <details>
                <summary>{"Every pair's translation and sentence BLEU"}</summary>
                <div class="table-scroll" tabindex="0" role="region" aria-label="Every pair's translation">
                    <table id="mt-corpus-table">
                        <thead><tr><th scope="col">{"pair"}</th><th scope="col">{"BLEU"}</th><th scope="col">{"translation"}</th><th scope="col">{"reference"}</th></tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            </details>
        </div>
    }
}

/// What each kind of treated unknown word means (the legend).
fn treatment_meaning(name: &str) -> &'static str {
    match name {
        "passed-through" => "a number or punctuation, copied",
        "lexicon" => "a training word without a phrase pair, translated by the word lexicon",
        "case" => "looked up in another casing",
        "stem" => "looked up as a known word with the same stem",
        "split" => "a compound split into known parts, each translated (Koehn & Knight 2003)",
        "in-phrase" => "no translation of its own, but translated inside a longer phrase pair",
        _ => "unknown, copied as it is",
    }
}

/// A treated word's mark: its note's index, the class of what happened to
/// it (`unk-KIND`) and what was done, in words.
struct Mark {
    note: usize,
    kind: &'static str,
    title: String,
}

/// Words separated by spaces, those with a mark in a `mark` element of
/// the class `unk unk-KIND` titled with what was done, the others titled
/// with the rule that translated them when `rule_of` knows one (text,
/// never markup).
fn marked_words(
    words: &[String],
    mark_of: impl Fn(usize) -> Option<Mark>,
    rule_of: impl Fn(usize) -> Option<String>,
) -> Html {
    let items = words.iter().enumerate().map(|(i, w)| {
        let sep = if i > 0 { " " } else { "" };
        match (mark_of(i), rule_of(i)) {
            (Some(m), _) => html! {
                <>{sep}<mark class={classes!("unk", format!("unk-{}", m.kind))} data-note={m.note.to_string()} title={m.title}>{w.clone()}</mark></>
            },
            (None, Some(title)) => html! { <>{sep}<span class="rule" {title}>{w.clone()}</span></> },
            (None, None) => html! { <>{sep}{w.clone()}</> },
        }
    });
    html! { <>{ for items }</> }
}

/// The rule of the derivation over source word `i`, if any.
fn rule_at(v: &crate::app::translation::TranslationView, i: usize) -> Option<&WordRule> {
    v.rules.get(i).and_then(Option::as_ref)
}

/// The source words the phrase table did not know: each with what happened
/// to it under the rule that covers it (a word is unknown only if that
/// rule copies it) and the words of the translation it became, and a
/// legend of the marks.
fn unknown_words(t: &Translated) -> Html {
    let v = &t.view;
    if v.source_notes.is_empty() {
        return html! {};
    }
    let mut kinds: Vec<&'static str> = v.source_notes.iter().map(|n| n.outcome(rule_at(v, n.word)).name()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let legend = kinds.iter().map(|k| {
        html! { <li><mark class={classes!("unk", format!("unk-{k}"))}>{k.replace('-', " ")}</mark>{format!(": {}", treatment_meaning(k))}</li> }
    });
    let rows = v.source_notes.iter().enumerate().map(|(k, n)| {
        let became: Vec<&str> =
            v.words.iter().zip(&v.provenance).filter(|(_, p)| **p == Some(k)).map(|(w, _)| w.as_str()).collect();
        let became = if became.is_empty() { "—".to_string() } else { became.join(" ") };
        let rule = rule_at(v, n.word);
        html! {
            <tr data-kind={n.outcome(rule).name()}>
                <td class="text">{n.text.clone()}</td>
                <td>{(n.word + 1).to_string()}</td>
                <td class="text">{n.describe(rule)}</td>
                <td class="text">{became}</td>
            </tr>
        }
    });
    html! {
        <div id="mt-unknown" class="mt-unknown">
            <ul id="mt-unknown-legend" class="legend" aria-label="Marks of unknown words">{ for legend }</ul>
            <table id="mt-unknown-words">
                <caption>{"Source words without a one-word translation in the phrase table, and what happened to them (as `treelink translate --trace` prints)"}</caption>
                <thead><tr><th scope="col">{"word"}</th><th scope="col">{"position"}</th><th scope="col">{"treatment"}</th><th scope="col">{"in the translation"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The translation, the reference and the scores.
fn sentences(t: &Translated) -> Html {
    let v = &t.view;
    let score = if v.score.is_finite() { format!("{:.4}", v.score) } else { "−∞ (no translation)".into() };
    let source = t.input.source.words();
    let mark = |k: usize, n: &SourceNote| {
        let rule = rule_at(v, n.word);
        let title = format!("{} (source word {}): {}", n.text, n.word + 1, n.describe(rule));
        Mark { note: k, kind: n.outcome(rule).name(), title }
    };
    let source_mark = |i: usize| v.source_notes.iter().enumerate().find(|(_, n)| n.word == i).map(|(k, n)| mark(k, n));
    let target_mark = |i: usize| {
        let k = v.provenance.get(i).copied().flatten()?;
        v.source_notes.get(k).map(|n| mark(k, n))
    };
    let source_rule = |i: usize| {
        rule_at(v, i).map(|r| if r.copied { r.describe() } else { format!("translated by the {}", r.describe()) })
    };
    html! {
        <dl class="mt-sentences">
            <dt>{"source"}</dt><dd id="mt-src" lang="src">{marked_words(source, source_mark, source_rule)}</dd>
            <dt>{"translation"}</dt><dd id="mt-hyp" lang="trg">{marked_words(&v.words, target_mark, |_| None)}</dd>
            if let Some(r) = &t.input.reference {
                <dt>{"reference"}</dt><dd id="mt-ref" lang="trg">{r.join(" ")}</dd>
            }
            if let Some(b) = &t.bleu {
                <dt>{"sentence BLEU"}</dt>
                <dd id="mt-bleu" data-bleu={format!("{:.2}", b.score)}>{b.to_string()}
                    if t.trained_on_these {
                        {training_data_warning("mt-bleu-caution")}
                    }
                </dd>
            }
            <dt>{"model score λ·h"}</dt><dd id="mt-score">{score}</dd>
        </dl>
    }
}

fn result_view(shared: Shared<Translated>, export: Dispatch<ExportFile>) -> Html {
    let t = &*shared;
    let ms = t.view.system == SystemKind::Ms;
    html! {
        <div id="translation" class="translation" data-system={t.view.system.name()}>
            <h3>{format!("{} by the {} system ({})", capitalise(&t.input.label), t.view.system.name(), t.model)}</h3>
            {sentences(t)}
            {unknown_words(t)}
            <Derivation translated={shared.clone()} {export} />
            if ms { {rm_table(t)} } else { {phrase_table(t)} }
            {nbest_table(t)}
        </div>
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// The bounding box of the sub-trees under `roots` with their words, padded.
fn outline(tree: &Tree, layout: &TreeLayout, roots: &[NodeId], pad: f64) -> Option<Rect> {
    let rects: Vec<Rect> = roots
        .iter()
        .filter(|&&r| tree.contains(r))
        .flat_map(|&r| {
            let nodes = tree.subtree(r).map(|n| layout.nodes[n.index()]);
            let words = tree.span(r).filter_map(|w| layout.words.get(w).copied());
            nodes.chain(words)
        })
        .collect();
    let left = rects.iter().map(Rect::left).fold(f64::INFINITY, f64::min) - pad;
    let right = rects.iter().map(Rect::right).fold(f64::NEG_INFINITY, f64::max) + pad;
    let top = rects.iter().map(Rect::top).fold(f64::INFINITY, f64::min) - pad;
    let bottom = rects.iter().map(Rect::bottom).fold(f64::NEG_INFINITY, f64::max) + pad;
    (left.is_finite() && top.is_finite()).then(|| Rect {
        cx: (left + right) / 2.0,
        cy: (top + bottom) / 2.0,
        width: right - left,
        height: bottom - top,
    })
}

/// One outline per root (a union box could cover nodes outside the RM).
fn outlines(tree: &Tree, layout: &TreeLayout, steps: &[Vec<NodeId>], side: &str) -> Html {
    steps
        .iter()
        .enumerate()
        .flat_map(|(k, roots)| {
            roots.iter().enumerate().filter_map(move |(i, &r)| {
                let b = outline(tree, layout, &[r], 4.0)?;
                let c = colour(k);
                Some(html! {
                    <g class={format!("rm-outline {side}")} data-step={(k + 1).to_string()}>
                        <rect x={b.left().to_string()} y={b.top().to_string()} width={b.width.to_string()} height={b.height.to_string()}
                            rx="7" style={format!("stroke: {c}; fill: {c}")} />
                        if i == 0 {
                            // Outside the box (above it; below it in the mirrored target tree), clear of the nodes.
                            <text class="rm-number" x={(b.left() + 2.0).to_string()}
                                y={(if side == "trg" { b.bottom() + 11.0 } else { b.top() - 3.0 }).to_string()}
                                style={format!("fill: {c}")}>{(k + 1).to_string()}</text>
                        }
                    </g>
                })
            })
        })
        .collect()
}

/// A static tree (no clicks: the workbench's diagram is for that).
fn draw_tree(tree: &Tree, layout: &TreeLayout, side: &str) -> Html {
    let edges = crate::svg::tree_edges(tree, layout).into_iter().map(|(_, from, to)| {
        let (x1, y1, x2, y2) = crate::layout::Orientation::Stacked.edge(&from, &to);
        html! { <line class="edge" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    });
    let nodes = tree.node_ids().map(|n| {
        let r = layout.nodes[n.index()];
        html! {
            <g class={classes!("node", if tree.is_pos(n) { "pos" } else { "phrase" })} data-node={n.to_string()}>
                <rect x={r.left().to_string()} y={r.top().to_string()} width={r.width.to_string()} height={r.height.to_string()} rx="4" />
                <text x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{tree.label(n)}</text>
            </g>
        }
    });
    let words = tree.words().iter().zip(&layout.words).map(|(w, r)| {
        html! { <text class="word" x={r.cx.to_string()} y={(r.cy + 4.0).to_string()} text-anchor="middle">{w}</text> }
    });
    html! { <g class={format!("tree {side}")}>{ for edges }{ for nodes }{ for words }</g> }
}

/// Mean x of the words `range` of a layout.
fn words_x(layout: &TreeLayout, range: std::ops::Range<usize>) -> Option<f64> {
    let xs: Vec<f64> = range.filter_map(|w| layout.words.get(w).map(|r| r.cx)).collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

#[derive(Properties, PartialEq)]
struct DerivationProps {
    translated: Shared<Translated>,
    export: Dispatch<ExportFile>,
}

/// The source tree with its RMs (or phrases) outlined and, for the MS
/// system, the target SMS mirrored below with a link per RM pair; zoomed
/// and fitted as the pair diagram is ([`super::zoom`]), and presented
/// alone, larger, on the whole screen.
#[function_component(Derivation)]
fn derivation(props: &DerivationProps) -> Html {
    let (t, export) = (&*props.translated, props.export);
    let style = Style::default();
    let source = &t.input.source;
    let v = &t.view;
    let pos: Vec<NodeId> = source.node_ids().filter(|&n| source.is_pos(n)).collect();
    // Per step: its source span, the source nodes to outline, its number of target words, a title.
    type Step = ((usize, usize), Vec<NodeId>, usize, String);
    let (steps, target, caption): (Vec<Step>, _, &str) = if v.system == SystemKind::Ms {
        (
            v.steps
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let title = format!("RM pair {}: {} → {}", k + 1, s.source_rm, s.target_rm);
                    (s.source, s.source_roots.clone(), s.target.len(), title)
                })
                .collect(),
            (!v.steps.is_empty()).then(|| target_sms_tree(&v.steps).map_err(|e| e.to_string())),
            "Source RMs outlined and numbered in target order; below, the target SMS; each link joins a source RM to the target RM it became. The target tags are the rules' (each RM pair's target side), set over the words it made in order: what the model assumed, not a parse of the translation (a copied word shows the tag its rule gave).",
        )
    } else {
        (
            v.phrases
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    let roots = (p.source.0..p.source.1).filter_map(|w| pos.get(w).copied()).collect();
                    let title =
                        format!("phrase pair {}: {} → {}", k + 1, span_words(source, p.source), p.target.join(" "));
                    (p.source, roots, p.target.len(), title)
                })
                .collect(),
            target_phrase_tree(&v.phrases).map(Ok),
            "Source phrases outlined and numbered in target order; below, the translation, each word under its phrase's number (the phrase-based system has no target structure); each link joins a source phrase to its translation.",
        )
    };
    let source_roots: Vec<Vec<NodeId>> = steps.iter().map(|s| s.1.clone()).collect();
    let m = style.margin;
    let (w, h, drawing) = match &target {
        Some(Ok(sms)) => {
            let layout = layout_pair(source, &sms.tree, &style);
            // A link per step, between the words of its source span and of its target words.
            let mut offset = 0;
            let links: Html = steps
                .iter()
                .enumerate()
                .filter_map(|(k, (span, _, n, title))| {
                    let from = words_x(&layout.source, span.0..span.1);
                    let to = words_x(&layout.target, offset..offset + n);
                    offset += n;
                    let (x1, x2) = (from?, to?);
                    let y1 = layout.source.words.first()?.bottom() + 4.0;
                    let y2 = layout.target.words.first()?.top() - 4.0;
                    let mid = (y1 + y2) / 2.0;
                    let c = colour(k);
                    Some(html! {
                        <path class="rm-link" data-step={(k + 1).to_string()} style={format!("stroke: {c}")}
                            d={format!("M {x1} {y1} C {x1} {mid}, {x2} {mid}, {x2} {y2}")}>
                            <title>{title}</title>
                        </path>
                    })
                })
                .collect();
            (
                layout.width,
                layout.height,
                html! {
                    <>
                        {outlines(source, &layout.source, &source_roots, "src")}
                        {outlines(&sms.tree, &layout.target, &sms.roots, "trg")}
                        <g class="links">{links}</g>
                        {draw_tree(source, &layout.source, "src")}
                        {draw_tree(&sms.tree, &layout.target, "trg")}
                    </>
                },
            )
        }
        _ => {
            let layout = layout_tree(source, &style, m, m, false);
            (
                layout.width + 2.0 * m,
                layout.height + 2.0 * m,
                html! {
                    <>
                        {outlines(source, &layout, &source_roots, "src")}
                        {draw_tree(source, &layout, "src")}
                    </>
                },
            )
        }
    };
    let problem = match &target {
        Some(Err(e)) => html! { <p class="error" role="alert">{format!("The target SMS cannot be drawn: {e}")}</p> },
        _ => html! {},
    };
    let on_download = Callback::from(move |_: MouseEvent| export.emit(ExportFile::DerivationSvg));
    let presenting = use_state(|| false);
    let cap = if *presenting { PRESENT_MAX_TEXT_PX } else { FIT_MAX_TEXT_PX };
    let zoom = use_zoom((w, h), props.translated.clone(), cap, 0.0);
    let z = zoom.zoom;
    let onkeydown = {
        let (zoom, presenting) = (zoom.clone(), presenting.clone());
        Callback::from(move |e: KeyboardEvent| {
            match e.key().as_str() {
                "Escape" if *presenting => presenting.set(false),
                k if zoom.key(k) => {}
                _ => return,
            }
            e.prevent_default();
        })
    };
    let toggle = {
        let presenting = presenting.clone();
        Callback::from(move |_: MouseEvent| presenting.set(!*presenting))
    };
    {
        let scroller = zoom.scroller.clone();
        use_effect_with(*presenting, move |&on| {
            if on {
                if let Some(el) = scroller.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let (onmousedown, onmousemove, onmouseup) = zoom.pan_handlers("a, button");
    html! {
        <figure class={classes!("mt-figure", presenting.then_some("presenting"))} id="mt-figure">
            <style>{DERIVATION_CSS}</style>
            // Presenting, the title shares the tools' row and the caption is left out: the drawing gets the height.
            <div class="zoom-tools" role="toolbar" aria-label="Zoom">
                if *presenting {
                    <p class="present-title">{format!("{} — {}", capitalise(&t.input.label), t.view.system.name())}</p>
                }
                {zoom.buttons("mt-", "Fit the drawing to the box: enlarged up to a readable size, never below readable text (f)")}
                <button id="mt-present" type="button" aria-pressed={presenting.to_string()} onclick={toggle}
                    title={if *presenting { "Leave presentation mode (Esc)" } else { "The drawing alone, on the whole screen, larger" }}>
                    {if *presenting { "Leave presentation" } else { "Present" }}</button>
            </div>
            <div class="diagram-scroll" ref={zoom.scroller.clone()} tabindex="0" role="region" {onkeydown}
                {onmousedown} {onmousemove} {onmouseup}
                aria-label="The derivation's drawing: drag to pan; + and − zoom; f fits">
                <svg id="mt-diagram" class="tl-diagram" width={(w * z).to_string()} height={(h * z).to_string()} data-zoom={z.to_string()}
                    viewBox={format!("0 0 {w} {h}")} role="img" aria-label="The derivation: the source tree, its RMs or phrases, and the translation below">
                    {drawing}
                </svg>
            </div>
            <figcaption class="hint">{caption}{" Drag to pan. "}
                <button id="mt-download-svg" type="button" onclick={on_download}>{"Download the drawing (SVG)"}</button></figcaption>
            {problem}
        </figure>
    }
}

/// The source words of a half-open span.
fn span_words(tree: &Tree, span: (usize, usize)) -> String {
    tree.words().get(span.0..span.1.min(tree.words().len())).map_or(String::new(), |w| w.join(" "))
}

fn swatch(k: usize) -> Html {
    html! { <span class="step-swatch" style={format!("background: {}", colour(k))} aria-hidden="true"></span> }
}

/// The RM pairs of the derivation, in target order.
fn rm_table(t: &Translated) -> Html {
    let source = &t.input.source;
    let rows = t.view.steps.iter().enumerate().map(|(k, s)| {
        let phrases = s
            .phrases
            .iter()
            .map(|p| format!("{} → {}", span_words(source, p.source), p.target.join(" ")))
            .collect::<Vec<_>>()
            .join("; ");
        html! {
            <tr data-step={(k + 1).to_string()}>
                <td>{swatch(k)}{(k + 1).to_string()}</td>
                <td class="text words">{span_words(source, s.source)}</td>
                <td class="text"><code>{&s.source_rm}</code></td>
                <td class="text"><code>{&s.target_rm}</code></td>
                <td class="text words">{s.target.join(" ")}</td>
                <td class="text">{if s.glue { "glue (no RM pair)" } else { "RM pair" }}</td>
                <td class="text words">{phrases}</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll" tabindex="0" role="region" aria-label="The derivation's RM pairs">
            <table id="mt-derivation">
                <caption>{format!("The derivation: {} RM {}, in target order. Target SMS: ", t.view.steps.len(), if t.view.steps.len() == 1 { "pair" } else { "pairs" })}
                    <code id="mt-sms">{t.view.steps.iter().map(|s| s.target_rm.as_str()).collect::<Vec<_>>().join(" ")}</code></caption>
                <thead><tr><th scope="col">{"step"}</th><th scope="col">{"source words"}</th><th scope="col">{"source RM"}</th>
                    <th scope="col">{"target RM"}</th><th scope="col">{"target words"}</th><th scope="col">{"how"}</th><th scope="col">{"phrases inside"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The phrase pairs of the derivation, in target order.
fn phrase_table(t: &Translated) -> Html {
    let source = &t.input.source;
    let rows = t.view.phrases.iter().enumerate().map(|(k, p)| {
        html! {
            <tr data-step={(k + 1).to_string()}>
                <td>{swatch(k)}{(k + 1).to_string()}</td>
                <td class="text words">{span_words(source, p.source)}</td>
                <td class="text words">{p.target.join(" ")}</td>
                <td class="text">{if p.unknown { "copied (unknown word)" } else { "phrase pair" }}</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll" tabindex="0" role="region" aria-label="The derivation's phrase pairs">
            <table id="mt-derivation">
                <caption>{format!("The derivation: {} phrase pairs, in target order.", t.view.phrases.len())}</caption>
                <thead><tr><th scope="col">{"step"}</th><th scope="col">{"source words"}</th><th scope="col">{"target words"}</th><th scope="col">{"how"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The beam's best distinct translations with their features and weights.
fn nbest_table(t: &Translated) -> Html {
    let v = &t.view;
    let reference = t.input.reference.as_ref().map(|r| r.join(" "));
    let number = |x: f64| if x.is_finite() { format!("{x:.3}") } else { "−∞".into() };
    let head = v.feature_names.iter().map(|n| html! { <th scope="col" class="feature">{n}</th> });
    let weights = v.weights.iter().map(|w| html! { <td>{number(*w)}</td> });
    let rows = v.nbest.iter().enumerate().map(|(k, e)| {
        let hyp = e.words.join(" ");
        let bleu = reference.as_ref().map(|r| sentence_bleu(&hyp, r).score);
        // The full values (`data-value`, as `translate --nbest` prints them) behind the rounded ones.
        let features = e.features.iter().map(|f| html! { <td data-value={f.to_string()}>{number(*f)}</td> });
        html! {
            <tr>
                <td>{(k + 1).to_string()}</td>
                <td class="text words">{hyp}</td>
                <td data-value={e.score.to_string()}>{number(e.score)}</td>
                if let Some(b) = bleu { <td>{format!("{b:.2}")}</td> }
                { for features }
            </tr>
        }
    });
    let bleu_head = reference.is_some().then(|| html! { <th scope="col">{"BLEU"}</th> });
    html! {
        <div class="table-scroll" tabindex="0" role="region" aria-label="The n-best list">
            <table id="mt-nbest">
                <caption>{format!("The {} best distinct translations of the beam, with their features h and the weights λ (score = λ·h).", v.nbest.len())}</caption>
                <thead>
                    <tr><th scope="col">{"#"}</th><th scope="col">{"translation"}</th><th scope="col">{"score"}</th>{bleu_head.clone().unwrap_or_default()}{ for head }</tr>
                    <tr class="weights"><th scope="row" colspan="2">{"weight λ"}</th><td></td>
                        if bleu_head.is_some() { <td></td> }
                        { for weights }</tr>
                </thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}
