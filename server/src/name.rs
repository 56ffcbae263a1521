//! Players' display names: chosen by each player when creating or joining
//! a match, public (spectators read them too), shown by the game's words
//! instead of "Seat N". Checked here so every screen can show one as is.

use athlas_protocol::MAX_NAME_CHARS;

use crate::refusal::{Code, Refusal};

/// Punctuation a name may hold besides letters, digits and spaces.
const PUNCTUATION: &str = "-_.,'!?&()#+";

/// A name as kept: `raw` trimmed, of 1 to [`MAX_NAME_CHARS`] characters,
/// letters, digits, single spaces and common punctuation only (no markup,
/// no control or invisible characters, nothing that looks like another
/// line of the log).
///
/// # Errors
/// `bad_name`, saying what is wrong.
pub fn display_name(raw: &str) -> Result<String, Refusal> {
    let bad = |why: String| Refusal::new(Code::BadName, why);
    // A line break or a tab is refused, not folded: a name is one line.
    if raw.chars().any(char::is_control) {
        return Err(bad("a name is one line of plain text: no line breaks, tabs or control characters".into()));
    }
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let n = name.chars().count();
    if n == 0 {
        return Err(bad("a name needs at least one letter or digit".into()));
    }
    if n > MAX_NAME_CHARS {
        return Err(bad(format!("a name has at most {MAX_NAME_CHARS} characters ({n} sent)")));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || *c == ' ' || PUNCTUATION.contains(*c))) {
        return Err(bad(format!("a name holds letters, digits, spaces and {PUNCTUATION} only, not {c:?}")));
    }
    if !name.chars().any(char::is_alphanumeric) {
        return Err(bad("a name needs at least one letter or digit".into()));
    }
    Ok(name)
}

/// An optional name from a request: `None` stays none, a blank one too
/// (a client that sends its empty field means no name).
///
/// # Errors
/// As [`display_name`].
pub fn optional(raw: Option<&str>) -> Result<Option<String>, Refusal> {
    match raw {
        Some(r) if !r.trim().is_empty() => display_name(r).map(Some),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_protocol::code;

    #[test]
    fn a_name_is_trimmed_and_limited_to_plain_characters() {
        assert_eq!(display_name("  Ada   Lovelace ").unwrap(), "Ada Lovelace");
        assert_eq!(display_name("Zoë_42 (fr)").unwrap(), "Zoë_42 (fr)");
        assert_eq!(display_name("李小龙").unwrap(), "李小龙");
        assert_eq!(display_name(&"a".repeat(MAX_NAME_CHARS)).unwrap().len(), MAX_NAME_CHARS);
        for bad in ["", "   ", "<b>x</b>", "tab\there", "a\nb", "--", "x\u{200b}y", &"a".repeat(MAX_NAME_CHARS + 1)] {
            let e = display_name(bad).unwrap_err();
            assert_eq!(e.code(), code::BAD_NAME, "{bad:?}");
        }
        assert_eq!(optional(None).unwrap(), None);
        assert_eq!(optional(Some(" ")).unwrap(), None);
    }
}
