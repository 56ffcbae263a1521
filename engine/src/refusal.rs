//! Refusals as types: each game declares its refusal codes once, as an enum
//! ([`refusals!`]), and a [`crate::RuleError`] can only be made from one of
//! them. A code can then be neither misspelt nor drift between two rules
//! that mean the same thing, and the protocol documents are tested against
//! each enum's [`Refusal::all`] (`protocol/tests/refusal_doc.rs`).

/// A game's (or the server's) refusal vocabulary.
pub trait Refusal: Copy + 'static {
    /// The stable code clients switch on (`"not_your_turn"`).
    fn code(self) -> &'static str;
    /// What the code means, for the protocol document's table.
    fn meaning(self) -> &'static str;
    /// Every code of this vocabulary, in declaration order.
    fn all() -> &'static [Self];
}

/// Declare a refusal enum: each variant with its doc comment (what it
/// means) and its stable code.
///
/// ```
/// athlas_engine::refusals! {
///     /// Why a toy game refuses.
///     pub enum ToyRefusal {
///         /// It is another seat's turn.
///         NotYourTurn = "not_your_turn",
///     }
/// }
/// use athlas_engine::refusal::Refusal;
/// assert_eq!(ToyRefusal::NotYourTurn.code(), "not_your_turn");
/// assert_eq!(ToyRefusal::NotYourTurn.meaning(), "It is another seat's turn.");
/// ```
#[macro_export]
macro_rules! refusals {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                #[doc = $meaning:literal]
                $variant:ident = $code:literal,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $(
                #[doc = $meaning]
                $variant,
            )*
        }

        impl $crate::refusal::Refusal for $name {
            fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)*
                }
            }
            fn meaning(self) -> &'static str {
                match self {
                    $($name::$variant => $meaning.trim_ascii(),)*
                }
            }
            fn all() -> &'static [Self] {
                &[$($name::$variant,)*]
            }
        }
    };
}

crate::refusals! {
    /// Refusals of the [`crate::Ruleset`] defaults, shared by the games
    /// that keep them.
    pub enum CommonRefusal {
        /// `take_back`: this game takes nothing back.
        NoTakeBack = "no_take_back",
    }
}

#[cfg(test)]
mod tests {
    use super::Refusal;

    crate::refusals! {
        /// Two codes.
        enum Two {
            /// The first.
            First = "first",
            /// The second.
            Second = "second",
        }
    }

    #[test]
    fn codes_and_meanings_come_from_the_declaration() {
        assert_eq!(Two::all(), &[Two::First, Two::Second]);
        assert_eq!(Two::Second.code(), "second");
        assert_eq!(Two::First.meaning(), "The first.");
    }
}
