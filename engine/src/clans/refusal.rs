//! Why the clans engine refuses an action: every code a client may meet,
//! each with its meaning (`protocol/CLANS.md` lists them; a test holds the
//! table equal to [`ClansRefusal::all`](crate::refusal::Refusal::all)).

crate::refusals! {
    /// The clans refusal vocabulary.
    pub enum ClansRefusal {
        /// The game is over: no action is taken any more.
        GameOver = "game_over",
        /// The seat named is not one of this game's seats.
        NoSuchSeat = "no_such_seat",
        /// The seat's God has fallen or the seat resigned: it takes no further part (L7, L81).
        PlayerOut = "player_out",
        /// Every seat must first place its homebase and God (L87).
        PlacementPhase = "placement_phase",
        /// Homebases are placed only at the start of the game (L87).
        NotPlacement = "not_placement",
        /// The seat has already placed its homebase and God.
        AlreadyPlaced = "already_placed",
        /// The homebase goes on a passable tile (ground or forest) of the seat's own side (L15, L87).
        BadHomebase = "bad_homebase",
        /// The God starts 1 step from the homebase, on a passable tile of the seat's side (L15, L87, C4).
        BadGodTile = "bad_god_tile",
        /// A homebase there would cut off part of the battlefield (L61, C3).
        CutsOff = "cuts_off",
        /// No response window is open for this seat (C10).
        NoWindow = "no_window",
        /// Only the player whose turn it is may do this (L91).
        NotYourTurn = "not_your_turn",
        /// A response window is open: the asked opponent answers or passes first (C10).
        WindowOpen = "window_open",
        /// The ability is (PT) and used outside its owner's turn, or (OT) in its owner's turn, or permanent (L91, L105).
        WrongTiming = "wrong_timing",
        /// The ally has already used its (OT) action in this opponent turn (C10).
        OtUsed = "ot_used",
        /// No figure with that id stands on the field.
        NoSuchFigure = "no_such_figure",
        /// The figure named is not one of the seat's own allies.
        NotYourFigure = "not_your_figure",
        /// A newly summoned ally cannot move or act in the turn it was summoned (L93).
        JustSummoned = "just_summoned",
        /// The ally's turn is over (it acted, or another ally was used after it): it cannot come back (L11, L139).
        AllyDone = "ally_done",
        /// The ally has already acted this turn, so it cannot join a runic art (L43, L49).
        AlreadyActed = "already_acted",
        /// The ally cannot reach that tile with its remaining steps (L69, L130).
        Unreachable = "unreachable",
        /// An attack or runic art must target an enemy figure (L41, L97).
        NotAnEnemy = "not_an_enemy",
        /// The target is beyond the ally's Range (L13, L109).
        OutOfRange = "out_of_range",
        /// An ally has 2 abilities, index 0 and 1 (L5).
        NoSuchAbility = "no_such_ability",
        /// The seat has not enough SP for this (L5, L89, L99).
        NoSp = "no_sp",
        /// The seat has not enough EXP for this (L89).
        NoExp = "no_exp",
        /// The ability or item cannot be used on that figure (not in reach, not damaged, no status to cure...).
        BadTarget = "bad_target",
        /// The seat holds no such unplayed card in its stacks.
        NotInStack = "not_in_stack",
        /// A summoned ally is placed 1 step from its player's homebase (L17, L93).
        NotNextToHomebase = "not_next_to_homebase",
        /// The tile is not passable: water, mountain or off the field (L63-67).
        Impassable = "impassable",
        /// Another figure or a homebase stands on that tile: one figure per tile (C1, L19).
        Occupied = "occupied",
        /// The card is not unused equipment: only equipment is equipped or assimilated (L21, L27, L142).
        NotEquipment = "not_equipment",
        /// The figure already carries a piece of equipment: 1 per ally (L25).
        AlreadyEquipped = "already_equipped",
        /// A player assimilates at most one piece of equipment per turn (L29, L113).
        OneAssimilation = "one_assimilation",
        /// The card is not an inventory item (L31).
        NotAnItem = "not_an_item",
        /// The card is not a runic art (L41).
        NotARunicArt = "not_a_runic_art",
        /// A runic art takes two different allies of the seat (L41-43).
        Participants = "participants",
        /// Each runic art participant stands within its Range of the enemy (L43, L115).
        ArtPosition = "art_position",
        /// The two allies are not of the classes the runic art states (L43, L109).
        ArtClasses = "art_classes",
        /// The card is not a terrain effect (L51).
        NotTerrain = "not_terrain",
        /// This terrain effect is already permanent for the seat's clan (L53).
        AlreadyCast = "already_cast",
    }
}
