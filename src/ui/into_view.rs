//! Bringing a click's feedback into view, the one way every view does it.
//!
//! On a laptop the workbench is two columns that fit the screen: feedback
//! scrolls no further than into view (the inspector's own scroll), so the
//! page stays put. On one column (a phone, where the inspector is below the
//! diagram and the page scrolls) some feedback is read from its top.

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
}

/// Scrolls `el` (and every scrolling box around it) to `place`.
pub fn bring(el: &Element, place: Place) {
    let one_column =
        || web_sys::window().and_then(|w| w.inner_width().ok()?.as_f64()).is_some_and(|w| w <= ONE_COLUMN_PX);
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
