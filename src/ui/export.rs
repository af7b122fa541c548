//! Downloads: links in the gold format and as Stockholm TreeAligner XML
//! (with the two TigerXML treebanks it refers to), the diagram as a
//! standalone SVG and as PNG (folded as on the page), and the results as CSV. Every file is made
//! in the page (no request leaves it) by the engine's writers.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement};
use yew::prelude::*;

use super::props::Settled;

use super::state::Action;
use crate::align::explain::{curve_csv, results_csv};
use crate::corpus::Corpus;
use crate::io::links::{write_links, Link};
use crate::io::svg::drawing_svg;
use crate::io::tiger::{export_pair, TreebankName};
use crate::layout::{Drawing, Style};

thread_local! {
    /// Object URLs of recent downloads, kept alive until the browser has read them.
    static RECENT: RefCell<Vec<gloo::file::ObjectUrl>> = const { RefCell::new(Vec::new()) };
}

fn click_download(href: &str, name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = document.create_element("a").map(|e| e.unchecked_into::<HtmlAnchorElement>()) else { return };
    a.set_href(href);
    a.set_download(name);
    a.click();
}

/// Offers `text` as a file called `name`.
pub fn download_text(name: &str, text: &str, mime: &str) {
    offer(gloo::file::Blob::new_with_options(text, Some(mime)), name);
}

/// Offers a file the user gave (e.g. a model) back as `name`, without reading it.
pub fn download_blob(name: &str, blob: &web_sys::Blob) {
    offer(gloo::file::Blob::from(blob.clone()), name);
}

fn offer(blob: gloo::file::Blob, name: &str) {
    let url = gloo::file::ObjectUrl::from(blob);
    click_download(&url, name);
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        r.push(url);
        let excess = r.len().saturating_sub(8);
        r.drain(..excess);
    });
}

/// Renders a standalone SVG document to PNG at `scale` and offers it as `name`.
pub fn download_png(name: String, svg: &str, width: f64, height: f64, scale: f64) {
    let Ok(img) = HtmlImageElement::new() else { return };
    let src = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(svg));
    let loaded = img.clone();
    let on_load = Closure::once_into_js(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        let Ok(canvas) = document.create_element("canvas").map(|e| e.unchecked_into::<HtmlCanvasElement>()) else {
            return;
        };
        canvas.set_width((width * scale).ceil() as u32);
        canvas.set_height((height * scale).ceil() as u32);
        let Some(ctx) =
            canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.scale(scale, scale);
        let _ = ctx.draw_image_with_html_image_element(&loaded, 0.0, 0.0);
        if let Ok(url) = canvas.to_data_url_with_type("image/png") {
            click_download(&url, &name);
        }
    });
    img.set_onload(Some(on_load.unchecked_ref()));
    img.set_src(&src);
}

/// The size a standalone SVG declares (`width="…" height="…"` of its root).
fn svg_size(svg: &str) -> (f64, f64) {
    let attr = |name: &str| {
        let key = format!(" {name}=\"");
        let start = svg.find(&key)? + key.len();
        svg[start..].split('"').next()?.parse::<f64>().ok()
    };
    (attr("width").unwrap_or(800.0), attr("height").unwrap_or(600.0))
}

/// The corpus with `links` as its gold links (what the STA export writes).
fn with_links(corpus: &Corpus, links: &[Vec<Link>]) -> Corpus {
    let mut c = corpus.clone();
    for (k, pair) in c.pairs.iter_mut().enumerate() {
        pair.gold = links.get(k).cloned().unwrap_or_default();
    }
    c
}

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub state: Settled,
    pub dispatch: Callback<Action>,
}

#[function_component(ExportPanel)]
pub fn export_panel(props: &ExportProps) -> Html {
    let state = &props.state;
    let error = use_state(|| None::<String>);
    let button = |id: &'static str, label: &str, enabled: bool, f: Box<dyn Fn()>| {
        let onclick = Callback::from(move |_: MouseEvent| f());
        html! { <button id={id} type="button" {onclick} disabled={!enabled}>{label.to_string()}</button> }
    };
    // Shared, not copied: this panel renders on every change of the state.
    let shared = state.shared_results();
    let has_student = state.teach.links.values().any(|l| !l.is_empty());

    let gold_file = {
        let r = shared.clone();
        Box::new(move || {
            if let Some(r) = &r {
                download_text("treelink-predicted.gold", &write_links(&r.predicted), "text/plain");
            }
        })
    };
    let student_file = {
        let (n, teach) = (state.corpus.len(), state.teach.links.clone());
        Box::new(move || {
            let links: Vec<Vec<Link>> = (0..n)
                .map(|k| teach.get(&k).map_or(Vec::new(), |l| l.iter().map(|&(s, t)| Link::good(s, t)).collect()))
                .collect();
            download_text("treelink-student.gold", &write_links(&links), "text/plain")
        })
    };
    let sta = |part: usize| {
        let (r, corpus, ids, error) = (shared.clone(), state.corpus.clone(), state.tiger_ids.clone(), error.clone());
        Box::new(move || {
            let Some(r) = &r else { return };
            let c = with_links(&corpus, &r.predicted);
            let source = TreebankName::new("source", "src", "treelink-source.xml");
            let target = TreebankName::new("target", "trg", "treelink-target.xml");
            match export_pair(&c, ids.as_deref().map(Vec::as_slice), &source, &target) {
                Ok(x) => {
                    let (name, text) = match part {
                        0 => ("treelink-alignment.xml", x.sta),
                        1 => ("treelink-source.xml", x.source_tiger),
                        _ => ("treelink-target.xml", x.target_tiger),
                    };
                    download_text(name, &text, "application/xml");
                    error.set(None);
                }
                Err(e) => error.set(Some(format!("cannot export: {e}"))),
            }
        }) as Box<dyn Fn()>
    };
    let pair_number = state.pair + 1;
    let diagram_svg = {
        let (pair, links) = (state.current_pair(), state.drawn_links());
        let (fold_source, fold_target) = state.folds.of(state.corpus_gen, state.pair);
        let (fold_source, fold_target) = (fold_source.clone(), fold_target.clone());
        let title = format!("{} — pair {pair_number}", state.corpus_name);
        // As the page draws it: folded sub-trees stay folded.
        move || {
            pair.as_ref().map(|p| {
                let drawing = Drawing::new(&p.source, &p.target, &fold_source, &fold_target, &Style::default());
                drawing_svg(&drawing, &links, &title)
            })
        }
    };
    let svg_file = {
        let make = diagram_svg.clone();
        Box::new(move || {
            if let Some(svg) = make() {
                download_text(&format!("treelink-pair-{pair_number}.svg"), &svg, "image/svg+xml");
            }
        })
    };
    let png_file = {
        let make = diagram_svg;
        Box::new(move || {
            if let Some(svg) = make() {
                let (w, h) = svg_size(&svg);
                download_png(format!("treelink-pair-{pair_number}.png"), &svg, w, h, 2.0);
            }
        })
    };
    let csv_file = {
        let (corpus, r) = (state.corpus.clone(), shared.clone());
        Box::new(move || {
            if let Some(r) = &r {
                download_text("treelink-results.csv", &results_csv(&corpus, &r.predicted, &r.baseline), "text/csv");
            }
        })
    };
    let curve_file = {
        let r = shared.clone();
        Box::new(move || {
            if let Some(r) = &r {
                download_text("treelink-pr-curve.csv", &curve_csv(&r.curve), "text/csv");
            }
        })
    };
    let aligned = shared.is_some();
    html! {
        <section class="panel export" id="export-panel" aria-labelledby="export-title">
            <h2 id="export-title">{"Export"}</h2>
            <div class="export-groups">
                <div role="group" aria-label="Links">
                    <h3>{"Links"}</h3>
                    {button("export-gold", "Predicted links (.gold)", aligned, gold_file)}
                    {button("export-student", "Your links (.gold)", has_student, student_file)}
                    {button("export-sta", "Predicted links (STA XML)", aligned, sta(0))}
                    {button("export-tiger-src", "Source treebank (TigerXML)", aligned, sta(1))}
                    {button("export-tiger-trg", "Target treebank (TigerXML)", aligned, sta(2))}
                    <p class="hint">{"The STA file refers to the nodes of the two TigerXML files: load all three in the Data panel to read it back."}</p>
                </div>
                <div role="group" aria-label="Diagram">
                    <h3>{"Diagram of this pair"}</h3>
                    {button("export-svg", "SVG", true, svg_file)}
                    {button("export-png", "PNG", true, png_file)}
                </div>
                <div role="group" aria-label="Results">
                    <h3>{"Results"}</h3>
                    {button("export-csv", "Per-pair P/R/F (.csv)", aligned, csv_file)}
                    {button("export-curve", "P/R curve (.csv)", aligned, curve_file)}
                </div>
            </div>
            if let Some(e) = &*error {
                <p class="error" role="alert">{e}</p>
            }
        </section>
    }
}
