//! Dice as data: white, blue and red six-sided dice whose faces carry hits
//! and specials (`content/divinity/dice.json`), the targeting die, pools capped
//! at 5 dice of a colour, reductions, rerolls and set faces.

use serde::{Deserialize, Serialize};

use crate::rng::GameRng;

/// At most this many dice of one colour in any single roll (L1511).
pub const MAX_PER_COLOUR: u8 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    White,
    Blue,
    Red,
}

impl Colour {
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Blue, Colour::Red];
}

/// One face of a die: how many hit icons and whether it shows a special.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    #[serde(default)]
    pub hits: u8,
    #[serde(default)]
    pub special: bool,
}

/// What the targeting die tells a minion (L383, L1620).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetingFace {
    Closest,
    Special,
}

/// The faces of every die. Kept as data because the book gives only their
/// relative strengths (white fewest hits and specials, blue most specials,
/// red most hits, L1507-1509).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceTable {
    pub white: [Face; 6],
    pub blue: [Face; 6],
    pub red: [Face; 6],
    /// Faces 1..=6 of the targeting die.
    pub targeting: [TargetingFace; 6],
}

impl DiceTable {
    pub fn faces(&self, c: Colour) -> &[Face; 6] {
        match c {
            Colour::White => &self.white,
            Colour::Blue => &self.blue,
            Colour::Red => &self.red,
        }
    }

    pub fn face(&self, die: Die) -> Face {
        self.faces(die.colour)[die.face as usize]
    }

    /// The first face of a colour with exactly these icons, for setting dice
    /// and for tests that fix results.
    pub fn find(&self, c: Colour, hits: u8, special: bool) -> Option<u8> {
        self.faces(c).iter().position(|f| f.hits == hits && f.special == special).map(|i| i as u8)
    }

    /// Sum of hit icons per colour: the book's ordering constraints.
    pub fn total_hits(&self, c: Colour) -> u32 {
        self.faces(c).iter().map(|f| f.hits as u32).sum()
    }

    pub fn total_specials(&self, c: Colour) -> u32 {
        self.faces(c).iter().filter(|f| f.special).count() as u32
    }

    /// # Errors
    /// When the faces break the book's ordering of the colours.
    pub fn validate(&self) -> Result<(), String> {
        let (wh, bh, rh) =
            (self.total_hits(Colour::White), self.total_hits(Colour::Blue), self.total_hits(Colour::Red));
        let (ws, bs, rs) =
            (self.total_specials(Colour::White), self.total_specials(Colour::Blue), self.total_specials(Colour::Red));
        if !(wh < bh && wh < rh && ws < bs && ws < rs) {
            return Err("white dice must have the fewest hits and specials".into());
        }
        if bs <= rs {
            return Err("blue dice must have the most specials".into());
        }
        if rh <= bh {
            return Err("red dice must have the most hits".into());
        }
        if !self.targeting.contains(&TargetingFace::Closest) || self.targeting[0] != TargetingFace::Closest {
            return Err("a 1 on the targeting die means the closest Origin".into());
        }
        if self.targeting[5] != TargetingFace::Special {
            return Err("a 6 on the targeting die means the special targeting rule".into());
        }
        Ok(())
    }

    /// Roll the targeting die: the face number `1..=6` and its meaning.
    pub fn roll_targeting(&self, rng: &mut GameRng) -> (u8, TargetingFace) {
        let n = rng.roll(6) as u8;
        (n, self.targeting[n as usize - 1])
    }
}

/// A die on the table: its colour and the index (0..6) of the face up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub colour: Colour,
    pub face: u8,
}

/// How many dice of each colour a roll uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Pool {
    pub white: u8,
    pub blue: u8,
    pub red: u8,
}

impl Pool {
    pub fn new(white: u8, blue: u8, red: u8) -> Self {
        Pool { white, blue, red }
    }

    pub fn of(colour: Colour, n: u8) -> Self {
        let mut p = Pool::default();
        p.add(colour, n);
        p
    }

    pub fn get(&self, c: Colour) -> u8 {
        match c {
            Colour::White => self.white,
            Colour::Blue => self.blue,
            Colour::Red => self.red,
        }
    }

    fn slot(&mut self, c: Colour) -> &mut u8 {
        match c {
            Colour::White => &mut self.white,
            Colour::Blue => &mut self.blue,
            Colour::Red => &mut self.red,
        }
    }

    pub fn add(&mut self, c: Colour, n: u8) {
        let s = self.slot(c);
        *s = s.saturating_add(n);
    }

    /// Remove one die of a colour (a dice reduction, L1515); false if none.
    pub fn reduce(&mut self, c: Colour) -> bool {
        let s = self.slot(c);
        if *s == 0 {
            return false;
        }
        *s -= 1;
        true
    }

    /// Remove `n` dice, the reducer choosing colours in the given preference
    /// order (the roller chooses for Origins, the party for enemies).
    pub fn reduce_by(&mut self, mut n: u32, preference: &[Colour]) {
        for &c in preference {
            while n > 0 && self.reduce(c) {
                n -= 1;
            }
        }
    }

    /// The pool as rolled: no more than 5 of a colour (L1511).
    pub fn capped(self) -> Pool {
        Pool {
            white: self.white.min(MAX_PER_COLOUR),
            blue: self.blue.min(MAX_PER_COLOUR),
            red: self.red.min(MAX_PER_COLOUR),
        }
    }

    pub fn total(&self) -> u32 {
        self.white as u32 + self.blue as u32 + self.red as u32
    }

    /// Roll the (capped) pool: white dice first, then blue, then red.
    pub fn roll(self, rng: &mut GameRng) -> Roll {
        let p = self.capped();
        let mut dice = Vec::with_capacity(p.total() as usize);
        for c in Colour::ALL {
            for _ in 0..p.get(c) {
                dice.push(Die { colour: c, face: rng.below(6) as u8 });
            }
        }
        Roll { dice }
    }
}

/// The dice of one roll. A roll of 0 dice is still a roll (L1525).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Roll {
    pub dice: Vec<Die>,
}

impl Roll {
    /// A roll with fixed faces (set dice, L1531; tests that fix results).
    pub fn set(dice: Vec<Die>) -> Roll {
        Roll { dice }
    }

    /// Hit icons rolled (bonus hits are the attack's business).
    pub fn hits(&self, t: &DiceTable) -> u32 {
        self.dice.iter().map(|d| t.face(*d).hits as u32).sum()
    }

    /// Dice showing a special icon.
    pub fn specials(&self, t: &DiceTable) -> u32 {
        self.dice.iter().filter(|d| t.face(**d).special).count() as u32
    }

    /// Dice that show no hit (a "miss").
    pub fn misses(&self, t: &DiceTable) -> Vec<usize> {
        (0..self.dice.len()).filter(|&i| t.face(self.dice[i]).hits == 0).collect()
    }

    /// Whether [`Self::reroll`] accepts these dice.
    ///
    /// # Errors
    /// When an index is out of range or given twice.
    pub fn check_reroll(&self, indices: &[usize]) -> Result<(), String> {
        match self.bad_die(indices) {
            Some(i) => Err(Roll::bad_die_words(i)),
            None => Ok(()),
        }
    }

    /// The first of `indices` out of range or named before, which
    /// [`Self::check_reroll`] refuses; found with nothing allocated (the
    /// legal list asks it of every subset of a roll's dice).
    pub fn bad_die(&self, indices: &[usize]) -> Option<usize> {
        // Every index before the one looked at is a distinct die, so at
        // most as many as the roll has dice are compared.
        (0..indices.len())
            .find(|&j| indices[j] >= self.dice.len() || indices[..j].contains(&indices[j]))
            .map(|j| indices[j])
    }

    /// Why die `i`, which [`Self::bad_die`] found, is refused.
    pub fn bad_die_words(i: usize) -> String {
        format!("die {i} is not a distinct die of this roll")
    }

    /// Reroll all the given dice at the same time (L1529).
    ///
    /// # Errors
    /// When an index is out of range or given twice.
    pub fn reroll(&mut self, indices: &[usize], rng: &mut GameRng) -> Result<(), String> {
        self.check_reroll(indices)?;
        for &i in indices {
            self.dice[i].face = rng.below(6) as u8;
        }
        Ok(())
    }
}
