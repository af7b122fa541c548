//! The Export panel: links in the gold format and as Stockholm TreeAligner
//! XML (with the two TigerXML treebanks it refers to), the diagram as a
//! standalone SVG and as PNG (folded as on the page), and the results as
//! CSV. Each button asks the reducer for its file ([`ExportFile`]),
//! which makes it with the engine's writers and offers it as a download
//! (an effect): no request leaves the page.

use yew::prelude::*;

use super::panels::ExportView;
use super::state::ExportFile;
use super::store::Dispatch;

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub view: ExportView,
    pub export: Dispatch<ExportFile>,
}

#[function_component(ExportPanel)]
pub fn export_panel(props: &ExportProps) -> Html {
    let view = &props.view;
    let button = |id: &'static str, label: &str, enabled: bool, file: ExportFile| {
        let export = props.export;
        let onclick = Callback::from(move |_: MouseEvent| export.emit(file));
        html! { <button id={id} type="button" {onclick} disabled={!enabled}>{label.to_string()}</button> }
    };
    let (aligned, pairs) = (view.aligned, view.pairs);
    // What the last export made (or why not), under the group of its button.
    let note = |files: &[ExportFile]| match &view.note {
        Some(n) if files.contains(&n.file) => match &n.message {
            Ok(m) => html! { <p class="status ok export-note" id="export-note" role="status">{"✓ "}{m.clone()}</p> },
            Err(m) => html! { <p class="status error export-note" id="export-note" role="alert">{"✗ "}{m.clone()}</p> },
        },
        _ => html! {},
    };
    let links = [
        ExportFile::PredictedLinks,
        ExportFile::StudentLinks,
        ExportFile::Sta,
        ExportFile::GoldSta,
        ExportFile::StudentSta,
        ExportFile::SourceTiger,
        ExportFile::TargetTiger,
    ];
    let corpus = [ExportFile::CorpusSource, ExportFile::CorpusTarget, ExportFile::CorpusGold, ExportFile::CorpusIds];
    html! {
        <section class="panel export" id="export-panel" aria-labelledby="export-title">
            <h2 id="export-title">{"Export"}</h2>
            <div class="export-groups">
                <div role="group" aria-label="Links">
                    <h3>{"Links"}</h3>
                    {button("export-gold", "Predicted links (.gold)", aligned, ExportFile::PredictedLinks)}
                    {button("export-student", "Your links (.gold)", view.has_student, ExportFile::StudentLinks)}
                    {button("export-sta", "Predicted links (STA XML)", aligned, ExportFile::Sta)}
                    {button("export-gold-sta", "Gold links (STA XML)", pairs, ExportFile::GoldSta)}
                    {button("export-student-sta", "Your links (STA XML)", view.has_student, ExportFile::StudentSta)}
                    {button("export-tiger-src", "Source treebank (TigerXML)", pairs, ExportFile::SourceTiger)}
                    {button("export-tiger-trg", "Target treebank (TigerXML)", pairs, ExportFile::TargetTiger)}
                    <p class="hint">{"The STA files refer to the nodes of the two TigerXML files: load all three in the Data panel to read them back. Pairs imported from TigerXML keep their original node ids and treebank names, so the STA files also open with the original treebanks, and the TigerXML files hold the original sentences as written."}</p>
                    {note(&links)}
                </div>
                <div role="group" aria-label="Corpus">
                    <h3>{"Pairs loaded (bracketed)"}</h3>
                    {button("export-src", "Source trees (.src)", pairs, ExportFile::CorpusSource)}
                    {button("export-trg", "Target trees (.trg)", pairs, ExportFile::CorpusTarget)}
                    {button("export-corpus-gold", "Gold links (.gold)", pairs, ExportFile::CorpusGold)}
                    {button("export-ids", "Original ids (.ids)", view.has_ids, ExportFile::CorpusIds)}
                    {note(&corpus)}
                </div>
                <div role="group" aria-label="Diagram">
                    <h3>{"Diagram of this pair"}</h3>
                    {button("export-svg", "SVG", true, ExportFile::DiagramSvg)}
                    {button("export-png", "PNG", true, ExportFile::DiagramPng)}
                    {note(&[ExportFile::DiagramSvg, ExportFile::DiagramPng])}
                </div>
                <div role="group" aria-label="Results">
                    <h3>{"Results"}</h3>
                    {button("export-csv", "Per-pair P/R/F (.csv)", aligned, ExportFile::ResultsCsv)}
                    {button("export-curve", "P/R curve (.csv)", aligned, ExportFile::CurveCsv)}
                    {note(&[ExportFile::ResultsCsv, ExportFile::CurveCsv])}
                </div>
            </div>
        </section>
    }
}
