//! Every way the divinity refuses an action, by stable code.

crate::refusals! {
    /// Why the divinity refuses an action or a choice: the `code` of a
    /// [`crate::RuleError`]. protocol/DIVINITY.md lists them
    /// (`protocol/tests/refusal_doc.rs` holds the two equal).
    pub enum DivinityRefusal {
        /// The special ability is used up for this round or location.
        AbilityUsed = "ability_used",
        /// This skill moves an ally or an enemy: aim at one.
        AimAFigure = "aim_a_figure",
        /// This skill moves you: aim at a space.
        AimASpace = "aim_a_space",
        /// The ability needs a figure in your space.
        AimNeeded = "aim_needed",
        /// Recover happens once in a Rest turn.
        AlreadyRecovered = "already_recovered",
        /// The backpack holds 3 items.
        BackpackFull = "backpack_full",
        /// Aim a single-target card at someone and an area card at a space.
        BadAim = "bad_aim",
        /// Discarding the new item drops nothing else; nothing dropped to pass on.
        BadChoice = "bad_choice",
        /// A die index is not in the roll, or named twice.
        BadDice = "bad_dice",
        /// Keywords with an automatic success, or a permanent source in keywords.
        BadKeyword = "bad_keyword",
        /// Trade with another Origin that is not downed.
        BadPartner = "bad_partner",
        /// That Origin can't receive the dropped item.
        BadReceiver = "bad_receiver",
        /// The target does not fit (ability, moved Origin, DOMINATED minion's target).
        BadTarget = "bad_target",
        /// Transfer at least 1 HP, no more than you have, nor than the downed Origin's max HP.
        BadTransfer = "bad_transfer",
        /// Name each start-of-turn effect once, in the order to resolve them.
        BadTurnStartOrder = "bad_turn_start_order",
        /// A status stops this Origin acting or using cards.
        CannotAct = "cannot_act",
        /// A status stops this Origin moving.
        CannotMove = "cannot_move",
        /// A Rest turn allows one skill or item action.
        CardUsed = "card_used",
        /// Finish the challenge first.
        ChallengeUnderWay = "challenge_under_way",
        /// Source skills need a broken collar.
        CollarIntact = "collar_intact",
        /// The keyword's condition is already met for this roll.
        ConditionMet = "condition_met",
        /// An equipment deck of level 1 to the party's level.
        DeckLevel = "deck_level",
        /// The item does not fit the Origin's slots.
        DoesNotFit = "does_not_fit",
        /// A downed Origin only gains AP and slides its track.
        Downed = "downed",
        /// With an enemy on the map the round must be a Combat round.
        EnemiesPresent = "enemies_present",
        /// Recover needs a space without enemies.
        EnemyHere = "enemy_here",
        /// Only one card a round comes from a space.
        ExploredThisRound = "explored_this_round",
        /// The location is over.
        Finished = "finished",
        /// No card of this space is left.
        FullyExplored = "fully_explored",
        /// This group has already chosen this round.
        GroupChose = "group_chose",
        /// An immovable enemy can't be taunted or moved.
        Immovable = "immovable",
        /// One rune per item.
        ItemHasRune = "item_has_rune",
        /// An item waits for room (overflow): place_item first.
        ItemWaiting = "item_waiting",
        /// Never two copies of a skill.
        KnownSkill = "known_skill",
        /// Every Origin levels up first.
        LevelUpPending = "level_up_pending",
        /// Pay the entry fee first (restock, sell).
        MerchantClosed = "merchant_closed",
        /// The entry fee is paid once; restock to see more.
        MerchantOpen = "merchant_open",
        /// The card needs an equipped item with a keyword, or a keyword.
        NeedsKeyword = "needs_keyword",
        /// The skill needs an equipped weapon of a kind.
        NeedsWeapon = "needs_weapon",
        /// The Origin's special ability has no effect the engine plays.
        NoAbility = "no_ability",
        /// The item or consumable has no action.
        NoAction = "no_action",
        /// The keyword gives no automatic success on this challenge.
        NoAuto = "no_auto",
        /// No bonus die of the challenge asks for that keyword.
        NoCondition = "no_condition",
        /// Name the dice to reroll.
        NoDice = "no_dice",
        /// No DOMINATED minion is waiting for orders.
        NoDominatedTurn = "no_dominated_turn",
        /// No item is waiting for room.
        NoItemWaiting = "no_item_waiting",
        /// The Origin lacks the keyword, or no skill in hand / consumable in the backpack gives it.
        NoKeyword = "no_keyword",
        /// This Origin has no level-up to make.
        NoLevelUp = "no_level_up",
        /// The figure is already there.
        NoMove = "no_move",
        /// The new card shows no more talents.
        NoNewTalent = "no_new_talent",
        /// No roll waits for a dice reduction.
        NoReduction = "no_reduction",
        /// No reroll is available for these dice (only Source rerolls an enemy's roll).
        NoReroll = "no_reroll",
        /// No roll is waiting.
        NoRoll = "no_roll",
        /// The receiver can neither store nor equip the item; or drop another item to make room.
        NoRoom = "no_room",
        /// No minion is waiting for a route.
        NoRouteChoice = "no_route_choice",
        /// No such active aura in your space.
        NoSuchAura = "no_such_aura",
        /// The roll has no die of that colour left to remove.
        NoSuchDie = "no_such_die",
        /// No such enemy on the map.
        NoSuchEnemy = "no_such_enemy",
        /// No such Origin.
        NoSuchOrigin = "no_such_origin",
        /// No such result row on the challenge.
        NoSuchResult = "no_such_result",
        /// The route index is out of range.
        NoSuchRoute = "no_such_route",
        /// The seat is not in the match.
        NoSuchSeat = "no_such_seat",
        /// No space with that id on this map.
        NoSuchSpace = "no_such_space",
        /// The Origin doesn't have that status.
        NoSuchStatus = "no_such_status",
        /// The Origin doesn't have that talent.
        NoSuchTalent = "no_such_talent",
        /// No such figure.
        NoSuchTarget = "no_such_target",
        /// No active summon.
        NoSummon = "no_summon",
        /// No enemy is waiting for the party's choice of target.
        NoTie = "no_tie",
        /// Place_item with pass_to: only a Rest round or the interlude lets the party trade freely.
        NoTradingNow = "no_trading_now",
        /// No enemy waits for the order of its start-of-turn effects.
        NoTurnStartChoice = "no_turn_start_choice",
        /// The card is not a rune.
        NotARune = "not_a_rune",
        /// That Origin may not take the waiting item.
        NotATaker = "not_a_taker",
        /// Move one space at a time; Taunt pulls from an adjacent space.
        NotAdjacent = "not_adjacent",
        /// The round type is chosen only at the start of a round.
        NotBetweenRounds = "not_between_rounds",
        /// The Origin doesn't carry that item or rune.
        NotCarried = "not_carried",
        /// Not a Combat round, or not an Origin's Combat turn.
        NotCombat = "not_combat",
        /// The card is not a consumable.
        NotConsumable = "not_consumable",
        /// Only a downed Origin can be revived.
        NotDowned = "not_downed",
        /// The action costs more AP than the Origin has.
        NotEnoughAp = "not_enough_ap",
        /// The stash can't pay.
        NotEnoughGold = "not_enough_gold",
        /// Not enough Source.
        NotEnoughSource = "not_enough_source",
        /// Only equipment is equipped or takes a rune.
        NotEquipment = "not_equipment",
        /// The item is not equipped.
        NotEquipped = "not_equipped",
        /// Groups choose in step 2 of an Explore round.
        NotExploring = "not_exploring",
        /// The card is not in the holding area.
        NotHeld = "not_held",
        /// This card can't go to the holding area.
        NotHoldable = "not_holdable",
        /// A downed Origin explores nothing.
        NotInGroup = "not_in_group",
        /// The skill is not in hand.
        NotInHand = "not_in_hand",
        /// Only during the interlude.
        NotInterlude = "not_interlude",
        /// The party set another seat as its leader; it takes the party's decisions.
        NotLeader = "not_leader",
        /// The talent's effect is printed text the engine does not play.
        NotModelled = "not_modelled",
        /// The Merchant shows no such item.
        NotOffered = "not_offered",
        /// Cards are resolved or held in step 3 of an Explore round.
        NotResolving = "not_resolving",
        /// Not a Rest round.
        NotResting = "not_resting",
        /// The card is not waiting to be resolved.
        NotRevealed = "not_revealed",
        /// Choose one of the Origins that qualify equally.
        NotTied = "not_tied",
        /// Travel only in step 1 of an Explore round.
        NotTravelling = "not_travelling",
        /// This Origin has no say on this roll (or no challenge roll to make).
        NotYourRoll = "not_your_roll",
        /// Another Origin's turn is under way.
        NotYourTurn = "not_your_turn",
        /// No flipped challenge card waits for a result.
        NothingToChoose = "nothing_to_choose",
        /// A talent that takes back a consumable finds no card under its deck.
        NothingToRecover = "nothing_to_recover",
        /// The card can be used once per round.
        OncePerRound = "once_per_round",
        /// An ongoing talent is always on; nothing to flip.
        OngoingTalent = "ongoing_talent",
        /// A DOMINATED minion waits for its target: command first.
        OrdersPending = "orders_pending",
        /// Campaign choice: another seat already plays that Origin.
        OriginTaken = "origin_taken",
        /// Campaign choice: Origins are chosen before the first location only.
        OriginsLocked = "origins_locked",
        /// The target is beyond the card's range (or the move beyond its reach).
        OutOfRange = "out_of_range",
        /// Remove exactly the number of dice asked.
        ReductionCount = "reduction_count",
        /// An enemy's or the roller's dice reduction waits: reduce_dice first.
        ReductionPending = "reduction_pending",
        /// The respec replaces a skill or talent the Origin doesn't have.
        Respec = "respec",
        /// A Rest turn's steps come in order (L353-361): a later step was already taken.
        RestStepPassed = "rest_step_passed",
        /// An automatic success flipped the card: its Origin's choose_result first.
        ResultPending = "result_pending",
        /// Take_back: the action rolled dice, shuffled a deck or showed something (a card, a spawn, a reward, an enemy's target, the Merchant's stock, the location's end), so it stands.
        Revealed = "revealed",
        /// A roll waits: reroll or accept first.
        RollPending = "roll_pending",
        /// A minion's route waits: choose_route first.
        RoutePending = "route_pending",
        /// Neither side of the rune fits the item's slot.
        RuneDoesNotFit = "rune_does_not_fit",
        /// The skills after levelling break the level's limits (count, levels, training).
        SkillSet = "skill_set",
        /// Dropping that item makes no room for the new one.
        StillNoRoom = "still_no_room",
        /// A tactical space can't be the end of a travel (nor be explored, nor be stopped in outside combat).
        TacticalSpace = "tactical_space",
        /// An Origin can't end its turn in a tactical space with another Origin.
        TacticalSpaceTaken = "tactical_space_taken",
        /// The talent is above the Origin's level.
        TalentLevel = "talent_level",
        /// The new card unlocks a talent: choose one.
        TalentNeeded = "talent_needed",
        /// There is one tile of each talent.
        TalentTaken = "talent_taken",
        /// A once-per-location talent is already face down.
        TalentUsed = "talent_used",
        /// An enemy's target among equals waits: break_tie first.
        TiePending = "tie_pending",
        /// Revive reaches your space or an adjacent one; in combat you trade only in your space.
        TooFar = "too_far",
        /// Start_turn first.
        TurnNotStarted = "turn_not_started",
        /// An enemy's start-of-turn order waits: order_turn_start first.
        TurnStartPending = "turn_start_pending",
        /// This Origin has already had its turn (Explore, Rest or Combat) this round.
        TurnTaken = "turn_taken",
        /// Another Origin's Combat turn is under way.
        TurnUnderWay = "turn_under_way",
        /// Campaign choice: no such Origin in the catalogue.
        UnknownOrigin = "unknown_origin",
        /// No such talent.
        UnknownTalent = "unknown_talent",
        /// No unlocked path leads there.
        Unreachable = "unreachable",
        /// The Merchant never buys runes or items without a cost.
        Unsellable = "unsellable",
    }
}
