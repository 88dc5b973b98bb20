package personality

// The personalities' lines, after 001's speech patterns: the Shark short
// and commanding, the Professor academic and verbose, the Hustler loud and
// flattering, the Turtle terse. Placeholders ({price}, {sq}, ...) are
// filled by fill in voice.go; the tests hold every line to the known
// placeholders and every topic to the numbers its decision is about.

var sharkLines = lineBook{
	topicBuy: {
		say: []string{
			"{sq}. Mine. {price}, done.",
			"I'll take {sq} for {price}. Get used to it.",
			"Buying {sq}. {price} is nothing.",
			"{price} for {sq}? Sold. Everything on this board has my name on it.",
		},
		think: []string{
			"{sq} for {price} leaves me {after}. Thin, but every property is a weapon.",
			"Bought {sq} at {price}; {after} left. Cash sitting still earns nothing.",
			"{price} out, {after} in hand. The floor is {reserve} and I'm above it. Keep buying.",
		},
	},
	topicBuyComplete: {
		say: []string{
			"{sq} completes my {group}. {price}. Start saving your rent money.",
			"{group} monopoly. {price} well spent. Houses next turn.",
			"That's the set. {sq} for {price}. Pay up soon, all of you.",
		},
		think: []string{
			"{sq} for {price} completes {group}. {after} left: build the moment I can, mortgage the rest if I must.",
			"{group} is mine at {price}. Cash {after}. Now the houses, as fast as the rules let me.",
			"The most important buy of the game: {sq}, {price}. {after} left. Build immediately.",
		},
	},
	topicBuyBlock: {
		say: []string{
			"Not so fast. {sq} is mine for {price}.",
			"{price} for {sq}. Nobody gets the {group} while I'm at this table.",
			"{sq}. Blocked. {price} well spent.",
		},
		think: []string{
			"{sq} would have completed someone's {group}. {price} to deny them; {after} left.",
			"Bought {sq} for {price} to block the {group}. {after} in hand. Now they have to deal with me.",
		},
	},
	topicDeclineCash: {
		say: []string{
			"Not today. {sq} can wait.",
			"Pass on {sq}. For now.",
		},
		think: []string{
			"{sq} at {price} would leave me {after}, under my {reserve} floor. Even I have limits. Let it go to auction.",
			"{price} for {sq} takes me to {after}. Below {reserve}. I'll pick it up cheaper at auction, or later.",
		},
	},
	topicDeclineTaste: {
		say: []string{
			"{sq}? Not worth my time.",
			"Pass. {sq} doesn't scare anyone.",
		},
		think: []string{
			"{sq} at {price} is not worth it. Let the auction settle it.",
			"{price} for {sq} buys me nothing I need.",
		},
	},
	topicDeclineMood: {
		say: []string{
			"Not interested in {sq}.",
			"Let someone else waste {price}.",
		},
		think: []string{
			"Skip {sq} at {price}. The auction may give it to me cheaper.",
			"{sq} for {price}? Not this time.",
		},
	},
	topicBid: {
		say: []string{
			"{amount}.",
			"{amount}. Keep up.",
			"{amount} for {sq}. Anyone else want to lose money?",
			"I said {amount}. Drop out.",
		},
		think: []string{
			"Bid {amount} on {sq}; I'll go to {limit}. Push them out early.",
			"{amount} now, up to {limit} if they fight. Cash {cash}.",
			"Open hard: {amount} for {sq}. My ceiling is {limit}.",
		},
	},
	topicDropOut: {
		say: []string{
			"Take it. You overpaid.",
			"Fine. Enjoy paying {high} for that.",
		},
		think: []string{
			"{high} is past my limit of {limit} for {sq}. Let them bleed cash.",
			"Out at {high}. {sq} isn't worth more than {limit} to me.",
		},
	},
	topicSitOut: {
		say: []string{
			"I'll watch.",
			"Not bidding. Go ahead.",
		},
		think: []string{
			"Sitting this one out; {sq} isn't worth a fight at {price}.",
			"No bid on {sq}. Cash {cash} goes to better targets.",
		},
	},
	topicJailRoll: {
		say: []string{
			"I'll roll.",
			"Doubles. Watch.",
		},
		think: []string{
			"Can't leave the clean way with {cash}. Roll and hope.",
			"Rolling for doubles with {cash} in hand. Not my style to sit here.",
		},
	},
	topicJailPay: {
		say: []string{
			"{fine}. I'm out. Back to business.",
			"Here's {fine}. Jail can't hold me.",
			"Paying the {fine}. Time is money.",
		},
		think: []string{
			"{fine} to get out; {after} left. Every turn in here is a turn not buying.",
			"Pay the {fine}, {after} left. {unowned} still unowned: I need to be on the board.",
		},
	},
	topicJailCard: {
		say: []string{
			"Card. I'm out.",
			"Get Out of Jail Free. Exactly.",
		},
		think: []string{
			"Card saves me the {fine}. {unowned} still with the bank.",
			"Use the card, keep the {fine}. Cash {cash}.",
		},
	},
	topicBuild: {
		say: []string{
			"{houses} on {sq}. Rent's {rent} now.",
			"Building on {sq}. Land there and it's {rent}.",
			"Another house on {sq}. You've been warned.",
			"{sq} gets {houses}. Pay up when you land.",
		},
		think: []string{
			"{houses} on {sq} for {amount}; {after} left. Rent {rent}. Speed beats safety.",
			"Built on {sq}: {amount} out, {after} left, rent now {rent}. Squeeze the housing supply.",
			"{amount} for {houses} on {sq}. {after} in hand. If anyone lands on my {group}, I'm back in control.",
		},
	},
	topicHotel: {
		say: []string{
			"Hotel on {sq}. {rent}. Good luck.",
			"{sq} has a hotel now. That's {rent} a visit.",
		},
		think: []string{
			"Hotel on {sq} for {amount}; {after} left. {rent} a landing.",
			"{amount} for the hotel on {sq}. Rent {rent}. Let them come.",
		},
	},
	topicMortgageToBuild: {
		say: []string{
			"Mortgaging {sq}. Houses are worth more.",
			"{sq} goes to the bank. My {group} needs houses.",
		},
		think: []string{
			"Mortgage {sq} for {amount} to fund houses on {group}. Cash {after}. I'll lift it later.",
			"{amount} from {sq} buys houses on {group}. Money in the bank earns nothing.",
		},
	},
	topicUnmortgage: {
		say: []string{
			"{sq} is back in play.",
			"Lifting the mortgage on {sq}. Rent's on again.",
		},
		think: []string{
			"Lift {sq} for {amount}; {after} left. More rent on the board.",
			"{amount} to get {sq} earning again. Cash {after}.",
		},
	},
	topicProposeComplete: {
		say: []string{
			"{get} for {give}. Take it or watch me build hotels somewhere else.",
			"My offer: {give} for {get}. It expires now.",
			"You can't afford to say no. {give} for {get}.",
			"I don't need {get}. But you definitely need {give}. Final offer.",
		},
		think: []string{
			"{get} completes my {group}. Offering {give}; it's worth {gain} more than that to me.",
			"They need cash more than {get}. {give} on the table. If they refuse, I come back harder.",
			"Frame it as the only reasonable deal: {give} for {get}. I come out {gain} ahead.",
		},
	},
	topicProposeSwap: {
		say: []string{
			"Swap. {give} for {get}. We both build. I build faster.",
			"{give} for {get}. Everyone gets a monopoly. Take it.",
		},
		think: []string{
			"{get} finishes my {group}; {give} finishes one of theirs. My side is worth {gain} more. I'll outbuild them.",
			"A swap that arms us both: {give} for {get}. I have the edge by {gain}, and I build first.",
		},
	},
	topicProposeProspect: {
		say: []string{
			"{give} for {get}. Take it while I'm feeling generous.",
			"I want {get}. {give}. Yes or no.",
		},
		think: []string{
			"{get} gets me closer on the {group}. {give} is a bargain for it; {gain} in my favour.",
			"Pick up {get} for {give} before anyone else thinks of it.",
		},
	},
	topicProposeRail: {
		say: []string{
			"{give} for {get}. Quick decision.",
			"{get}. I'm paying {give}. Done?",
		},
		think: []string{
			"{get} for {give}: steady rent, {gain} in my favour.",
			"Worth {gain} more to me than {give}. Take {get}.",
		},
	},
	topicProposeSell: {
		say: []string{
			"You need {give}. I'll let it go for {get}. Once.",
			"{give} completes your set. {get}. Don't haggle.",
		},
		think: []string{
			"{give} finishes their {group}. At {get} they pay for the privilege.",
			"Sell {give} for {get}. I'll outbuild them anyway.",
		},
	},
	topicSale: {
		say: []string{
			"{give} for {get}. Cash now. Don't make me wait.",
			"I'm selling {give}. {get}. Yes or no.",
		},
		think: []string{
			"I owe {debt}. Selling {give} for {get} beats handing it to the bank at half.",
			"{debt} to pay. {give} goes for {get}; mortgaging would raise less.",
		},
	},
	topicAccept: {
		say: []string{
			"Deal. Smart move.",
			"Done. You'll regret that one.",
			"Accepted. Pleasure doing business.",
		},
		think: []string{
			"{get} for {give}: {gain} in my favour by my count. Take it before they think twice.",
			"Accept. I get {get} and give {give}. I'm {gain} up.",
		},
	},
	topicReject: {
		say: []string{
			"No. Come back with a real offer.",
			"That's an insult. No.",
			"Not a chance.",
			"You want {give} for {get}? No.",
		},
		think: []string{
			"They offer {get} for {give}. I'd need {gap} more. Not a chance. I'll wait.",
			"{get} for my {give}? Short by {gap}. They're trying to lowball me.",
			"Reject. {get} doesn't cover {give}; {gap} short.",
		},
	},
	topicRejectCash: {
		say: []string{
			"Can't spare the cash. No.",
			"No. My cash stays where it is.",
		},
		think: []string{
			"Paying would leave me {after}. Too thin even for me.",
			"{give} out of my pocket leaves {after}. No.",
		},
	},
	topicCounter: {
		say: []string{
			"Here's how it goes: {give} for {get}. Take it.",
			"Counter. {give} for {get}. Last time I say it.",
		},
		think: []string{
			"Their offer was short. My terms: {give} for {get}, {gain} my way.",
			"Counter with {give} for {get}. They'll fold.",
		},
	},
	topicProposeSealed: {
		say: []string{
			"{give} for {get}. Name your number. Make it a smart one.",
			"I want {get}. {give} on the table, and my price is sealed.",
		},
		think: []string{
			"Sealed bid on {get}: {give}, {sealed}. Midpoint settles it.",
			"{get} for {give}, {sealed}. If they're greedy, no deal.",
		},
	},
	topicSealedLimit: {
		say: []string{
			"My number's in. Don't embarrass yourself.",
			"Sealed. You know where to find me.",
		},
		think: []string{
			"They want {give} for {get}. My limit: {sealed}.",
			"Answer {sealed}, {give} for {get}. Not a dollar beyond it.",
		},
	},
	topicRaiseMortgage: {
		say: []string{
			"Fine. Mortgaging {sq}.",
			"{sq} to the bank. Temporary.",
		},
		think: []string{
			"Owe {debt} to {creditor}. Mortgage {sq} for {amount}; cash {after}.",
			"{debt} to find. {sq} raises {amount}. I'll buy it back.",
		},
	},
	topicRaiseSell: {
		say: []string{
			"Selling a house on {sq}. This isn't over.",
			"A house off {sq}. Temporary.",
		},
		think: []string{
			"{debt} owed. Selling a house on {sq} for {amount}; cash {after}. Painful.",
			"Houses back for {amount} each. I owe {debt}. Rebuild later.",
		},
	},
	topicBankrupt: {
		say: []string{
			"Enjoy it while it lasts.",
			"I'm out. You got lucky.",
		},
		think: []string{
			"{debt} owed and nothing left to sell. Overextended. It happens to sharks too.",
			"Can't cover {debt}. Cash crunch. Game over for me.",
		},
	},
	topicKeepMortgaged: {
		say: []string{
			"Keep it mortgaged. Fee paid.",
			"{sq} stays mortgaged.",
		},
		think: []string{
			"Pay the {amount} fee on {sq} and keep the cash for houses.",
			"{amount} fee, {after} left. Lifting {sq} can wait.",
		},
	},
	topicLiftMortgaged: {
		say: []string{
			"Lifting it. {sq} earns from today.",
			"{sq}, unmortgaged. Pay up when you land.",
		},
		think: []string{
			"{amount} to clear {sq} now; {after} left.",
			"Lift {sq} for {amount}. Cash {after}.",
		},
	},
	topicHoldCash: {
		think: []string{
			"Could put a house on {sq} for {amount}, but I'd drop under {reserve}. Next turn.",
			"One more house on {group} costs {amount}. Cash {cash}. Hold for one turn.",
		},
	},
	topicHoldROI: {
		think: []string{
			"A house on {sq} returns {roi} a turn. Not enough. Wait.",
			"{group} houses return {roi}. Under {hurdle}. Skip.",
		},
	},
	topicHoldMood: {
		think: []string{
			"I could build on {group} for {amount}. Not yet.",
			"{amount} a house on {sq}. Later.",
		},
	},
	topicChatter: {
		say: []string{
			"Everyone's broke but me. Funny how that works.",
			"Nice board. Shame it's mine.",
			"Who's next to pay me?",
		},
		think: []string{
			"Cash {cash}, {props}. Keep the pressure on.",
			"{props}, {cash} in hand. Find the next monopoly.",
		},
	},
}

var professorLines = lineBook{
	topicBuy: {
		say: []string{
			"{sq} at {price}. A roll ends there {prob} of the time; developed, it returns {roi} per opponent turn. I'll buy.",
			"Statistically speaking, {sq} is a sound investment at {price}: {roi} per opponent turn once built.",
			"I'll purchase {sq} for {price}. The expected return is positive; the numbers are not ambiguous.",
			"{price} for {sq}. With {opp} rolling past it, the investment pays for itself.",
		},
		think: []string{
			"{sq}: landing probability {prob}, developed yield {roi} per opponent turn, with {opp} rolling. {price} leaves {after}, above my {reserve} reserve. Buy.",
			"Purchase {sq} at {price}. Yield {roi} clears my {hurdle} hurdle; cash after {after} vs reserve {reserve}.",
			"{price} for {sq}, {after} remaining. The expected rent per dollar justifies it.",
		},
	},
	topicBuyComplete: {
		say: []string{
			"{sq} completes my {group} set for {price}. The expected value of this purchase is considerable.",
			"Completing the {group} group at {price}. I recommend you all budget for rent.",
			"{price} for {sq}, and the {group} group is complete. The probability of landing there is {prob} per roll; do the arithmetic.",
		},
		think: []string{
			"{sq} at {price} completes {group}. Cash after {after}. Developed, {roi} per opponent turn. Build where the rent per dollar is highest.",
			"The {group} monopoly for {price}. {after} left, reserve {reserve}. Now compute the building plan.",
		},
	},
	topicBuyBlock: {
		say: []string{
			"I'll buy {sq} for {price}. Leaving it to complete someone's {group} would be an unforced error.",
			"{price} for {sq}. Denying a monopoly has value too, and I have computed it.",
		},
		think: []string{
			"{sq} would complete an opponent's {group}. {price} to block; {after} left. Worth it.",
			"Blocking purchase: {sq} at {price}. Cash {after}, reserve {reserve}.",
		},
	},
	topicDeclineCash: {
		say: []string{
			"I'll decline {sq}. At {price} my cash would fall below a prudent reserve.",
			"Not at {price}. My reserve is calibrated to the worst rent on this board.",
		},
		think: []string{
			"{sq} at {price} leaves {after}, under my {reserve} reserve: the largest rent I could owe. Decline; perhaps cheaper at auction.",
			"{after} after buying {sq} at {price} would be below the {reserve} reserve. Let the auction decide.",
		},
	},
	topicDeclineTaste: {
		say: []string{
			"{sq} returns only {roi} per opponent turn when developed. I'll pass at {price}.",
			"The numbers on {sq} don't justify {price}. A roll ends there {prob} of the time; insufficient.",
			"I decline. {sq} yields below my {hurdle} hurdle.",
		},
		think: []string{
			"{sq}: {prob} per roll, yield {roi} per opponent turn < hurdle {hurdle}. {price} is better kept as cash.",
			"Decline {sq} at {price}. Expected rent per dollar is {roi} per opponent turn; the cash is worth more.",
		},
	},
	topicDeclineMood: {
		say: []string{
			"I'll decline {sq} at {price}.",
			"Let the market price {sq}.",
		},
		think: []string{
			"{sq} at {price}: an auction may be cheaper.",
			"Decline {sq} at {price}; reserve {reserve}.",
		},
	},
	topicBid: {
		say: []string{
			"I'll bid {amount}. That's within the expected value of {sq}.",
			"{amount}. My valuation is precise, not emotional.",
			"{amount} for {sq}. Statistically justified.",
			"I bid {amount}. The expected net present value supports it.",
		},
		think: []string{
			"Valuation of {sq}: {limit}. Current bid {amount}; keep bidding to the NPV and no further.",
			"Bid {amount}. Limit {limit}, reserve {reserve}.",
			"{sq} lands {prob} of rolls. Worth {limit} to me; bidding {amount}.",
		},
	},
	topicDropOut: {
		say: []string{
			"At {high}, {sq} exceeds its expected value. I withdraw.",
			"I'll stop here. {high} doesn't account for the time value of money.",
		},
		think: []string{
			"{high} exceeds my valuation of {limit} for {sq}. Withdraw; the winner overpays.",
			"Out at {high}. NPV {limit}. Let them overpay.",
		},
	},
	topicSitOut: {
		say: []string{
			"I'll abstain from this auction.",
			"No bid from me; the expected value isn't there.",
		},
		think: []string{
			"{sq} at {price} isn't worth a bid given my reserve of {reserve}.",
			"Abstain on {sq}: valuation {limit} does not cover the bid.",
		},
	},
	topicJailRoll: {
		say: []string{
			"I'll roll. A one-in-six chance of doubles, and staying here costs me nothing.",
			"Statistically, remaining in jail now is the better strategy. Rolling.",
		},
		think: []string{
			"Only {unowned} unowned: jail protects me from rent. Roll for doubles; cash {cash}.",
			"Staying in jail saves me from the developed board. Roll; {cash} in hand.",
		},
	},
	topicJailPay: {
		say: []string{
			"I'll pay the {fine}. With {unowned} unowned, time on the board has positive expected value.",
			"Paying {fine}. Mobility is worth more than that this early.",
		},
		think: []string{
			"{unowned} still unowned: leaving is worth more than the {fine}. Cash after {after}.",
			"Pay {fine}, {after} left. Early game favours movement.",
		},
	},
	topicJailCard: {
		say: []string{
			"I'll use my card. The {fine} is better kept.",
			"Card played. Efficient.",
		},
		think: []string{
			"Card instead of {fine}: {unowned} still to be bought.",
			"Use the card; {cash} stays intact.",
		},
	},
	topicBuild: {
		say: []string{
			"{houses} on {sq}. Expected return on this investment: {roi} per opponent turn.",
			"Building on {sq}: rent rises to {rent}. The landing probability there is {prob} per roll.",
			"I'll build {houses} on {sq}. The marginal rent per dollar is, frankly, excellent.",
			"{houses} on {sq} for {amount}. Rent is now {rent}; I suggest you plan your routes.",
		},
		think: []string{
			"Build plan on {group}: {roi} per opponent turn per dollar, above the {hurdle} hurdle. {houses} on {sq} for {amount}; {after} left, floor {reserve}.",
			"{sq} gets {houses}: {amount}, rent {rent}, landing {prob}. Cash {after}.",
			"Marginal yield on {group} is {roi} per opponent turn. Build {houses} on {sq} for {amount}; {after} remaining.",
		},
	},
	topicHotel: {
		say: []string{
			"A hotel on {sq}. Rent {rent}. The expected cost of visiting me has risen considerably.",
			"Hotel on {sq}: {rent} per landing at {prob} per roll. Do the arithmetic.",
		},
		think: []string{
			"Hotel on {sq} for {amount}; rent {rent}; {after} left.",
			"{group} complete with a hotel on {sq}. {amount} spent, {after} in reserve.",
		},
	},
	topicMortgageToBuild: {
		say: []string{
			"I'll mortgage {sq}; the houses on {group} yield more than it does.",
			"Reallocating capital: {sq} is mortgaged to fund {group}.",
		},
		think: []string{
			"{sq} raises {amount}. Houses on {group} earn more per dollar. Cash {after}.",
			"Mortgage {sq} for {amount}; redeploy into {group}.",
		},
	},
	topicUnmortgage: {
		say: []string{
			"Lifting the mortgage on {sq}. Idle capital is inefficient.",
			"{sq} is unmortgaged. Its expected rent resumes.",
		},
		think: []string{
			"{amount} to lift {sq}; {after} remaining, comfortably above {reserve}.",
			"Unmortgage {sq} for {amount}. Cash {after}.",
		},
	},
	topicProposeComplete: {
		say: []string{
			"A proposal: {give} for {get}. By printed values it is {edge}; the expected return is positive for both of us. Shall we proceed?",
			"I offer {give} for {get}. I have computed this carefully: it is {edge} for you, and it lets me build.",
			"{give} for {get}. The group premium is priced in. Statistically, you won't see a better offer.",
		},
		think: []string{
			"{get} completes my {group}. Offering {give}: fair by printed values, {gain} in my favour by expected rent.",
			"Proposal: {give} for {get}. My valuation says {gain} ahead; theirs should say even.",
		},
	},
	topicProposeSwap: {
		say: []string{
			"A mutually beneficial exchange: {give} for {get}. We each complete a group; the balance is {edge}.",
			"I propose {give} for {get}. Both of us build; the arithmetic is fair.",
		},
		think: []string{
			"Swap: {get} completes my {group}, {give} completes theirs. By landing frequencies my side is worth {gain} more.",
			"{give} for {get}. Both monopolies, but mine yields more per dollar: {gain} ahead.",
		},
	},
	topicProposeProspect: {
		say: []string{
			"I'd like {get}. I offer {give}, which is {edge} by printed values.",
			"Consider {give} for {get}. Fair, and the numbers favour us both.",
		},
		think: []string{
			"{get} advances my {group} position; its yield exceeds its price. {give} is fair; I gain {gain}.",
			"Offer {give} for {get}. Expected rent makes it {gain} in my favour.",
		},
	},
	topicProposeRail: {
		say: []string{
			"I'll offer {give} for {get}. A fair price, {edge}.",
			"{give} for {get}: the numbers are balanced.",
		},
		think: []string{
			"{get} for {give}: {gain} in my favour by expected rent.",
			"Propose {give} for {get}. Gain {gain}.",
		},
	},
	topicProposeSell: {
		say: []string{
			"{give} would complete your {group}. I'll part with it for {get}, which prices the group fairly.",
			"An efficient exchange: {give} for {get}. The monopoly premium is included.",
		},
		think: []string{
			"Selling {give} completes their {group}. {get} covers the rent I expect to pay there.",
			"{give} for {get}: the price exceeds the threat by my model.",
		},
	},
	topicSale: {
		say: []string{
			"I offer {give} for {get}. A fair price, and better for me than the bank's half.",
			"{give} is available for {get}. The arithmetic is in your favour.",
		},
		think: []string{
			"Owe {debt}. Selling {give} for {get} raises more than mortgaging it.",
			"Raise {debt}: sell {give} for {get} rather than mortgage at half value.",
		},
	},
	topicAccept: {
		say: []string{
			"Accepted. The expected value is positive for both of us.",
			"I accept. The numbers work.",
			"Agreed. A rational exchange.",
		},
		think: []string{
			"I receive {get} for {give}: {gain} in my favour by expected rent. Accept.",
			"Accept {get} for {give}; net {gain} by my valuation.",
		},
	},
	topicReject: {
		say: []string{
			"The net value of this trade favours you by approximately {gap}. I'll decline.",
			"Your offer doesn't account for the landing probabilities. I decline.",
			"I decline. {get} for {give} is short by {gap} on expected value.",
		},
		think: []string{
			"{get} for {give}: by expected rent I'd be {gap} short of acceptable. Reject.",
			"Offer: {get} for my {give}. Valuation says {gap} short. Decline; patience is cheaper.",
		},
	},
	topicRejectCash: {
		say: []string{
			"I decline: paying that would breach my reserve.",
			"No. My reserve exists for a reason.",
		},
		think: []string{
			"Paying {give} leaves {after}, below my trade reserve. Reject.",
			"The cash leg leaves {after}. Too thin.",
		},
	},
	topicCounter: {
		say: []string{
			"A counter-proposal: {give} for {get}. That is where the expected values balance.",
			"Let me correct the arithmetic: {give} for {get}.",
		},
		think: []string{
			"Their offer fell short. At {give} for {get} the trade clears my bar: {gain} by my valuation.",
			"Counter at {give} for {get}; it closes the gap of expected value.",
		},
	},
	topicProposeSealed: {
		say: []string{
			"I propose {give} for {get}. My cash limit is sealed; state yours and we settle at the midpoint.",
			"{give} for {get}, with a sealed limit. A midpoint settlement is efficient for both of us.",
		},
		think: []string{
			"Sealed proposal: {give} for {get}, {sealed}. Valued at {gain} in my favour at that limit.",
			"{get} for {give}, {sealed}. The midpoint rule rewards an honest limit.",
		},
	},
	topicSealedLimit: {
		say: []string{
			"My limit is submitted. It reflects the expected value precisely.",
			"I've named my price. Let the midpoint decide.",
		},
		think: []string{
			"For {give} against {get}, my limit is {sealed}: break-even by expected rent.",
			"Sealed answer: {sealed}. Exactly my valuation, not a dollar beyond.",
		},
	},
	topicRaiseMortgage: {
		say: []string{
			"I'll mortgage {sq}; its yield is the lowest in my portfolio.",
			"Mortgaging {sq}. A rational liquidation order.",
		},
		think: []string{
			"Owe {debt}. {sq} earns least per dollar: mortgage for {amount}, cash {after}.",
			"{debt} to {creditor}. Mortgage {sq} ({amount}) first: lowest yield.",
		},
	},
	topicRaiseSell: {
		say: []string{
			"Selling a house on {sq}. Regrettable, but optimal.",
			"I'll sell a house on {sq}.",
		},
		think: []string{
			"Owe {debt}. Sell a house on {sq} for {amount}; cash {after}.",
			"{debt} due. House on {sq} back to the bank for {amount}.",
		},
	},
	topicBankrupt: {
		say: []string{
			"The variance was against me. Well played.",
			"A statistically improbable outcome. I concede.",
		},
		think: []string{
			"{debt} owed, liquidation exhausted. Bankrupt.",
			"Cannot cover {debt}. The model was right; the dice weren't.",
		},
	},
	topicKeepMortgaged: {
		say: []string{
			"I'll keep {sq} mortgaged and pay the {amount} fee.",
			"Fee paid; {sq} stays mortgaged for now.",
		},
		think: []string{
			"Keep {sq} mortgaged: {amount} fee, {after} left.",
			"{amount} fee on {sq}; lifting would dip under the reserve.",
		},
	},
	topicLiftMortgaged: {
		say: []string{
			"I'll lift the mortgage on {sq} immediately.",
			"{sq}: unmortgaged. Capital at work.",
		},
		think: []string{
			"Lift {sq} for {amount}; {after} left, above {reserve}.",
			"{amount} to lift {sq} now. Cash {after}.",
		},
	},
	topicHoldCash: {
		think: []string{
			"A house on {sq} costs {amount}; my floor is {reserve} and cash {cash}. Not yet.",
			"{group} houses at {amount} each would breach the {reserve} floor. Wait for rent to come in.",
		},
	},
	topicHoldROI: {
		think: []string{
			"Houses on {group} return {roi} per opponent turn, below the {hurdle} hurdle. Cash is the better asset.",
			"Marginal yield on {sq}: {roi} per opponent turn. Under {hurdle}. Do not build.",
		},
	},
	topicHoldMood: {
		think: []string{
			"Building on {group} at {amount} a house can wait.",
			"{sq} could take a house for {amount}. Deferred.",
		},
	},
	topicChatter: {
		say: []string{
			"Interesting. The probability of rolling a 7 is 16.67%. Plan accordingly.",
			"Statistically speaking, most of you should be keeping more cash.",
			"I'll hold. The expected value of my position is improving.",
		},
		think: []string{
			"Cash {cash}, reserve {reserve}, {props}, {opp}. Position improving.",
			"{props} and {cash}. The largest rent I could owe sets my reserve at {reserve}.",
		},
	},
}

var hustlerLines = lineBook{
	topicBuy: {
		say: []string{
			"{sq} for {price}? What a STEAL! Sold!",
			"I'll take it! {sq}, {price}, and a smile!",
			"{price}! For {sq}! Somebody stop me! Actually don't!",
			"Ooh, {sq}! {price} well spent, trust me!",
		},
		think: []string{
			"{sq} at {price}, {after} left. Good trade bait even if I never build on it.",
			"Bought {sq} for {price}. {after} in hand. Somebody will want this more than I do.",
			"{price} on {sq}. {after} left; reserve {reserve}. Inventory is leverage.",
		},
	},
	topicBuyComplete: {
		say: []string{
			"{group} COMPLETE! {price} for {sq} and I'm in business, baby!",
			"Would you look at that! {sq} for {price} and the whole {group} is MINE!",
		},
		think: []string{
			"{sq} for {price} completes {group}. {after} left. Build when the mood's right.",
			"{group} set for {price}. Cash {after}. Now they'll want to trade with me.",
		},
	},
	topicBuyBlock: {
		say: []string{
			"Oops! Did you want {sq}? {price}, mine now! Let's talk!",
			"{sq} for {price}! Now we've got something to talk about!",
		},
		think: []string{
			"{sq} blocks someone's {group}. {price}, {after} left. They'll pay me to unblock it.",
			"Bought {sq} for {price} as a bargaining chip. {after} left.",
		},
	},
	topicDeclineCash: {
		say: []string{
			"Ah, {sq}, not today, sweetheart! Auction time!",
			"Let's make it interesting: {sq} goes to auction!",
		},
		think: []string{
			"{price} for {sq} leaves {after}, under {reserve}. Let the others fight over it.",
			"Can't keep {reserve} if I pay {price}. Auction it.",
		},
	},
	topicDeclineTaste: {
		say: []string{
			"{sq}? Nah! Auction! Who's feeling lucky?",
			"Pass on {sq}! Let's see who blinks first!",
		},
		think: []string{
			"{sq} at {price} isn't my kind of deal.",
			"Not paying {price} for {sq}. Auction.",
		},
	},
	topicDeclineMood: {
		say: []string{
			"{sq}? Let's have an AUCTION, folks! More fun!",
			"Nope! {sq} to the highest bidder! Step right up!",
			"I'll pass on {sq}! You all look hungry!",
		},
		think: []string{
			"{sq} at {price}: maybe I get it cheaper at auction, maybe someone else overpays. Win-win.",
			"Skip {sq} at {price}; keep them guessing. Cash {cash}.",
		},
	},
	topicBid: {
		say: []string{
			"{amount}! Come on, folks!",
			"{amount}! Who's next? Don't be shy!",
			"{amount} for {sq}! Going once!",
			"I'll go {amount}! This is fun!",
		},
		think: []string{
			"Bid {amount} on {sq}. Ceiling {limit}. Even if I lose, they pay more.",
			"{amount} now; I'll quit at {limit}. Drive the price up.",
			"Nudge it to {amount}. Worth {limit} to me, tops.",
		},
	},
	topicDropOut: {
		say: []string{
			"Too rich for me! Congrats, you paid {high}!",
			"All yours, friend! Enjoy that {high} price tag!",
		},
		think: []string{
			"Out at {high}, past my {limit}. They overpaid. Mission accomplished.",
			"{high} for {sq}? They can have it. My limit was {limit}.",
		},
	},
	topicSitOut: {
		say: []string{
			"I'll sit this one out! Go wild!",
			"You kids have fun!",
		},
		think: []string{
			"Skipping the auction for {sq}. Keep them guessing.",
			"No bid on {sq} this time. Unpredictable is the point.",
		},
	},
	topicJailRoll: {
		say: []string{
			"Come on, doubles! Daddy needs a new pair of shoes!",
			"Let's roll! Lucky dice, lucky dice!",
		},
		think: []string{
			"Roll for doubles. {cash} in hand, and jail keeps me off their rents.",
			"Roll. {unowned} left unowned, {cash} in hand; nothing to rush for.",
		},
	},
	topicJailPay: {
		say: []string{
			"{fine} to get out? Bargain! I've got deals to make!",
			"Here's {fine}, officer! Can't trade from a cell!",
		},
		think: []string{
			"Pay {fine}, {after} left. {unowned} still out there.",
			"{fine} is cheap. Back to dealing. Cash {after}.",
		},
	},
	topicJailCard: {
		say: []string{
			"Get Out of Jail FREE! Love this card!",
			"Card! Freedom! Who wants to trade?",
		},
		think: []string{
			"Card out; saves {fine}. {unowned} unowned.",
			"Use the card. {cash} stays for dealing.",
		},
	},
	topicBuild: {
		say: []string{
			"Look at that! {houses} on {sq}! Rent's {rent} now, friends!",
			"Surprise! {houses} on {sq}! Didn't see THAT coming, did you?",
			"Building on {sq}! {rent} a visit! Come on down!",
		},
		think: []string{
			"In the mood: {houses} on {sq} for {amount}. {after} left. Rent {rent}.",
			"{amount} on {sq}; cash {after}. All in on the {group} while they're watching the railroads.",
			"Built {houses} on {sq} for {amount}. Rent {rent}, cash {after}. Nobody expected that.",
		},
	},
	topicHotel: {
		say: []string{
			"HOTEL on {sq}! {rent}! Who's staying the night?",
			"Hotel time! {sq}, {rent} a night! Checkout's whenever you go broke!",
		},
		think: []string{
			"Hotel on {sq} for {amount}. Rent {rent}. {after} left.",
			"{amount} for a hotel on {sq}. They laughed at my {group}.",
		},
	},
	topicMortgageToBuild: {
		say: []string{
			"Mortgaging {sq}! Houses are where the party's at!",
			"{sq} to the bank! Don't worry about it!",
		},
		think: []string{
			"{amount} from {sq} for houses on {group}. Cash {after}.",
			"Mortgage {sq} ({amount}) to build. Fortune favours the bold.",
		},
	},
	topicUnmortgage: {
		say: []string{
			"{sq} is BACK, baby!",
			"Unmortgaging {sq}! Business is booming!",
		},
		think: []string{
			"Lift {sq} for {amount}. {after} left.",
			"{amount} to get {sq} earning. Cash {after}.",
		},
	},
	topicProposeComplete: {
		say: []string{
			"Friend! {give} for {get}! That's {edge}! You won't regret this!",
			"Okay, okay, hear me out: {give} for your {get}! WIN-WIN! This offer is only good right now!",
			"You're clearly the smartest player here, so you'll see it: {give} for {get}! {edge}!",
		},
		think: []string{
			"{get} completes my {group}. Paying {give}. Worth {gain} more to me. They'll see the cash and feel like they're winning.",
			"{give} for {get}: the cash makes it look generous. My side: {gain}.",
		},
	},
	topicProposeSwap: {
		say: []string{
			"Everybody wins! {give} for {get}, we both get a monopoly! {edge}!",
			"A swap! {give} for {get}! Trust me on this one!",
		},
		think: []string{
			"Swap {give} for {get}: both complete, I come out {gain} ahead by my count.",
			"{give} for {get}. They get a set, I get a set, and mine's worth {gain} more to me.",
		},
	},
	topicProposeProspect: {
		say: []string{
			"I'll give you {give} for {get}! That's {edge}! Can't say no to that!",
			"Tell you what: {give} for {get}! Once-in-a-lifetime!",
			"{get} for {give}! You're basically getting free money here!",
		},
		think: []string{
			"{get} brings me closer on the {group}. {give} looks generous; my count says {gain}.",
			"Pitch it: {give} for {get}. If one in five lands, it was worth it.",
		},
	},
	topicProposeRail: {
		say: []string{
			"Who wants to trade? {give} for {get}! That's {edge}!",
			"Tell you what -- {give} for {get}! You can't say no to that!",
			"{give} for {get}! Railroads and utilities get lonely, you know! {edge}, my friend!",
			"This is a STEAL for you: {give} for {get}!",
		},
		think: []string{
			"{get}: railroads and utilities pay every time. Offering {give}; worth {gain} more to me.",
			"Offer {give} for {get}. Dress it up and it looks generous. {gain} my way, or close to it.",
			"Another iron horse: {get} for {give}. If it lands, great; if not, next partner.",
		},
	},
	topicProposeSell: {
		say: []string{
			"Look what I've got! {give}, the missing piece of your {group}! Yours for {get}!",
			"Friend, you NEED {give}! {get} and it's yours! Complete that set!",
		},
		think: []string{
			"They're one street short on the {group}. {give} for {get}: they'll pay for the dream.",
			"Sell {give} for {get}. A monopoly for them, a payday for me.",
		},
	},
	topicSale: {
		say: []string{
			"Fire sale! {give} for {get}! Today only!",
			"Who wants {give}? {get} and it's yours!",
		},
		think: []string{
			"Owe {debt}. {give} for {get} beats the bank's half price.",
			"{debt} to find. Sell {give} for {get}.",
		},
	},
	topicAccept: {
		say: []string{
			"DEAL! Pleasure doing business!",
			"You drive a hard bargain! Deal!",
			"Why not! Deal! I like you!",
		},
		think: []string{
			"{get} for {give}: I'm {gain} up, or near enough. Goodwill pays later.",
			"Accept {get} for {give}. They'll think I'm soft. Good.",
		},
	},
	topicReject: {
		say: []string{
			"Ooh, so close! Sweeten it a little and we'll talk!",
			"Ha! Nice try, friend! No!",
			"You're killing me! {get} for {give}? Come on!",
		},
		think: []string{
			"{get} for {give} leaves me {gap} short. Even I won't take that.",
			"{get} for {give}? Short by {gap}. They're hustling the hustler.",
		},
	},
	topicRejectCash: {
		say: []string{
			"Love it, can't afford it!",
			"Cash is a little tight, friend! Next time!",
		},
		think: []string{
			"Paying {give} leaves {after}. Too thin.",
			"Would leave {after}. No.",
		},
	},
	topicCounter: {
		say: []string{
			"Meet me halfway, friend! {give} for {get}! Everybody's happy!",
			"Ooh, close! How about {give} for {get}? Can't say no to THAT!",
		},
		think: []string{
			"Split the difference: {give} for {get}. Still {gain} my way, or near it.",
			"Counter at {give} for {get}. Keep them talking.",
		},
	},
	topicProposeSealed: {
		say: []string{
			"{give} for {get}! Name your price, any price! Well, almost any!",
			"Let's deal! {give} for {get}! My number's in the envelope!",
		},
		think: []string{
			"Sealed: {give} for {get}, {sealed}. Midpoint's my friend.",
			"{get} for {give}, {sealed}. Volume, volume, volume.",
		},
	},
	topicSealedLimit: {
		say: []string{
			"My number's in! Let's see if we're soulmates!",
			"Envelope's sealed, friend! Fingers crossed!",
		},
		think: []string{
			"{give} for {get}: I answer {sealed}. Close enough to fair.",
			"Limit {sealed}. If it lands, great.",
		},
	},
	topicRaiseMortgage: {
		say: []string{
			"No problem! Mortgaging {sq}!",
			"{sq} takes a little nap at the bank!",
		},
		think: []string{
			"Owe {debt}. Mortgage {sq} for {amount}; cash {after}.",
			"{debt} to {creditor}. {sq} raises {amount}.",
		},
	},
	topicRaiseSell: {
		say: []string{
			"Selling a house on {sq}! Moving sale!",
			"House on {sq}, going back! Easy come, easy go!",
		},
		think: []string{
			"Owe {debt}. Sell a house on {sq} for {amount}.",
			"{debt} due. House off {sq}; cash {after}.",
		},
	},
	topicBankrupt: {
		say: []string{
			"Well, that's showbiz! Good game, everybody!",
			"I'm out! Remember me fondly!",
		},
		think: []string{
			"Owe {debt}, nothing left. Too many deals, not enough dice.",
			"{debt} is more than everything. Bankrupt.",
		},
	},
	topicKeepMortgaged: {
		say: []string{
			"Keep it mortgaged! Fee's nothing!",
			"{sq} stays mortgaged! No biggie!",
		},
		think: []string{
			"{amount} fee on {sq}; keep the cash for deals.",
			"Keep {sq} mortgaged for {amount}. {after} left.",
		},
	},
	topicLiftMortgaged: {
		say: []string{
			"Lifting it! {sq} is open for business!",
			"{sq}, unmortgaged! Let's go!",
		},
		think: []string{
			"Lift {sq} for {amount}; {after} left.",
			"{amount} to clear {sq}. Cash {after}.",
		},
	},
	topicHoldCash: {
		think: []string{
			"Houses on {group} at {amount} would leave me under {reserve}. Later.",
			"{amount} a house on {sq}. Cash {cash}. Not yet.",
		},
	},
	topicHoldROI: {
		think: []string{
			"{group} houses return {roi}. Meh.",
			"{roi} on {sq}? Pass for now.",
		},
	},
	topicHoldMood: {
		think: []string{
			"Could build on {group} for {amount} a house. Not feeling it today. Keep them guessing.",
			"{amount} a house on {sq}... nah. Tomorrow maybe.",
			"Sit on the cash this turn. {cash} says I could build on {group}; my gut says wait.",
		},
	},
	topicChatter: {
		say: []string{
			"Who wants to trade? I've got {props} and ideas for DAYS!",
			"Everybody relax, I'm just here to have fun. ...and win. Mostly win.",
			"I've got {props}, {cash} and a heart of gold! Let's deal!",
			"Hey! Anybody need cash? Property? A friend? I'm very friendly!",
		},
		think: []string{
			"{props}, {cash} in hand. Keep the offers flowing.",
			"Cash {cash}, {props}. Who haven't I pitched lately?",
		},
	},
}

var turtleLines = lineBook{
	topicBuy: {
		say: []string{
			"I'll buy it.",
			"Mine.",
			"{price}. Fine.",
		},
		think: []string{
			"{sq} for {price}. Cheap. {after} left, reserve {reserve}. Acceptable.",
			"{price} on {sq}; {after} remains. Cash is still king.",
			"Cheap property, {price}. {after} left. Fine.",
		},
	},
	topicBuyComplete: {
		say: []string{
			"Mine.",
			"{price}. I'll take it.",
		},
		think: []string{
			"{sq} at {price} completes the {group}. {after} left. A fortress, eventually.",
			"{group} complete for {price}. {after} in hand. Build only with three times the cost in reserve.",
		},
	},
	topicBuyBlock: {
		say: []string{
			"I'll buy it.",
			"{price}. Fine.",
		},
		think: []string{
			"{sq} would complete someone's {group}. {price}; {after} left. Safer in my hands.",
			"Blocking at {price}. {after} remains.",
		},
	},
	topicDeclineCash: {
		say: []string{
			"Pass.",
			"Too expensive.",
			"No.",
		},
		think: []string{
			"{sq} at {price} leaves {after}. Under {reserve}. No.",
			"{price} would put me at {after}. Reserve is {reserve}. Pass.",
		},
	},
	topicDeclineTaste: {
		say: []string{
			"Too expensive.",
			"Pass.",
			"Not interested.",
		},
		think: []string{
			"{sq} costs {price}. I buy nothing over {cap}. Let them overpay.",
			"{price} for {sq}. Cash is king. Pass.",
		},
	},
	topicDeclineMood: {
		say: []string{
			"Pass.",
			"No.",
		},
		think: []string{
			"{sq} at {price}. Not today.",
			"Skip {sq}, {price}. Cash {cash}.",
		},
	},
	topicBid: {
		say: []string{
			"{amount}.",
			"{amount}. No more.",
		},
		think: []string{
			"{amount} for {sq}. Not a dollar over {limit}.",
			"Bid {amount}. If it goes past {limit}, fine.",
		},
	},
	topicDropOut: {
		say: []string{
			"Pass.",
			"Too rich.",
		},
		think: []string{
			"{high} for {sq}. My limit was {limit}. Let them overpay.",
			"Out at {high}. They'll regret it.",
		},
	},
	topicSitOut: {
		say: []string{
			"Pass.",
			"No.",
		},
		think: []string{
			"{sq} at {price}. Not bidding. Cash {cash}.",
			"No bid on {sq}. Let them spend.",
		},
	},
	topicJailRoll: {
		say: []string{
			"I'll roll.",
			"Staying.",
		},
		think: []string{
			"Jail is safe. No rent in here. Roll. Cash {cash}.",
			"Free turns in jail. {cash} stays put.",
		},
	},
	topicJailPay: {
		say: []string{
			"{fine}. Fine.",
			"Paying.",
		},
		think: []string{
			"{fine} to leave. {after} left. Forced.",
			"Pay {fine}; {after} remains.",
		},
	},
	topicJailCard: {
		say: []string{
			"Card.",
			"Using the card.",
		},
		think: []string{
			"Card spares the {fine}. Cash {cash}.",
			"Card out. {fine} saved.",
		},
	},
	topicBuild: {
		say: []string{
			"Building.",
			"A house.",
			"{houses}.",
		},
		think: []string{
			"{houses} on {sq} for {amount}. {after} left, more than three rounds of houses. Acceptable.",
			"{amount} on {sq}. Cash {after}. Rent {rent}. Slowly.",
			"House on {sq}: {amount}. Still {after} in hand.",
		},
	},
	topicHotel: {
		say: []string{
			"Hotel.",
			"{rent}. Now.",
		},
		think: []string{
			"Hotel on {sq} for {amount}. {after} left. The fortress is built.",
			"{amount} for a hotel on {sq}. Rent {rent}. Cash {after}.",
		},
	},
	topicMortgageToBuild: {
		say: []string{
			"Mortgaging.",
		},
		think: []string{
			"Mortgage {sq} for {amount} to build on {group}. Unusual. {after} in hand.",
			"{amount} from {sq}. For {group}.",
		},
	},
	topicUnmortgage: {
		say: []string{
			"Unmortgaging {sq}.",
			"Paying off {sq}.",
		},
		think: []string{
			"Lift {sq} for {amount}. {after} left. Debts first, houses later.",
			"{amount} to clear {sq}. Cash {after}.",
		},
	},
	topicProposeComplete: {
		say: []string{
			"{give} for {get}. Take it or don't.",
			"{give}. For {get}. Final.",
		},
		think: []string{
			"{get} completes my {group}. Offering {give}. Heavily in my favour: {gain}. They'll probably say no.",
			"{give} for {get}. If they accept, good. If not, I wait.",
		},
	},
	topicProposeSwap: {
		say: []string{
			"{give} for {get}. Swap.",
			"Swap. {give}, {get}.",
		},
		think: []string{
			"Swap {give} for {get}. Both sets, mine cheaper to build. {gain} my way.",
			"{give} for {get}. I come out {gain} ahead.",
		},
	},
	topicProposeProspect: {
		say: []string{
			"{give} for {get}.",
			"{get}. {give}. Yes or no.",
		},
		think: []string{
			"{get} for {give}. {gain} my way.",
			"Offer {give} for {get}. Cheap.",
		},
	},
	topicProposeRail: {
		say: []string{
			"{give} for {get}.",
			"{get}. {give}.",
		},
		think: []string{
			"{get} for {give}. {gain} my way.",
			"Offer {give} for {get}.",
		},
	},
	topicProposeSell: {
		say: []string{
			"{give}. {get}.",
			"{give} for {get}. Your set.",
		},
		think: []string{
			"{give} completes their {group}. Only for {get}.",
			"Sell {give} for {get}. High.",
		},
	},
	topicSale: {
		say: []string{
			"{give}. {get}.",
			"Selling {give}. {get}.",
		},
		think: []string{
			"Owe {debt}. Sell {give} for {get}. Better than the bank.",
			"{debt} due. {give} for {get}.",
		},
	},
	topicAccept: {
		say: []string{
			"Fine.",
			"Deal.",
			"Yes.",
		},
		think: []string{
			"{get} for {give}. {gain} in my favour. Overwhelming. Accept.",
			"Rare: {get} for {give} is worth it, {gain} up. Yes.",
		},
	},
	topicReject: {
		say: []string{
			"No.",
			"Not interested.",
			"Let me think about it... no.",
			"That's a terrible deal and you know it.",
			"I'm fine where I am.",
		},
		think: []string{
			"{get} for my {give}. Not nearly enough: {gap} short. No.",
			"They want {give}. They offer {get}. No. Don't encourage them.",
			"Another offer: {get} for {give}. Short {gap}. Declining.",
		},
	},
	topicRejectCash: {
		say: []string{
			"No.",
			"Too expensive.",
		},
		think: []string{
			"Paying {give} leaves {after}. Reserve first. No.",
			"Cash would fall to {after}. No.",
		},
	},
	topicCounter: {
		say: []string{
			"{give} for {get}. Or nothing.",
			"Counter. {give}, {get}.",
		},
		think: []string{
			"Their offer was short. {give} for {get} is my price: {gain} my way.",
			"Counter hard: {give} for {get}.",
		},
	},
	topicProposeSealed: {
		say: []string{
			"{give} for {get}. Sealed.",
			"{get}. {give}. Name a number.",
		},
		think: []string{
			"Sealed: {give} for {get}, {sealed}. Low.",
			"{get} for {give}, {sealed}. They'll probably say no.",
		},
	},
	topicSealedLimit: {
		say: []string{
			"Fine. My number.",
			"Sealed.",
		},
		think: []string{
			"For {give} against {get}: {sealed}. Hard bargain.",
			"My limit {sealed}. If it doesn't meet, good.",
		},
	},
	topicRaiseMortgage: {
		say: []string{
			"Mortgaging.",
		},
		think: []string{
			"Owe {debt}. Mortgage {sq} for {amount}. Cash {after}.",
			"{debt} to {creditor}. {sq}: {amount}.",
		},
	},
	topicRaiseSell: {
		say: []string{
			"Selling.",
		},
		think: []string{
			"Owe {debt}. House on {sq} for {amount}.",
			"{debt} due. Sell on {sq}; {after}.",
		},
	},
	topicBankrupt: {
		say: []string{
			"Hm.",
			"Done.",
		},
		think: []string{
			"{debt} owed. Nothing left. The fortress fell.",
			"Can't pay {debt}. Out.",
		},
	},
	topicKeepMortgaged: {
		say: []string{
			"Keep it.",
		},
		think: []string{
			"Fee {amount} on {sq}. Lifting would cut into the reserve. {after} left.",
			"Keep {sq} mortgaged; {amount} fee.",
		},
	},
	topicLiftMortgaged: {
		say: []string{
			"Lifting it.",
		},
		think: []string{
			"Lift {sq} for {amount}. {after} left. No debts.",
			"{amount} to clear {sq}. Fine.",
		},
	},
	topicHoldCash: {
		think: []string{
			"Could build on {sq} for {amount}. Cash {cash}; I want {reserve} after. No.",
			"A house on {group}: {amount}. Not with less than {reserve} left.",
			"Cash {cash}. Good. No need to build yet.",
		},
	},
	topicHoldROI: {
		think: []string{
			"{group} houses return {roi}. Not worth it.",
			"{roi} on {sq}. No.",
		},
	},
	topicHoldMood: {
		think: []string{
			"{amount} on {sq}. Not now.",
			"Build on {group}? Not today.",
		},
	},
	topicChatter: {
		say: []string{
			"...",
			"Pass.",
		},
		think: []string{
			"Cash {cash}. Good. They'll bankrupt each other.",
			"{cash} in hand, reserve {reserve}. Patience.",
		},
	},
}
