package personality

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gopoly/gopoly/monopoly"
)

// A personality's words: for each topic a few lines to say and a few to
// think, templates whose {placeholders} are filled with the numbers of
// the decision. Which line is chosen is drawn from the player's seed (and
// never the same line twice running), so the same game has the same
// words, and only Answer draws: Decide never builds a word.

// situation is what a decision came to, as the decision engine saw it.
type situation uint8

const (
	sitNone situation = iota
	sitPass           // manage: nothing more to do (perhaps holding back from building)
	sitBuy
	sitDeclineCash  // buying would break the reserve
	sitDeclineTaste // not its kind of property, or below its hurdle
	sitDeclineMood  // the Hustler lets it go this time
	sitBid
	sitDropOut
	sitSitOut // not taking part in this auction
	sitJailRoll
	sitJailPay
	sitJailCard
	sitBuild
	sitMortgageToBuild
	sitUnmortgage
	sitPropose
	sitSale // a proposal selling a property to raise cash
	sitAccept
	sitReject
	sitRejectCash
	sitCounter     // a counter-offer (open deals with counter_offers)
	sitSealedLimit // the answer to a sealed offer: its own limit
	sitRaiseMortgage
	sitRaiseSell
	sitBankrupt
	sitKeepMortgaged
	sitLiftMortgaged
)

// facts are what a decision rested on: the numbers its words quote.
type facts struct {
	sit                 situation
	sq                  int // the square concerned; -1: none
	group               int // the colour group concerned (building)
	price, cash, after  int
	reserve             int
	amount, limit, high int // bid or cost or loan; bid limit; high bid
	rent, level, debt   int
	prob, roi           float64
	partner             int
	offer               monopoly.TradeOffer
	gain, their, need   int
	kind                int
	completes, blocks   bool
	hold                int
}

// topic is the finer subject the lines are written for.
type topic uint8

const (
	topicNone topic = iota
	topicBuy
	topicBuyComplete
	topicBuyBlock
	topicDeclineCash
	topicDeclineTaste
	topicDeclineMood
	topicBid
	topicDropOut
	topicSitOut
	topicJailRoll
	topicJailPay
	topicJailCard
	topicBuild
	topicHotel
	topicMortgageToBuild
	topicUnmortgage
	topicProposeComplete
	topicProposeSwap
	topicProposeProspect
	topicProposeRail
	topicProposeSell
	topicSale
	topicAccept
	topicReject
	topicRejectCash
	topicCounter
	topicProposeSealed
	topicSealedLimit
	topicRaiseMortgage
	topicRaiseSell
	topicBankrupt
	topicKeepMortgaged
	topicLiftMortgaged
	topicHoldCash
	topicHoldROI
	topicHoldMood
	topicChatter
	numTopics
)

var topicNames = [numTopics]string{"none", "buy", "buy_complete", "buy_block", "decline_cash", "decline_taste",
	"decline_mood", "bid", "drop_out", "sit_out", "jail_roll", "jail_pay", "jail_card", "build", "hotel",
	"mortgage_to_build", "unmortgage", "propose_complete", "propose_swap", "propose_prospect", "propose_rail",
	"propose_sell", "sale", "accept", "reject", "reject_cash", "counter", "propose_sealed", "sealed_limit", "raise_mortgage", "raise_sell", "bankrupt", "keep_mortgaged",
	"lift_mortgaged", "hold_cash", "hold_roi", "hold_mood", "chatter"}

func (t topic) String() string { return topicNames[t] }

// routine topics are spoken only now and then (the personality's
// volume); the others always get a line, if the personality has one.
var routine = [numTopics]bool{topicBid: true, topicDropOut: true, topicSitOut: true, topicJailRoll: true,
	topicRaiseMortgage: true, topicRaiseSell: true, topicKeepMortgaged: true}

// dealing topics always get words: a proposal's speech is its pitch, and
// the target answers it out loud.
var dealing = [numTopics]bool{topicProposeComplete: true, topicProposeSwap: true, topicProposeProspect: true,
	topicProposeRail: true, topicProposeSell: true, topicSale: true, topicAccept: true, topicReject: true, topicRejectCash: true,
	topicCounter: true, topicProposeSealed: true, topicSealedLimit: true}

// lineSet is what a personality may say and think on a topic.
type lineSet struct {
	say, think []string
}

// lineBook is a personality's lines, by topic.
type lineBook [numTopics]lineSet

// voice is the state of a player's words: the last line used per topic.
type voice struct {
	lastSay, lastThink [numTopics]uint8 // index+1 of the line used last
}

// topic maps the decision to the subject of its lines; topicNone: it
// says and thinks nothing (an ordinary end of a phase).
func (p *Player) topic(v monopoly.View, a monopoly.Action) topic {
	f := &p.why
	switch f.sit {
	case sitPass:
		if f.hold != 0 && v.Phase() == monopoly.PhaseAfterRoll && !v.RollsAgain() {
			return [...]topic{holdCash: topicHoldCash, holdROI: topicHoldROI, holdMood: topicHoldMood}[f.hold]
		}
		if v.Phase() == monopoly.PhaseBeforeRoll && p.talkChance(p.prof.style.chatter) {
			return topicChatter
		}
		return topicNone
	case sitBuy:
		switch {
		case f.completes:
			return topicBuyComplete
		case f.blocks:
			return topicBuyBlock
		}
		return topicBuy
	case sitDeclineCash:
		return topicDeclineCash
	case sitDeclineTaste:
		return topicDeclineTaste
	case sitDeclineMood:
		return topicDeclineMood
	case sitBid:
		return topicBid
	case sitDropOut:
		return topicDropOut
	case sitSitOut:
		return topicSitOut
	case sitJailRoll:
		return topicJailRoll
	case sitJailPay:
		return topicJailPay
	case sitJailCard:
		return topicJailCard
	case sitBuild:
		if f.level == 5 {
			return topicHotel
		}
		return topicBuild
	case sitMortgageToBuild:
		return topicMortgageToBuild
	case sitUnmortgage:
		return topicUnmortgage
	case sitPropose:
		if p.rules.DealProtocol == monopoly.DealsSealed {
			return topicProposeSealed
		}
		switch f.kind {
		case offerSwap:
			return topicProposeSwap
		case offerProspect:
			return topicProposeProspect
		case offerRail:
			return topicProposeRail
		case offerSell:
			return topicProposeSell
		}
		return topicProposeComplete
	case sitSale:
		return topicSale
	case sitAccept:
		return topicAccept
	case sitReject:
		return topicReject
	case sitRejectCash:
		return topicRejectCash
	case sitCounter:
		return topicCounter
	case sitSealedLimit:
		return topicSealedLimit
	case sitRaiseMortgage:
		return topicRaiseMortgage
	case sitRaiseSell:
		return topicRaiseSell
	case sitBankrupt:
		return topicBankrupt
	case sitKeepMortgaged:
		return topicKeepMortgaged
	case sitLiftMortgaged:
		return topicLiftMortgaged
	}
	return topicNone
}

// talkChance draws a coin from the words' own generator.
func (p *Player) talkChance(q float64) bool {
	return float64(p.talk.Uint64()>>11)/(1<<53) < q
}

// pick chooses a line of list, never the one used last on the topic.
func (p *Player) pick(last *uint8, list []string) string {
	n := uint64(len(list))
	i := p.talk.Uint64() % n
	if n > 1 && uint8(i+1) == *last {
		i = (i + 1 + p.talk.Uint64()%(n-1)) % n
	}
	*last = uint8(i + 1)
	return list[i]
}

// say builds the words of the decision just taken.
func (p *Player) say(v monopoly.View, a monopoly.Action) (speech, thought string) {
	t := p.topic(v, a)
	if t == topicNone {
		return "", ""
	}
	set := &p.prof.lines[t]
	speak := true
	switch {
	case routine[t]:
		speak = p.talkChance(p.prof.style.volume)
	case !dealing[t] && t != topicChatter && p.prof.style.major < 1:
		speak = p.talkChance(p.prof.style.major)
	}
	if len(set.say) > 0 && speak {
		speech = p.fill(v, p.pick(&p.lastSay[t], set.say))
	}
	if len(set.think) > 0 {
		thought = p.fill(v, p.pick(&p.lastThink[t], set.think))
	}
	return speech, thought
}

// money writes an amount as the table says it: $1,380.
func money(n int) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + "$" + s
}

func percent(x float64) string {
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}

// fill replaces the {placeholders} of a template with the decision's
// facts. An unknown placeholder is a bug in the lines, caught by the
// tests: it is left as it is so that it shows.
func (p *Player) fill(v monopoly.View, tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			break
		}
		b.WriteString(tmpl[:i])
		key := tmpl[i+1 : i+j]
		if s, ok := p.placeholder(v, key); ok {
			if sentenceStart(b.String()) {
				s = capitalize(s) // "Surprise! A house on ...", not "! a house"
			}
			b.WriteString(s)
		} else {
			b.WriteString(tmpl[i : i+j+1])
		}
		tmpl = tmpl[i+j+1:]
	}
	return b.String()
}

// placeholder renders one placeholder.
func (p *Player) placeholder(v monopoly.View, key string) (string, bool) {
	r := v.Rules()
	f := &p.why
	me := v.Me()
	switch key {
	case "sq":
		if f.sq >= 0 && f.sq < len(r.Squares) {
			return r.Squares[f.sq].Name, true
		}
		return "it", true
	case "group":
		return p.groupName(r), true
	case "price":
		return money(f.price), true
	case "cash":
		return money(f.cash), true
	case "after":
		return money(f.after), true
	case "reserve":
		return money(f.reserve), true
	case "amount":
		return money(f.amount), true
	case "limit":
		return money(f.limit), true
	case "high":
		return money(f.high), true
	case "rent":
		return money(f.rent), true
	case "debt":
		return money(f.debt), true
	case "cap":
		return money(p.P.BuyPriceCap), true
	case "fine":
		return money(r.JailFine), true
	case "houses":
		// What was just built, as the table says it: "house 2" reads
		// like an address.
		switch f.level {
		case 2:
			return "a second house", true
		case 3:
			return "a third house", true
		case 4:
			return "a fourth house", true
		case 5:
			return "a hotel", true
		}
		return "a house", true
	case "unowned":
		return count(f.level, "property", "properties"), true
	case "prob":
		return percent(f.prob), true
	case "roi":
		return percent(f.roi), true
	case "hurdle":
		return percent(p.P.Hurdle), true
	case "gain":
		return money(abs(f.gain)), true
	case "loss":
		return money(max(0, -f.gain)), true
	case "need":
		return money(abs(f.need)), true
	case "gap":
		return money(max(0, f.need-f.gain)), true
	case "their":
		return money(abs(f.their)), true
	case "edge":
		switch {
		case f.their >= 5:
			return money(f.their) + " in your favour", true
		case f.their > -5:
			return "dead even", true
		}
		return "a fair price", true
	case "sealed":
		// The limit of a sealed deal, as its author thinks of it.
		o := f.offer
		switch {
		case f.sit == sitSealedLimit && f.limit >= 0:
			return "at least " + money(f.limit), true
		case f.sit == sitSealedLimit:
			return "at most " + money(-f.limit), true
		case o.GiveCash > 0:
			return "paying at most " + money(int(o.GiveCash)), true
		case o.GetCash > 0:
			return "wanting at least " + money(int(o.GetCash)), true
		}
		return "no cash either way", true
	case "give", "get":
		in, out := p.sides(me)
		if key == "give" {
			return out, true
		}
		return in, true
	case "partner":
		return fmt.Sprintf("player %d", f.partner+1), true
	case "creditor":
		switch {
		case f.partner == monopoly.Bank:
			return "the bank", true
		case f.partner >= 0:
			return fmt.Sprintf("player %d", f.partner+1), true
		}
		return "the bank", true
	case "props":
		return count(bits.OnesCount64(v.OwnedMask(me)), "property", "properties"), true
	case "rails":
		n := 0
		for m := v.OwnedMask(me); m != 0; m &= m - 1 {
			if r.Squares[bits.TrailingZeros64(m)].Kind == monopoly.KindRailroad {
				n++
			}
		}
		return strconv.Itoa(n), true
	case "opp":
		return count(p.opponents(v), "opponent", "opponents"), true
	case "mortgage":
		if f.sq >= 0 {
			return money(r.Squares[f.sq].Mortgage), true
		}
	}
	return "", false
}

// count writes n things: "1 property", "3 properties".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// sentenceStart reports whether text written after done opens a
// sentence: the line's start, or after a full stop, "!" or "?".
func sentenceStart(done string) bool {
	return done == "" || strings.HasSuffix(done, ". ") || strings.HasSuffix(done, "! ") || strings.HasSuffix(done, "? ")
}

// capitalize upper-cases s's first letter if it is a lower-case ASCII
// one: the words fill in are names, numbers and plain English.
func capitalize(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (p *Player) groupName(r *monopoly.Rules) string {
	f := &p.why
	g := f.group
	if g < 0 && f.sq >= 0 && f.sq < len(r.Squares) {
		switch r.Squares[f.sq].Kind {
		case monopoly.KindRailroad:
			return "railroads"
		case monopoly.KindUtility:
			return "utilities"
		}
		g = r.Squares[f.sq].Group
	}
	if g >= 0 && g < len(r.Groups) {
		return r.Groups[g].Name
	}
	return "group"
}

// sides describes the trade in the facts from me's side: what it gets
// and what it gives.
func (p *Player) sides(me int) (in, out string) {
	o := p.why.offer
	r := p.rules
	if r.DealProtocol == monopoly.DealsSealed {
		o.GiveCash, o.GetCash = 0, 0 // sealed: the words never give a limit away
	}
	say := func(n int64) string { return money(int(n)) }
	give := r.DescribeSide(o.GiveSquares, o.GiveCash, o.GiveCards, say)
	get := r.DescribeSide(o.GetSquares, o.GetCash, o.GetCards, say)
	if int(o.To) == me {
		return give, get
	}
	return get, give
}
