package monopoly

// Refusal is the rule an illegal action breaks. Each has a stable
// snake_case code (String) for clients and a sentence for people (Rule).
// A refusal is a small integer so that checking legality, which bots do
// in loops on every turn, costs no string handling.
type Refusal uint8

// Refusals. RefusalNone: the action is legal.
const (
	RefusalNone Refusal = iota
	RefusalGameOver
	RefusalNoDice
	RefusalNotYourDecision
	RefusalNotAnAnswer
	RefusalNoSuchSquare
	RefusalNoOffer
	RefusalBankruptcyAvoidable
	RefusalFineCash
	RefusalNoJailCard
	RefusalInsufficientCash
	RefusalBidTooLow
	RefusalBidAboveCash
	RefusalLiftCash
	RefusalSealedLimitCash
	RefusalNoCounterOffer
	RefusalCounterToProposer
	RefusalNotAStreet
	RefusalNotOwner
	RefusalGroupIncomplete
	RefusalGroupMortgaged
	RefusalHasHotel
	RefusalUnevenBuilding
	RefusalNoHotelsLeft
	RefusalNoHousesLeft
	RefusalBuildCash
	RefusalNoBuildings
	RefusalUnevenSale
	RefusalAlreadyMortgaged
	RefusalSellBuildingsFirst
	RefusalNotMortgaged
	RefusalUnmortgageCash
	RefusalNoSuchPlayer
	RefusalSquareBothSides
	RefusalOfferNotOwned
	RefusalAskNotOwned
	RefusalTradeBuildings
	RefusalNegativeCash
	RefusalOfferCash
	RefusalAskCash
	RefusalOfferJailCard
	RefusalAskJailCard
	RefusalEmptyTrade
	RefusalSealedBothLimits
	RefusalSealedNoProperty
	RefusalPhaseProposals
	RefusalTurnProposals
	RefusalUnreachableSquare
	numRefusals
)

// refusals holds each refusal's code and rule, by Refusal.
var refusals = [numRefusals]struct{ code, rule string }{
	RefusalNone:                {"none", ""},
	RefusalGameOver:            {"game_over", "the game is over"},
	RefusalNoDice:              {"no_dice", "no scripted dice"},
	RefusalNotYourDecision:     {"not_your_decision", "another player decides now"},
	RefusalNotAnAnswer:         {"not_an_answer", "not an answer to the pending decision"},
	RefusalNoSuchSquare:        {"no_such_square", "no such square"},
	RefusalNoOffer:             {"no_offer", "no offer"},
	RefusalBankruptcyAvoidable: {"bankruptcy_avoidable", "selling and mortgaging would raise the debt: bankruptcy only when they cannot (7.9, 8.15)"},
	RefusalFineCash:            {"insufficient_cash_fine", "not enough cash for the fine"},
	RefusalNoJailCard:          {"no_jail_card", "no Get Out of Jail Free card from that deck"},
	RefusalInsufficientCash:    {"insufficient_cash", "you cannot pay the price (7.4)"},
	RefusalBidTooLow:           {"bid_too_low", "a bid must be at least $1 and above the high bid (8.3)"},
	RefusalBidAboveCash:        {"bid_above_cash", "a bid cannot exceed what you can pay (8.3)"},
	RefusalLiftCash:            {"insufficient_cash_lift", "not enough cash for the fee and the mortgage (7.7)"},
	RefusalSealedLimitCash:     {"sealed_limit_above_cash", "a sealed limit cannot promise more cash than you have (004)"},
	RefusalNoCounterOffer:      {"no_counter_offer", "no counter-offer: the rules allow none, or no more in this negotiation (counter_offers)"},
	RefusalCounterToProposer:   {"counter_to_proposer", "a counter-offer goes back to the player who made the offer"},
	RefusalNotAStreet:          {"not_a_street", "only streets take buildings (7.5)"},
	RefusalNotOwner:            {"not_owner", "you do not own it"},
	RefusalGroupIncomplete:     {"group_incomplete", "building needs the whole colour group (7.5)"},
	RefusalGroupMortgaged:      {"group_mortgaged", "no building while a property of the group is mortgaged (7.5)"},
	RefusalHasHotel:            {"has_hotel", "it already has a hotel (7.5)"},
	RefusalUnevenBuilding:      {"uneven_building", "houses must be built evenly (7.5)"},
	RefusalNoHotelsLeft:        {"no_hotels_left", "no hotels left in the bank (8.1)"},
	RefusalNoHousesLeft:        {"no_houses_left", "no houses left in the bank (8.1)"},
	RefusalBuildCash:           {"insufficient_cash_build", "not enough cash"},
	RefusalNoBuildings:         {"no_buildings", "it has no buildings"},
	RefusalUnevenSale:          {"uneven_sale", "buildings must be sold evenly (7.5)"},
	RefusalAlreadyMortgaged:    {"already_mortgaged", "it is already mortgaged"},
	RefusalSellBuildingsFirst:  {"sell_buildings_first", "sell the group's buildings first (7.6)"},
	RefusalNotMortgaged:        {"not_mortgaged", "it is not mortgaged"},
	RefusalUnmortgageCash:      {"insufficient_cash_unmortgage", "not enough cash for the mortgage and 10% interest (7.6)"},
	RefusalNoSuchPlayer:        {"no_such_player", "no such player to trade with"},
	RefusalSquareBothSides:     {"square_both_sides", "a square on both sides"},
	RefusalOfferNotOwned:       {"offer_not_owned", "you offer a property you do not own"},
	RefusalAskNotOwned:         {"ask_not_owned", "you ask for a property they do not own"},
	RefusalTradeBuildings:      {"trade_buildings", "buildings must be sold before a property of the group is traded (7.7)"},
	RefusalNegativeCash:        {"negative_cash", "negative cash"},
	RefusalOfferCash:           {"offer_above_cash", "you offer more cash than you have"},
	RefusalAskCash:             {"ask_above_cash", "you ask for more cash than they have"},
	RefusalOfferJailCard:       {"offer_jail_card_not_held", "you offer a jail card you do not hold"},
	RefusalAskJailCard:         {"ask_jail_card_not_held", "you ask for a jail card they do not hold"},
	RefusalEmptyTrade:          {"empty_trade", "the trade exchanges nothing"},
	RefusalSealedBothLimits:    {"sealed_both_limits", "a sealed offer gives either the most cash it pays or the least it accepts, not both (004)"},
	RefusalSealedNoProperty:    {"sealed_no_property", "a sealed deal moves at least one property (004)"},
	RefusalPhaseProposals:      {"phase_proposals_used", "no more trade proposals in this phase (trades_per_phase)"},
	RefusalTurnProposals:       {"turn_proposals_used", "no more trade proposals in this turn (trades_per_turn)"},
	RefusalUnreachableSquare:   {"unreachable_square", "not a move this roll allows: the Bus moves by either white die or by both, triples to any other square"},
}

// String returns the refusal's stable code, such as "uneven_building".
func (r Refusal) String() string { return refusalNames.of(r) }

// Rule returns the rule broken, as a sentence with the rules reference's
// section where it has one.
func (r Refusal) Rule() string {
	if r < numRefusals {
		return refusals[r].rule
	}
	return r.String()
}

// Refusals returns every refusal but RefusalNone, in order.
func Refusals() []Refusal {
	rs := make([]Refusal, 0, numRefusals-1)
	for r := RefusalNone + 1; r < numRefusals; r++ {
		rs = append(rs, r)
	}
	return rs
}

// ParseRefusal returns the refusal with the given code.
func ParseRefusal(code string) (Refusal, bool) {
	for r := range numRefusals {
		if refusals[r].code == code {
			return r, true
		}
	}
	return 0, false
}
