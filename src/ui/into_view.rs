//! Bringing a click's feedback into view, the one way every view does it.
//!
//! On a laptop the workbench is two columns that fit the screen: feedback
//! scrolls no further than into view (the inspector's own scroll), so the
//! page stays put. On one column (a phone, where the inspector is below the
//! diagram and the page scrolls) some feedback is read from its top, and a
//! tap on the diagram keeps the diagram in view, its verdict said under it.

use web_sys::{Element, ScrollIntoViewOptions, ScrollLogicalPosition};

/// The width (CSS px) at and below which the workbench is one column
/// (`www/style.css`'s `@media (max-width: 1000px)`).
const ONE_COLUMN_PX: f64 = 1000.0;

/// Where an element is brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Scrolled no further than into view.
    Nearest,
    /// On one column, to the top of the screen; otherwise [`Place::Nearest`].
    TopOnOneColumn,
    /// On one column, not the element but the diagram's box with the line
    /// under it (the element's news is said there: `ui::view::tap_feedback`);
    /// otherwise [`Place::Nearest`].
    DiagramOnOneColumn,
}

/// Whether the workbench is one column (a phone): the inspector is below the diagram.
fn one_column() -> bool {
    web_sys::window().and_then(|w| w.inner_width().ok()?.as_f64()).is_some_and(|w| w <= ONE_COLUMN_PX)
}

/// Scrolls the page the least that shows the diagram's box with the line
/// under it (what a tap did): a phone student's tap never moves the
/// diagram away, and its verdict is seen with it.
fn keep_diagram_in_view() {
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let rect = |sel: &str| document.query_selector(sel).ok().flatten().map(|e| e.get_bounding_client_rect());
    let (Some(diagram), Some(line)) = (rect(".pair-column .diagram-scroll"), rect("#hover-info")) else { return };
    let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    // Down until the line is in view, but never past the diagram's top; up to the diagram's top.
    let by = if diagram.top() < 0.0 { diagram.top() } else { (line.bottom() - height).max(0.0).min(diagram.top()) };
    if by != 0.0 {
        window.scroll_by_with_x_and_y(0.0, by);
    }
}

/// Scrolls `el` (and every scrolling box around it) to `place`.
pub fn bring(el: &Element, place: Place) {
    if place == Place::DiagramOnOneColumn && one_column() {
        return keep_diagram_in_view();
    }
    let block = match place {
        Place::TopOnOneColumn if one_column() => ScrollLogicalPosition::Start,
        _ => ScrollLogicalPosition::Nearest,
    };
    let options = ScrollIntoViewOptions::new();
    options.set_block(block);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

/// [`bring`] the element of the page that `selector` finds first, if any.
pub fn bring_selected(selector: &str, place: Place) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()?.query_selector(selector).ok()?) {
        bring(&el, place);
    }
}
