//! The web page (wasm32 only): a thin Yew view over one [`State`].
//!
//! Everything the page computes comes from the engine's public API (the
//! same functions as the CLI). Views render the state and send [`Action`]s;
//! only [`State::reduce`] changes it.

mod diagram;
mod kernel_table;
mod loader;
mod state;

use yew::prelude::*;

pub use state::{Action, State};

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

#[function_component(App)]
fn app() -> Html {
    let state = use_reducer(State::with_sample);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |a: Action| state.dispatch(a))
    };
    let pair_count = state.corpus.len();
    let pair = state.current_pair();

    let nav = {
        let go = |delta: isize| {
            let dispatch = dispatch.clone();
            let current = state.pair as isize;
            Callback::from(move |_: MouseEvent| dispatch.emit(Action::SelectPair((current + delta).max(0) as usize)))
        };
        let on_number = {
            let dispatch = dispatch.clone();
            Callback::from(move |e: Event| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                if let Ok(n) = input.value().trim().parse::<usize>() {
                    dispatch.emit(Action::SelectPair(n.saturating_sub(1)));
                }
            })
        };
        let on_lambda = {
            let dispatch = dispatch.clone();
            Callback::from(move |e: Event| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                dispatch.emit(Action::SetLambda(input.value()));
            })
        };
        html! {
            <nav class="pair-nav" aria-label="Sentence pairs">
                <button id="prev-pair" onclick={go(-1)} disabled={state.pair == 0}>{"◀ Previous"}</button>
                <label>{"Pair "}
                    <input id="pair-number" type="number" min="1" max={pair_count.to_string()}
                        value={(state.pair + 1).to_string()} onchange={on_number} />
                    {format!(" of {pair_count}")}
                </label>
                <button id="next-pair" onclick={go(1)} disabled={state.pair + 1 >= pair_count}>{"Next ▶"}</button>
                <label class="lambda">{"λ (decay) "}
                    <input id="lambda" type="number" step="0.05" min="0.01" value={state.lambda_text.clone()} onchange={on_lambda} />
                </label>
                if let Some(err) = &state.lambda_error {
                    <span class="error" role="alert">{err}</span>
                }
            </nav>
        }
    };

    html! {
        <>
            <header>
                <h1>{"treelink"}</h1>
                <p class="tagline">{"Sub-tree alignment with bilingual tree kernels, in your browser."}</p>
            </header>
            <main>
                <loader::Loader state={state.clone()} dispatch={dispatch.clone()} />
                <section class="corpus" aria-label="Corpus">
                    <p id="corpus-summary">{state.corpus_summary()}</p>
                    {nav}
                    if let Some(pair) = pair {
                        <p class="sentence" lang="src"><span class="side">{"source: "}</span>{pair.source.words().join(" ")}</p>
                        <p class="sentence" lang="trg"><span class="side">{"target: "}</span>{pair.target.words().join(" ")}</p>
                        <p class="hint">{"Click a source node, then a target node, to compare that sub-tree pair with the kernels."}</p>
                        <diagram::Diagram pair={pair.clone()} selected_source={state.sel_source}
                            selected_target={state.sel_target} dispatch={dispatch.clone()} />
                        <kernel_table::KernelTable state={state.clone()} dispatch={dispatch.clone()} />
                    } else {
                        <p>{"No pairs loaded."}</p>
                    }
                </section>
            </main>
            <footer>
                <p>{"Built-in sample: the dev split (LAI sub-corpus, German–Spanish, 157 pairs) of the SQUOIA parallel treebank with gold sub-tree alignments, by the SQUOIA project (University of Zurich), used under the "}
                    <a href="sample/LICENSE">{"Apache License 2.0"}</a>{"."}</p>
                <p>{"Kernels: Sun, Zhang & Tan, “Exploring Syntactic Structural Features for Sub-Tree Alignment using Bilingual Tree Kernels”, ACL 2010."}</p>
            </footer>
        </>
    }
}
