//! Every way the duel refuses an action, by stable code.

crate::refusals! {
    /// Why the duel refuses an action or a choice: the `code` of a
    /// [`crate::RuleError`]. protocol/DUEL.md lists them
    /// (`protocol/tests/refusal_doc.rs` holds the two equal).
    pub enum DuelRefusal {
        /// End the current unit's activation first.
        ActivationRunning = "activation_running",
        /// Create exactly the number of Alphas the options ask for.
        AlphaCount = "alpha_count",
        /// That unit has already been activated this turn.
        AlreadyActivated = "already_activated",
        /// Your creations are locked in.
        AlreadyCreated = "already_created",
        /// The checkpoint is not a moment of the current activation.
        BadCheckpoint = "bad_checkpoint",
        /// Discard between 1 and the number of cards the power allows, from the top.
        BadCount = "bad_count",
        /// A relic moves to an adjacent hex of the board.
        BadDest = "bad_dest",
        /// Directions are 0 to 5.
        BadDirection = "bad_direction",
        /// A forced movement goes between 1 hex and the power's distance.
        BadDistance = "bad_distance",
        /// A hex the Tsunami cannot add: each water hex of the body adds at most one hex next to it.
        BadGrowth = "bad_growth",
        /// Choose between the least and the most distinct hexes the power allows, among those it offers.
        BadHexes = "bad_hexes",
        /// A relic goes to an adjacent friendly non-flying unit that can hold relics.
        BadReceiver = "bad_receiver",
        /// You cast your own DIs at the current moment; only the opponent times a DI into an activation.
        BadTiming = "bad_timing",
        /// Between campaign games exactly one Alpha may be redesigned.
        CampaignRedesign = "campaign_redesign",
        /// This unit may not spend its m.
        CannotMove = "cannot_move",
        /// A card is in two Alphas; a set has one of each card.
        CardReused = "card_reused",
        /// A seat must first choose which hit unit dies.
        CasualtyPending = "casualty_pending",
        /// A cliff between a crater and a hill cannot be crossed.
        Cliff = "cliff",
        /// The target has cover: a hex between is higher than both.
        Cover = "cover",
        /// The Creation Phase is on: create your Alphas and DI stack first.
        CreationPhase = "creation_phase",
        /// Waiting for the opponent's answer to your Divine Intervention.
        DiPending = "di_pending",
        /// A Divine Intervention stack holds more cards than the options allow.
        DiStack = "di_stack",
        /// A draw offer is already on the table.
        DrawPending = "draw_pending",
        /// Earthquake needs a target on a non-plains hex.
        Earthquake = "earthquake",
        /// Each of your Alphas must have a different figure type.
        FigureTaken = "figure_taken",
        /// The game is over.
        Finished = "finished",
        /// In the first turn a player summons one unit of any cost, or up to 3 units costing 60 or less in all.
        FirstTurnLimit = "first_turn_limit",
        /// A flying unit cannot move after spending its a.
        FlewAfterA = "flew_after_a",
        /// A flying unit can be targeted only by a power of range more than 1, by a flying unit, or after it used a power on a hex or a non-flying unit in its last activation.
        FlyingTarget = "flying_target",
        /// The Alpha breaks a creation rule (the message names it).
        InvalidAlpha = "invalid_alpha",
        /// A unit summoned this turn activates from the next turn.
        JustSummoned = "just_summoned",
        /// Choose is a legal list's offer: send the chosen hexes in hexes.
        ListedChoice = "listed_choice",
        /// Choose the hex to teleport to.
        MissingDest = "missing_dest",
        /// Choose a direction 0-5 for the forced movement.
        MissingDirection = "missing_direction",
        /// This power needs a target unit.
        MissingTarget = "missing_target",
        /// This power needs a terrain to create.
        MissingTerrain = "missing_terrain",
        /// Changing level needs both m and a.
        NoA = "no_a",
        /// Activate a unit first.
        NoActivation = "no_activation",
        /// Only a unit can summon a copy.
        NoActor = "no_actor",
        /// There is no casualty to choose.
        NoCasualty = "no_casualty",
        /// The card has no single-use cube left.
        NoCube = "no_cube",
        /// Your Divine Intervention stack is empty.
        NoDi = "no_di",
        /// Your opponent has not offered a draw.
        NoDrawOffer = "no_draw_offer",
        /// The unit has already spent its m.
        NoM = "no_m",
        /// No free hex of the same level leads there.
        NoPath = "no_path",
        /// Paying would exceed the maximum of summoning points.
        NoPoints = "no_points",
        /// The activated unit holds no relic.
        NoRelic = "no_relic",
        /// No pushed unit is waiting for your relic choice.
        NoRelicChoice = "no_relic_choice",
        /// No Alpha of yours has that number.
        NoSuchAlpha = "no_such_alpha",
        /// The card has no power of that number.
        NoSuchPower = "no_such_power",
        /// No preset of that name.
        NoSuchPreset = "no_such_preset",
        /// A duel has seats 0 and 1.
        NoSuchSeat = "no_such_seat",
        /// No unit with that id is on the board.
        NoSuchUnit = "no_such_unit",
        /// That unit is not one of the hit units.
        NotACandidate = "not_a_candidate",
        /// The Creation Phase is over: no card may be added, removed or replaced.
        NotCreationPhase = "not_creation_phase",
        /// This can target only a unit you own, even if you control another.
        NotOwned = "not_owned",
        /// That hex is not one of your summoning hexes.
        NotSummoningHex = "not_summoning_hex",
        /// That hex is not water.
        NotWater = "not_water",
        /// That card is not a card of this unit's Alpha.
        NotYourCard = "not_your_card",
        /// The defender chooses which unit dies.
        NotYourChoice = "not_your_choice",
        /// A forced unit's controller decides whether it carries its relic; that unit is not yours.
        NotYourRelic = "not_your_relic",
        /// It is not your turn.
        NotYourTurn = "not_your_turn",
        /// That unit is not under your control.
        NotYourUnit = "not_your_unit",
        /// There is no Divine Intervention or response window to pass.
        NothingToPass = "nothing_to_pass",
        /// That hex already holds a unit (one unit per hex).
        Occupied = "occupied",
        /// That hex is not on the board.
        OffBoard = "off_board",
        /// Each player may cast one Divine Intervention per turn.
        OneDiPerTurn = "one_di_per_turn",
        /// After the activations you may summon one unit per turn.
        OneSummon = "one_summon",
        /// The target is farther than the power's range.
        OutOfRange = "out_of_range",
        /// A paralyzed unit may spend neither m nor a.
        Paralyzed = "paralyzed",
        /// A seat must first say whether its pushed unit carries its relic.
        RelicChoicePending = "relic_choice_pending",
        /// A relic never moves more than one hex in a turn.
        RelicMoved = "relic_moved",
        /// Waiting for the opponent's response to the activation.
        ResponseWindow = "response_window",
        /// At most three Alphas may be revealed in a game.
        RevealLimit = "reveal_limit",
        /// This unit can never move.
        Rooted = "rooted",
        /// A flying unit moves up to 2 hexes.
        TooFar = "too_far",
        /// The activated unit is no longer on the board.
        UnitDead = "unit_dead",
        /// No card of that id in the catalogue.
        UnknownCard = "unknown_card",
        /// The power targets a friendly or an enemy unit, and this one is the other.
        WrongSide = "wrong_side",
        /// The action belongs to another step of the activation (the message says which is on).
        WrongStep = "wrong_step",
    }
}
