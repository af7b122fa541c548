//! A drawing's zoom in its scrolling box, the same for the pair diagram
//! and the translation picture: fitted to the box when the drawing is new
//! and again whenever the box changes size (a resized window, presentation
//! mode), until zoomed by hand; enlarged up to a readable cap
//! ([`FIT_MAX_TEXT_PX`], [`PRESENT_MAX_TEXT_PX`]) and never shrunk below
//! readable text ([`crate::layout::MIN_TEXT_PX`]: a long drawing pans);
//! the zoom buttons and keys (+ − 0 f), drag to pan, and a region brought
//! wholly into view. The arithmetic is [`crate::layout`]'s.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use crate::layout::{clamp_zoom, fit_zoom, zoom_to, Rect, TOUCH_ZOOM_MIN, ZOOM_MIN};
pub use crate::layout::{FIT_MAX_TEXT_PX, PRESENT_MAX_TEXT_PX};

/// The width (CSS px) at and below which the page is laid out for a phone
/// (`www/style.css`'s `@media (max-width: 600px)`).
const PHONE_PX: f64 = 600.0;

/// The smallest zoom now: on a phone, what a finger can hit
/// ([`TOUCH_ZOOM_MIN`]); elsewhere readable text ([`ZOOM_MIN`]).
fn zoom_floor() -> f64 {
    let phone = web_sys::window().and_then(|w| w.inner_width().ok()?.as_f64()).is_some_and(|w| w <= PHONE_PX);
    if phone {
        TOUCH_ZOOM_MIN
    } else {
        ZOOM_MIN
    }
}

/// `z` in the zoom range, above [`zoom_floor`].
fn within_range(z: f64) -> f64 {
    clamp_zoom(z).max(zoom_floor())
}

/// What the zoom of one drawing needs between renders.
struct Shared {
    /// The drawing's size (drawing units) and the fit's cap on text (px).
    size: (f64, f64),
    cap: f64,
    /// Zoomed by hand since the last fit: a resized box keeps the zoom.
    manual: bool,
    /// Where to scroll once the drawing is rendered at a zoom (left, top, zoom).
    scroll_to: Option<(f64, f64, f64)>,
    /// Panning: where the drag started (pointer x, y, scroll left, top).
    drag: Option<(i32, i32, i32, i32)>,
}

/// The zoom of a drawing in its box: the scale to draw it at, the box's
/// [`NodeRef`] and what its buttons, keys and pointer do.
#[derive(Clone)]
pub struct Zoom {
    /// Drawing units to CSS px.
    pub zoom: f64,
    /// The scrolling box the drawing is in.
    pub scroller: NodeRef,
    state: UseStateHandle<f64>,
    shared: Rc<RefCell<Shared>>,
}

/// The scroll box's inner size (px).
fn box_size(scroller: &NodeRef) -> Option<(f64, f64)> {
    scroller.cast::<Element>().map(|el| (el.client_width() as f64, el.client_height() as f64))
}

/// The zoom of a `size` drawing (drawing units), fitted again when `new`
/// changes (another pair) or `cap` does, and when the box is resized
/// unless zoomed by hand since.
#[hook]
pub fn use_zoom<K: PartialEq + Clone + 'static>(size: (f64, f64), new: K, cap: f64, anchor_x: f64) -> Zoom {
    let state = use_state(|| 1.0f64);
    let scroller = use_node_ref();
    let shared = use_mut_ref(|| Shared { size, cap, manual: false, scroll_to: None, drag: None });
    {
        let mut s = shared.borrow_mut();
        (s.size, s.cap) = (size, cap);
    }
    let zoom = Zoom { zoom: *state, scroller: scroller.clone(), state, shared };
    {
        // Another drawing (or cap): fitted, from its top, with `anchor_x`
        // (drawing units: the diagram's roots) in the middle when the
        // drawing is wider than its box (0: from the left edge).
        let zoom = zoom.clone();
        use_effect_with((new, cap.to_bits()), move |_| {
            zoom.fit();
            let to = match (zoom.fitted(), box_size(&zoom.scroller)) {
                (Some(z), Some((bw, _))) => ((anchor_x * z - bw / 2.0).max(0.0), 0.0, z),
                _ => (0.0, 0.0, zoom.zoom),
            };
            zoom.shared.borrow_mut().scroll_to = Some(to);
        });
    }
    {
        // The box resized (the window, presentation mode): fitted again, unless zoomed by hand.
        let zoom = zoom.clone();
        use_effect_with((), move |_| {
            let observer = scroller.cast::<Element>().and_then(|el| {
                let zoom = zoom.clone();
                let last = Rc::new(RefCell::new(None::<(i32, i32)>));
                let on_resize = Closure::<dyn FnMut()>::new(move || {
                    let size = box_size(&zoom.scroller).map(|(w, h)| (w as i32, h as i32));
                    let changed = size != *last.borrow();
                    *last.borrow_mut() = size;
                    if changed && !zoom.shared.borrow().manual {
                        zoom.fit();
                    }
                });
                let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
                observer.observe(&el);
                Some((observer, on_resize))
            });
            move || {
                if let Some((observer, _)) = observer {
                    observer.disconnect();
                }
            }
        });
    }
    {
        let zoom = zoom.clone();
        use_effect(move || {
            // Not before the drawing is at the zoom the place was found for.
            let pending = zoom.shared.borrow_mut().scroll_to.take_if(|&mut (.., z)| z == zoom.zoom);
            if let (Some((left, top, _)), Some(el)) = (pending, zoom.scroller.cast::<Element>()) {
                el.set_scroll_left(left.round() as i32);
                el.set_scroll_top(top.round() as i32);
            }
        });
    }
    zoom
}

impl Zoom {
    /// Zoom `z` (clamped to the readable range), chosen by hand.
    pub fn set(&self, z: f64) {
        // A scroll waiting for another zoom would land later, out of place.
        self.shared.borrow_mut().scroll_to = None;
        self.shared.borrow_mut().manual = true;
        self.state.set(within_range(z));
    }

    /// Fits the drawing to its box (enlarged up to the cap, never below readable text).
    pub fn fit(&self) {
        if let Some(z) = self.fitted() {
            self.shared.borrow_mut().manual = false;
            self.state.set(z);
        }
    }

    /// The zoom that fits the drawing to its box, if it has one.
    fn fitted(&self) -> Option<f64> {
        let (size, cap) = {
            let s = self.shared.borrow();
            (s.size, s.cap)
        };
        let (bw, bh) = box_size(&self.scroller)?;
        Some(fit_zoom(size.0, size.1, bw - 4.0, bh - 4.0, cap).max(zoom_floor()))
    }

    /// Zooms to `region` (drawing units) and centres it (*Zoom to selection*).
    pub fn to_region(&self, region: &Rect) {
        if let Some((bw, bh)) = box_size(&self.scroller) {
            let (z, left, top) = zoom_to(region, bw, bh);
            self.set(z);
            self.shared.borrow_mut().scroll_to = Some((left, top, within_range(z)));
        }
    }

    /// Brings `region` (drawing units) wholly into view: scrolled to the
    /// middle of the box if it is not, and zoomed out (never below readable
    /// text) if it is larger than the box at this zoom.
    pub fn show(&self, region: &Rect) {
        let (Some(el), Some((bw, bh))) = (self.scroller.cast::<Element>(), box_size(&self.scroller)) else { return };
        let pad = 12.0;
        let fits = |z: f64| region.width * z + 2.0 * pad <= bw && region.height * z + 2.0 * pad <= bh;
        let z = if fits(self.zoom) {
            self.zoom
        } else {
            ((bw - 2.0 * pad) / region.width).min((bh - 2.0 * pad) / region.height).min(self.zoom).max(zoom_floor())
        };
        let (left, top) = (el.scroll_left() as f64, el.scroll_top() as f64);
        let inside = z == self.zoom
            && region.left() * z - pad >= left
            && region.right() * z + pad <= left + bw
            && region.top() * z - pad >= top
            && region.bottom() * z + pad <= top + bh;
        if inside {
            return;
        }
        let centre = ((region.cx * z - bw / 2.0).max(0.0), (region.cy * z - bh / 2.0).max(0.0));
        if z == self.zoom {
            el.set_scroll_left(centre.0.round() as i32);
            el.set_scroll_top(centre.1.round() as i32);
        } else {
            self.set(z);
            self.shared.borrow_mut().scroll_to = Some((centre.0, centre.1, within_range(z)));
        }
    }

    /// The zoom keys: + (or =) and − zoom, 0 is actual size, f fits.
    /// Whether the key was one of them.
    pub fn key(&self, key: &str) -> bool {
        match key {
            "+" | "=" => self.set(self.zoom * 1.25),
            "-" => self.set(self.zoom / 1.25),
            "0" => self.set(1.0),
            "f" => self.fit(),
            _ => return false,
        }
        true
    }

    /// The buttons − zoom + *Actual size* *Fit* (`fit_title` says what fit
    /// does), with ids `{prefix}zoom-out` … (one set per drawing).
    pub fn buttons(&self, prefix: &'static str, fit_title: &'static str) -> Html {
        let button = |id: &str, label: &'static str, title: &'static str, f: Callback<MouseEvent>| {
            let id = format!("{prefix}{id}");
            html! { <button id={id} type="button" title={title} aria-label={title} onclick={f}>{label}</button> }
        };
        let on = |f: fn(&Zoom)| {
            let zoom = self.clone();
            Callback::from(move |_: MouseEvent| f(&zoom))
        };
        html! {
            <>
                {button("zoom-out", "−", "Zoom out (-)", on(|z| z.set(z.zoom / 1.25)))}
                <span class="zoom-level" id={format!("{prefix}zoom-level")} title="Zoom level">{format!("{:.0}%", self.zoom * 100.0)}</span>
                {button("zoom-in", "+", "Zoom in (+)", on(|z| z.set(z.zoom * 1.25)))}
                {button("zoom-reset", "1:1", "1:1, the actual size (0)", on(|z| z.set(1.0)))}
                {button("zoom-fit", "Fit", fit_title, on(Zoom::fit))}
            </>
        }
    }

    /// Starts panning by drag, unless the pointer is on one of the
    /// drawing's items (`items`: a CSS selector); keys then go to the box.
    pub fn drag_start(&self, e: &MouseEvent, items: &str) {
        let on_item = e.target_dyn_into::<Element>().and_then(|t| t.closest(items).ok().flatten()).is_some();
        if let (false, Some(el)) = (on_item, self.scroller.cast::<web_sys::HtmlElement>()) {
            self.shared.borrow_mut().drag = Some((e.client_x(), e.client_y(), el.scroll_left(), el.scroll_top()));
            // No text selection while dragging.
            e.prevent_default();
            let _ = el.focus();
        }
    }

    pub fn drag_move(&self, e: &MouseEvent) {
        let start = self.shared.borrow().drag;
        if let (Some((x, y, left, top)), Some(el)) = (start, self.scroller.cast::<Element>()) {
            if e.buttons() & 1 == 0 {
                self.shared.borrow_mut().drag = None;
                return;
            }
            el.set_scroll_left(left - (e.client_x() - x));
            el.set_scroll_top(top - (e.client_y() - y));
        }
    }

    pub fn drag_end(&self) {
        self.shared.borrow_mut().drag = None;
    }

    /// The pointer handlers of the box: drag to pan (not on `items`).
    pub fn pan_handlers(
        &self,
        items: &'static str,
    ) -> (Callback<MouseEvent>, Callback<MouseEvent>, Callback<MouseEvent>) {
        let (a, b, c) = (self.clone(), self.clone(), self.clone());
        (
            Callback::from(move |e: MouseEvent| a.drag_start(&e, items)),
            Callback::from(move |e: MouseEvent| b.drag_move(&e)),
            Callback::from(move |_: MouseEvent| c.drag_end()),
        )
    }
}
