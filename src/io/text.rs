//! Small helpers shared by the line-oriented readers.

/// Whitespace-separated tokens of a line with their 1-based columns, counted
/// in characters (so errors point where an editor shows the token).
///
/// ```
/// use treelink::io::text::tokens_with_columns;
/// assert_eq!(tokens_with_columns(" ä-b  c"), vec![(2, "ä-b"), (7, "c")]);
/// ```
pub fn tokens_with_columns(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((i, column + 1)),
            (true, Some((s, col))) => {
                out.push((col, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &line[s..]));
    }
    out
}
